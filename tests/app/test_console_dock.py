"""Tests of the console dock: lines, clears, filters, error links, floods."""

from __future__ import annotations

import time

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor

from app.console_dock import FILTERS, ConsoleDock, find_link, location_href, parse_href
from engine.plugins.faults import PluginError


@pytest.fixture
def dock(qtbot):
    widget = ConsoleDock(max_lines=1000)
    qtbot.addWidget(widget)
    widget.resize(700, 300)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def test_append_shows_lines_after_batching(dock, qtbot):
    dock.append("odeon", "hello")
    dock.append("physics", "myplugin: step 1")
    assert dock.visible_lines() == []  # batched, not written yet
    qtbot.waitUntil(lambda: dock.visible_lines() == ["hello", "myplugin: step 1"], timeout=2000)


def test_multiline_text_gives_several_lines(dock):
    dock.append("physics", "a\nb")
    dock.flush()
    assert dock.visible_lines() == ["a", "b"]
    assert dock.kept_lines() == [("physics", "a"), ("physics", "b")]


def test_form_feed_clears_console(dock):
    dock.append("physics", "p: one")
    dock.flush()
    dock.append("physics", "p: two")  # still queued
    dock.append("physics", "\f")
    dock.append("physics", "p: three")
    dock.flush()
    assert dock.visible_lines() == ["p: three"]
    assert dock.kept_lines() == [("physics", "p: three")]


def test_clear_action_empties(dock):
    dock.append("odeon", "x")
    dock.flush()
    dock.clear_action.trigger()
    dock.flush()
    assert dock.visible_lines() == []
    assert dock.kept_lines() == []


def _fill(dock):
    dock.append("odeon", "simulator line")
    dock.append("physics", "myplugin: output")
    dock.append("plugin-error", "/p/x.py:3: physics plugin 'x' failed")
    dock.append("parsing", "WARNING: unknown field 'foo'")
    dock.append("odeon", "WARNING: 12 contact points")
    dock.append("controller", "robot says hi")
    dock.flush()


@pytest.mark.parametrize(("name", "expected"), [
    ("All", ["simulator line", "myplugin: output", "/p/x.py:3: physics plugin 'x' failed",
             "WARNING: unknown field 'foo'", "WARNING: 12 contact points", "robot says hi"]),
    ("Physics plugins", ["myplugin: output", "/p/x.py:3: physics plugin 'x' failed"]),
    ("Errors", ["/p/x.py:3: physics plugin 'x' failed"]),
    ("Warnings", ["WARNING: unknown field 'foo'", "WARNING: 12 contact points"]),
    ("Parsing", ["WARNING: unknown field 'foo'"]),
    ("Odeon", ["simulator line", "WARNING: 12 contact points"]),
    ("Others", ["robot says hi"]),
])
def test_filters_hide_and_show(dock, name, expected):
    _fill(dock)
    dock.set_filter(name)
    assert dock.visible_lines() == expected
    assert dock.filter_combo.currentText() == name
    dock.append("physics", "myplugin: later")
    dock.flush()
    shown = dock.visible_lines()
    assert ("myplugin: later" in shown) == (name in ("All", "Physics plugins"))
    dock.set_filter("All")
    assert len(dock.visible_lines()) == 7


def test_filter_combo_drives_filter(dock):
    _fill(dock)
    dock.filter_combo.setCurrentText("Errors")
    assert dock.current_filter == "Errors"
    assert dock.visible_lines() == ["/p/x.py:3: physics plugin 'x' failed"]
    assert list(FILTERS)[0] == "All"
    with pytest.raises(ValueError, match="unknown console filter"):
        dock.set_filter("Nope")


def test_find_link_patterns():
    assert find_link("/a/b/p.py:12: boom") == (0, len("/a/b/p.py:12"), "/a/b/p.py", 12)
    text = '  File "/a/b c/p.py", line 7, in webots_physics_step'
    start, end, path, line = find_link(text)
    assert (path, line) == ("/a/b c/p.py", 7)
    assert text[start:end] == 'File "/a/b c/p.py", line 7'
    assert find_link("no location here") is None
    assert parse_href(location_href("/a/b c/p.py", 7)) == ("/a/b c/p.py", 7)
    assert parse_href("https://example.org") is None


def _error(tmp_path):
    path = str(tmp_path / "my plugin.py")
    text = (f'Traceback (most recent call last):\n  File "{path}", line 9, in '
            f'webots_physics_step\n    1 / 0\nZeroDivisionError: division by zero')
    return PluginError("webots_physics_step", path, 9, "ZeroDivisionError: division by zero",
                       text), path


def test_append_error_shows_location_and_traceback(dock, tmp_path):
    error, path = _error(tmp_path)
    dock.append_error(error)
    dock.flush()
    lines = dock.visible_lines()
    assert lines[0] == f"{path}:9: ZeroDivisionError: division by zero"
    assert lines[1:] == error.text.splitlines()
    dock.set_filter("Errors")
    assert dock.visible_lines() == lines


def test_clicking_error_link_emits_open_location(dock, qtbot, tmp_path):
    error, path = _error(tmp_path)
    dock.append("odeon", "before")
    dock.append_error(error)
    dock.flush()
    assert dock.link_position(0) is None  # "before" has no link
    pos = dock.link_position(1)
    assert pos is not None
    assert dock.view.anchorAt(pos)
    with qtbot.waitSignal(dock.open_location, timeout=1000) as blocker:
        qtbot.mouseClick(dock.view.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    assert blocker.args == [path, 9]


def test_traceback_frame_line_link(dock, qtbot, tmp_path):
    path = str(tmp_path / "p.py")
    dock.append("plugin-error", f'  File "{path}", line 42, in webots_physics_init')
    dock.flush()
    pos = dock.link_position(0)
    with qtbot.waitSignal(dock.open_location, timeout=1000) as blocker:
        qtbot.mouseClick(dock.view.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    assert blocker.args == [path, 42]


def test_clicking_plain_text_emits_nothing(dock, qtbot):
    dock.append("physics", "p: nothing to click here")
    dock.append("plugin-error", "/p/x.py:3: boom")
    dock.flush()
    cursor = QTextCursor(dock.view.document())
    cursor.setPosition(8)  # inside line 1, which has no link
    pos = dock.view.cursorRect(cursor).center()
    assert dock.view.anchorAt(pos) == ""
    with qtbot.assertNotEmitted(dock.open_location):
        qtbot.mouseClick(dock.view.viewport(), Qt.MouseButton.LeftButton, pos=pos)


def test_flood_stays_bounded_and_fast(dock):
    start = time.perf_counter()
    for i in range(10_000):
        dock.append("physics", f"p: line {i}")
    dock.flush()
    elapsed = time.perf_counter() - start
    lines = dock.visible_lines()
    assert len(lines) == 1000
    assert lines[0] == "p: line 9000" and lines[-1] == "p: line 9999"
    assert dock.view.document().blockCount() == 1000
    assert len(dock.kept_lines()) == 1000
    assert elapsed < 5.0


def test_flood_in_many_flushes_stays_bounded(dock):
    for i in range(5000):
        dock.append("odeon", f"l{i}")
        if i % 100 == 99:
            dock.flush()
    dock.flush()
    assert dock.view.document().blockCount() == 1000
    assert dock.visible_lines()[-1] == "l4999"
    assert dock.visible_lines()[0] == "l4000"


def test_context_menu_filter_and_clear(dock):
    _fill(dock)
    menu = dock.context_menu()
    filter_menu = next(a.menu() for a in menu.actions() if a.text() == "Filter")
    names = [a.text() for a in filter_menu.actions()]
    assert names == list(FILTERS)
    assert [a.isChecked() for a in filter_menu.actions()] == [n == "All" for n in FILTERS]
    filter_menu.actions()[FILTERS.index("Warnings")].trigger()
    assert dock.current_filter == "Warnings"
    assert dock.visible_lines() == ["WARNING: unknown field 'foo'", "WARNING: 12 contact points"]
    assert dock.clear_action in menu.actions()


def test_huge_lines_are_cut_and_the_kept_text_is_bounded(qtbot):
    dock = ConsoleDock(max_lines=1000, max_chars=300_000, max_line_chars=64 * 1024)
    qtbot.addWidget(dock)
    for i in range(20):  # a plugin printing a 10 MB line per step
        dock.append("physics", f"p{i}: " + "x" * 10_000_000)
        dock.flush()
    kept = dock.kept_lines()
    assert sum(len(t) for _s, t in kept) <= 300_000
    assert kept[-1][1].startswith("p19: ") and "more characters cut" in kept[-1][1]
    assert dock.view.document().characterCount() <= 300_000 + 1000
    assert dock.dropped_lines > 0
    assert f"{dock.dropped_lines} older lines dropped" in dock.dropped_label.text()


def test_a_flood_between_flushes_keeps_the_newest_within_the_character_cap(qtbot):
    dock = ConsoleDock(max_lines=1000, max_chars=100_000, max_line_chars=10_000)
    qtbot.addWidget(dock)
    for i in range(500):
        dock.append("physics", f"{i:04d}" + "y" * 9_000)
    assert sum(len(e.text) for e in dock._pending) <= 100_000
    dock.flush()
    assert dock.kept_lines()[-1][1].startswith("0499")
    dock.clear()
    assert dock.dropped_lines == 0 and dock.dropped_label.text() == ""
