"""The batched narrow phase: contacts of every candidate pair in one compiled call.

:func:`kernel_table` says how dCollide serves each class pair right now (a
compiled kernel, swapped or not, no collider, or Python); :func:`narrow_phase`
runs the compiled kernels over a list of pairs. The hot ones (sphere-sphere,
sphere-plane, sphere-box, box-plane, box-box) write their rows straight into
the output with a scratch shared by all pairs (``*_into``), so that a pair
allocates nothing; the others return their rows, which are copied.

Contact rows are ``(m, 9)`` float64: ``pos (3) m, normal (3) (into geom 1),
depth m, side1, side2``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.ode.collision import table as collider_table
from engine.ode.collision.pairs import colliders_box_box as bb
from engine.ode.collision.pairs import colliders_capsule as cap
from engine.ode.collision.pairs import colliders_cylinder as cc
from engine.ode.collision.pairs import colliders_plane as pln
from engine.ode.collision.pairs import colliders_sphere as sph
from engine.ode.collision.pairs.common import spheres_contact
from engine.ode.constants import (
    dBoxClass,
    dCapsuleClass,
    dCylinderClass,
    dGeomNumClasses,
    dPlaneClass,
    dSphereClass,
)
from engine.ode.kernels.options import NO_ALLOC

# compiled pair kernels (a negative table entry: call with the geoms swapped)
K_FALLBACK, K_SS, K_SP, K_SB, K_BP, K_CP, K_CS, K_CC, K_BB, K_CB = 0, 1, 2, 3, 4, 5, 6, 7, 8, 9
K_YP, K_YS, K_YB, K_YY, K_CY = 10, 11, 12, 13, 14
#: Table entry of a class pair without any collider (no contacts, as dCollide).
K_NONE = 100
#: ``counts`` markers of :func:`narrow_phase`: pair left to Python / skipped (bodies joined).
PAIR_PYTHON, PAIR_CONNECTED = -1, -2
#: Rows a pair may add at most (box-box before culling).
MAX_PAIR_ROWS = 8
#: Float64 scratch shared by the ``*_into`` kernels (sphere-box, box-plane, box-box).
_WS_LEN = max(16, sph.SPHERE_BOX_WS, pln.BOX_PLANE_WS)


def _builtin() -> dict:
    """(class1, class2) -> (registered function, kernel id) of the compiled pairs."""
    S, B, C, Y, P = dSphereClass, dBoxClass, dCapsuleClass, dCylinderClass, dPlaneClass
    return {
        (S, S): (sph.sphere_sphere, K_SS), (S, P): (pln.sphere_plane, K_SP),
        (S, B): (sph.sphere_box, K_SB), (B, P): (pln.box_plane, K_BP),
        (C, P): (pln.capsule_plane, K_CP), (C, S): (cap.capsule_sphere, K_CS),
        (C, C): (cap.capsule_capsule, K_CC), (B, B): (bb.box_box, K_BB),
        (C, B): (cap.capsule_box, K_CB), (Y, P): (cc.cylinder_plane, K_YP),
        (Y, S): (cc.cylinder_sphere, K_YS), (Y, B): (cc.cylinder_box, K_YB),
        (Y, Y): (cc.cylinder_cylinder, K_YY), (C, Y): (cc.capsule_cylinder, K_CY),
    }


_TABLE: list = [None, None]     # (table version, table)


def kernel_table() -> np.ndarray:
    """(dGeomNumClasses, dGeomNumClasses) int64: how dCollide(g1, g2) is served
    for each class pair right now: +k / -k compiled kernel k on (g1, g2) / on
    (g2, g1) swapped, ``K_NONE`` no collider, ``K_FALLBACK`` Python dCollide
    (other colliders, user overrides). Cached until the collider tables change."""
    version = collider_table.table_version()
    if _TABLE[0] == version:
        return _TABLE[1]
    table = _build_table()
    _TABLE[0] = version
    _TABLE[1] = table
    return table


def _build_table() -> np.ndarray:
    n = dGeomNumClasses
    table = np.full((n, n), K_NONE, dtype=np.int64)
    builtin = _builtin()
    keys = set(collider_table.COLLIDERS)
    for a in range(n):
        for b in range(n):
            if (a, b) in collider_table.OVERRIDES or (b, a) in collider_table.OVERRIDES:
                table[a, b] = K_FALLBACK
            elif (a, b) in keys:
                entry = builtin.get((a, b))
                ok = entry is not None and collider_table.COLLIDERS[(a, b)] is entry[0]
                table[a, b] = entry[1] if ok else K_FALLBACK
            elif (b, a) in keys:
                entry = builtin.get((b, a))
                ok = entry is not None and collider_table.COLLIDERS[(b, a)] is entry[0]
                table[a, b] = -entry[1] if ok else K_FALLBACK
    return table


# ----------------------------------------------------------------------------- kernels
@njit(cache=True, nogil=True)
def _pair_rows(k, i, j, pos, R, size, maxc):
    """Contact rows (q, 9) of geoms i, j (in that order) by a compiled kernel ``k``
    that returns its rows (those without an ``*_into`` form)."""
    if k == K_CP:
        return pln.capsule_plane_kernel(pos[i], R[i], size[i, 0], size[i, 1], size[j], maxc)
    if k == K_CS:
        return cap.capsule_sphere_kernel(pos[i], R[i], size[i, 0], size[i, 1], pos[j],
                                        size[j, 0])
    if k == K_CC:
        return cap.capsule_capsule_kernel(pos[i], R[i], size[i, 0], size[i, 1], pos[j], R[j],
                                         size[j, 0], size[j, 1], maxc)
    if k == K_CB:
        return cap.capsule_box_kernel(pos[i], R[i], size[i, 0], size[i, 1], pos[j], R[j],
                                     size[j, :3], maxc)
    if k == K_YP:
        return cc.cylinder_plane_kernel(pos[i], R[i], size[i, 0], size[i, 1], size[j], maxc)
    if k == K_YS:
        return cc.cylinder_sphere_kernel(pos[i], R[i], size[i, 0], size[i, 1], pos[j],
                                         size[j, 0])
    if k == K_YB:
        return cc.cylinder_box_kernel(pos[i], R[i], size[i, 0], size[i, 1], pos[j], R[j],
                                      size[j, :3], maxc)
    if k == K_YY:
        return cc.cylinder_cylinder_kernel(pos[i], R[i], size[i, 0], size[i, 1], pos[j], R[j],
                                           size[j, 0], size[j, 1], maxc)
    return cc.capsule_cylinder_kernel(pos[i], R[i], size[i, 0], size[i, 1], pos[j], R[j],
                                      size[j, 0], size[j, 1])


@njit(**NO_ALLOC)
def _pair_into(k, i, j, pos, R, size, maxc, ws3, ws, iws, out, at) -> int:
    """Contact rows of geoms i, j (in that order) by compiled kernel ``k`` written
    into ``out`` from row ``at`` (room for ``MAX_PAIR_ROWS`` rows); returns how
    many, or -1 when ``k`` has no ``*_into`` form (see :func:`_pair_rows`)."""
    if k == K_SS:
        return spheres_contact(pos[i], size[i, 0], pos[j], size[j, 0], out[at])
    if k == K_SP:
        return pln.sphere_plane_into(pos[i], size[i, 0], size[j], out, at)
    if k == K_SB:
        return sph.sphere_box_into(pos[i], size[i, 0], pos[j], R[j], size[j, :3], ws, out, at)
    if k == K_BP:
        return pln.box_plane_into(pos[i], R[i], size[i, :3], size[j], maxc, ws, out, at)
    if k == K_BB:
        normal = ws3[bb.BOX_BOX_WS3]
        m, _depth, _code = bb.box_box_rows(pos[i], R[i], size[i, :3], pos[j], R[j],
                                           size[j, :3], maxc, ws3, ws, iws, out, at, normal)
        # the normal into box 1
        for r in range(at, at + m):
            for c in range(3):
                out[r, 3 + c] = -normal[c]
        return m
    return -1


@njit(cache=True, nogil=True)
def narrow_phase(pairs, cls, table, pos, R, size, body, nbody, conn, maxc):
    """Contacts of every candidate pair, in pair order.

    pairs (p, 2) int64 geom indices (g1, g2); cls (n,) classes; table from
    :func:`kernel_table`; pos (n, 3), R (n, 3, 3), size (n, 4) as gathered;
    body (n,) body rows (-1 none); conn: sorted keys of joined body pairs
    (lo * nbody + hi; pairs of joined bodies are skipped); maxc >= 1.
    Returns ``(rows (m, 9), counts (p,))``: the rows of each compiled pair
    in order, and per pair its row count or ``PAIR_PYTHON`` (left to
    dCollide) / ``PAIR_CONNECTED`` (skipped).
    """
    npairs = pairs.shape[0]
    counts = np.zeros(npairs, dtype=np.int64)
    out = np.empty((max(16, 2 * npairs), 9))
    ws3 = np.empty((bb.BOX_BOX_WS3 + 1, 3))     # and the box-box normal
    ws = np.empty(_WS_LEN)
    iws = np.empty(16, dtype=np.int64)
    k = 0
    p = 0
    while True:
        k, p = _pairs_into(p, k, pairs, cls, table, pos, R, size, body, nbody, conn, maxc,
                           ws3, ws, iws, out, counts)
        if p == npairs:
            return out[:k], counts
        # the next pair may not fit: grow the rows and go on from it
        bigger = np.empty((2 * out.shape[0] + MAX_PAIR_ROWS, 9))
        bigger[:k] = out[:k]
        out = bigger


@njit(cache=True, nogil=True)
def _pairs_into(p, k, pairs, cls, table, pos, R, size, body, nbody, conn, maxc, ws3, ws, iws,
                out, counts):
    """:func:`narrow_phase` of the pairs from ``p`` on, their rows into ``out``
    from row ``k`` and their counts into ``counts``, until a pair might not
    fit. Returns ``(k, p)``: the rows used and the first pair not done.

    ``out`` is never replaced here (the caller grows it): an array variable
    reassigned inside the loop is one numba counts references to at every
    pair (atomic operations that cost more than a sphere's contact)."""
    npairs = pairs.shape[0]
    nconn = conn.shape[0]
    while p < npairs:
        i = pairs[p, 0]
        j = pairs[p, 1]
        if nconn > 0 and body[i] >= 0 and body[j] >= 0:
            key = min(body[i], body[j]) * nbody + max(body[i], body[j])
            t = np.searchsorted(conn, key)
            if t < nconn and conn[t] == key:
                counts[p] = PAIR_CONNECTED
                p += 1
                continue
        code = table[cls[i], cls[j]]
        if code == K_NONE:
            p += 1
            continue
        if code == K_FALLBACK:
            counts[p] = PAIR_PYTHON
            p += 1
            continue
        if k + MAX_PAIR_ROWS > out.shape[0]:
            return k, p
        if code > 0:
            m = _pair_into(code, i, j, pos, R, size, maxc, ws3, ws, iws, out, k)
        else:
            m = _pair_into(-code, j, i, pos, R, size, maxc, ws3, ws, iws, out, k)
        if m < 0:
            m = _copied_pair_rows(code, i, j, pos, R, size, maxc, out, k)
            if m < 0:
                return k, p
        m = min(m, maxc)
        if code < 0:
            # contacts of (g2, g1): normal negated, sides exchanged
            for r in range(k, k + m):
                for c in range(3):
                    out[r, 3 + c] = -out[r, 3 + c]
                s1 = out[r, 7]
                out[r, 7] = out[r, 8]
                out[r, 8] = s1
        counts[p] = m
        k += m
        p += 1
    return k, p


@njit(cache=True, nogil=True)
def _copied_pair_rows(code, i, j, pos, R, size, maxc, out, k) -> int:
    """The rows of a pair whose kernel has no ``*_into`` form (:func:`_pair_rows`;
    ``code`` < 0: geoms j, i), copied into ``out`` from row ``k``; returns
    their number, or -1 if they do not fit (nothing written)."""
    if code > 0:
        rows = _pair_rows(code, i, j, pos, R, size, maxc)
    else:
        rows = _pair_rows(-code, j, i, pos, R, size, maxc)
    m = rows.shape[0]
    if k + m > out.shape[0]:
        return -1
    out[k:k + m] = rows
    return m
