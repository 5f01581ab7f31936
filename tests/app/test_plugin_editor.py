"""Tests of the plugin editor: open, highlight, find, go to line, save, close."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QTextCursor

from app.plugin_editor import FORMATS, PluginEditor, PythonHighlighter, write_atomically

SOURCE = '''"""Docstring line 1
still in the docstring"""
import math  # a comment


@decorated
def webots_physics_step():
    x = 42 + 3.5
    return "text" if x else None
'''


@pytest.fixture
def plugin_file(tmp_path: Path) -> Path:
    path = tmp_path / "my_plugin" / "my_plugin.py"
    path.parent.mkdir()
    path.write_text(SOURCE, encoding="utf-8")
    return path


class Answers:
    """Scripted answers to the unsaved-changes question (records the questions)."""

    def __init__(self, answer: str) -> None:
        self.answer = answer
        self.asked: list[str] = []

    def __call__(self, name: str) -> str:
        self.asked.append(name)
        return self.answer


@pytest.fixture
def make_editor(qtbot):
    def make(answer: str = "cancel", **kwargs) -> tuple[PluginEditor, Answers]:
        answers = Answers(answer)
        errors: list[str] = []
        editor = PluginEditor(ask_unsaved=answers, show_error=errors.append, **kwargs)
        editor.errors = errors
        qtbot.addWidget(editor)
        with qtbot.waitActive(editor):  # shortcuts need the active window
            editor.show()
            editor.activateWindow()
        return editor, answers
    return make


def _formats_at(editor: PluginEditor, line: int) -> list[tuple[int, int, QColor]]:
    """(start, length, foreground colour) of the highlighter's ranges of ``line``."""
    block = editor.edit.document().findBlockByNumber(line - 1)
    ranges = block.layout().formats()
    return [(r.start, r.length, QColor(r.format.foreground().color())) for r in ranges]


def _kind_at(editor: PluginEditor, line: int, column: int) -> str | None:
    """The highlighter kind (key of FORMATS) covering (line, column), by colour."""
    for start, length, color in _formats_at(editor, line):
        if start <= column < start + length:
            for kind, ref in FORMATS.items():
                if ref.foreground().color() == color:
                    return kind
    return None


def test_open_file_shows_text_unmodified(make_editor, plugin_file):
    editor, _ = make_editor()
    assert editor.open_file(plugin_file)
    assert editor.text() == SOURCE
    assert not editor.is_modified()
    assert editor.path == plugin_file.resolve()
    assert "my_plugin.py" in editor.windowTitle()
    assert isinstance(editor.highlighter, PythonHighlighter)


def test_open_missing_file_reports_error(make_editor, tmp_path):
    editor, _ = make_editor()
    assert not editor.open_file(tmp_path / "nope.py")
    assert editor.path is None
    assert editor.errors and "nope.py" in editor.errors[0]


def test_highlighting_formats(make_editor, plugin_file):
    editor, _ = make_editor()
    editor.open_file(plugin_file)
    # line 1-2: triple-quoted string across lines
    assert _kind_at(editor, 1, 0) == "string"
    assert _kind_at(editor, 2, 5) == "string"
    assert editor.edit.document().findBlockByNumber(0).userState() == 2  # inside """
    # line 3: keyword, then comment
    assert _kind_at(editor, 3, 0) == "keyword"  # import
    assert _kind_at(editor, 3, 7) is None  # math
    assert _kind_at(editor, 3, 13) == "comment"
    assert editor.edit.document().findBlockByNumber(2).userState() == 0
    # line 6: decorator; line 7: def + function name
    assert _kind_at(editor, 6, 1) == "decorator"
    assert _kind_at(editor, 7, 0) == "keyword"
    assert _kind_at(editor, 7, 4) == "definition"
    # line 8: numbers
    line8 = SOURCE.splitlines()[7]
    assert _kind_at(editor, 8, line8.index("42")) == "number"
    assert _kind_at(editor, 8, line8.index("3.5") + 1) == "number"
    # line 9: keyword, string, None
    line9 = SOURCE.splitlines()[8]
    assert _kind_at(editor, 9, line9.index("return")) == "keyword"
    assert _kind_at(editor, 9, line9.index('"text"') + 2) == "string"
    assert _kind_at(editor, 9, line9.index("None")) == "builtin"


def test_keywords_inside_strings_and_comments_are_not_keywords(make_editor, tmp_path):
    path = tmp_path / "p.py"
    path.write_text("s = 'if else'  # return def\n", encoding="utf-8")
    editor, _ = make_editor()
    editor.open_file(path)
    assert _kind_at(editor, 1, 6) == "string"
    assert _kind_at(editor, 1, 18) == "comment"


def test_editing_closes_multiline_string(make_editor, tmp_path):
    path = tmp_path / "p.py"
    path.write_text("x = '''\nopen\nnot closed\n", encoding="utf-8")
    editor, _ = make_editor()
    editor.open_file(path)
    assert _kind_at(editor, 3, 0) == "string"
    cursor = QTextCursor(editor.edit.document().findBlockByNumber(1))
    cursor.movePosition(QTextCursor.MoveOperation.EndOfBlock)
    cursor.insertText("'''")  # close it on line 2
    assert _kind_at(editor, 2, 0) == "string"
    assert _kind_at(editor, 3, 0) == "keyword"  # "not" is a keyword again


def test_find_selects_next_match_and_wraps(make_editor, plugin_file, qtbot):
    editor, _ = make_editor()
    editor.open_file(plugin_file)
    editor.find_action.trigger()
    assert editor.find_bar.isVisible()
    editor.find_bar.field.setText("x")
    text = editor.text()
    first = text.index("x")
    cursor = editor.edit.textCursor()
    assert cursor.selectedText() == "x" and cursor.selectionStart() == first
    assert editor.find_bar.find_next()
    second = text.index("x", first + 1)
    assert editor.edit.textCursor().selectionStart() == second
    assert editor.find_bar.find_previous()
    assert editor.edit.textCursor().selectionStart() == first


def test_find_match_case_and_not_found(make_editor, plugin_file):
    editor, _ = make_editor()
    editor.open_file(plugin_file)
    editor.find_bar.open_bar()
    editor.find_bar.case_box.setChecked(True)
    editor.find_bar.field.setText("DOCSTRING")
    assert not editor.find_bar.find_next()
    assert editor.find_bar.status.text() == "Not found"
    editor.find_bar.case_box.setChecked(False)
    assert editor.find_bar.find_next()
    assert editor.edit.textCursor().selectedText() == "Docstring"


def test_find_bar_escape_closes(make_editor, plugin_file, qtbot):
    editor, _ = make_editor()
    editor.open_file(plugin_file)
    editor.find_bar.open_bar()
    qtbot.waitUntil(editor.find_bar.field.hasFocus, timeout=1000)
    qtbot.keyClick(editor.find_bar.field, Qt.Key.Key_Escape)
    assert not editor.find_bar.isVisible()


def test_go_to_line(make_editor, plugin_file):
    editor, _ = make_editor()
    editor.open_file(plugin_file, line=7)
    assert editor.edit.current_line() == 7
    assert editor.edit.textCursor().positionInBlock() == 0
    editor.go_to_line(999)  # clamped
    assert editor.edit.current_line() == editor.edit.blockCount()
    editor.go_to_line(0)
    assert editor.edit.current_line() == 1


def test_go_to_line_question(make_editor, plugin_file):
    editor, _ = make_editor(ask_line=lambda current, maximum: 8)
    editor.open_file(plugin_file)
    editor.goto_action.trigger()
    assert editor.edit.current_line() == 8


def test_modified_indicator(make_editor, plugin_file):
    editor, _ = make_editor()
    editor.open_file(plugin_file)
    assert not editor.isWindowModified()
    editor.edit.textCursor().insertText("# new\n")
    assert editor.is_modified() and editor.isWindowModified()


def test_save_writes_atomically_and_emits(make_editor, plugin_file, qtbot, monkeypatch):
    plugin_file.chmod(0o640)
    editor, _ = make_editor()
    editor.open_file(plugin_file)
    editor.edit.textCursor().insertText("# edited\n")
    replaced: list[tuple[str, str]] = []
    real_replace = os.replace

    def spy(src, dst):
        replaced.append((str(src), str(dst)))
        assert Path(src).parent == plugin_file.parent  # temp file in the same folder
        assert plugin_file.read_text(encoding="utf-8") == SOURCE  # old file intact until now
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", spy)
    with qtbot.waitSignal(editor.saved, timeout=1000) as blocker:
        editor.save_action.trigger()
    assert blocker.args == [str(plugin_file.resolve())]
    assert replaced and replaced[0][1] == str(plugin_file.resolve())
    assert plugin_file.read_text(encoding="utf-8") == "# edited\n" + SOURCE
    assert stat.S_IMODE(plugin_file.stat().st_mode) == 0o640
    assert not editor.is_modified()
    assert sorted(p.name for p in plugin_file.parent.iterdir()) == ["my_plugin.py"]


def test_save_shortcut(make_editor, plugin_file, qtbot):
    editor, _ = make_editor()
    editor.open_file(plugin_file)
    editor.edit.setFocus()
    editor.edit.textCursor().insertText("# k\n")
    with qtbot.waitSignal(editor.saved, timeout=1000):
        qtbot.keyClick(editor.edit, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert plugin_file.read_text(encoding="utf-8").startswith("# k\n")


def test_save_failure_keeps_old_file(make_editor, plugin_file, monkeypatch, qtbot):
    editor, _ = make_editor()
    editor.open_file(plugin_file)
    editor.edit.textCursor().insertText("# lost?\n")

    def boom(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with qtbot.assertNotEmitted(editor.saved):
        assert not editor.save()
    assert editor.is_modified()
    assert editor.errors and "disk full" in editor.errors[0]
    assert plugin_file.read_text(encoding="utf-8") == SOURCE
    assert sorted(p.name for p in plugin_file.parent.iterdir()) == ["my_plugin.py"]


def test_write_atomically_new_file(tmp_path):
    target = tmp_path / "new.py"
    write_atomically(target, "x = 1\n")
    assert target.read_text() == "x = 1\n"


@pytest.mark.parametrize(("answer", "closes", "saved_text"), [
    ("cancel", False, SOURCE),
    ("discard", True, SOURCE),
    ("save", True, "# change\n" + SOURCE),
])
def test_close_with_unsaved_changes_asks(make_editor, plugin_file, answer, closes, saved_text):
    editor, answers = make_editor(answer)
    editor.open_file(plugin_file)
    editor.edit.textCursor().insertText("# change\n")
    assert editor.close() is closes
    assert answers.asked == ["my_plugin.py"]
    assert plugin_file.read_text(encoding="utf-8") == saved_text


def test_close_without_changes_does_not_ask(make_editor, plugin_file):
    editor, answers = make_editor("cancel")
    editor.open_file(plugin_file)
    assert editor.close()
    assert answers.asked == []


def test_opening_another_file_asks_and_can_cancel(make_editor, plugin_file, tmp_path):
    other = tmp_path / "other.py"
    other.write_text("y = 2\n", encoding="utf-8")
    editor, answers = make_editor("cancel")
    editor.open_file(plugin_file)
    editor.edit.textCursor().insertText("# change\n")
    assert not editor.open_file(other)
    assert editor.path == plugin_file.resolve()
    assert editor.open_file(plugin_file, line=3)  # same file: keeps the edits, no question
    assert editor.is_modified() and editor.edit.current_line() == 3
    assert answers.asked == ["my_plugin.py"]
    answers.answer = "discard"
    assert editor.open_file(other)
    assert editor.text() == "y = 2\n"
