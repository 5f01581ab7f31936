"""The convex geom: a convex polyhedron given by its face planes, vertices and polygons.

``dCreateConvex(space, planes, planecount, points, pointcount, polygons)``
(the C order, counts kept):

* ``planes``: ``planecount`` planes ``a x + b y + c z = d`` in the geom's
  frame, (n, 4) or flat, with outward normals (a, b, c). Normals are scaled
  to unit length (d with them), as dCreatePlane does; ODE assumes they are.
* ``points``: ``pointcount`` vertices in the geom's frame, (n, 3) or flat.
* ``polygons``: flat ``[n, i0 .. i(n-1), n, ...]``, one polygon per plane
  in the same order, vertex indices counter-clockwise seen from outside.

The geom keeps ``planes`` (p, 4), ``points`` (n, 3), ``polygons`` (a list of
p index arrays) and ``edges`` (e, 2), each edge once (lower index first, in
the order the polygons first use them). Its AABB bounds the transformed
points. The arrays are validated: counts, shapes, finite values, indices,
polygon sizes (>= 3) and that no vertex lies in front of a plane (which
catches inward normals and non-convex input) — an ODEError names the
argument at fault.
"""

from __future__ import annotations

import numpy as np

from engine.ode import checks
from engine.ode.collision.geoms.geom import Geom, geom_of
from engine.ode.constants import dConvexClass
from engine.ode.errors import ODEError
from engine.ode.kernels.detlinalg import matmul, norm

#: Vertices may stand this far (relative to the hull's size) in front of a plane.
_PLANE_TOL = 1e-6


class Convex(Geom):
    CLASS = dConvexClass
    NAME = "convex"
    CREATOR = "dCreateConvex"
    __slots__ = ("planes", "points", "polygons", "polygon_data", "edges")

    def __init__(self, space, planes, planecount, points, pointcount, polygons) -> None:
        _set(self, planes, planecount, points, pointcount, polygons, "dCreateConvex")
        super().__init__(space)

    def compute_aabb(self) -> np.ndarray:
        w = matmul(self.points, self.R.T) + self.pos
        lo = w.min(axis=0)
        hi = w.max(axis=0)
        return np.array([lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]])


def _count(value, function: str, argument: str) -> int:
    n = checks.integer(value, function, argument)
    if n < 1:
        raise ODEError(function, argument, f"must be at least 1, got {n}")
    return n


def _array(values, count: int, width: int, function: str, argument: str) -> np.ndarray:
    """``count`` rows of ``width`` finite numbers from an (count, width) or flat array."""
    try:
        a = np.array(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise ODEError(function, argument, f"expected numbers, got {values!r}") from None
    if a.ndim == 2 and a.shape[1] != width:
        raise ODEError(function, argument, f"expected rows of {width} numbers, got shape "
                       f"{a.shape}")
    if a.ndim > 2 or a.size != count * width:
        raise ODEError(function, argument, f"expected {count} x {width} = {count * width} "
                       f"numbers, got {a.size} (shape {a.shape})")
    if not np.all(np.isfinite(a)):
        raise ODEError(function, argument, "must be finite")
    return a.reshape(count, width)


def _polygons(values, planecount: int, pointcount: int, function: str) -> tuple:
    """(list of index arrays, flat int64 array) of ``planecount`` polygons."""
    try:
        raw = np.array(values).reshape(-1)
    except (TypeError, ValueError):
        raise ODEError(function, "polygons", f"expected integers, got {values!r}") from None
    if raw.size and not (np.issubdtype(raw.dtype, np.integer)
                         or (np.issubdtype(raw.dtype, np.floating)
                             and np.all(np.isfinite(raw)) and np.all(raw == np.round(raw)))):
        raise ODEError(function, "polygons", "expected integers")
    flat = raw.astype(np.int64)
    polys = []
    k = 0
    for p in range(planecount):
        if k >= flat.size:
            raise ODEError(function, "polygons", f"holds {p} polygons, planecount is "
                           f"{planecount}")
        n = int(flat[k])
        if n < 3:
            raise ODEError(function, "polygons", f"polygon {p} has {n} vertices (at least 3)")
        idx = flat[k + 1:k + 1 + n]
        if idx.size != n:
            raise ODEError(function, "polygons", f"polygon {p} is cut short")
        if np.any(idx < 0) or np.any(idx >= pointcount):
            raise ODEError(function, "polygons", f"polygon {p} has a vertex index outside "
                           f"0..{pointcount - 1}: {idx.tolist()}")
        polys.append(idx.copy())
        k += 1 + n
    if k != flat.size:
        raise ODEError(function, "polygons", f"{flat.size - k} numbers left after the "
                       f"{planecount} polygons")
    return polys, flat


def _edges(polygons: list[np.ndarray]) -> np.ndarray:
    """(e, 2) unique undirected edges, lower index first, in order of first use."""
    seen: dict[tuple[int, int], None] = {}
    for poly in polygons:
        n = len(poly)
        for i in range(n):
            a, b = int(poly[i]), int(poly[(i + 1) % n])
            if a != b:
                seen.setdefault((min(a, b), max(a, b)), None)
    return np.array(list(seen), dtype=np.int64).reshape(-1, 2)


def _set(g: Convex, planes, planecount, points, pointcount, polygons, function: str) -> None:
    """Validate the arrays and store them on ``g`` (left unchanged on error)."""
    np_ = _count(planecount, function, "planecount")
    nq = _count(pointcount, function, "pointcount")
    pl = _array(planes, np_, 4, function, "planes")
    pts = _array(points, nq, 3, function, "points")
    norms = norm(pl[:, :3], axis=1)
    if np.any(norms == 0.0):
        raise ODEError(function, "planes", f"plane {int(np.argmin(norms))} has a zero normal")
    pl = pl / norms[:, None]
    polys, flat = _polygons(polygons, np_, nq, function)
    size = max(float(np.max(np.abs(pts))), 1e-12)
    ahead = matmul(pts, pl[:, :3].T) - pl[:, 3]
    if np.max(ahead) > _PLANE_TOL * size:
        i, p = np.unravel_index(int(np.argmax(ahead)), ahead.shape)
        raise ODEError(function, "planes", f"point {i} lies {ahead[i, p]:.3g} in front of "
                       f"plane {p}: planes must face outwards and bound every point")
    g.planes = pl
    g.points = pts
    g.polygons = polys
    g.polygon_data = flat
    g.edges = _edges(polys)


def dCreateConvex(space, planes, planecount: int, points, pointcount: int,
                  polygons) -> Convex:
    """A convex geom (see the module docstring for the array conventions)."""
    return Convex(space, planes, planecount, points, pointcount, polygons)


def dGeomSetConvex(g, planes, planecount: int, points, pointcount: int, polygons) -> None:
    """Replace the convex's planes, points and polygons."""
    geom = geom_of(g, "dGeomSetConvex", "g", Convex)
    _set(geom, planes, planecount, points, pointcount, polygons, "dGeomSetConvex")
