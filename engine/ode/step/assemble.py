"""Constraint-row assembly for one island (compiled).

From the island's joints: ask each for its row count (info1), order the
joints (dWorldStep: purely unbounded joints first, then mixed, then purely
bounded, so the LCP sees its unbounded rows first; dWorldQuickStep: island
order), preset and fill the rows (info2), and make friction indices
island-relative.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from engine.ode.constants import dJointTypeContact
from engine.ode.joints import contact
from engine.ode.joints.dispatch import joint_info1, joint_info2
from engine.ode.joints.layout import B_AVEL, B_LVEL, B_POS, WP_CFM


@njit(cache=True, nogil=True)
def order_joints_into(n, ms, nubs, unbounded_first, out):
    """Indices i < n of joints with ``ms[i] > 0`` in solving order, written to
    ``out``; returns (their number, unbounded row count)."""
    k = 0
    nub_rows = 0
    if unbounded_first:
        for i in range(n):
            if ms[i] > 0 and nubs[i] == ms[i]:
                out[k] = i
                k += 1
                nub_rows += ms[i]
        for i in range(n):
            if ms[i] > 0 and 0 < nubs[i] < ms[i]:
                out[k] = i
                k += 1
        for i in range(n):
            if ms[i] > 0 and nubs[i] == 0:
                out[k] = i
                k += 1
    else:
        for i in range(n):
            if ms[i] > 0:
                out[k] = i
                k += 1
    return k, nub_rows


@njit(cache=True, nogil=True)
def island_info1(js, jtype, jbody, jflags, jdata, jidata, B, wp, ms, nubs) -> None:
    """Row counts of the joints ``js``: ``ms[i]`` rows, ``nubs[i]`` unbounded."""
    for i in range(js.shape[0]):
        j = js[i]
        if jtype[j] != dJointTypeContact:
            m, nub = joint_info1(jtype[j], jdata[j], jidata[j], jflags[j], jbody[j, 0],
                                 jbody[j, 1], B, wp)
            ms[i] = m
            nubs[i] = nub
    # contacts, the bulk of a busy scene's joints, in one loop without dispatch
    contact.count_island_rows(jtype, jdata, jidata, js, ms, nubs)


@njit(cache=True, nogil=True)
def fill_island_rows(js, order, nk, ms, jtype, jbody, jflags, jdata, jidata, B, wp, offsets,
                     J, c, cfm, lo, hi, findex, jb):
    """Preset and fill rows 0..m-1 of the (large enough) row arrays from the
    joints ``js[order[k]]``, k < nk; ``offsets[k]`` becomes joint k's first row.
    Friction indices come out island-relative. Returns m."""
    offsets[0] = 0
    for k in range(nk):
        offsets[k + 1] = offsets[k] + ms[order[k]]
    m = offsets[nk]
    world_cfm = wp[WP_CFM]
    for i in range(m):
        for t in range(12):
            J[i, t] = 0.0
        c[i] = 0.0
        cfm[i] = world_cfm
        lo[i] = -math.inf
        hi[i] = math.inf
        findex[i] = -1
    rows = (J, c, cfm, lo, hi, findex)
    for k in range(nk):
        j = js[order[k]]
        r = offsets[k]
        b0 = jbody[j, 0]
        b1 = jbody[j, 1]
        if jtype[j] != dJointTypeContact:
            joint_info2(jtype[j], jdata[j], jidata[j], jflags[j], b0, b1, B, wp, rows, r)
            for i in range(r, offsets[k + 1]):
                if findex[i] >= 0:
                    findex[i] += r
        for i in range(r, offsets[k + 1]):
            jb[i, 0] = b0
            jb[i, 1] = b1
    # contacts' rows are disjoint from the others' and read no force
    # accumulator, so filling them after the other joints changes nothing
    contact.fill_island_rows(jtype, jflags, jbody, jdata, jidata, js, order, nk, offsets,
                             B[B_POS], B[B_LVEL], B[B_AVEL], wp, J, c, cfm, lo, hi, findex)
    return m


@njit(cache=True, nogil=True)
def build_rows(js, jtype, jbody, jflags, jdata, jidata, B, wp, unbounded_first):
    """Rows of the island whose joints are ``js`` (joint store rows).

    Returns ``(order, offsets, J (m,12), c, cfm, lo, hi, findex, jb (m,2), nub)``:
    ``js[order[k]]`` owns rows ``offsets[k]:offsets[k+1]``.
    """
    n = js.shape[0]
    ms = np.zeros(n, dtype=np.int64)
    nubs = np.zeros(n, dtype=np.int64)
    island_info1(js, jtype, jbody, jflags, jdata, jidata, B, wp, ms, nubs)
    order = np.empty(n, dtype=np.int64)
    nk, nub_rows = order_joints_into(n, ms, nubs, unbounded_first, order)
    total = 0
    for k in range(nk):
        total += ms[order[k]]
    offsets = np.zeros(nk + 1, dtype=np.int64)
    J = np.empty((total, 12))
    c = np.empty(total)
    cfm = np.empty(total)
    lo = np.empty(total)
    hi = np.empty(total)
    findex = np.empty(total, dtype=np.int64)
    jb = np.empty((total, 2), dtype=np.int64)
    fill_island_rows(js, order, nk, ms, jtype, jbody, jflags, jdata, jidata, B, wp, offsets,
                     J, c, cfm, lo, hi, findex, jb)
    return order[:nk], offsets, J, c, cfm, lo, hi, findex, jb, nub_rows
