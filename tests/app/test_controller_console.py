"""The console's controller filters: "All controllers" and one per robot; the
lines keep their ``[robot]`` prefix."""

from __future__ import annotations

import pytest

from app.console_dock import FILTERS, ConsoleDock, robot_filter, robot_of_source


@pytest.fixture
def dock(qtbot):
    widget = ConsoleDock(max_lines=1000)
    qtbot.addWidget(widget)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def fill(dock: ConsoleDock) -> None:
    dock.append("odeon", "simulator line")
    dock.append("controller:alpha", "[alpha] hello from alpha")
    dock.append("physics", "plug: a plugin line")
    dock.append("controller:beta", "[beta] WARNING: beta is late")
    dock.append("controller:alpha", "[alpha] Traceback (most recent call last):\n"
                                    '[alpha]   File "/p/alpha.py", line 3, in <module>')
    dock.flush()


def test_robot_sources_and_filter_names() -> None:
    assert robot_of_source("controller:my robot") == "my robot"
    assert robot_of_source("physics") is None
    assert robot_filter("my robot") == "Robot 'my robot'"


def test_filters_per_robot_and_all_controllers(dock) -> None:
    dock.set_robots(["alpha", "beta"])
    assert dock.filters() == [*FILTERS, "Robot 'alpha'", "Robot 'beta'"]
    fill(dock)
    dock.set_filter("Robot 'alpha'")
    assert dock.visible_lines() == ["[alpha] hello from alpha",
                                    "[alpha] Traceback (most recent call last):",
                                    '[alpha]   File "/p/alpha.py", line 3, in <module>']
    dock.set_filter("All controllers")
    assert dock.visible_lines() == ["[alpha] hello from alpha", "[beta] WARNING: beta is late",
                                    "[alpha] Traceback (most recent call last):",
                                    '[alpha]   File "/p/alpha.py", line 3, in <module>']
    # Warnings and Errors see controller lines behind their prefix
    dock.set_filter("Warnings")
    assert dock.visible_lines() == ["[beta] WARNING: beta is late"]
    dock.append("controller:beta", '[beta] ERROR: controller "b" exited with status 1')
    dock.set_filter("Errors")
    assert dock.visible_lines() == ['[beta] ERROR: controller "b" exited with status 1']
    # new lines of the filtered robot show, others do not
    dock.set_filter("Robot 'beta'")
    dock.append("controller:alpha", "[alpha] more")
    dock.append("controller:beta", "[beta] more")
    dock.flush()
    assert dock.visible_lines() == ["[beta] WARNING: beta is late",
                                    '[beta] ERROR: controller "b" exited with status 1',
                                    "[beta] more"]
    # the combo box selects them too
    dock.filter_combo.setCurrentText("Robot 'alpha'")
    assert dock.current_filter == "Robot 'alpha'"


def test_a_controller_traceback_frame_is_a_link(dock) -> None:
    opened = []
    dock.open_location.connect(lambda path, line: opened.append((path, line)))
    fill(dock)
    dock.set_filter("Robot 'alpha'")
    assert dock.link_position(1) is None  # "Traceback ..." itself
    position = dock.link_position(2)
    assert position is not None
    href = dock.view.anchorAt(position)
    dock.activate_link(href)
    assert opened == [("/p/alpha.py", 3)]


def test_a_robot_not_listed_gets_its_filter_with_its_first_line(dock) -> None:
    dock.set_robots([])
    dock.append("controller:gamma", "[gamma] started")
    assert "Robot 'gamma'" in dock.filters()
    dock.set_filter("Robot 'gamma'")
    assert dock.visible_lines() == ["[gamma] started"]


def test_another_world_replaces_the_robots(dock) -> None:
    dock.set_robots(["alpha", "beta"])
    dock.set_filter("Robot 'beta'")
    dock.set_robots(["beta", "delta"])
    assert dock.filters()[len(FILTERS):] == ["Robot 'beta'", "Robot 'delta'"]
    assert dock.current_filter == "Robot 'beta'"
    assert dock.filter_combo.currentText() == "Robot 'beta'"
    dock.set_robots(["delta"])  # the shown robot is gone: back to All
    assert dock.current_filter == "All"
    assert dock.filter_combo.currentText() == "All"
    with pytest.raises(ValueError):
        dock.set_filter("Robot 'beta'")


def test_context_menu_lists_the_robot_filters(dock) -> None:
    dock.set_robots(["alpha"])
    menu = dock.context_menu()
    filter_menu = next(a.menu() for a in menu.actions() if a.text() == "Filter")
    names = [a.text() for a in filter_menu.actions()]
    assert names[-2:] == ["All controllers", "Robot 'alpha'"]
    filter_menu.actions()[-1].trigger()
    assert dock.current_filter == "Robot 'alpha'"
    menu.deleteLater()
