"""Physics plugin "contact_points": contacts made by the plugin, with their forces.

World: resources/worlds/contact_points.wbt. The idea comes from Webots' old
"contact_points" sample; this is our own Python version, Z up.

What it shows:

- ``webots_physics_collide`` taking over the pairs "floor (DEF FLOOR) vs one
  of the boxes (DEF OBJECT, DEF SLIDER)": it asks ``dCollide`` for the contact
  points, makes the contact joints in ``dWebotsGetContactJointGroup()`` with
  its own surface (``MU``, ``BOUNCE``), gives each a ``dJointFeedback``
  (``dJointSetFeedback``) and returns 1; other pairs are left to Odeon.
- ``webots_physics_step_end`` reading the feedback: the force each contact
  applied to its box in this step. Every ``PRINT_EVERY`` steps it prints the
  points and forces (resting, the vertical forces of a box add up to m g;
  sliding, the friction adds up to MU m g against the motion).
- ``webots_physics_draw`` (pass 1): the contact points as red dots and the
  contact forces as green arrows (``ARROW_SCALE`` metres per newton).
"""

# ruff: noqa: F405  (the ODE and dWebots* names come from the star import below)

import numpy as np

from engine.plugins.physics import *  # noqa: F403  (the flat ODE API and dWebots*)

BOXES = ("OBJECT", "SLIDER")  # DEF names of the Solids whose floor contacts we make
MAX_CONTACTS = 10             # contact points asked from dCollide per pair
MU = 0.5                      # Coulomb friction of our contacts
BOUNCE = 0.3                  # restitution
BOUNCE_VEL = 0.05             # [m/s] slower impacts do not bounce
SOFT_CFM = 1e-4
PRINT_EVERY = 100             # steps between two printouts
ARROW_SCALE = 0.02            # [m/N] length of the drawn force arrows

floor = None
boxes = {}      # geom -> (DEF name, body)
contacts = []   # this step's contacts: (DEF name, position (3,), dJointFeedback)
totals = {}     # DEF name -> total contact force on that box in this step (3,) [N]
_pending = []   # contacts made during the collision pass
_steps = 0


def webots_physics_init():
    """Look up the floor and the boxes."""
    global floor, boxes, contacts, totals, _pending, _steps
    floor = dWebotsGetGeomFromDEF("FLOOR")
    boxes, contacts, totals, _pending, _steps = {}, [], {}, [], 0
    for name in BOXES:
        geom, body = dWebotsGetGeomFromDEF(name), dWebotsGetBodyFromDEF(name)
        if geom is None or body is None:
            dWebotsConsolePrintf("no Solid DEF %s with physics and a boundingObject", name)
            continue
        boxes[geom] = (name, body)
    if floor is None:
        dWebotsConsolePrintf("no DEF FLOOR Solid with a boundingObject: the plugin does nothing")


def webots_physics_collide(g1, g2):
    """Our own contacts (with feedback) between the floor and a box."""
    if floor is None or not (g1 is floor or g2 is floor):
        return 0
    box = g2 if g1 is floor else g1
    if box not in boxes:
        return 0
    name, body = boxes[box]
    world = dBodyGetWorld(body)
    group = dWebotsGetContactJointGroup()
    for cg in dCollide(box, floor, MAX_CONTACTS):  # box first: the normal points into it
        c = dContact()
        c.surface.mode = dContactBounce | dContactApprox1 | dContactSoftCFM
        c.surface.mu = MU
        c.surface.bounce = BOUNCE
        c.surface.bounce_vel = BOUNCE_VEL
        c.surface.soft_cfm = SOFT_CFM
        c.geom = cg
        joint = dJointCreateContact(world, group, c)
        dJointAttach(joint, body, None)  # body 1 = the box, body 2 = the static floor
        feedback = dJointFeedback()
        dJointSetFeedback(joint, feedback)  # filled in by the world step
        _pending.append((name, cg.pos.copy(), feedback))
    return 1


def webots_physics_step():
    """Nothing to add: the contacts of this step are already made (mandatory callback)."""


def webots_physics_step_end():
    """Read the contact forces of this step; print them every PRINT_EVERY steps."""
    global contacts, totals, _pending, _steps
    contacts, _pending = _pending, []
    totals = {name: np.zeros(3) for name, _ in boxes.values()}
    for name, _pos, feedback in contacts:
        totals[name] += feedback.f1  # f1: force on body 1, the box
    _steps += 1
    if _steps % PRINT_EVERY == 0:
        _print(dWebotsGetTime() / 1000.0)


def _print(t):
    dWebotsConsolePrintf("t = %.2f s: %d contact points", t, len(contacts))
    for name, pos, feedback in contacts:
        f = feedback.f1
        dWebotsConsolePrintf("  %s at (%.3f, %.3f, %.3f): force (%.2f, %.2f, %.2f) N",
                             name, *pos, *f)
    for name, total in totals.items():
        dWebotsConsolePrintf("  %s total (%.2f, %.2f, %.2f) N", name, *total)


def webots_physics_draw(pass_, view):
    """Pass 1: red dots at the contact points, green arrows for the contact forces."""
    if pass_ != 1 or not contacts:
        return
    import OpenGL.GL as gl

    gl.glPushAttrib(gl.GL_ENABLE_BIT | gl.GL_CURRENT_BIT | gl.GL_LINE_BIT | gl.GL_POINT_BIT)
    gl.glDisable(gl.GL_LIGHTING)
    gl.glDisable(gl.GL_DEPTH_TEST)  # visible through the boxes
    gl.glPointSize(6.0)
    gl.glColor3f(1.0, 0.1, 0.1)
    gl.glBegin(gl.GL_POINTS)
    for _name, pos, _feedback in contacts:
        gl.glVertex3f(*pos)
    gl.glEnd()
    gl.glLineWidth(2.0)
    gl.glColor3f(0.1, 0.9, 0.2)
    gl.glBegin(gl.GL_LINES)
    for _name, pos, feedback in contacts:
        for a, b in _arrow(pos, pos + ARROW_SCALE * feedback.f1):
            gl.glVertex3f(*a)
            gl.glVertex3f(*b)
    gl.glEnd()
    gl.glPopAttrib()


def _arrow(start, end):
    """Line segments of an arrow from ``start`` to ``end``: the shaft and two barbs."""
    shaft = end - start
    length = float(np.linalg.norm(shaft))
    if length < 1e-9:
        return []
    d = shaft / length
    side = np.cross(d, (1.0, 0.0, 0.0) if abs(d[0]) < 0.9 else (0.0, 1.0, 0.0))
    side *= 0.25 * length / np.linalg.norm(side)
    back = end - 0.25 * length * d
    return [(start, end), (end, back + side), (end, back - side)]


def webots_physics_cleanup():
    """Nothing to destroy: the contact joints are emptied by Odeon after each step."""
