"""Physics plugin "floating_body": buoyancy and drag for bodies in water.

World: resources/worlds/floating_body.wbt. The idea comes from the historical
"salamander" plugin of Webots (buoyancy and drag per segment, now replaced by
Webots' Fluid node); this is our own Python version, Z up.

What it shows: forces computed from the bodies' geometry and added in
``webots_physics_step``. The water fills everything below ``WATER_LEVEL``
(z = 0) with density ``WATER_DENSITY``. For each floater (DEF names in
``FLOATERS``, a Box or a Sphere boundingObject):

- **buoyancy** = water density x submerged volume x g, upwards, applied at the
  centre of the submerged volume (so a tilted box feels a righting moment):

  * sphere: the submerged cap of height h has volume pi h^2 (3 r - h) / 3,
    pushed at the centre (no moment for a sphere);
  * box: cut into ``CELLS`` x ``CELLS`` x ``CELLS`` small boxes, each
    submerged by the fraction of its vertical extent below the surface (exact
    for a level box), each pushed at its centre;

- **drag**, scaled by the submerged fraction f: linear
  ``-f LINEAR_DAMPING m v`` and quadratic ``-f 1/2 rho Cd A |v| v`` (A the
  body's frontal area, taken as volume^(2/3)), and a rotational damping.

A floater of density rho settles where buoyancy equals weight: a level box of
height H sinks to the depth rho / 1000 * H.
"""

# ruff: noqa: F405  (the ODE and dWebots* names come from the star import below)

import math

import numpy as np

from engine.plugins.physics import *  # noqa: F403  (the flat ODE API and dWebots*)

FLOATERS = ("BOX_FLOATER", "BALL_FLOATER", "CUBE_FLOATER")
WATER_LEVEL = 0.0          # [m] height of the water surface
WATER_DENSITY = 1000.0     # [kg/m^3]
CELLS = 4                  # a box is cut into CELLS^3 cells for its buoyancy
DRAG_COEFFICIENT = 1.0     # Cd of the quadratic drag
LINEAR_DAMPING = 6.0       # [1/s] linear drag per kg of floater
ANGULAR_DAMPING = 4.0      # [1/s] rotational damping rate (torque = -f rate I w)

floaters = []  # (DEF name, body, geom)
g = 9.81       # [m/s^2], read from the world in init


def webots_physics_init():
    """Find the floaters and check their shapes."""
    global floaters, g
    floaters = []
    for name in FLOATERS:
        body, geom = dWebotsGetBodyFromDEF(name), dWebotsGetGeomFromDEF(name)
        if body is None or geom is None:
            dWebotsConsolePrintf("no Solid DEF %s with physics and a boundingObject", name)
            continue
        if dGeomGetClass(geom) not in (dBoxClass, dSphereClass):
            dWebotsConsolePrintf("%s: only a Box or a Sphere boundingObject floats", name)
            continue
        floaters.append((name, body, geom))
        g = float(np.linalg.norm(dWorldGetGravity(dBodyGetWorld(body))))
    dWebotsConsolePrintf("%d floaters in water of density %g kg/m^3", len(floaters),
                         WATER_DENSITY)


def webots_physics_step():
    """Buoyancy and drag on every floater."""
    for _name, body, geom in floaters:
        if dGeomGetClass(geom) == dSphereClass:
            volume, submerged, centre = _sphere_buoyancy(geom)
        else:
            volume, submerged, centre = _box_buoyancy(geom)
        if submerged <= 0.0:
            continue
        dBodyEnable(body)  # an auto-disabled body would ignore the forces
        lift = WATER_DENSITY * submerged * g
        dBodyAddForceAtPos(body, 0.0, 0.0, lift, *centre)
        _add_drag(body, submerged / volume, volume)


def _sphere_buoyancy(geom):
    """(volume, submerged volume [m^3], centre of buoyancy (3,)) of a sphere."""
    r = dGeomSphereGetRadius(geom)
    c = dGeomGetPosition(geom)
    h = min(max(WATER_LEVEL - (c[2] - r), 0.0), 2.0 * r)  # height of the submerged cap
    volume = 4.0 / 3.0 * math.pi * r**3
    return volume, math.pi * h * h * (3.0 * r - h) / 3.0, c


def _box_buoyancy(geom):
    """(volume, submerged volume [m^3], centre of buoyancy (3,)) of a box.

    Cell centres p (n^3, 3) in the world; a cell of half-size s (3,) whose
    axes are the box's has a vertical half-extent e = sum_i |R[2, i]| s_i; the
    part of it below the surface is clip((level - (p_z - e)) / 2e, 0, 1).
    """
    lengths = dGeomBoxGetLengths(geom)
    R = dGeomGetRotation(geom).reshape(3, 4)[:, :3]
    centre = dGeomGetPosition(geom)
    cell = lengths / CELLS
    ticks = (np.arange(CELLS) + 0.5) / CELLS - 0.5  # cell centres in [-1/2, 1/2]
    grid = np.stack(np.meshgrid(ticks, ticks, ticks, indexing="ij"), -1).reshape(-1, 3)
    points = centre + (grid * lengths) @ R.T
    extent = np.abs(R[2]) @ (cell / 2.0)
    fraction = np.clip((WATER_LEVEL - (points[:, 2] - extent)) / (2.0 * extent), 0.0, 1.0)
    volume = float(np.prod(lengths))
    submerged = fraction.sum() * volume / len(points)
    if submerged <= 0.0:
        return volume, 0.0, centre
    # Cells lying partly out of the water push at their centre: exact for a
    # level box (all cells of a layer are equal), a fine approximation tilted.
    return volume, submerged, (fraction @ points) / fraction.sum()


def _add_drag(body, fraction, volume):
    """Linear and quadratic drag and a rotational damping, scaled by ``fraction``."""
    m = dBodyGetMass(body)
    v = dBodyGetLinearVel(body)
    speed = float(np.linalg.norm(v))
    area = volume ** (2.0 / 3.0)
    k = fraction * (LINEAR_DAMPING * m.mass
                    + 0.5 * WATER_DENSITY * DRAG_COEFFICIENT * area * speed)
    dBodyAddForce(body, *(-k * v))
    inertia = (m.I[0] + m.I[5] + m.I[10]) / 3.0  # mean principal inertia [kg m^2]
    dBodyAddTorque(body, *(-fraction * ANGULAR_DAMPING * inertia * dBodyGetAngularVel(body)))


def webots_physics_cleanup():
    """Nothing to destroy."""
