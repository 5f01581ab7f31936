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

Odeon's robust contacts (Klamp't's model, docs/robust-contacts.md), usable in
any world from ``webots_physics_collide``:

- ``dRobustCollide(g1, g2) -> int``: boundary-layer contacts of the pair
  (padded, clustered down to the world's maxContacts, the two surfaces
  blended) made as contact joints in dWebotsGetContactJointGroup(); the
  number made;
- ``dRobustSetGeomPadding(geom, padding)`` / ``dRobustGetGeomPadding(geom)``:
  a geom's boundary layer [m] (its bounding box grows by it);
- ``dRobustSetBodySurface(body, surface)`` / ``dRobustGetBodySurface(geom)``:
  the `SurfaceParameters` (kFriction, kRestitution, kStiffness, kDamping) of a
  body, and the surface a geom's contacts use.

The ``dWebots*`` and ``dRobust*`` functions talk to the host whose callback is
running; called elsewhere they raise `NoPluginRunning`.
"""

from __future__ import annotations

from engine import ode
from engine.contact.padding import padding_of, set_padding
from engine.contact.pipeline import PairInput, detect, make_robust_contacts
from engine.contact.surface import SurfaceParameters, blend
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
_ROBUST = [
    "SurfaceParameters",
    "dRobustCollide",
    "dRobustGetBodySurface",
    "dRobustGetGeomPadding",
    "dRobustSetBodySurface",
    "dRobustSetGeomPadding",
]

__all__ = [*ode.__all__, *_WEBOTS, *_ROBUST]


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


# ---------------------------------------------------------------- robust contacts
def dRobustCollide(g1, g2) -> int:
    """Make the robust contacts of geoms ``g1`` and ``g2`` (module docstring) in
    the plugin's contact joint group, attached to their bodies; returns how many
    were made (0 when the padded shells do not overlap)."""
    sim = current("dRobustCollide").sim
    for name, g in (("g1", g1), ("g2", g2)):
        if g is None or ode.dGeomIsSpace(g):
            raise ode.ODEError("dRobustCollide", name, "must be a geom (not NULL, not a space)")
    pairs = sim.robust_pairs
    surface = blend(pairs.geom_surface(g1), pairs.geom_surface(g2))
    pair = PairInput(g1, g2, padding_of(g1), padding_of(g2), surface)
    made = make_robust_contacts(sim.model.ode_world, sim.plugin_contact_group,
                                detect([pair]), sim.dt, pairs.pipeline_options)
    return len(made)


def dRobustSetGeomPadding(geom, padding: float) -> None:
    """Give ``geom`` a boundary layer of ``padding`` metres (finite, >= 0)."""
    current("dRobustSetGeomPadding")
    set_padding(geom, padding)


def dRobustGetGeomPadding(geom) -> float:
    """The boundary layer of ``geom`` [m]."""
    current("dRobustGetGeomPadding")
    return padding_of(geom)


def dRobustSetBodySurface(body, surface: SurfaceParameters) -> None:
    """Use ``surface`` for every contact of ``body`` (its Solids' geoms and the
    plugin's own geoms on it) made by the robust model or dRobustCollide."""
    sim = current("dRobustSetBodySurface").sim
    if body is None:
        raise ode.ODEError("dRobustSetBodySurface", "body", "must be a body, not NULL")
    if not isinstance(surface, SurfaceParameters):
        raise ode.ODEError("dRobustSetBodySurface", "surface",
                           f"must be a SurfaceParameters, got {type(surface).__name__}")
    sim.robust_pairs.set_body_surface(body, surface)


def dRobustGetBodySurface(geom) -> SurfaceParameters:
    """The surface the robust contacts of ``geom`` use (its Solid's, its body's,
    or the defaults)."""
    return current("dRobustGetBodySurface").sim.robust_pairs.geom_surface(geom)
