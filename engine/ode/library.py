"""Library-level functions: initialisation, configuration, and the error,
debug and message handlers of ODE's error.h.

Handlers are Python callables ``fn(errnum: int, msg: str)`` (C's va_list is
already applied: ``msg`` is formatted). ODE's error and debug functions
never return; here they raise :class:`ODEError` (after the user handler, if
any), which is the non-crashing equivalent of ODE's abort. Messages (warnings)
go to the message handler, by default to standard error as
``ODE Message <num>: <msg>``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from engine.ode import checks
from engine.ode.errors import ODEError

MessageFunction = Callable[[int, str], None]

#: Tokens of dGetConfiguration (space separated, as ODE prints them).
CONFIGURATION = ("ODE", "ODE_double_precision", "ODE_EXT_odeon_numba")

_handlers: dict[str, MessageFunction | None] = {"error": None, "debug": None, "message": None}
_state = {"initialised": False}


def dInitODE() -> None:
    """dInitODE2(0) followed by dAllocateODEDataForThread(dAllocateMaskAll)."""
    dInitODE2(0)
    dAllocateODEDataForThread(0xFFFFFFFF)


def dInitODE2(uiInitFlags: int = 0) -> int:
    """Initialise the library (nothing to set up here; kept for API parity). Returns 1."""
    checks.integer(uiInitFlags, "dInitODE2", "uiInitFlags")
    _state["initialised"] = True
    return 1


def dAllocateODEDataForThread(uiAllocateFlags: int) -> int:
    """Per-thread data (none is needed: the engine keeps no thread-local state). Returns 1."""
    checks.integer(uiAllocateFlags, "dAllocateODEDataForThread", "uiAllocateFlags")
    return 1


def dCleanupODEAllDataForThread() -> None:
    """Release per-thread data (none is kept)."""


#: What dCloseODE resets besides the initialised flag, registered by the modules
#: that keep library-wide state (user geom classes: engine.ode.collision.geoms.user_class).
_ON_CLOSE: list[Callable[[], None]] = []


def register_on_close(reset: Callable[[], None]) -> None:
    """Have dCloseODE call ``reset()`` (once per function, in registration order)."""
    if reset not in _ON_CLOSE:
        _ON_CLOSE.append(reset)


def dCloseODE() -> None:
    """Library clean-up; dInitODE2 may be called again afterwards. User geom
    classes are forgotten, as in ODE."""
    _state["initialised"] = False
    for reset in _ON_CLOSE:
        reset()


def dGetConfiguration() -> str:
    """The configuration tokens, space separated."""
    return " ".join(CONFIGURATION)


def dCheckConfiguration(token: str) -> int:
    """1 if ``token`` (case sensitive) is one of the configuration tokens."""
    if not isinstance(token, str):
        raise ODEError("dCheckConfiguration", "token", f"expected a string, got {token!r}")
    return int(token in CONFIGURATION)


def _set(kind: str, fn, function: str) -> None:
    if fn is not None and not callable(fn):
        raise ODEError(function, "fn", "must be callable(errnum, msg) or None")
    _handlers[kind] = fn


def dSetErrorHandler(fn: MessageFunction | None) -> None:
    _set("error", fn, "dSetErrorHandler")


def dSetDebugHandler(fn: MessageFunction | None) -> None:
    _set("debug", fn, "dSetDebugHandler")


def dSetMessageHandler(fn: MessageFunction | None) -> None:
    _set("message", fn, "dSetMessageHandler")


def dGetErrorHandler() -> MessageFunction | None:
    """The user error handler, or None when the default is in place."""
    return _handlers["error"]


def dGetDebugHandler() -> MessageFunction | None:
    return _handlers["debug"]


def dGetMessageHandler() -> MessageFunction | None:
    return _handlers["message"]


def _format(msg: str, args: tuple) -> str:
    try:
        return msg % args if args else msg
    except (TypeError, ValueError) as exc:
        raise ODEError("dMessage", "msg", f"format does not match its arguments: {exc}") from None


def dError(num: int, msg: str, *args) -> None:
    """Report a fatal error: the handler runs, then ODEError is raised."""
    text = _format(msg, args)
    if _handlers["error"] is not None:
        _handlers["error"](int(num), text)
    raise ODEError("dError", "msg", f"ODE Error {num}: {text}")


def dDebug(num: int, msg: str, *args) -> None:
    """Report an internal inconsistency: the handler runs, then ODEError is raised."""
    text = _format(msg, args)
    if _handlers["debug"] is not None:
        _handlers["debug"](int(num), text)
    raise ODEError("dDebug", "msg", f"ODE INTERNAL ERROR {num}: {text}")


def dMessage(num: int, msg: str, *args) -> None:
    """Report a warning to the message handler (default: standard error)."""
    text = _format(msg, args)
    if _handlers["message"] is not None:
        _handlers["message"](int(num), text)
    else:
        sys.stderr.write(f"ODE Message {num}: {text}\n")
