"""Motors and joint friction of a world under the robust model (engine/sim/robust_actuators.py).

An arm: a 1 kg sphere 0.2 m out along x from a horizontal hinge (axis y) on a
static base, so gravity pulls with τ = m g L = 1.962 N·m at the start.
"""

from __future__ import annotations

import pytest

from engine import ode
from tests.engine.sim.helpers import make_sim

G = 9.81
TORQUE = 1.0 * G * 0.2


def _arm(device: str = "", params: str = "", axis: str = "0 1 0", arm_def: str = "ARM") -> str:
    return f"""
DEF BASE Solid {{ children [
  DEF {arm_def} HingeJoint {{
    jointParameters HingeJointParameters {{ axis {axis} {params} }}
    device [ {device} ]
    endPoint Solid {{ translation 0.2 0 0 boundingObject Sphere {{ radius 0.01 }}
      physics Physics {{ density -1 mass 1 }} }}
  }}
] }}
"""


def _info(*lines: str) -> str:
    quoted = " ".join(f'"{t}"' for t in ("odeon: contacts robust", *lines))
    return f"info [ {quoted} ] basicTimeStep 1 physicsDisableTime 0"


def _angle(sim) -> float:
    return float(ode.dJointGetHingeAngle(sim.model.joints[0].joint))


def _rate(sim) -> float:
    return float(ode.dJointGetHingeAngleRate(sim.model.joints[0].joint))


def test_a_pd_motor_holds_the_arm_with_the_steady_state_error_of_its_gain() -> None:
    sim = make_sim(_arm('RotationalMotor { controlPID 50 0 5 maxTorque 10 }'), _info())
    assert len(sim.robust.actuators.motors) == 1
    sim.run(4.0)
    # kP θ balances the gravity torque m g L cos θ
    assert abs(_angle(sim)) == pytest.approx(TORQUE / 50.0, rel=0.03)
    assert abs(_rate(sim)) < 1e-3


def test_the_integral_term_removes_the_steady_state_error() -> None:
    sim = make_sim(_arm('RotationalMotor { controlPID 50 40 5 maxTorque 10 }'), _info())
    sim.run(10.0)
    assert abs(_angle(sim)) < 2e-3


def _largest_angle(sim, seconds: float) -> float:
    largest = 0.0
    for _ in range(int(seconds * 1000)):
        sim.step()
        largest = max(largest, abs(_angle(sim)))
    return largest


def test_a_torque_limit_below_the_load_lets_the_arm_fall() -> None:
    sim = make_sim(_arm('RotationalMotor { controlPID 50 0 5 maxTorque 1 }'), _info())
    assert _largest_angle(sim, 1.0) > 1.0


def test_without_the_robust_model_webots_motor_pid_holds_the_arm() -> None:
    # Webots' law (engine/sim/motors.py): the ODE velocity motor (FMax 10 > m g L)
    # holds the initial position; only the world CFM lets it sag a little
    sim = make_sim(_arm('RotationalMotor { controlPID 50 0 5 maxTorque 10 }'),
                   "basicTimeStep 1 physicsDisableTime 0")
    assert _largest_angle(sim, 1.0) < 0.01


@pytest.mark.parametrize("dry, holds", [(2.5, True), (1.5, False)])
def test_dry_friction_holds_below_mu_d_and_slides_above_it(dry: float, holds: bool) -> None:
    sim = make_sim(_arm(params=f"staticFriction {dry}"), _info())
    inertia = 1.0 * 0.2 ** 2 + 0.4 * 1.0 * 0.01 ** 2
    sim.step()
    early = _rate(sim)
    sim.run(0.01)
    if holds:
        sim.run(1.0)
        # held (the world's CFM lets the motor row creep by ~2e-5 rad/s)
        assert abs(_rate(sim)) < 1e-4 and abs(_angle(sim)) < 1e-4
    else:
        # α = (τ − μD) / I at the start (the arm still horizontal)
        alpha = (_rate(sim) - early) / 0.01
        assert abs(alpha) == pytest.approx((TORQUE - dry) / inertia, rel=0.02)


def test_viscous_friction_gives_the_terminal_rate_where_torque_meets_friction() -> None:
    # a vertical axis: no gravity torque; 1 N·m applied against μD 0.2 + μV·ω (μV 0.4)
    sim = make_sim(_arm(params="staticFriction 0.2", axis="0 0 1"),
                   _info("odeon: joint ARM viscousFriction 0.4"))
    hinge = sim.model.joints[0].joint
    sim.before_step = lambda: ode.dJointAddHingeTorque(hinge, 1.0)
    sim.run(3.0)
    assert abs(_rate(sim)) == pytest.approx((1.0 - 0.2) / 0.4, rel=0.01)
