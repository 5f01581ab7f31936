"""getState / setState / reset: bit-identical continuation (same simulator, a
fresh one, a fresh process) and refusal of foreign or damaged states.

The world mixes what a state must carry: a bouncing ball, a ball and a box at
rest (contacts, adaptive-stepping margins), a PID-driven one-link robot
(integral term, milestones), held forces and contact feedback.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from engine.klampt import Simulator, StateError, SurfaceParameters
from engine.world import parse_world
from tests.engine.klampt.sim_worlds import FLOOR, INFO, ball, box, mesh_floor, simulator
from tests.engine.sim.helpers import world_text

ROBOT = """DEF ARM Robot { translation 1 0 1 children [ HingeJoint {
  jointParameters HingeJointParameters { axis 0 1 0 position 0.8 }
  device [ RotationalMotor { name "m" controlPID 20 8 5 maxVelocity 10 maxTorque 10 } ]
  endPoint DEF LINK Solid { translation 0.179 0 0.174 rotation 0 1 0 0.8 boundingObject Box {
    size 0.05 0.05 0.5 } physics Physics { density -1 mass 1 } } } ] controller "<none>" }
"""
NODES = (FLOOR + ball("BOUNCER", 0.3, x=-1.0) + ball("RESTING", 0.0525, x=-0.5)
         + box("BOX", 0.0525, mass=2.0) + ROBOT)
TEXT = world_text(NODES, INFO)


def make() -> Simulator:
    sim = Simulator(parse_world(TEXT))
    rigid = SurfaceParameters(0.5, 0.8, math.inf, math.inf)
    sim.body("BOUNCER").setSurface(rigid)
    return sim


def start(sim: Simulator) -> None:
    """The commands and the first second every test starts from."""
    sim.enableContactFeedbackAll()
    c = sim.controller(0)
    c.setPIDCommand([0.0])
    for _ in range(10):
        sim.simulate(0.1)
    c.setMilestone([0.5])
    c.addMilestone([-0.3])
    sim.body("BOX").applyWrench([1.0, 0.0, 0.0], [0.0, 0.0, 0.1])


def trace(sim: Simulator, calls: int = 10, dt: float = 0.02) -> list:
    """Everything observable after each of ``calls`` simulate calls (exact floats)."""
    out = []
    n = sim.numIDs()
    for _ in range(calls):
        sim.simulate(dt)
        row = [sim.getTime(), sim.getStatus()]
        if sim.index.robots:
            c = sim.controller(0)
            row += [c.getSensedConfig(), c.getSensedVelocity(), c.getCommandedConfig(),
                    c.remainingTime()]
        for i in range(n):
            b = sim.body(i)
            row += [b.getTransform(), b.getVelocity()]
        for i in range(n):
            for j in range(n):
                row += [sim.hadContact(i, j), sim.hadSeparation(i, j), sim.inContact(i, j),
                        sim.contactForce(i, j), sim.meanContactForce(i, j)]
        out.append(row)
    return json.loads(json.dumps(out))   # tuples -> lists, floats kept exactly


@pytest.fixture(scope="module")
def saved() -> tuple[str, list]:
    """The state after the first second, and the original run's next 0.2 s."""
    sim = make()
    start(sim)
    state = sim.getState()
    return state, trace(sim)


def test_a_state_is_a_base64_string(saved: tuple[str, list]) -> None:
    state, _ = saved
    assert isinstance(state, str)
    assert set(state) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=")


def test_set_state_continues_bit_for_bit_in_the_same_simulator(saved: tuple[str, list]) -> None:
    state, original = saved
    sim = make()
    start(sim)
    trace(sim, calls=7, dt=0.03)   # go elsewhere first
    sim.setState(state)
    assert sim.getTime() == pytest.approx(1.0, abs=1e-12)
    assert trace(sim) == original


def test_set_state_continues_bit_for_bit_in_a_fresh_simulator(saved: tuple[str, list]) -> None:
    state, original = saved
    sim = make()
    sim.setState(state)
    assert trace(sim) == original


SCRIPT = """
import sys
from tests.engine.klampt import test_state as t
sim = t.make()
sim.setState(open(sys.argv[1]).read())
import json
print(json.dumps(t.trace(sim)))
"""


def test_set_state_continues_bit_for_bit_in_a_fresh_process(saved: tuple[str, list],
                                                            tmp_path: Path) -> None:
    state, original = saved
    path = tmp_path / "state.txt"
    path.write_text(state)
    root = Path(__file__).resolve().parents[3]
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(path)], cwd=root,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1]) == original


def test_reset_goes_back_to_time_zero_and_the_initial_poses() -> None:
    sim = make()
    first = [sim.body(i).getTransform() for i in range(sim.numIDs())]
    run = trace(sim, calls=5)
    start(sim)
    sim.reset()
    assert sim.getTime() == 0.0
    assert [sim.body(i).getTransform() for i in range(sim.numIDs())] == first
    assert sim.controller(0).getSensedConfig() == pytest.approx([0.8], abs=1e-12)
    assert trace(sim, calls=5) == run


def _damaged(state: str) -> list[str]:
    k = len(state) // 2
    swapped = state[:k] + ("A" if state[k] != "A" else "B") + state[k + 1:]
    return [swapped, state[: len(state) - 8], state[: len(state) // 2], "not base64 at all!",
            "", "QUJD"]


def test_foreign_or_damaged_states_raise_and_change_nothing(saved: tuple[str, list]) -> None:
    state, _ = saved
    other = simulator(FLOOR + box("BOX", 0.0525)).getState()
    sim, twin = make(), make()
    for s in (sim, twin):
        start(s)
    bad = [*_damaged(state), other]
    for text in bad:
        with pytest.raises(StateError):
            sim.setState(text)
    with pytest.raises(StateError):
        sim.setState(None)
    assert trace(sim) == trace(twin)


def test_a_state_of_this_world_with_other_contents_is_refused() -> None:
    # same node types and names, but another robot: a different world
    moved = make().getState()
    other = Simulator(parse_world(world_text(NODES.replace("DEF ARM Robot", "DEF ARM2 Robot")
                                             .replace("DEF BOX", "DEF CRATE"), INFO)))
    with pytest.raises(StateError, match="another world"):
        other.setState(moved)


def test_a_box_deep_in_a_soft_mesh_floor_continues_bit_for_bit() -> None:
    # the box sinks below half its 2.5 mm boundary layer: without the adaptive
    # stepper's margin history in the state, the first step after setState would be
    # rolled back (status 'contact unreliable') where the original run is not
    def soft() -> Simulator:
        sim = simulator(mesh_floor() + box("BOX", 0.052))
        sim.body("FLOOR").setSurface(SurfaceParameters(0.3, 0.0, 6e2, 1e2))
        return sim

    sim = soft()
    sim.simulate(0.5)
    assert sim.body("BOX").getTransform()[1][2] < 0.05 + 0.5 * 0.0025
    state = sim.getState()
    original = trace(sim)
    assert all(row[1] == Simulator.STATUS_NORMAL for row in original)
    sim.setState(state)
    assert trace(sim) == original
    fresh = soft()
    fresh.setState(state)
    assert trace(fresh) == original
