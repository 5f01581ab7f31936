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
from engine.ode.joints.layout import (
    MAX_ROWS,
    WP_CFM,
    WP_ERP,
    WP_FPS,
    WP_H,
    WP_LAYER,
    WP_MAX_VEL,
    WP_SIZE,
)
from engine.ode.rng import RNG_STATE
from engine.ode.solvers.sor_lcp import sor_lcp, sor_work_size
from engine.ode.step.assemble import fill_island_rows, island_info1, order_joints_into
from engine.ode.step.integrate import advance_island, prepare_island
from engine.ode.step.islands import auto_disable, build_adjacency, find_islands
from engine.ode.step.solve import exact_solve
from engine.ode.world import World, world_of


@njit(cache=True, nogil=True)
def _feedback(order, offsets, js, J, jb, lam, jfeedback, jlam, jnrows) -> None:
    """Per joint: f1, t1, f2, t2 = J_bodyᵀ λ over its rows; remember λ."""
    for k in range(order.shape[0]):
        j = js[order[k]]
        r0 = offsets[k]
        r1 = offsets[k + 1]
        for t in range(12):
            jfeedback[j, t] = 0.0
        jnrows[j] = r1 - r0
        for i in range(r0, r1):
            x = lam[i]
            jlam[j, i - r0] = x
            for t in range(12):
                jfeedback[j, t] += J[i, t] * x


#: Fraction of last step's joint forces QuickStep starts from when warm starting.
#: A full (1.0) start overshoots with over-relaxation (w 1.3) and few iterations
#: and can diverge on stiff chains; 0.75 was stable and clearly better than a
#: cold start in docs/decisions/0001-quickstep-warm-starting.md's measurements.
WARM_START_SCALE = 0.75


@njit(cache=True, nogil=True)
def _warm_start(order, offsets, js, jlam, jnrows, lam) -> None:
    """Start each joint's rows from its last step's forces when its row count is unchanged."""
    for k in range(order.shape[0]):
        j = js[order[k]]
        r0 = offsets[k]
        n = offsets[k + 1] - r0
        if jnrows[j] == n:
            for i in range(n):
                lam[r0 + i] = WARM_START_SCALE * jlam[j, i]


@njit(cache=True, nogil=True)
def _row_buffers(cap, quick):
    """Row buffers for ``cap`` rows: J (cap, 12), rhs, cfm, lo, hi, findex,
    body pairs (cap, 2), lambda, and the SOR work array (empty for dWorldStep)."""
    work = np.empty(sor_work_size(cap, 0)) if quick else np.empty(0)
    return (np.empty((cap, 12)), np.empty(cap), np.empty(cap), np.empty(cap), np.empty(cap),
            np.empty(cap, dtype=np.int64), np.empty((cap, 2), dtype=np.int64), np.empty(cap),
            work)


@njit(cache=True, nogil=True)
def step_kernel(quick, warm, h, wp, gravity, iterations, sor_w, nbody, bflags, bseq, B, mass,
                I_body, invI_body, invI_world, damping, ad, njoint, jtype, jbody, jflags, jattach,
                jdata, jidata, jfeedback, jlam, jnrows, rng_state):
    """One step of the whole world. Returns the number of islands stepped."""
    pos, R, q, lvel, avel, facc, tacc, invmass = B
    max_ang, frot_axis, lin_damp, ang_damp, lin_thr2, ang_thr2 = damping
    ad_lin2, ad_ang2, ad_steps, ad_time, ad_samples, ad_idle_steps, ad_idle_time, ad_index, \
        ad_buf = ad
    start, adj_joint, adj_other = build_adjacency(nbody, njoint, jbody, jflags, jattach)
    auto_disable(nbody, bflags, lvel, avel, start, ad_lin2, ad_ang2, ad_steps, ad_time,
                 ad_samples, ad_idle_steps, ad_idle_time, ad_index, ad_buf, h)
    bodies, bstart, joints, jstart = find_islands(nbody, bflags, bseq, start, adj_joint,
                                                  adj_other, njoint, jbody, jflags, invmass)
    ni = bstart.shape[0] - 1
    cforce = np.zeros((nbody, 6))
    scratch = np.empty((9, 3))
    # row buffers for the largest island, reused by every island (no
    # allocation per island); a joint has at most MAX_ROWS rows
    maxj = 0
    for isl in range(ni):
        maxj = max(maxj, jstart[isl + 1] - jstart[isl])
    cap = MAX_ROWS * maxj
    ms = np.empty(maxj, dtype=np.int64)
    nubs = np.empty(maxj, dtype=np.int64)
    jorder = np.empty(maxj, dtype=np.int64)
    joffsets = np.empty(maxj + 1, dtype=np.int64)
    Jb, cb, cfmb, lob, hib, fib, jbb, lamb, work = _row_buffers(cap, quick)
    # islands without joints (free bodies) are independent of everything else
    # and use no random numbers: step them all in one batch, in island order
    nfree = 0
    for isl in range(ni):
        if jstart[isl + 1] == jstart[isl]:
            nfree += bstart[isl + 1] - bstart[isl]
    if nfree > 0:
        fb = np.empty(nfree, dtype=np.int64)
        k = 0
        for isl in range(ni):
            if jstart[isl + 1] == jstart[isl]:
                for t in range(bstart[isl], bstart[isl + 1]):
                    fb[k] = bodies[t]
                    k += 1
        prepare_island(fb, h, gravity, bflags, R, avel, facc, tacc, mass, invmass, I_body,
                       invI_body, invI_world, scratch)
        advance_island(fb, False, cforce, h, bflags, pos, q, R, lvel, avel, facc, tacc,
                       invmass, invI_world, max_ang, frot_axis, lin_damp, ang_damp, lin_thr2,
                       ang_thr2)
    for isl in range(ni):
        if jstart[isl + 1] == jstart[isl]:
            continue
        ib = bodies[bstart[isl]:bstart[isl + 1]]
        js = joints[jstart[isl]:jstart[isl + 1]]
        prepare_island(ib, h, gravity, bflags, R, avel, facc, tacc, mass, invmass, I_body,
                       invI_body, invI_world, scratch)
        m = 0
        nk = 0
        nub = 0
        nj = js.shape[0]
        if nj > 0:
            island_info1(js, jtype, jbody, jflags, jdata, jidata, B, wp, ms, nubs)
            need = 0
            for i in range(nj):
                need += ms[i]
            if need > cap:
                # a joint type with more than MAX_ROWS rows: grow the buffers
                cap = need
                Jb, cb, cfmb, lob, hib, fib, jbb, lamb, work = _row_buffers(cap, quick)
            nk, nub = order_joints_into(nj, ms, nubs, not quick, jorder)
            m = fill_island_rows(js, jorder, nk, ms, jtype, jbody, jflags, jdata, jidata, B,
                                 wp, joffsets, Jb, cb, cfmb, lob, hib, fib, jbb)
        if m > 0:
            order = jorder[:nk]
            offsets = joffsets[:nk + 1]
            J = Jb[:m]
            jb = jbb[:m]
            lam = lamb[:m]
            lam[:] = 0.0
            if quick and warm:
                _warm_start(order, offsets, js, jlam, jnrows, lam)
            if quick:
                sor_lcp(m, J, jb, cb[:m], cfmb[:m], lob[:m], hib[:m], fib[:m], ib, invmass,
                        invI_world, lvel, avel, facc, tacc, h, iterations, sor_w, rng_state,
                        lam, cforce, work)
            else:
                exact_solve(J, cb[:m], cfmb[:m], lob[:m], hib[:m], fib[:m], jb, nub, ib,
                            invmass, invI_world, lvel, avel, facc, tacc, h, lam, cforce)
            for j in js:
                jnrows[j] = 0     # joints without rows this step keep their old feedback
            _feedback(order, offsets, js, J, jb, lam, jfeedback, jlam, jnrows)
        else:
            for j in js:
                jnrows[j] = 0
        # v += h M⁻¹ (fe + Jᵀλ); w += I⁻¹ (τe + Jᵀλ) h; positions; clear forces
        advance_island(ib, m > 0, cforce, h, bflags, pos, q, R, lvel, avel, facc, tacc,
                       invmass, invI_world, max_ang, frot_axis, lin_damp, ang_damp, lin_thr2,
                       ang_thr2)
    return ni


def _world_params(world: World, h: float) -> np.ndarray:
    wp = np.empty(WP_SIZE)
    wp[WP_FPS] = 1.0 / h
    wp[WP_ERP] = world.erp
    wp[WP_CFM] = world.cfm
    wp[WP_MAX_VEL] = world.max_correcting_vel
    wp[WP_LAYER] = world.surface_layer
    wp[WP_H] = h
    return wp


def _step_arrays(world: World) -> tuple:
    """The storage arrays the kernel takes, cached on the world until the
    stores reallocate (they grow by doubling; the auto-disable buffer grows
    with the largest sample count)."""
    s = world.bodies
    jt = world.joints
    key = (s.capacity, id(s.ad_buf), jt.capacity)
    if world.step_args_key == key:
        return world.step_args
    if world.invI_world.shape[0] < s.capacity:
        world.invI_world = np.zeros((s.capacity, 3, 3))
    B = (s.pos, s.R, s.q, s.lvel, s.avel, s.facc, s.tacc, s.invmass)
    damping = (s.max_ang_speed, s.frot_axis, s.lin_damp, s.ang_damp, s.lin_damp_thr2,
               s.ang_damp_thr2)
    ad = (s.ad_lin_thr2, s.ad_ang_thr2, s.ad_steps, s.ad_time, s.ad_samples, s.ad_idle_steps,
          s.ad_idle_time, s.ad_sample_index, s.ad_buf)
    world.step_args = (s.flags, s.seq, B, s.mass, s.I, s.invI, world.invI_world, damping, ad,
                       jt.type, jt.body, jt.flags, jt.attach_seq, jt.data, jt.idata,
                       jt.feedback, jt.lam, jt.nrows)
    world.step_args_key = key
    return world.step_args


def run_step(world: World, h: float, quick: bool) -> int:
    """Step ``world`` by ``h`` seconds with the chosen stepper."""
    jt = world.joints
    (bflags, bseq, B, mass, I_body, invI_body, invI_world, damping, ad, jtype, jbody, jflags,
     jattach, jdata, jidata, jfeedback, jlam, jnrows) = _step_arrays(world)
    ni = step_kernel(quick, world.qs_warm_start, h, _world_params(world, h), world.gravity,
                     world.qs_iterations, world.qs_w, world.bodies.count, bflags, bseq, B, mass,
                     I_body, invI_body, invI_world, damping, ad, jt.count, jtype, jbody, jflags,
                     jattach, jdata, jidata, jfeedback, jlam, jnrows, RNG_STATE)
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


