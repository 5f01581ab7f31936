"""Trimesh preprocessing: which edges and vertices of each triangle colliders
test (concave creases and shared edges culled), and the angles between faces.

Used by ``dGeomTriMeshDataPreprocess2`` (trimesh_data.py).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from engine.ode.kernels import detmath


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
    return detmath.asin(c) if check < 0.0 else 0.5 * math.pi + detmath.acos(c)


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


def edge_use_flags_and_angles(vertices: np.ndarray, triangles: np.ndarray,
                              normals: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """Per-triangle use flags (t,) uint8 and face angles (t, 3) rad of a mesh.

    ``vertices`` (n, 3), ``triangles`` (t, 3) int64, ``normals`` (t, 3) the
    user's face normals or None (computed from the vertices then). Edges are
    visited in the order of a sort of (min vertex, max vertex) keys that
    behaves like the C++ library ODE was built with, so ties resolve as in
    ODE and the same triangle receives a shared edge.
    """
    t = triangles
    tc = t.shape[0]
    a = t.reshape(-1)
    b = t[:, [1, 2, 0]].reshape(-1)
    ev1 = np.minimum(a, b)
    ev2 = np.maximum(a, b)
    order = np.arange(3 * tc, dtype=np.int64)
    _introsort(order, ev1, ev2)
    flags = np.zeros(tc, dtype=np.uint8)
    angles = np.zeros((tc, 3))
    has_n = normals is not None
    n_in = normals if has_n else np.zeros((1, 3))
    _edge_flags_kernel(vertices, t, n_in, has_n, order, ev1, ev2,
                       max(1, len(vertices)), flags, angles)
    return flags, angles
