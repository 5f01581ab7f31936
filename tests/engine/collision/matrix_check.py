"""Replaying ODE's collision-matrix records (tests/reference/collision_matrix.json).

Each record is one pair of matrix shapes at one placement, with ODE 0.16.2's
contacts for ``dCollide(g1, g2, 8)`` (and for the reverse order where it is
not the swapped forward set) and ``exact``, the exact-geometry deepest
contact. The acceptance rules are those of ode_ref's ``compare.py`` for an
independent implementation:

* count: ODE 0 -> 0; ODE 1..4 -> within +-1 and at least 1; ODE > 4 -> the
  same or more;
* the deepest contact's depth (for rays the nearest hit) within 1e-3; every
  normal within 2 deg of one of ODE's, ODE's deepest normal matched; for rays
  the nearest hit point within 1e-3;
* where ODE departs from the exact geometry, matching the geometry passes;
  where ODE misses a hit the geometry has, nothing or the geometric hit passes;
* rays that start inside a solid are not compared (``exact`` is None).
"""

from __future__ import annotations

import json
import math
import pathlib

import numpy as np

from engine import ode

REFERENCE = json.loads((pathlib.Path(__file__).resolve().parents[2] / "reference"
                        / "collision_matrix.json").read_text())
SHAPES = REFERENCE["params"]["shapes"]
MAX_CONTACTS = REFERENCE["params"]["max_contacts"]
DEPTH_TOL = 1e-3
ANGLE_TOL = 2.0


def make_trimesh_data():
    """The matrix's cube mesh, preprocessed as ode_ref does (CONCAVE_EDGES | FACE_ANGLES)."""
    v = np.asarray(SHAPES["trimesh"]["vertices"], dtype=float)
    idx = np.asarray(SHAPES["trimesh"]["indices"], dtype=np.uint32)
    data = ode.dGeomTriMeshDataCreate()
    ode.dGeomTriMeshDataBuildSimple(data, v, len(v), idx, len(idx))
    ode.dGeomTriMeshDataPreprocess2(
        data, (1 << ode.dTRIDATAPREPROCESS_BUILD_CONCAVE_EDGES)
        | (1 << ode.dTRIDATAPREPROCESS_BUILD_FACE_ANGLES), None)
    return data


def make_geom(kind: str, pose: dict, tmdata=None):
    """A standalone geom of matrix shape ``kind`` at the recorded ``pose``."""
    if "plane" in pose:
        return ode.dCreatePlane(None, *pose["plane"])
    if "ray" in pose:
        r = [float(x) for x in pose["ray"]]
        g = ode.dCreateRay(None, r[6])
        ode.dGeomRaySet(g, *r[:6])
        return g
    s = SHAPES[kind]
    if kind == "sphere":
        g = ode.dCreateSphere(None, s["radius"])
    elif kind == "box":
        g = ode.dCreateBox(None, *s["lengths"])
    elif kind == "capsule":
        g = ode.dCreateCapsule(None, s["radius"], s["length"])
    elif kind == "cylinder":
        g = ode.dCreateCylinder(None, s["radius"], s["length"])
    elif kind == "convex":
        g = ode.dCreateConvex(None, s["planes"], len(s["planes"]), s["points"],
                              len(s["points"]), s["polygons"])
    elif kind == "trimesh":
        g = ode.dCreateTriMesh(None, tmdata if tmdata is not None else make_trimesh_data(),
                               None, None, None)
    else:
        raise ValueError(kind)
    ode.dGeomSetPosition(g, *pose["pos"])
    ode.dGeomSetRotation(g, pose["R"])
    return g


def angle(a, b) -> float:
    """Angle in degrees between two 3-vectors (180 if one is zero)."""
    a = np.asarray(a, float)
    b = np.asarray(b, float)
    na, nb = np.linalg.norm(a), np.linalg.norm(b)
    if na == 0 or nb == 0:
        return 180.0
    return math.degrees(math.acos(max(-1.0, min(1.0, float(a @ b / (na * nb))))))


def count_ok(nb: int, nr: int) -> bool:
    if nr == 0:
        return nb == 0
    if nr <= 4:
        return nb >= 1 and abs(nb - nr) <= 1
    return nb >= nr


def _key(cs: list[dict], ray: bool) -> tuple[float, int]:
    d = [float(c["depth"]) for c in cs]
    k = min(d) if ray else max(d)
    return k, d.index(k)


def match(bc: list[dict], rc: list[dict], ray: bool, every_normal: bool = True) -> list[str]:
    """Problems of backend contacts ``bc`` against reference contacts ``rc``."""
    probs = []
    bd, bi = _key(bc, ray)
    rd, ri = _key(rc, ray)
    if abs(bd - rd) > DEPTH_TOL:
        probs.append(f"{'nearest hit' if ray else 'deepest depth'} {bd:.5f} vs {rd:.5f}")
    if every_normal:
        worst = max(min(angle(c["normal"], r["normal"]) for r in rc) for c in bc)
        if worst > ANGLE_TOL:
            probs.append(f"a normal is {worst:.1f} deg from all reference normals")
    best = min(angle(rc[ri]["normal"], c["normal"]) for c in bc)
    if best > ANGLE_TOL:
        probs.append(f"reference's key normal unmatched ({best:.1f} deg)")
    if ray and rc[ri].get("pos") is not None:
        dp = float(np.linalg.norm(np.asarray(bc[bi]["pos"]) - np.asarray(rc[ri]["pos"])))
        if dp > DEPTH_TOL:
            probs.append(f"hit point {dp:.2e} away")
    return probs


def as_dicts(contacts) -> list[dict]:
    return [{"pos": [float(x) for x in c.pos], "normal": [float(x) for x in c.normal],
             "depth": float(c.depth), "side1": c.side1, "side2": c.side2} for c in contacts]


def _swapped(cs: list[dict]) -> list[dict]:
    return [dict(c, normal=[-float(x) for x in c["normal"]], side1=c["side2"],
                 side2=c["side1"]) for c in cs]


def records(pairs: set[str] | None = None):
    """(c1, c2, record) for every record (of the named pairs ``c1-c2`` if given)."""
    for entry in REFERENCE["pairs"]:
        name = f"{entry['g1']}-{entry['g2']}"
        if pairs is not None and name not in pairs:
            continue
        for rec in entry["placements"]:
            yield entry["g1"], entry["g2"], rec


def check_record(c1: str, c2: str, rec: dict, order: str, tmdata=None) -> list[str]:
    """Problems of engine.ode's dCollide on one record in one argument order."""
    ray = "ray" in (c1, c2)
    g1 = make_geom(c1, rec["pose"]["g1"], tmdata)
    g2 = make_geom(c2, rec["pose"]["g2"], tmdata)
    # ODE's dCollide reads AABBs some colliders rely on; the records were made fresh
    ode.dGeomGetAABB(g1)
    ode.dGeomGetAABB(g2)
    exact = rec.get("exact")
    if order == "forward":
        rc = rec["contacts"]
        bc = as_dicts(ode.dCollide(g1, g2, MAX_CONTACTS))
    else:
        rc = rec["reverse_contacts"] if "reverse_contacts" in rec else _swapped(rec["contacts"])
        bc = as_dicts(ode.dCollide(g2, g1, MAX_CONTACTS))
        if exact is not None and exact.get("normal") is not None:
            exact = dict(exact, normal=[-x for x in exact["normal"]])
    probs: list[str] = []
    for c in bc:
        if c["depth"] < 0 or abs(np.linalg.norm(c["normal"]) - 1.0) > 1e-9:
            probs.append(f"bad contact {c}")
    geo = exact is not None and not exact.get("separated") and exact.get("normal") is not None
    geo_sep = exact is not None and exact.get("separated")
    tcs = None
    if geo:
        tcs = [{"pos": exact.get("pos") or [0, 0, 0], "normal": exact["normal"],
                "depth": exact["depth"]}]
    nb, nr = len(bc), len(rc)
    if nr == 0 and geo:
        # ODE misses a contact the geometry has: nothing, or the geometric one
        if nb > 4:
            probs.append(f"{nb} contacts (ODE 0, geometry 1)")
        elif nb:
            probs += match(bc, tcs, ray, False)
    elif nr > 0 and geo_sep:
        if nb and not count_ok(nb, nr):
            probs.append(f"{nb} contacts vs ODE {nr}")
        elif nb:
            probs += match(bc, rc, ray)
    elif not count_ok(nb, nr):
        probs.append(f"{nb} contacts vs ODE {nr}")
    elif nb and nr:
        p = match(bc, rc, ray)
        if p and geo and not match(bc, tcs, ray, False):
            p = []
        probs += p
    return probs


def skipped(c1: str, c2: str, rec: dict) -> bool:
    """Records not compared: a ray starting inside a solid (docs/ode-behaviour.md)."""
    return "ray" in (c1, c2) and c1 != c2 and rec.get("exact") is None
