"""Contact feedback as Klamp't keeps it: had* per simulate call (only for
enabled pairs), contacts and forces of the last sub-step, -1 wildcards.

IDs are given in pre-order: FLOOR 0, then the bodies in the order written.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine.klampt import Simulator, SurfaceParameters
from engine.klampt.contact import ContactPoint, simContactMap
from tests.engine.klampt.sim_worlds import FLOOR, ball, box, simulator

G = 9.81
FLOOR_ID, BOX_ID, BALL_ID = 0, 1, 2
M_BOX = 2.0
COM_X = 0.02


@pytest.fixture(scope="module")
def resting() -> Simulator:
    """A 2 kg box (centre of mass 2 cm off its centre) at rest on the floor, and a
    ball held still high above it; feedback on for every pair, one more call."""
    sim = simulator(FLOOR + box("BOX", 0.0525, mass=M_BOX, com=(COM_X, 0.0, 0.0))
                    + ball("BALL", 2.0))
    sim.body("BALL").enableDynamics(False)
    sim.simulate(0.5)
    # no feedback yet: had* are False even for a pair that touches
    assert sim.inContact(BOX_ID, FLOOR_ID)
    assert not sim.hadContact(BOX_ID, FLOOR_ID)
    assert not sim.hadSeparation(BALL_ID, FLOOR_ID)
    assert not sim.hadContact(-1, -1) and not sim.hadSeparation(-1, -1)
    sim.enableContactFeedbackAll()
    sim.simulate(0.05)
    return sim


def test_had_queries_of_a_resting_box_and_a_ball_in_the_air(resting: Simulator) -> None:
    sim = resting
    assert sim.hadContact(BOX_ID, FLOOR_ID) and sim.hadContact(FLOOR_ID, BOX_ID)
    assert not sim.hadSeparation(BOX_ID, FLOOR_ID)
    assert not sim.hadPenetration(BOX_ID, FLOOR_ID)
    assert not sim.hadContact(BALL_ID, FLOOR_ID) and sim.hadSeparation(BALL_ID, FLOOR_ID)
    assert sim.hadSeparation(BALL_ID, BOX_ID)
    # -1: any body
    assert sim.hadContact(BOX_ID, -1) and sim.hadContact(-1, FLOOR_ID) and sim.hadContact(-1, -1)
    assert not sim.hadContact(BALL_ID, -1)
    assert sim.hadSeparation(-1, BALL_ID) and sim.hadSeparation(-1, -1)
    assert not sim.hadPenetration(-1, -1)


def test_in_contact_at_the_end_of_the_call_with_wildcards(resting: Simulator) -> None:
    sim = resting
    assert sim.inContact(BOX_ID, FLOOR_ID) and sim.inContact(FLOOR_ID, BOX_ID)
    assert sim.inContact(-1, FLOOR_ID) and sim.inContact(BOX_ID, -1) and sim.inContact(-1, -1)
    assert not sim.inContact(BALL_ID, FLOOR_ID) and not sim.inContact(BALL_ID, -1)


def test_get_contacts_rows_point_from_b_into_a_with_the_blended_friction(
        resting: Simulator) -> None:
    rows = resting.getContacts(BOX_ID, FLOOR_ID)
    assert rows and all(len(r) == 7 for r in rows)
    c = np.array(rows)
    assert c[:, 3:6] == pytest.approx(np.tile([0.0, 0.0, 1.0], (len(c), 1)), abs=1e-9)
    # harmonic mean of the box's 0.5 and the floor's 0.3
    assert c[:, 6] == pytest.approx(2 * 0.5 * 0.3 / (0.5 + 0.3), rel=1e-12)
    # the points lie in the gap under the box's bottom face
    assert np.all(c[:, 2] > -1e-6) and np.all(c[:, 2] < 0.0026)
    assert np.all(np.abs(c[:, 0:2]) <= 0.05 + 1e-6)
    flipped = np.array(resting.getContacts(FLOOR_ID, BOX_ID))
    assert flipped[:, 3:6] == pytest.approx(-c[:, 3:6], abs=0)
    assert flipped[:, 0:3] == pytest.approx(c[:, 0:3], abs=0)
    assert resting.getContacts(BALL_ID, FLOOR_ID) == []


def test_contact_force_holds_m_g_and_sums_the_contact_forces(resting: Simulator) -> None:
    sim = resting
    f = np.array(sim.contactForce(BOX_ID, FLOOR_ID))
    assert f[2] == pytest.approx(M_BOX * G, rel=0.01)
    assert abs(f[0]) < 0.01 * M_BOX * G and abs(f[1]) < 0.01 * M_BOX * G
    forces = np.array(sim.getContactForces(BOX_ID, FLOOR_ID))
    assert forces.shape == (len(sim.getContacts(BOX_ID, FLOOR_ID)), 3)
    assert forces.sum(axis=0) == pytest.approx(f, rel=1e-12, abs=1e-12)
    assert sim.contactForce(FLOOR_ID, BOX_ID) == pytest.approx(-f, abs=0)
    mean = np.array(sim.meanContactForce(BOX_ID, FLOOR_ID))
    assert mean[2] == pytest.approx(M_BOX * G, rel=0.01)
    assert sim.meanContactForce(FLOOR_ID, BOX_ID) == pytest.approx(-mean, abs=0)
    assert sim.contactForce(BALL_ID, FLOOR_ID) == [0.0, 0.0, 0.0]
    assert sim.meanContactForce(BALL_ID, FLOOR_ID) == [0.0, 0.0, 0.0]
    assert sim.getContactForces(BALL_ID, FLOOR_ID) == []


def test_contact_torque_balances_gravity_about_the_frame_origin(resting: Simulator) -> None:
    # at rest the torques about the box's frame origin cancel: the contacts' torque
    # is minus gravity's, (com - origin) x (0, 0, -m g) = (0, COM_X m g, 0)
    tau = np.array(resting.contactTorque(BOX_ID, FLOOR_ID))
    assert tau[1] == pytest.approx(-COM_X * M_BOX * G, rel=0.03)
    assert abs(tau[0]) < 1e-3 and abs(tau[2]) < 1e-3
    assert resting.contactTorque(BALL_ID, FLOOR_ID) == [0.0, 0.0, 0.0]


def test_ids_are_checked_and_force_queries_take_no_wildcard(resting: Simulator) -> None:
    with pytest.raises(ValueError, match="not a body ID"):
        resting.inContact(3, 0)
    with pytest.raises(ValueError, match="not a body ID"):
        resting.getContacts(-1, 0)
    with pytest.raises(ValueError, match="not a body ID"):
        resting.contactForce(0, -1)
    with pytest.raises(ValueError, match="not a body ID"):
        resting.enableContactFeedback(-1, 0)


# ---------------------------------------------------------------- a bouncing ball
DROP = 0.3
RESTITUTION = 0.8


def _bouncing(padding: float | None = None) -> Simulator:
    sim = simulator(FLOOR + ball("BALL", DROP))
    rigid = SurfaceParameters(0.5, RESTITUTION, math.inf, math.inf)
    sim.body("FLOOR").setSurface(rigid)
    sim.body("BALL").setSurface(rigid)
    if padding is not None:
        sim.body("BALL").setCollisionPadding(padding)
    return sim


def _calls(sim: Simulator, ball_id: int, n: int, dt: float = 0.01) -> list[tuple]:
    out = []
    for _ in range(n):
        sim.simulate(dt)
        out.append((sim.hadContact(ball_id, FLOOR_ID), sim.hadSeparation(ball_id, FLOOR_ID),
                    sim.hadPenetration(ball_id, FLOOR_ID),
                    sim.body(ball_id).getVelocity()[1][2]))
    return out


def test_a_bouncing_ball_reports_contact_and_separation_per_call() -> None:
    sim = _bouncing()
    ball_id = sim.getID("BALL")
    silent = _calls(sim, ball_id, 40)
    assert any(vz > 0 for *_f, vz in silent), "the ball should have bounced"
    assert not any(c or s or p for c, s, p, _vz in silent)   # feedback off: all False
    sim.reset()
    sim.enableContactFeedback(FLOOR_ID, ball_id)
    calls = _calls(sim, ball_id, 40)
    bounce = next(k for k, (*_f, vz) in enumerate(calls) if vz > 0)
    for k, (contact, separation, penetration, _vz) in enumerate(calls):
        assert not penetration
        if k < bounce - 1 or k > bounce:
            assert (contact, separation) == (False, True), k
    assert calls[bounce][0] or calls[bounce - 1][0]
    assert all(c[1] for c in calls)
    # the rebound speed is the blended restitution times the impact speed
    v_in, v_out = calls[bounce - 1][3], calls[bounce][3]
    fall = DROP - 0.05 - 0.0025
    assert -v_in == pytest.approx(math.sqrt(2 * G * fall), rel=0.05)
    assert v_out / -v_in == pytest.approx(RESTITUTION, rel=0.05)


def test_an_unpadded_ball_penetrates_when_it_lands() -> None:
    sim = _bouncing(padding=0.0)
    ball_id = sim.getID("BALL")
    sim.enableContactFeedbackAll()
    calls = _calls(sim, ball_id, 30)
    hits = [k for k, c in enumerate(calls) if c[0]]
    assert hits and all(calls[k][2] for k in hits)
    assert not any(c[2] for k, c in enumerate(calls) if k not in hits)
    assert sim.hadPenetration(-1, -1) == calls[-1][2]


def test_sim_contact_map_lists_the_touching_pairs_as_get_contacts(resting: Simulator) -> None:
    got = simContactMap(resting)
    assert list(got) == [(FLOOR_ID, BOX_ID)]
    points = got[(FLOOR_ID, BOX_ID)]
    rows = resting.getContacts(FLOOR_ID, BOX_ID)
    assert len(points) == len(rows) >= 4
    for p, row in zip(points, rows, strict=True):
        assert isinstance(p, ContactPoint)
        assert p.x == row[0:3] and p.n == row[3:6] and p.kFriction == row[6]
        assert p.n[2] < -0.99  # from the box (b) into the floor (a)
