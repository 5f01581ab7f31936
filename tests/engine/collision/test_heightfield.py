"""Heightfield data and geom (engine.ode.collision.geoms.heightfield).

AABBs are ODE 0.16.2's (tests/reference/heightfield_aabb.json, recorded
with libode): fixed and placeable fields, moved and rotated, every sample
format, scale/offset/thickness (including a negative scale, where ODE's
fixed-field AABB has min > max), wrap mode, callback fields with and
without bounds.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from engine import ode
from engine.ode.collision.geoms.heightfield import FixedHeightfield, Heightfield, HeightfieldData

REF = json.loads((Path(__file__).resolve().parents[2] / "reference"
                  / "heightfield_aabb.json").read_text())
H = np.array(REF["heights"])  # 3 rows (z) of 4 samples (x)


def _num(v):
    return float(v) if isinstance(v, str) else v


BUILDS = {
    "double": lambda d: ode.dGeomHeightfieldDataBuildDouble(d, H, 1, 3.0, 2.0, 4, 3, 1.0, 0.0,
                                                            0.5, 0),
    "double_scaled": lambda d: ode.dGeomHeightfieldDataBuildDouble(d, H, 1, 3.0, 2.0, 4, 3, 2.0,
                                                                   -0.5, 0.25, 0),
    "double_negscale": lambda d: ode.dGeomHeightfieldDataBuildDouble(d, H, 1, 3.0, 2.0, 4, 3,
                                                                     -1.5, 0.5, 0.25, 0),
    "single": lambda d: ode.dGeomHeightfieldDataBuildSingle(
        d, H.astype(np.float32) + np.float32(0.1), 1, 4.0, 5.0, 4, 3, 1.0, 0.0, 0.0, 0),
    "short": lambda d: ode.dGeomHeightfieldDataBuildShort(d, (H * 100).astype(np.int16), 1, 4.0,
                                                          5.0, 4, 3, 0.01, 1.0, 2.0, 0),
    "byte": lambda d: ode.dGeomHeightfieldDataBuildByte(d, (H * 10 + 5).astype(np.uint8), 1,
                                                        6.0, 1.0, 4, 3, 0.1, -0.5, 0.0, 0),
    "callback": lambda d: ode.dGeomHeightfieldDataBuildCallback(d, None, lambda u, x, z: H[z, x],
                                                                3.0, 2.0, 4, 3, 1.0, 0.0, 0.5, 0),
    "double_wrap": lambda d: ode.dGeomHeightfieldDataBuildDouble(d, H, 1, 3.0, 2.0, 4, 3, 1.0,
                                                                 0.0, 0.5, 1),
    "callback_wrap": lambda d: ode.dGeomHeightfieldDataBuildCallback(
        d, None, lambda u, x, z: H[z, x], 3.0, 2.0, 4, 3, 1.0, 0.0, 0.5, 1),
}


@pytest.mark.parametrize("rec", REF["cases"], ids=lambda r: f"{r['name']}-p{r['placeable']}"
                         f"-{'moved' if r['pos'] else 'origin'}-{'rot' if r['R'] else 'id'}"
                         f"-{'bounds' if r['bounds'] else 'nob'}")
def test_aabb_matches_ode(rec):
    d = ode.dGeomHeightfieldDataCreate()
    BUILDS[rec["name"]](d)
    if rec["bounds"] is not None:
        ode.dGeomHeightfieldDataSetBounds(d, *rec["bounds"])
    g = ode.dCreateHeightfield(None, d, rec["placeable"])
    if rec["pos"] is not None:
        ode.dGeomSetPosition(g, *rec["pos"])
    if rec["R"] is not None:
        ode.dGeomSetRotation(g, np.array(rec["R"]))
    want = [_num(v) for v in rec["aabb"]]
    np.testing.assert_allclose(ode.dGeomGetAABB(g), want, atol=1e-12, rtol=0)


def test_create_get_set_and_class():
    d = ode.dGeomHeightfieldDataCreate()
    assert isinstance(d, HeightfieldData)
    BUILDS["double"](d)
    g = ode.dCreateHeightfield(None, d, 1)
    f = ode.dCreateHeightfield(None, d, 0)
    assert isinstance(g, Heightfield) and isinstance(f, FixedHeightfield)
    assert ode.dGeomGetClass(g) == ode.dGeomGetClass(f) == ode.dHeightfieldClass == 9
    assert ode.dGeomHeightfieldGetHeightfieldData(g) is d
    d2 = ode.dGeomHeightfieldDataCreate()
    BUILDS["byte"](d2)
    ode.dGeomHeightfieldSetHeightfieldData(f, d2)
    assert ode.dGeomHeightfieldGetHeightfieldData(f) is d2
    # placeability is unchanged by a new data object
    with pytest.raises(ode.ODEError, match="dGeomSetPosition"):
        ode.dGeomSetPosition(f, 1, 2, 3)
    np.testing.assert_allclose(ode.dGeomGetAABB(f), [-3, 3, -0.5, 3.0, -0.5, 0.5])


def test_placeable_geom_moves_and_takes_a_body():
    d = ode.dGeomHeightfieldDataCreate()
    BUILDS["double"](d)
    g = ode.dCreateHeightfield(None, d, 1)
    ode.dGeomSetPosition(g, 1.0, 2.0, 3.0)
    np.testing.assert_allclose(ode.dGeomGetPosition(g), [1, 2, 3])
    w = ode.dWorldCreate()
    b = ode.dBodyCreate(w)
    ode.dBodySetPosition(b, 0.0, 1.0, 0.0)
    ode.dGeomSetBody(g, b)
    np.testing.assert_allclose(ode.dGeomGetAABB(g), [-1.5, 1.5, 0.0, 4.0, -1.0, 1.0])


def test_grid_values_and_bounds():
    d = ode.dGeomHeightfieldDataCreate()
    BUILDS["short"](d)
    # raw H*100 as int16, scale 0.01, offset 1; thickness 2 below the minimum
    assert d.min_height == pytest.approx(-0.5 + 1.0 - 2.0)
    assert d.max_height == pytest.approx(3.0 + 1.0)
    np.testing.assert_allclose(d.grid(0, 3, 0, 2), (H * 100).astype(np.int16).T * 0.01 + 1.0)
    # clamped outside the grid, wrapped modulo (samples - 1) in wrap mode
    corner = (H * 100).astype(np.int16)[2, 0] * 0.01 + 1.0
    np.testing.assert_allclose(d.grid(-2, -1, 5, 5), [[corner], [corner]])
    w = ode.dGeomHeightfieldDataCreate()
    BUILDS["double_wrap"](w)
    np.testing.assert_allclose(w.grid(-1, 4, 3, 3)[:, 0], H[1, [2, 0, 1, 2, 0, 1]])
    ode.dGeomHeightfieldDataSetBounds(w, -2.0, 7.0)
    assert (w.min_height, w.max_height) == (-2.5, 7.0)


def test_single_precision_samples_are_widened_not_rounded():
    d = ode.dGeomHeightfieldDataCreate()
    vals = np.array([[0.1, 0.2], [0.3, 0.7]], dtype=np.float32)
    ode.dGeomHeightfieldDataBuildSingle(d, vals, 1, 1.0, 1.0, 2, 2, 1.0, 0.0, 0.0, 0)
    assert d.grid(0, 0, 0, 0)[0, 0] == float(np.float32(0.1))
    assert d.max_height == float(np.float32(0.7))


def test_callback_arguments():
    calls = []

    def cb(user, x, z):
        calls.append((user, x, z))
        return x + 10 * z

    d = ode.dGeomHeightfieldDataCreate()
    ode.dGeomHeightfieldDataBuildCallback(d, "ud", cb, 2.0, 2.0, 3, 3, 0.5, 1.0, 0.0, 0)
    assert (d.min_height, d.max_height) == (-math.inf, math.inf)
    np.testing.assert_allclose(d.grid(0, 2, 1, 2), 0.5 * np.array([[10, 20], [11, 21],
                                                                    [12, 22]]) + 1.0)
    assert calls[0] == ("ud", 0, 1) and all(0 <= x <= 2 and 0 <= z <= 2 for _, x, z in calls)
    # collisions call it too (height at the sphere: 0.5 * (1 + 10) + 1 at sample (1, 1))
    g = ode.dCreateHeightfield(None, d, 0)
    s = ode.dCreateSphere(None, 0.1)
    ode.dGeomSetPosition(s, 0.0, 6.55, 0.0)
    calls.clear()
    assert len(ode.dCollide(s, g, 4)) >= 1 and calls


def test_copy_flag():
    """copy=0 keeps the caller's array (later changes are seen, as ODE keeps the
    pointer); copy=1 takes a private copy."""
    arr = np.zeros((3, 3))
    ref = ode.dGeomHeightfieldDataCreate()
    own = ode.dGeomHeightfieldDataCreate()
    ode.dGeomHeightfieldDataBuildDouble(ref, arr, 0, 2.0, 2.0, 3, 3, 1.0, 0.0, 0.0, 0)
    ode.dGeomHeightfieldDataBuildDouble(own, arr, 1, 2.0, 2.0, 3, 3, 1.0, 0.0, 0.0, 0)
    g_ref = ode.dCreateHeightfield(None, ref, 0)
    g_own = ode.dCreateHeightfield(None, own, 0)
    s = ode.dCreateSphere(None, 0.8)
    ode.dGeomSetPosition(s, 0.0, 1.1, 0.0)
    assert ode.dCollide(g_ref, s, 4) == [] and ode.dCollide(g_own, s, 4) == []
    arr[1, 1] = 0.5  # a peak under the sphere, 0.2 inside it
    depths = [c.depth for c in ode.dCollide(s, g_ref, 4)]
    assert max(depths) == pytest.approx(0.2)
    assert ode.dCollide(g_own, s, 4) == []
    # a byte field referenced through its uint8 array behaves alike
    raw = np.zeros(9, dtype=np.uint8)
    bd = ode.dGeomHeightfieldDataCreate()
    ode.dGeomHeightfieldDataBuildByte(bd, raw, 0, 2.0, 2.0, 3, 3, 0.1, 0.0, 0.0, 0)
    raw[4] = 5
    np.testing.assert_allclose(bd.grid(1, 1, 1, 1), [[0.5]])


def test_destroy():
    d = ode.dGeomHeightfieldDataCreate()
    BUILDS["double"](d)
    ode.dGeomHeightfieldDataDestroy(d)
    for call in (lambda: ode.dGeomHeightfieldDataDestroy(d),
                 lambda: ode.dGeomHeightfieldDataSetBounds(d, 0, 1),
                 lambda: BUILDS["double"](d)):
        with pytest.raises(ode.ODEError, match="argument 'd'.*destroyed"):
            call()
    with pytest.raises(ode.ODEError, match="dCreateHeightfield: argument 'data'"):
        ode.dCreateHeightfield(None, d, 1)


def test_unbuilt_data_gives_no_contacts():
    d = ode.dGeomHeightfieldDataCreate()
    g = ode.dCreateHeightfield(None, d, 0)
    np.testing.assert_array_equal(ode.dGeomGetAABB(g), np.zeros(6))
    s = ode.dCreateSphere(None, 1.0)
    assert ode.dCollide(g, s, 4) == []
    BUILDS["double"](d)  # building later is seen by the geom
    assert len(ode.dCollide(g, s, 4)) >= 1


@pytest.mark.parametrize("call,argument", [
    (lambda: ode.dCreateHeightfield(None, None, 1), "data"),
    (lambda: ode.dGeomHeightfieldDataBuildDouble(None, H, 1, 3.0, 2.0, 4, 3, 1, 0, 0, 0), "d"),
    (lambda: ode.dGeomHeightfieldDataBuildCallback(None, None, abs, 1, 1, 2, 2, 1, 0, 0, 0),
     "d"),
    (lambda: ode.dGeomHeightfieldDataSetBounds(None, 0, 1), "d"),
    (lambda: ode.dGeomHeightfieldDataDestroy(None), "d"),
    (lambda: ode.dGeomHeightfieldSetHeightfieldData(None, ode.dGeomHeightfieldDataCreate()),
     "g"),
    (lambda: ode.dGeomHeightfieldGetHeightfieldData(ode.dCreateSphere(None, 1)), "g"),
    (lambda: ode.dGeomHeightfieldSetHeightfieldData(
        ode.dCreateHeightfield(None, ode.dGeomHeightfieldDataCreate(), 1), None), "d"),
])
def test_null_arguments(call, argument):
    with pytest.raises(ode.ODEError, match=f"argument '{argument}'"):
        call()


def _new():
    return ode.dGeomHeightfieldDataCreate()


@pytest.mark.parametrize("call,argument", [
    (lambda: ode.dGeomHeightfieldDataBuildDouble(_new(), H, 1, 3.0, 2.0, 1, 3, 1, 0, 0, 0),
     "width_samples"),
    (lambda: ode.dGeomHeightfieldDataBuildDouble(_new(), H, 1, 3.0, 2.0, 4, 1, 1, 0, 0, 0),
     "depth_samples"),
    (lambda: ode.dGeomHeightfieldDataBuildDouble(_new(), H, 1, 0.0, 2.0, 4, 3, 1, 0, 0, 0),
     "width"),
    (lambda: ode.dGeomHeightfieldDataBuildDouble(_new(), H, 1, 3.0, -2.0, 4, 3, 1, 0, 0, 0),
     "depth"),
    (lambda: ode.dGeomHeightfieldDataBuildDouble(_new(), H, 1, 3.0, 2.0, 5, 3, 1, 0, 0, 0),
     "height_data"),
    (lambda: ode.dGeomHeightfieldDataBuildDouble(_new(), H.T, 1, 3.0, 2.0, 4, 3, 1, 0, 0, 0),
     "height_data"),
    (lambda: ode.dGeomHeightfieldDataBuildSingle(_new(), None, 1, 3.0, 2.0, 4, 3, 1, 0, 0, 0),
     "height_data"),
    (lambda: ode.dGeomHeightfieldDataBuildByte(_new(), H * 100, 1, 3.0, 2.0, 4, 3, 1, 0, 0, 0),
     "height_data"),
    (lambda: ode.dGeomHeightfieldDataBuildShort(_new(), H * 1e5, 1, 3.0, 2.0, 4, 3, 1, 0, 0, 0),
     "height_data"),
    (lambda: ode.dGeomHeightfieldDataBuildDouble(_new(), H, 1, 3.0, 2.0, 4, 3, math.nan, 0, 0,
                                                 0), "scale"),
    (lambda: ode.dGeomHeightfieldDataBuildCallback(_new(), None, None, 1, 1, 2, 2, 1, 0, 0, 0),
     "callback"),
    (lambda: ode.dGeomHeightfieldDataBuildCallback(_new(), None, 3, 1, 1, 2, 2, 1, 0, 0, 0),
     "callback"),
    (lambda: ode.dGeomHeightfieldDataSetBounds(_new(), math.nan, 1), "min_height"),
    (lambda: ode.dCreateHeightfield(None, _new(), "yes"), "placeable"),
])
def test_bad_arguments(call, argument):
    with pytest.raises(ode.ODEError, match=f"argument '{argument}'"):
        call()


def test_flat_sequences_and_2d_arrays_accepted():
    a = ode.dGeomHeightfieldDataCreate()
    b = ode.dGeomHeightfieldDataCreate()
    ode.dGeomHeightfieldDataBuildDouble(a, H.ravel().tolist(), 1, 3.0, 2.0, 4, 3, 1, 0, 0, 0)
    ode.dGeomHeightfieldDataBuildDouble(b, H, 0, 3.0, 2.0, 4, 3, 1, 0, 0, 0)
    np.testing.assert_array_equal(a.grid(0, 3, 0, 2), b.grid(0, 3, 0, 2))
    np.testing.assert_array_equal(a.grid(0, 3, 0, 2), H.T)
