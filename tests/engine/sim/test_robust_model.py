"""The robust contact model in worlds, against closed forms (docs/robust-contacts.md).

Each world chooses the model with an ``odeon: contacts robust`` line; values
are Klamp't's defaults unless a test says otherwise: padding 2.5 mm on
bodies, 0 on static Solids; static surface 0.3 / 0.1 / 8e5 / 2e5, body
surface 0.5 / 0 / inf / inf.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine import ode
from engine.contact.adaptive import SimStatus
from engine.sim import Simulation
from engine.world import parse_world
from engine.world.odeon_settings import SolidContactSettings, read_odeon_settings
from tests.engine.sim.helpers import make_sim, world_text

G = 9.81
ROBUST = 'info [ "odeon: contacts robust" ]'
FLOOR = "DEF FLOOR Solid { boundingObject Plane { size 10 10 } }\n"


def _cube(z: float, size: float = 0.1, mass: float = 1.0, extra: str = "",
          name: str = "CUBE", x: float = 0.0) -> str:
    return (f"DEF {name} Solid {{ translation {x} 0 {z} {extra} boundingObject Box "
            f"{{ size {size} {size} {size} }} physics Physics {{ density -1 mass {mass} }} }}\n")


def _info(*lines: str, step: int = 10) -> str:
    quoted = " ".join(f'"{line}"' for line in ("odeon: contacts robust", *lines))
    return f"info [ {quoted} ] basicTimeStep {step} physicsDisableTime 0"


def _z(sim: Simulation, name: str = "CUBE") -> float:
    return float(ode.dBodyGetPosition(sim.body_from_def(name))[2])


def _summed_force(sim: Simulation, name: str = "CUBE") -> np.ndarray:
    cs = sim.contact_set()
    node = sim.world.find_solid_by_def(name)
    total = np.zeros(3)
    for k in range(len(cs)):
        if cs.solid1[k] is node:
            total += cs.force[k]
        elif cs.solid2[k] is node:
            total -= cs.force[k]
    return total


def test_a_cube_rests_one_padding_above_the_ground_and_its_contacts_hold_m_g() -> None:
    sim = make_sim(FLOOR + _cube(0.06), _info())
    sim.record_contact_feedback = True
    sim.run(2.0)
    assert sim.contact_model == "robust"
    assert _z(sim) == pytest.approx(0.0525, abs=2e-4)
    force = _summed_force(sim)
    assert force[2] == pytest.approx(1.0 * G, rel=0.01)
    assert abs(force[0]) < 0.01 * G and abs(force[1]) < 0.01 * G
    assert sim.contact_status in (SimStatus.NORMAL, SimStatus.ADAPTIVE_TIME_STEPPING)


def test_the_default_model_rests_the_cube_on_the_ground_itself() -> None:
    sim = make_sim(FLOOR + _cube(0.06), "basicTimeStep 10")
    sim.run(1.0)
    assert sim.contact_model == "default"
    assert _z(sim) < 0.0501


def test_contacts_report_the_blended_friction_and_never_exceed_max_contacts() -> None:
    mesh_floor = _mesh_floor(cells=8, name="FLOOR")
    sim = make_sim(mesh_floor + _mesh_cube(0.06), _info("odeon: contacts robust maxContacts 6",
                                                        "odeon: solid FLOOR kFriction 0.3"))
    sim.run(0.5)
    contacts = sim.robust.contacts
    assert 0 < len(contacts)
    per_pair = np.bincount(contacts.pair_of)
    assert per_pair.max() <= 6
    assert contacts.mu == pytest.approx(np.full(len(contacts), 0.375))
    assert contacts.cluster_size.sum() == contacts.raw_count.sum()


@pytest.mark.parametrize("direction", [(1.0, 0.0), (math.sqrt(0.5), math.sqrt(0.5))])
def test_a_box_starts_sliding_at_the_blended_mu_m_g_whatever_the_push_direction(
        direction) -> None:
    mu = 2 * 0.5 * 0.3 / (0.5 + 0.3)  # 0.375
    speed = {}
    for factor in (0.95, 1.05):
        sim = make_sim(FLOOR + _cube(0.0525), _info("odeon: solid FLOOR kFriction 0.3 "
                                                    "kStiffness inf kDamping inf"))
        body = sim.body_from_def("CUBE")
        sim.run(0.3)  # settle
        push = factor * mu * 1.0 * G

        def before_step(body=body, push=push):
            ode.dBodyAddForce(body, push * direction[0], push * direction[1], 0.0)

        sim.before_step = before_step
        sim.run(1.0)
        v = np.array(ode.dBodyGetLinearVel(body))
        speed[factor] = float(np.hypot(v[0], v[1]))
        if factor > 1.0:
            # sliding: v = (F - mu m g) / m · t after 1 s, along the push
            assert speed[factor] == pytest.approx(push - mu * G, rel=0.1)
            assert v[:2] / speed[factor] == pytest.approx(direction, abs=0.02)
    # held: only a creep (the world's CFM 1e-5 lets the friction rows give a
    # little), under 3 % of the sliding speed after 1 s
    assert speed[0.95] < 0.03 * speed[1.05]


def test_a_ball_bounces_back_with_the_blended_restitution() -> None:
    ball = ("DEF BALL Solid { translation 0 0 0.5 boundingObject Sphere { radius 0.05 } "
            "physics Physics { density -1 mass 0.2 } }\n")
    sim = make_sim(FLOOR + ball, _info("odeon: solid BALL kRestitution 0.8",
                                       "odeon: solid FLOOR kRestitution 0.4 kStiffness inf "
                                       "kDamping inf", step=1))
    body = sim.body_from_def("BALL")
    vz = []
    for _ in range(600):
        sim.step()
        vz.append(float(ode.dBodyGetLinearVel(body)[2]))
    vz = np.array(vz)
    k = int(np.argmax(vz > 0.0))  # first step going up
    impact = -float(vz[k - 1])
    rebound = float(vz[k])
    assert rebound / impact == pytest.approx(0.6, abs=0.05)


# ---------------------------------------------------------------- meshes
def _mesh_floor(cells: int = 32, size: float = 2.0, name: str = "FLOOR") -> str:
    """A flat static mesh floor of cells x cells squares (2·cells² triangles) at z = 0."""
    n = cells + 1
    step = size / cells
    pts = " ".join(f"{-size / 2 + i * step:.6f} {-size / 2 + j * step:.6f} 0"
                   for j in range(n) for i in range(n))
    faces = " ".join(f"{j * n + i} {j * n + i + 1} {j * n + i + n + 1} -1 "
                     f"{j * n + i} {j * n + i + n + 1} {j * n + i + n} -1"
                     for j in range(cells) for i in range(cells))
    return (f"DEF {name} Solid {{ boundingObject IndexedFaceSet {{ coord Coordinate {{ point "
            f"[ {pts} ] }} coordIndex [ {faces} ] }} }}\n")


def _mesh_cube(z: float, half: float = 0.05, name: str = "CUBE", mass: float = 1.0,
               extra: str = "") -> str:
    """A 12-triangle mesh cube with its centre at height z."""
    h = half
    pts = " ".join(f"{x} {y} {zz}" for zz in (-h, h) for y in (-h, h) for x in (-h, h))
    faces = ("0 2 3 1 -1 4 5 7 6 -1 0 1 5 4 -1 2 6 7 3 -1 0 4 6 2 -1 1 3 7 5 -1")
    return (f"DEF {name} Solid {{ translation 0 0 {z} {extra} boundingObject IndexedFaceSet "
            f"{{ coord Coordinate {{ point [ {pts} ] }} coordIndex [ {faces} ] }} "
            f"physics Physics {{ density -1 mass {mass} }} }}\n")


@pytest.mark.parametrize("step_ms", [1, 10])
def test_a_mesh_cube_settles_on_a_2000_triangle_mesh_floor_without_jitter(step_ms) -> None:
    sim = make_sim(_mesh_floor() + _mesh_cube(0.06), _info(step=step_ms))
    body = sim.body_from_def("CUBE")
    lowest = math.inf
    speeds = []
    steps = int(round(2000 / step_ms))
    for k in range(steps):
        assert sim.step()
        lowest = min(lowest, _z(sim))
        if k * step_ms >= 1000:
            speeds.append(float(np.linalg.norm(ode.dBodyGetLinearVel(body))))
        assert not sim.robust.contacts.penetrating.any()
    assert max(speeds) < 1e-3
    assert lowest > 0.05  # never below the unpadded surface
    assert _z(sim) == pytest.approx(0.0525, abs=5e-4)


def test_adaptive_stepping_catches_a_fast_box_that_would_tunnel_into_a_thin_mesh() -> None:
    # a 1 cm thick closed mesh plate; the box falls onto it at 6 m/s with 10 ms steps
    plate = _thin_plate()
    box = _mesh_cube(0.2, name="BOX", extra="linearVelocity 0 0 -6")
    results = {}
    for adaptive in ("TRUE", "FALSE"):
        sim = make_sim(plate + box, _info(f"odeon: contacts robust adaptiveTimeStepping "
                                          f"{adaptive}"))
        statuses = set()
        lowest = math.inf
        for _ in range(60):
            sim.step()
            statuses.add(sim.contact_status)
            lowest = min(lowest, _z(sim, "BOX"))
        results[adaptive] = (lowest, statuses, _z(sim, "BOX"))
    lowest, statuses, final = results["TRUE"]
    # the box's bottom (centre - 0.05) never goes below the plate's top (0.005)
    assert lowest - 0.05 > 0.005 - 1e-3
    assert final == pytest.approx(0.005 + 0.05 + 0.0025, abs=1e-3)
    assert SimStatus.ADAPTIVE_TIME_STEPPING in statuses
    lowest_off, _, final_off = results["FALSE"]
    assert lowest_off - 0.05 < 0.005 - 1e-3  # without it the box sinks into the plate


def _thin_plate() -> str:
    """A static closed mesh plate 1 m x 1 m x 1 cm (top at z = 0.005)."""
    pts = " ".join(f"{x} {y} {z}" for z in (-0.005, 0.005) for y in (-0.5, 0.5)
                   for x in (-0.5, 0.5))
    faces = "0 2 3 1 -1 4 5 7 6 -1 0 1 5 4 -1 2 6 7 3 -1 0 4 6 2 -1 1 3 7 5 -1"
    return (f"DEF PLATE Solid {{ boundingObject IndexedFaceSet {{ coord Coordinate {{ point "
            f"[ {pts} ] }} coordIndex [ {faces} ] }} }}\n")


# ---------------------------------------------------------------- settings
def test_the_constructor_overrides_the_worlds_model_and_checks_it() -> None:
    sim = make_sim(FLOOR + _cube(0.06), "basicTimeStep 10", contacts="robust")
    assert sim.contact_model == "robust"
    with pytest.raises(ValueError, match="contacts must be one of default, robust"):
        make_sim(FLOOR, "", contacts="soft")


def test_switching_the_model_writes_the_line_and_takes_effect() -> None:
    sim = make_sim(FLOOR + _cube(0.06), "basicTimeStep 10")
    sim.set_contact_model("robust")
    assert "odeon: contacts robust" in sim.world.world_info.get("info")
    sim.run(1.0)
    assert _z(sim) == pytest.approx(0.0525, abs=2e-4)
    sim.set_contact_model("default")
    assert not any(t.startswith("odeon:") for t in sim.world.world_info.get("info"))
    sim.run(1.0)
    assert _z(sim) < 0.0501


def test_a_solids_own_padding_is_used_and_saved() -> None:
    sim = make_sim(FLOOR + _cube(0.06), _info())
    cube = sim.world.find_solid_by_def("CUBE")
    sim.set_solid_contact(cube, SolidContactSettings(padding=0.01))
    assert sim.solid_contact(cube).padding == 0.01
    assert read_odeon_settings(sim.world).solids["CUBE"].padding == 0.01
    sim.run(2.0)
    assert _z(sim) == pytest.approx(0.06, abs=3e-4)
    assert sim.frame(mode="fast", running=False, speed=0.0).paddings[cube] == 0.01


def test_bad_settings_lines_are_reported_on_the_console() -> None:
    sim = make_sim(FLOOR, 'info [ "odeon: contacts robust maxContacts zero" ]')
    text = "\n".join(line for _, line in sim.console.lines)
    assert "maxContacts expects a number, got 'zero'" in text
    assert sim.contact_model == "default"


def test_robust_runs_are_bit_identical_and_states_resume_exactly() -> None:
    text = world_text(_mesh_floor(cells=8) + _mesh_cube(0.08) + _cube(0.3, name="BOX2", x=0.03),
                      _info())

    def run(sim: Simulation, n: int) -> np.ndarray:
        for _ in range(n):
            sim.step()
        return np.concatenate([np.array(ode.dBodyGetPosition(r.body)) for r in sim.model.bodies])

    a = run(Simulation(parse_world(text)), 150)
    b = run(Simulation(parse_world(text)), 150)
    assert a.tobytes() == b.tobytes()
    sim = Simulation(parse_world(text))
    run(sim, 50)
    saved = sim.save_state()
    first = run(sim, 100)
    sim.load_state(saved)
    again = run(sim, 100)
    assert first.tobytes() == again.tobytes()


def test_a_collision_pass_alone_makes_robust_contacts_but_moves_nothing() -> None:
    sim = make_sim(FLOOR + _cube(0.0525), _info())
    box = sim.body_from_def("CUBE")
    before = ode.dBodyGetPosition(box).copy()
    assert sim.collision_pass() >= 4  # the cube's bottom face on the floor
    assert sim.time_ms == 0.0
    assert np.array_equal(ode.dBodyGetPosition(box), before)
    assert ode.dBodyGetNumJoints(box) == 0
