"""`PoseWriter`: write every moving Solid's pose into its translation/rotation
fields after a step (`Simulation.write_poses`), with what does not change
between steps prepared once per model.

All frames are computed at once: world = body frame * body_offset, and
local = ref⁻¹ * world with ref the parent Solid's world frame * parent_rel:
a constant for a Solid whose parent does not move (or that has none),
computed from the parent's new frame otherwise. A Solid merged into its
parent's body keeps its local pose and is not written. `valid_for` tells
when a model's records changed (a rebuild, an edit moving a Solid) and the
writer must be prepared again.
"""

from __future__ import annotations

import numpy as np

from engine.ode.kernels.detlinalg import matmul
from engine.sim.poses import Frame, matrices_to_axis_angles, solid_world_poses
from engine.world.protos import instance_of


def _identity_key(rec) -> tuple:
    """What a Solid record's written pose depends on besides its body's pose."""
    parent = rec.parent
    return (rec, rec.ode_body, rec.body_offset, rec.parent_rel, parent,
            None if parent is None else parent.ode_body,
            None if parent is None else parent.frame)


class PoseWriter:
    """The pose write-back of one model (module docstring)."""

    def __init__(self, model) -> None:
        self.model = model
        self._keys = [_identity_key(rec) for rec in model.solids]
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
        self.kept = np.flatnonzero(keep).tolist()
        self.nodes = [moving[k].node for k in self.kept]
        self.instances = [instance_of(node) for node in self.nodes]

    def valid_for(self, model) -> bool:
        """True while ``model``'s Solid records are those this writer was prepared for."""
        if model is not self.model or len(model.solids) != len(self._keys):
            return False
        return all(map(_same_key, self._keys, model.solids))

    def write(self) -> None:
        """Write the poses of this step (call after the world step)."""
        moving = self.moving
        if not moving:
            return
        store = self.model.ode_world.bodies
        rows = np.fromiter((rec.ode_body.index for rec in moving), np.intp, len(moving))
        world_R, world_t = solid_world_poses(store.R[rows], store.pos[rows], self.offset_R,
                                             self.offset_t)
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
        for k, node, instance in zip(self.kept, self.nodes, self.instances, strict=True):
            translation, rotation = tuple(local_t[k]), tuple(local_rot[k])
            node.set_pose(translation, rotation)
            if instance is not None:  # a PROTO stand-in's expansion: its instance too
                instance.set_pose(translation, rotation)


def _same_key(key: tuple, rec) -> bool:
    """The record has the same identity key (identity of every part)."""
    return all(a is b for a, b in zip(key, _identity_key(rec), strict=True))
