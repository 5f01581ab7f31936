"""Trimesh colliders: trimesh against sphere, box, capsule, plane and ray.

Registered with the trimesh first, as ODE does: contact rows ``pos (3),
normal (3), depth, side1, side2`` with ``side1`` = the triangle index and
``side2`` = -1, the normal pointing into the trimesh (g1); :mod:`dispatch`
serves the other argument order by swapping. Each triangle is a one-sided
surface, not part of a solid, as in ODE (a shape whose centre is behind a
triangle's plane gets no contact from it), so deep contacts follow the
surface, not the solid's exact penetration (docs/ode-behaviour.md).

The triangles a shape touches are, as OPCODE's queries give them, those
whose bounds overlap the shape's box and that overlap the shape itself
(sphere), its oriented box (box) or the capsule's oriented box (capsule);
the array callback sees them all, then the per-triangle callback may drop
each (:meth:`TriMesh.filter_triangles`). Triangles are tested in index order
(OPCODE's tree order differs: when ``max_contacts`` cuts the list, the
survivors may differ from ODE's). Per pair:

* sphere: one contact per touched triangle, at the closest point of the
  triangle, normal = minus the face normal, depth = (radius - distance)
  times the cosine between the face normal and the centre's direction;
* box: per triangle, ODE's 13-axis separating test (triangle normal, the
  box's 3 face axes, 9 edge crossings, edges favoured only when 1.5 times
  shallower); face axes clip the box face by the triangle's prism or the
  triangle by the box's slab, edge axes give the midpoint of the closest
  points; equal contacts are merged, and when ``max_contacts`` are stored a
  deeper contact replaces the shallowest;
* capsule: per triangle, ODE's separating axes (face normal, crossings with
  the edges and vertices allowed by the mesh's concave-edge use flags); the
  capsule's side segment, moved by the radius towards the triangle, is
  clipped to the triangle's prism below its plane: two contacts, near
  duplicates merged;
* plane: every mesh vertex behind the plane, once, with the first triangle
  (in index order) that uses it; the callbacks are honoured too (ODE
  0.16.2's plane collider ignores them);
* ray: every triangle the ray crosses within its length (both faces unless
  BackfaceCull), normal = the face normal reversed, depth = the distance
  from the start; ClosestHit keeps the nearest, FirstContact the first found
  (lowest triangle index). The ray callback then the per-triangle callback
  may drop hits. Computed in double precision (ODE's OPCODE uses single).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from engine.ode.collision.geoms.trimesh import TriMesh
from engine.ode.collision.geoms.trimesh_data import USE_ALL
from engine.ode.collision.pairs.trimesh_box_capsule import (
    trimesh_box_kernel,
    trimesh_capsule_kernel,
)
from engine.ode.collision.table import NO_CONTACTS
from engine.ode.constants import (
    dEpsilon,
)
from engine.ode.kernels.detlinalg import matmul, norm

_DEPS = dEpsilon


# ----------------------------------------------------------------------------- sphere
@njit(cache=True, nogil=True)
def _closest_on_triangle(p: np.ndarray, a: np.ndarray, b: np.ndarray, c: np.ndarray,
                         out: np.ndarray) -> None:
    """Closest point ``out`` (3,) of triangle (a, b, c) to point p, by the
    Voronoi region of p (vertex, edge or face)."""
    ab = b - a
    ac = c - a
    ap = p - a
    d1 = ab[0] * ap[0] + ab[1] * ap[1] + ab[2] * ap[2]
    d2 = ac[0] * ap[0] + ac[1] * ap[1] + ac[2] * ap[2]
    if d1 <= 0.0 and d2 <= 0.0:
        out[:] = a
        return
    bp = p - b
    d3 = ab[0] * bp[0] + ab[1] * bp[1] + ab[2] * bp[2]
    d4 = ac[0] * bp[0] + ac[1] * bp[1] + ac[2] * bp[2]
    if d3 >= 0.0 and d4 <= d3:
        out[:] = b
        return
    vc = d1 * d4 - d3 * d2
    if vc <= 0.0 and d1 >= 0.0 and d3 <= 0.0:
        t = d1 / (d1 - d3)
        out[:] = a + t * ab
        return
    cp = p - c
    d5 = ab[0] * cp[0] + ab[1] * cp[1] + ab[2] * cp[2]
    d6 = ac[0] * cp[0] + ac[1] * cp[1] + ac[2] * cp[2]
    if d6 >= 0.0 and d5 <= d6:
        out[:] = c
        return
    vb = d5 * d2 - d1 * d6
    if vb <= 0.0 and d2 >= 0.0 and d6 <= 0.0:
        t = d2 / (d2 - d6)
        out[:] = a + t * ac
        return
    va = d3 * d6 - d5 * d4
    if va <= 0.0 and (d4 - d3) >= 0.0 and (d5 - d6) >= 0.0:
        t = (d4 - d3) / ((d4 - d3) + (d5 - d6))
        out[:] = b + t * (c - b)
        return
    denom = 1.0 / (va + vb + vc)
    v = vb * denom
    w = vc * denom
    out[:] = a + v * ab + w * ac


@njit(cache=True, nogil=True)
def trimesh_sphere_kernel(tris: np.ndarray, idx: np.ndarray, center: np.ndarray,
                          radius: float, max_contacts: int, out: np.ndarray) -> int:
    """Contacts of triangles ``tris`` (k, 3, 3) (world, m; indices ``idx``)
    with a sphere (center (3,), radius m) into ``out`` (max_contacts, 9);
    returns the count."""
    n = np.empty(3)
    q = np.empty(3)
    count = 0
    for t in range(tris.shape[0]):
        if count >= max_contacts:
            break
        a = tris[t, 0]
        b = tris[t, 1]
        c = tris[t, 2]
        e1 = b - a
        e2 = c - a
        n[0] = e1[1] * e2[2] - e1[2] * e2[1]
        n[1] = e1[2] * e2[0] - e1[0] * e2[2]
        n[2] = e1[0] * e2[1] - e1[1] * e2[0]
        ln = math.sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2])
        if ln == 0.0:
            continue
        n /= ln
        # the centre must be on the outer side of the triangle's plane
        if n[0] * (center[0] - a[0]) + n[1] * (center[1] - a[1]) + n[2] * (center[2] - a[2]) < 0:
            continue
        _closest_on_triangle(center, a, b, c, q)
        d0 = center[0] - q[0]
        d1 = center[1] - q[1]
        d2 = center[2] - q[2]
        dist = math.sqrt(d0 * d0 + d1 * d1 + d2 * d2)
        if dist > radius:
            continue
        # depth along the direction to the centre, projected on the normal
        proj = 1.0 if dist == 0.0 else (n[0] * d0 + n[1] * d1 + n[2] * d2) / dist
        if proj < 0.0:
            continue
        out[count, 0:3] = q
        out[count, 3:6] = -n
        out[count, 6] = (radius - dist) * proj
        out[count, 7] = idx[t]
        out[count, 8] = -1.0
        count += 1
    return count


# ----------------------------------------------------------------------------- ray
@njit(cache=True, nogil=True)
def ray_triangle_hits(tris: np.ndarray, start: np.ndarray, d: np.ndarray, length: float,
                      cull: bool, out: np.ndarray) -> int:
    """Crossings of the ray (start (3,), unit dir d (3,), length m) with
    triangles ``tris`` (k, 3, 3): ``out`` (k, 4) rows (triangle position in
    tris, distance, u, v) with the point ``v0 + u (v1 - v0) + v (v2 - v0)``;
    returns the count. ``cull`` ignores triangles seen from behind (the ray
    along their outward normal). Edges count as hits."""
    count = 0
    for t in range(tris.shape[0]):
        a = tris[t, 0]
        e1 = tris[t, 1] - a
        e2 = tris[t, 2] - a
        pv = np.cross(d, e2)
        det = e1[0] * pv[0] + e1[1] * pv[1] + e1[2] * pv[2]
        # det > 0: the ray meets the front (outer) face
        if cull:
            if det <= 1e-12:
                continue
        elif abs(det) <= 1e-12:
            continue
        inv = 1.0 / det
        s = start - a
        u = (s[0] * pv[0] + s[1] * pv[1] + s[2] * pv[2]) * inv
        if u < 0.0 or u > 1.0:
            continue
        qv = np.cross(s, e1)
        v = (d[0] * qv[0] + d[1] * qv[1] + d[2] * qv[2]) * inv
        if v < 0.0 or u + v > 1.0:
            continue
        dist = (e2[0] * qv[0] + e2[1] * qv[1] + e2[2] * qv[2]) * inv
        if dist < 0.0 or dist > length:
            continue
        out[count, 0] = t
        out[count, 1] = dist
        out[count, 2] = u
        out[count, 3] = v
        count += 1
    return count


# ----------------------------------------------------------------------------- touched triangles
@njit(cache=True, nogil=True)
def _interval_apart(L, tri, c, R, h) -> bool:
    """True when axis L separates the triangle (3, 3) from the box (centre c,
    rotation R, half sizes h)."""
    lo = np.inf
    hi = -np.inf
    for k in range(3):
        s = L[0] * (tri[k, 0] - c[0]) + L[1] * (tri[k, 1] - c[1]) + L[2] * (tri[k, 2] - c[2])
        lo = min(lo, s)
        hi = max(hi, s)
    r = 0.0
    for i in range(3):
        r += h[i] * abs(L[0] * R[0, i] + L[1] * R[1, i] + L[2] * R[2, i])
    return lo > r or hi < -r


@njit(cache=True, nogil=True)
def obb_touches(tris: np.ndarray, c: np.ndarray, R: np.ndarray, h: np.ndarray) -> np.ndarray:
    """Mask (k,) of the triangles (k, 3, 3) that overlap the box (centre (3,),
    rotation (3, 3), half sizes (3,)): no separating axis among the box axes,
    the triangle normal and the 9 edge crossings (touching counts)."""
    out = np.zeros(tris.shape[0], dtype=np.bool_)
    e = np.empty((3, 3))
    for t in range(tris.shape[0]):
        tri = tris[t]
        e[0] = tri[1] - tri[0]
        e[1] = tri[2] - tri[1]
        e[2] = tri[0] - tri[2]
        apart = _interval_apart(np.cross(e[0], e[1]), tri, c, R, h)
        for i in range(3):
            if apart:
                break
            apart = _interval_apart(R[:, i].copy(), tri, c, R, h)
        for i in range(3):
            for j in range(3):
                if not apart:
                    apart = _interval_apart(np.cross(R[:, i].copy(), e[j]), tri, c, R, h)
        out[t] = not apart
    return out


@njit(cache=True, nogil=True)
def sphere_touches(tris: np.ndarray, center: np.ndarray, radius: float) -> np.ndarray:
    """Mask (k,) of the triangles (k, 3, 3) within ``radius`` of ``center``."""
    out = np.zeros(tris.shape[0], dtype=np.bool_)
    q = np.empty(3)
    for t in range(tris.shape[0]):
        _closest_on_triangle(center, tris[t, 0], tris[t, 1], tris[t, 2], q)
        d = center - q
        out[t] = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] <= radius * radius
    return out


# ----------------------------------------------------------------------------- colliders
def _frame(g) -> tuple[np.ndarray, np.ndarray]:
    return (np.ascontiguousarray(g.pos, dtype=np.float64),
            np.ascontiguousarray(g.R, dtype=np.float64))


def _candidates(tm: TriMesh, other, exact) -> tuple[np.ndarray, np.ndarray]:
    """(indices (k,), world triangles (k, 3, 3)) touching ``other``: those whose
    bounds overlap its box and that ``exact(tris) -> mask`` keeps (OPCODE's
    primitive test), then after the array and per-triangle callbacks."""
    idx = tm.touched_triangles(other.compute_aabb())
    if idx.size:
        idx = idx[exact(np.ascontiguousarray(tm.world_triangles(idx)))]
    idx = tm.filter_triangles(other, idx)
    if idx.size == 0:
        return idx, np.zeros((0, 3, 3))
    return idx, np.ascontiguousarray(tm.world_triangles(idx))


def trimesh_sphere(tm: TriMesh, sphere, max_contacts: int) -> np.ndarray:
    """Contacts (k, 9) of a trimesh with a sphere (one per touched triangle)."""
    centre = np.ascontiguousarray(sphere.pos, dtype=np.float64)
    radius = float(sphere.radius)
    idx, tris = _candidates(tm, sphere, lambda t: sphere_touches(t, centre, radius))
    if idx.size == 0:
        return NO_CONTACTS
    out = np.empty((max_contacts, 9))
    n = trimesh_sphere_kernel(tris, idx, centre, radius, max_contacts, out)
    return out[:n]


def trimesh_box(tm: TriMesh, box, max_contacts: int) -> np.ndarray:
    """Contacts (k, 9) of a trimesh with a box (face contacts clipped, up to
    max_contacts, the deepest kept)."""
    c, R = _frame(box)
    sides = np.ascontiguousarray(box.lengths, dtype=np.float64)
    idx, tris = _candidates(tm, box, lambda t: obb_touches(t, c, R, 0.5 * sides))
    if idx.size == 0:
        return NO_CONTACTS
    out = np.empty((max_contacts, 9))
    n = trimesh_box_kernel(tris, idx, c, R, sides, max_contacts, out)
    return out[:n]


def trimesh_capsule(tm: TriMesh, capsule, max_contacts: int) -> np.ndarray:
    """Contacts (k, 9) of a trimesh with a capsule (two per touched triangle,
    near duplicates merged)."""
    c, R = _frame(capsule)
    # OPCODE's query box of the capsule: radius across, half length + radius along
    r = float(capsule.radius)
    h = np.array([r, r, 0.5 * float(capsule.length) + r])
    idx, tris = _candidates(tm, capsule, lambda t: obb_touches(t, c, R, h))
    if idx.size == 0:
        return NO_CONTACTS
    flags_all = tm.mesh_data.smart_use_flags()
    flags = (np.full(idx.size, USE_ALL, dtype=np.uint8) if flags_all is None
             else np.ascontiguousarray(flags_all[idx], dtype=np.uint8))
    out = np.empty((max_contacts, 9))
    n = trimesh_capsule_kernel(tris, idx, flags, c, np.ascontiguousarray(R[:, 2]),
                               float(capsule.radius), float(capsule.length), max_contacts, out)
    return out[:n]


def trimesh_plane(tm: TriMesh, plane, max_contacts: int) -> np.ndarray:
    """Contacts (k, 9) of a trimesh with a plane: each mesh vertex behind it,
    once, with the first (lowest index) triangle that uses it."""
    d = tm.mesh_data
    if d.triangle_count == 0:
        return NO_CONTACTS
    n, off = plane.params[:3], float(plane.params[3])
    w = tm.world_vertices()
    behind = off - matmul(w, n)
    tri_behind = np.nonzero((behind[d.triangles] > 0.0).any(axis=1))[0]
    tri_ok = tm.filter_triangles(plane, tri_behind.astype(np.int64))
    if tri_ok.size == 0:
        return NO_CONTACTS
    # each vertex goes with the first allowed triangle using it
    verts = d.triangles[tri_ok].reshape(-1)
    owners = np.repeat(tri_ok, 3)
    first = np.unique(verts, return_index=True)[1]
    order = np.sort(first)              # in triangle order, vertex order within it
    v_sel = verts[order]
    own = owners[order]
    hit = behind[v_sel] > 0.0
    v_sel, own = v_sel[hit][:max_contacts], own[hit][:max_contacts]
    out = np.empty((v_sel.size, 9))
    out[:, 0:3] = w[v_sel]
    out[:, 3:6] = n
    out[:, 6] = behind[v_sel]
    out[:, 7] = own
    out[:, 8] = -1.0
    return out


def trimesh_ray(tm: TriMesh, ray, max_contacts: int) -> np.ndarray:
    """Contacts (k, 9) of a trimesh with a ray: its crossings within the ray's
    length (see the module doc for the ray flags and callbacks)."""
    d = tm.mesh_data
    if d.triangle_count == 0:
        return NO_CONTACTS
    idx = tm.touched_triangles(ray.compute_aabb())
    if idx.size == 0:
        return NO_CONTACTS
    tris = np.ascontiguousarray(tm.world_triangles(idx))
    start = np.ascontiguousarray(ray.pos, dtype=np.float64)
    direction = np.ascontiguousarray(ray.R[:, 2], dtype=np.float64)
    hits = np.empty((idx.size, 4))
    n = ray_triangle_hits(tris, start, direction, float(ray.length), bool(ray.backface_cull),
                          hits)
    hits = hits[:n]
    if n > 1 and (ray.first_contact or ray.closest_hit):
        # OPCODE reports one hit then: the first found, or the nearest
        hits = hits[:1] if ray.first_contact else hits[[int(np.argmin(hits[:, 1]))]]
    rows = []
    for pos_in, dist, u, v in hits:
        k = int(pos_in)
        tri = int(idx[k])
        if tm.ray_callback is not None and not tm.ray_callback(tm, ray, tri, float(u), float(v)):
            continue
        if tm.callback is not None and not tm.callback(tm, ray, tri):
            continue
        a, b, c = tris[k]
        # the face normal reversed (ODE's convention for the trimesh side)
        nrm = np.cross(c - a, b - a)
        nrm /= norm(nrm)
        rows.append([*(start + dist * direction), *nrm, dist, tri, -1.0])
        if len(rows) >= max_contacts:
            break
    return np.array(rows) if rows else NO_CONTACTS
