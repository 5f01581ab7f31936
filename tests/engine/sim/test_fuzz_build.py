"""Fuzzing the build and the first steps: random field values in every bundled world.

Each case reads a bundled world, sets random values (0, negatives, 1e-300,
1e300, 2e154, nan, inf, vectors, strings) into one to three random fields of
random nodes, builds it (no physics plugin) and steps it a few times. The
only outcomes allowed are Odeon's own: the value refused by the model
(`FieldValueError`), a `BuildError` located in the file and naming the node,
or a simulation that runs or pauses with a message. Seeded and deterministic;
``ODEON_FUZZ_CASES`` (cases per world, default 6) makes a longer run.
"""

from __future__ import annotations

import os
import random
import traceback
from pathlib import Path

import pytest

import engine.world.fieldtypes as ft
from engine.sim import BuildError, Simulation
from engine.sim.console import Console
from engine.world import WorldError, read_world

ROOT = Path(__file__).resolve().parents[3]
WORLDS = sorted((ROOT / "resources" / "worlds").glob("*.wbt")) + sorted(
    (ROOT / "tests" / "resources" / "worlds").glob("*.wbt"))
CASES = int(os.environ.get("ODEON_FUZZ_CASES", "6"))
STEPS = 3

NUMBERS = [0.0, -1.0, 1.0, 0.5, -7.25, 1e-300, -1e-300, 1e300, -1e300, 2e154, 1e-9, 1e9,
           1e6, 1e-7, float("nan"), float("inf"), float("-inf")]
INTEGERS = [0, -1, 1, 3, 2**31 - 1, -(2**31), 10**9]
STRINGS = ["", "x", "step", "quickstep", "ENU", "NUE", "../missing.obj", "\x00", "é"]


def random_value(type_name: str, rnd: random.Random):
    """A random value of field type ``type_name`` (may not fit: the model decides)."""
    sf = ft.sf_of(type_name)

    def one():
        if sf == "SFFloat":
            return rnd.choice(NUMBERS)
        if sf == "SFInt32":
            return rnd.choice(INTEGERS)
        if sf == "SFBool":
            return rnd.random() < 0.5
        if sf == "SFString":
            return rnd.choice(STRINGS)
        return tuple(rnd.choice(NUMBERS) for _ in range(ft.VECTOR_SIZES[sf]))

    if ft.is_mf(type_name):
        return tuple(one() for _ in range(rnd.randint(0, 4)))
    return one()


def mutate(world, rnd: random.Random) -> list[str]:
    """Set 1-3 random fields of random nodes; what was set (for failure reports)."""
    nodes = [n for n in world.iter_nodes() if not n.is_use and not n.is_opaque]
    done = []
    for _ in range(rnd.randint(1, 3)):
        node = rnd.choice(nodes)
        fields = [(name, spec.type) for name, spec in node.spec.fields.items()
                  if not spec.type.endswith("Node")]
        if not fields:
            continue
        name, type_name = rnd.choice(fields)
        value = random_value(type_name, rnd)
        try:
            node.set(name, value)
        except WorldError:
            continue  # refused by the model with its own error: fine
        done.append(f"{node.label()}.{name} = {value!r}")
    return done


def run_case(path: Path, seed: int) -> None:
    """Mutate, build and step one world; fail on anything but Odeon's own outcomes."""
    rnd = random.Random(seed)
    world = read_world(path)
    changes = mutate(world, rnd)
    where = f"{path.name} seed {seed}: {changes}"
    try:
        sim = Simulation(world, console=Console())
        for _ in range(STEPS):
            if not sim.step():
                break
    except BuildError as exc:
        # located in the file, naming the node
        assert str(exc).startswith(f"{path}:"), (where, str(exc))
        assert exc.line is not None and exc.node is not None, (where, str(exc))
        return
    except WorldError:
        return
    except Exception:  # noqa: BLE001 - any other exception is the failure we look for
        pytest.fail(f"{where}\n{traceback.format_exc()}")
    if sim.paused:  # a pause always says why, naming the Solid or the world file
        assert sim.pause_message and ":" in sim.pause_message, where


@pytest.mark.parametrize("path", WORLDS, ids=[p.name for p in WORLDS])
def test_random_field_values_give_only_odeon_errors(path: Path) -> None:
    for case in range(CASES):
        run_case(path, _seed(path, case))


def _seed(path: Path, case: int) -> int:
    """A seed fixed by the world's name and the case number (not Python's hash)."""
    return sum(path.name.encode()) * 1000 + case
