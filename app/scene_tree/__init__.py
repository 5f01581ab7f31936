"""The scene tree dock: nodes and fields of the world, per-type editors, undo/redo.

Public names used by the main window::

    from app.scene_tree import SceneTreeDock, EditSink, SetField, InsertNode, RemoveNode
    dock = SceneTreeDock(main_window)
    dock.set_world(world, sink, world_path)   # sink.apply(edit) routes edits
    dock.undo_action, dock.redo_action, dock.undo_stack
    dock.edit_plugin_requested.connect(...)   # WorldInfo.physics Select dialog's Edit button
    dock.edit_controller_requested.connect(...)  # Robot.controller Select dialog's Edit button
    dock.error_occurred.connect(...)          # refused edits (also shown in the panel)
    dock.report_error(message)                # errors found later by the engine thread
    dock.select_node(node); dock.node_selected.connect(...)
"""

from app.scene_tree.controller import SceneTreeController
from app.scene_tree.dock import SceneTreeDock
from app.scene_tree.edits import DirectSink, EditSink, InsertNode, RemoveNode, SetField, apply_edit
from app.scene_tree.model import SceneTreeModel
from app.scene_tree.node_picker import NodePickerDialog
from app.scene_tree.plugin_dialog import PluginSelectDialog

__all__ = [
    "DirectSink",
    "EditSink",
    "InsertNode",
    "NodePickerDialog",
    "PluginSelectDialog",
    "RemoveNode",
    "SceneTreeController",
    "SceneTreeDock",
    "SceneTreeModel",
    "SetField",
    "apply_edit",
]
