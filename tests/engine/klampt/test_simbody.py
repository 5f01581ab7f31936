"""SimBody: Klamp't frames and velocities, enable, kinematic driving, surfaces,
padding and forces held over one simulate call, against closed forms.

A SimBody's frame is the Solid's frame (not its centre of mass); rotations
are column-major 9-lists; velocities are (w, v) of the frame's origin.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine import ode
from engine.klampt import SurfaceParameters
from tests.engine.klampt.sim_worlds import FLOOR, ball, box, simulator

G = 9.81


def _rot(axis, angle: float) -> np.ndarray:
    """Rodrigues' rotation matrix (test-side reference)."""
    u = np.asarray(axis, dtype=float) / math.sqrt(sum(a * a for a in axis))
    K = np.array([[0, -u[2], u[1]], [u[2], 0, -u[0]], [-u[1], u[0], 0]])
    return np.eye(3) + math.sin(angle) * K + (1 - math.cos(angle)) * (K @ K)


def _cm(R: np.ndarray) -> list[float]:
    """Klamp't's column-major 9-list of R."""
    return [R[0, 0], R[1, 0], R[2, 0], R[0, 1], R[1, 1], R[2, 1], R[0, 2], R[1, 2], R[2, 2]]


def _com(body) -> np.ndarray:
    return np.asarray(ode.dBodyGetPosition(body.record.ode_body), dtype=float)


def _com_velocity(body) -> np.ndarray:
    return np.asarray(ode.dBodyGetLinearVel(body.record.ode_body), dtype=float)


COM = (0.1, -0.05, 0.02)


def test_get_transform_reads_the_solids_rotation_field_column_major() -> None:
    sim = simulator(box("BOX", 1.0, x=0.3, com=COM, rotation="0 0 1 0.5"))
    R, t = sim.body("BOX").getTransform()
    assert len(R) == 9 and len(t) == 3
    # first column = R·x̂ = (cos, sin, 0): column-major, not row-major
    assert R == pytest.approx(_cm(_rot((0, 0, 1), 0.5)), abs=1e-12)
    assert R[1] == pytest.approx(math.sin(0.5), abs=1e-12)
    assert t == pytest.approx([0.3, 0.0, 1.0], abs=1e-12)
    # the body sits at the centre of mass: t + R·com
    assert _com(sim.body("BOX")) == pytest.approx(
        np.array(t) + _rot((0, 0, 1), 0.5) @ np.array(COM), abs=1e-12)


def test_set_transform_round_trips_and_places_the_centre_of_mass() -> None:
    sim = simulator(box("BOX", 1.0, com=COM))
    b = sim.body("BOX")
    Rm = _rot((1, 2, -0.5), 1.2)
    b.setTransform(_cm(Rm), [0.5, -0.25, 2.0])
    R, t = b.getTransform()
    assert R == pytest.approx(_cm(Rm), abs=1e-12)
    assert t == pytest.approx([0.5, -0.25, 2.0], abs=1e-12)
    assert _com(b) == pytest.approx(np.array([0.5, -0.25, 2.0]) + Rm @ np.array(COM), abs=1e-12)


def test_set_transform_refuses_non_rotations_and_static_bodies() -> None:
    sim = simulator(FLOOR + box("BOX", 1.0))
    with pytest.raises(ValueError, match="orthonormal"):
        sim.body("BOX").setTransform([2, 0, 0, 0, 1, 0, 0, 0, 1], [0, 0, 1])
    with pytest.raises(ValueError, match="9"):
        sim.body("BOX").setTransform([1, 0, 0], [0, 0, 1])
    with pytest.raises(ValueError, match="static"):
        sim.body("FLOOR").setTransform(_cm(np.eye(3)), [0, 0, 1])
    assert sim.body("FLOOR").getVelocity() == ([0.0, 0.0, 0.0], [0.0, 0.0, 0.0])


def test_velocity_round_trips_for_the_frame_origin_not_the_centre_of_mass() -> None:
    sim = simulator(box("BOX", 1.0, com=COM, rotation="1 0 0 0.3"))
    b = sim.body("BOX")
    w, v = [0.5, -1.0, 2.0], [0.1, 0.2, -0.3]
    b.setVelocity(w, v)
    got_w, got_v = b.getVelocity()
    assert got_w == pytest.approx(w, abs=1e-12)
    assert got_v == pytest.approx(v, abs=1e-12)
    # ODE's body velocity is the centre of mass': v + w x (com - origin)
    arm = _rot((1, 0, 0), 0.3) @ np.array(COM)
    assert _com_velocity(b) == pytest.approx(np.array(v) + np.cross(w, arm), abs=1e-12)


def test_a_spinning_body_turns_about_its_centre_of_mass_not_its_frame() -> None:
    # a free sphere (isotropic inertia) with gravity off: the centre of mass moves
    # in a straight line and the frame turns about it at the constant rate w
    sim = simulator(ball("B", 1.0, com=(0.1, 0.0, 0.0)))
    sim.setGravity([0, 0, 0])
    b = sim.body("B")
    b.setVelocity([0, 0, 2.0], [0, 0, 0])   # the frame origin at rest, for now
    com0 = _com(b)
    v_com = np.cross([0, 0, 2.0], [0.1, 0, 0])
    sim.simulate(0.5)
    R, t = b.getTransform()
    Rz = _rot((0, 0, 1), 1.0)
    assert R == pytest.approx(_cm(Rz), abs=1e-5)
    assert t == pytest.approx(com0 + 0.5 * v_com - Rz @ np.array([0.1, 0, 0]), abs=1e-5)
    w, v = b.getVelocity()
    assert w == pytest.approx([0, 0, 2.0], abs=1e-12)
    assert v == pytest.approx(v_com + np.cross([0, 0, 2.0], -(Rz @ [0.1, 0, 0])), abs=1e-5)


def test_a_disabled_body_stays_put_and_falls_once_enabled() -> None:
    sim = simulator(box("BOX", 1.0, com=COM))
    b = sim.body("BOX")
    assert b.isEnabled()
    b.enable(False)
    assert not b.isEnabled()
    before = b.getTransform()
    sim.simulate(0.2)
    assert b.getTransform() == before
    b.enable()
    assert b.isEnabled()
    sim.simulate(0.2)
    assert b.getVelocity()[1][2] == pytest.approx(-G * 0.2, rel=1e-9)


def test_a_body_without_dynamics_moves_at_its_set_velocity_under_gravity() -> None:
    sim = simulator(box("BOX", 1.0, com=COM))
    b = sim.body("BOX")
    assert b.isDynamicsEnabled()
    b.enableDynamics(False)
    assert not b.isDynamicsEnabled()
    b.setVelocity([0, 0, 0], [0.3, -0.1, 0.2])
    b.applyWrench([100, 0, 0], [0, 0, 5])   # forces do nothing to a kinematic body
    sim.simulate(0.5)
    R, t = b.getTransform()
    assert t == pytest.approx([0.15, -0.05, 1.1], abs=1e-12)
    assert R == pytest.approx(_cm(np.eye(3)), abs=1e-12)
    assert b.getVelocity() == (pytest.approx([0, 0, 0], abs=1e-12),
                               pytest.approx([0.3, -0.1, 0.2], abs=1e-12))
    b.enableDynamics(True)
    assert b.isDynamicsEnabled()
    sim.simulate(0.1)
    assert b.getVelocity()[1][2] == pytest.approx(0.2 - G * 0.1, rel=1e-9)


# ---------------------------------------------------------------- forces
M, R_BALL = 2.0, 0.1
I_BALL = 0.4 * M * R_BALL * R_BALL   # solid sphere about its centre [kg m²]


def _free_ball():
    sim = simulator(ball("B", 1.0, radius=R_BALL, mass=M, com=(0.05, 0.0, 0.0)))
    sim.setGravity([0, 0, 0])
    return sim, sim.body("B")


def _w(b) -> np.ndarray:
    return np.array(b.getVelocity()[0])


@pytest.mark.parametrize("T", [0.01, 0.0105, 0.05])
def test_apply_wrench_acts_over_exactly_one_simulate_call(T: float) -> None:
    sim, b = _free_ball()
    f, tau = np.array([3.0, -1.0, 2.0]), np.array([0.2, 0.0, -0.1])
    b.applyWrench(f.tolist(), tau.tolist())
    sim.simulate(T)
    assert _com_velocity(b) == pytest.approx(f * T / M, rel=1e-9, abs=1e-15)
    assert _w(b) == pytest.approx(tau * T / I_BALL, rel=1e-9, abs=1e-15)
    v1, w1 = _com_velocity(b), _w(b)
    sim.simulate(T)   # held for one call only
    assert _com_velocity(b) == pytest.approx(v1, abs=1e-12)
    assert _w(b) == pytest.approx(w1, abs=1e-12)


def test_apply_force_at_point_adds_the_torque_about_the_centre_of_mass() -> None:
    sim, b = _free_ball()
    com = _com(b)
    f, p = np.array([0.0, 4.0, 0.0]), com + np.array([0.0, 0.0, 0.1])
    b.applyForceAtPoint(f.tolist(), p.tolist())
    sim.simulate(0.02)
    # the ball starts at rest and moves along f: the arm x f stays (p - com0) x f
    assert _com_velocity(b) == pytest.approx(f * 0.02 / M, rel=1e-9)
    assert _w(b) == pytest.approx(np.cross(p - com, f) * 0.02 / I_BALL, rel=1e-9, abs=1e-15)
    w1 = _w(b)
    sim.simulate(0.02)
    assert _w(b) == pytest.approx(w1, abs=1e-12)
    assert _com_velocity(b) == pytest.approx(f * 0.02 / M, rel=1e-9)


def test_apply_force_at_local_point_takes_the_point_in_the_solids_frame() -> None:
    sim, b = _free_ball()
    # turn the ball a quarter about z: the local point (0, 0.1, 0) is at -x in the world
    b.setTransform(_cm(_rot((0, 0, 1), math.pi / 2)), [0.0, 0.0, 1.0])
    com = _com(b)                       # (0, 0.05, 1): the offset turned too
    assert com == pytest.approx([0.0, 0.05, 1.0], abs=1e-12)
    f, T = np.array([0.0, 0.0, 0.5]), 0.01
    b.applyForceAtLocalPoint(f.tolist(), [0.0, 0.1, 0.0])
    sim.simulate(T)
    world_point = np.array([-0.1, 0.0, 1.0])
    expected_w = np.cross(world_point - com, f) * T / I_BALL
    assert _com_velocity(b) == pytest.approx(f * T / M, rel=1e-9)
    # the point turns with the ball by ~|w| T / 2 = 1e-3 rad during the call
    assert _w(b) == pytest.approx(expected_w, rel=2e-3, abs=1e-12)
    w1 = _w(b)
    sim.simulate(T)
    assert _w(b) == pytest.approx(w1, abs=1e-12)


def test_forces_add_up_and_static_bodies_cannot_be_pushed() -> None:
    sim = simulator(FLOOR + ball("B", 1.0, radius=R_BALL, mass=M))
    sim.setGravity([0, 0, 0])
    b = sim.body("B")
    b.applyWrench([1, 0, 0], [0, 0, 0])
    b.applyForceAtPoint([1, 0, 0], _com(b).tolist())
    b.applyForceAtLocalPoint([0, 2, 0], [0, 0, 0])
    sim.simulate(0.01)
    assert _com_velocity(b) == pytest.approx(np.array([2.0, 2.0, 0.0]) * 0.01 / M, rel=1e-9)
    for call, args in (("applyWrench", ([1, 0, 0], [0, 0, 0])),
                       ("applyForceAtPoint", ([1, 0, 0], [0, 0, 0])),
                       ("applyForceAtLocalPoint", ([1, 0, 0], [0, 0, 0]))):
        with pytest.raises(ValueError, match="static"):
            getattr(sim.body("FLOOR"), call)(*args)
    with pytest.raises(ValueError, match="3"):
        b.applyWrench([1, 0], [0, 0, 0])


# ---------------------------------------------------------------- surface and padding
def test_surfaces_default_to_klampts_values_and_round_trip() -> None:
    sim = simulator(FLOOR + box("BOX", 0.5))
    assert sim.body("BOX").getSurface() == SurfaceParameters(0.5, 0.0, math.inf, math.inf)
    assert sim.body("FLOOR").getSurface() == SurfaceParameters(0.3, 0.1, 8e5, 2e5)
    new = SurfaceParameters(kFriction=0.9, kRestitution=0.25, kStiffness=1e6, kDamping=3e4)
    sim.body("BOX").setSurface(new)
    assert sim.body("BOX").getSurface() == new
    got = sim.body("BOX").getSurface()
    got.kFriction = 0.1   # a copy: changing it changes nothing until set
    assert sim.body("BOX").getSurface().kFriction == 0.9
    with pytest.raises(ValueError, match="SurfaceParameters"):
        sim.body("BOX").setSurface((0.5, 0, 1, 1))


def test_the_collision_padding_is_the_gap_a_box_rests_on() -> None:
    sim = simulator(FLOOR + box("BOX", 0.07))
    b = sim.body("BOX")
    assert b.getCollisionPadding() == 0.0025
    assert sim.body("FLOOR").getCollisionPadding() == 0.0
    b.setCollisionPadding(0.01)
    assert b.getCollisionPadding() == 0.01
    sim.simulate(0.6)
    assert b.getTransform()[1][2] == pytest.approx(0.06, abs=2e-4)
    with pytest.raises(ValueError, match="padding"):
        b.setCollisionPadding(-0.001)
