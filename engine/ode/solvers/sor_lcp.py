"""Projected Gauss-Seidel / SOR constraint solver used by ``dWorldQuickStep``.

The problem
-----------
For one island of bodies and ``m`` constraint rows, QuickStep looks for
constraint forces ``lam`` (one scalar per row) such that, after the
semi-implicit velocity update

    v' = v + h * M^-1 (f_ext + J^T lam)

each row ``r`` satisfies the mixed complementarity conditions

    w_r = (J v')_r / h - c_r / h + (cfm_r / h) * lam_r
    lo_r <= lam_r <= hi_r,   lam_r = lo_r => w_r >= 0,
                             lam_r = hi_r => w_r <= 0,  else w_r = 0.

Writing ``A = J M^-1 J^T + diag(cfm / h)`` and
``b = c / h - J (v / h + M^-1 f_ext)`` this is the boxed LCP
``A lam = b (+ complementarity)``.  A friction row ``r`` with
``findex[r] = n >= 0`` has no fixed box: its bounds are
``+-|hi_r * lam_n|`` where ``hi_r`` holds the friction coefficient and
``lam_n`` is the *current* value of the normal row it depends on.

The method (ODE 0.16.2 quickstep, single threaded path)
--------------------------------------------------------
Gauss-Seidel on ``A lam = b`` updates one row at a time:
``lam_r <- clamp(lam_r + (b_r - A_r lam) / A_rr)``; SOR multiplies the
step by ``sor_w``.  ``A`` is never formed.  Instead the solver keeps, for
every body, ``fc = M^-1 J^T lam`` (6 numbers: linear then angular velocity
change per unit time), so that ``A_r lam = J_r fc + (cfm_r / h) lam_r``
costs 12 multiplies and a row update changes ``fc`` by
``delta * (M^-1 J_r^T)``.

To move work out of the loop every row is pre-multiplied by
``Ad_r = sor_w / A_rr``: ``J_r``, ``b_r`` and ``cfm_r / h`` are stored
scaled, after which the relaxed step is simply
``delta = b'_r - cfm'_r lam_r - J'_r . fc``.

Rows are visited in an order list which initially holds the rows without
a friction dependency (in index order) followed by the dependent rows (in
index order).  Before sweeps 8, 16, 24, ... (never before sweep 0) the
whole list is shuffled with a forward Fisher-Yates pass drawing
``dRandInt(k + 1)`` for ``k = 1 .. m-1`` from ODE's global generator, so a
call consumes ``(m - 1) * ((iterations - 1) // 8)`` draws (0 when
``iterations == 0`` or ``m <= 1``).

Memory layout: the row records are kept *in visiting order* (record i is
the row visited i-th, and remembers its row index for ``lam``).  A sweep
then streams through the records front to back instead of jumping to a
random record per row, which is what made the sweeps after the first
reshuffle slow on large islands (the records of a 6000-row island do not
fit in L2).  ``work`` holds two sets of records: a reshuffle draws ODE's
Fisher-Yates permutation on a list of positions, then copies the island's
records once, in their new order, into the other set, and the sweeps go on
from there (swapping the 256-byte records in place, one random pair at a
time, cost about three times as much).  Rows are visited in exactly the
same order with the same arithmetic, so the results are the same bits as
with an order list.

Bounds: fixed boxes always hold on exit.  A friction row is clamped with
the normal force current at its visit; before the first reshuffle normals
are visited first, so ``|lam_f| <= mu |lam_n|`` holds exactly on exit, but
after a reshuffle the normal may still move later in the last sweep (the
same as in ODE), so the cone holds only up to convergence.

ODE 0.16.2 compiles warm starting out, so ``lam`` starts at zero there;
here the caller passes the starting ``lam`` (zeros reproduce ODE).

Arithmetic is written in the same association order as ODE's double
precision build so that results track the C library closely.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.ode.kernels.bundles import Bodies, Rows, StepConfig
from engine.ode.rng import rand_int

#: Random reshuffle period of the row order (sweeps 8, 16, ...).
REORDER_PERIOD = 8

# Scratch layout inside ``work`` (float64): one record of _REC slots per row,
# in visiting order, so that a row visit reads four consecutive cache lines
# and a sweep reads the records front to back. The last four slots hold
# integers, written and read through an int64 view of ``work`` (no
# float-to-int conversions in the sweeps); records are moved as int64.
_R_JS = 0  # 12: row of J scaled by Ad
_R_IMJ = 12  # 12: M^-1 J^T (body 1 part, body 2 part)
_R_RHS = 24  # b scaled by Ad
_R_CFM = 25  # cfm / h scaled by Ad
_R_LO = 26  # lower bound (or unused for a friction row)
_R_HI = 27  # upper bound, or the friction coefficient
_R_B1 = 28  # body 1 (int64)
_R_B2 = 29  # body 2 or -1 (int64)
_R_FINDEX = 30  # -1 or the row giving the friction bounds (int64)
_R_ROW = 31  # the row's index in lam (int64)
_REC = 32


@njit(cache=True, nogil=True)
def sor_work_size(m: int, nb: int) -> int:
    """Length of the float64 ``work`` array ``sor_lcp`` needs: ``65 * m``
    (two sets of ``m`` records of 32 slots, then a list of ``m`` positions).

    ``nb`` is accepted for interface stability; per-body scratch lives in
    the ``cforce`` output rows, so it does not add to the size.
    """
    return 2 * _REC * m + m


@njit(cache=True, nogil=True)
def _reshuffled_records(iwork: np.ndarray, source: int, target: int, n: int,
                        rng_state: np.ndarray, positions: int) -> None:
    """Copy the ``n`` records from record ``source`` on to record ``target``
    on in QuickStep's reshuffled order (``iwork``: the int64 view of
    ``work``; ``iwork[positions:positions + n]`` is scratch for the
    permutation).

    The record that lands at ``target + k`` is the one an in-place
    Fisher-Yates pass over the records would have put at ``source + k``:
    the same draws shuffle the list of positions ``0 .. n-1`` instead.
    """
    for k in range(n):
        iwork[positions + k] = k
    # forward Fisher-Yates: for k = 1 .. n-1 swap entries k and dRandInt(k + 1)
    for k in range(1, n):
        s = rand_int(rng_state, k + 1)
        tmp = iwork[positions + k]
        iwork[positions + k] = iwork[positions + s]
        iwork[positions + s] = tmp
    for k in range(n):
        a = _REC * (source + iwork[positions + k])
        b = _REC * (target + k)
        for t in range(_REC):
            iwork[b + t] = iwork[a + t]


@njit(cache=True, nogil=True)
def _free_motion_terms(
    bodies: np.ndarray,
    invmass: np.ndarray,
    invI: np.ndarray,
    lvel: np.ndarray,
    avel: np.ndarray,
    facc: np.ndarray,
    tacc: np.ndarray,
    rh: float,
    out: np.ndarray,
) -> None:
    """Store ``-(v / h + M^-1 f_ext)`` of every island body in ``out[b, 0:6]``.

    Projected through ``J`` this is the part of ``b`` that comes from the
    unconstrained motion (``rh`` is ``1 / h``; units 1/s^2 * length).
    """
    for i in range(bodies.shape[0]):
        b = bodies[i]
        im = invmass[b]
        for k in range(3):
            out[b, k] = -(facc[b, k] * im + lvel[b, k] * rh)
        for k in range(3):
            t = invI[b, k, 0] * tacc[b, 0] + invI[b, k, 1] * tacc[b, 1] + invI[b, k, 2] * tacc[b, 2]
            out[b, 3 + k] = -(avel[b, k] * rh) - t


@njit(cache=True, nogil=True)
def _prepare_rows(
    rows: Rows,
    jb: np.ndarray,
    invmass: np.ndarray,
    invI: np.ndarray,
    free: np.ndarray,
    rh: float,
    sor_w: float,
    work: np.ndarray,
    iwork: np.ndarray,
    seg: np.ndarray,
) -> None:
    """Fill the row records in ``work`` (``iwork``: its int64 view; see the
    module docstring), each at its place in the initial visiting order of
    its island (:func:`_independent_count`); island ``i`` has the rows and
    record slots ``seg[i]:seg[i + 1]``.

    For row r with bodies (b1, b2):
      b_r     = c_r / h + J_r . free          (free = -(v/h + M^-1 f_ext))
      iMJ_r   = [m1^-1 J1_lin, I1^-1 J1_ang, m2^-1 J2_lin, I2^-1 J2_ang]
      A_rr    = iMJ_r . J_r + cfm_r / h
      Ad_r    = sor_w / A_rr
    and stores Ad_r * J_r, iMJ_r, Ad_r * b_r, Ad_r * cfm_r / h, the bounds,
    the bodies, the friction index and r.
    """
    J = rows.J
    c = rows.c
    cfm = rows.cfm
    lo = rows.lo
    hi = rows.hi
    findex = rows.findex
    # one loop over the islands, not a call per island: a settled pile has
    # dozens of small islands and each call passes every array again
    for i in range(seg.shape[0] - 1):
        r0 = seg[i]
        r1 = seg[i + 1]
        head = r0
        tail = r0 + _independent_count(r0, r1, findex)
        for r in range(r0, r1):
            b1 = jb[r, 0]
            b2 = jb[r, 1]
            if findex[r] < 0:
                o = _REC * head
                head += 1
            else:
                o = _REC * tail
                tail += 1
            # the row's numbers in locals first: ``work`` may alias the inputs as
            # far as the compiler knows, so every store into it would otherwise
            # reload them (the same operations in the same order either way)
            j0, j1, j2, j3, j4, j5 = J[r, 0], J[r, 1], J[r, 2], J[r, 3], J[r, 4], J[r, 5]
            # b_r: ODE scales c by 1/h first, then adds the projected free motion.
            proj = 0.0
            proj += j0 * free[b1, 0]
            proj += j1 * free[b1, 1]
            proj += j2 * free[b1, 2]
            proj += j3 * free[b1, 3]
            proj += j4 * free[b1, 4]
            proj += j5 * free[b1, 5]
            # M^-1 J^T for each side of the row, and the diagonal of A
            im1 = invmass[b1]
            m0 = im1 * j0
            m1 = im1 * j1
            m2 = im1 * j2
            m3 = invI[b1, 0, 0] * j3 + invI[b1, 0, 1] * j4 + invI[b1, 0, 2] * j5
            m4 = invI[b1, 1, 0] * j3 + invI[b1, 1, 1] * j4 + invI[b1, 1, 2] * j5
            m5 = invI[b1, 2, 0] * j3 + invI[b1, 2, 1] * j4 + invI[b1, 2, 2] * j5
            diag = 0.0
            diag += m0 * j0
            diag += m1 * j1
            diag += m2 * j2
            diag += m3 * j3
            diag += m4 * j4
            diag += m5 * j5
            j6 = j7 = j8 = j9 = j10 = j11 = 0.0
            m6 = m7 = m8 = m9 = m10 = m11 = 0.0
            if b2 >= 0:
                j6, j7, j8 = J[r, 6], J[r, 7], J[r, 8]
                j9, j10, j11 = J[r, 9], J[r, 10], J[r, 11]
                proj += j6 * free[b2, 0]
                proj += j7 * free[b2, 1]
                proj += j8 * free[b2, 2]
                proj += j9 * free[b2, 3]
                proj += j10 * free[b2, 4]
                proj += j11 * free[b2, 5]
                im2 = invmass[b2]
                m6 = im2 * j6
                m7 = im2 * j7
                m8 = im2 * j8
                m9 = invI[b2, 0, 0] * j9 + invI[b2, 0, 1] * j10 + invI[b2, 0, 2] * j11
                m10 = invI[b2, 1, 0] * j9 + invI[b2, 1, 1] * j10 + invI[b2, 1, 2] * j11
                m11 = invI[b2, 2, 0] * j9 + invI[b2, 2, 1] * j10 + invI[b2, 2, 2] * j11
                diag += m6 * j6
                diag += m7 * j7
                diag += m8 * j8
                diag += m9 * j9
                diag += m10 * j10
                diag += m11 * j11
            b_r = c[r] * rh
            b_r += proj
            cfm_r = cfm[r] * rh
            # the relaxation factor; the scaled row (zeros for a missing body 2)
            ad = sor_w / (diag + cfm_r)
            work[o + _R_CFM] = cfm_r * ad
            work[o + _R_RHS] = b_r * ad
            js = o + _R_JS
            work[js] = j0 * ad
            work[js + 1] = j1 * ad
            work[js + 2] = j2 * ad
            work[js + 3] = j3 * ad
            work[js + 4] = j4 * ad
            work[js + 5] = j5 * ad
            if b2 >= 0:
                work[js + 6] = j6 * ad
                work[js + 7] = j7 * ad
                work[js + 8] = j8 * ad
                work[js + 9] = j9 * ad
                work[js + 10] = j10 * ad
                work[js + 11] = j11 * ad
            else:
                for k in range(6, 12):
                    work[js + k] = 0.0
            imj = o + _R_IMJ
            work[imj] = m0
            work[imj + 1] = m1
            work[imj + 2] = m2
            work[imj + 3] = m3
            work[imj + 4] = m4
            work[imj + 5] = m5
            work[imj + 6] = m6
            work[imj + 7] = m7
            work[imj + 8] = m8
            work[imj + 9] = m9
            work[imj + 10] = m10
            work[imj + 11] = m11
            work[o + _R_LO] = lo[r]
            work[o + _R_HI] = hi[r]
            iwork[o + _R_B1] = b1
            iwork[o + _R_B2] = b2
            iwork[o + _R_FINDEX] = findex[r]
            iwork[o + _R_ROW] = r


@njit(cache=True, nogil=True)
def _independent_count(r0: int, r1: int, findex: np.ndarray) -> int:
    """Rows ``r0:r1`` without a friction dependency: the first places of the
    initial order of their island.

    The initial visiting order is the independent rows, then the rows whose
    bounds come from another row, both groups in increasing row index, so
    dependent rows see the normal force of the current sweep on the first
    pass; row r's place is the count of rows of its group before it (plus
    this count for a dependent row).
    """
    n_free = 0
    for r in range(r0, r1):
        if findex[r] < 0:
            n_free += 1
    return n_free


@njit(cache=True, nogil=True)
def _accumulate_fc(seg: np.ndarray, jb: np.ndarray, findex: np.ndarray, lam: np.ndarray,
                   work: np.ndarray, fc: np.ndarray) -> None:
    """Add ``M^-1 J^T lam`` (row by row, in index order) to ``fc[b, 0:6]``;
    the records are still in the initial order of each island's rows
    ``seg[i]:seg[i + 1]`` (:func:`_independent_count`)."""
    for i in range(seg.shape[0] - 1):
        _accumulate_island_fc(seg[i], seg[i + 1], jb, findex, lam, work, fc)


@njit(cache=True, nogil=True)
def _accumulate_island_fc(r0, r1, jb, findex, lam, work, fc) -> None:
    """:func:`_accumulate_fc` of the island whose rows are ``r0:r1``."""
    head = r0
    tail = r0 + _independent_count(r0, r1, findex)
    for r in range(r0, r1):
        if findex[r] < 0:
            o = _REC * head + _R_IMJ
            head += 1
        else:
            o = _REC * tail + _R_IMJ
            tail += 1
        x = lam[r]
        if x == 0.0:
            continue
        b1 = jb[r, 0]
        for k in range(6):
            fc[b1, k] += work[o + k] * x
        b2 = jb[r, 1]
        if b2 >= 0:
            for k in range(6):
                fc[b2, k] += work[o + 6 + k] * x


@njit(cache=True, nogil=True)
def _sweeps(seg: np.ndarray, iterations: int, lam: np.ndarray, fc: np.ndarray,
            work: np.ndarray, iwork: np.ndarray, rng_state: np.ndarray) -> None:
    """Every island's ``iterations`` projected SOR passes over its records
    (island ``i``: records ``seg[i]:seg[i + 1]``, in their current visiting
    order; ``iwork`` is the int64 view of ``work``), with a random reshuffle
    of its records before sweeps 8, 16, ... that copies them into the other
    set of records (the first set starts at record 0, the second at record
    m).  The loops over islands and sweeps are here rather than around a
    call per sweep: a settled pile has dozens of islands of a few rows, and
    a call passes every array again.

    For row r (all quantities already scaled by Ad_r):
      delta   = b'_r - cfm'_r lam_r - J'_r . fc
      bounds  = [lo_r, hi_r], or +-|hi_r lam_n| if the row depends on n
      lam_r   = clamp(lam_r + delta); delta is then the change actually made
      fc     += delta * iMJ_r        (keeps fc == M^-1 J^T lam)
    """
    m = seg[seg.shape[0] - 1]
    positions = 2 * _REC * m
    for isl in range(seg.shape[0] - 1):
        r0 = seg[isl]
        r1 = seg[isl + 1]
        current = 0
        for it in range(iterations):
            if it >= REORDER_PERIOD and it % REORDER_PERIOD == 0:
                other = m - current
                _reshuffled_records(iwork, r0 + current, r0 + other, r1 - r0, rng_state,
                                    positions)
                current = other
            for i in range(r0 + current, r1 + current):
                o = _REC * i
                r = iwork[o + _R_ROW]
                b1 = iwork[o + _R_B1]
                b2 = iwork[o + _R_B2]
                old = lam[r]
                delta = work[o + _R_RHS] - old * work[o + _R_CFM]
                delta -= (fc[b1, 0] * work[o] + fc[b1, 1] * work[o + 1]
                          + fc[b1, 2] * work[o + 2] + fc[b1, 3] * work[o + 3]
                          + fc[b1, 4] * work[o + 4] + fc[b1, 5] * work[o + 5])
                if b2 >= 0:
                    delta -= (fc[b2, 0] * work[o + 6] + fc[b2, 1] * work[o + 7]
                              + fc[b2, 2] * work[o + 8] + fc[b2, 3] * work[o + 9]
                              + fc[b2, 4] * work[o + 10] + fc[b2, 5] * work[o + 11])
                n = iwork[o + _R_FINDEX]
                if n >= 0:
                    upper = abs(work[o + _R_HI] * lam[n])
                    lower = -upper
                else:
                    upper = work[o + _R_HI]
                    lower = work[o + _R_LO]
                trial = old + delta
                if trial < lower:
                    delta = lower - old
                    lam[r] = lower
                elif trial > upper:
                    delta = upper - old
                    lam[r] = upper
                else:
                    lam[r] = trial
                imj = o + _R_IMJ
                for k in range(6):
                    fc[b1, k] += delta * work[imj + k]
                if b2 >= 0:
                    for k in range(6):
                        fc[b2, k] += delta * work[imj + 6 + k]


@njit(cache=True, nogil=True)
def _constraint_wrench(m: int, J: np.ndarray, jb: np.ndarray, lam: np.ndarray,
                       bodies: np.ndarray, cforce: np.ndarray) -> None:
    """``cforce[b] = sum_r J_r(b)^T lam_r`` (force 0:3, torque 3:6) per island body."""
    for i in range(bodies.shape[0]):
        b = bodies[i]
        for k in range(6):
            cforce[b, k] = 0.0
    for r in range(m):
        x = lam[r]
        b1 = jb[r, 0]
        for k in range(6):
            cforce[b1, k] += J[r, k] * x
        b2 = jb[r, 1]
        if b2 >= 0:
            for k in range(6):
                cforce[b2, k] += J[r, 6 + k] * x


@njit(cache=True, nogil=True)
def sor_lcp(
    rows: Rows,
    jb: np.ndarray,
    seg: np.ndarray,
    bodies: np.ndarray,
    state: Bodies,
    invI: np.ndarray,
    config: StepConfig,
    rng_state: np.ndarray,
    lam: np.ndarray,
    cforce: np.ndarray,
    work: np.ndarray,
) -> None:
    """Solve islands' constraint forces with QuickStep's SOR-LCP method.

    Island ``i`` has the rows ``seg[i]:seg[i + 1]`` (all rows: ``seg`` = [0, m]);
    the per-row and per-body stages run over all islands in one pass each,
    the sweeps island after island (the islands share no body; the
    generator is drawn island after island), so the numbers are those of
    solving the islands one by one in order.

    Arrays (row count m, island body count nb, global body count N):
      rows               :class:`Rows` of exactly m rows (read only):
        J float64[m, 12]   rows [lin1, ang1, lin2, ang2] (unscaled)
        c float64[m]       joint rhs, velocity units (erp * fps * error + speed)
        cfm float64[m]     joint cfm as given by the joints (not divided by h)
        lo, hi float64[m]  bounds; for friction rows hi is the coefficient
        findex int[m]      -1 or the row giving friction bounds
      jb int[m, 2]       global body indices; jb[r, 1] == -1 for one body
      seg int[k + 1]     the islands' first rows, then m
      bodies int[nb]     global indices of the islands' bodies
      state              :class:`Bodies`; read: invmass float64[N] and lvel,
                         avel, facc, tacc float64[N, 3] (m/s, rad/s, N, N m)
      invI float64[N, 3, 3] world-frame inverse inertia
      config             :class:`StepConfig`; read: h (s), iterations, sor_w
      rng_state uint64[1] ODE's generator state (advanced in place)
      lam float64[m]     in: start value (zeros = ODE); out: forces (N or N m)
      cforce float64[N, 6] out, rows of ``bodies`` only: sum_r J_r^T lam_r
      work float64[>= sor_work_size(m, nb)] scratch, C-contiguous (viewed as int64 too)

    ``cforce`` is used as scratch during the solve (ODE's per-body ``fc``)
    and finally holds the constraint wrench ``J^T lam``.  ODE itself adds
    ``h * M^-1 J^T lam`` (its accumulated ``fc``) to the velocities and then
    ``h * M^-1 f_ext``; the caller's ``v += h M^-1 (f_ext + cforce)`` is the
    same update up to floating-point rounding.

    Rows with ``A_rr == 0`` (a zero Jacobian row and zero cfm) give
    non-finite values, exactly as in ODE.
    """
    J = rows.J
    findex = rows.findex
    invmass = state.invmass
    lvel = state.lvel
    avel = state.avel
    facc = state.facc
    tacc = state.tacc
    h = config.h
    iterations = config.iterations
    sor_w = config.sor_w
    m = J.shape[0]
    if work.shape[0] < 2 * _REC * m + m:
        raise ValueError("sor_lcp: work array too small (need sor_work_size(m, nb))")
    if m == 0:
        for i in range(bodies.shape[0]):
            for k in range(6):
                cforce[bodies[i], k] = 0.0
        return
    rh = 1.0 / h
    # 1) right-hand side terms of the free motion, temporarily in cforce.
    _free_motion_terms(bodies, invmass, invI, lvel, avel, facc, tacc, rh, cforce)
    # 2) scaled rows, M^-1 J^T and the relaxation factors.
    iwork = work.view(np.int64)
    _prepare_rows(rows, jb, invmass, invI, cforce, rh, sor_w, work, iwork, seg)
    # 3) fc = M^-1 J^T lam for the starting lam (zero for ODE's cold start).
    for i in range(bodies.shape[0]):
        for k in range(6):
            cforce[bodies[i], k] = 0.0
    for r in range(m):
        if lam[r] != 0.0:
            _accumulate_fc(seg, jb, findex, lam, work, cforce)
            break       # (a cold start's lam is all zeros: nothing to add)
    # 4) per island, the sweeps with a random reshuffle of its records every
    # REORDER_PERIOD
    _sweeps(seg, iterations, lam, cforce, work, iwork, rng_state)
    # 5) report the constraint wrench per body.
    _constraint_wrench(m, J, jb, lam, bodies, cforce)
