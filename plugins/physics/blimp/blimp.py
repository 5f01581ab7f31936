"""Physics plugin "blimp": a lighter-than-air robot flown entirely by plugin forces.

World: resources/worlds/blimp.wbt. The idea comes from the blimp plugin of
Webots' EPFL LIS robots; this is our own, simpler Python model, Z up.

What it shows:

- ``dBodySetGravityMode(body, 0)`` in ``webots_physics_init``: the helium is
  assumed to balance the weight exactly, so gravity is switched off for this
  one body (the rest of the world keeps it);
- forces and torques added in ``webots_physics_step`` in the blimp's own frame
  (``dBodyAddRelForce``, ``dBodyAddRelTorque``):

  * thrust ``front * MAX_THRUST`` along its axis (body x), ``vertical *
    MAX_LIFT`` along body z and a yaw torque ``yaw * MAX_YAW_TORQUE``;
  * drag per body axis, linear and quadratic in the body-frame velocity:
    ``-(DRAG_LINEAR[i] + DRAG_QUADRATIC[i] |v_i|) v_i``, and angular damping
    ``-ANGULAR_DAMPING[i] w_i``: flying straight, the speed tends to the ``u``
    where thrust = drag, spinning, the yaw rate to torque / damping;
  * a restoring moment: the centre of mass hangs ``CG_BELOW_CB`` below the
    centre of buoyancy, so a tilt gives a pendulum's moment
    ``m g CG_BELOW_CB (up x z)`` that turns the blimp back upright.

Commands (front, yaw, vertical, each in [-1, 1]) are three float64
(``struct.pack("<3d", ...)``) a controller would send on channel 0, read with
``dWebotsReceive``; the last received command is kept. Without one the blimp
flies the constant ``AUTOPILOT`` command: forward while turning, a circle.
"""

# ruff: noqa: F405  (the ODE and dWebots* names come from the star import below)

import struct

import numpy as np

from engine.plugins.physics import *  # noqa: F403  (the flat ODE API and dWebots*)

MAX_THRUST = 0.05                       # [N] forward thrust at front = 1
MAX_LIFT = 0.03                         # [N] vertical thrust at vertical = 1
MAX_YAW_TORQUE = 0.004                  # [N m] yaw torque at yaw = 1
DRAG_LINEAR = (0.02, 0.08, 0.08)        # [N s/m] along body x, y, z
DRAG_QUADRATIC = (0.1, 0.3, 0.3)        # [N s^2/m^2] along body x, y, z
ANGULAR_DAMPING = (0.02, 0.02, 0.004)   # [N m s] about body x, y, z
CG_BELOW_CB = 0.1                       # [m] centre of mass below the centre of buoyancy
AUTOPILOT = (1.0, 0.3, 0.0)             # (front, yaw, vertical) without a controller

body = None
command = AUTOPILOT
_weight = 0.0  # m g [N], for the restoring moment


def webots_physics_init():
    """Find the blimp, switch its gravity off."""
    global body, command, _weight
    body = dWebotsGetBodyFromDEF("BLIMP")
    command = AUTOPILOT
    if body is None:
        dWebotsConsolePrintf("no Solid DEF BLIMP with physics: the plugin does nothing")
        return
    dBodySetGravityMode(body, 0)
    g = float(np.linalg.norm(dWorldGetGravity(dBodyGetWorld(body))))
    _weight = dBodyGetMass(body).mass * g
    dWebotsConsolePrintf("blimp ready: gravity off for its body, weight %.3f N balanced", _weight)


def webots_physics_step():
    """Thrust, drag and restoring moment, in the blimp's frame."""
    global command
    if body is None:
        return
    data = dWebotsReceive()
    if data is not None and len(data) >= 24 and len(data) % 24 == 0:
        command = struct.unpack_from("<3d", data, len(data) - 24)  # the newest command
    front, yaw, vertical = (min(1.0, max(-1.0, c)) for c in command)
    v = dBodyVectorFromWorld(body, *dBodyGetLinearVel(body))   # [u, v, w] body frame
    w = dBodyVectorFromWorld(body, *dBodyGetAngularVel(body))  # [p, q, r] body frame
    drag = -(np.asarray(DRAG_LINEAR) + np.asarray(DRAG_QUADRATIC) * np.abs(v)) * v
    dBodyAddRelForce(body, front * MAX_THRUST + drag[0], drag[1], vertical * MAX_LIFT + drag[2])
    # Restoring moment m g d (up x z_world), written in the body frame: the
    # world's z seen from the body is z_b, and up is (0, 0, 1) there.
    z_b = dBodyVectorFromWorld(body, 0.0, 0.0, 1.0)
    restoring = _weight * CG_BELOW_CB * np.cross((0.0, 0.0, 1.0), z_b)
    damping = -np.asarray(ANGULAR_DAMPING) * w
    dBodyAddRelTorque(body, restoring[0] + damping[0], restoring[1] + damping[1],
                      yaw * MAX_YAW_TORQUE + damping[2])


def webots_physics_cleanup():
    """Give the blimp its gravity back (the plugin may be unloaded or replaced)."""
    if body is not None:
        dBodySetGravityMode(body, 1)
