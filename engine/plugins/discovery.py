"""Finding physics plugins: ``plugins/physics/<name>/<name>.py`` (docs/plugin-guide.md).

Search order, first existing *folder* wins (as Webots' ``WbPlugin::load``;
docs/webots-behaviour.md, "Loading a plugin": a folder that exists but holds
no ``<name>.py`` is an error, the search does not go on):

1. the world's project: ``<project>/plugins/physics/<name>/`` where the world
   file is ``<project>/worlds/x.wbt`` (the project is the parent of the
   world's folder, whatever that folder is called);
2. the bundled plugins: ``<repo>/plugins/physics/<name>/``;
3. each folder ``F`` listed in ``ODEON_PLUGIN_PATH`` (``os.pathsep``
   separated): ``F/<name>/``. ``F`` plays the role of a ``plugins/physics``
   folder.

``"<none>"`` and the empty string mean "no plugin". Any other name must be a
name, ``[A-Za-z0-9_-]+`` (as the New Physics Plugin wizard enforces), never a
path: `check_name` refuses the rest, so no file outside the plugin folders is
ever imported.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

#: The WorldInfo.physics value meaning "no plugin".
NO_PLUGIN = "<none>"
#: Environment variable with extra plugin folders.
PATH_VARIABLE = "ODEON_PLUGIN_PATH"
#: The repository's bundled plugins.
BUNDLED_DIR = Path(__file__).resolve().parents[2] / "plugins" / "physics"
#: What a plugin name is made of.
NAME_PATTERN = re.compile(r"[A-Za-z0-9_-]+")


class BadPluginName(ValueError):
    """A WorldInfo.physics value that is not a plugin name (a path, say)."""


@dataclass(frozen=True)
class PluginLocation:
    """Where a plugin was found: its folder and its source file (which may be
    missing: the folder exists, so the search stopped there)."""

    name: str
    folder: Path
    source: Path

    @property
    def exists(self) -> bool:
        """True when the source file is there."""
        return self.source.is_file()


def is_no_plugin(name: str | None) -> bool:
    """True for ``None``, ``""`` and ``"<none>"``."""
    return name is None or name.strip() in ("", NO_PLUGIN)


def check_name(name: str, world_path: str | os.PathLike | None = None) -> str:
    """``name`` stripped, or `BadPluginName` naming the world and the value when
    it is not ``[A-Za-z0-9_-]+`` (an absolute path, ``../x``, a dot...)."""
    stripped = name.strip()
    if NAME_PATTERN.fullmatch(stripped) is None:
        where = f"'{world_path}'" if world_path else "the world"
        raise BadPluginName(f"WorldInfo.physics of {where} is {name!r}: a physics plugin is "
                            "named by letters, digits, '_' and '-' only (the name of its "
                            "folder in plugins/physics), never a path; the plugin is not "
                            "loaded.")
    return stripped


def search_roots(world_path: str | os.PathLike | None, bundled_dir: Path | None = None,
                 env: dict | None = None) -> list[Path]:
    """The folders that hold ``<name>/`` plugin folders, in search order, without
    duplicates (project, bundled, then ``ODEON_PLUGIN_PATH``)."""
    env = os.environ if env is None else env
    roots: list[Path] = []
    if world_path:
        project = Path(os.path.abspath(world_path)).parent.parent
        roots.append(project / "plugins" / "physics")
    roots.append(Path(bundled_dir) if bundled_dir is not None else BUNDLED_DIR)
    for entry in env.get(PATH_VARIABLE, "").split(os.pathsep):
        if entry.strip():
            roots.append(Path(os.path.abspath(os.path.expanduser(entry.strip()))))
    out: list[Path] = []
    seen: set[str] = set()
    for root in roots:
        key = os.path.normcase(str(root.resolve()))
        if key not in seen:
            seen.add(key)
            out.append(root)
    return out


def candidate_folders(name: str, world_path: str | os.PathLike | None,
                      bundled_dir: Path | None = None, env: dict | None = None) -> list[Path]:
    """Every folder searched for plugin ``name``, in order (`BadPluginName`
    when ``name`` is not a name)."""
    name = check_name(name, world_path)
    return [root / name for root in search_roots(world_path, bundled_dir, env)]


def find_plugin(name: str, world_path: str | os.PathLike | None,
                bundled_dir: Path | None = None, env: dict | None = None
                ) -> PluginLocation | None:
    """The first existing folder for plugin ``name`` (None when no folder exists
    or ``name`` means no plugin); `BadPluginName` when ``name`` is not a name."""
    if is_no_plugin(name):
        return None
    name = check_name(name, world_path)
    for folder in candidate_folders(name, world_path, bundled_dir, env):
        if folder.is_dir():
            return PluginLocation(name, folder, folder / f"{name}.py")
    return None


def list_plugins(world_path: str | os.PathLike | None, bundled_dir: Path | None = None,
                 env: dict | None = None) -> list[str]:
    """Names for the WorldInfo.physics Select dialog: ``"<none>"`` first, then
    every ``<name>/`` folder holding ``<name>.py``, root by root in search
    order (alphabetical inside a root), without duplicates."""
    names = [NO_PLUGIN]
    for root in search_roots(world_path, bundled_dir, env):
        if not root.is_dir():
            continue
        for folder in sorted(root.iterdir(), key=lambda p: p.name):
            if (folder.is_dir() and (folder / f"{folder.name}.py").is_file()
                    and folder.name not in names):
                names.append(folder.name)
    return names
