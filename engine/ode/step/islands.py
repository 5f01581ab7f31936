"""Island discovery and auto-disable (compiled), in ODE's traversal order.

Bodies are visited newest first (ODE keeps its body list head-inserted);
from each enabled, unvisited body a depth-first walk over enabled joints
collects one island. A body's joints are walked newest-attached first.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.ode.bodystore import BF_ALIVE, BF_AUTO_DISABLE, BF_DISABLED
from engine.ode.joints.layout import JF_ALIVE, JF_ENABLED
from engine.ode.kernels.bundles import Adjacency, Islands
from engine.ode.kernels.options import NO_ALLOC

BF_AD_READY = 1 << 11   # auto-disable sample buffer full at least once


@njit(cache=True, nogil=True)
def build_adjacency(nbody, joints):
    """The :class:`Adjacency` of the first ``nbody`` body rows over the live
    joints of ``joints`` (a :class:`Joints`).

    Entry k of body b's list is a joint and the body at its other end
    (-1 for the environment), newest attachment first.
    """
    njoint = joints.count
    jbody = joints.body
    jflags = joints.flags
    jattach = joints.attach_seq
    deg = np.zeros(nbody + 1, dtype=np.int64)
    for j in range(njoint):
        if jflags[j] & JF_ALIVE:
            for k in range(2):
                b = jbody[j, k]
                if b >= 0:
                    deg[b + 1] += 1
    start = np.cumsum(deg)
    fill = start[:-1].copy()
    total = start[-1]
    joint = np.empty(total, dtype=np.int64)
    other = np.empty(total, dtype=np.int64)
    for j in range(njoint):
        if not jflags[j] & JF_ALIVE:
            continue
        for k in range(2):
            b = jbody[j, k]
            if b >= 0:
                joint[fill[b]] = j
                other[fill[b]] = jbody[j, 1 - k]
                fill[b] += 1
    # each body's list newest attachment first: a stable sort by -attach
    # sequence of the short per-body lists (the same order as one stable sort
    # of all joints, without sorting them all)
    for b in range(nbody):
        e0 = start[b]
        e1 = start[b + 1]
        if e1 - e0 > 32:
            keys = np.empty(e1 - e0, dtype=np.int64)
            for e in range(e0, e1):
                keys[e - e0] = -jattach[joint[e]]
            perm = np.argsort(keys, kind="mergesort")
            sj = joint[e0:e1].copy()
            so = other[e0:e1].copy()
            for e in range(e1 - e0):
                joint[e0 + e] = sj[perm[e]]
                other[e0 + e] = so[perm[e]]
            continue
        for e in range(e0 + 1, e1):
            jj = joint[e]
            oo = other[e]
            key = -jattach[jj]
            f = e
            while f > e0 and -jattach[joint[f - 1]] > key:
                joint[f] = joint[f - 1]
                other[f] = other[f - 1]
                f -= 1
            joint[f] = jj
            other[f] = oo
    return Adjacency(start, joint, other)


@njit(cache=True, nogil=True)
def joint_is_enabled(j, jflags, jbody, invmass) -> bool:
    """Enabled flag set and at least one attached body is dynamic (ODE's rule)."""
    if not jflags[j] & JF_ENABLED:
        return False
    b0 = jbody[j, 0]
    b1 = jbody[j, 1]
    if b0 < 0:
        return False
    return invmass[b0] > 0 or (b1 >= 0 and invmass[b1] > 0)


@njit(**NO_ALLOC)
def auto_disable(table, bodies, ad, adjacency, h) -> None:
    """ODE's auto-disable over the rows of ``table`` (:class:`BodyTable`):
    sample velocities (``bodies``, :class:`Bodies`) into the window of ``ad``
    (:class:`AutoDisable`); a body whose average speeds stay under the
    thresholds for the required steps and time (``h`` s per step) is disabled
    and stopped. Bodies with no joint at all in ``adjacency`` are never
    disabled (not mid-air)."""
    nbody = table.count
    flags = table.flags
    lvel = bodies.lvel
    avel = bodies.avel
    start = adjacency.start
    ad_lin2 = ad.lin_thr2
    ad_ang2 = ad.ang_thr2
    ad_steps = ad.steps
    ad_time = ad.time
    ad_samples = ad.samples
    ad_idle_steps = ad.idle_steps
    ad_idle_time = ad.idle_time
    ad_index = ad.sample_index
    ad_buf = ad.buf
    for b in range(nbody):
        f = flags[b]
        if not f & BF_ALIVE or start[b + 1] == start[b]:
            continue
        if (f & (BF_AUTO_DISABLE | BF_DISABLED)) != BF_AUTO_DISABLE:
            continue
        ns = ad_samples[b]
        if ns == 0:
            continue
        k = ad_index[b]
        if k >= ns:
            k = 0
            flags[b] &= ~BF_AD_READY
        for i in range(3):
            ad_buf[b, k, i] = lvel[b, i]
            ad_buf[b, k, 3 + i] = avel[b, i]
        k += 1
        if k >= ns:
            k = 0
            flags[b] |= BF_AD_READY
        ad_index[b] = k
        idle = False
        if flags[b] & BF_AD_READY:
            idle = True
            # the average of the samples, in scalars (no array per body)
            v0, v1, v2 = ad_buf[b, 0, 0], ad_buf[b, 0, 1], ad_buf[b, 0, 2]
            w0, w1, w2 = ad_buf[b, 0, 3], ad_buf[b, 0, 4], ad_buf[b, 0, 5]
            if ns > 1:
                for s in range(1, ns):
                    v0 += ad_buf[b, s, 0]
                    v1 += ad_buf[b, s, 1]
                    v2 += ad_buf[b, s, 2]
                    w0 += ad_buf[b, s, 3]
                    w1 += ad_buf[b, s, 4]
                    w2 += ad_buf[b, s, 5]
                scale = 1.0 / ns
                v0 *= scale
                v1 *= scale
                v2 *= scale
                w0 *= scale
                w1 *= scale
                w2 *= scale
            lin2 = v0 * v0 + v1 * v1 + v2 * v2
            if lin2 > ad_lin2[b]:
                idle = False
            else:
                ang2 = w0 * w0 + w1 * w1 + w2 * w2
                if ang2 > ad_ang2[b]:
                    idle = False
        if idle:
            ad_idle_steps[b] -= 1
            ad_idle_time[b] -= h
        else:
            ad_idle_steps[b] = ad_steps[b]
            ad_idle_time[b] = ad_time[b]
        if ad_idle_steps[b] <= 0 and ad_idle_time[b] <= 0:
            flags[b] |= BF_DISABLED
            for i in range(3):
                lvel[b, i] = 0.0
                avel[b, i] = 0.0


@njit(cache=True, nogil=True)
def _newest_first(nbody, flags, seq):
    """Body rows ``0..nbody-1``, live ones newest first (descending ``seq``),
    then the others in row order (a stable sort by ``-seq``, free rows last).

    Rows usually hold bodies in creation order (rows are reused only after a
    body is destroyed); then the live rows in reverse are the answer and no
    sort is needed.
    """
    order = np.empty(nbody, dtype=np.int64)
    last = -1
    in_row_order = True
    for b in range(nbody):
        if flags[b] & BF_ALIVE:
            if seq[b] <= last:
                in_row_order = False
                break
            last = seq[b]
    if not in_row_order:
        keys = np.empty(nbody, dtype=np.int64)
        for b in range(nbody):
            keys[b] = -seq[b] if flags[b] & BF_ALIVE else 1
        return np.argsort(keys, kind="mergesort")
    k = 0
    for b in range(nbody - 1, -1, -1):
        if flags[b] & BF_ALIVE:
            order[k] = b
            k += 1
    for b in range(nbody):
        if not flags[b] & BF_ALIVE:
            order[k] = b
            k += 1
    return order


@njit(cache=True, nogil=True)
def find_islands(table, adjacency, joints, invmass):
    """Partition the enabled bodies of ``table`` (:class:`BodyTable`) and the
    enabled ``joints`` (:class:`Joints`) into :class:`Islands`, walking
    ``adjacency``; ``invmass`` (n,) tells dynamic bodies (ODE's rule for
    enabled joints). A disabled body reached through an enabled joint is
    enabled (auto-enable), in ``table.flags``.
    """
    nbody = table.count
    flags = table.flags
    seq = table.seq
    start = adjacency.start
    adj_joint = adjacency.joint
    adj_other = adjacency.other
    njoint = joints.count
    jbody = joints.body
    jflags = joints.flags
    order = _newest_first(nbody, flags, seq)
    btag = np.zeros(nbody, dtype=np.int64)
    jtag = np.zeros(njoint, dtype=np.int64)
    bodies = np.empty(nbody, dtype=np.int64)
    island_joints = np.empty(njoint, dtype=np.int64)
    bstart = np.zeros(nbody + 1, dtype=np.int64)
    jstart = np.zeros(nbody + 1, dtype=np.int64)
    stack = np.empty(nbody, dtype=np.int64)
    nb = 0
    nj = 0
    ni = 0
    for t in range(nbody):
        bb = order[t]
        if not flags[bb] & BF_ALIVE or btag[bb] != 0:
            continue
        if flags[bb] & BF_DISABLED:
            btag[bb] = -1
            continue
        btag[bb] = 1
        bodies[nb] = bb
        nb += 1
        sp = 0
        b = bb
        while True:
            for e in range(start[b], start[b + 1]):
                j = adj_joint[e]
                if jtag[j] != 0:
                    continue
                if joint_is_enabled(j, jflags, jbody, invmass):
                    jtag[j] = 1
                    island_joints[nj] = j
                    nj += 1
                    o = adj_other[e]
                    if o >= 0 and btag[o] <= 0:
                        btag[o] = 1
                        flags[o] &= ~BF_DISABLED
                        stack[sp] = o
                        sp += 1
                else:
                    jtag[j] = -1
            if sp == 0:
                break
            sp -= 1
            b = stack[sp]
            bodies[nb] = b
            nb += 1
        ni += 1
        bstart[ni] = nb
        jstart[ni] = nj
    return Islands(bodies, bstart[:ni + 1], island_joints, jstart[:ni + 1])
