"""What a physics plugin imports: ``from engine.plugins.physics import *``.

The whole flat ODE API (`engine.ode`, every name of its ``__all__``) plus
Webots' plugin utilities (docs/webots-behaviour.md, "Plugin utility functions"):

- ``dWebotsGetBodyFromDEF(def_)`` / ``dWebotsGetGeomFromDEF(def_)``: dotted DEF
  paths (each dot may skip any number of nodes); None when missing, not a
  Solid, without Physics (body) or without boundingObject (geom); a merged
  Solid gives its merged body; a Group boundingObject gives its space;
- ``dWebotsGetContactJointGroup()``: the group for the plugin's contact joints
  (emptied after every step);
- ``dGeomSetDynamicFlag(g)``, ``dAreGeomsSame(g1, g2)``: Webots' ODE-MT
  extensions (our engine is single-threaded: no-op / identity);
- ``dWebotsSend(channel, data)``, ``dWebotsReceive() -> bytes | None``;
- ``dWebotsGetTime()`` (milliseconds), ``dWebotsConsolePrintf(fmt, *args)``.

The ``dWebots*`` functions talk to the host whose callback is running; called
elsewhere they raise `NoPluginRunning`.
"""

from __future__ import annotations

from engine import ode
from engine.ode import *  # noqa: F403  (the flat ODE API is this module's API)
from engine.plugins.context import NoPluginRunning, current  # noqa: F401

_WEBOTS = [
    "NoPluginRunning",
    "dAreGeomsSame",
    "dGeomSetDynamicFlag",
    "dWebotsConsolePrintf",
    "dWebotsGetBodyFromDEF",
    "dWebotsGetContactJointGroup",
    "dWebotsGetGeomFromDEF",
    "dWebotsGetTime",
    "dWebotsReceive",
    "dWebotsSend",
]

__all__ = [*ode.__all__, *_WEBOTS]


def _def_argument(function: str, def_) -> str | None:
    host = current(function)
    if not isinstance(def_, str) or not def_:
        host.warn(f"{function}(): invalid NULL or empty DEF argument.")
        return None
    return def_


def dWebotsGetBodyFromDEF(def_: str):
    """The body of the Solid at DEF path ``def_`` (the merged body for a merged
    Solid), or None (not found, not a Solid, no Physics)."""
    path = _def_argument("dWebotsGetBodyFromDEF", def_)
    return None if path is None else current("dWebotsGetBodyFromDEF").sim.body_from_def(path)


def dWebotsGetGeomFromDEF(def_: str):
    """The top geom of the boundingObject of the Solid at DEF path ``def_`` (a
    space for a Group), or None (not found, not a Solid, no boundingObject)."""
    path = _def_argument("dWebotsGetGeomFromDEF", def_)
    return None if path is None else current("dWebotsGetGeomFromDEF").sim.geom_from_def(path)


def dWebotsGetContactJointGroup():
    """The joint group where the plugin creates its contact joints; emptied after
    each step (fetch it at each webots_physics_collide call)."""
    return current("dWebotsGetContactJointGroup").sim.plugin_contact_group


def dGeomSetDynamicFlag(geom) -> None:
    """Webots' ODE-MT extension marking a body-less geom as moving between
    clusters. Our engine has one cluster: the geom is only checked."""
    if geom is None:
        raise ode.ODEError("dGeomSetDynamicFlag", "geom", "must be a geom, not NULL")
    ode.dGeomGetClass(geom)


def dAreGeomsSame(g1, g2) -> int:
    """1 when ``g1`` and ``g2`` are the same geom, else 0 (Webots compares
    cluster copies; we have none)."""
    return int(g1 is g2)


def dWebotsSend(channel: int, data: bytes) -> None:
    """Send ``data`` (bytes-like, at least one byte) to every robot Receiver on
    ``channel``; empty or missing data is ignored with a warning."""
    host = current("dWebotsSend")
    if data is None or isinstance(data, str) or len(data) < 1:
        host.warn("dWebotsSend(): invalid NULL buffer or size argument (data must be "
                  "non-empty bytes).")
        return
    host.outbox.send(int(channel), bytes(data))


def dWebotsReceive() -> bytes | None:
    """What robots' Emitters sent on channel 0 (messages concatenated), or None.
    A second call in the same step returns None; unread data accumulates."""
    return current("dWebotsReceive").inbox.receive()


def dWebotsGetTime() -> float:
    """The simulated time in milliseconds (the time at the start of this step)."""
    return float(current("dWebotsGetTime").sim.time_ms)


def dWebotsConsolePrintf(fmt: str, *args) -> None:
    """Print ``fmt % args`` (as C printf: ``"100%%"`` prints ``100%``) on the console, one line
    per line, prefixed with the plugin's name; a ``"\\f"`` clears the console."""
    host = current("dWebotsConsolePrintf")
    try:  # C printf processes the format even without arguments ("%%" prints "%")
        text = str(fmt) % args
    except (TypeError, ValueError, KeyError) as exc:
        raise ValueError(f"dWebotsConsolePrintf(): the format {str(fmt)[:80]!r} does not fit "
                         f"its {len(args)} argument(s) ({exc}); write a literal '%' as '%%'"
                         ) from None
    host.print_text(text)
