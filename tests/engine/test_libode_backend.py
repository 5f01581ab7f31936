"""engine.libode, the real ODE behind the flat API, and the reference recorder.

The backend must load the double-precision libode8 the test run installs,
lay its structs out as the C headers do, agree with engine.ode on every
constant and cover every flat-API name the reference scenes call. The
recorder (scripts/record_reference.py) must reproduce the committed reference
files: bit-identical except for the values listed in KNOWN_DIFFERENCES, each
explained in docs/decisions/0019-real-ode-backend.md.
"""

from __future__ import annotations

import ast
import ctypes
import importlib.util
import json
import pathlib

import numpy as np
import pytest

from engine import ode as odeon
from tests.engine import live_reference

ROOT = pathlib.Path(__file__).resolve().parents[2]
ALLOWED_LIBODE_IMPORTS = {"__future__", "collections.abc", "ctypes", "numpy"}
# reference value path -> why the test scene's live value is not the recorded one
KNOWN_DIFFERENCES = {
    "chain": {
        "results.final_end_pos[0]": "link pitch 0.3, recorded with 0.2 + 2 * 0.05",
        "results.final_end_pos[2]": "link pitch 0.3, recorded with 0.2 + 2 * 0.05",
        "results.min_end_z": "link pitch 0.3, recorded with 0.2 + 2 * 0.05",
    },
    "contact_feedback": {
        "results.dWorldQuickStep.normal_force_final": "surface layer 0, recorded with 0.001",
    },
}


@pytest.fixture(scope="module")
def libode():
    return live_reference.backend("libode")


def test_loaded_build_is_double_precision(libode):
    assert libode.is_double_precision()
    assert "ODE_double_precision" in libode.configuration().split()


def test_struct_layouts_match_the_c_headers(libode):
    from engine.libode import structs

    layout = json.loads((live_reference.REFERENCE_DIR / "meta.json").read_text())["ode"][
        "struct_layout"]
    ours = {
        "sizeof(dSurfaceParameters)": ctypes.sizeof(structs.CSurfaceParameters),
        "sizeof(dContactGeom)": ctypes.sizeof(structs.CContactGeom),
        "sizeof(dContact)": ctypes.sizeof(structs.CContact),
        "offsetof(dContact,geom)": structs.CContact.geom.offset,
        "offsetof(dContact,fdir1)": structs.CContact.fdir1.offset,
        "offsetof(dContactGeom,depth)": structs.CContactGeom.depth.offset,
        "offsetof(dContactGeom,g1)": structs.CContactGeom.g1.offset,
        "offsetof(dContactGeom,side1)": structs.CContactGeom.side1.offset,
        "sizeof(dMass)": ctypes.sizeof(structs.CMass),
        "sizeof(dJointFeedback)": ctypes.sizeof(structs.CJointFeedback),
    }
    assert ours == layout


def test_constants_agree_with_engine_ode(libode):
    constants = [n for n in libode.__all__ if isinstance(getattr(libode, n), (int, float))]
    assert len(constants) > 50
    for name in constants:
        assert getattr(libode, name) == getattr(odeon, name), name


def _flat_api_names(path: pathlib.Path) -> set[str]:
    tree = ast.parse(path.read_text())
    return {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name) and node.value.id == "ode"}


def test_every_api_name_the_scenes_use_is_bound(libode):
    used = set()
    for scene_file in ("scenes.py", "collision_scenes.py"):
        used |= _flat_api_names(ROOT / "tests" / "engine" / scene_file)
    assert len(used) > 40
    assert sorted(used - set(libode.__all__)) == []
    assert sorted(used - set(dir(odeon))) == []


def test_handles_come_back_as_the_same_objects(libode):
    w = libode.dWorldCreate()
    space = libode.dSimpleSpaceCreate(None)
    b = libode.dBodyCreate(w)
    g = libode.dCreateSphere(space, 1.0)
    plane = libode.dCreatePlane(space, 0, 0, 1, 0)
    libode.dGeomSetBody(g, b)
    libode.dBodySetPosition(b, 0, 0, 0.5)
    assert libode.dGeomGetBody(g) is b
    assert libode.dGeomGetBody(plane) is None
    j = libode.dJointCreateBall(w, None)
    libode.dJointAttach(j, b, None)
    assert libode.dJointGetBody(j, 0) is b and libode.dJointGetBody(j, 1) is None
    (c,) = libode.dCollide(g, plane, 4)
    assert c.g1 is g and c.g2 is plane
    assert np.array_equal(c.normal, [0, 0, 1]) and c.depth == 0.5
    assert np.array_equal(c.pos, [0, 0, -0.5])
    libode.dSpaceDestroy(space)
    libode.dWorldDestroy(w)


def test_vectors_and_out_parameters_are_returned(libode):
    w = libode.dWorldCreate()
    libode.dWorldSetGravity(w, 0, 0, -9.81)
    assert np.array_equal(libode.dWorldGetGravity(w), [0, 0, -9.81])
    b = libode.dBodyCreate(w)
    m = libode.dMass()
    libode.dMassSetBoxTotal(m, 2.0, 1.0, 2.0, 3.0)
    libode.dBodySetMass(b, m)
    got = libode.dBodyGetMass(b)
    assert got.mass == 2.0 and got.I.shape == (12,)
    assert got.I[0] == pytest.approx(2.0 * (4 + 9) / 12, rel=1e-15)
    R = libode.dRFromAxisAndAngle(0, 0, 1, np.pi / 2)
    libode.dBodySetRotation(b, R)
    assert np.allclose(libode.dBodyGetRelPointPos(b, 1, 0, 0), [0, 1, 0], atol=1e-15)
    assert libode.dBodyGetQuaternion(b).shape == (4,)
    assert libode.dBodyGetRotation(b).shape == (12,)
    libode.dWorldDestroy(w)


def test_an_error_in_the_near_callback_is_raised_after_the_pass(libode):
    space = libode.dSimpleSpaceCreate(None)
    libode.dCreateSphere(space, 1.0)
    libode.dCreateSphere(space, 1.0)
    calls = []

    def near(data, o1, o2):
        calls.append(data)
        raise ValueError("from the callback")

    with pytest.raises(ValueError, match="from the callback"):
        libode.dSpaceCollide(space, "data", near)
    assert calls == ["data"]
    libode.dSpaceDestroy(space)


def test_a_missing_library_names_the_install_command(monkeypatch):
    from engine.libode import loader

    monkeypatch.setattr(loader, "LIBRARY_NAME", "libode-not-installed.so.0")
    with pytest.raises(loader.LibodeUnavailable, match=r"scripts/system-deps.sh --test"):
        loader._load()
    monkeypatch.setitem(live_reference.BACKENDS, "libode", "engine.libode_not_installed")
    with pytest.raises(pytest.fail.Exception, match=r"scripts/system-deps.sh --test"):
        live_reference.backend("libode")


def _imports(path: pathlib.Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            names.add(node.module)
    return names


def test_engine_ode_never_imports_libode_and_libode_imports_only_numpy_and_ctypes():
    for path in (ROOT / "engine" / "ode").rglob("*.py"):
        assert not any(n.startswith("engine.libode") for n in _imports(path)), path
    package = ROOT / "engine" / "libode"
    for path in package.glob("*.py"):
        foreign = {n for n in _imports(path) if not n.startswith("engine.libode")}
        assert foreign <= ALLOWED_LIBODE_IMPORTS, (path, foreign)


@pytest.mark.parametrize("name", list(live_reference.RECORDS))
def test_recorder_reproduces_the_committed_reference(name, libode):
    committed = json.loads((live_reference.REFERENCE_DIR / f"{name}.json").read_text())
    recorded = live_reference.record(name)
    paths = {line.split(": ", 1)[0] for line in live_reference.differences(committed, recorded)}
    assert paths == set(KNOWN_DIFFERENCES.get(name, {}))
    if not paths:
        text = live_reference.dumps(live_reference.overlay(committed, recorded))
        assert text == (live_reference.REFERENCE_DIR / f"{name}.json").read_text()


def _recorder():
    spec = importlib.util.spec_from_file_location("record_reference",
                                                  ROOT / "scripts" / "record_reference.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_recorder_script_writes_identical_files_and_flags_differences(tmp_path, capsys, libode):
    recorder = _recorder()
    assert recorder.main(["--out", str(tmp_path), "free_fall", "hinge_motor"]) == 0
    for name in ("free_fall", "hinge_motor"):
        assert (tmp_path / f"{name}.json").read_bytes() == \
            (live_reference.REFERENCE_DIR / f"{name}.json").read_bytes()
    assert recorder.main(["chain"]) == 1
    assert "results.min_end_z" in capsys.readouterr().out
