"""Joint and joint-group functions of the flat API over libode, for the joint
types the reference scenes use: ball, hinge, slider and contact.

A joint created with group None lives until its world is destroyed; contact
joints go into a group emptied before each collision pass. A
:class:`~engine.libode.structs.dJointFeedback` given to
:func:`dJointSetFeedback` is kept alive by the joint's handle, since ODE
writes into it during every step.
"""

from __future__ import annotations

import ctypes
from ctypes import POINTER, c_double, c_int, c_void_p

import numpy as np

from engine.libode.handles import BODIES, Handle, plain
from engine.libode.loader import bind
from engine.libode.structs import (
    CContact,
    CJointFeedback,
    Vector3,
    dContact,
    dJointFeedback,
    vector3,
)

_VEC_SET = (c_void_p, c_double, c_double, c_double)

_group_create = bind("dJointGroupCreate", c_void_p, c_int)
_group_empty = bind("dJointGroupEmpty", None, c_void_p)
_group_destroy = bind("dJointGroupDestroy", None, c_void_p)
_create_ball = bind("dJointCreateBall", c_void_p, c_void_p, c_void_p)
_create_hinge = bind("dJointCreateHinge", c_void_p, c_void_p, c_void_p)
_create_slider = bind("dJointCreateSlider", c_void_p, c_void_p, c_void_p)
_create_contact = bind("dJointCreateContact", c_void_p, c_void_p, c_void_p, POINTER(CContact))
_destroy = bind("dJointDestroy", None, c_void_p)
_attach = bind("dJointAttach", None, c_void_p, c_void_p, c_void_p)
_get_type = bind("dJointGetType", c_int, c_void_p)
_get_body = bind("dJointGetBody", c_void_p, c_void_p, c_int)
_set_feedback = bind("dJointSetFeedback", None, c_void_p, POINTER(CJointFeedback))
_are_connected_excluding = bind("dAreConnectedExcluding", c_int, c_void_p, c_void_p, c_int)

_ball_set_anchor = bind("dJointSetBallAnchor", None, *_VEC_SET)
_ball_get_anchor = bind("dJointGetBallAnchor", None, c_void_p, Vector3)
_hinge_set_anchor = bind("dJointSetHingeAnchor", None, *_VEC_SET)
_hinge_get_anchor = bind("dJointGetHingeAnchor", None, c_void_p, Vector3)
_hinge_set_axis = bind("dJointSetHingeAxis", None, *_VEC_SET)
_hinge_get_axis = bind("dJointGetHingeAxis", None, c_void_p, Vector3)
_hinge_set_param = bind("dJointSetHingeParam", None, c_void_p, c_int, c_double)
_hinge_get_param = bind("dJointGetHingeParam", c_double, c_void_p, c_int)
_hinge_get_angle = bind("dJointGetHingeAngle", c_double, c_void_p)
_hinge_get_angle_rate = bind("dJointGetHingeAngleRate", c_double, c_void_p)
_slider_set_axis = bind("dJointSetSliderAxis", None, *_VEC_SET)
_slider_get_axis = bind("dJointGetSliderAxis", None, c_void_p, Vector3)
_slider_set_param = bind("dJointSetSliderParam", None, c_void_p, c_int, c_double)
_slider_get_param = bind("dJointGetSliderParam", c_double, c_void_p, c_int)
_slider_get_position = bind("dJointGetSliderPosition", c_double, c_void_p)
_slider_get_position_rate = bind("dJointGetSliderPositionRate", c_double, c_void_p)


def _vector_getter(fn: ctypes._CFuncPtr, j: Handle) -> np.ndarray:
    out = Vector3()
    fn(j, out)
    return vector3(out)


# --- groups and common joint functions -------------------------------------
def dJointGroupCreate(max_size: int) -> Handle:
    """A new joint group (``max_size`` is ignored by ODE; pass 0)."""
    return plain("joint group", _group_create(max_size))


def dJointGroupEmpty(group: Handle) -> None:
    """Destroy every joint of the group, keep the group."""
    _group_empty(group)


def dJointGroupDestroy(group: Handle) -> None:
    """Destroy the group and its joints."""
    _group_destroy(group)


def dJointCreateBall(w: Handle, group: Handle | None) -> Handle:
    """A ball-and-socket joint."""
    return plain("joint", _create_ball(w, group))


def dJointCreateHinge(w: Handle, group: Handle | None) -> Handle:
    """A hinge joint."""
    return plain("joint", _create_hinge(w, group))


def dJointCreateSlider(w: Handle, group: Handle | None) -> Handle:
    """A slider (prismatic) joint."""
    return plain("joint", _create_slider(w, group))


def dJointCreateContact(w: Handle, group: Handle | None, contact: dContact) -> Handle:
    """A contact joint; ODE copies ``contact`` (surface, point, fdir1)."""
    c = contact.to_c()
    return plain("joint", _create_contact(w, group, ctypes.byref(c)))


def dJointDestroy(j: Handle) -> None:
    """Destroy a joint outside a group."""
    _destroy(j)


def dJointAttach(j: Handle, body1: Handle | None, body2: Handle | None) -> None:
    """Attach the joint to two bodies; None is the static environment."""
    _attach(j, body1, body2)


def dJointGetType(j: Handle) -> int:
    """The joint's dJointType* constant."""
    return _get_type(j)


def dJointGetBody(j: Handle, index: int) -> Handle | None:
    """Body 0 or 1 of the joint; None for the environment."""
    return BODIES.find(_get_body(j, index))


def dJointSetFeedback(j: Handle, feedback: dJointFeedback | None) -> None:
    """Have ODE write the joint's forces into ``feedback`` every step (None: stop)."""
    if feedback is None:
        _set_feedback(j, None)
        j.keep_alive.clear()
        return
    _set_feedback(j, ctypes.byref(feedback.c_struct))
    j.keep_alive[:] = [feedback]


def dAreConnectedExcluding(b1: Handle, b2: Handle, joint_type: int) -> bool:
    """True when a joint not of ``joint_type`` connects the two bodies."""
    return bool(_are_connected_excluding(b1, b2, joint_type))


# --- ball --------------------------------------------------------------------
def dJointSetBallAnchor(j: Handle, x: float, y: float, z: float) -> None:
    """Anchor (m, world frame)."""
    _ball_set_anchor(j, x, y, z)


def dJointGetBallAnchor(j: Handle) -> np.ndarray:
    """Anchor on body 1 (3,) m, world frame."""
    return _vector_getter(_ball_get_anchor, j)


# --- hinge -------------------------------------------------------------------
def dJointSetHingeAnchor(j: Handle, x: float, y: float, z: float) -> None:
    """Anchor (m, world frame)."""
    _hinge_set_anchor(j, x, y, z)


def dJointGetHingeAnchor(j: Handle) -> np.ndarray:
    """Anchor on body 1 (3,) m, world frame."""
    return _vector_getter(_hinge_get_anchor, j)


def dJointSetHingeAxis(j: Handle, x: float, y: float, z: float) -> None:
    """Axis (world frame; normalised by ODE)."""
    _hinge_set_axis(j, x, y, z)


def dJointGetHingeAxis(j: Handle) -> np.ndarray:
    """Axis (3,) unit, world frame."""
    return _vector_getter(_hinge_get_axis, j)


def dJointSetHingeParam(j: Handle, parameter: int, value: float) -> None:
    """Set a dParam* (stops, motor, bounce, CFM, ...)."""
    _hinge_set_param(j, parameter, value)


def dJointGetHingeParam(j: Handle, parameter: int) -> float:
    """A dParam* value."""
    return _hinge_get_param(j, parameter)


def dJointGetHingeAngle(j: Handle) -> float:
    """Angle (rad) of body 2 relative to body 1 about the axis, in (-pi, pi]."""
    return _hinge_get_angle(j)


def dJointGetHingeAngleRate(j: Handle) -> float:
    """Time derivative of the hinge angle (rad/s)."""
    return _hinge_get_angle_rate(j)


# --- slider ------------------------------------------------------------------
def dJointSetSliderAxis(j: Handle, x: float, y: float, z: float) -> None:
    """Axis (world frame; normalised by ODE)."""
    _slider_set_axis(j, x, y, z)


def dJointGetSliderAxis(j: Handle) -> np.ndarray:
    """Axis (3,) unit, world frame."""
    return _vector_getter(_slider_get_axis, j)


def dJointSetSliderParam(j: Handle, parameter: int, value: float) -> None:
    """Set a dParam* (stops, motor, bounce, CFM, ...)."""
    _slider_set_param(j, parameter, value)


def dJointGetSliderParam(j: Handle, parameter: int) -> float:
    """A dParam* value."""
    return _slider_get_param(j, parameter)


def dJointGetSliderPosition(j: Handle) -> float:
    """Slider position (m) along the axis, 0 where the joint was attached."""
    return _slider_get_position(j)


def dJointGetSliderPositionRate(j: Handle) -> float:
    """Time derivative of the slider position (m/s)."""
    return _slider_get_position_rate(j)
