"""Boundary-layer contacts of candidate piece pairs (numba kernels).

For pieces A (of geom 1) and B (of geom 2) and ``reach = pad1 + pad2``:

* **Against a half-space** (n, d): the piece's support point along -n is
  its closest point; its distance is ``n.s - d``. Below ``reach`` it gives a
  contact, and so does every probe point (minus its radius) below ``reach``.
  The normal is the plane normal (pointing into geom 1).
* **Two convex pieces**: ``gjk.query`` gives the distance (or, when they
  overlap, the penetration depth by EPA) and the closest (deepest) points.
  If the pair is closer than ``reach`` it gives that contact, plus one per
  probe point of A (a sphere of the probe radius against B) and of B
  (against A) that is closer than ``reach`` and whose own direction agrees
  with the pair's (cosine > :data:`PROBE_COS`): a manifold, e.g. a box's
  four corners on a face.

A contact is ``pos`` = midpoint of the two witness points, the unit normal
from B towards A (ODE: into geom 1), ``depth = reach - distance`` (distance
< 0 when overlapping, then ``penetrating``). Triangle pieces drop contacts
whose witness lies only on non-convex edges of the triangle while the
normal is tilted from the face (the neighbouring triangle gives the right
one). :func:`unique_rows` then marks near-duplicates (< :data:`SAME_POINT`
m apart with normals that differ by less than that).

Rows are (n, 8) float64: ``pos (3) m, normal (3), depth m, penetrating (0/1)``.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from engine.contact.pieces import HALFSPACE, PieceSet
from engine.ode.collision.pairs.gjk import SPHERE, TRIANGLE, margin, query, support

#: A probe contact's direction must agree with the pair's normal: cosine above this.
PROBE_COS = 0.9
#: Contacts closer than this (m) with normals this close are one.
SAME_POINT = 1e-6
#: A triangle's contact normal within acos(1 - this) of its face normal is "on the face".
_FACE_TOL = 1e-6


@njit(cache=True, nogil=True)
def _row(rows: np.ndarray, n: int, p: np.ndarray, q: np.ndarray, nrm: np.ndarray, sep: float,
         reach: float) -> int:
    """Append the contact of witnesses p, q; -1 when ``rows`` is full."""
    if n < 0 or n >= rows.shape[0]:
        return -1
    for a in range(3):
        rows[n, a] = 0.5 * (p[a] + q[a])
        rows[n, 3 + a] = nrm[a]
    rows[n, 6] = reach - sep
    rows[n, 7] = 1.0 if sep < 0.0 else 0.0
    return n + 1


@njit(cache=True, nogil=True)
def _face_ok(tri: np.ndarray, conv: np.ndarray, p: np.ndarray, outward: np.ndarray) -> bool:
    """False if witness p on triangle ``tri`` (9,) lies only on non-convex
    edges while ``outward`` (the contact direction leaving this side) is
    tilted from the face normal."""
    e1 = tri[3:6] - tri[0:3]
    e2 = tri[6:9] - tri[0:3]
    nf = np.cross(e1, e2)
    ln = math.sqrt(nf[0] * nf[0] + nf[1] * nf[1] + nf[2] * nf[2])
    if ln == 0.0:
        return True
    nf = nf / ln
    if outward[0] * nf[0] + outward[1] * nf[1] + outward[2] * nf[2] >= 1.0 - _FACE_TOL:
        return True
    on_edge = False
    flat_only = True
    for i in range(3):
        a = tri[3 * i:3 * i + 3]
        j = (i + 1) % 3
        e = tri[3 * j:3 * j + 3] - a
        le = math.sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2])
        if le == 0.0:
            continue
        inward = np.cross(nf, e) / le
        s = inward[0] * (p[0] - a[0]) + inward[1] * (p[1] - a[1]) + inward[2] * (p[2] - a[2])
        if s <= 1e-9 * le:
            on_edge = True
            if conv[i]:
                flat_only = False
    return not (on_edge and flat_only)


@njit(cache=True, nogil=True)
def _emit(A: PieceSet, ia: int, B: PieceSet, ib: int, w: np.ndarray, reach: float,
          rows: np.ndarray, n: int) -> int:
    """Append the contact ``w`` (10,) = [distance, normal into geom 1 (3),
    witness on A (3), witness on B (3)] of pieces A[ia], B[ib] unless a
    triangle side rejects it."""
    nrm = w[1:4]
    if A.kind[ia] == TRIANGLE and not _face_ok(A.prm[A.off[ia]:A.off[ia] + 9], A.conv[ia],
                                               w[4:7], -nrm):
        return n
    if B.kind[ib] == TRIANGLE and not _face_ok(B.prm[B.off[ib]:B.off[ib] + 9], B.conv[ib],
                                               w[7:10], nrm):
        return n
    return _row(rows, n, w[4:7], w[7:10], nrm, w[0], reach)


@njit(cache=True, nogil=True)
def _plane_rows(X: PieceSet, ix: int, plane: np.ndarray, sign: float, reach: float,
                rows: np.ndarray, n: int) -> int:
    """Contacts of piece X[ix] with the half-space ``plane`` (nx, ny, nz, d);
    ``sign`` +1 when X is geom 1's piece (the normal is then +n)."""
    nv = plane[0:3].copy()
    d = plane[3]
    k = X.kind[ix]
    prm = X.prm[X.off[ix]:X.off[ix + 1]]
    s0, s1, s2 = support(k, prm, X.pos[ix], X.R[ix], margin(k, prm), -nv[0], -nv[1], -nv[2])
    dist = nv[0] * s0 + nv[1] * s1 + nv[2] * s2 - d
    if dist >= reach:
        return n
    nrm = sign * nv
    p = np.array([s0, s1, s2])
    n = _row(rows, n, p, p - dist * nv, nrm, dist, reach)
    for q in range(X.poff[ix], X.poff[ix + 1]):
        p = X.ppts[q] - X.prad[q] * nv
        dq = nv[0] * p[0] + nv[1] * p[1] + nv[2] * p[2] - d
        if dq < reach:
            n = _row(rows, n, p, p - dq * nv, nrm, dq, reach)
    return n


@njit(cache=True, nogil=True)
def _piece_rows(A: PieceSet, ia: int, B: PieceSet, ib: int, reach: float, rows: np.ndarray,
                n: int) -> int:
    """Contacts of two convex pieces: the closest pair and the agreeing probes."""
    out = np.empty(10)
    ka = A.kind[ia]
    kb = B.kind[ib]
    pa = A.prm[A.off[ia]:A.off[ia + 1]]
    pb = B.prm[B.off[ib]:B.off[ib + 1]]
    query(ka, pa, A.pos[ia], A.R[ia], kb, pb, B.pos[ib], B.R[ib], out)
    if out[0] >= reach:
        return n
    nrm = -out[1:4]
    w = out.copy()
    w[1:4] = nrm
    n = _emit(A, ia, B, ib, w, reach, rows, n)
    eye = np.eye(3)
    ball = np.empty(1)
    # a value, not the constant: a literal kind would compile GJK/EPA once more
    sphere = np.int64(SPHERE)
    for q in range(A.poff[ia], A.poff[ia + 1]):
        ball[0] = A.prad[q]
        query(sphere, ball, A.ppts[q], eye, kb, pb, B.pos[ib], B.R[ib], out)
        if out[0] < reach and -(out[1] * nrm[0] + out[2] * nrm[1] + out[3] * nrm[2]) > PROBE_COS:
            w[:] = out
            w[1:4] = -out[1:4]
            n = _emit(A, ia, B, ib, w, reach, rows, n)
    for q in range(B.poff[ib], B.poff[ib + 1]):
        ball[0] = B.prad[q]
        query(ka, pa, A.pos[ia], A.R[ia], sphere, ball, B.ppts[q], eye, out)
        if out[0] < reach and -(out[1] * nrm[0] + out[2] * nrm[1] + out[3] * nrm[2]) > PROBE_COS:
            w[:] = out
            w[1:4] = -out[1:4]
            n = _emit(A, ia, B, ib, w, reach, rows, n)
    return n


@njit(cache=True, nogil=True)
def pair_rows(A: PieceSet, ia: int, B: PieceSet, ib: int, reach: float, rows: np.ndarray,
              n: int) -> int:
    """Append the contacts of pieces A[ia] and B[ib] to ``rows`` from row ``n``;
    returns the new count, or -1 when ``rows`` is full."""
    ka = A.kind[ia]
    kb = B.kind[ib]
    if ka == HALFSPACE and kb == HALFSPACE:
        return n
    if kb == HALFSPACE:
        return _plane_rows(A, ia, B.prm[B.off[ib]:B.off[ib] + 4], 1.0, reach, rows, n)
    if ka == HALFSPACE:
        return _plane_rows(B, ib, A.prm[A.off[ia]:A.off[ia] + 4], -1.0, reach, rows, n)
    return _piece_rows(A, ia, B, ib, reach, rows, n)


@njit(cache=True, nogil=True)
def pair_contacts(A: PieceSet, B: PieceSet, pairs: np.ndarray, reach: float,
                  rows: np.ndarray) -> int:
    """Write the contacts of candidate pairs ``pairs (k, 2)`` [piece of A, piece
    of B] into ``rows (cap, 8)``; returns their number, or -1 if more than cap."""
    n = 0
    for k in range(pairs.shape[0]):
        n = pair_rows(A, pairs[k, 0], B, pairs[k, 1], reach, rows, n)
        if n < 0:
            return -1
    return n


@njit(cache=True, nogil=True)
def unique_rows(rows: np.ndarray, n: int) -> np.ndarray:
    """(n,) bool: keep row i unless an earlier row is within SAME_POINT (m)
    with a normal within SAME_POINT (deterministic: sorted by x, stable)."""
    keep = np.ones(n, dtype=np.bool_)
    order = np.argsort(rows[:n, 0].copy(), kind="mergesort")
    tol2 = SAME_POINT * SAME_POINT
    for a in range(n):
        i = order[a]
        for b in range(a + 1, n):
            j = order[b]
            if rows[j, 0] - rows[i, 0] >= SAME_POINT:
                break
            dp = 0.0
            dn = 0.0
            for c in range(3):
                ep = rows[i, c] - rows[j, c]
                en = rows[i, 3 + c] - rows[j, 3 + c]
                dp += ep * ep
                dn += en * en
            if dp < tol2 and dn < tol2:
                keep[max(i, j)] = False
    return keep
