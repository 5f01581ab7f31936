"""PID actuators and joint friction (engine.contact.actuators, joint_axes)
against closed forms, in our engine."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine import ode
from engine.contact.actuators import (
    ActuatorMode,
    ActuatorSet,
    JointFriction,
    PIDActuator,
    PIDGains,
    shortest_angle,
)
from engine.contact.joint_axes import AXIS_BUILDERS, HingeAxis, joint_axes

H = 0.001
INERTIA = 0.5     # kg·m², about the hinge axis
MASS = 2.0        # kg


class Rig:
    """A world without gravity, its bodies and an ActuatorSet stepped together."""

    def __init__(self) -> None:
        self.world = ode.dWorldCreate()
        ode.dWorldSetGravity(self.world, 0.0, 0.0, 0.0)
        self.bodies = []
        self.set = ActuatorSet()

    def body(self, pos=(0.0, 0.0, 0.0), inertia=(INERTIA, INERTIA, INERTIA), mass=MASS):
        b = ode.dBodyCreate(self.world)
        m = ode.dMass()
        ode.dMassSetParameters(m, mass, 0.0, 0.0, 0.0, *inertia, 0.0, 0.0, 0.0)
        ode.dBodySetMass(b, m)
        ode.dBodySetPosition(b, *pos)
        self.bodies.append(b)
        return b

    def step(self, n: int = 1, h: float = H) -> None:
        for _ in range(n):
            self.set.apply(h)
            ode.dWorldStep(self.world, h)

    def body_state(self) -> list:
        return [(np.array(ode.dBodyGetPosition(b)), np.array(ode.dBodyGetQuaternion(b)),
                 np.array(ode.dBodyGetLinearVel(b)), np.array(ode.dBodyGetAngularVel(b)))
                for b in self.bodies]

    def set_body_state(self, state: list) -> None:
        for b, (p, q, v, w) in zip(self.bodies, state, strict=True):
            ode.dBodySetPosition(b, *p)
            ode.dBodySetQuaternion(b, q)
            ode.dBodySetLinearVel(b, *v)
            ode.dBodySetAngularVel(b, *w)

    def close(self) -> None:
        ode.dWorldDestroy(self.world)


@pytest.fixture
def rig():
    r = Rig()
    yield r
    r.close()


def hinge(rig: Rig, stops=None) -> HingeAxis:
    """A body on a hinge about z to the static world; its axis."""
    b = rig.body()
    j = ode.dJointCreateHinge(rig.world, None)
    ode.dJointAttach(j, b, None)
    ode.dJointSetHingeAnchor(j, 0.0, 0.0, 0.0)
    ode.dJointSetHingeAxis(j, 0.0, 0.0, 1.0)
    if stops is not None:
        ode.dJointSetHingeParam(j, ode.dParamLoStop, stops[0])
        ode.dJointSetHingeParam(j, ode.dParamHiStop, stops[1])
    [axis] = joint_axes(j)
    return axis


def damped_oscillator(t: np.ndarray, target: float, kp: float, kd: float, inertia: float):
    """θ(t) of I θ'' = kP (θd − θ) − kD θ' from rest at 0 (underdamped)."""
    wn = math.sqrt(kp / inertia)
    zeta = kd / (2.0 * math.sqrt(kp * inertia))
    wd = wn * math.sqrt(1.0 - zeta * zeta)
    decay = np.exp(-zeta * wn * t)
    return target * (1.0 - decay * (np.cos(wd * t) + zeta / math.sqrt(1 - zeta * zeta)
                                    * np.sin(wd * t)))


# ----------------------------------------------------------------------------- PID
def test_pid_hinge_follows_the_damped_oscillator(rig):
    axis = hinge(rig)
    pid = rig.set.add_actuator(PIDActuator(axis, PIDGains(kp=50.0, ki=0.0, kd=5.0)))
    pid.set_target(1.0)
    times, angles = [], []
    for n in range(1, 1501):
        rig.step()
        times.append(n * H)
        angles.append(axis.position())
    exact = damped_oscillator(np.array(times), 1.0, 50.0, 5.0, INERTIA)
    assert np.abs(np.array(angles) - exact).max() < 0.01
    assert angles[-1] == pytest.approx(1.0, abs=0.01)


def test_pid_with_integral_reaches_its_target_against_a_load(rig):
    """A constant 2 N·m load: P and D alone leave an offset 2 / kP, the
    integral term removes it."""
    axis = hinge(rig)
    pid = rig.set.add_actuator(PIDActuator(axis, PIDGains(kp=50.0, ki=100.0, kd=8.0)))
    pid.set_target(0.5)
    for _ in range(6000):
        axis.add_effort(-2.0)
        rig.step()
    assert axis.position() == pytest.approx(0.5, abs=1e-4)
    assert abs(axis.rate()) < 1e-3
    assert pid.gains.ki * pid.integral == pytest.approx(2.0, rel=1e-3)


def test_torque_limit_clamps(rig):
    axis = hinge(rig)
    pid = rig.set.add_actuator(PIDActuator(axis, PIDGains(1000.0, 0.0, 0.0, torque_limit=1.5)))
    pid.set_target(1.0)
    assert pid.apply(H) == 1.5
    ode.dWorldStep(rig.world, H)
    assert axis.rate() == pytest.approx(1.5 / INERTIA * H, rel=1e-9)
    pid.set_target(-1.0)
    assert pid.apply(H) == -1.5


def test_anti_windup_bounds_the_integral_term(rig):
    """kI 100 on a 1 rad error would wind kI·I up to 100 N·m/s; the clamp
    holds it at the 2 N·m limit."""
    axis = hinge(rig)
    body = rig.bodies[0]
    m = ode.dMass()
    ode.dMassSetParameters(m, MASS, 0, 0, 0, 1e6, 1e6, 1e6, 0, 0, 0)   # barely moves
    ode.dBodySetMass(body, m)
    pid = rig.set.add_actuator(PIDActuator(axis, PIDGains(0.0, 100.0, 0.0, torque_limit=2.0)))
    pid.set_target(1.0)
    wound = []
    for _ in range(500):
        rig.step()
        wound.append(pid.gains.ki * pid.integral)
    assert max(wound) <= 2.0
    assert wound[-1] == pytest.approx(2.0, rel=1e-12)
    assert wound[5] == pytest.approx(100.0 * 6 * H, rel=1e-3)    # before the clamp


def test_torque_mode_gives_tau_over_inertia(rig):
    axis = hinge(rig)
    act = rig.set.add_actuator(PIDActuator(axis, PIDGains(0.0, 0.0, 0.0, torque_limit=5.0)))
    act.set_torque(0.8)
    rig.step(100)
    assert axis.rate() == pytest.approx(0.8 / INERTIA * 100 * H, rel=1e-9)
    act.set_torque(-9.0)                     # beyond the limit: -5
    rig.step(100)
    assert axis.rate() == pytest.approx((0.8 - 5.0) / INERTIA * 100 * H, rel=1e-9)
    act.off()
    rate = axis.rate()
    rig.step(10)
    assert axis.rate() == pytest.approx(rate, rel=1e-12)


def test_locked_velocity_tracks_within_the_limit(rig):
    axis = hinge(rig)
    act = rig.set.add_actuator(PIDActuator(axis, PIDGains(0.0, 0.0, 0.0, torque_limit=50.0)))
    act.set_locked_velocity(2.0)
    rig.step(1)       # 50 N·m / 0.5 kg·m²: 0.1 rad/s in one 1 ms step
    assert axis.rate() == pytest.approx(50.0 / INERTIA * H, rel=1e-6)
    rig.step(30)
    assert axis.rate() == pytest.approx(2.0, rel=1e-9)
    # a small limit: the motor accelerates at limit / I only
    act.gains = PIDGains(0.0, 0.0, 0.0, torque_limit=0.1)
    act.set_locked_velocity(-2.0)
    rig.step(10)
    assert axis.rate() == pytest.approx(2.0 - 0.1 / INERTIA * 10 * H, rel=1e-6)
    # leaving the mode releases the motor
    act.off()
    rig.step(1)
    assert ode.dJointGetHingeParam(axis.joint, ode.dParamFMax) == 0.0
    rate = axis.rate()
    rig.step(10)
    assert axis.rate() == pytest.approx(rate, rel=1e-12)


def test_free_hinge_takes_the_short_way_round(rig):
    axis = hinge(rig)
    ode.dBodySetQuaternion(rig.bodies[0], (math.cos(-1.5), 0.0, 0.0, math.sin(-1.5)))
    assert axis.position() == pytest.approx(-3.0, abs=1e-12)
    pid = PIDActuator(axis, PIDGains(1.0, 0.0, 0.0))
    pid.set_target(3.0)
    assert pid.position_error() == pytest.approx(6.0 - 2 * math.pi, abs=1e-12)


def test_hinge_with_stops_uses_the_plain_difference(rig):
    axis = hinge(rig, stops=(-3.1, 3.1))
    assert axis.has_stops()
    ode.dBodySetQuaternion(rig.bodies[0], (math.cos(-1.5), 0.0, 0.0, math.sin(-1.5)))
    pid = PIDActuator(axis, PIDGains(1.0, 0.0, 0.0))
    pid.set_target(3.0)
    assert pid.position_error() == pytest.approx(6.0, abs=1e-12)


def test_shortest_angle():
    assert shortest_angle(0.5) == 0.5
    assert shortest_angle(math.pi) == math.pi
    assert shortest_angle(-math.pi) == math.pi
    assert shortest_angle(2 * math.pi + 0.25) == pytest.approx(0.25, abs=1e-15)
    assert shortest_angle(-7.0) == pytest.approx(-7.0 + 2 * math.pi, abs=1e-15)
    assert shortest_angle(13.0) == pytest.approx(13.0 - 4 * math.pi, abs=1e-14)


# ----------------------------------------------------------------------------- friction
def _pushed_hinge(rig, torque, dry, viscous=0.0):
    axis = hinge(rig)
    push = rig.set.add_actuator(PIDActuator(axis, PIDGains(0.0, 0.0, 0.0)))
    push.set_torque(torque)
    rig.set.add_friction(JointFriction(axis, dry, viscous))
    return axis


def test_dry_friction_holds_below_its_breaking_torque(rig):
    axis = _pushed_hinge(rig, 0.9, dry=1.0)
    rig.step(1000)
    assert abs(axis.rate()) < 1e-6
    assert abs(axis.position()) < 1e-6


def test_dry_friction_slides_above_it(rig):
    axis = _pushed_hinge(rig, 1.5, dry=1.0)
    rig.step(1000)
    assert axis.rate() / 1.0 == pytest.approx((1.5 - 1.0) / INERTIA, rel=0.02)


def test_viscous_friction_terminal_velocity(rig):
    """τ = μD + μV·v at the terminal velocity: (2 − 0.5) / 1.5 = 1 rad/s."""
    axis = _pushed_hinge(rig, 2.0, dry=0.5, viscous=1.5)
    rig.step(3000)
    assert axis.rate() == pytest.approx(1.0, rel=0.01)


def test_locked_velocity_owns_the_motor_over_friction(rig):
    axis = hinge(rig)
    act = rig.set.add_actuator(PIDActuator(axis, PIDGains(0.0, 0.0, 0.0, torque_limit=20.0)))
    friction = rig.set.add_friction(JointFriction(axis, 3.0, 0.0))
    act.set_locked_velocity(1.0)
    rig.step(30)       # 20 N·m / 0.5 kg·m²: 0.04 rad/s per step
    assert ode.dJointGetHingeParam(axis.joint, ode.dParamVel) == 1.0
    assert ode.dJointGetHingeParam(axis.joint, ode.dParamFMax) == 20.0
    assert axis.rate() == pytest.approx(1.0, rel=1e-9)
    act.off()
    rig.step(1)
    assert ode.dJointGetHingeParam(axis.joint, ode.dParamVel) == 0.0
    assert ode.dJointGetHingeParam(axis.joint, ode.dParamFMax) == friction.bound()


# ----------------------------------------------------------------------------- other joints
def test_slider_pid_torque_and_friction(rig):
    b = rig.body()
    j = ode.dJointCreateSlider(rig.world, None)
    ode.dJointAttach(j, b, None)
    ode.dJointSetSliderAxis(j, 1.0, 0.0, 0.0)
    [axis] = joint_axes(j)
    assert not axis.revolute and not axis.has_stops()
    act = rig.set.add_actuator(PIDActuator(axis, PIDGains(200.0, 0.0, 40.0)))
    act.set_torque(3.0)
    rig.step(100)
    assert axis.rate() == pytest.approx(3.0 / MASS * 100 * H, rel=1e-9)
    act.set_target(0.25)
    rig.step(4000)
    assert axis.position() == pytest.approx(0.25, abs=1e-4)
    act.set_torque(4.0)
    rig.set.add_friction(JointFriction(axis, 1.0))
    ode.dBodySetLinearVel(b, 0.0, 0.0, 0.0)
    rig.step(1000)
    assert axis.rate() == pytest.approx((4.0 - 1.0) / MASS, rel=0.02)


def _hinge2(rig):
    """A chassis fixed to the world, a wheel on a hinge-2 (steer z, spin y)."""
    chassis = rig.body((0.0, 0.0, 0.0))
    fixed = ode.dJointCreateFixed(rig.world, None)
    ode.dJointAttach(fixed, chassis, None)
    ode.dJointSetFixed(fixed)
    wheel = rig.body((0.0, 0.5, 0.0), inertia=(0.3, 0.2, 0.3))
    j = ode.dJointCreateHinge2(rig.world, None)
    ode.dJointAttach(j, chassis, wheel)
    ode.dJointSetHinge2Anchor(j, 0.0, 0.5, 0.0)
    ode.dJointSetHinge2Axes(j, (0.0, 0.0, 1.0), (0.0, 1.0, 0.0))
    return joint_axes(j)


def test_hinge2_axes(rig):
    steer, spin = _hinge2(rig)
    spinner = rig.set.add_actuator(PIDActuator(spin, PIDGains(0.0, 0.0, 0.0)))
    spinner.set_torque(-0.4)     # a positive effort raises the rate, a negative one lowers it
    rig.step(100)
    assert spin.rate() == pytest.approx(-0.4 / 0.2 * 100 * H, rel=1e-6)
    spinner.off()
    steering = rig.set.add_actuator(PIDActuator(steer, PIDGains(30.0, 0.0, 6.0)))
    steering.set_target(-0.3)
    rig.step(3000)
    assert steer.position() == pytest.approx(-0.3, abs=1e-4)
    assert spin.rate() == pytest.approx(-0.2, rel=1e-3)
    # dry friction stops the spin within (0.2 rad/s · 0.2 kg·m²) / 0.5 N·m = 0.08 s
    rig.set.add_friction(JointFriction(spin, 0.5))
    rig.step(200)
    assert abs(spin.rate()) < 1e-6


def test_bare_ball_joint_gets_an_euler_motor(rig):
    b = rig.body((0.0, 0.0, -0.5))
    j = ode.dJointCreateBall(rig.world, None)
    ode.dJointAttach(j, b, None)
    ode.dJointSetBallAnchor(j, 0.0, 0.0, 0.0)
    with pytest.raises(ValueError, match="needs the world"):
        joint_axes(j)
    axes = joint_axes(j, rig.world)
    assert len(axes) == 3
    assert ode.dJointGetType(axes[0].joint) == ode.dJointTypeAMotor
    assert all(a.joint is axes[0].joint for a in axes)
    targets = (0.2, 0.1, -0.15)
    for axis, target in zip(axes, targets, strict=True):
        rig.set.add_actuator(PIDActuator(axis, PIDGains(40.0, 0.0, 8.0))).set_target(target)
    rig.step(3000)
    for axis, target in zip(axes, targets, strict=True):
        assert axis.position() == pytest.approx(target, abs=1e-4)
    # positions are current: ODE's stored Euler angles are those of the last
    # step's start, so after the next step ODE reports what position() reads now
    for actuator in rig.set.actuators:
        actuator.set_torque(0.5)
    rig.step(50)
    now = [axis.position() for axis in axes]
    rig.step(1)
    motor = axes[0].joint
    for k, axis in enumerate(axes):
        assert ode.dJointGetAMotorAngle(motor, k) == pytest.approx(now[k], abs=1e-14)
        assert abs(axis.position() - now[k]) > 1e-5


def test_ball_friction_through_its_motor(rig):
    b = rig.body((0.0, 0.0, -0.5))
    j = ode.dJointCreateBall(rig.world, None)
    ode.dJointAttach(j, b, None)
    ode.dJointSetBallAnchor(j, 0.0, 0.0, 0.0)
    axes = joint_axes(j, rig.world)
    for axis in axes:
        rig.set.add_friction(JointFriction(axis, 1.0))
    push = rig.set.add_actuator(PIDActuator(axes[2], PIDGains(0.0, 0.0, 0.0)))
    push.set_torque(0.8)
    rig.step(500)
    assert np.abs(np.array(ode.dBodyGetAngularVel(b))).max() < 1e-6
    push.set_torque(1.6)
    rig.step(500)
    # about world z through the body centre of a 0.5 m pendulum: I = 0.5 (no parallel axis)
    assert abs(axes[2].rate()) == pytest.approx((1.6 - 1.0) / INERTIA * 0.5, rel=0.02)


def test_unsupported_joint_type():
    assert ode.dJointTypeFixed not in AXIS_BUILDERS
    w = ode.dWorldCreate()
    j = ode.dJointCreateFixed(w, None)
    with pytest.raises(ValueError, match="no actuated axes"):
        joint_axes(j)
    ode.dWorldDestroy(w)


# ----------------------------------------------------------------------------- state
def test_state_restore_replays_bit_identically(rig):
    axis = hinge(rig)
    pid = rig.set.add_actuator(PIDActuator(axis, PIDGains(50.0, 30.0, 4.0, torque_limit=3.0)))
    rig.set.add_friction(JointFriction(axis, 0.2, 0.1))
    pid.set_target(1.0)
    rig.step(200)
    saved_bodies, saved = rig.body_state(), rig.set.state()
    rig.step(100)
    first = (rig.body_state(), rig.set.state())
    pid.set_locked_velocity(5.0)     # state changed, then rolled back
    rig.step(3)
    rig.set_body_state(saved_bodies)
    rig.set.restore(saved)
    assert pid.mode == ActuatorMode.PID
    rig.step(100)
    second = (rig.body_state(), rig.set.state())
    for (a, b) in zip(first[0], second[0], strict=True):
        for x, y in zip(a, b, strict=True):
            assert x.tobytes() == y.tobytes()
    assert first[1] == second[1]
    with pytest.raises(ValueError, match="actuator states"):
        rig.set.restore(type(saved)(()))


def test_bad_settings_are_refused(rig):
    axis = hinge(rig)
    with pytest.raises(ValueError, match="kp"):
        PIDGains(-1.0, 0.0, 0.0)
    with pytest.raises(ValueError, match="torque_limit"):
        PIDGains(1.0, 0.0, 0.0, torque_limit=math.nan)
    with pytest.raises(ValueError, match="dry"):
        JointFriction(axis, -0.1)
    pid = rig.set.add_actuator(PIDActuator(axis, PIDGains(1.0, 0.0, 0.0)))
    with pytest.raises(ValueError, match="already has an actuator"):
        rig.set.add_actuator(PIDActuator(axis, PIDGains(1.0, 0.0, 0.0)))
    rig.set.add_friction(JointFriction(axis, 0.1))
    with pytest.raises(ValueError, match="already has a friction"):
        rig.set.add_friction(JointFriction(axis, 0.1))
    with pytest.raises(ValueError, match="position"):
        pid.set_target(math.inf)
    with pytest.raises(ValueError, match="h must be"):
        rig.set.apply(0.0)
