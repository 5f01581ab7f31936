"""`GeometryKind`: what one Webots geometry node type does in a simulation.

A kind names the node type it handles and registers four things:

- ``build(node, space, label, base_dir) -> GeomBuild``: the ODE geom made in
  ``space`` from the node's fields (a `BuildError` naming node and field when
  a field is out of range); ``base_dir`` is the world file's folder, for
  relative mesh urls;
- ``mass(node, geom, density) -> dMass | None``: the mass of the geometry at
  ``density`` [kg/m^3] in the geometry's own frame (None: no volume);
- ``live_fields`` and ``apply_live(geom, node)``: the fields whose edit on a
  running simulation is applied to the existing geom, and how;
- ``place(geom, frame_world)`` for a geom ODE cannot place (a plane: no
  position, only parameters), with ``static_reason``, why it cannot move with
  a body; other geoms are placed by position and rotation (or as an offset
  from their body) by `engine.sim.geometry.place_geom`;
- its drawing is registered by the app under the same name (app/viewport/
  geometry_meshes.py), since the engine never draws.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from engine import ode
from engine.sim.poses import Frame
from engine.world import Node


@dataclass(frozen=True)
class GeomBuild:
    """The result of a kind's ``build``.

    ``geom``: the ODE geom (unplaced); ``mesh``: the triangle mesh behind a
    trimesh geom, points (n, 3) float64 [m] and triangles (m, 3) int32, else
    None; ``offset``: the frame of the geom inside the geometry node's frame
    when they differ (an ElevationGrid's heightfield), else None.
    """

    geom: object
    mesh: tuple[np.ndarray, np.ndarray] | None = None
    offset: Frame | None = None


BuildGeom = Callable[[Node, object, str, str], GeomBuild]
GeomMass = Callable[[Node, object, float], "ode.dMass | None"]
ApplyLive = Callable[[object, Node], None]
PlaceGeom = Callable[[object, Frame], None]


def no_volume(node: Node, geom: object, density: float) -> None:
    """The ``mass`` of a kind without a volume (Plane, ElevationGrid): always None."""
    return None


@dataclass(frozen=True)
class GeometryKind:
    """One geometry node type's build, mass and live-edit rules (module docstring).

    ``live_fields`` is empty exactly when ``apply_live`` is None (every edit of
    the kind's fields then rebuilds the simulation); ``place`` is given exactly
    with ``static_reason`` (a geom placed by the kind is static).
    """

    name: str
    build: BuildGeom
    mass: GeomMass
    live_fields: frozenset[str] = frozenset()
    apply_live: ApplyLive | None = None
    place: PlaceGeom | None = None
    static_reason: str | None = None

    def __post_init__(self) -> None:
        if bool(self.live_fields) != (self.apply_live is not None):
            raise ValueError(f"geometry kind {self.name}: live_fields and apply_live "
                             "must be given together")
        if (self.place is None) != (self.static_reason is None):
            raise ValueError(f"geometry kind {self.name}: place and static_reason "
                             "must be given together")
