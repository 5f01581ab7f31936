"""Ray colliders (sphere, box, capsule, cylinder, plane; ray-ray) against ODE 0.16.2.

Reference data: tests/reference/ray.json (the ``ray`` scene: rays against a
unit sphere at the origin) and the ray records of
tests/reference/collision_matrix.json (sphere/box/capsule/cylinder/plane vs
ray and ray-ray, with ODE's exact poses; checked here more tightly than the
matrix rules, to 1e-6). Both recorded with ODE 0.16.2, double
precision. Depths and positions in m.
"""

from __future__ import annotations

import json
import math
import pathlib

import numpy as np
import pytest

from engine import ode

REF = pathlib.Path(__file__).resolve().parents[2] / "reference"
TOL = 1e-6


def _ref(name: str) -> dict:
    return json.loads((REF / f"{name}.json").read_text())


def _make_ray(start, direction, length: float):
    r = ode.dCreateRay(None, length)
    ode.dGeomRaySet(r, *start, *direction)
    return r


def _assert_contacts(got, want: list[dict], o1, tol: float = TOL) -> None:
    """Contacts ``got`` (list of dContactGeom) equal ODE's recorded ``want``."""
    assert len(got) == len(want)
    for c, w in zip(got, want, strict=True):
        assert np.allclose(c.pos, w["pos"], atol=tol, rtol=0)
        assert np.allclose(c.normal, w["normal"], atol=tol, rtol=0)
        assert abs(c.depth - w["depth"]) <= tol
        assert (c.side1, c.side2) == (w["side1"], w["side2"])
        assert (c.g1 is o1) == w.get("g1_is_o1", True)


# ----------------------------------------------------------------------------- ray scene
RAY_SCENE = _ref("ray")


@pytest.mark.parametrize("case", RAY_SCENE["results"]["cases"], ids=lambda c: c["name"])
def test_ray_scene_matches_ode(case):
    p = RAY_SCENE["params"]
    sph = ode.dCreateSphere(None, p["sphere_radius"])
    ode.dGeomSetPosition(sph, *p["sphere_pos"])
    ray = _make_ray(case["start"], case["dir"], case["length"])
    _assert_contacts(ode.dCollide(ray, sph, p["max_contacts"]),
                     case["ray_sphere"]["contacts"], ray)
    _assert_contacts(ode.dCollide(sph, ray, p["max_contacts"]),
                     case["sphere_ray"]["contacts"], sph)
    ode.dGeomDestroy(ray)
    ode.dGeomDestroy(sph)


def test_ray_scene_depth_summary():
    expected = {"center": 4.0, "offset_x0.5": 4.1339746, "oblique": 4.2217032,
                "miss_x1.5": None, "too_short": None, "start_inside": 1.0,
                "start_inside_offcentre": 0.6389183, "pointing_away": None}
    got = RAY_SCENE["results"]["depth_by_case"]
    assert set(got) == set(expected)
    sph = ode.dCreateSphere(None, 1.0)
    for case in RAY_SCENE["results"]["cases"]:
        ray = _make_ray(case["start"], case["dir"], case["length"])
        cs = ode.dCollide(ray, sph, 8)
        want = expected[case["name"]]
        if want is None:
            assert cs == []
        else:
            assert len(cs) == 1 and abs(cs[0].depth - want) < 1e-6
        ode.dGeomDestroy(ray)


def test_ray_starting_inside_sphere_exits_with_inward_normal():
    sph = ode.dCreateSphere(None, 1.0)
    ray = _make_ray((0, 0, 0), (0, 0, -1), 10.0)
    (c,) = ode.dCollide(ray, sph, 4)
    assert np.allclose(c.pos, (0, 0, -1)) and np.allclose(c.normal, (0, 0, 1))
    assert c.depth == pytest.approx(1.0) and c.g1 is ray and c.g2 is sph


# ----------------------------------------------------------------------------- matrix
MATRIX = _ref("collision_matrix")
MATRIX["pairs"] = [e for e in MATRIX["pairs"] if "ray" in (e["g1"], e["g2"])
                   and not {"convex", "trimesh"} & {e["g1"], e["g2"]}]
SHAPES = MATRIX["params"]["shapes"]


def _geom_from_pose(cls: str, pose: dict):
    if "plane" in pose:
        return ode.dCreatePlane(None, *[float(x) for x in pose["plane"]])
    if "ray" in pose:
        r = [float(x) for x in pose["ray"]]
        return _make_ray(r[:3], r[3:6], r[6])
    if cls == "sphere":
        g = ode.dCreateSphere(None, SHAPES["sphere"]["radius"])
    elif cls == "box":
        g = ode.dCreateBox(None, *SHAPES["box"]["lengths"])
    elif cls == "capsule":
        g = ode.dCreateCapsule(None, SHAPES["capsule"]["radius"], SHAPES["capsule"]["length"])
    elif cls == "cylinder":
        g = ode.dCreateCylinder(None, SHAPES["cylinder"]["radius"],
                                SHAPES["cylinder"]["length"])
    else:
        raise AssertionError(cls)
    ode.dGeomSetPosition(g, *[float(x) for x in pose["pos"]])
    ode.dGeomSetRotation(g, [float(x) for x in pose["R"]])
    return g


RECORDS = [(e["g1"], e["g2"], rec) for e in MATRIX["pairs"] for rec in e["placements"]]


def _angle_deg(a, b) -> float:
    a = np.asarray(a, float)
    b = np.asarray(b, float)
    c = float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))
    return math.degrees(math.acos(max(-1.0, min(1.0, c))))


@pytest.mark.parametrize("c1,c2,rec", RECORDS,
                         ids=[f"{a}-{b}-{r['name']}" for a, b, r in RECORDS])
def test_collision_matrix_ray_records(c1, c2, rec):
    """README acceptance (count, nearest hit depth/point within 1e-3, normal
    within 2 degrees) and, since the colliders follow ODE's arithmetic, the
    exact contacts within 1e-6 -- including rays that start inside."""
    g1 = _geom_from_pose(c1, rec["pose"]["g1"])
    g2 = _geom_from_pose(c2, rec["pose"]["g2"])
    fwd = ode.dCollide(g1, g2, MATRIX["params"]["max_contacts"])
    rev = ode.dCollide(g2, g1, MATRIX["params"]["max_contacts"])
    want = rec["contacts"]
    assert len(fwd) == rec["n"] and len(rev) == rec["reverse_n"]
    if want:
        near = min(fwd, key=lambda c: c.depth)
        wnear = min(want, key=lambda c: c["depth"])
        assert abs(near.depth - wnear["depth"]) <= 1e-3
        assert np.allclose(near.pos, wnear["pos"], atol=1e-3, rtol=0)
        assert _angle_deg(near.normal, wnear["normal"]) <= 2.0
    _assert_contacts(fwd, want, g1)
    if rec["reverse_is_swapped_forward"]:
        rwant = [dict(w, normal=[-x for x in w["normal"]], side1=w["side2"],
                      side2=w["side1"]) for w in want]
    else:
        rwant = rec["reverse_contacts"]
    _assert_contacts(rev, rwant, g2)
    ode.dGeomDestroy(g1)
    ode.dGeomDestroy(g2)


def test_matrix_counts_match_readme():
    counts = {f"{e['g1']}-{e['g2']}": "".join(str(r["n"]) for r in e["placements"])
              for e in MATRIX["pairs"]}
    assert counts == {"sphere-ray": "10111", "box-ray": "10111", "capsule-ray": "10110",
                      "cylinder-ray": "10111", "plane-ray": "10110", "ray-ray": "0"}


# ----------------------------------------------------------------------------- rules
def test_ray_ray_has_no_contacts():
    a = _make_ray((0, 0, 0), (1, 0, 0), 2.0)
    b = _make_ray((1, -1, 0), (0, 1, 0), 2.0)
    assert ode.dCollide(a, b, 4) == [] and ode.dCollide(b, a, 4) == []


def test_ray_plane_from_front_and_behind():
    plane = ode.dCreatePlane(None, 0, 0, 2, 2)  # z = 1 after normalization
    down = _make_ray((0.5, 0, 3), (0, 0, -1), 5.0)
    (c,) = ode.dCollide(down, plane, 4)
    assert np.allclose(c.pos, (0.5, 0, 1)) and np.allclose(c.normal, (0, 0, 1))
    assert c.depth == pytest.approx(2.0)
    # starting behind the plane: nothing when pointing away, -n when crossing it
    away = _make_ray((0, 0, 0), (0, 0, -1), 5.0)
    assert ode.dCollide(away, plane, 4) == []
    up = _make_ray((0, 0, 0), (0, 0, 1), 5.0)
    (c,) = ode.dCollide(up, plane, 4)
    assert np.allclose(c.normal, (0, 0, -1)) and c.depth == pytest.approx(1.0)
    parallel = _make_ray((0, 0, 3), (1, 0, 0), 5.0)
    assert ode.dCollide(parallel, plane, 4) == []
    short = _make_ray((0, 0, 3), (0, 0, -1), 1.5)
    assert ode.dCollide(short, plane, 4) == []


def test_box_entry_and_exit():
    box = ode.dCreateBox(None, 2, 2, 2)
    ray = _make_ray((0, 0, 5), (0, 0, -1), 10.0)
    (c,) = ode.dCollide(ray, box, 4)
    assert np.allclose(c.pos, (0, 0, 1)) and np.allclose(c.normal, (0, 0, 1))
    assert c.depth == pytest.approx(4.0)
    inside = _make_ray((0.2, 0, 0), (1, 0, 0), 10.0)
    (c,) = ode.dCollide(inside, box, 4)
    assert np.allclose(c.pos, (1, 0, 0)) and np.allclose(c.normal, (-1, 0, 0))
    assert c.depth == pytest.approx(0.8)
    (c,) = ode.dCollide(box, inside, 4)  # swapped order: normal negated
    assert np.allclose(c.normal, (1, 0, 0)) and c.g1 is box


def test_cylinder_cap_side_and_exit():
    cyl = ode.dCreateCylinder(None, 0.5, 2.0)
    cap = _make_ray((0.1, 0, 3), (0, 0, -1), 10.0)
    (c,) = ode.dCollide(cap, cyl, 4)
    assert np.allclose(c.pos, (0.1, 0, 1)) and np.allclose(c.normal, (0, 0, 1))
    side = _make_ray((3, 0, 0.5), (-1, 0, 0), 10.0)
    (c,) = ode.dCollide(side, cyl, 4)
    assert np.allclose(c.pos, (0.5, 0, 0.5)) and np.allclose(c.normal, (1, 0, 0))
    assert c.depth == pytest.approx(2.5)
    inside_side = _make_ray((0, 0, 0), (0, 1, 0), 10.0)
    (c,) = ode.dCollide(inside_side, cyl, 4)
    assert np.allclose(c.pos, (0, 0.5, 0)) and np.allclose(c.normal, (0, -1, 0))
    inside_cap = _make_ray((0, 0, 0), (0, 0, 1), 10.0)
    (c,) = ode.dCollide(inside_cap, cyl, 4)
    assert np.allclose(c.pos, (0, 0, 1)) and np.allclose(c.normal, (0, 0, -1))


def test_capsule_side_cap_and_inside_rules():
    cap = ode.dCreateCapsule(None, 0.5, 2.0)
    side = _make_ray((3, 0, 0.5), (-1, 0, 0), 10.0)
    (c,) = ode.dCollide(side, cap, 4)
    assert np.allclose(c.pos, (0.5, 0, 0.5)) and np.allclose(c.normal, (1, 0, 0))
    top = _make_ray((0, 0, 5), (0, 0, -1), 10.0)
    (c,) = ode.dCollide(top, cap, 4)
    assert np.allclose(c.pos, (0, 0, 1.5)) and np.allclose(c.normal, (0, 0, 1))
    assert c.depth == pytest.approx(3.5)
    # from inside along the axis: the exit through the cap, normal inward
    up = _make_ray((0, 0, 0), (0, 0, 1), 10.0)
    (c,) = ode.dCollide(up, cap, 4)
    assert np.allclose(c.pos, (0, 0, 1.5)) and np.allclose(c.normal, (0, 0, -1))
    # from inside, oblique: as ODE, no contact when the exit through the
    # infinite cylinder lies beyond the ray's length, even if a cap is reached
    d = np.array([0.1, 0, 1.0]) / math.hypot(0.1, 1.0)
    oblique = _make_ray((0, 0, 0), d, 3.0)
    assert ode.dCollide(oblique, cap, 4) == []


def test_flags_and_max_contacts_do_not_change_primitive_hits():
    sph = ode.dCreateSphere(None, 1.0)
    ray = _make_ray((0, 0, 5), (0, 0, -1), 10.0)
    base = ode.dCollide(ray, sph, 1)
    ode.dGeomRaySetParams(ray, 1, 1)
    ode.dGeomRaySetClosestHit(ray, 1)
    again = ode.dCollide(ray, sph, 8)
    assert len(base) == len(again) == 1
    assert np.allclose(base[0].pos, again[0].pos) and base[0].depth == again[0].depth


def test_ray_on_a_body_follows_it():
    w = ode.dWorldCreate()
    b = ode.dBodyCreate(w)
    ray = ode.dCreateRay(None, 10.0)
    ode.dGeomSetBody(ray, b)
    ode.dBodySetPosition(b, 0, 0, 5)
    ode.dBodySetRotation(b, [1, 0, 0, 0, 0, -1, 0, 0, 0, 0, -1, 0])  # local z -> world -z
    sph = ode.dCreateSphere(None, 1.0)
    (c,) = ode.dCollide(ray, sph, 4)
    assert np.allclose(c.pos, (0, 0, 1)) and c.depth == pytest.approx(4.0)
    ode.dWorldDestroy(w)


def _on_surface_first_hit(point_depth, start, d, depth: float) -> None:
    """The hit lies on the surface and no sampled point before it is inside."""
    hit = start + depth * d
    assert abs(point_depth(hit)) < 1e-9
    for t in np.linspace(0.0, depth, 50)[:-1]:
        assert point_depth(start + t * d) < 1e-9


@pytest.mark.parametrize("kind", ["sphere", "box", "capsule", "cylinder"])
def test_random_rays_from_outside_hit_the_surface_first(kind):
    rng = np.random.default_rng(7)
    if kind == "sphere":
        g = ode.dCreateSphere(None, 0.7)
    elif kind == "box":
        g = ode.dCreateBox(None, 1.0, 0.8, 0.6)
    elif kind == "capsule":
        g = ode.dCreateCapsule(None, 0.3, 1.0)
    else:
        g = ode.dCreateCylinder(None, 0.4, 1.0)
    ode.dGeomSetPosition(g, 0.1, -0.2, 0.3)
    ode.dGeomSetRotation(g, ode.dRFromEulerAngles(0.3, -0.5, 0.8))
    pos = ode.dGeomGetPosition(g)
    R = ode.dGeomGetRotation(g).reshape(3, 4)[:, :3]

    def cylinder_depth(p: np.ndarray) -> float:
        q = R.T @ (p - pos)
        dr = 0.4 - math.hypot(q[0], q[1])
        dz = 0.5 - abs(q[2])
        if dr >= 0 and dz >= 0:
            return min(dr, dz)
        return -math.hypot(max(-dr, 0.0), max(-dz, 0.0))

    point_depth = {
        "sphere": lambda p: ode.dGeomSpherePointDepth(g, *p),
        "box": lambda p: ode.dGeomBoxPointDepth(g, *p),
        "capsule": lambda p: ode.dGeomCapsulePointDepth(g, *p),
        "cylinder": cylinder_depth,
    }[kind]
    hits = 0
    for _ in range(200):
        start = pos + rng.normal(size=3) * 1.5
        if point_depth(start) > -1e-3:
            continue
        d = (pos + rng.normal(size=3) * 0.4) - start
        d /= np.linalg.norm(d)
        ray = _make_ray(start, d, 5.0)
        cs = ode.dCollide(ray, g, 4)
        if cs:
            hits += 1
            (c,) = cs
            assert c.depth > 0 and np.allclose(c.pos, start + c.depth * d, atol=1e-12)
            _on_surface_first_hit(point_depth, start, d, c.depth)
            # outward normal at the hit: stepping along it leaves the solid
            assert point_depth(c.pos + 1e-6 * c.normal) < 0 < point_depth(c.pos - 1e-6 * c.normal)
        else:
            # a miss: no sampled point along the ray is inside
            for t in np.linspace(0.0, 5.0, 400):
                assert point_depth(start + t * d) < 1e-9
        ode.dGeomDestroy(ray)
    assert hits > 50
