"""Exception types of the world package.

`WorldSyntaxError` is the only exception the parser raises for a bad file;
`FieldValueError` is raised by the model when a value does not fit a field.
"""

from __future__ import annotations


class WorldError(Exception):
    """Base class of every error raised by `engine.world`."""


class WorldSyntaxError(WorldError):
    """A problem in a `.wbt` file, located by file, line and column (1-based).

    ``str(error)`` reads ``file:line:column: message``.
    """

    def __init__(self, filename: str, line: int, column: int, message: str) -> None:
        self.filename = filename
        self.line = line
        self.column = column
        self.message = message
        super().__init__(f"{filename}:{line}:{column}: {message}")


class FieldValueError(WorldError, ValueError):
    """A value that does not fit a field (wrong type, count, range or choice).

    The message names the node, the field and the rejected value.
    """


class StructureError(WorldError, ValueError):
    """An illegal edit of the node tree (node already attached, illegal node type, ...)."""


class WorldReadOnlyError(WorldError, PermissionError):
    """Saving would replace a read-only world file; ``path`` names it.

    Callers that asked the user may retry with ``overwrite_read_only=True``.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        super().__init__(f"'{path}' is read-only (save it under another name, or allow "
                         f"overwriting read-only files)")
