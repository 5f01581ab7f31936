"""Triangle-mesh data (ODE's dTriMeshDataID): vertices, triangles, preprocessing.

A :class:`TriMeshData` holds, in the mesh (geom) frame:

* ``vertices`` (n, 3) float64 m, copied at build time (single precision input
  is converted to double);
* ``triangles`` (t, 3) int64 vertex indices, counter-clockwise seen from
  outside;
* ``face_normals`` (t, 3) float64 unit outward normals computed from the
  vertices (zero rows for degenerate triangles);
* ``normals``: the per-face normals the user supplied (Build*1, or
  ``dGeomTriMeshDataSet(FACE_NORMALS)``), or None;
* ``tri_aabbs`` (t, 6) per-triangle bounds [minx, maxx, miny, maxy, minz, maxz]
  and ``aabb_center``/``aabb_extents`` (3,) of the whole mesh;
* ``preprocess_flags``: bit mask of ``1 << dTRIDATAPREPROCESS_BUILD_*`` done;
* ``use_flags`` (t,) uint8 (after BUILD_CONCAVE_EDGES): per triangle, which of
  its edges (bits ``dMESHDATAUSE_EDGE1..3``, edge k joins vertex k to k+1) and
  vertices (``dMESHDATAUSE_VERTEX1..3``) a collider should test. A shared
  convex edge is given to one of its two triangles, every vertex to one
  triangle, and edges on concave creases (and their vertices) to none;
* ``face_angles`` (t, 3) float64 rad (after BUILD_FACE_ANGLES): for the edge
  from vertex k to k+1, the angle between the normals of the two faces
  sharing it: > 0 on a convex edge (pi/2 on a cube), < 0 on a concave one,
  0 for flat and boundary edges. ODE stores it quantized (see
  ``face_angles_storage``); here it is exact.

ODE keeps pointers to the caller's arrays; here they are copied, and the
source is remembered so that :func:`dGeomTriMeshDataUpdate` re-reads
vertices changed in place (ODE's "refit" after the user moved vertices).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from engine.ode import checks
from engine.ode.constants import (
    dTRIDATAPREPROCESS_BUILD_CONCAVE_EDGES,
    dTRIDATAPREPROCESS_BUILD_FACE_ANGLES,
)
from engine.ode.errors import ODEError

# --- constants of collision_trimesh.h that constants.py does not hold ---
dMTV__MIN = dMTV_FIRST = 0
dMTV_SECOND = 1
dMTV_THIRD = 2
dMTV__MAX = 3
dTRIMESHDATA__MIN = dTRIMESHDATA_FACE_NORMALS = 0
dTRIMESHDATA_USE_FLAGS = 1
dTRIMESHDATA__MAX = 2
TRIMESH_FACE_NORMALS = dTRIMESHDATA_FACE_NORMALS
dMESHDATAUSE_EDGE1 = 0x01
dMESHDATAUSE_EDGE2 = 0x02
dMESHDATAUSE_EDGE3 = 0x04
dMESHDATAUSE_VERTEX1 = 0x08
dMESHDATAUSE_VERTEX2 = 0x10
dMESHDATAUSE_VERTEX3 = 0x20
dTRIDATAPREPROCESS_BUILD__MIN = 0
dTRIDATAPREPROCESS_BUILD__MAX = 2
dTRIDATAPREPROCESS_FACE_ANGLES_EXTRA__MIN = 0
dTRIDATAPREPROCESS_FACE_ANGLES_EXTRA_BYTE_POSITIVE = 0
dTRIDATAPREPROCESS_FACE_ANGLES_EXTRA_BYTE_ALL = 1
dTRIDATAPREPROCESS_FACE_ANGLES_EXTRA_WORD_ALL = 2
dTRIDATAPREPROCESS_FACE_ANGLES_EXTRA__MAX = 3
dTRIDATAPREPROCESS_FACE_ANGLES_EXTRA__DEFAULT = dTRIDATAPREPROCESS_FACE_ANGLES_EXTRA_BYTE_POSITIVE

#: Use flags of a triangle with nothing culled (ODE's CUF__USE_ALL_COMPONENTS).
USE_ALL = 0x3F


class TriMeshData:
    """ODE's dTriMeshDataID; see the module docstring for the attributes."""

    __slots__ = ("vertices", "triangles", "face_normals", "normals", "tri_aabbs",
                 "aabb_center", "aabb_extents", "preprocess_flags", "use_flags",
                 "external_use_flags", "face_angles", "face_angles_storage", "single",
                 "_source", "alive", "__weakref__")

    def __init__(self) -> None:
        self.vertices = np.zeros((0, 3))
        self.triangles = np.zeros((0, 3), dtype=np.int64)
        self.face_normals = np.zeros((0, 3))
        self.normals: np.ndarray | None = None
        self.tri_aabbs = np.zeros((0, 6))
        self.aabb_center = np.zeros(3)
        self.aabb_extents = np.zeros(3)
        self.preprocess_flags = 0
        self.use_flags: np.ndarray | None = None
        self.external_use_flags: np.ndarray | None = None
        self.face_angles: np.ndarray | None = None
        self.face_angles_storage = dTRIDATAPREPROCESS_FACE_ANGLES_EXTRA__DEFAULT
        self.single = False
        self._source = None
        self.alive = True

    @property
    def triangle_count(self) -> int:
        return int(self.triangles.shape[0])

    def smart_use_flags(self) -> np.ndarray | None:
        """The use flags a collider should honour: the user's buffer if set, else
        those built by BUILD_CONCAVE_EDGES, else None (use everything)."""
        return self.external_use_flags if self.external_use_flags is not None else self.use_flags

    def set_geometry(self, vertices: np.ndarray, triangles: np.ndarray) -> None:
        """Store vertices (n, 3) and triangles (t, 3) and derive normals and bounds."""
        self.vertices = np.ascontiguousarray(vertices, dtype=np.float64)
        self.triangles = np.ascontiguousarray(triangles, dtype=np.int64)
        self.refresh()

    def refresh(self) -> None:
        """Recompute face normals, triangle bounds and the mesh bounds from vertices."""
        v = self.vertices
        t = self.triangles
        p0, p1, p2 = v[t[:, 0]], v[t[:, 1]], v[t[:, 2]]
        n = np.cross(p1 - p0, p2 - p0)
        length = np.linalg.norm(n, axis=1)
        ok = length > 0.0
        n[ok] /= length[ok, None]
        n[~ok] = 0.0
        self.face_normals = np.ascontiguousarray(n)
        lo = np.minimum(np.minimum(p0, p1), p2)
        hi = np.maximum(np.maximum(p0, p1), p2)
        self.tri_aabbs = np.ascontiguousarray(np.stack(
            [lo[:, 0], hi[:, 0], lo[:, 1], hi[:, 1], lo[:, 2], hi[:, 2]], axis=1))
        if len(v):
            vmin, vmax = v.min(axis=0), v.max(axis=0)
        else:
            vmin = vmax = np.zeros(3)
        self.aabb_center = 0.5 * (vmin + vmax)
        self.aabb_extents = vmax - self.aabb_center

    def __repr__(self) -> str:
        return (f"<dTriMeshData {len(self.vertices)} vertices, {self.triangle_count} triangles"
                f"{'' if self.alive else ' destroyed'}>")


def data_of(g, function: str, argument: str = "g") -> TriMeshData:
    """``g`` checked to be a live TriMeshData."""
    if g is None:
        raise ODEError(function, argument, "must not be NULL (None)")
    if not isinstance(g, TriMeshData):
        raise ODEError(function, argument, f"expected a dTriMeshDataID, got {g!r}")
    if not g.alive:
        raise ODEError(function, argument, "the trimesh data has been destroyed")
    return g


# ----------------------------------------------------------------------------- input decoding
def _count(value, function: str, argument: str) -> int:
    n = checks.integer(value, function, argument)
    if n < 0:
        raise ODEError(function, argument, f"must be >= 0, got {n}")
    return n


def _strided(arr, ctype, stride, count: int, function: str, argument: str,
             stride_name: str) -> np.ndarray:
    """``count`` records of 3 ``ctype`` values read from ``arr``'s buffer, each
    ``stride`` bytes after the previous (C's strided layout) -> (count, 3)."""
    ct = np.dtype(ctype)
    s = checks.integer(stride, function, stride_name)
    if not isinstance(arr, np.ndarray):
        try:
            arr = np.asarray(arr, dtype=ct)
        except (TypeError, ValueError):
            raise ODEError(function, argument, f"expected numbers, got {arr!r}") from None
    dt = arr.dtype
    raw_ok = (dt == ct or dt.kind == "V" or (dt.kind in "ui" and dt.itemsize == 1)
              or (dt.kind in "ui" and ct.kind in "ui" and dt.itemsize == ct.itemsize))
    if not raw_ok:
        # a plain numeric array of another type: read its values when it is
        # packed 3 per record, as the stride says
        if dt.kind in "fiu" and s == 3 * dt.itemsize:
            vals = np.ascontiguousarray(arr).reshape(-1)
            if vals.size < 3 * count:
                raise ODEError(function, argument,
                               f"holds {vals.size // 3} records, fewer than the count {count}")
            return vals[:3 * count].astype(ct).reshape(count, 3)
        raise ODEError(function, argument,
                       f"expected {ct.name} data (or raw bytes) for stride {s}, got {dt}")
    if count == 0:
        return np.zeros((0, 3), dtype=ct)
    if s <= 0:
        raise ODEError(function, stride_name, f"must be > 0, got {s}")
    raw = np.ascontiguousarray(arr).view(np.uint8).reshape(-1)
    need = (count - 1) * s + 3 * ct.itemsize
    if raw.size < need:
        raise ODEError(function, argument,
                       f"holds {raw.size} bytes; {count} records of stride {s} need {need}")
    return np.ndarray((count, 3), dtype=ct, buffer=raw, strides=(s, ct.itemsize)).copy()


def _finite_vertices(v: np.ndarray, function: str) -> np.ndarray:
    v = np.asarray(v, dtype=np.float64)
    if not np.all(np.isfinite(v)):
        bad = int(np.argwhere(~np.isfinite(v))[0][0])
        raise ODEError(function, "vertices", f"vertex {bad} is not finite: {v[bad].tolist()}")
    return v


def _check_triangles(idx: np.ndarray, vertex_count: int, index_count: int,
                     function: str) -> np.ndarray:
    if index_count == 0:
        raise ODEError(function, "index_count", "must be > 0 (at least one triangle)")
    if index_count % 3:
        raise ODEError(function, "index_count", f"must be a multiple of 3, got {index_count}")
    t = np.asarray(idx, dtype=np.int64).reshape(-1, 3)
    bad = (t < 0) | (t >= vertex_count)
    if bad.any():
        k = int(np.argwhere(bad)[0][0])
        raise ODEError(function, "indices", f"triangle {k} {t[k].tolist()} refers to a "
                       f"vertex outside 0..{vertex_count - 1}")
    return t


def _normals_array(normals, tri_count: int, function: str) -> np.ndarray | None:
    if normals is None:
        return None
    try:
        n = np.asarray(normals, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError):
        raise ODEError(function, "normals", f"expected numbers, got {normals!r}") from None
    if n.size < 3 * tri_count:
        raise ODEError(function, "normals",
                       f"expected 3 numbers per triangle ({3 * tri_count}), got {n.size}")
    n = n[:3 * tri_count].reshape(tri_count, 3).copy()
    if not np.all(np.isfinite(n)):
        raise ODEError(function, "normals", "must be finite")
    return n


def _reset_preprocessing(d: TriMeshData) -> None:
    d.preprocess_flags = 0
    d.use_flags = None
    d.face_angles = None


def _build_strided(function: str, g, vertices, vertex_stride, vertex_count, indices,
                   index_count, tri_stride, normals, single: bool) -> None:
    d = data_of(g, function)
    vc = _count(vertex_count, function, "vertex_count")
    ic = _count(index_count, function, "index_count")
    if ic % 3:
        raise ODEError(function, "index_count", f"must be a multiple of 3, got {ic}")

    def read():
        v = _strided(vertices, np.float32 if single else np.float64, vertex_stride, vc,
                     function, "vertices", "vertex_stride")
        return _finite_vertices(v, function)

    v = read()
    t = _check_triangles(_strided(indices, np.uint32, tri_stride, ic // 3, function, "indices",
                                  "tri_stride"), vc, ic, function)
    n = _normals_array(normals, ic // 3, function)
    _reset_preprocessing(d)
    d.single = single
    d.normals = n
    d.set_geometry(v, t)
    d._source = read


def _simple_vertices(vertices, vertex_count: int, function: str):
    def read():
        try:
            a = np.asarray(vertices, dtype=np.float64)
        except (TypeError, ValueError):
            raise ODEError(function, "vertices", f"expected numbers, got {vertices!r}") from None
        a = a[:, :3] if a.ndim == 2 and a.shape[1] == 4 else a.reshape(-1)
        a = a.reshape(-1)
        if a.size < 3 * vertex_count:
            raise ODEError(function, "vertices",
                           f"holds {a.size // 3} vertices, fewer than vertex_count {vertex_count}")
        return _finite_vertices(a[:3 * vertex_count].reshape(vertex_count, 3).copy(), function)
    return read


def _build_simple(function: str, g, vertices, vertex_count, indices, index_count,
                  normals) -> None:
    d = data_of(g, function)
    vc = _count(vertex_count, function, "vertex_count")
    ic = _count(index_count, function, "index_count")
    read = _simple_vertices(vertices, vc, function)
    v = read()
    try:
        idx = np.asarray(indices).reshape(-1)
    except (TypeError, ValueError):
        raise ODEError(function, "indices", f"expected integers, got {indices!r}") from None
    if idx.size < ic:
        raise ODEError(function, "indices",
                       f"holds {idx.size} indices, fewer than index_count {ic}")
    if idx.size and idx.dtype.kind not in "iu":
        if not np.all(np.equal(np.mod(idx.astype(np.float64), 1), 0)):
            raise ODEError(function, "indices", "must be integers")
    t = _check_triangles(idx[:ic], vc, ic, function)
    n = _normals_array(normals, ic // 3, function)
    _reset_preprocessing(d)
    d.single = False
    d.normals = n
    d.set_geometry(v, t)
    d._source = read


# ----------------------------------------------------------------------------- preprocessing
@njit(cache=True, nogil=True)
def _edge_angle(n: np.ndarray, seg: np.ndarray, dot: float, lsp: float, edge: np.ndarray,
                edge_ok: bool, first_seg: np.ndarray) -> float:
    """Angle (0..pi) between the first face (normal n, not unit) and the second
    (its segment ``seg`` from the shared edge to its far vertex, ``dot`` =
    -n.seg > 0, ``lsp`` = |n|^2 |seg|^2)."""
    c = dot / math.sqrt(lsp)
    if c >= 1.0:
        return 0.5 * math.pi
    # n x seg points along the second face's edge direction when the second
    # face folds back by less than 90 degrees
    x0 = n[1] * seg[2] - n[2] * seg[1]
    x1 = n[2] * seg[0] - n[0] * seg[2]
    x2 = n[0] * seg[1] - n[1] * seg[0]
    if edge_ok:
        check = x0 * edge[0] + x1 * edge[1] + x2 * edge[2]
    else:
        y0 = n[1] * first_seg[2] - n[2] * first_seg[1]
        y1 = n[2] * first_seg[0] - n[0] * first_seg[2]
        y2 = n[0] * first_seg[1] - n[1] * first_seg[0]
        check = x0 * y0 + x1 * y1 + x2 * y2
    return math.asin(c) if check < 0.0 else 0.5 * math.pi + math.acos(c)


@njit(cache=True, nogil=True)
def _pair_geometry(V, T, normals, has_normals, t0, k0, t1, k1, out_n, out_seg, out_edge,
                   out_first):
    """For two faces sharing an edge (edge k0 of t0, edge k1 of t1): the first
    face's normal, the second face's segment from the edge to its far vertex
    (perpendicular to the edge), the second's unit edge direction and the
    first's segment to its far vertex. Returns (lsp, edge_ok)."""
    a = T[t1, k1]
    b = T[t1, (k1 + 1) % 3]
    c = T[t1, (k1 + 2) % 3]
    el = 0.0
    for i in range(3):
        out_edge[i] = V[b, i] - V[a, i]
        el += out_edge[i] * out_edge[i]
    el = math.sqrt(el)
    edge_ok = el > 0.0
    proj = 0.0
    for i in range(3):
        out_seg[i] = V[c, i] - V[a, i]
        if edge_ok:
            out_edge[i] /= el
            proj += out_seg[i] * out_edge[i]
    if edge_ok:
        for i in range(3):
            out_seg[i] -= proj * out_edge[i]
    seg2 = out_seg[0] ** 2 + out_seg[1] ** 2 + out_seg[2] ** 2
    p0 = T[t0, 0]
    p1 = T[t0, 1]
    p2 = T[t0, 2]
    s = T[t0, k0]
    f = T[t0, (k0 + 2) % 3]
    for i in range(3):
        out_first[i] = V[f, i] - V[s, i]
    if has_normals:
        for i in range(3):
            out_n[i] = normals[t0, i]
        return seg2, edge_ok
    u0 = V[p2, 0] - V[p1, 0]
    u1 = V[p2, 1] - V[p1, 1]
    u2 = V[p2, 2] - V[p1, 2]
    w0 = V[p0, 0] - V[p1, 0]
    w1 = V[p0, 1] - V[p1, 1]
    w2 = V[p0, 2] - V[p1, 2]
    out_n[0] = u1 * w2 - u2 * w1
    out_n[1] = u2 * w0 - u0 * w2
    out_n[2] = u0 * w1 - u1 * w0
    nn = out_n[0] ** 2 + out_n[1] ** 2 + out_n[2] ** 2
    return seg2 * nn, edge_ok


@njit(cache=True, nogil=True)
def _edge_flags_kernel(V, T, normals, has_normals, order, ev1, ev2, nvert, flags, angles):
    """Walk the edges sorted by vertex pair (``order``), as ODE's preprocessing:
    pairs of faces sharing an edge are classified concave or convex; fills the
    per-triangle use flags (t,) and signed face angles (t, 3)."""
    ne = order.shape[0]
    vstate = np.zeros(nvert, dtype=np.uint8)      # 1 used, 2 has a concave edge
    used_from = np.zeros(nvert, dtype=np.int64)   # edge whose triangle holds the vertex bit
    n = np.empty(3)
    seg = np.empty(3)
    edge = np.empty(3)
    first = np.empty(3)
    i = 0
    while i < ne:
        e0 = order[i]
        t0 = e0 // 3
        k0 = e0 % 3
        paired = i + 1 < ne and ev1[order[i + 1]] == ev1[e0] and ev2[order[i + 1]] == ev2[e0]
        if not paired:
            angles[t0, k0] = 0.0
            extra = 1 << k0
            for j in range(2):
                v = T[t0, (k0 + j) % 3]
                if vstate[v] & 1 == 0:
                    vstate[v] |= 1
                    used_from[v] = e0
                    extra |= 8 << ((k0 + j) % 3)
            flags[t0] |= extra
            i += 1
            continue
        e1 = order[i + 1]
        t1 = e1 // 3
        k1 = e1 % 3
        lsp, edge_ok = _pair_geometry(V, T, normals, has_normals, t0, k0, t1, k1, n, seg, edge,
                                      first)
        dot = n[0] * seg[0] + n[1] * seg[1] + n[2] * seg[2]
        # concave when the second face rises in front of the first (a small
        # relative threshold keeps nearly flat surfaces convex)
        if dot > 0.0 and dot * dot >= 1e-12 * lsp:
            ang = -_edge_angle(n, seg, dot, lsp, edge, edge_ok, first) if lsp != 0.0 else 0.0
            angles[t0, k0] = ang
            angles[t1, k1] = ang
            for v in (ev1[e0], ev2[e0]):
                before = vstate[v]
                vstate[v] |= 3
                if before & 3 == 1:
                    # the vertex had been given to a triangle: take it back
                    ue = used_from[v]
                    ut = ue // 3
                    uk = ue % 3
                    bit = 8 << uk if T[ut, uk] == v else 8 << ((uk + 1) % 3)
                    flags[ut] ^= bit
        else:
            ang = 0.0
            if dot < 0.0 and lsp != 0.0:
                ang = _edge_angle(n, seg, -dot, lsp, edge, edge_ok, first)
            angles[t0, k0] = ang
            angles[t1, k1] = ang
            ce, ct, ck = e0, t0, k0
            if (flags[t1] & 7) > (flags[t0] & 7):
                ce, ct, ck = e1, t1, k1
            f = flags[ct]
            for j in range(2):
                v = T[ct, (ck + j) % 3]
                if vstate[v] & 1 == 0:
                    vstate[v] |= 1
                    used_from[v] = ce
                    f |= 8 << ((ck + j) % 3)
            flags[ct] = f | (1 << ck)
        i += 2


@njit(cache=True, nogil=True)
def _edge_less(a: int, b: int, k1: np.ndarray, k2: np.ndarray) -> bool:
    return k1[a] < k1[b] or (k1[a] == k1[b] and k2[a] < k2[b])


@njit(cache=True, nogil=True)
def _adjust_heap(o, first, hole, n, value, k1, k2) -> None:
    top = hole
    child = hole
    while child < (n - 1) // 2:
        child = 2 * (child + 1)
        if _edge_less(o[first + child], o[first + child - 1], k1, k2):
            child -= 1
        o[first + hole] = o[first + child]
        hole = child
    if n % 2 == 0 and child == (n - 2) // 2:
        child = 2 * (child + 1)
        o[first + hole] = o[first + child - 1]
        hole = child - 1
    parent = (hole - 1) // 2
    while hole > top and _edge_less(o[first + parent], value, k1, k2):
        o[first + hole] = o[first + parent]
        hole = parent
        parent = (hole - 1) // 2
    o[first + hole] = value


@njit(cache=True, nogil=True)
def _heap_sort(o, first, last, k1, k2) -> None:
    n = last - first
    if n < 2:
        return
    parent = (n - 2) // 2
    while True:
        _adjust_heap(o, first, parent, n, o[first + parent], k1, k2)
        if parent == 0:
            break
        parent -= 1
    while last - first > 1:
        last -= 1
        value = o[last]
        o[last] = o[first]
        _adjust_heap(o, first, 0, last - first, value, k1, k2)


@njit(cache=True, nogil=True)
def _introsort(o: np.ndarray, k1: np.ndarray, k2: np.ndarray) -> None:
    """Sort the edge ids ``o`` by (k1, k2) exactly as the C++ standard library
    that ODE is built with does (GCC's introsort: median-of-three quicksort
    down to runs of 16, heap sort past the depth limit, then insertion sort),
    so that edges with equal keys end in ODE's order."""
    n = o.shape[0]
    if n < 2:
        return
    depth = 0
    m = n
    while m > 1:
        m >>= 1
        depth += 1
    # explicit stack of (first, last, depth limit) replaces the recursion
    stack = np.empty((64 + 2 * depth, 3), dtype=np.int64)
    sp = 0
    stack[0, 0] = 0
    stack[0, 1] = n
    stack[0, 2] = 2 * depth
    sp = 1
    while sp > 0:
        sp -= 1
        first = stack[sp, 0]
        last = stack[sp, 1]
        limit = stack[sp, 2]
        while last - first > 16:
            if limit == 0:
                _heap_sort(o, first, last, k1, k2)
                break
            limit -= 1
            # median of (first + 1, middle, last - 1) moved to first
            a = first + 1
            b = first + (last - first) // 2
            c = last - 1
            if _edge_less(o[a], o[b], k1, k2):
                if _edge_less(o[b], o[c], k1, k2):
                    pick = b
                elif _edge_less(o[a], o[c], k1, k2):
                    pick = c
                else:
                    pick = a
            elif _edge_less(o[a], o[c], k1, k2):
                pick = a
            elif _edge_less(o[b], o[c], k1, k2):
                pick = c
            else:
                pick = b
            o[first], o[pick] = o[pick], o[first]
            lo = first + 1
            hi = last
            while True:
                while _edge_less(o[lo], o[first], k1, k2):
                    lo += 1
                hi -= 1
                while _edge_less(o[first], o[hi], k1, k2):
                    hi -= 1
                if not lo < hi:
                    break
                o[lo], o[hi] = o[hi], o[lo]
                lo += 1
            stack[sp, 0] = lo
            stack[sp, 1] = last
            stack[sp, 2] = limit
            sp += 1
            last = lo
    # final insertion sort (guarded on the first 16, unguarded after)
    head = min(n, 16)
    for i in range(1, n):
        value = o[i]
        if i < head and _edge_less(value, o[0], k1, k2):
            for j in range(i, 0, -1):
                o[j] = o[j - 1]
            o[0] = value
            continue
        j = i
        while j > 0 and _edge_less(value, o[j - 1], k1, k2):
            o[j] = o[j - 1]
            j -= 1
        o[j] = value


def _preprocess(d: TriMeshData, want_flags: bool, want_angles: bool) -> None:
    t = d.triangles
    tc = t.shape[0]
    a = t.reshape(-1)
    b = t[:, [1, 2, 0]].reshape(-1)
    ev1 = np.minimum(a, b)
    ev2 = np.maximum(a, b)
    order = np.arange(3 * tc, dtype=np.int64)
    _introsort(order, ev1, ev2)
    flags = np.zeros(tc, dtype=np.uint8)
    angles = np.zeros((tc, 3))
    has_n = d.normals is not None
    normals = d.normals if has_n else np.zeros((1, 3))
    _edge_flags_kernel(d.vertices, t, normals, has_n, order, ev1, ev2,
                       max(1, len(d.vertices)), flags, angles)
    if want_flags:
        d.use_flags = flags
        d.preprocess_flags |= 1 << dTRIDATAPREPROCESS_BUILD_CONCAVE_EDGES
    if want_angles:
        d.face_angles = angles
        d.preprocess_flags |= 1 << dTRIDATAPREPROCESS_BUILD_FACE_ANGLES


# ----------------------------------------------------------------------------- the flat API
def dGeomTriMeshDataCreate() -> TriMeshData:
    """A new, empty trimesh data object."""
    return TriMeshData()


def dGeomTriMeshDataDestroy(g) -> None:
    """Destroy the data; geoms still using it must not be collided afterwards."""
    d = data_of(g, "dGeomTriMeshDataDestroy")
    d.alive = False


def dGeomTriMeshDataBuildSimple(g, vertices, vertex_count: int, indices,
                                index_count: int) -> None:
    """Build from ``vertices`` ((n, 3), (n, 4) or flat 3 per vertex, m) and flat
    ``indices`` (3 per triangle, counter-clockwise seen from outside)."""
    _build_simple("dGeomTriMeshDataBuildSimple", g, vertices, vertex_count, indices,
                  index_count, None)


def dGeomTriMeshDataBuildSimple1(g, vertices, vertex_count: int, indices, index_count: int,
                                 normals) -> None:
    """As dGeomTriMeshDataBuildSimple with per-face unit ``normals`` (t, 3) or None."""
    _build_simple("dGeomTriMeshDataBuildSimple1", g, vertices, vertex_count, indices,
                  index_count, normals)


def dGeomTriMeshDataBuildDouble(g, vertices, vertex_stride: int, vertex_count: int, indices,
                                index_count: int, tri_stride: int) -> None:
    """Build from C-layout arrays: ``vertex_count`` records of 3 doubles every
    ``vertex_stride`` bytes of ``vertices``' buffer, triangles of 3 uint32 every
    ``tri_stride`` bytes of ``indices``' buffer (a list is packed first)."""
    _build_strided("dGeomTriMeshDataBuildDouble", g, vertices, vertex_stride, vertex_count,
                   indices, index_count, tri_stride, None, False)


def dGeomTriMeshDataBuildDouble1(g, vertices, vertex_stride: int, vertex_count: int, indices,
                                 index_count: int, tri_stride: int, normals) -> None:
    """As dGeomTriMeshDataBuildDouble with per-face ``normals`` (t, 3) or None."""
    _build_strided("dGeomTriMeshDataBuildDouble1", g, vertices, vertex_stride, vertex_count,
                   indices, index_count, tri_stride, normals, False)


def dGeomTriMeshDataBuildSingle(g, vertices, vertex_stride: int, vertex_count: int, indices,
                                index_count: int, tri_stride: int) -> None:
    """As dGeomTriMeshDataBuildDouble with single precision vertices (float32
    records, converted to double)."""
    _build_strided("dGeomTriMeshDataBuildSingle", g, vertices, vertex_stride, vertex_count,
                   indices, index_count, tri_stride, None, True)


def dGeomTriMeshDataBuildSingle1(g, vertices, vertex_stride: int, vertex_count: int, indices,
                                 index_count: int, tri_stride: int, normals) -> None:
    """As dGeomTriMeshDataBuildSingle with per-face ``normals`` (t, 3) (double) or None."""
    _build_strided("dGeomTriMeshDataBuildSingle1", g, vertices, vertex_stride, vertex_count,
                   indices, index_count, tri_stride, normals, True)


def dGeomTriMeshDataBuild(g, vertices, vertex_stride: int, vertex_count: int, indices,
                          index_count: int, tri_stride: int, normals=None) -> None:
    """The manual's build call (dReal = double vertices): dGeomTriMeshDataBuildDouble1."""
    _build_strided("dGeomTriMeshDataBuild", g, vertices, vertex_stride, vertex_count,
                   indices, index_count, tri_stride, normals, False)


def dGeomTriMeshDataPreprocess2(g, buildRequestFlags: int, requestExtraData=None) -> int:
    """Build the data named by ``buildRequestFlags`` (bits ``1 <<
    dTRIDATAPREPROCESS_BUILD_*``): concave-edge use flags and/or face angles.
    ``requestExtraData``: None or a sequence indexed by the BUILD_ values (the
    FACE_ANGLES entry picks ODE's storage, kept in ``face_angles_storage``).
    Returns 1 (ODE's success). Asking again for data already built is ignored."""
    fn = "dGeomTriMeshDataPreprocess2"
    d = data_of(g, fn)
    flags = checks.integer(buildRequestFlags, fn, "buildRequestFlags")
    if flags < 0 or flags >> dTRIDATAPREPROCESS_BUILD__MAX:
        raise ODEError(fn, "buildRequestFlags", f"unknown bits in {flags:#x}")
    want_flags = bool(flags & (1 << dTRIDATAPREPROCESS_BUILD_CONCAVE_EDGES))
    want_angles = bool(flags & (1 << dTRIDATAPREPROCESS_BUILD_FACE_ANGLES))
    if want_angles:
        method = dTRIDATAPREPROCESS_FACE_ANGLES_EXTRA__DEFAULT
        if requestExtraData is not None:
            try:
                extra = [int(x) for x in requestExtraData]
            except (TypeError, ValueError):
                raise ODEError(fn, "requestExtraData", "expected a sequence of integers") from None
            if len(extra) > dTRIDATAPREPROCESS_BUILD_FACE_ANGLES:
                value = extra[dTRIDATAPREPROCESS_BUILD_FACE_ANGLES]
                if (dTRIDATAPREPROCESS_FACE_ANGLES_EXTRA__MIN <= value
                        < dTRIDATAPREPROCESS_FACE_ANGLES_EXTRA__MAX):
                    method = value
        if d.face_angles is None:
            d.face_angles_storage = method
    want_flags = want_flags and d.use_flags is None
    want_angles = want_angles and d.face_angles is None
    if (want_flags or want_angles) and d.triangle_count:
        _preprocess(d, want_flags, want_angles)
    return 1


def dGeomTriMeshDataPreprocess(g) -> int:
    """Build the concave-edge use flags (dGeomTriMeshDataPreprocess2 with
    BUILD_CONCAVE_EDGES). Returns 1."""
    data_of(g, "dGeomTriMeshDataPreprocess")
    return dGeomTriMeshDataPreprocess2(g, 1 << dTRIDATAPREPROCESS_BUILD_CONCAVE_EDGES, None)


def dGeomTriMeshDataSet(g, data_id: int, in_data) -> None:
    """Attach per-face normals (``dTRIMESHDATA_FACE_NORMALS``: (t, 3) or None) or
    a per-triangle use-flags buffer (``dTRIMESHDATA_USE_FLAGS``: (t,) uint8 or None)."""
    fn = "dGeomTriMeshDataSet"
    d = data_of(g, fn)
    k = checks.integer(data_id, fn, "data_id")
    if k == dTRIMESHDATA_FACE_NORMALS:
        d.normals = _normals_array(in_data, d.triangle_count, fn)
    elif k == dTRIMESHDATA_USE_FLAGS:
        if in_data is None:
            d.external_use_flags = None
            return
        a = np.asarray(in_data).reshape(-1)
        if a.size < d.triangle_count or (a.size and a.dtype.kind not in "iu"):
            raise ODEError(fn, "in_data", f"expected {d.triangle_count} integer flags")
        d.external_use_flags = a[:d.triangle_count].astype(np.uint8)
    else:
        raise ODEError(fn, "data_id", f"unknown data id {k}")


def dGeomTriMeshDataGet2(g, data_id: int) -> tuple[np.ndarray | None, int]:
    """(data, size in bytes) for ``data_id``: the face normals (t, 3) or the use
    flags in force (t,) uint8; (None, 0) when there are none."""
    fn = "dGeomTriMeshDataGet2"
    d = data_of(g, fn)
    k = checks.integer(data_id, fn, "data_id")
    if k == dTRIMESHDATA_FACE_NORMALS:
        out = d.normals
        return (None, 0) if out is None else (out, 3 * 8 * d.triangle_count)
    if k == dTRIMESHDATA_USE_FLAGS:
        out = d.smart_use_flags()
        return (None, 0) if out is None else (out, d.triangle_count)
    raise ODEError(fn, "data_id", f"unknown data id {k}")


def dGeomTriMeshDataGet(g, data_id: int):
    """The data of ``data_id`` (see dGeomTriMeshDataGet2), or None."""
    data_of(g, "dGeomTriMeshDataGet")
    return dGeomTriMeshDataGet2(g, data_id)[0]


def dGeomTriMeshDataGetBuffer(g) -> tuple[np.ndarray | None, int]:
    """Deprecated: (the use flags in force (t,) uint8 or None, their size in bytes)."""
    return dGeomTriMeshDataGet2(data_of(g, "dGeomTriMeshDataGetBuffer"), dTRIMESHDATA_USE_FLAGS)


def dGeomTriMeshDataSetBuffer(g, buf) -> None:
    """Deprecated: dGeomTriMeshDataSet(g, dTRIMESHDATA_USE_FLAGS, buf)."""
    dGeomTriMeshDataSet(data_of(g, "dGeomTriMeshDataSetBuffer"), dTRIMESHDATA_USE_FLAGS, buf)


def dGeomTriMeshDataUpdate(g) -> None:
    """Re-read the vertices from the arrays given at build time (after the
    caller changed them in place) and refit the bounds, as ODE refits its tree."""
    fn = "dGeomTriMeshDataUpdate"
    d = data_of(g, fn)
    if d._source is None:
        return
    d.vertices = np.ascontiguousarray(d._source(), dtype=np.float64)
    d.refresh()
