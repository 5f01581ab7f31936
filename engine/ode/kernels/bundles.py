"""The named data bundles the compiled step reads and writes.

Every kernel of a step receives its data as a few of these ``NamedTuple``
bundles instead of long positional argument lists (the ``Model``/``Data``
style of MJX, the per-stage context structs of ODE's quickstep). Numba types
them as named tuples: reading a field (``bodies.R``) costs nothing at run
time, and a field is found by name, never by a position kept in sync by hand.

Arrays are the world's storage arrays themselves (no copies), indexed by body
row ``b`` (first dimension ``n`` = body store capacity) or joint row ``j``
(first dimension = joint store capacity); only rows below ``count`` are in
use. Units are SI: m, kg, s, rad, N, N·m.

This module is the lowest layer (``engine.ode.kernels``): joints and step
import it, it imports neither.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class Bodies(NamedTuple):
    """The body state a joint kernel and the integrator read (and write).

    ``facc``/``tacc`` may be added to by joints (motors working against a stop).
    """

    pos: np.ndarray       #: (n, 3) position of the centre of mass (m)
    R: np.ndarray         #: (n, 3, 3) rotation, body frame to world
    q: np.ndarray         #: (n, 4) orientation quaternion (w, x, y, z)
    lvel: np.ndarray      #: (n, 3) linear velocity (m/s)
    avel: np.ndarray      #: (n, 3) angular velocity, world frame (rad/s)
    facc: np.ndarray      #: (n, 3) accumulated force (N)
    tacc: np.ndarray      #: (n, 3) accumulated torque (N·m)
    invmass: np.ndarray   #: (n,) inverse mass (1/kg), 0 for kinematic bodies


class BodyTable(NamedTuple):
    """Which body rows are live and in what order they were created."""

    count: int            #: rows in use (live or free) in the body store
    flags: np.ndarray     #: (n,) int64 ``BF_*`` bits
    seq: np.ndarray       #: (n,) int64 creation order, -1 for a free row


class MassModel(NamedTuple):
    """Mass and inertia of every body, plus the step's world-frame inverse inertia."""

    mass: np.ndarray        #: (n,) mass (kg)
    I_body: np.ndarray      #: (n, 3, 3) inertia about the centre of mass, body frame (kg·m²)
    invI_body: np.ndarray   #: (n, 3, 3) its inverse (1/(kg·m²))
    invI_world: np.ndarray  #: (n, 3, 3) R·I⁻¹·Rᵀ, written by prepare_island (1/(kg·m²))


class Damping(NamedTuple):
    """Per-body velocity limits and damping, applied after the position update."""

    max_ang_speed: np.ndarray  #: (n,) angular speed cap (rad/s), with BF_MAX_ANG_SPEED
    frot_axis: np.ndarray      #: (n, 3) finite rotation axis, world unit vector
    lin: np.ndarray            #: (n,) linear damping fraction per step (1)
    ang: np.ndarray            #: (n,) angular damping fraction per step (1)
    lin_thr2: np.ndarray       #: (n,) squared linear speed above which lin applies ((m/s)²)
    ang_thr2: np.ndarray       #: (n,) squared angular speed above which ang applies ((rad/s)²)


class AutoDisable(NamedTuple):
    """Per-body auto-disable thresholds, counters and velocity sample window."""

    lin_thr2: np.ndarray      #: (n,) squared average linear speed threshold ((m/s)²)
    ang_thr2: np.ndarray      #: (n,) squared average angular speed threshold ((rad/s)²)
    steps: np.ndarray         #: (n,) int64 idle steps required
    time: np.ndarray          #: (n,) idle time required (s)
    samples: np.ndarray       #: (n,) int64 velocity samples averaged (0: never disable)
    idle_steps: np.ndarray    #: (n,) int64 idle steps still to go
    idle_time: np.ndarray     #: (n,) idle time still to go (s)
    sample_index: np.ndarray  #: (n,) int64 next slot of the sample window
    buf: np.ndarray           #: (n, samples, 6) recent (lvel, avel) samples


class Joints(NamedTuple):
    """The joint store's arrays (row ``j`` is one joint)."""

    count: int                #: rows in use (live or free) in the joint store
    type: np.ndarray          #: (k,) int64 dJointType*
    body: np.ndarray          #: (k, 2) int64 attached body rows, -1 for the world
    flags: np.ndarray         #: (k,) int64 ``JF_*`` bits
    attach_seq: np.ndarray    #: (k,) int64 attachment order
    data: np.ndarray          #: (k, JD) float64 records (layout per joint module)
    idata: np.ndarray         #: (k, JI) int64 records
    feedback: np.ndarray      #: (k, 12) last step's f1, t1, f2, t2 (N, N·m)
    lam: np.ndarray           #: (k, MAX_ROWS) last step's row forces (N or N·m)
    nrows: np.ndarray         #: (k,) int64 rows the joint had last step (0: none)


class WorldParams(NamedTuple):
    """World parameters every joint kernel may read (floats)."""

    fps: float                 #: 1 / step size (1/s)
    erp: float                 #: world error reduction parameter (1)
    cfm: float                 #: world constraint force mixing
    max_correcting_vel: float  #: contact max correcting velocity (m/s)
    surface_layer: float       #: contact surface layer depth (m)
    h: float                   #: step size (s)


def world_params(h: float, erp: float, cfm: float, max_correcting_vel: float,
                 surface_layer: float) -> WorldParams:
    """The :class:`WorldParams` of a step of ``h`` seconds (every field a float)."""
    return WorldParams(1.0 / h, float(erp), float(cfm), float(max_correcting_vel),
                       float(surface_layer), float(h))


class Rows(NamedTuple):
    """An island's constraint rows (m rows), as joints' info2 fill them.

    ``J[r]`` is ``[lin1 (3), ang1 (3), lin2 (3), ang2 (3)]``; rows are preset
    to J 0, c 0, cfm = world CFM, lo = -inf, hi = +inf, findex = -1.
    """

    J: np.ndarray       #: (m, 12) Jacobian rows
    c: np.ndarray       #: (m,) right-hand side (velocity units)
    cfm: np.ndarray     #: (m,) constraint force mixing
    lo: np.ndarray      #: (m,) lower force bound (N or N·m)
    hi: np.ndarray      #: (m,) upper force bound, or friction coefficient
    findex: np.ndarray  #: (m,) int64 row giving friction bounds, -1 for none


class IslandWork(NamedTuple):
    """Work buffers of one step, sized for its largest island and reused by each."""

    rows: Rows          #: row buffers (cap rows)
    jb: np.ndarray      #: (cap, 2) int64 body rows of each row
    lam: np.ndarray     #: (cap,) row forces
    sor: np.ndarray     #: SOR-LCP work array (empty for dWorldStep)
    ms: np.ndarray      #: (maxj,) int64 rows per joint
    nubs: np.ndarray    #: (maxj,) int64 unbounded rows per joint
    order: np.ndarray   #: (maxj,) int64 joints in solving order
    offsets: np.ndarray  #: (maxj + 1,) int64 first row of each ordered joint
    cforce: np.ndarray   #: (n, 6) constraint force and torque Jᵀλ per body (N, N·m)
    scratch: np.ndarray  #: (9, 3) per-body work array of prepare_island


class ExactScratch(NamedTuple):
    """Work arrays of dWorldStep's island solves for islands of up to ``cap``
    rows, reused island after island (grown by the caller when an island has
    more rows; :func:`~engine.ode.step.solve.exact_scratch`)."""

    A: np.ndarray            #: (cap * cap,) the island's matrix, used as (m, m)
    L: np.ndarray            #: (cap * cap,) its L D Lᵀ factor, used as (m, m)
    JinvM: np.ndarray        #: (cap * 12,) J M⁻¹, used as (m, 12)
    vectors: np.ndarray      #: (5, cap) right-hand side, w, x, lo, hi of the LCP
    lcp_vectors: np.ndarray  #: (7, cap) the LCP's own vectors (lcp_dantzig)
    lcp_ints: np.ndarray     #: (3, cap) int64 the LCP's lstart, perm, cidx
    entries: np.ndarray      #: (3, 2 cap) int64 the rows listed by body (body, row, side)
    findex: np.ndarray       #: (cap,) int32 friction indices (permuted by the LCP)
    upper: np.ndarray        #: (cap,) bool: which bound a pinned row sits at


class StepConfig(NamedTuple):
    """How to step: solver choice and its settings, step size, gravity."""

    quick: bool           #: dWorldQuickStep (SOR) instead of dWorldStep (Dantzig)
    warm: bool            #: QuickStep starts from last step's forces
    h: float              #: step size (s)
    iterations: int       #: QuickStep SOR sweeps
    sor_w: float          #: QuickStep over-relaxation factor
    gravity: np.ndarray   #: (3,) gravity (m/s²)


class Adjacency(NamedTuple):
    """Per-body joint lists in CSR form, newest attachment first.

    Body b's entries are ``start[b]:start[b+1]``; entry e is joint ``joint[e]``
    whose other end is body ``other[e]`` (-1 for the static environment).
    """

    start: np.ndarray   #: (nbody + 1,) int64 first entry of each body
    joint: np.ndarray   #: (entries,) int64 joint row
    other: np.ndarray   #: (entries,) int64 body at the joint's other end, or -1


class Islands(NamedTuple):
    """The step's islands: island i owns ``body_rows[body_start[i]:body_start[i+1]]``
    and ``joint_rows[joint_start[i]:joint_start[i+1]]``, in ODE's visiting order.
    Entries past ``body_start[-1]`` / ``joint_start[-1]`` are unused."""

    body_rows: np.ndarray    #: (nbody,) int64 body rows
    body_start: np.ndarray   #: (islands + 1,) int64
    joint_rows: np.ndarray   #: (njoint,) int64 joint rows
    joint_start: np.ndarray  #: (islands + 1,) int64
