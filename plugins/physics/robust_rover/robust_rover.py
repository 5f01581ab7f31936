"""Physics plugin "robust_rover": a rover's wheels on a mesh terrain with robust contacts.

World: resources/worlds/robust_rover.wbt (``odeon: contacts robust``): a 2 kg
rover with four free wheels on a 2 048-triangle terrain mesh.

What it shows:

- ``dRobustSetBodySurface``: the wheels get a rubber surface (kFriction 1.2,
  a little softness through kStiffness/kDamping); Odeon blends it with the
  terrain's (kFriction 0.8 from the world's ``odeon: solid TERRAIN`` line).
- ``dRobustSetGeomPadding``: the wheels' boundary layer is 4 mm (bodies have
  2.5 mm by default); View > Boundary Layers shows it in the app.
- ``webots_physics_collide`` making the wheel-terrain contacts itself with
  ``dRobustCollide`` (padded, clustered, blended) and returning 1. In this
  world the robust model would make the same contacts; the call is what a
  plugin uses in a world with Webots' default contacts, to get robust
  contacts for just the pairs it cares about.
- ``webots_physics_step``: a speed controller turning the four wheels with
  ``dJointAddHingeTorque`` (``TARGET_SPEED`` rad/s, torque capped at
  ``MAX_TORQUE``) after a one-second settle; every ``PRINT_EVERY`` steps the
  rover's position is printed.
"""

# ruff: noqa: F405  (the ODE, dWebots* and dRobust* names come from the star import below)

from engine.plugins.physics import *  # noqa: F403

WHEELS = ("WHEEL_FL", "WHEEL_FR", "WHEEL_RL", "WHEEL_RR")
RUBBER = SurfaceParameters(k_friction=1.2, k_restitution=0.0, k_stiffness=2e5, k_damping=2e3)
WHEEL_PADDING = 0.004   # [m]
TARGET_SPEED = 4.0      # [rad/s] wheel speed once driving (0.2 m/s for 5 cm wheels)
GAIN = 0.05             # [N·m·s/rad] torque per rad/s of speed error
MAX_TORQUE = 0.3        # [N·m]
SETTLE_MS = 1000.0      # wait before driving
PRINT_EVERY = 200       # steps between printouts

terrain = None
wheels = {}     # geom -> hinge joint
rover = None
_steps = 0


def webots_physics_init():
    """Find the terrain, the wheels and their hinges; give the wheels their surface."""
    global terrain, wheels, rover, _steps
    terrain = dWebotsGetGeomFromDEF("TERRAIN")
    rover = dWebotsGetBodyFromDEF("ROVER")
    wheels, _steps = {}, 0
    for name in WHEELS:
        geom, body = dWebotsGetGeomFromDEF(name), dWebotsGetBodyFromDEF(name)
        if geom is None or body is None:
            dWebotsConsolePrintf("no wheel DEF %s with physics and a boundingObject", name)
            continue
        dRobustSetBodySurface(body, RUBBER)
        dRobustSetGeomPadding(geom, WHEEL_PADDING)
        hinge = next(dBodyGetJoint(body, i) for i in range(dBodyGetNumJoints(body))
                     if dJointGetType(dBodyGetJoint(body, i)) == dJointTypeHinge)
        wheels[geom] = hinge
    if terrain is None or rover is None:
        dWebotsConsolePrintf("no DEF TERRAIN or DEF ROVER: the plugin does nothing")


def webots_physics_collide(g1, g2):
    """Robust contacts between a wheel and the terrain, made here."""
    if terrain is None or not (g1 is terrain or g2 is terrain):
        return 0
    wheel = g2 if g1 is terrain else g1
    if wheel not in wheels:
        return 0
    dRobustCollide(wheel, terrain)
    return 1


def webots_physics_step():
    """Turn the wheels at TARGET_SPEED after the settle time."""
    global _steps
    _steps += 1
    if rover is None:
        return
    if dWebotsGetTime() >= SETTLE_MS:
        for hinge in wheels.values():
            # the hinge is attached (wheel, rover): its rate is the wheel's spin
            error = TARGET_SPEED - dJointGetHingeAngleRate(hinge)
            torque = max(-MAX_TORQUE, min(MAX_TORQUE, GAIN * error))
            dJointAddHingeTorque(hinge, torque)
    if _steps % PRINT_EVERY == 0:
        x, y, z = dBodyGetPosition(rover)
        dWebotsConsolePrintf("t = %.2f s: rover at (%.3f, %.3f, %.3f)",
                             dWebotsGetTime() / 1000.0, x, y, z)


def webots_physics_cleanup():
    """Forget the handles (the world is being reset or closed)."""
    global terrain, wheels, rover
    terrain, wheels, rover = None, {}, None
