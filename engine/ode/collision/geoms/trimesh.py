"""The triangle-mesh geom (ODE's dTriMeshClass), its callbacks and dMassSetTrimesh.

A :class:`TriMesh` places a :class:`~engine.ode.collision.geoms.trimesh_data.TriMeshData`
(``.mesh_data``; dGeomSetData/dGeomGetData hold the user's data) in the world
(``pos``, ``R`` as any placeable geom).
Colliders ask it for the triangles near another geom with
:meth:`TriMesh.candidate_triangles` (or :meth:`TriMesh.touched_triangles`,
then their own exact test, then :meth:`TriMesh.filter_triangles`), which
applies the user's callbacks the way ODE's colliders do:

* the array callback ``array_callback(trimesh, other, indices)`` first
  receives every triangle found near ``other`` (only when there is one);
* then the per-triangle callback ``callback(trimesh, other, index) -> int``
  is asked about each of them; 0 drops the triangle.

The ray callback ``ray_callback(trimesh, ray, index, u, v) -> int`` is asked
by the trimesh-ray collider about each hit at barycentric (u, v); 0 drops
the hit. The tri-merge callback ``trimerge_callback(trimesh, first, second)
-> int`` names the triangle of a contact merged from two (-1 when unset).

Temporal coherence (``dGeomTriMeshEnableTC``): ODE keeps, per trimesh and
colliding geom, OPCODE caches that only speed up its tree queries; contacts
are the same with or without them. Here the per-class switches are stored
and reported, and the queries are always done afresh, so the setting does
not change any result.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.ode import checks
from engine.ode import mass as _mass
from engine.ode.collision.geoms.geom import Geom, geom_of
from engine.ode.collision.geoms.trimesh_data import TriMeshData, data_of
from engine.ode.constants import dBoxClass, dCapsuleClass, dSphereClass, dTriMeshClass
from engine.ode.errors import ODEError
from engine.ode.kernels.detlinalg import matmul

#: Geom classes for which ODE keeps temporal-coherence caches.
TC_CLASSES = (dSphereClass, dBoxClass, dCapsuleClass)


@njit(cache=True, nogil=True)
def _overlapping(boxes: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Indices (int64) of the boxes (t, 6) [minx, maxx, miny, maxy, minz, maxz]
    that overlap box q (6,) (touching counts)."""
    out = np.empty(boxes.shape[0], dtype=np.int64)
    k = 0
    for i in range(boxes.shape[0]):
        if (boxes[i, 0] <= q[1] and boxes[i, 1] >= q[0] and boxes[i, 2] <= q[3]
                and boxes[i, 3] >= q[2] and boxes[i, 4] <= q[5] and boxes[i, 5] >= q[4]):
            out[k] = i
            k += 1
    return out[:k].copy()


@njit(cache=True, nogil=True)
def _world_overlapping(V: np.ndarray, T: np.ndarray, idx: np.ndarray, R: np.ndarray,
                       p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """The subset of triangles ``idx`` of mesh (V (n, 3), T (t, 3)) placed at
    (R (3, 3), p (3,)) whose world bounding box overlaps q (6,)."""
    out = np.empty(idx.shape[0], dtype=np.int64)
    k = 0
    w = np.empty(3)
    for j in range(idx.shape[0]):
        t = idx[j]
        lo0 = lo1 = lo2 = np.inf
        hi0 = hi1 = hi2 = -np.inf
        for c in range(3):
            v = T[t, c]
            for i in range(3):
                w[i] = p[i] + R[i, 0] * V[v, 0] + R[i, 1] * V[v, 1] + R[i, 2] * V[v, 2]
            lo0 = min(lo0, w[0])
            hi0 = max(hi0, w[0])
            lo1 = min(lo1, w[1])
            hi1 = max(hi1, w[1])
            lo2 = min(lo2, w[2])
            hi2 = max(hi2, w[2])
        if (lo0 <= q[1] and hi0 >= q[0] and lo1 <= q[3] and hi1 >= q[2]
                and lo2 <= q[5] and hi2 >= q[4]):
            out[k] = t
            k += 1
    return out[:k].copy()


def _callable_or_none(fn, function: str, argument: str):
    if fn is not None and not callable(fn):
        raise ODEError(function, argument, f"must be callable or None, got {fn!r}")
    return fn


class TriMesh(Geom):
    """A triangle mesh geom; ``mesh_data`` is its TriMeshData (shared, not copied)."""

    CLASS = dTriMeshClass
    NAME = "trimesh"
    CREATOR = "dCreateTriMesh"
    __slots__ = ("_data", "callback", "array_callback", "ray_callback",
                 "trimerge_callback", "tc_enabled", "last_transform")

    def __init__(self, space, data: TriMeshData, callback=None, array_callback=None,
                 ray_callback=None) -> None:
        fn = "dCreateTriMesh"
        self._data = data_of(data, fn, "Data")
        self.callback = _callable_or_none(callback, fn, "Callback")
        self.array_callback = _callable_or_none(array_callback, fn, "ArrayCallback")
        self.ray_callback = _callable_or_none(ray_callback, fn, "RayCallback")
        self.trimerge_callback = None
        self.tc_enabled = dict.fromkeys(TC_CLASSES, False)
        self.last_transform = np.zeros(16)
        super().__init__(space)

    @property
    def mesh_data(self) -> TriMeshData:
        """The mesh data (ODEError if it was destroyed)."""
        d = self._data
        if not d.alive:
            raise ODEError("dCollide", "trimesh", "its trimesh data has been destroyed")
        return d

    # -- geometry in world coordinates -------------------------------------
    def world_vertices(self) -> np.ndarray:
        """Every vertex in world coordinates, (n, 3) m."""
        return matmul(self.mesh_data.vertices, np.asarray(self.R).T) + self.pos

    def world_triangles(self, indices) -> np.ndarray:
        """Triangles ``indices`` (k,) in world coordinates, (k, 3, 3) m:
        [triangle, corner, xyz]."""
        d = self.mesh_data
        local = d.vertices[d.triangles[np.asarray(indices, dtype=np.int64)]]
        return matmul(local, np.asarray(self.R).T) + self.pos

    def compute_aabb(self) -> np.ndarray:
        """As ODE: the world box around the rotated box of the mesh's local bounds."""
        d = self.mesh_data
        R = np.asarray(self.R)
        c = matmul(R, d.aabb_center) + self.pos
        ext = matmul(np.abs(R), d.aabb_extents)
        return np.array([c[0] - ext[0], c[0] + ext[0], c[1] - ext[1], c[1] + ext[1],
                         c[2] - ext[2], c[2] + ext[2]])

    def candidate_triangles(self, other, aabb) -> np.ndarray:
        """Indices (int64, ascending) of the triangles whose world bounding box
        overlaps ``aabb`` (6,) [minx, maxx, miny, maxy, minz, maxz], after the
        array callback has seen them all and the per-triangle callback has
        dropped those it answers 0 for (``other`` is passed to both)."""
        return self.filter_triangles(other, self.touched_triangles(aabb))

    def touched_triangles(self, aabb) -> np.ndarray:
        """Indices (int64, ascending) of the triangles whose world bounding box
        overlaps ``aabb`` (6,); no callback is called."""
        d = self.mesh_data
        q = np.asarray(aabb, dtype=np.float64)
        if d.triangle_count == 0:
            return np.zeros(0, dtype=np.int64)
        R = np.ascontiguousarray(self.R, dtype=np.float64)
        p = np.ascontiguousarray(self.pos, dtype=np.float64)
        # the query box in the mesh frame (a box around the rotated box) picks
        # candidates from the precomputed local triangle bounds; the exact
        # world bounds then decide
        centre = 0.5 * np.array([q[0] + q[1], q[2] + q[3], q[4] + q[5]])
        half = 0.5 * np.array([q[1] - q[0], q[3] - q[2], q[5] - q[4]])
        if np.all(np.isfinite(half)):
            lc = matmul(R.T, centre - p)
            lh = matmul(np.abs(R.T), half)
            lq = np.array([lc[0] - lh[0], lc[0] + lh[0], lc[1] - lh[1], lc[1] + lh[1],
                           lc[2] - lh[2], lc[2] + lh[2]])
            idx = _overlapping(d.tri_aabbs, lq)
        else:
            idx = np.arange(d.triangle_count, dtype=np.int64)
        if idx.size:
            idx = _world_overlapping(d.vertices, d.triangles, idx, R, p, q)
        return idx

    def filter_triangles(self, other, idx: np.ndarray) -> np.ndarray:
        """ODE's callback protocol on touched triangles ``idx`` (k,) int64: the
        array callback sees them all (when k > 0), then the per-triangle
        callback keeps those it answers non-zero for."""
        if idx.size == 0:
            return idx
        if self.array_callback is not None:
            self.array_callback(self, other, idx.copy())
        if self.callback is not None:
            keep = [i for i in idx.tolist() if self.callback(self, other, int(i))]
            idx = np.asarray(keep, dtype=np.int64)
        return idx

def trimesh_of(g, function: str, argument: str = "g") -> TriMesh:
    return geom_of(g, function, argument, TriMesh)


def _index(g: TriMesh, index, function: str) -> int:
    i = checks.integer(index, function, "Index")
    n = g.mesh_data.triangle_count
    if not 0 <= i < n:
        raise ODEError(function, "Index", f"must be in 0..{n - 1}, got {i}")
    return i


# ----------------------------------------------------------------------------- creation, data
def dCreateTriMesh(space, Data, Callback=None, ArrayCallback=None, RayCallback=None) -> TriMesh:
    """A trimesh geom over ``Data`` with optional callbacks (see the module doc)."""
    return TriMesh(space, Data, Callback, ArrayCallback, RayCallback)


def dGeomTriMeshSetData(g, Data) -> None:
    """Use another TriMeshData."""
    t = trimesh_of(g, "dGeomTriMeshSetData")
    t._data = data_of(Data, "dGeomTriMeshSetData", "Data")


def dGeomTriMeshGetData(g) -> TriMeshData:
    return trimesh_of(g, "dGeomTriMeshGetData")._data


def dGeomTriMeshGetTriMeshDataID(g) -> TriMeshData:
    return trimesh_of(g, "dGeomTriMeshGetTriMeshDataID")._data


# ----------------------------------------------------------------------------- callbacks
def dGeomTriMeshSetCallback(g, Callback) -> None:
    """Per-triangle callback ``fn(trimesh, other, index) -> int`` (0 drops it) or None."""
    fn = "dGeomTriMeshSetCallback"
    trimesh_of(g, fn).callback = _callable_or_none(Callback, fn, "Callback")


def dGeomTriMeshGetCallback(g):
    return trimesh_of(g, "dGeomTriMeshGetCallback").callback


def dGeomTriMeshSetArrayCallback(g, ArrayCallback) -> None:
    """Array callback ``fn(trimesh, other, indices)`` or None."""
    fn = "dGeomTriMeshSetArrayCallback"
    trimesh_of(g, fn).array_callback = _callable_or_none(ArrayCallback, fn, "ArrayCallback")


def dGeomTriMeshGetArrayCallback(g):
    return trimesh_of(g, "dGeomTriMeshGetArrayCallback").array_callback


def dGeomTriMeshSetRayCallback(g, Callback) -> None:
    """Ray callback ``fn(trimesh, ray, index, u, v) -> int`` (0 drops the hit) or None."""
    fn = "dGeomTriMeshSetRayCallback"
    trimesh_of(g, fn).ray_callback = _callable_or_none(Callback, fn, "Callback")


def dGeomTriMeshGetRayCallback(g):
    return trimesh_of(g, "dGeomTriMeshGetRayCallback").ray_callback


def dGeomTriMeshSetTriMergeCallback(g, Callback) -> None:
    """Tri-merge callback ``fn(trimesh, first, second) -> int`` or None."""
    fn = "dGeomTriMeshSetTriMergeCallback"
    trimesh_of(g, fn).trimerge_callback = _callable_or_none(Callback, fn, "Callback")


def dGeomTriMeshGetTriMergeCallback(g):
    return trimesh_of(g, "dGeomTriMeshGetTriMergeCallback").trimerge_callback


# ----------------------------------------------------------------------------- temporal coherence
def dGeomTriMeshEnableTC(g, geomClass: int, enable: int) -> None:
    """Switch temporal coherence for sphere, box or capsule geoms (other classes
    are ignored, as in ODE). Results do not depend on it (see the module doc)."""
    fn = "dGeomTriMeshEnableTC"
    t = trimesh_of(g, fn)
    c = checks.integer(geomClass, fn, "geomClass")
    on = bool(checks.integer(enable, fn, "enable"))
    if c in t.tc_enabled:
        t.tc_enabled[c] = on


def dGeomTriMeshIsTCEnabled(g, geomClass: int) -> int:
    fn = "dGeomTriMeshIsTCEnabled"
    t = trimesh_of(g, fn)
    return int(t.tc_enabled.get(checks.integer(geomClass, fn, "geomClass"), False))


def dGeomTriMeshClearTCCache(g) -> None:
    """Clear the temporal-coherence caches (none are kept: queries run afresh)."""
    trimesh_of(g, "dGeomTriMeshClearTCCache")


def dGeomTriMeshSetLastTransform(g, last_trans) -> None:
    """Store the mesh's previous 4x4 transform (16 numbers, as ODE's dMatrix4)."""
    fn = "dGeomTriMeshSetLastTransform"
    trimesh_of(g, fn).last_transform = checks.vector(last_trans, 16, fn, "last_trans")


def dGeomTriMeshGetLastTransform(g) -> np.ndarray:
    """The stored previous transform (16,) (zeros until set)."""
    return trimesh_of(g, "dGeomTriMeshGetLastTransform").last_transform.copy()


# ----------------------------------------------------------------------------- triangles
def dGeomTriMeshGetTriangle(g, Index: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The triangle's three corners (v0, v1, v2), each (3,) in world coordinates (m)."""
    fn = "dGeomTriMeshGetTriangle"
    t = trimesh_of(g, fn)
    tri = t.world_triangles([_index(t, Index, fn)])[0]
    return tri[0].copy(), tri[1].copy(), tri[2].copy()


def dGeomTriMeshGetPoint(g, Index: int, u: float, v: float) -> np.ndarray:
    """World point (3,) ``v0 + u (v1 - v0) + v (v2 - v0)`` of the triangle."""
    fn = "dGeomTriMeshGetPoint"
    t = trimesh_of(g, fn)
    uu = checks.real(u, fn, "u")
    vv = checks.real(v, fn, "v")
    tri = t.world_triangles([_index(t, Index, fn)])[0]
    return tri[0] + uu * (tri[1] - tri[0]) + vv * (tri[2] - tri[0])


def dGeomTriMeshGetTriangleCount(g) -> int:
    return trimesh_of(g, "dGeomTriMeshGetTriangleCount").mesh_data.triangle_count


# ----------------------------------------------------------------------------- mass
@njit(cache=True, nogil=True)
def _volume_integrals(W: np.ndarray, out: np.ndarray) -> None:
    """Mirtich's polyhedral integrals over triangles W (t, 3, 3) (world, m):
    out (10,) = [volume, int x, int y, int z, int x^2, int y^2, int z^2,
    int xy, int yz, int zx] over the enclosed solid. Each face integral is
    reduced (divergence theorem) to integrals over the face's projection on
    the coordinate plane it is most parallel to, and those (Green's theorem)
    to sums over its three edges."""
    for k in range(10):
        out[k] = 0.0
    t1 = np.zeros(3)
    t2 = np.zeros(3)
    tp = np.zeros(3)
    n = np.empty(3)
    for f in range(W.shape[0]):
        v = W[f]
        # the face normal as ODE forms it, (v2 - v0) x (v1 - v0)
        a0 = v[1, 0] - v[0, 0]
        a1 = v[1, 1] - v[0, 1]
        a2 = v[1, 2] - v[0, 2]
        b0 = v[2, 0] - v[0, 0]
        b1 = v[2, 1] - v[0, 1]
        b2 = v[2, 2] - v[0, 2]
        n[0] = b1 * a2 - b2 * a1
        n[1] = b2 * a0 - b0 * a2
        n[2] = b0 * a1 - b1 * a0
        nx, ny, nz = abs(n[0]), abs(n[1]), abs(n[2])
        if nx > ny and nx > nz:
            C = 0
        else:
            C = 1 if ny > nz else 2
        if n[C] == 0.0:
            continue
        A = (C + 1) % 3
        B = (A + 1) % 3
        # projection integrals over the face's shadow on the (A, B) plane
        P1 = Pa = Pb = Paa = Pab = Pbb = Paaa = Paab = Pabb = Pbbb = 0.0
        for j in range(3):
            p0 = v[j]
            p1 = v[(j + 1) % 3]
            x0, y0 = p0[A], p0[B]
            x1, y1 = p1[A], p1[B]
            dx = x1 - x0
            dy = y1 - y0
            x02, y02 = x0 * x0, y0 * y0
            x03, y03 = x02 * x0, y02 * y0
            x12, y12 = x1 * x1, y1 * y1
            x13, y13 = x12 * x1, y12 * y1
            c1 = x1 + x0
            ca = x1 * c1 + x02
            caa = x1 * ca + x03
            caaa = x1 * caa + x02 * x02
            cb = y1 * (y1 + y0) + y02
            cbb = y1 * cb + y03
            cbbb = y1 * cbb + y02 * y02
            cab = 3 * x12 + 2 * x1 * x0 + x02
            kab = x12 + 2 * x1 * x0 + 3 * x02
            caab = x0 * cab + 4 * x13
            kaab = x1 * kab + 4 * x03
            cabb = 4 * y13 + 3 * y12 * y0 + 2 * y1 * y02 + y03
            kabb = y13 + 2 * y12 * y0 + 3 * y1 * y02 + 4 * y03
            P1 += dy * c1
            Pa += dy * ca
            Paa += dy * caa
            Paaa += dy * caaa
            Pb += dx * cb
            Pbb += dx * cbb
            Pbbb += dx * cbbb
            Pab += dy * (y1 * cab + y0 * kab)
            Paab += dy * (y1 * caab + y0 * kaab)
            Pabb += dx * (x1 * cabb + x0 * kabb)
        P1 /= 2.0
        Pa /= 6.0
        Paa /= 12.0
        Paaa /= 20.0
        Pb /= -6.0
        Pbb /= -12.0
        Pbbb /= -20.0
        Pab /= 24.0
        Paab /= 60.0
        Pabb /= -60.0
        # face integrals from the projection integrals (plane n.x + w = 0)
        w = -(n[0] * v[0, 0] + n[1] * v[0, 1] + n[2] * v[0, 2])
        na, nb, nc = n[A], n[B], n[C]
        k1 = 1.0 / nc
        k2 = k1 * k1
        k3 = k2 * k1
        k4 = k3 * k1
        Fa = k1 * Pa
        Fb = k1 * Pb
        Fc = -k2 * (na * Pa + nb * Pb + w * P1)
        Faa = k1 * Paa
        Fbb = k1 * Pbb
        Fcc = k3 * (na * na * Paa + 2 * na * nb * Pab + nb * nb * Pbb
                    + w * (2 * (na * Pa + nb * Pb) + w * P1))
        Faaa = k1 * Paaa
        Fbbb = k1 * Pbbb
        Fccc = -k4 * (na ** 3 * Paaa + 3 * na * na * nb * Paab + 3 * na * nb * nb * Pabb
                      + nb ** 3 * Pbbb
                      + 3 * w * (na * na * Paa + 2 * na * nb * Pab + nb * nb * Pbb)
                      + w * w * (3 * (na * Pa + nb * Pb) + w * P1))
        Faab = k1 * Paab
        Fbbc = -k2 * (na * Pabb + nb * Pbbb + w * Pbb)
        Fcca = k3 * (na * na * Paaa + 2 * na * nb * Paab + nb * nb * Pabb
                     + w * (2 * (na * Paa + nb * Pab) + w * Pa))
        out[0] += n[0] * (Fa if A == 0 else (Fb if B == 0 else Fc))
        t1[A] += na * Faa
        t1[B] += nb * Fbb
        t1[C] += nc * Fcc
        t2[A] += na * Faaa
        t2[B] += nb * Fbbb
        t2[C] += nc * Fccc
        tp[A] += na * Faab
        tp[B] += nb * Fbbc
        tp[C] += nc * Fcca
    for i in range(3):
        out[1 + i] = t1[i] / 2.0
        out[4 + i] = t2[i] / 3.0
        out[7 + i] = tp[i] / 2.0


def _set_trimesh_mass(m, value: float, g, function: str, argument: str, total: bool) -> None:
    m = _mass._need(m, function)
    t = trimesh_of(g, function, "g")
    rho = _mass._positive(value, function, argument)
    d = t.mesh_data
    s = np.empty(10)
    _volume_integrals(np.ascontiguousarray(t.world_triangles(np.arange(d.triangle_count))), s)
    vol = s[0]
    if not vol > 0.0:
        raise ODEError(function, "g", f"the mesh encloses no positive volume ({vol}); it must "
                       "be closed with triangles counter-clockwise seen from outside")
    density = 1.0 if total else rho
    # inertia about the world origin from the second moments, then ODE moves
    # the reference point to the centre of mass with dMassTranslate
    I3 = density * np.array([[s[5] + s[6], -s[7], -s[9]],
                             [-s[7], s[6] + s[4], -s[8]],
                             [-s[9], -s[8], s[4] + s[5]]])
    trial = _mass.dMass()
    trial.mass = density * vol
    trial.I = I3
    _mass.dMassTranslate(trial, s[1] / vol, s[2] / vol, s[3] / vol)
    I3 = trial.I3()
    if total:
        # as ODE: unit density, then rescaled to the total (dMassAdjust)
        I3 = I3 * (rho / trial.mass)
        trial.mass = rho
    _mass._commit(m, trial.mass, trial.c, I3, function, "g")


def dMassSetTrimesh(m, density: float, g) -> None:
    """Mass of the closed mesh ``g`` as placed in the world, filled with
    ``density`` kg/m^3 (divergence theorem over its faces, as ODE). As ODE, the
    centre of mass ``c`` is in the world frame and the inertia is taken about
    the world origin then moved once more by dMassTranslate(c)."""
    _set_trimesh_mass(m, density, g, "dMassSetTrimesh", "density", total=False)


def dMassSetTrimeshTotal(m, total_mass: float, g) -> None:
    """dMassSetTrimesh scaled to ``total_mass`` kg (ODE: density 1 then dMassAdjust)."""
    _set_trimesh_mass(m, total_mass, g, "dMassSetTrimeshTotal", "total_mass", total=True)
