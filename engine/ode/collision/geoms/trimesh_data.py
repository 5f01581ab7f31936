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

import numpy as np

from engine.ode import checks
from engine.ode.collision.geoms.trimesh_preprocess import edge_use_flags_and_angles
from engine.ode.constants import (
    dTRIDATAPREPROCESS_BUILD_CONCAVE_EDGES,
    dTRIDATAPREPROCESS_BUILD_FACE_ANGLES,
    dTRIDATAPREPROCESS_FACE_ANGLES_EXTRA_BYTE_POSITIVE,
)
from engine.ode.errors import ODEError
from engine.ode.kernels.detlinalg import norm

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
        length = norm(n, axis=1)
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
def _preprocess(d: TriMeshData, want_flags: bool, want_angles: bool) -> None:
    flags, angles = edge_use_flags_and_angles(d.vertices, d.triangles, d.normals)
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
