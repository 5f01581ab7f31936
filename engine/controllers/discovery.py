"""Finding a robot's controller: ``controllers/<name>/<name>.py`` (docs/controllers.md).

Search order, first folder holding ``<name>/<name>.py`` wins:

1. the world's project: ``<project>/controllers/<name>/`` where the world
   file is ``<project>/worlds/x.wbt``;
2. the bundled controllers: ``<repo>/controllers/<name>/``;
3. each folder ``F`` of ``ODEON_CONTROLLER_PATH`` (``os.pathsep``
   separated): ``F/<name>/``.

``Robot.controller`` values that run nothing: ``""``, ``"<none>"``, ``"void"``,
``"<generic>"`` (Webots' generic window controller has no Python program:
decision 0024) and ``"<extern>"`` (Odeon does not accept controllers started
outside; the console says so). A name is ``[A-Za-z0-9_-]+``, never a path.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

#: Environment variable with extra controller folders.
PATH_VARIABLE = "ODEON_CONTROLLER_PATH"
#: The repository's bundled controllers.
BUNDLED_DIR = Path(__file__).resolve().parents[2] / "controllers"
#: Controller values that run no program.
NO_CONTROLLER = ("", "<none>", "void", "<generic>")
#: Webots' value for a controller launched outside the simulator.
EXTERN = "<extern>"
NAME_PATTERN = re.compile(r"[A-Za-z0-9_-]+")


@dataclass(frozen=True)
class ControllerProgram:
    """A controller found on disk: its name, folder and Python file."""

    name: str
    folder: Path
    source: Path


class ControllerNotFound(LookupError):
    """No folder holds the controller (the message lists where it was looked for)."""


def runs_nothing(name: str | None) -> bool:
    """True for the controller values that start no process."""
    return name is None or name.strip() in NO_CONTROLLER


def search_roots(world_path: str | os.PathLike | None, bundled_dir: Path | None = None,
                 env: dict | None = None) -> list[Path]:
    """Folders holding ``<name>/`` controller folders, in search order, without duplicates."""
    env = os.environ if env is None else env
    roots: list[Path] = []
    if world_path:
        roots.append(Path(world_path).resolve().parent.parent / "controllers")
    roots.append(BUNDLED_DIR if bundled_dir is None else Path(bundled_dir))
    roots.extend(Path(p) for p in env.get(PATH_VARIABLE, "").split(os.pathsep) if p)
    unique: list[Path] = []
    for root in roots:
        if root not in unique:
            unique.append(root)
    return unique


def find_controller(name: str, world_path: str | os.PathLike | None,
                    bundled_dir: Path | None = None, env: dict | None = None
                    ) -> ControllerProgram:
    """The program of controller ``name``; `ControllerNotFound` (naming the
    world, the value and the folders searched) when it is not a name or
    exists nowhere."""
    stripped = name.strip()
    where = f"'{world_path}'" if world_path else "the world"
    if stripped == EXTERN:
        raise ControllerNotFound(f'controller "{EXTERN}" of {where}: Odeon starts every '
                                 "controller itself; extern controllers are not supported")
    if NAME_PATTERN.fullmatch(stripped) is None:
        raise ControllerNotFound(f"controller {name!r} of {where} is not a controller name "
                                 "(letters, digits, '_' and '-': its folder in controllers/)")
    roots = search_roots(world_path, bundled_dir, env)
    for root in roots:
        source = root / stripped / f"{stripped}.py"
        if source.is_file():
            return ControllerProgram(stripped, source.parent, source)
    searched = ", ".join(str(r / stripped) for r in roots)
    raise ControllerNotFound(f'controller "{stripped}" of {where} was not found (looked for '
                             f"{stripped}.py in {searched})")
