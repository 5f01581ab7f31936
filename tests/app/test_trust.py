"""Folder trust before a world's plugin runs (app.trust, decision 0017)."""

from __future__ import annotations

import gc
import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings

from app.main_window import DEFAULT_WORLD, MainWindow
from app.trust import (
    TrustQuestion,
    TrustStore,
    project_folder,
    trust_question,
    untrusted_plugin,
)

PROBE = '''
import pathlib
pathlib.Path(__file__).with_name("ran.txt").write_text("top level ran")


def webots_physics_step():
    pass


def webots_physics_cleanup():
    pass
'''


def make_project(tmp_path: Path, name: str = "proj") -> Path:
    """``<tmp>/<name>/worlds/w.wbt`` (the default world) whose plugin 'probe' is in
    ``<tmp>/<name>/plugins/physics/probe/`` and leaves ran.txt when imported."""
    worlds = tmp_path / name / "worlds"
    worlds.mkdir(parents=True)
    world = worlds / "w.wbt"
    world.write_text(DEFAULT_WORLD.read_text().replace('physics "flying_robot"', 'physics "probe"'))
    plugin = tmp_path / name / "plugins" / "physics" / "probe"
    plugin.mkdir(parents=True)
    (plugin / "probe.py").write_text(PROBE)
    return world


def ran(world: Path) -> bool:
    return (world.parents[1] / "plugins" / "physics" / "probe" / "ran.txt").exists()


class Asker:
    """An injected trust question: records the questions, answers ``answer``."""

    def __init__(self, answer: bool) -> None:
        self.answer = answer
        self.asked: list[TrustQuestion] = []

    def __call__(self, question: TrustQuestion) -> bool:
        self.asked.append(question)
        return self.answer


@pytest.fixture
def store(tmp_path) -> TrustStore:
    return TrustStore(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))


def test_the_project_folder_is_the_parent_of_worlds(tmp_path) -> None:
    assert project_folder(tmp_path / "p" / "worlds" / "a.wbt") == (tmp_path / "p").resolve()
    assert project_folder(tmp_path / "q" / "a.wbt") == (tmp_path / "q").resolve()


def test_bundled_worlds_and_plugins_are_trusted(tmp_path, store) -> None:
    assert trust_question(DEFAULT_WORLD, store) is None
    copy = tmp_path / "mine" / "worlds" / "default.wbt"  # names the bundled flying_robot
    copy.parent.mkdir(parents=True)
    shutil.copy(DEFAULT_WORLD, copy)
    assert trust_question(copy, store) is None


def test_a_world_naming_no_plugin_asks_nothing(tmp_path, store) -> None:
    world = make_project(tmp_path)
    world.write_text(world.read_text().replace('"probe"', '"<none>"'))
    assert trust_question(world, store) is None


def test_untrusted_folder_is_asked_once_and_the_answer_remembered(tmp_path, store) -> None:
    world = make_project(tmp_path)
    question = trust_question(world, store)
    assert question is not None and question.plugin == "probe"
    assert question.folder == (tmp_path / "proj").resolve()
    no = Asker(False)
    assert untrusted_plugin(world, store, no) == question
    assert untrusted_plugin(world, store, no) == question
    assert len(no.asked) == 1  # a "no" is remembered too
    store.trust(question.folder)
    assert untrusted_plugin(world, store, Asker(False)) is None
    other = make_project(tmp_path, "other")
    yes = Asker(True)
    assert untrusted_plugin(other, store, yes) is None
    assert untrusted_plugin(other, store, yes) is None
    assert len(yes.asked) == 1
    reopened = TrustStore(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
    assert reopened.is_trusted(tmp_path / "other") and reopened.is_trusted(tmp_path / "proj")


@pytest.fixture
def open_window(qtbot, gl_available, tmp_path):
    windows: list[MainWindow] = []

    def make(world: Path, asker: Asker) -> MainWindow:
        window = MainWindow(world, settings_path=str(tmp_path / "settings.ini"),
                            ask_unsaved=lambda _t: "discard", ask_trust=asker,
                            show_error=lambda title, text: pytest.fail(f"{title}: {text}"))
        qtbot.addWidget(window)
        windows.append(window)
        return window

    yield make
    for window in windows:
        window.close()
        window.deleteLater()
    qtbot.wait(20)
    gc.collect()


def test_an_untrusted_plugin_is_not_loaded_until_trusted(qtbot, open_window, tmp_path) -> None:
    world = make_project(tmp_path)
    asker = Asker(False)
    window = open_window(world, asker)
    assert len(asker.asked) == 1
    window.runner.call(lambda _sim: None).result(10.0)  # the engine thread's queue is done
    assert window.runner.host.name is None and not ran(world)
    window.console.flush()
    text = "\n".join(window.console.visible_lines())
    assert "'probe'" in text and "Trust This Folder and Load Plugin" in text
    action = window.actions_["trust_plugin"]
    assert action.isEnabled()
    action.trigger()
    qtbot.waitUntil(lambda: window.runner.host.name == "probe", timeout=10000)
    assert ran(world) and not action.isEnabled()
    assert window.trust.is_trusted(tmp_path / "proj")


def test_a_trusted_folder_runs_its_plugin_without_asking(qtbot, open_window, tmp_path) -> None:
    world = make_project(tmp_path)
    asker = Asker(True)
    window = open_window(world, asker)
    # the plugin is imported in the engine thread
    qtbot.waitUntil(lambda: window.runner.host.name == "probe", timeout=10000)
    assert ran(world)
    assert window.load_world(world)  # reopening: remembered
    assert len(asker.asked) == 1
    assert not window.actions_["trust_plugin"].isEnabled()


def test_the_bundled_default_world_is_never_asked_about(qtbot, open_window) -> None:
    asker = Asker(False)
    window = open_window(DEFAULT_WORLD, asker)
    qtbot.waitUntil(lambda: window.runner.host.name == "flying_robot", timeout=10000)
    assert asker.asked == []
