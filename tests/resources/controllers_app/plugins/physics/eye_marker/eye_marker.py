"""Draws a yellow square in front of robot "eye"'s front camera, only in the
views of that robot's cameras (webots_physics_draw's view = the robot's name)."""

from engine.plugins.physics import *  # noqa: F403

views = set()


def webots_physics_init():
    pass


def webots_physics_step():
    pass


def webots_physics_draw(pass_, view):
    views.add(view)
    if pass_ != 1 or view != "eye":
        return
    import OpenGL.GL as gl

    gl.glDisable(gl.GL_LIGHTING)
    gl.glColor3f(1.0, 1.0, 0.0)
    gl.glBegin(gl.GL_QUADS)  # at x = 0.5, 0.1 m wide, around the camera's axis (z = 0.1)
    gl.glVertex3f(0.5, -0.05, 0.05)
    gl.glVertex3f(0.5, 0.05, 0.05)
    gl.glVertex3f(0.5, 0.05, 0.15)
    gl.glVertex3f(0.5, -0.05, 0.15)
    gl.glEnd()


def webots_physics_cleanup():
    pass
