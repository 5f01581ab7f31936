"""A saved state holds the motors' control state: continuing from it is bit
for bit the same as the first time (PID integral, ramped velocity, targets)."""

from __future__ import annotations

from tests.engine.sim.motors.worlds import hinge


def _trace(sim, motor, steps: int) -> list[tuple[float, float]]:
    out = []
    for _ in range(steps):
        sim.step()
        out.append((motor.position, motor.axis.rate()))
    return out


def test_a_saved_state_continues_bit_for_bit() -> None:
    sim = hinge("RotationalMotor { maxVelocity 3 acceleration 4 controlPID 8 2 0.1 }",
                axis="0 1 0")
    (motor,) = sim.motors.drives
    motor.set_position(1.2)
    _trace(sim, motor, 30)                 # mid-move: integral and ramp are non-zero
    state = sim.save_state()
    first = _trace(sim, motor, 40)
    motor.set_position(-0.5)               # a different command in between...
    _trace(sim, motor, 10)
    sim.load_state(state)                  # ...is undone by the state
    assert _trace(sim, motor, 40) == first
