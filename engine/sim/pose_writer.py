"""`PoseWriter`: every moving Solid's translation/rotation fields follow its
body after each step (`Simulation.write_poses`), at no per-Solid cost.

The writer binds each moving Solid's node to itself (`Node.bind_pose_feed`):
after a step it only keeps a copy of the bodies' rotations and positions (a
`StepPoses`, one array copy for all Solids), and a node computes its field
values from the latest one when the fields are read (saving, the scene tree,
a Supervisor). The first read after a step converts every Solid at once.

The frames: world = body frame * body_offset, and local = ref⁻¹ * world with
ref the parent Solid's world frame * parent_rel: a constant for a Solid whose
parent does not move (or that has none), computed from the parent's new
frame otherwise. A Solid merged into its parent's body keeps its local pose
and is not bound. What does not change between steps is prepared once per
model; `valid_for` tells when the model's records changed (a rebuild; an edit
moving a static Solid bumps `Model.frames_version`) and the writer must be
prepared again.
"""

from __future__ import annotations

import numpy as np

from engine.ode.kernels.detlinalg import matmul
from engine.sim.poses import Frame, matrices_to_axis_angles, solid_world_poses
from engine.world.protos import instance_of


class PoseWriter:
    """The pose write-back of one model (module docstring)."""

    def __init__(self, model) -> None:
        self.model = model
        moving = [rec for rec in model.solids if rec.ode_body is not None]
        self.moving = moving
        self.offset_R = (np.stack([rec.body_offset.R for rec in moving]) if moving
                         else np.zeros((0, 3, 3)))
        self.offset_t = (np.stack([rec.body_offset.t for rec in moving]) if moving
                         else np.zeros((0, 3)))
        where = {id(rec): k for k, rec in enumerate(moving)}
        n = len(moving)
        self.ref_R = np.tile(np.eye(3), (n, 1, 1))  # identity for the rows skipped
        self.ref_t = np.zeros((n, 3))
        keep = np.ones(n, bool)
        #: (row, parent's row, parent_rel) of the Solids whose parent moves
        self.moving_parent: list[tuple[int, int, Frame]] = []
        for k, rec in enumerate(moving):
            parent = rec.parent
            if parent is None:
                ref = rec.parent_rel
            elif parent.ode_body is rec.ode_body:
                keep[k] = False  # rigidly merged/attached: the local pose does not change
                continue
            else:
                p = where.get(id(parent))
                if p is not None:
                    self.moving_parent.append((k, p, rec.parent_rel))
                    continue
                ref = parent.frame.compose(rec.parent_rel)
            self.ref_R[k] = ref.R
            self.ref_t[k] = ref.t
        self.rows = np.array([rec.ode_body.index for rec in moving], dtype=np.intp)
        #: the rows as one slice when they are consecutive (the usual world: a
        #: slice copy costs a fifth of a gather)
        self.span = _consecutive(self.rows)
        self._solids = len(model.solids)
        self._frames_version = model.frames_version
        self._epoch = 0
        #: the latest step's poses (`StepPoses`), None before the first step
        self.current: StepPoses | None = None
        for k in np.flatnonzero(keep).tolist():
            node = moving[k].node
            node.bind_pose_feed(self, k)
            instance = instance_of(node)
            if instance is not None:  # a PROTO stand-in's expansion: its instance too
                instance.bind_pose_feed(self, k)

    def valid_for(self, model) -> bool:
        """True while ``model``'s Solid records are those this writer was prepared for."""
        return (model is self.model and len(model.solids) == self._solids
                and model.frames_version == self._frames_version)

    def write(self) -> None:
        """Publish the poses of this step (call after the world step): the
        bound fields read them when asked."""
        if not self.moving:
            return
        store = self.model.ode_world.bodies
        self._epoch += 1
        span = self.span
        if span is not None:
            body_R, body_pos = store.R[span].copy(), store.pos[span].copy()
        else:
            body_R, body_pos = store.R.take(self.rows, axis=0), store.pos.take(self.rows, axis=0)
        self.current = StepPoses(self, self._epoch, body_R, body_pos)

    def local_poses(self, body_R: np.ndarray, body_pos: np.ndarray) -> tuple[list, list]:
        """Every moving Solid's (translation (m, 3), rotation (m, 4)) field values,
        as nested lists of floats, for bodies at ``body_R`` (m, 3, 3) and
        ``body_pos`` (m, 3) [m] (one row per moving Solid)."""
        world_R, world_t = solid_world_poses(body_R, body_pos, self.offset_R, self.offset_t)
        ref_R, ref_t = self.ref_R, self.ref_t
        if self.moving_parent:
            ref_R, ref_t = ref_R.copy(), ref_t.copy()
            for k, p, parent_rel in self.moving_parent:
                ref = Frame(world_R[p], world_t[p]).compose(parent_rel)
                ref_R[k] = ref.R
                ref_t[k] = ref.t
        ref_Rt = ref_R.transpose(0, 2, 1)
        local_t = matmul(ref_Rt, (world_t - ref_t)[:, :, None])[:, :, 0].tolist()
        local_rot = matrices_to_axis_angles(matmul(ref_Rt, world_R)).tolist()
        return local_t, local_rot


def _consecutive(rows: np.ndarray) -> slice | None:
    """The slice of ``rows`` (m,) when they count up by one from their first, else None."""
    if rows.size == 0:
        return None
    start = int(rows.min())  # the first, if they count up
    if not np.array_equal(rows, np.arange(start, start + rows.size)):
        return None
    return slice(start, start + rows.size)


class StepPoses:
    """One step's body poses for the moving Solids of a `PoseWriter`
    (`engine.world.node.PoseSnapshot`); the field values are computed on the
    first `pose` call. ``body_R`` (m, 3, 3), ``body_pos`` (m, 3) [m]: copies."""

    __slots__ = ("writer", "epoch", "body_R", "body_pos", "_local")

    def __init__(self, writer: PoseWriter, epoch: int, body_R: np.ndarray,
                 body_pos: np.ndarray) -> None:
        self.writer = writer
        self.epoch = epoch
        self.body_R = body_R
        self.body_pos = body_pos
        self._local: tuple[list, list] | None = None

    def pose(self, row: int) -> tuple[tuple, tuple]:
        """(translation, rotation) of moving Solid ``row``, tuples of floats."""
        local = self._local
        if local is None:
            local = self._local = self.writer.local_poses(self.body_R, self.body_pos)
        return tuple(local[0][row]), tuple(local[1][row])
