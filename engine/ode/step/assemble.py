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
from engine.ode.kernels.bundles import IslandWork, Rows
from engine.ode.solvers.sor_lcp import sor_work_size


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
def island_info1(js, joints, bodies, wp, ms, nubs) -> None:
    """Row counts of the joints ``js`` (rows of ``joints``, :class:`Joints`):
    ``ms[i]`` rows, ``nubs[i]`` unbounded; ``bodies`` :class:`Bodies`,
    ``wp`` :class:`WorldParams`."""
    jtype = joints.type
    jbody = joints.body
    jflags = joints.flags
    jdata = joints.data
    jidata = joints.idata
    for i in range(js.shape[0]):
        j = js[i]
        if jtype[j] != dJointTypeContact:
            m, nub = joint_info1(jtype[j], jdata[j], jidata[j], jflags[j], jbody[j, 0],
                                 jbody[j, 1], bodies, wp)
            ms[i] = m
            nubs[i] = nub
    # contacts, the bulk of a busy scene's joints, in one loop without dispatch
    contact.count_island_rows(joints, js, ms, nubs)


@njit(cache=True, nogil=True)
def fill_island_rows(js, nk, joints, bodies, wp, work) -> int:
    """Preset and fill rows 0..m-1 of ``work.rows`` (large enough) from the
    joints ``js[work.order[k]]``, k < nk, whose row counts are ``work.ms``;
    ``work.offsets[k]`` becomes joint k's first row and ``work.jb`` the rows'
    bodies. Friction indices come out island-relative. ``joints``
    :class:`Joints`, ``bodies`` :class:`Bodies`, ``wp`` :class:`WorldParams`,
    ``work`` :class:`IslandWork`. Returns m."""
    order = work.order
    ms = work.ms
    offsets = work.offsets
    rows = work.rows
    jb = work.jb
    J = rows.J
    c = rows.c
    cfm = rows.cfm
    lo = rows.lo
    hi = rows.hi
    findex = rows.findex
    jtype = joints.type
    jbody = joints.body
    jflags = joints.flags
    jdata = joints.data
    jidata = joints.idata
    offsets[0] = 0
    for k in range(nk):
        offsets[k + 1] = offsets[k] + ms[order[k]]
    m = offsets[nk]
    world_cfm = wp.cfm
    for i in range(m):
        for t in range(12):
            J[i, t] = 0.0
        c[i] = 0.0
        cfm[i] = world_cfm
        lo[i] = -math.inf
        hi[i] = math.inf
        findex[i] = -1
    for k in range(nk):
        j = js[order[k]]
        r = offsets[k]
        b0 = jbody[j, 0]
        b1 = jbody[j, 1]
        if jtype[j] != dJointTypeContact:
            joint_info2(jtype[j], jdata[j], jidata[j], jflags[j], b0, b1, bodies, wp, rows, r)
            for i in range(r, offsets[k + 1]):
                if findex[i] >= 0:
                    findex[i] += r
        for i in range(r, offsets[k + 1]):
            jb[i, 0] = b0
            jb[i, 1] = b1
    # contacts' rows are disjoint from the others' and read no force
    # accumulator, so filling them after the other joints changes nothing
    contact.fill_island_rows(joints, js, order, nk, offsets, bodies, wp, rows)
    return m


@njit(cache=True, nogil=True)
def assembled_rows(js, joints, bodies, wp, unbounded_first, with_sor, nbody, scratch):
    """The rows of the joints ``js`` (rows of ``joints``, :class:`Joints`) in a
    fresh :class:`IslandWork` sized for them: row counts (info1), the joints
    with rows in solving order (purely unbounded joints first when
    ``unbounded_first``), their rows filled (info2). ``with_sor``: with the
    SOR work array for those rows; ``nbody`` body rows for ``cforce``;
    ``scratch`` the (9, 3) work array it keeps. ``bodies`` :class:`Bodies`,
    ``wp`` :class:`WorldParams`.

    Returns ``(work, nk, nub)``: ``js[work.order[k]]``, k < nk, owns rows
    ``work.offsets[k]:work.offsets[k+1]``; nub unbounded rows lead.
    """
    n = js.shape[0]
    ms = np.zeros(n, dtype=np.int64)
    nubs = np.zeros(n, dtype=np.int64)
    island_info1(js, joints, bodies, wp, ms, nubs)
    order = np.empty(n, dtype=np.int64)
    nk, nub = order_joints_into(n, ms, nubs, unbounded_first, order)
    m = 0
    for k in range(nk):
        m += ms[order[k]]
    rows = Rows(np.empty((m, 12)), np.empty(m), np.empty(m), np.empty(m), np.empty(m),
                np.empty(m, dtype=np.int64))
    sor = np.empty(sor_work_size(m, 0)) if with_sor else np.empty(0)
    work = IslandWork(rows, np.empty((m, 2), dtype=np.int64), np.zeros(m), sor, ms, nubs, order,
                      np.zeros(nk + 1, dtype=np.int64), np.zeros((nbody, 6)), scratch)
    fill_island_rows(js, nk, joints, bodies, wp, work)
    return work, nk, nub


@njit(cache=True, nogil=True)
def build_rows(js, joints, bodies, wp, unbounded_first):
    """Rows of the island whose joints are ``js`` (rows of ``joints``).

    Returns ``(order, offsets, J (m,12), c, cfm, lo, hi, findex, jb (m,2), nub)``:
    ``js[order[k]]`` owns rows ``offsets[k]:offsets[k+1]``.
    """
    work, nk, nub = assembled_rows(js, joints, bodies, wp, unbounded_first, False, 0,
                                   np.empty((0, 3)))
    rows = work.rows
    return (work.order[:nk], work.offsets, rows.J, rows.c, rows.cfm, rows.lo, rows.hi,
            rows.findex, work.jb, nub)
