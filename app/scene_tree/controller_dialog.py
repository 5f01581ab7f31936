"""`ControllerSelectDialog`: Robot.controller's "Select..." dialog (as Webots').

Lists "<none>" first, then the controllers found for the world
(`list_controllers`: every ``<root>/<name>/<name>.py`` of the search roots of
`engine.controllers.discovery.search_roots`: the world's project, the bundled
controllers, ODEON_CONTROLLER_PATH), each name once, sorted. OK sets the field
through the scene tree (undoable); the main window then restarts that robot's
controller (app/controllers_ui.py). The Edit button emits
``edit_requested(name)``: the main window opens that controller's source.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from PySide6.QtWidgets import QWidget

from app.scene_tree.plugin_dialog import NameSelectDialog
from engine.controllers.discovery import NAME_PATTERN, search_roots

#: The value that runs no controller.
NO_CONTROLLER = "<none>"
TITLE = "Robot controller choice"
PROMPT = ("Please select a controller from the list.\n"
          "The robot's controller restarts with the chosen one at once\n"
          "(Edit > Undo goes back).")


def list_controllers(world_path: str | os.PathLike | None) -> list[str]:
    """The names of the controllers a robot of ``world_path`` can use, sorted."""
    names: set[str] = set()
    for root in search_roots(world_path):
        if not root.is_dir():
            continue
        for folder in root.iterdir():
            if NAME_PATTERN.fullmatch(folder.name) and (folder / f"{folder.name}.py").is_file():
                names.add(folder.name)
    return sorted(names)


class ControllerSelectDialog(NameSelectDialog):
    """Choose a controller name for Robot.controller."""

    def __init__(self, world_path: str | None, current: str = NO_CONTROLLER,
                 lister: Callable[[str | None], list[str]] = list_controllers,
                 parent: QWidget | None = None) -> None:
        super().__init__(list(lister(world_path)), current, NO_CONTROLLER, TITLE, PROMPT,
                         parent)
