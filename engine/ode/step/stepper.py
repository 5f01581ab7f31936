"""dWorldStep and dWorldQuickStep: the whole step as one compiled pipeline.

Stages (brax-style, one function each): auto-disable -> islands -> for each
island: body preparation (world inertia, gravity, gyroscopic term) -> rows
(info1/info2) -> solve (Dantzig or SOR) -> joint feedback -> velocity update
-> position update (dxStepBody) -> force accumulators cleared.
The kernel releases the GIL; Python only checks arguments, copies joint
feedback into dJointFeedback objects and calls moved callbacks.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.ode import checks
from engine.ode.errors import ODEError
from engine.ode.joints.anchors import body_arrays, joint_arrays
from engine.ode.joints.layout import MAX_ROWS
from engine.ode.kernels.bundles import (
    AutoDisable,
    Bodies,
    BodyTable,
    Damping,
    IslandWork,
    Joints,
    MassModel,
    Rows,
    StepConfig,
    WorldParams,
    world_params,
)
from engine.ode.kernels.compiled_entry import CompiledEntry
from engine.ode.rng import RNG_STATE
from engine.ode.solvers.sor_lcp import sor_lcp
from engine.ode.step.assemble import (
    assembled_rows,
    fill_island_rows,
    island_info1,
    order_joints_into,
)
from engine.ode.step.integrate import advance_island, prepare_island
from engine.ode.step.islands import auto_disable, build_adjacency, find_islands
from engine.ode.step.solve import exact_scratch, exact_solve
from engine.ode.world import World, world_of


@njit(cache=True, nogil=True)
def _feedback(order, offsets, js, J, lam, joints) -> None:
    """Per joint ``js[order[k]]`` (rows ``offsets[k]:offsets[k+1]`` of ``J``
    (m, 12) and ``lam`` (m,)): f1, t1, f2, t2 = J_bodyᵀ λ over its rows into
    ``joints.feedback``; remember λ and the row count in ``joints``."""
    jfeedback = joints.feedback
    jlam = joints.lam
    jnrows = joints.nrows
    acc = np.empty(12)
    for k in range(order.shape[0]):
        j = js[order[k]]
        r0 = offsets[k]
        r1 = offsets[k + 1]
        jnrows[j] = r1 - r0
        # summed in a scratch row, row by row from zero, then stored once
        for t in range(12):
            acc[t] = 0.0
        for i in range(r0, r1):
            x = lam[i]
            jlam[j, i - r0] = x
            for t in range(12):
                acc[t] += J[i, t] * x
        for t in range(12):
            jfeedback[j, t] = acc[t]


#: Fraction of last step's joint forces QuickStep starts from when warm starting.
#: A full (1.0) start overshoots with over-relaxation (w 1.3) and few iterations
#: and can diverge on stiff chains; 0.75 was stable and clearly better than a
#: cold start in docs/decisions/0001-quickstep-warm-starting.md's measurements.
WARM_START_SCALE = 0.75


@njit(cache=True, nogil=True)
def _warm_start(order, offsets, js, joints, lam) -> None:
    """Start each joint's rows from its last step's forces when its row count is unchanged."""
    jlam = joints.lam
    jnrows = joints.nrows
    for k in range(order.shape[0]):
        j = js[order[k]]
        r0 = offsets[k]
        n = offsets[k + 1] - r0
        if jnrows[j] == n:
            for i in range(n):
                lam[r0 + i] = WARM_START_SCALE * jlam[j, i]


@njit(cache=True, nogil=True)
def _island_work(cap, maxj, nbody):
    """:class:`IslandWork` for dWorldStep's islands of up to ``maxj`` joints and
    ``cap`` rows among ``nbody`` body rows (no SOR work array)."""
    rows = Rows(np.empty((cap, 12)), np.empty(cap), np.empty(cap), np.empty(cap),
                np.empty(cap), np.empty(cap, dtype=np.int64))
    return IslandWork(rows, np.empty((cap, 2), dtype=np.int64), np.empty(cap), np.empty(0),
                      np.empty(maxj, dtype=np.int64), np.empty(maxj, dtype=np.int64),
                      np.empty(maxj, dtype=np.int64), np.empty(maxj + 1, dtype=np.int64),
                      np.zeros((nbody, 6)), np.empty((9, 3)))


@njit(cache=True, nogil=True)
def _sliced_rows(rows, m):
    """The first ``m`` rows of ``rows`` (views)."""
    return Rows(rows.J[:m], rows.c[:m], rows.cfm[:m], rows.lo[:m], rows.hi[:m],
                rows.findex[:m])


@njit(cache=True, nogil=True)
def _free_bodies(islands):
    """Body rows of the islands without joints (free bodies), in island order."""
    bodies = islands.body_rows
    bstart = islands.body_start
    jstart = islands.joint_start
    ni = bstart.shape[0] - 1
    nfree = 0
    for isl in range(ni):
        if jstart[isl + 1] == jstart[isl]:
            nfree += bstart[isl + 1] - bstart[isl]
    fb = np.empty(nfree, dtype=np.int64)
    k = 0
    for isl in range(ni):
        if jstart[isl + 1] == jstart[isl]:
            for t in range(bstart[isl], bstart[isl + 1]):
                fb[k] = bodies[t]
                k += 1
    return fb


@njit(cache=True, nogil=True)
def _quick_islands(islands, config, wp, table, bodies, masses, damping, joints, rng_state,
                   scratch) -> None:
    """dWorldQuickStep of every island with joints (:class:`Islands`), all at once.

    The rows of all islands are built in one set of buffers, island after
    island (``findex`` global row numbers), and :func:`sor_lcp` solves
    them; the per-joint and per-row stages run once over all islands rather
    than once per island, which is what a scene of many small islands (a
    settled pile) spends its time on. The numbers are those of solving the
    islands one by one in island order: islands share no body, and the
    generator is drawn island after island. ``scratch`` (9, 3) work array.
    """
    h = config.h
    bstart = islands.body_start
    jstart = islands.joint_start
    ni = bstart.shape[0] - 1
    nj = jstart[ni]
    js = islands.joint_rows[:nj]
    work, nk, _nub = assembled_rows(js, joints, bodies, wp, False, True, table.count, scratch)
    order = work.order
    offsets = work.offsets
    # islands with rows: their row segments and bodies (solved below);
    # islands whose joints have no rows this step move freely now
    seg = np.empty(ni + 1, dtype=np.int64)
    solved = np.empty(bstart[ni], dtype=np.int64)
    nseg = 0
    nsolved = 0
    seg[0] = 0
    k = 0
    for isl in range(ni):
        if jstart[isl + 1] == jstart[isl]:
            continue
        k0 = k
        while k < nk and order[k] < jstart[isl + 1]:
            k += 1
        if offsets[k] > offsets[k0]:
            nseg += 1
            seg[nseg] = offsets[k]
            for t in range(bstart[isl], bstart[isl + 1]):
                solved[nsolved] = islands.body_rows[t]
                nsolved += 1
        else:
            advance_island(islands.body_rows[bstart[isl]:bstart[isl + 1]], False, work.cforce, h,
                           table.flags, bodies, masses.invI_world, damping)
    lam = work.lam
    if config.warm:
        _warm_start(order[:nk], offsets, js, joints, lam)
    sor_lcp(work.rows, work.jb, seg[:nseg + 1], solved[:nsolved], bodies, masses.invI_world,
            config, rng_state, lam, work.cforce, work.sor)
    for j in js:
        joints.nrows[j] = 0     # joints without rows this step keep their old feedback
    _feedback(order[:nk], offsets, js, work.rows.J, lam, joints)
    # v += h M⁻¹ (fe + Jᵀλ); w += I⁻¹ (τe + Jᵀλ) h; positions; clear forces
    advance_island(solved[:nsolved], True, work.cforce, h, table.flags, bodies,
                   masses.invI_world, damping)


@njit(cache=True, nogil=True)
def _exact_islands(islands, config, wp, table, bodies, masses, damping, joints) -> None:
    """dWorldStep of every island with joints (:class:`Islands`), island by
    island: each island's rows (purely unbounded joints first) are solved
    exactly."""
    h = config.h
    bstart = islands.body_start
    jstart = islands.joint_start
    ni = bstart.shape[0] - 1
    # work buffers for the largest island, reused by every island (no
    # allocation per island); a joint has at most MAX_ROWS rows
    maxj = 0
    for isl in range(ni):
        maxj = max(maxj, jstart[isl + 1] - jstart[isl])
    work = _island_work(MAX_ROWS * maxj, maxj, table.count)
    # bodies of the islands solved with rows, advanced in one batch at the end
    # (their constraint wrenches stay in their own rows of work.cforce)
    solved = np.empty(bstart[ni], dtype=np.int64)
    nsolved = 0
    # the solver's matrices and vectors, grown to the largest island met so far
    lcp = exact_scratch(0)
    for isl in range(ni):
        if jstart[isl + 1] == jstart[isl]:
            continue
        ib = islands.body_rows[bstart[isl]:bstart[isl + 1]]
        js = islands.joint_rows[jstart[isl]:jstart[isl + 1]]
        nj = js.shape[0]
        island_info1(js, joints, bodies, wp, work.ms, work.nubs)
        need = 0
        for i in range(nj):
            need += work.ms[i]
        if need > work.lam.shape[0]:
            # a joint type with more than MAX_ROWS rows: grow the buffers
            grown = _island_work(need, work.ms.shape[0], 0)
            work = IslandWork(grown.rows, grown.jb, grown.lam, grown.sor, work.ms, work.nubs,
                              work.order, work.offsets, work.cforce, work.scratch)
        nk, nub = order_joints_into(nj, work.ms, work.nubs, True, work.order)
        m = fill_island_rows(js, nk, joints, bodies, wp, work)
        for j in js:
            joints.nrows[j] = 0     # joints without rows this step keep their old feedback
        if m == 0:
            advance_island(ib, False, work.cforce, h, table.flags, bodies, masses.invI_world,
                           damping)
            continue
        order = work.order[:nk]
        offsets = work.offsets[:nk + 1]
        rows = _sliced_rows(work.rows, m)
        lam = work.lam[:m]
        lam[:] = 0.0
        if m > lcp.findex.shape[0]:
            lcp = exact_scratch(max(m, 2 * lcp.findex.shape[0]))
        exact_solve(rows, work.jb[:m], nub, ib, bodies, masses.invI_world, h, lam, work.cforce,
                    lcp)
        _feedback(order, offsets, js, rows.J, lam, joints)
        for t in range(ib.shape[0]):
            solved[nsolved + t] = ib[t]
        nsolved += ib.shape[0]
    # v += h M⁻¹ (fe + Jᵀλ); w += I⁻¹ (τe + Jᵀλ) h; positions; clear forces
    advance_island(solved[:nsolved], True, work.cforce, h, table.flags, bodies,
                   masses.invI_world, damping)


@njit(cache=True, nogil=True)
def step_kernel(config_fields, wp_fields, body_count, joint_count, table_arrays, body_fields,
                mass_fields, damping_fields, ad_fields, joint_arrays, rng_state):
    """One step of the whole world. Returns the number of islands stepped.

    Each bundle arrives as the plain tuple of its fields (``tuple(bundle)``)
    and is named again here: a :class:`StepConfig`, :class:`WorldParams`,
    :class:`Bodies`, :class:`MassModel`, :class:`Damping` and
    :class:`AutoDisable`; numba's dispatcher types plain tuples in C but
    named tuples in Python, about 1 µs more per bundle and call, which a
    small world's step would notice. The :class:`BodyTable` and
    :class:`Joints` come as their counts (``body_count``, ``joint_count``:
    the store rows in use) and the tuples of their arrays, so that the
    caller's tuples of arrays stay the same objects while the stores do not
    reallocate (see :func:`run_step`).
    ``rng_state`` uint64[1] is ODE's generator state (QuickStep's row shuffles).
    """
    config = StepConfig(*config_fields)
    wp = WorldParams(*wp_fields)
    table = BodyTable(body_count, *table_arrays)
    bodies = Bodies(*body_fields)
    masses = MassModel(*mass_fields)
    damping = Damping(*damping_fields)
    ad = AutoDisable(*ad_fields)
    joints = Joints(joint_count, *joint_arrays)
    h = config.h
    adjacency = build_adjacency(table.count, joints)
    auto_disable(table, bodies, ad, adjacency, h)
    islands = find_islands(table, adjacency, joints, bodies.invmass)
    bstart = islands.body_start
    ni = bstart.shape[0] - 1
    scratch = np.empty((9, 3))
    # every island's bodies prepared in one batch, in island order: an island's
    # stages read and write only its own bodies, so preparing them all before
    # the first island is solved changes no value (one call, not one per island)
    prepare_island(islands.body_rows[:bstart[ni]], h, config.gravity, table.flags, bodies,
                   masses, scratch)
    # islands without joints (free bodies) are independent of everything else
    # and use no random numbers: step them all in one batch, in island order
    fb = _free_bodies(islands)
    if fb.shape[0] > 0:
        advance_island(fb, False, np.empty((0, 6)), h, table.flags, bodies, masses.invI_world,
                       damping)
    if islands.joint_start[ni] == 0:
        return ni   # no island has a joint (no work buffers to make for the solvers)
    if config.quick:
        _quick_islands(islands, config, wp, table, bodies, masses, damping, joints, rng_state,
                       scratch)
    else:
        _exact_islands(islands, config, wp, table, bodies, masses, damping, joints)
    return ni


def _world_params(world: World, h: float) -> WorldParams:
    """The :class:`WorldParams` of ``world`` for a step of ``h`` seconds."""
    return world_params(h, world.erp, world.cfm, world.max_correcting_vel, world.surface_layer)


def _step_settings(world: World, h: float, quick: bool) -> tuple[tuple, tuple]:
    """``(config, wp)``: the :class:`StepConfig` and :class:`WorldParams` of this
    step as plain tuples (see :func:`step_kernel`), kept on the world while the
    settings they come from are unchanged (most worlds step with the same ones
    every time; building two named tuples per step showed in small worlds).
    Every field has the same Python type whatever the user passed (``bool``,
    ``float``, ``int``, a float64 gravity), so the kernel's typing of them
    never changes."""
    key = (h, quick, world.qs_warm_start, world.qs_iterations, world.qs_w, id(world.gravity),
           world.erp, world.cfm, world.max_correcting_vel, world.surface_layer)
    if world.step_settings_key != key:
        gravity = np.ascontiguousarray(world.gravity, dtype=np.float64)
        config = StepConfig(bool(quick), bool(world.qs_warm_start), float(h),
                            int(world.qs_iterations), float(world.qs_w), gravity)
        world.step_settings = (tuple(config), tuple(_world_params(world, h)))
        world.step_settings_key = key
    return world.step_settings


def _step_bundles(world: World) -> tuple:
    """``(table, bodies, masses, damping, ad, joints)``: the arrays of the
    world's storage the kernel takes, each bundle as the plain tuple of its
    fields (the body table and the joints without their counts; see
    :func:`step_kernel`), cached on the world until the stores reallocate
    (they grow by doubling; the auto-disable buffer grows with the largest
    sample count)."""
    s = world.bodies
    jt = world.joints
    key = (s.capacity, id(s.ad_buf), jt.capacity)
    if world.step_args_key == key:
        return world.step_args
    if world.invI_world.shape[0] < s.capacity:
        world.invI_world = np.zeros((s.capacity, 3, 3))
    table = BodyTable(s.count, s.flags, s.seq)
    masses = MassModel(s.mass, s.I, s.invI, world.invI_world)
    damping = Damping(s.max_ang_speed, s.frot_axis, s.lin_damp, s.ang_damp, s.lin_damp_thr2,
                      s.ang_damp_thr2)
    ad = AutoDisable(s.ad_lin_thr2, s.ad_ang_thr2, s.ad_steps, s.ad_time, s.ad_samples,
                     s.ad_idle_steps, s.ad_idle_time, s.ad_sample_index, s.ad_buf)
    bundles = (tuple(table)[1:], tuple(body_arrays(world)), tuple(masses), tuple(damping),
               tuple(ad), tuple(joint_arrays(world))[1:])
    world.step_args = bundles
    world.step_args_key = key
    return bundles


#: step_kernel's compiled entry points, by the kinds of its arguments
_STEP_ENTRY = CompiledEntry(step_kernel)


def run_step(world: World, h: float, quick: bool) -> int:
    """Step ``world`` by ``h`` seconds with the chosen stepper.

    The kernel is called through its compiled entry point (no typing of its
    53 arrays per call, :mod:`engine.ode.kernels.compiled_entry`); the entry
    is chosen again whenever the settings' or the arrays' tuples are rebuilt.
    """
    settings = _step_settings(world, h, quick)
    bundles = _step_bundles(world)
    entry = world.step_entry
    chosen_for = world.step_entry_for
    if entry is None or chosen_for[0] is not settings or chosen_for[1] is not bundles:
        entry = _STEP_ENTRY.entry_for((*settings, 0, 0, *bundles, RNG_STATE))
        world.step_entry = entry
        world.step_entry_for = (settings, bundles)
    jt = world.joints
    ni = entry(*settings, world.bodies.count, jt.count, *bundles, RNG_STATE)
    for idx, joint in world.feedback_joints.items():
        if jt.nrows[idx] == 0:
            continue      # no rows this step: ODE leaves the feedback untouched
        fb = joint.feedback
        row = jt.feedback[idx]
        fb.f1 = row[0:3].copy()
        fb.t1 = row[3:6].copy()
        fb.f2 = row[6:9].copy()
        fb.t2 = row[9:12].copy()
    for body in list(world.moved_callbacks.values()):
        body.moved_callback(body)
    return ni


def dWorldSetQuickStepWarmStarting(w: World, enabled: int) -> None:
    """Odeon extension: start dWorldQuickStep's iterations from each joint's
    forces of the previous step (off by default, as in ODE 0.16.2, where warm
    starting is compiled out). Helps stiff, persistent joint systems converge
    with few iterations; contact joints are new every step and start at zero."""
    world_of(w, "dWorldSetQuickStepWarmStarting").qs_warm_start = bool(enabled)


def dWorldGetQuickStepWarmStarting(w: World) -> int:
    """1 if dWorldQuickStep warm-starts (Odeon extension)."""
    return int(world_of(w, "dWorldGetQuickStepWarmStarting").qs_warm_start)


def _check_step(w, stepsize, function: str) -> tuple[World, float]:
    world = world_of(w, function)
    h = checks.real(stepsize, function, "stepsize")
    if not h > 0:
        raise ODEError(function, "stepsize", f"must be > 0, got {h}")
    return world, h


def dWorldStep(w: World, stepsize: float) -> int:
    """Step the world by ``stepsize`` s with the exact (Dantzig LCP) solver. Returns 1."""
    world, h = _check_step(w, stepsize, "dWorldStep")
    run_step(world, h, False)
    return 1


def dWorldQuickStep(w: World, stepsize: float) -> int:
    """Step the world by ``stepsize`` s with the iterative SOR solver. Returns 1."""
    world, h = _check_step(w, stepsize, "dWorldQuickStep")
    run_step(world, h, True)
    return 1


