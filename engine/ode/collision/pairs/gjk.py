"""Support-mapping toolkit: GJK distance and EPA penetration of convex shapes.

A convex shape is given by a **shape code**, a float64 **parameter array**
and a **pose** (``pos`` (3,) m, ``R`` (3, 3) local-to-world rotation):

=========  ==========================================  ======  =======
code       params (local frame, metres)                 core    margin
=========  ==========================================  ======  =======
SPHERE     (r,)                                         point   r
BOX        (hx, hy, hz) half sides                      itself  0
CAPSULE    (r, h): segment z = -h..h                    segment r
CYLINDER   (r, h): along z, caps at z = +-h             itself  0
POLYTOPE   flat (3 n,) vertices (hull of the points)    itself  0
TRIANGLE   flat (9,) three vertices                     itself  0
SEGMENT    flat (6,) two end points                     itself  0
POINT      (3,) the point                               itself  0
=========  ==========================================  ======  =======

Everything rests on the support function ``s_K(d)``, a point of K furthest
along d. For two shapes A and B the Minkowski difference D = A - B has
``s_D(d) = s_A(d) - s_B(-d)``; A and B overlap iff the origin is in D, their
distance is the distance from the origin to D, and their penetration depth
(minimum translation distance) is the distance from the origin to the
boundary of D, reached along the unit n minimising ``h_A(n) + h_B(-n)``.

* **Cores and margins.** A sphere is a point and a capsule a segment
  "inflated" by a radius (the margin). Since (K + ball r) is the set of
  points within r of K, the distance of two rounded shapes is the distance of
  their cores minus the radii, along the same direction, and when the cores
  overlap the depth is the cores' depth plus the radii. So queries run on
  the cores (polytopes for spheres and capsules against polytopes: exact,
  finite convergence) and add the margins at the end.
* **GJK** (Gilbert-Johnson-Keerthi, in the form of van den Bergen's book):
  a simplex of at most 4 points of D (with the points of A and B they came
  from) is moved towards the origin: ``v`` is the point of the simplex
  closest to the origin (closest-point routines on a segment, triangle and
  tetrahedron with Voronoi-region tests, which also drop the vertices not
  needed; on a triangle v is the projection on its plane, whose normal keeps
  the direction of v exact when the shapes nearly touch), the next vertex is
  ``w = s_D(-v)``, and the loop stops when ``|v|^2 - v.w <= 1e-10 |v|^2``,
  when w repeats a vertex, when |v| stops decreasing, or when the simplex
  encloses the origin (a tetrahedron, or |v| ~ 0: touching or
  overlapping; a flat tetrahedron is never taken to enclose it). The
  distance reported is the gap between the shapes' supporting planes normal
  to v, a lower bound equal to |v| on convergence (GJK can stall short of
  it on a cylinder's rims); a gap <= 0 counts as touching.
  The closest points are the barycentric combinations of the A and B
  vertices.
* **EPA** (expanding polytope): GJK's final simplex is first blown up to a
  tetrahedron around the origin (supports along the coordinate axes for a
  point, around the segment for a segment, along the triangle normal for a
  triangle; a flat or lower-dimensional D, e.g. a point core against a
  segment core, is reported as such and answered by the caller: the cores'
  depth is then 0 across it). Faces are wound counter-clockwise seen from
  outside and know their three neighbours; each step takes the open face
  nearest the origin, unit normal n at distance d, and ``w = s_D(n)``; if
  ``n.w - d <= 1e-10`` of the size (exact for polytopes, a tolerance for
  curved shapes) the face is a face of D, otherwise the faces that see w,
  found by walking the neighbours from that face, are removed and the
  horizon of the hole is joined to w. The loop goes on while open faces are
  as near as the nearest face of D (within 1e-9 of the size), to find ties.
  It stops early, keeping the least overlap ``n.w`` seen (an upper bound,
  still separating) polished by a compass search on the sphere, if the
  horizon is not one loop, the polytope runs out of room (192 vertices:
  a sphere centred on a cylinder's axis has a circle of deepest
  directions) or rounding makes the nearest distance shrink.
  The deepest points are the barycentric combination, on the A and B
  vertices, of the origin's projection on the face; if that falls outside
  the face, the closest points of the two shapes moved apart by the depth.
* **Ties.** When the minimum translation is not unique (two tip-to-tip
  octahedra: four face normals at the same depth) the faces of D within
  1e-9 of the depth with different normals (more than 0.08 deg apart) are
  ranked by their alignment with the centre line A -> B (concentric shapes:
  the nearest is taken); several equally aligned ones are replaced by their
  mean direction, with the overlap of the shapes along it
  (``h_A(n) + h_B(-n)``) as the depth: a separating
  translation, symmetric, the same in both argument orders, and no
  sideways push on symmetric bodies (ODE/libccd also pushes tip-to-tip
  octahedra along the axis).

Results (``query``): ``out`` (10,) = ``sep`` (distance if apart, minus the
depth if overlapping), the unit direction ``n`` (3,) from A to B (moving B
by ``-sep`` along n separates the shapes when they overlap; it joins the
closest points when apart), and the witness points ``pA`` (3,) on A and
``pB`` (3,) on B (closest points when apart; the deepest points when
overlapping, ``pA - pB = depth n``).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from engine.ode.collision.pairs.epa import (
    epa,
)
from engine.ode.collision.pairs.gjk_distance import (
    gjk,
)
from engine.ode.collision.pairs.support_shapes import (
    _EPA_LINE,
    _EPA_OK,
    _EPA_POINT,
    BOX,
    CAPSULE,
    CYLINDER,
    POINT,
    POLYTOPE,
    SEGMENT,
    SPHERE,
    TRIANGLE,
    local_support,
    margin,
    support,
    support_value,
)
from engine.ode.kernels.vec import dot3


# ----------------------------------------------------------------------------- query
@njit(cache=True, nogil=True)
def query(ka: int, pa: np.ndarray, posa: np.ndarray, Ra: np.ndarray,
          kb: int, pb: np.ndarray, posb: np.ndarray, Rb: np.ndarray,
          out: np.ndarray) -> int:
    """Distance or penetration of shapes A and B (codes, params, poses).

    ``out`` (10,) = sep (distance > 0 apart, -depth <= 0 in contact), unit n
    (3,) from A to B, pA (3,) on A, pB (3,) on B (module docstring).
    Returns 1 when the shapes touch or overlap, else 0."""
    ma = margin(ka, pa)
    mb = margin(kb, pb)
    W = np.empty((5, 3))
    WA = np.empty((5, 3))
    WB = np.empty((5, 3))
    g = np.empty(10)
    n = gjk(ka, pa, posa, Ra, 0.0, kb, pb, posb, Rb, 0.0, W, WA, WB, g)
    if n < 4 and g[0] > 0.0:
        dist = g[0]
        out[1:4] = g[7:10]
        for j in range(3):
            out[4 + j] = g[1 + j] + ma * out[1 + j]
            out[7 + j] = g[4 + j] - mb * out[1 + j]
        out[0] = dist - ma - mb
        return 1 if out[0] <= 0.0 else 0
    status = epa(ka, pa, posa, Ra, 0.0, kb, pb, posb, Rb, 0.0, W, WA, WB, n, out)
    if status != _EPA_OK:
        # D of the cores has no volume but holds the origin: the cores' depth
        # is 0 along a normal of D (chosen towards B), the margins add theirs
        d = out[1:4].copy()
        c = posb - posa
        if status == _EPA_LINE or status == _EPA_POINT:
            if status == _EPA_POINT:
                d[:] = 0.0
            d = c - dot3(c, d) * d              # the part of A->B across the line
            if dot3(d, d) < 1e-24:
                d = np.cross(out[1:4], np.array([1.0, 0.0, 0.0]))
                if dot3(d, d) < 1e-24:
                    d = np.cross(out[1:4], np.array([0.0, 1.0, 0.0]))
                if dot3(d, d) < 1e-24:
                    d = np.array([0.0, 0.0, 1.0])
            d = d / math.sqrt(dot3(d, d))
        elif dot3(d, c) < 0.0:
            d = -d
        out[0] = 0.0
        out[1:4] = d
        if n < 4:
            out[4:7] = g[1:4]
            out[7:10] = g[4:7]
        else:
            out[4:7] = WA[0]
            out[7:10] = WB[0]
    for j in range(3):
        out[4 + j] += ma * out[1 + j]
        out[7 + j] -= mb * out[1 + j]
    out[0] = -(out[0] + ma + mb)
    return 1


__all__ = ["query", "SPHERE", "BOX", "CAPSULE", "CYLINDER", "POLYTOPE", "TRIANGLE", "SEGMENT",
           "POINT", "support_value", "support", "local_support", "margin"]
