"""Physics plugin "template" for Odeon (a Python take on Webots' physics plugins).

To use it: save this file as <project>/plugins/physics/template/template.py,
set WorldInfo.physics to "template" in the scene tree, save and reload the
world. See docs/plugin-guide.md for the callbacks and the dWebots* functions.
"""

from engine.plugins.physics import *  # noqa: F403  (the flat ODE API and dWebots*)


def webots_physics_init():
    """Runs once when the world is loaded (and again after a reset), before the
    first step, with this plugin's folder as the working directory.

    A good place to look up bodies and geoms and keep them in globals, e.g.
    ``body = dWebotsGetBodyFromDEF("MY_ROBOT")`` (None when not found:
    always check).
    """


def webots_physics_step():
    """Runs every step after collision detection and before the world step:
    read poses, add forces and torques (e.g. ``dBodyAddForce(body, 0, 0, 1)``),
    read what robots sent with ``dWebotsReceive()``."""


def webots_physics_step_end():
    """Runs every step right after the world step: joint feedback
    (``dJointGetFeedback``) of this step is readable here."""


def webots_physics_collide(g1, g2):
    """Runs for every pair of geoms (or spaces) whose bounding boxes overlap,
    before the step. Return 0 to let Odeon make its default contacts, 1 when
    you handled the pair yourself (e.g. contacts made with ``dCollide`` and
    ``dJointCreateContact(world, dWebotsGetContactJointGroup(), contact)``),
    2 to also show both bounding objects as colliding."""
    return 0


def webots_physics_draw(pass_, view):
    """Runs in the 3D view's thread while no step is in progress: pass 0 before
    and pass 1 after the regular rendering; view is None for the 3D view or a
    robot's name for its camera. World coordinates are loaded; restore any
    OpenGL state you change (import OpenGL.GL inside this function)."""


def webots_physics_cleanup():
    """Runs when the world is closed or reloaded, before a reset and before the
    plugin is reloaded: destroy the ODE objects this plugin created."""
