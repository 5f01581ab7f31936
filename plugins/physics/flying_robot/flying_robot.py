"""Physics plugin "flying_robot": a small robot that flies on forces added by its plugin.

World: resources/worlds/flying_robot.wbt (also the default world). The idea
comes from Webots' "flying mybot" sample (projects/samples/howto/physics);
this is our own Python version, Z up.

The work is split as in Webots' sample: the robot's controller
(controllers/flying_robot) decides the flight plan (take-off time, hover
height, cruise speed, when and how fast to turn) and sends one command per
step through its Emitter; this plugin does the physics and the sensing.

What it shows:

- **Commands from a controller**: ``webots_physics_step`` reads the commands
  with ``dWebotsReceive`` (channel 0) and keeps the latest one. Format
  ``COMMAND_FORMAT`` = ``"<3d"``: target height of the centre of mass [m],
  forward speed [m/s], yaw rate [rad/s]. No command yet: no force at all,
  the robot (DEF ROBOT, 1 kg, no motors) rests on its feet.
- **Forces from** ``webots_physics_step``: with a command, ``dBodyAddForce``
  cancels the weight and adds a PD controller on the height, torques keep the
  body level, a speed controller drives it along its heading and a yaw-rate
  controller steers.
- **A ray made by the plugin** (``dCreateRay``) pointing ahead of the robot as
  an obstacle detector. Geoms a plugin creates never get default contacts:
  ``webots_physics_collide`` sees the ray's pairs, reads the hit distance
  (the ``depth`` of the ray's contact from ``dCollide``) and returns 1 for
  every ray pair. Each step the plugin sends the nearest distance to the
  robot's Receiver with ``dWebotsSend(DISTANCE_CHANNEL = 1, ...)``, format
  ``DISTANCE_FORMAT`` = ``"<d"`` [m], ``inf`` when nothing is within
  ``RAY_LENGTH``; the controller decides what to do about it.
- **Custom contacts** between the robot's feet (the spheres of its Group
  boundingObject) and the floor (DEF FLOOR): collide makes the contact joints
  itself in ``dWebotsGetContactJointGroup()`` with its own surface (grippy
  and bouncy: ``FOOT_MU``, ``FOOT_BOUNCE``) and returns 1; every other pair is
  left to Odeon (return 0).
- **Drawing**: ``webots_physics_draw`` draws the ray as a yellow line (up to
  the obstacle when it sees one) with legacy OpenGL in pass 1.

Timing: a command the controller sent after step k is read here in step k+1;
the distance sent in step k is read by the controller right after step k.
"""

# ruff: noqa: F405  (the ODE and dWebots* names come from the star import below)

import math
import struct
from dataclasses import dataclass

from engine.plugins.physics import *  # noqa: F403  (the flat ODE API and dWebots*)

HEIGHT_KP = 16.0         # [1/s^2] height PD: acceleration per metre of error
HEIGHT_KD = 8.0          # [1/s]   ... per m/s of vertical speed (critically damped)
LEVEL_KP = 60.0          # [1/s^2] angular acceleration per radian of tilt
LEVEL_KD = 15.0          # [1/s]   ... per rad/s of roll/pitch rate
SPEED_GAIN = 2.0         # [1/s] horizontal speed controller
YAW_GAIN = 5.0           # [1/s] yaw-rate controller
RAY_LENGTH = 1.0         # [m] range of the obstacle detector
RAY_OFFSET = 0.11        # [m] the ray starts this far ahead of the centre of mass
FOOT_MU = 2.0            # friction of the feet on the floor (Odeon's default is 1)
FOOT_BOUNCE = 0.7        # restitution of the feet (Odeon's default is 0.5)
FOOT_BOUNCE_VEL = 0.1    # [m/s] slower impacts do not bounce
FOOT_SOFT_CFM = 1e-4
FOOT_SOFT_ERP = 0.2

COMMAND_FORMAT = "<3d"   # from the controller, channel 0: height [m], speed [m/s], yaw rate [rad/s]
COMMAND_SIZE = struct.calcsize(COMMAND_FORMAT)
DISTANCE_FORMAT = "<d"   # to the controller's Receiver: ray distance [m], inf = nothing
DISTANCE_CHANNEL = 1


@dataclass(frozen=True)
class Command:
    """The controller's latest wish: target height of the centre of mass [m],
    forward speed along the heading [m/s], yaw rate [rad/s]."""

    height: float
    speed: float
    yaw_rate: float


# Handles and state, (re)set in webots_physics_init.
body = robot_geom = floor = ray = None
feet = []                    # the robot's foot geoms (spheres of its boundingObject)
command = None               # the latest Command (None: none yet, no forces)
obstacle_distance = None     # [m] what the ray saw in this step's collision pass (None: nothing)
foot_contacts = 0            # contact joints made between feet and floor in this step
ray_segment = None           # (start, end) of the ray for drawing, world coordinates
_nearest = None              # collected during the collision pass
_made = 0


def webots_physics_init():
    """Look up the robot and the floor, find the feet, create the ray."""
    global body, robot_geom, floor, ray, feet, command, obstacle_distance
    global foot_contacts, ray_segment, _nearest, _made
    body = dWebotsGetBodyFromDEF("ROBOT")
    robot_geom = dWebotsGetGeomFromDEF("ROBOT")
    floor = dWebotsGetGeomFromDEF("FLOOR")
    command, obstacle_distance, foot_contacts = None, None, 0
    ray_segment, _nearest, _made = None, None, 0
    feet, ray = [], None
    if body is None or robot_geom is None:
        dWebotsConsolePrintf("no DEF ROBOT Solid with physics and a boundingObject: "
                             "the plugin does nothing")
        body = None
        return
    if dGeomIsSpace(robot_geom):  # a Group boundingObject: its spheres are the feet
        members = [dSpaceGetGeom(robot_geom, i) for i in range(dSpaceGetNumGeoms(robot_geom))]
        feet = [g for g in members if dGeomGetClass(g) == dSphereClass]
    # The ray lives in the space that holds the robot's geom (the world's space),
    # so dSpaceCollide pairs it with everything else.
    ray = dCreateRay(dGeomGetSpace(robot_geom), RAY_LENGTH)
    dGeomSetDynamicFlag(ray)
    _place_ray()
    dWebotsConsolePrintf("robot ready, %d feet, waiting for its controller's commands",
                         len(feet))


def webots_physics_collide(g1, g2):
    """The ray's pairs (return 1) and the feet-floor pairs (own contacts, return 1)."""
    if ray is not None and (g1 is ray or g2 is ray):
        return _ray_pair(g2 if g1 is ray else g1)
    if floor is not None and (g1 is floor or g2 is floor):
        other = g2 if g1 is floor else g1
        if any(other is foot for foot in feet):
            _foot_contacts(other, floor)
            return 1
    return 0  # everything else: Odeon's default handling (spaces are recursed into)


def _ray_pair(other):
    """Measure the distance to ``other`` along the ray; never any contact joint."""
    global _nearest
    if other is robot_geom or other is floor:
        return 1  # the robot does not see itself, and the floor is not an obstacle
    if dGeomIsSpace(other):
        return 0  # a Group boundingObject: Odeon recurses, we get its geoms one by one
    hits = dCollide(ray, other, 1)
    if hits:
        # For a ray, depth is the distance from the ray's start to the hit point.
        distance = hits[0].depth
        if _nearest is None or distance < _nearest:
            _nearest = distance
    return 1


def _foot_contacts(foot, floor_geom):
    """Contact joints between a foot and the floor with this plugin's surface."""
    global _made
    world = dBodyGetWorld(body)
    group = dWebotsGetContactJointGroup()  # fetch it at every call: it may change
    for cg in dCollide(foot, floor_geom, 4):
        c = dContact()
        c.surface.mode = dContactBounce | dContactApprox1 | dContactSoftCFM | dContactSoftERP
        c.surface.mu = FOOT_MU
        c.surface.bounce = FOOT_BOUNCE
        c.surface.bounce_vel = FOOT_BOUNCE_VEL
        c.surface.soft_cfm = FOOT_SOFT_CFM
        c.surface.soft_erp = FOOT_SOFT_ERP
        c.geom = cg
        joint = dJointCreateContact(world, group, c)
        dJointAttach(joint, body, None)  # the floor is the static environment
        _made += 1


def webots_physics_step():
    """Read this step's collision results and commands, report the distance,
    then add the flight forces."""
    global obstacle_distance, foot_contacts, command, _nearest, _made
    if body is None:
        return
    obstacle_distance, foot_contacts = _nearest, _made
    _nearest, _made = None, 0
    command = _latest_command(dWebotsReceive(), command)
    seen = obstacle_distance if obstacle_distance is not None else math.inf
    dWebotsSend(DISTANCE_CHANNEL, struct.pack(DISTANCE_FORMAT, seen))
    if command is not None:
        _fly(command)


def _latest_command(data, previous):
    """The last whole command in this step's channel-0 bytes (``previous`` when none)."""
    if data is None:
        return previous
    if len(data) % COMMAND_SIZE != 0:
        dWebotsConsolePrintf("ignored %d bytes on channel 0: commands are %d bytes (%s)",
                             len(data), COMMAND_SIZE, COMMAND_FORMAT)
        return previous
    return Command(*struct.unpack_from(COMMAND_FORMAT, data, len(data) - COMMAND_SIZE))


def _fly(wish):
    """Weight compensation, height PD, levelling, speed and yaw-rate control."""
    dBodyEnable(body)  # a body auto-disabled while resting on its feet ignores forces
    m = dBodyGetMass(body)
    mass, inertia = m.mass, m.I  # inertia: 3x4 row-major, body frame
    pos = dBodyGetPosition(body)
    vel = dBodyGetLinearVel(body)
    omega = dBodyGetAngularVel(body)
    g = -dWorldGetGravity(dBodyGetWorld(body))[2]
    # Vertical: F = m (g + kp (z* - z) - kd vz)
    lift = mass * (g + HEIGHT_KP * (wish.height - pos[2]) - HEIGHT_KD * vel[2])
    # Horizontal: drive the velocity toward the wished speed along the heading.
    heading = _heading()
    fx = mass * SPEED_GAIN * (wish.speed * heading[0] - vel[0])
    fy = mass * SPEED_GAIN * (wish.speed * heading[1] - vel[1])
    dBodyAddForce(body, fx, fy, lift)
    # Level: turn the body's up axis u toward world +z with a torque along
    # u x z = (u_y, -u_x, 0), and damp the roll/pitch rates.
    up = dBodyVectorToWorld(body, 0.0, 0.0, 1.0)
    tilt_x, tilt_y = float(up[1]), -float(up[0])
    i_xy, i_z = inertia[0], inertia[10]
    dBodyAddTorque(body,
                   i_xy * (LEVEL_KP * tilt_x - LEVEL_KD * omega[0]),
                   i_xy * (LEVEL_KP * tilt_y - LEVEL_KD * omega[1]),
                   i_z * YAW_GAIN * (wish.yaw_rate - omega[2]))


def _heading():
    """Unit horizontal vector of the robot's x axis (its front)."""
    x_axis = dBodyVectorToWorld(body, 1.0, 0.0, 0.0)
    norm = math.hypot(x_axis[0], x_axis[1])
    return (x_axis[0] / norm, x_axis[1] / norm) if norm > 1e-9 else (1.0, 0.0)


def webots_physics_step_end():
    """Move the ray to the robot's new pose, for the next collision pass."""
    if body is not None:
        _place_ray()


def _place_ray():
    """Ray from just ahead of the centre of mass along the robot's x axis."""
    global ray_segment
    pos = dBodyGetPosition(body)
    x_axis = dBodyVectorToWorld(body, 1.0, 0.0, 0.0)
    start = pos + RAY_OFFSET * x_axis
    dGeomRaySet(ray, *start, *x_axis)
    seen = obstacle_distance if obstacle_distance is not None else RAY_LENGTH
    ray_segment = (start, start + seen * x_axis)


def webots_physics_draw(pass_, view):
    """Pass 1 in the 3D view: the ray as a yellow line, up to what it hits."""
    if pass_ != 1 or view is not None or ray_segment is None:
        return
    import OpenGL.GL as gl

    start, end = ray_segment
    gl.glPushAttrib(gl.GL_ENABLE_BIT | gl.GL_CURRENT_BIT | gl.GL_LINE_BIT)
    gl.glDisable(gl.GL_LIGHTING)
    gl.glLineWidth(2.0)
    gl.glColor3f(1.0, 1.0, 0.0)
    gl.glBegin(gl.GL_LINES)
    gl.glVertex3f(*start)
    gl.glVertex3f(*end)
    gl.glEnd()
    gl.glPopAttrib()


def webots_physics_cleanup():
    """Destroy the ray (the only ODE object this plugin made)."""
    global ray
    if ray is not None:
        dGeomDestroy(ray)
        ray = None
