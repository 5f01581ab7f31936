"""Reference data of the scene tests, from the recorded files or from a live run.

The reference scene tests (test_reference_dynamics, collision/test_reference_*)
compare a *subject* engine's scene outputs with a *reference*: the numbers in
``tests/reference/<name>.json`` (recorded from the real ODE 0.16.2) or the
same numbers measured live on the real ODE through :mod:`engine.libode`.
:data:`RECORDS` says, per reference file, how a live run's scene outputs
become the fields of that file the tests read, with the file's own key paths;
scripts/record_reference.py writes them back into the files.

Scene outputs are cached per (backend, scene, arguments) for the test session:
a scene runs once per engine however many tests read it.
"""

from __future__ import annotations

import functools
import importlib
import json
import pathlib
import re
from collections.abc import Callable
from types import ModuleType

import numpy as np
import pytest

from tests.engine import collision_scenes, scenes

REFERENCE_DIR = pathlib.Path(__file__).resolve().parents[1] / "reference"
BACKENDS = {"odeon": "engine.ode", "libode": "engine.libode"}
MAX_SERIES_SAMPLES = 200
SCENE_FUNCTIONS: dict[str, Callable[..., dict]] = {
    "free_fall": scenes.free_fall, "pendulum": scenes.pendulum, "chain": scenes.chain,
    "hinge_motor": scenes.hinge_motor, "slider_motor": scenes.slider_motor,
    "bounce": collision_scenes.bounce, "contact_feedback": collision_scenes.contact_feedback,
    "box_stack": collision_scenes.box_stack, "pile": collision_scenes.pile,
}
STEPPERS = (("dWorldStep", False), ("dWorldQuickStep", True))


def backend(name: str) -> ModuleType:
    """The flat-API module of backend ``name`` ("odeon" or "libode").

    A missing libode8 fails the calling test (it is never skipped): the test
    command installs it with scripts/system-deps.sh --test.
    """
    try:
        return importlib.import_module(BACKENDS[name])
    except ImportError as exc:
        pytest.fail(f"backend {name!r} unavailable: {exc}. Install the real ODE with "
                    f"scripts/system-deps.sh --test", pytrace=False)


@functools.cache
def scene_output(backend_name: str, scene: str, *args: object) -> dict:
    """Outputs of scene function ``scene(*args)`` run on ``backend_name``
    (cached; callers must not modify the dict)."""
    return SCENE_FUNCTIONS[scene](*args, ode=backend(backend_name))


def sample_steps(n: int, m: int = MAX_SERIES_SAMPLES) -> list[int]:
    """The steps a recorded series keeps out of ``n``: all when n <= m, else
    ``m`` evenly spaced ones rounded to the nearest step (first and last kept)."""
    if n <= m:
        return list(range(n))
    return sorted({round(k * (n - 1) / (m - 1)) for k in range(m)})


# ------------------------------------------------------------------ per reference file
def _free_fall(run: Callable[..., dict]) -> dict:
    out = run("free_fall")
    steps = sample_steps(len(out["traj"]))
    return {"results": {"final_pos": out["traj"][-1], "final_linvel": out["final_linvel"],
                        "final_quat": out["final_quat"]},
            "series": {"step": steps, "pos": out["traj"][steps]}}


def _pendulum(run: Callable[..., dict]) -> dict:
    results = {}
    for stepper, quick in STEPPERS:
        out = run("pendulum", quick)
        results[stepper] = {"max_angle": out["max_angle"], "period_measured": out["period"],
                            "energy_final": out["energy_final"], "energy_min": out["energy_min"],
                            "energy_max": out["energy_max"],
                            "max_anchor_error": out["anchor_drift"]}
    return {"results": results}


def _chain(run: Callable[..., dict]) -> dict:
    out = run("chain")
    return {"results": {"final_end_pos": out["final_end"], "min_end_z": out["min_end_z"],
                        "max_joint_gap": out["max_gap"]}}


def _hinge_motor(run: Callable[..., dict]) -> dict:
    results = {}
    for case in ("vertical_axis", "horizontal_axis_loaded"):
        out = run("hinge_motor", case)
        results[case] = {"steps_to_reach_vel": out["reach"], "rate_first_5_steps": out["rates"][1:6],
                         "final_angle": out["final_angle"], "final_rate": out["rates"][-1]}
    return {"results": results}


def _slider_motor(run: Callable[..., dict]) -> dict:
    results = {}
    for case in ("motor", "unpowered_v0"):
        out = run("slider_motor", case)
        results[case] = {"max_pos": out["max"], "min_pos": out["min"], "final_pos": out["final"],
                         "reversals": [{"step": step, "rate_after": rate}
                                       for step, rate in out["reversals"][:12]],
                         "num_reversals": len(out["reversals"])}
    return {"results": results}


def _bounce(run: Callable[..., dict]) -> dict:
    out = run("bounce")
    return {"params": {"radius": out["radius"]},
            "results": {"first_contact_step": out["first_contact_step"],
                        "apexes": [{"z": z} for z in out["apexes"][:12]],
                        "final_z": out["final_z"]}}


def _contact_feedback(run: Callable[..., dict]) -> dict:
    results = {}
    for stepper, quick in STEPPERS:
        out = run("contact_feedback", quick)
        results[stepper] = {"normal_force_final": out["normal_force_final"],
                            "contacts_final": out["contacts_final"]}
    return {"results": results}


def _box_stack(run: Callable[..., dict]) -> dict:
    return {"results": {"top_drift": run("box_stack")["top_drift"]}}


def _pile_100(run: Callable[..., dict]) -> dict:
    return {"results": {"python_callback": {"contacts_final": run("pile", 100)["contacts_final"]}}}


RECORDS: dict[str, Callable[[Callable[..., dict]], dict]] = {
    "free_fall": _free_fall, "pendulum": _pendulum, "chain": _chain,
    "hinge_motor": _hinge_motor, "slider_motor": _slider_motor, "bounce": _bounce,
    "contact_feedback": _contact_feedback, "box_stack": _box_stack, "pile_100": _pile_100,
}


def record(name: str, backend_name: str = "libode") -> dict:
    """The recorded fields of reference file ``name`` measured live on
    ``backend_name``, as plain JSON values (numpy arrays become lists)."""
    return plain(RECORDS[name](functools.partial(scene_output, backend_name)))


@functools.cache
def _live(name: str) -> str:
    return json.dumps(record(name))


def reference(source: str, name: str) -> dict:
    """Reference data ``name`` from ``source``: "recorded" (the committed
    file) or "live" (the real ODE now; the recorded fields only)."""
    if source == "recorded":
        return json.loads((REFERENCE_DIR / f"{name}.json").read_text())
    return json.loads(_live(name))


# ------------------------------------------------------------------ JSON plumbing
def plain(value: object) -> object:
    """``value`` with numpy arrays/scalars and tuples turned into JSON values."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [plain(v) for v in value]
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    return value


def overlay(committed: object, recorded: object) -> object:
    """``committed`` with every value ``recorded`` holds put in its place: dicts
    merge by key, lists of dicts merge item by item (the recorded length
    wins), anything else is replaced."""
    if isinstance(committed, dict) and isinstance(recorded, dict):
        merged = dict(committed)
        for key, value in recorded.items():
            merged[key] = overlay(committed[key], value) if key in committed else value
        return merged
    if isinstance(committed, list) and isinstance(recorded, list) and recorded \
            and all(isinstance(v, dict) for v in recorded):
        return [overlay(committed[i], v) if i < len(committed) else v
                for i, v in enumerate(recorded)]
    return recorded


def differences(committed: object, recorded: object, path: str = "") -> list[str]:
    """Where ``recorded`` differs from ``committed`` (exact comparison), one
    line per differing leaf: ``path: recorded vs committed``."""
    if isinstance(recorded, dict):
        if not isinstance(committed, dict):
            return [f"{path}: a dict vs {committed!r}"]
        return [line for key, value in recorded.items()
                for line in differences(committed.get(key), value, f"{path}.{key}".lstrip("."))]
    if isinstance(recorded, list):
        if not isinstance(committed, list) or len(committed) != len(recorded):
            n = len(committed) if isinstance(committed, list) else committed
            return [f"{path}: {len(recorded)} items vs {n!r}"]
        return [line for i, value in enumerate(recorded)
                for line in differences(committed[i], value, f"{path}[{i}]")]
    if recorded != committed or type(recorded) is not type(committed):
        return [f"{path}: {recorded!r} vs {committed!r}"]
    return []


def leaves(value: object) -> int:
    """Number of scalar values in a JSON value."""
    if isinstance(value, dict):
        return sum(leaves(v) for v in value.values())
    if isinstance(value, list):
        return sum(leaves(v) for v in value)
    return 1


_FLAT_LIST = re.compile(r"\[([^\[\]{}\"]*)\]")


def dumps(data: object) -> str:
    """The reference files' JSON text: indent 1, lists without nested lists,
    dicts or strings on one line, a final newline."""
    text = json.dumps(data, indent=1, allow_nan=False)
    return _FLAT_LIST.sub(lambda m: "[" + " ".join(m.group(1).split()) + "]", text) + "\n"
