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

from engine.ode.joints.dispatch import joint_info1, joint_info2
from engine.ode.joints.layout import WP_CFM


@njit(cache=True, nogil=True)
def order_joints(js, ms, nubs, unbounded_first):
    """Joints with m > 0, in solving order; returns (order, unbounded row count)."""
    n = js.shape[0]
    out = np.empty(n, dtype=np.int64)
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
    return out[:k], nub_rows


@njit(cache=True, nogil=True)
def build_rows(js, jtype, jbody, jflags, jdata, jidata, B, wp, unbounded_first):
    """Rows of the island whose joints are ``js`` (joint store rows).

    Returns ``(order, offsets, J (m,12), c, cfm, lo, hi, findex, jb (m,2), nub)``:
    ``js[order[k]]`` owns rows ``offsets[k]:offsets[k+1]``.
    """
    n = js.shape[0]
    ms = np.zeros(n, dtype=np.int64)
    nubs = np.zeros(n, dtype=np.int64)
    for i in range(n):
        j = js[i]
        m, nub = joint_info1(jtype[j], jdata[j], jidata[j], jflags[j], jbody[j, 0],
                             jbody[j, 1], B, wp)
        ms[i] = m
        nubs[i] = nub
    order, nub_rows = order_joints(js, ms, nubs, unbounded_first)
    nk = order.shape[0]
    offsets = np.zeros(nk + 1, dtype=np.int64)
    for k in range(nk):
        offsets[k + 1] = offsets[k] + ms[order[k]]
    m = offsets[nk]
    J = np.zeros((m, 12))
    c = np.zeros(m)
    cfm = np.full(m, wp[WP_CFM])
    lo = np.full(m, -math.inf)
    hi = np.full(m, math.inf)
    findex = np.full(m, -1, dtype=np.int64)
    jb = np.empty((m, 2), dtype=np.int64)
    rows = (J, c, cfm, lo, hi, findex)
    for k in range(nk):
        j = js[order[k]]
        r = offsets[k]
        joint_info2(jtype[j], jdata[j], jidata[j], jflags[j], jbody[j, 0], jbody[j, 1],
                    B, wp, rows, r)
        for i in range(r, offsets[k + 1]):
            if findex[i] >= 0:
                findex[i] += r
            jb[i, 0] = jbody[j, 0]
            jb[i, 1] = jbody[j, 1]
    return order, offsets, J, c, cfm, lo, hi, findex, jb, nub_rows
