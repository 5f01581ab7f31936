"""Colliders of the heightfield with rays, spheres, boxes, capsules,
cylinders, convexes and trimeshes, following ODE 0.16.2's dCollideHeightfield.

The other geom is taken into the heightfield's frame (local y up, origin
at the grid corner (sample 0, 0)), its AABB recomputed there, and the grid
cells under that AABB examined:

* if the shape's AABB lies entirely above every sample of the zone, no
  contact; if entirely below, one contact at (shape x, lowest sample,
  shape z) with normal -y and depth = lowest sample - AABB top;
* if the zone is flat (height spread < DBL_EPSILON), the shape is collided
  with that horizontal plane and every plane contact is kept;
* otherwise the cell triangles with a vertex above the AABB bottom are
  grouped by plane (same normal and offset within DBL_EPSILON), the groups
  sorted by ascending highest vertex, and the shape collided with each
  group's plane (at most 10 points per plane); a plane contact is kept if
  its (x, z) lies in one of the group's triangles. Then, when the shape is
  more than 1.5 cells wide (always for a trimesh, never for a ray), the
  vertices of triangles whose plane gave nothing become contacts where the
  shape's point-depth function says they are inside it (sphere, box,
  capsule). ODE's fallback for the other classes casts a ray of negative
  length from the vertex: cylinder and convex ray colliders then never hit,
  so nothing is added; for a trimesh, OPCODE reads the negative length as
  "unbounded" while culling its AABB-tree nodes against the backward
  segment, so some vertices do give contacts there, depending on OPCODE's
  tree layout. That part is not reproduced: our trimesh contacts are ODE's
  plane-pass contacts, which ODE returns first (its extra vertex contacts
  follow them).

Contact rows (k, 9) are ``pos (3), normal (3), depth, side1, side2`` for
(heightfield, other): the normal is minus the triangle's upward normal, so
it points into the heightfield. The sides are those of the plane collider
(-1), except that ODE copies a trimesh-plane contact's triangle index into
side1 (the heightfield's side) for trimeshes, which we keep. Lengths in
metres.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from engine.ode.collision.geoms.geom import Geom
from engine.ode.collision.geoms.heightfield import Heightfield, data_of
from engine.ode.collision.pairs.colliders_cylinder import cylinder_plane_kernel
from engine.ode.collision.pairs.colliders_plane import box_plane_kernel, capsule_plane_kernel
from engine.ode.collision.pairs.colliders_ray import ray_plane_kernel
from engine.ode.collision.table import NO_CONTACTS
from engine.ode.constants import (
    dBoxClass,
    dCapsuleClass,
    dConvexClass,
    dCylinderClass,
    dEpsilon,
    dRayClass,
    dSphereClass,
    dTriMeshClass,
)
from engine.ode.errors import ODEError

__all__: list[str] = []

#: ODE's dEpsilon for a double build (DBL_EPSILON).
EPS = dEpsilon
#: Most contacts ODE takes from one triangle plane (HEIGHTFIELDMAXCONTACTPERCELL).
PER_PLANE = 10

#: Shape kinds understood by the kernels.
KIND_RAY, KIND_SPHERE, KIND_BOX, KIND_CAPSULE, KIND_CYLINDER, KIND_CONVEX, KIND_TRIMESH = range(7)


# --------------------------------------------------------------------------
# kernels
# --------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def local_pose(hf_pos: np.ndarray, hf_R: np.ndarray, placeable: bool, half_w: float,
               half_d: float, pos: np.ndarray, R: np.ndarray) -> tuple:
    """A shape pose (pos (3,), R (3, 3), world) in the heightfield's corner
    frame: (pos (3,), R (3, 3)) = (hf_R^T (pos - hf_pos) + (half_w, 0, half_d),
    hf_R^T R); a non-placeable field only shifts (it sits at the origin)."""
    lp = np.empty(3)
    lR = np.empty((3, 3))
    if placeable:
        d0 = pos[0] - hf_pos[0]
        d1 = pos[1] - hf_pos[1]
        d2 = pos[2] - hf_pos[2]
        for i in range(3):
            lp[i] = hf_R[0, i] * d0 + hf_R[1, i] * d1 + hf_R[2, i] * d2
            for j in range(3):
                lR[i, j] = hf_R[0, i] * R[0, j] + hf_R[1, i] * R[1, j] + hf_R[2, i] * R[2, j]
    else:
        for i in range(3):
            lp[i] = pos[i]
            for j in range(3):
                lR[i, j] = R[i, j]
    lp[0] += half_w
    lp[2] += half_d
    return lp, lR


@njit(cache=True, nogil=True)
def shape_aabb(kind: int, pos: np.ndarray, R: np.ndarray, dims: np.ndarray,
               points: np.ndarray) -> np.ndarray:
    """The AABB (6,) [minx, maxx, miny, maxy, minz, maxz] of a shape at (pos, R)
    computed as ODE's classes do. dims: ray [length]; sphere [r]; box
    [lx, ly, lz]; capsule, cylinder [r, length]; trimesh [centre (3),
    half extents (3)] of its local bounds; convex: ``points`` (n, 3)."""
    out = np.empty(6)
    if kind == KIND_TRIMESH:
        # the world box around the rotated box of the mesh's local bounds
        for i in range(3):
            c = R[i, 0] * dims[0] + R[i, 1] * dims[1] + R[i, 2] * dims[2]
            ext = abs(R[i, 0] * dims[3]) + abs(R[i, 1] * dims[4]) + abs(R[i, 2] * dims[5])
            out[2 * i] = c + pos[i] - ext
            out[2 * i + 1] = c + pos[i] + ext
        return out
    if kind == KIND_RAY:
        for i in range(3):
            e = pos[i] + R[i, 2] * dims[0]
            if pos[i] < e:
                out[2 * i] = pos[i]
                out[2 * i + 1] = e
            else:
                out[2 * i] = e
                out[2 * i + 1] = pos[i]
        return out
    if kind == KIND_CONVEX:
        for i in range(3):
            lo = math.inf
            hi = -math.inf
            for k in range(points.shape[0]):
                v = (R[i, 0] * points[k, 0] + R[i, 1] * points[k, 1]
                     + R[i, 2] * points[k, 2]) + pos[i]
                lo = min(lo, v)
                hi = max(hi, v)
            out[2 * i] = lo
            out[2 * i + 1] = hi
        return out
    for i in range(3):
        if kind == KIND_SPHERE:
            ext = dims[0]
        elif kind == KIND_BOX:
            ext = 0.5 * (abs(R[i, 0] * dims[0]) + abs(R[i, 1] * dims[1])
                         + abs(R[i, 2] * dims[2]))
        elif kind == KIND_CAPSULE:
            ext = abs(R[i, 2] * dims[1]) * 0.5 + dims[0]
        else:
            ext = (abs(R[i, 2] * dims[1] * 0.5)
                   + dims[0] * math.sqrt(max(0.0, 1.0 - R[i, 2] * R[i, 2])))
        out[2 * i] = pos[i] - ext
        out[2 * i + 1] = pos[i] + ext
    return out


@njit(cache=True, nogil=True)
def _convex_plane(pos: np.ndarray, R: np.ndarray, points: np.ndarray, plane: np.ndarray,
                  maxc: int) -> np.ndarray:
    """ODE's convex-plane contacts (k, 9): the hull points on or behind the
    plane (depth = distance behind it), none unless the hull has points on
    both sides (or on the plane); stops early as ODE does."""
    out = np.empty((max(maxc, 1), 9))
    n = 0
    below = False
    above = False
    for k in range(points.shape[0]):
        v = np.empty(3)
        for i in range(3):
            v[i] = (R[i, 0] * points[k, 0] + R[i, 1] * points[k, 1]
                    + R[i, 2] * points[k, 2]) + pos[i]
        dist = (plane[0] * v[0] + plane[1] * v[1] + plane[2] * v[2]) - plane[3]
        if dist <= 0.0:
            below = True
            if dist == 0.0:
                above = True
            if n != maxc:
                for i in range(3):
                    out[n, i] = v[i]
                    out[n, 3 + i] = plane[i]
                out[n, 6] = -dist
                out[n, 7] = -1.0
                out[n, 8] = -1.0
                n += 1
        else:
            above = True
        if n == maxc and below and above:
            break
    if below and above:
        return out[:n]
    return out[:0]


@njit(cache=True, nogil=True)
def _trimesh_plane(pos: np.ndarray, R: np.ndarray, verts: np.ndarray, tris: np.ndarray,
                   plane: np.ndarray, maxc: int) -> np.ndarray:
    """ODE's (OPCODE) trimesh-plane contacts (k, 9): every mesh vertex
    strictly behind the plane, once, in triangle order; side1 = the index of
    the first triangle using it. ``verts`` (n, 3) are the mesh vertices in
    the precision OPCODE keeps (float32), ``tris`` (t, 3) int64."""
    out = np.empty((max(maxc, 1), 9))
    used = np.zeros(verts.shape[0], dtype=np.bool_)
    n = 0
    for t in range(tris.shape[0]):
        for a in range(3):
            vi = tris[t, a]
            if used[vi]:
                continue
            used[vi] = True
            v = np.empty(3)
            for i in range(3):
                v[i] = (R[i, 0] * verts[vi, 0] + R[i, 1] * verts[vi, 1]
                        + R[i, 2] * verts[vi, 2]) + pos[i]
            alpha = plane[3] - (plane[0] * v[0] + plane[1] * v[1] + plane[2] * v[2])
            if alpha > 0.0:
                for i in range(3):
                    out[n, i] = v[i]
                    out[n, 3 + i] = plane[i]
                out[n, 6] = alpha
                out[n, 7] = t
                out[n, 8] = -1.0
                n += 1
                if n >= maxc:
                    return out[:n]
    return out[:n]


@njit(cache=True, nogil=True)
def plane_contacts(kind: int, pos: np.ndarray, R: np.ndarray, dims: np.ndarray,
                   points: np.ndarray, tris: np.ndarray, plane: np.ndarray,
                   maxc: int) -> np.ndarray:
    """Contacts (k, 9) of the shape with the plane (4,) = unit normal n, d
    (n.x = d), normals = n, as ODE's plane colliders give them."""
    if kind == KIND_TRIMESH:
        return _trimesh_plane(pos, R, points, tris, plane, maxc)
    if kind == KIND_SPHERE:
        out = np.empty((1, 9))
        depth = plane[3] - (pos[0] * plane[0] + pos[1] * plane[1] + pos[2] * plane[2]) + dims[0]
        if depth < 0.0:
            return out[:0]
        for i in range(3):
            out[0, i] = pos[i] - plane[i] * dims[0]
            out[0, 3 + i] = plane[i]
        out[0, 6] = depth
        out[0, 7] = -1.0
        out[0, 8] = -1.0
        return out
    if kind == KIND_BOX:
        return box_plane_kernel(pos, R, dims, plane, maxc)
    if kind == KIND_CAPSULE:
        return capsule_plane_kernel(pos, R, dims[0], dims[1], plane, maxc)
    if kind == KIND_CYLINDER:
        return cylinder_plane_kernel(pos, R, dims[0], dims[1], plane, maxc)
    if kind == KIND_CONVEX:
        return _convex_plane(pos, R, points, plane, maxc)
    out = np.empty((1, 9))
    d = np.empty(3)
    for i in range(3):
        d[i] = R[i, 2]
    if ray_plane_kernel(pos, d, dims[0], plane, out[0]):
        return out
    return out[:0]


@njit(cache=True, nogil=True)
def point_depth(kind: int, pos: np.ndarray, R: np.ndarray, dims: np.ndarray,
                p: np.ndarray) -> float:
    """Depth (m, > 0 inside) of point p (3,) in a sphere, box or capsule as
    ODE's dGeom*PointDepth; -1 for the classes without one."""
    if kind == KIND_SPHERE:
        return dims[0] - math.sqrt((p[0] - pos[0]) * (p[0] - pos[0])
                                   + (p[1] - pos[1]) * (p[1] - pos[1])
                                   + (p[2] - pos[2]) * (p[2] - pos[2]))
    if kind == KIND_BOX:
        q = np.empty(3)
        for i in range(3):
            q[i] = (R[0, i] * (p[0] - pos[0]) + R[1, i] * (p[1] - pos[1])
                    + R[2, i] * (p[2] - pos[2]))
        best = math.inf
        for i in range(3):
            half = dims[i] * 0.5
            a = half - q[i]
            b = half + q[i]
            if a < 0.0 or b < 0.0:
                # outside: only the sign matters to the heightfield
                return -1.0
            best = min(best, a, b)
        return best
    if kind == KIND_CAPSULE:
        beta = ((p[0] - pos[0]) * R[0, 2] + (p[1] - pos[1]) * R[1, 2]
                + (p[2] - pos[2]) * R[2, 2])
        h = dims[1] * 0.5
        beta = min(max(beta, -h), h)
        s = 0.0
        for i in range(3):
            c = p[i] - (pos[i] + beta * R[i, 2])
            s += c * c
        return dims[0] - math.sqrt(s)
    return -1.0


@njit(cache=True, nogil=True)
def _on_triangle(cx: int, cz: int, up: bool, px: float, pz: float, sw: float, sd: float,
                 aspect: float) -> bool:
    """Whether (px, pz) lies in the triangle whose first vertex is sample
    (cx, cz): the upper-left triangle of cell (cx, cz) when ``up``, else the
    lower-right one of cell (cx - 1, cz - 1). Half-open bounds and a strict /
    non-strict diagonal test put every point in exactly one triangle."""
    if up:
        x0 = cx * sw
        if px < x0 or px >= (cx + 1) * sw:
            return False
        z0 = cz * sd
        if pz < z0:
            return False
        z1 = (cz + 1) * sd
        if pz >= z1:
            return False
        return (z1 - pz) > (px - x0) * aspect
    if px >= cx * sw:
        return False
    x0 = (cx - 1) * sw
    if px < x0:
        return False
    z1 = cz * sd
    if pz >= z1 or pz < (cz - 1) * sd:
        return False
    return (z1 - pz) <= (px - x0) * aspect


@njit(cache=True, nogil=True)
def _emit(out: np.ndarray, n: int, p: np.ndarray, nx: float, ny: float, nz: float,
          depth: float, s1: float, s2: float) -> None:
    for i in range(3):
        out[n, i] = p[i]
    out[n, 3] = -nx
    out[n, 4] = -ny
    out[n, 5] = -nz
    out[n, 6] = depth
    out[n, 7] = s1
    out[n, 8] = s2


@njit(cache=True, nogil=True)
def heightfield_zone_kernel(kind: int, H: np.ndarray, x0: int, z0: int, sw: float, sd: float,
                            aspect: float, pos: np.ndarray, R: np.ndarray, dims: np.ndarray,
                            points: np.ndarray, tris: np.ndarray, aabb: np.ndarray,
                            max_contacts: int, further: bool) -> np.ndarray:
    """Contacts (k, 9) in the corner frame between the heightfield zone of
    samples x0.., z0.. with heights H (nx, nz) m (sample spacing sw, sd;
    aspect = sd / sw) and a shape (kind, pos, R, dims, points as in
    :func:`shape_aabb`, a trimesh's vertices in ``points`` and its
    triangles (t, 3) in ``tris``; AABB ``aabb`` in the same frame)."""
    nx = H.shape[0]
    nz = H.shape[1]
    # no more contacts than plane points per triangle plus vertices (or hull points)
    cap = min(max_contacts, PER_PLANE * 2 * nx * nz + nx * nz + points.shape[0] + 4)
    out = np.empty((cap, 9))
    lo_o2 = aabb[2]
    hi_o2 = aabb[3]
    max_y = -math.inf
    min_y = math.inf
    for i in range(nx):
        for j in range(nz):
            max_y = max(max_y, H[i, j])
            min_y = min(min_y, H[i, j])
    if lo_o2 - max_y > -EPS:
        return out[:0]
    if min_y - hi_o2 > -EPS:
        # the shape is entirely under the zone: push it down below the lowest sample
        out[0, 0] = pos[0]
        out[0, 1] = min_y
        out[0, 2] = pos[2]
        out[0, 3] = 0.0
        out[0, 4] = -1.0
        out[0, 5] = 0.0
        out[0, 6] = min_y - hi_o2
        out[0, 7] = -1.0
        out[0, 8] = -1.0
        return out[:1]
    if max_y - min_y < EPS:
        # a flat zone is one plane, and every contact with it counts
        flat = np.array([0.0, 1.0, 0.0, min_y])
        c = plane_contacts(kind, pos, R, dims, points, tris, flat, max_contacts)
        k = min(c.shape[0], cap)
        for m in range(k):
            _emit(out, m, c[m, 0:3], 0.0, 1.0, 0.0, c[m, 6], c[m, 7], c[m, 8])
        return out[:k]

    # --- triangles with a vertex above the shape's lowest point, in ODE's order:
    # cell (i, j) has corners A (i, j), B (i+1, j), C (i, j+1), D (i+1, j+1);
    # "up" triangle A, B, C and "down" triangle D, B, C
    ncell = (nx - 1) * (nz - 1)
    tv = np.empty((2 * ncell, 3, 2), dtype=np.int64)
    tup = np.empty(2 * ncell, dtype=np.bool_)
    tstate = np.zeros(2 * ncell, dtype=np.bool_)
    tmax = np.empty(2 * ncell)
    vstate = np.zeros((nx, nz), dtype=np.bool_)
    ntri = 0
    for i in range(nx - 1):
        for j in range(nz - 1):
            ha = H[i, j]
            hb = H[i + 1, j]
            hc = H[i, j + 1]
            hd = H[i + 1, j + 1]
            ca = ha > lo_o2
            cb = hb > lo_o2
            cc = hc > lo_o2
            cd = hd > lo_o2
            # a vertex below the shape's AABB never needs a vertex test
            vstate[i, j] = not ca
            vstate[i + 1, j] = not cb
            vstate[i, j + 1] = not cc
            vstate[i + 1, j + 1] = not cd
            if ca or cb or cc:
                tv[ntri, 0, 0] = i
                tv[ntri, 0, 1] = j
                tv[ntri, 1, 0] = i + 1
                tv[ntri, 1, 1] = j
                tv[ntri, 2, 0] = i
                tv[ntri, 2, 1] = j + 1
                m = ha if ha > hb else hb
                tmax[ntri] = hc if hc > m else m
                tup[ntri] = True
                ntri += 1
            if cb or cc or cd:
                tv[ntri, 0, 0] = i + 1
                tv[ntri, 0, 1] = j + 1
                tv[ntri, 1, 0] = i + 1
                tv[ntri, 1, 1] = j
                tv[ntri, 2, 0] = i
                tv[ntri, 2, 1] = j + 1
                m = hd if hd > hb else hb
                tmax[ntri] = hc if hc > m else m
                tup[ntri] = False
                ntri += 1
            if further and (cb or cc) and ha > hc and ha > hb and hd > hc and hd > hb:
                # the B-C diagonal is a valley: its ends need no vertex test
                # (later cells sharing these samples reset the flags, as in ODE)
                vstate[i + 1, j] = True
                vstate[i, j + 1] = True

    # --- triangle planes: unit upward normal and offset (n.v0)
    tpl = np.empty((ntri, 4))
    for t in range(ntri):
        v = np.empty((3, 3))
        for a in range(3):
            vi = tv[t, a, 0]
            vj = tv[t, a, 1]
            v[a, 0] = (x0 + vi) * sw
            v[a, 1] = H[vi, vj]
            v[a, 2] = (z0 + vj) * sd
        e1 = np.empty(3)
        e2 = np.empty(3)
        for a in range(3):
            e1[a] = v[2, a] - v[0, a]
            e2[a] = v[1, a] - v[0, a]
        if not tup[t]:
            e1, e2 = e2, e1
        c0 = e1[1] * e2[2] - e1[2] * e2[1]
        c1 = e1[2] * e2[0] - e1[0] * e2[2]
        c2 = e1[0] * e2[1] - e1[1] * e2[0]
        inv = 1.0 / math.sqrt(c0 * c0 + c1 * c1 + c2 * c2)
        c0 *= inv
        c1 *= inv
        c2 *= inv
        tpl[t, 0] = c0
        tpl[t, 1] = c1
        tpl[t, 2] = c2
        tpl[t, 3] = c0 * v[0, 0] + c1 * v[0, 1] + c2 * v[0, 2]

    # --- group triangles sharing a plane (within EPS), first-come order
    members = np.empty(ntri, dtype=np.int64)
    pstart = np.empty(ntri, dtype=np.int64)
    pcount = np.zeros(ntri, dtype=np.int64)
    pmax = np.empty(ntri)
    npl = 0
    nmem = 0
    for t in range(ntri):
        if tstate[t]:
            continue
        pstart[npl] = nmem
        members[nmem] = t
        nmem += 1
        for u in range(t + 1, ntri):
            if tstate[u]:
                continue
            if (abs(tpl[t, 1] - tpl[u, 1]) < EPS and abs(tpl[t, 3] - tpl[u, 3]) < EPS
                    and abs(tpl[t, 0] - tpl[u, 0]) < EPS and abs(tpl[t, 2] - tpl[u, 2]) < EPS):
                members[nmem] = u
                nmem += 1
                tstate[u] = True
        tstate[t] = True
        pcount[npl] = nmem - pstart[npl]
        best = tmax[members[pstart[npl]]]
        for q in range(1, pcount[npl]):
            if tmax[members[pstart[npl] + q]] > best:
                best = tmax[members[pstart[npl] + q]]
        pmax[npl] = best
        npl += 1

    # ODE's bubble sort: lowest highest-vertex first (ties within EPS keep order)
    order = np.arange(npl)
    swapped = True
    while swapped:
        swapped = False
        for q in range(npl - 1):
            if pmax[order[q]] - pmax[order[q + 1]] > EPS:
                tmp = order[q]
                order[q] = order[q + 1]
                order[q + 1] = tmp
                swapped = True

    # --- pass 1: the shape against each plane, contacts kept inside a triangle
    n = 0
    for q in range(npl):
        p = order[q]
        t0 = members[pstart[p]]
        plane = tpl[t0]
        c = plane_contacts(kind, pos, R, dims, points, tris, plane, PER_PLANE)
        hit = False
        for m in range(c.shape[0]):
            for b in range(pcount[p]):
                t = members[pstart[p] + b]
                if _on_triangle(x0 + tv[t, 0, 0], z0 + tv[t, 0, 1], tup[t], c[m, 0], c[m, 2],
                                sw, sd, aspect):
                    _emit(out, n, c[m, 0:3], plane[0], plane[1], plane[2], c[m, 6],
                          c[m, 7], c[m, 8])
                    n += 1
                    if n == cap:
                        return out[:n]
                    hit = True
                    break
        for b in range(pcount[p]):
            t = members[pstart[p] + b]
            if hit:
                for a in range(3):
                    vstate[tv[t, a, 0], tv[t, a, 1]] = True
            else:
                tstate[t] = False

    # --- pass 2: vertices of the planes that gave nothing, inside the shape
    if further and (kind == KIND_SPHERE or kind == KIND_BOX or kind == KIND_CAPSULE):
        vp = np.empty(3)
        for t in range(ntri):
            if tstate[t]:
                continue
            for a in range(3):
                vi = tv[t, a, 0]
                vj = tv[t, a, 1]
                if vstate[vi, vj]:
                    continue
                vp[0] = (x0 + vi) * sw
                vp[1] = H[vi, vj]
                vp[2] = (z0 + vj) * sd
                depth = point_depth(kind, pos, R, dims, vp)
                if depth > EPS:
                    _emit(out, n, vp, tpl[t, 0], tpl[t, 1], tpl[t, 2], depth, -1.0, -1.0)
                    n += 1
                    if n == cap:
                        return out[:n]
                    vstate[vi, vj] = True
    return out[:n]


@njit(cache=True, nogil=True)
def to_world(rows: np.ndarray, hf_pos: np.ndarray, hf_R: np.ndarray, placeable: bool,
             half_w: float, half_d: float) -> np.ndarray:
    """Contact rows (k, 9) from the corner frame back to the world (in place)."""
    for k in range(rows.shape[0]):
        p0 = rows[k, 0] - half_w
        p1 = rows[k, 1]
        p2 = rows[k, 2] - half_d
        if placeable:
            n0 = rows[k, 3]
            n1 = rows[k, 4]
            n2 = rows[k, 5]
            for i in range(3):
                rows[k, i] = (hf_R[i, 0] * p0 + hf_R[i, 1] * p1 + hf_R[i, 2] * p2) + hf_pos[i]
                rows[k, 3 + i] = hf_R[i, 0] * n0 + hf_R[i, 1] * n1 + hf_R[i, 2] * n2
        else:
            rows[k, 0] = p0
            rows[k, 2] = p2
    return rows


# --------------------------------------------------------------------------
# the collider
# --------------------------------------------------------------------------
_NO_POINTS = np.zeros((0, 3))
_NO_TRIS = np.zeros((0, 3), dtype=np.int64)


def _shape(g: Geom) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """(kind, dims, points, triangles) of a geom for the kernels."""
    cls = g.CLASS
    if cls == dSphereClass:
        return KIND_SPHERE, np.array([float(g.radius)]), _NO_POINTS, _NO_TRIS
    if cls == dBoxClass:
        return KIND_BOX, np.asarray(g.lengths, dtype=np.float64), _NO_POINTS, _NO_TRIS
    if cls == dCapsuleClass:
        return (KIND_CAPSULE, np.array([float(g.radius), float(g.length)]), _NO_POINTS,
                _NO_TRIS)
    if cls == dCylinderClass:
        return (KIND_CYLINDER, np.array([float(g.radius), float(g.length)]), _NO_POINTS,
                _NO_TRIS)
    if cls == dRayClass:
        return KIND_RAY, np.array([float(g.length)]), _NO_POINTS, _NO_TRIS
    if cls == dConvexClass:
        pts = np.ascontiguousarray(np.asarray(g.points, dtype=np.float64).reshape(-1, 3))
        return KIND_CONVEX, np.zeros(1), pts, _NO_TRIS
    if cls == dTriMeshClass:
        md = g.mesh_data
        dims = np.concatenate([md.aabb_center, md.aabb_extents]).astype(np.float64)
        # OPCODE hands the plane test single-precision vertices
        verts = np.ascontiguousarray(md.vertices.astype(np.float32).astype(np.float64))
        tris = np.ascontiguousarray(md.triangles, dtype=np.int64)
        return KIND_TRIMESH, dims, verts, tris
    raise ODEError("dCollide", "o2", f"no heightfield collider for {g.NAME} geoms")


def heightfield_collide(hf: Heightfield, g2: Geom, max_contacts: int) -> np.ndarray:
    """Contacts (k, 9) of heightfield ``hf`` with geom ``g2`` (world frame,
    normals pointing into the heightfield), as ODE's dCollideHeightfield."""
    d = data_of(hf.hf_data, "dCollide", "heightfield data")
    if not d.built:
        return NO_CONTACTS
    kind, dims, points, tris = _shape(g2)
    placeable = bool(hf.PLACEABLE)
    hp = np.ascontiguousarray(hf.pos, dtype=np.float64)
    hR = np.ascontiguousarray(hf.R, dtype=np.float64)
    pos, R = local_pose(hp, hR, placeable, d.half_width, d.half_depth,
                        np.ascontiguousarray(g2.pos, dtype=np.float64),
                        np.ascontiguousarray(g2.R, dtype=np.float64))
    box = shape_aabb(kind, pos, R, dims, points)
    if not d.wrap and (box[0] > d.width or box[4] > d.depth or box[1] < 0 or box[5] < 0):
        return NO_CONTACTS
    # the sample range under the AABB, widened by one ulp each way
    x0 = math.floor(np.nextafter(box[0] * d.inv_sample_width, -math.inf))
    x1 = math.ceil(np.nextafter(box[1] * d.inv_sample_width, math.inf))
    z0 = math.floor(np.nextafter(box[4] * d.inv_sample_depth, -math.inf))
    z1 = math.ceil(np.nextafter(box[5] * d.inv_sample_depth, math.inf))
    if not d.wrap:
        x0 = max(x0, 0)
        x1 = min(x1, d.width_samples - 1)
        z0 = max(z0, 0)
        z1 = min(z1, d.depth_samples - 1)
        if x0 >= x1 or z0 >= z1:
            return NO_CONTACTS
    H = np.ascontiguousarray(d.grid(x0, x1, z0, z1))
    further = kind == KIND_TRIMESH or (kind != KIND_RAY and (
        (box[1] - box[0]) * d.inv_sample_width > 1.5
        or (box[5] - box[4]) * d.inv_sample_depth > 1.5))
    rows = heightfield_zone_kernel(kind, H, x0, z0, d.sample_width, d.sample_depth, d.aspect,
                                   pos, R, dims, points, tris, box, int(max_contacts), further)
    return to_world(rows, hp, hR, placeable, d.half_width, d.half_depth)
