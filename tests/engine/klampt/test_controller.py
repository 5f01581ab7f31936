"""SimRobotController on the seed's one-link robot: PID against the closed form
of a PID on a pendulum, torque, velocity and milestone commands, gains.

The link (1 kg, 0.05 x 0.05 x 0.5 m box) turns about y on a hinge 1 m above
the floor; angle 0 points it up, so gravity adds m·g·l·sin θ (l = 0.25 m).
The motor has controlPID 20 8 5, maxTorque 10 and maxVelocity 10.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine.klampt import Simulator
from engine.klampt.world_index import index_world, set_axis_position
from engine.world import read_world
from tests.engine.klampt.sim_worlds import ONE_LINK

G = 9.81
M, L_C = 1.0, 0.25
I_HINGE = M * (0.05 ** 2 + 0.5 ** 2) / 12.0 + M * L_C ** 2   # about the hinge [kg m²]
KP, KI, KD = 20.0, 8.0, 5.0
MAX_VELOCITY = 10.0


def one_link(angle: float = 0.0) -> Simulator:
    """The one-link robot, its joint started at ``angle`` [rad]."""
    world = read_world(str(ONE_LINK))
    set_axis_position(index_world(world).robots[0].axes[0], angle)
    return Simulator(world)


def _pid_closed_form(theta0: float, times: list[float]) -> np.ndarray:
    """θ(t) of the linearised loop I θ'' = -kP θ - kD θ' - kI ∫θ + m g l θ from rest:
    x = (∫θ, θ, θ'), x' = A x, x(t) = V exp(Λ t) V⁻¹ x0."""
    A = np.array([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0],
                  [-KI / I_HINGE, -(KP - M * G * L_C) / I_HINGE, -KD / I_HINGE]])
    lam, V = np.linalg.eig(A)
    c = np.linalg.solve(V, np.array([0.0, theta0, 0.0]))
    return np.array([(V @ (np.exp(lam * t) * c)).real[1] for t in times])


def test_the_motors_gains_and_the_start_angle_are_read() -> None:
    sim = one_link(0.4)
    c = sim.controller(0)
    assert sim.controller("ONE_LINK") is c and sim.controller("one_link") is c
    assert c.getPIDGains() == ([KP], [KI], [KD])
    assert c.getSensedConfig() == pytest.approx([0.4], abs=1e-12)
    assert c.getCommandedConfig() == pytest.approx([0.4], abs=1e-12)
    assert c.getSensedVelocity() == [0.0]
    c.setPIDGains([40.0], [0.0], [8.0])
    assert c.getPIDGains() == ([40.0], [0.0], [8.0])
    with pytest.raises(ValueError, match="1 values"):
        c.setPIDGains([1.0, 2.0], [0.0], [0.0])
    with pytest.raises(ValueError, match="not a robot"):
        sim.controller(1)


def test_pid_follows_the_closed_form_of_a_pid_on_a_pendulum() -> None:
    theta0 = 0.1   # small: sin θ ≈ θ and the torque stays below maxTorque
    sim = one_link(theta0)
    c = sim.controller(0)
    c.setPIDCommand([0.0])
    assert c.getCommandedConfig() == [0.0] and c.getControlType() == "PID"
    times = [0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0]
    got = []
    for t in times:
        sim.simulate(t - sim.getTime())
        got.append(c.getSensedConfig()[0])
    expected = _pid_closed_form(theta0, times)
    assert np.abs(np.array(got) - expected).max() < 0.02 * theta0
    assert sim.getTime() == pytest.approx(5.0, abs=1e-12)


def _slow_pole() -> float:
    """The slowest root of I s³ + kD s² + (kP - m g l) s + kI (the integral's)."""
    roots = np.roots([I_HINGE, KD, KP - M * G * L_C, KI])
    return float(max(roots.real))


@pytest.mark.parametrize("theta0", [-2.5, 1.0, 3.0])
def test_pid_brings_the_link_up_from_far_start_angles_in_5_s(theta0: float) -> None:
    sim = one_link(theta0)
    c = sim.controller(0)
    c.setPIDCommand([0.0])
    errors = []
    for _ in range(50):
        sim.simulate(0.1)
        q = c.getSensedConfig()[0]
        # the sensed angle is the link's: (sin θ, cos θ) ∝ its centre's offset from the
        # hinge, wrapped into (-π, π] (no 2π jump half a turn from the start)
        t = sim.body("LINK").getTransform()[1]
        assert q == pytest.approx(math.atan2(t[0], t[2] - 1.0), abs=1e-4)   # joint drift
        assert -math.pi < q <= math.pi
        errors.append(abs(q))
    # after the swing up (2 s) the error only shrinks, at the rate of the slow pole
    late = errors[20:]
    assert all(b <= a for a, b in zip(late, late[1:], strict=False))
    rate = math.log(errors[49] / errors[29]) / 2.0
    assert rate == pytest.approx(_slow_pole(), rel=0.1)
    assert errors[-1] < 0.06
    assert sim.getStatusString() == "normal"


def test_torque_commands_give_tau_over_i_and_are_clamped_to_max_torque() -> None:
    for tau, applied in ((0.5, 0.5), (50.0, 10.0)):
        sim = one_link(0.0)
        sim.setGravity([0, 0, 0])
        c = sim.controller(0)
        c.setTorque([tau])
        assert c.getControlType() == "torque" and c.getCommandedTorque() == [tau]
        T = 0.05
        sim.simulate(T)
        alpha = applied / I_HINGE
        assert c.getSensedVelocity()[0] == pytest.approx(alpha * T, rel=1e-3)
        n = 50   # sub-steps: semi-implicit Euler gives θ = α h² n (n + 1) / 2
        assert c.getSensedConfig()[0] == pytest.approx(0.5 * alpha * T * T * (1 + 1 / n),
                                                       rel=1e-3)


def test_set_velocity_moves_the_commanded_config_at_dq_for_dt_then_holds() -> None:
    sim = one_link(0.0)
    c = sim.controller(0)
    c.setVelocity([0.5], 0.4)
    h = sim.getSimStep()
    for _ in range(8):
        sim.simulate(0.05)
        t = sim.getTime()
        # the command of the last sub-step (started at t - h)
        assert c.getCommandedConfig()[0] == pytest.approx(0.5 * (t - h), abs=1e-9)
        assert c.getCommandedVelocity() == pytest.approx([0.5], abs=1e-12)
    sim.simulate(0.1)
    assert c.getCommandedConfig() == pytest.approx([0.2], abs=1e-12)
    assert c.getCommandedVelocity() == [0.0]
    sim.simulate(0.5)
    assert c.getCommandedConfig() == pytest.approx([0.2], abs=1e-12)
    with pytest.raises(ValueError, match="dt"):
        c.setVelocity([0.5], 0.0)


def test_milestones_are_reached_in_turn_within_max_velocity() -> None:
    sim = one_link(0.0)
    c = sim.controller(0)
    c.setMilestone([1.0])
    first = 1.5 * 1.0 / MAX_VELOCITY   # a cubic's peak speed is 1.5 x its mean
    assert c.remainingTime() == pytest.approx(first, abs=1e-12)
    c.addMilestone([-0.5])
    total = first + 1.5 * 1.5 / MAX_VELOCITY
    assert c.remainingTime() == pytest.approx(total, abs=1e-12)
    dt = 0.001   # one sub-step per call: the command of the call's start
    q_prev, remaining_prev = 0.0, c.remainingTime()
    peak, peak_time = -math.inf, 0.0
    while sim.getTime() < total + 0.05:
        t0 = sim.getTime()
        sim.simulate(dt)
        q = c.getCommandedConfig()[0]
        assert abs(q - q_prev) <= MAX_VELOCITY * dt * (1 + 1e-9)
        assert abs(c.getCommandedVelocity()[0]) <= MAX_VELOCITY * (1 + 1e-9)
        remaining = c.remainingTime()
        assert remaining <= remaining_prev and remaining >= 0.0
        if q > peak:
            peak, peak_time = q, t0
        q_prev, remaining_prev = q, remaining
    # the first milestone is reached at its end time, then the motion turns back
    assert peak == pytest.approx(1.0, abs=1e-9)
    assert peak_time == pytest.approx(first, abs=1.5 * dt)
    assert c.getCommandedConfig() == pytest.approx([-0.5], abs=1e-12)
    assert c.remainingTime() == 0.0
    # the link follows, settling at the pace of the integral term's slow pole
    sim.simulate(2.0)
    before = abs(c.getSensedConfig()[0] + 0.5)
    sim.simulate(2.0)
    after = abs(c.getSensedConfig()[0] + 0.5)
    assert after < before and after < 0.05


def test_set_milestone_drops_the_queue_and_pid_commands_drop_milestones() -> None:
    sim = one_link(0.0)
    c = sim.controller(0)
    c.setMilestone([1.0])
    c.addMilestone([2.0])
    sim.simulate(0.05)
    c.setMilestone([0.0])
    q_now = c.getCommandedConfig()[0]
    assert c.remainingTime() == pytest.approx(1.5 * abs(q_now) / MAX_VELOCITY, abs=1e-9)
    c.setPIDCommand([0.3])
    assert c.remainingTime() == 0.0
    sim.simulate(0.1)
    assert c.getCommandedConfig() == [0.3]
    assert not math.isnan(c.getSensedConfig()[0])
