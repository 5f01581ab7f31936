"""The in-app physics-plugin editor (docs/app.md).

    editor = PluginEditor()
    editor.saved.connect(reload_plugin)      # saved(path): reload the plugin
    editor.open_file(source, line=12)        # from the console's error link
    editor.show()
"""

from app.plugin_editor.code_edit import CodeEdit
from app.plugin_editor.editor import PluginEditor, write_atomically
from app.plugin_editor.find_bar import FindBar
from app.plugin_editor.highlighter import FORMATS, PythonHighlighter

__all__ = ["FORMATS", "CodeEdit", "FindBar", "PluginEditor", "PythonHighlighter",
           "write_atomically"]
