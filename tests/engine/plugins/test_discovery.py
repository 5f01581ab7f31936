"""Plugin discovery: search order, first existing folder wins, the Select list."""

from __future__ import annotations

import os

from engine.plugins.discovery import (
    PATH_VARIABLE,
    candidate_folders,
    find_plugin,
    list_plugins,
    search_roots,
)


def _plugin(root, name):
    folder = root / name
    folder.mkdir(parents=True)
    (folder / f"{name}.py").write_text("def webots_physics_step(): pass\n")
    return folder


def _layout(tmp_path):
    project = tmp_path / "project"
    (project / "worlds").mkdir(parents=True)
    world = project / "worlds" / "w.wbt"
    world.write_text("")
    return world, project / "plugins" / "physics", tmp_path / "bundled", tmp_path / "extra1", \
        tmp_path / "extra2"


def test_project_folder_comes_first(tmp_path) -> None:
    world, proj, bundled, e1, _ = _layout(tmp_path)
    for root in (proj, bundled, e1):
        _plugin(root, "fly")
    env = {PATH_VARIABLE: str(e1)}
    assert find_plugin("fly", world, bundled, env).folder == proj / "fly"


def test_bundled_then_environment_folders_in_order(tmp_path) -> None:
    world, proj, bundled, e1, e2 = _layout(tmp_path)
    env = {PATH_VARIABLE: os.pathsep.join([str(e1), str(e2)])}
    _plugin(e2, "fly")
    assert find_plugin("fly", world, bundled, env).folder == e2 / "fly"
    _plugin(e1, "fly")
    assert find_plugin("fly", world, bundled, env).folder == e1 / "fly"
    _plugin(bundled, "fly")
    assert find_plugin("fly", world, bundled, env).folder == bundled / "fly"
    assert candidate_folders("fly", world, bundled, env) == [
        proj / "fly", bundled / "fly", e1 / "fly", e2 / "fly"]


def test_first_existing_folder_wins_even_without_its_file(tmp_path) -> None:
    world, proj, bundled, _, _ = _layout(tmp_path)
    (proj / "fly").mkdir(parents=True)
    _plugin(bundled, "fly")
    where = find_plugin("fly", world, bundled, {})
    assert where.folder == proj / "fly" and not where.exists


def test_none_and_empty_mean_no_plugin(tmp_path) -> None:
    world, proj, bundled, _, _ = _layout(tmp_path)
    _plugin(proj, "none")
    assert find_plugin("<none>", world, bundled, {}) is None
    assert find_plugin("", world, bundled, {}) is None
    assert find_plugin("missing", world, bundled, {}) is None


def test_duplicate_roots_are_searched_once(tmp_path) -> None:
    world, proj, bundled, _, _ = _layout(tmp_path)
    env = {PATH_VARIABLE: os.pathsep.join([str(bundled), str(proj), ""])}
    assert search_roots(world, bundled, env) == [proj, bundled]


def test_list_plugins_none_first_then_search_order_without_duplicates(tmp_path) -> None:
    world, proj, bundled, e1, _ = _layout(tmp_path)
    _plugin(proj, "zeta")
    _plugin(proj, "alpha")
    _plugin(bundled, "alpha")
    _plugin(bundled, "beta")
    _plugin(e1, "gamma")
    (e1 / "empty_folder").mkdir()
    env = {PATH_VARIABLE: str(e1)}
    assert list_plugins(world, bundled, env) == ["<none>", "alpha", "zeta", "beta", "gamma"]
    assert list_plugins(None, tmp_path / "nothing", {}) == ["<none>"]
