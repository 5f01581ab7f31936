"""BallJoint: ball joint + Euler AMotors (stops, springs, dampers, static friction,
positions), between two bodies and between a body and the static world."""

from __future__ import annotations

import math
import os

import numpy as np
import pytest

from engine import ode
from engine.sim import Simulation
from tests.engine.sim.helpers import make_sim

WORLDS = os.path.join(os.path.dirname(__file__), "..", "..", "resources", "worlds")
ZERO_G = "gravity 0 basicTimeStep 1 physicsDisableTime -1"
I_CHILD = 0.4 * 1.0 * 0.1 ** 2      # 1 kg sphere of radius 0.1 about its centre
AXES = np.eye(3)                    # Webots axes 1..3 with the explicit axes of _AXIS_NODES
ATTACH = ["static", "two_bodies"]


def _axis_nodes(p1: str = "", p2: str = "", p3: str = "") -> str:
    """The three parameter nodes; axes x (jointParameters2) and z (jointParameters3)."""
    return (f"jointParameters BallJointParameters {{ {p1} }} "
            f"jointParameters2 JointParameters {{ axis 1 0 0 {p2} }} "
            f"jointParameters3 JointParameters {{ axis 0 0 1 {p3} }}")


def _sim(params: str, attach: str, w=(0.0, 0.0, 0.0), info: str = ZERO_G) -> Simulation:
    """A 1 kg ball (radius 0.1) on a BallJoint anchored at its centre; its parent is
    the static world or a 100 kg body fixed to the world."""
    child = (f"endPoint DEF C Solid {{ angularVelocity {w[0]} {w[1]} {w[2]} "
             "boundingObject Sphere { radius 0.1 } physics Physics { density -1 mass 1 } }")
    joint = f"DEF J BallJoint {{ {params} {child} }}"
    if attach == "static":
        text = f"DEF P Solid {{ translation 0 0 1 children [ {joint} ] }}"
    else:
        text = ("Solid { translation 0 0 1 children [ DEF P Solid { physics Physics { density -1 "
                f"mass 100 }} boundingObject Box {{ size 0.1 0.1 0.1 }} children [ {joint} ] }} ] }}")
    sim = make_sim(text, info)
    assert (sim.body_from_def("P") is None) == (attach == "static")
    return sim


def _run(sim: Simulation, steps: int, torque=None) -> None:
    body = sim.body_from_def("C")
    for _ in range(steps):
        if torque is not None:
            ode.dBodyAddTorque(body, *torque)
        sim.step()


def _rot(axis, angle: float) -> np.ndarray:
    a = np.asarray(axis, dtype=float) / np.linalg.norm(axis)
    k = np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
    return np.eye(3) + math.sin(angle) * k + (1 - math.cos(angle)) * k @ k


def _crossings(t: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Times of the upward zero crossings of x(t), linearly interpolated."""
    i = np.nonzero((x[:-1] < 0) & (x[1:] >= 0))[0]
    return t[i] - x[i] * (t[i + 1] - t[i]) / (x[i + 1] - x[i])


@pytest.mark.parametrize("bob", ["STATIC_BOB", "BODY_BOB"])
def test_spherical_pendulum_period(bob: str) -> None:
    sim = Simulation(os.path.join(WORLDS, "sim_ball_pendulums.wbt"))
    body = sim.body_from_def(bob)
    pivot = np.array([0.0, 0.0, 2.0]) if bob == "STATIC_BOB" else np.array([3.0, 0.0, 2.0])
    ts, xs, ys, rs = [], [], [], []
    for _ in range(9000):
        sim.step()
        p = np.asarray(ode.dBodyGetPosition(body))[:3] - pivot
        ts.append(sim.time_ms / 1000.0)
        xs.append(p[0])
        ys.append(p[1])
        rs.append(np.linalg.norm(p))
    m, r, length, g = 1.0, 0.01, 1.0, 9.81
    period = 2 * math.pi * math.sqrt((0.4 * m * r * r + m * length ** 2) / (m * g * length))
    for series in (xs, ys):   # the swing along x and the one along y (elliptical cone)
        c = _crossings(np.array(ts), np.array(series))
        assert len(c) >= 4
        measured = (c[-1] - c[0]) / (len(c) - 1)
        assert measured == pytest.approx(period, rel=0.01)
    assert max(abs(v - 1.0) for v in rs) < 1e-3    # the bob stays on its sphere
    assert max(abs(v) for v in ys) > 0.02          # really a 2-D (spherical) motion


@pytest.mark.parametrize("attach", ATTACH)
def test_positions_are_the_three_axis_angles(attach: str) -> None:
    # axes y (jointParameters2), x (jointParameters3); axis 2 = x cross y = z
    params = ("jointParameters BallJointParameters { position 0.1 } "
              "jointParameters2 JointParameters { axis 0 1 0 position -0.2 } "
              "jointParameters3 JointParameters { axis 1 0 0 position 0.3 }")
    sim = _sim(params, attach)
    rec = sim.model.joints[0]
    assert [rec.position(k) for k in range(3)] == pytest.approx([0.1, -0.2, 0.3])
    a1, a2, a3 = np.array([0, 1.0, 0]), np.array([0, 0, 1.0]), np.array([1.0, 0, 0])
    assert np.allclose(rec.axes, [a1, a2, a3])
    p = (0.4, -0.25, 0.6)
    ode.dBodySetRotation(sim.body_from_def("C"), _rot(a1, p[0]) @ _rot(a2, p[1]) @ _rot(a3, p[2]))
    sim.step()    # the Euler angles are computed at the start of the step
    got = [rec.position(k) for k in range(3)]
    assert got == pytest.approx([0.1 + p[0], -0.2 + p[1], 0.3 + p[2]], abs=1e-9)


@pytest.mark.parametrize("attach", ATTACH)
@pytest.mark.parametrize("axis", [0, 1, 2])
@pytest.mark.parametrize("direction", [1.0, -1.0])
def test_stops_hold_on_each_axis(attach: str, axis: int, direction: float) -> None:
    stops = "minStop -0.3 maxStop 0.2"
    nodes = ["", "", ""]
    nodes[axis] = stops
    sim = _sim(_axis_nodes(*nodes), attach, w=direction * AXES[axis])
    rec = sim.model.joints[0]
    lo, hi = math.inf, -math.inf
    for _ in range(1000):   # free, the ball would turn 1 rad
        sim.step()
        lo, hi = min(lo, rec.position(axis)), max(hi, rec.position(axis))
        for other in {0, 1, 2} - {axis}:
            assert abs(rec.position(other)) < 1e-6
    assert lo > -0.3 - 0.01 and hi < 0.2 + 0.01
    if direction > 0:
        assert hi > 0.2 - 0.01
    else:
        assert lo < -0.3 + 0.01


@pytest.mark.parametrize("attach", ATTACH)
@pytest.mark.parametrize("axis", [0, 1, 2])
def test_spring_equilibrium_under_a_known_torque(attach: str, axis: int) -> None:
    # only jointParameters: its spring and damper hold all three axes (homogeneous case)
    k, c, tau = 5.0, 1.0, 0.5
    sim = _sim(f"jointParameters BallJointParameters {{ springConstant {k} "
               f"dampingConstant {c} }}", attach)
    rec = sim.model.joints[0]
    _run(sim, 2500, torque=tau * AXES[axis])
    assert rec.position(axis) == pytest.approx(tau / k, rel=0.01)
    for other in {0, 1, 2} - {axis}:
        assert abs(rec.position(other)) < 1e-6
    _run(sim, 2500)     # torque removed: back to rest at position 0
    assert abs(rec.position(axis)) < 1e-3


@pytest.mark.parametrize("attach", ATTACH)
@pytest.mark.parametrize("axis", [0, 1, 2])
def test_damping_decays_the_rotation(attach: str, axis: int) -> None:
    c, w0 = 0.004, 1.0      # c / I = 1 per second
    nodes = ["", "", ""]
    nodes[axis] = f"dampingConstant {c}"
    sim = _sim(_axis_nodes(*nodes), attach, w=w0 * AXES[axis])
    body = sim.body_from_def("C")
    _run(sim, 1000)
    w = np.asarray(ode.dBodyGetAngularVel(body))[:3]
    assert w @ AXES[axis] == pytest.approx(w0 * math.exp(-c / I_CHILD * 1.0), rel=0.01)
    # an undamped axis keeps its speed
    sim = _sim(_axis_nodes(), attach, w=w0 * AXES[axis])
    _run(sim, 1000)
    w = np.asarray(ode.dBodyGetAngularVel(sim.body_from_def("C")))[:3]
    assert w @ AXES[axis] == pytest.approx(w0, rel=1e-6)


@pytest.mark.parametrize("attach", ATTACH)
@pytest.mark.parametrize("axis", [0, 1, 2])
def test_static_friction_holds_below_and_slips_above(attach: str, axis: int) -> None:
    f = 0.5
    nodes = ["", "", ""]
    nodes[axis] = f"staticFriction {f}"
    sim = _sim(_axis_nodes(*nodes), attach)
    rec = sim.model.joints[0]
    _run(sim, 500, torque=0.9 * f * AXES[axis])   # free, it would turn 14 rad
    assert abs(rec.position(axis)) < 1e-4
    assert np.linalg.norm(ode.dBodyGetAngularVel(sim.body_from_def("C"))[:3]) < 1e-4
    sim = _sim(_axis_nodes(*nodes), attach)
    tau, steps = 1.5 * f, 200
    _run(sim, steps, torque=tau * AXES[axis])
    w = np.asarray(ode.dBodyGetAngularVel(sim.body_from_def("C")))[:3]
    assert w @ AXES[axis] == pytest.approx((tau - f) / I_CHILD * steps * 1e-3, rel=0.01)


def test_static_friction_is_per_axis() -> None:
    # friction on axis 1 only: a torque about axis 3 turns the ball freely
    sim = _sim(_axis_nodes(p1="staticFriction 0.5"), "static")
    rec = sim.model.joints[0]
    _run(sim, 200, torque=0.2 * AXES[2])
    assert rec.position(2) > 0.5 * 0.2 / I_CHILD * 0.2 ** 2 * 0.9
    assert abs(rec.position(0)) < 1e-6


@pytest.mark.parametrize("attach", ATTACH)
@pytest.mark.parametrize("axis", [0, 1, 2])
def test_spring_rest_and_stops_are_in_position_coordinates(attach: str, axis: int) -> None:
    # initial position 0.25: the spring pulls back to position 0 (not the initial pose)
    nodes = ["", "", ""]
    nodes[axis] = "position 0.25 springConstant 2 dampingConstant 0.5"
    sim = _sim(_axis_nodes(*nodes), attach)
    rec = sim.model.joints[0]
    assert rec.position(axis) == pytest.approx(0.25)
    _run(sim, 3000)
    assert abs(rec.position(axis)) < 1e-3
    # stops [-0.3, 0.4] from an initial position 0.25: 0.15 rad of travel upwards
    nodes[axis] = "position 0.25 minStop -0.3 maxStop 0.4"
    sim = _sim(_axis_nodes(*nodes), attach, w=AXES[axis])
    rec = sim.model.joints[0]
    hi = -math.inf
    for _ in range(500):
        sim.step()
        hi = max(hi, rec.position(axis))
    assert 0.4 - 0.01 < hi < 0.4 + 0.01


def test_axes_follow_the_joint_frame_and_webots_defaults() -> None:
    sim = make_sim("Pose { rotation 0 0 1 1.5707963267948966 children [ BallJoint { "
                   "endPoint Solid { boundingObject Sphere { radius 0.1 } physics Physics { } } "
                   "} ] }", ZERO_G)
    rec = sim.model.joints[0]
    # defaults x and z turned a quarter turn about z: y and z; axis 2 = z x y = -x
    assert np.allclose(rec.axes, [[0, 1, 0], [-1, 0, 0], [0, 0, 1]], atol=1e-12)
    # only jointParameters3: axis 1 = axis 3 x z (or x x when parallel)
    sim = _sim("jointParameters3 JointParameters { axis 0 1 0 }", "static")
    assert np.allclose(sim.model.joints[0].axes[0], np.cross([0, 1, 0], [0, 0, 1]))
    # only jointParameters2: axis 3 = axis 1 x x (or x z when parallel)
    sim = _sim("jointParameters2 JointParameters { axis 1 0 0 }", "static")
    assert np.allclose(sim.model.joints[0].axes[2], np.cross([1, 0, 0], [0, 0, 1]))


def test_aligned_axes_fall_back_to_x_and_z_with_a_warning() -> None:
    # two JointParameters nodes keep their default axis, (0, 0, 1) both
    sim = _sim("jointParameters2 JointParameters { } jointParameters3 JointParameters { }",
               "static")
    assert np.allclose(sim.model.joints[0].axes, np.eye(3))
    assert any("axes are aligned" in text for _, text in sim.console.lines)


def test_reset_and_state_restore_the_motors() -> None:
    sim = Simulation(os.path.join(WORLDS, "sim_ball_pendulums.wbt"))
    rec = sim.model.joints[0]

    def run() -> list[float]:
        _run(sim, 300)
        return [rec.position(k) for k in range(3)] + list(
            ode.dBodyGetPosition(sim.body_from_def("STATIC_BOB"))[:3])

    first = run()
    state = sim.save_state()
    second = run()
    sim.load_state(state)
    assert run() == second
    sim.reset()
    assert [rec.position(k) for k in range(3)] == [0.0, 0.0, 0.0]
    assert run() == first
