"""Shared set-up of the scene tree tests (no tests here): a dock over hinge_robot.wbt."""

from __future__ import annotations

from pathlib import Path

from app.scene_tree import SceneTreeDock
from engine.world import read_world

WORLDS = Path(__file__).resolve().parents[1] / "resources" / "worlds"


def make_dock(qtbot, name: str = "hinge_robot.wbt"):
    """A shown dock editing a freshly read world, edits applied directly."""
    world = read_world(str(WORLDS / name))
    dock = SceneTreeDock()
    qtbot.addWidget(dock)
    dock.set_world(world, world_path=str(WORLDS / name))
    dock.resize(500, 800)
    dock.show()
    qtbot.waitExposed(dock)
    return dock, world


def select_field(dock, node, field: str):
    """Make ``node.field`` the current row; returns the panel's editor."""
    dock.view.setCurrentIndex(dock.model.field_index(node, field))
    return dock.panel.editor


def select_node(dock, node):
    """Make ``node``'s row the current row."""
    dock.view.setCurrentIndex(dock.model.node_index(node))
