"""NativeCollider: the standard contact near callback without Python per pair.

The shared ODE reference harness times real ODE with a near callback written
in C; ``NativeCollider(world, group, max_contacts, surface).collide(space)``
is its counterpart here, with the same effect as this Python near callback
given to dSpaceCollide::

    def near(data, o1, o2):
        b1, b2 = dGeomGetBody(o1), dGeomGetBody(o2)
        if b1 and b2 and dAreConnectedExcluding(b1, b2, dJointTypeContact):
            return
        for cg in dCollide(o1, o2, max_contacts):
            j = dJointCreateContact(world, group, dContact(surface, cg))
            dJointAttach(j, b1, b2)

but done by :mod:`engine.ode.collision.batch` (one compiled broad and narrow
phase, contact joints written in bulk): same joints, same order, same
trajectories bit for bit. A pair involving a nested space is opened as the
usual recursive callback does (its geoms are collided with the other side,
then with each other); ODE's C callback would instead collide the space as
a geom and attach the joints to no body.
"""

from __future__ import annotations

import numpy as np

from engine.ode.collision.batch import create_contact_joints, space_contacts
from engine.ode.collision.spaces.space import space_of
from engine.ode.errors import ODEError
from engine.ode.joints.base import JointGroup
from engine.ode.joints.contact import surface_record
from engine.ode.structs import dSurfaceParameters
from engine.ode.world import World, world_of

_FN = "NativeCollider"


class NativeCollider:
    """Contacts of a whole space as contact joints, in one batched pass.

    ``world``: where the joints go; ``group``: their joint group (or None);
    ``max_contacts``: points per pair (1..65535); ``surface``: a
    dSurfaceParameters, copied now (later changes to it are not seen).
    """

    __slots__ = ("world", "group", "max_contacts", "surface", "mode", "num_pairs",
                 "num_contacts")

    def __init__(self, world: World, group: JointGroup | None, max_contacts: int,
                 surface: dSurfaceParameters) -> None:
        self.world = world_of(world, _FN)
        if group is not None and (not isinstance(group, JointGroup) or not group.alive):
            raise ODEError(_FN, "group", f"expected a live dJointGroupID or None, got {group!r}")
        self.group = group
        try:
            n = int(max_contacts)
        except (TypeError, ValueError):
            raise ODEError(_FN, "max_contacts", f"expected an integer, got {max_contacts!r}") \
                from None
        if not 1 <= n <= 0xFFFF:
            raise ODEError(_FN, "max_contacts", f"must lie in 1..65535, got {max_contacts!r}")
        self.max_contacts = n
        if not isinstance(surface, dSurfaceParameters):
            raise ODEError(_FN, "surface", f"expected a dSurfaceParameters, got {surface!r}")
        mode, vals = surface_record(surface)
        self.mode = mode
        self.surface = np.array(vals, dtype=np.float64)
        self.num_pairs = 0
        self.num_contacts = 0

    def collide(self, space) -> int:
        """Collide every pair of ``space`` and make the contact joints; returns
        the number of contacts (joints) made."""
        s = space_of(space, "NativeCollider.collide")
        if self.group is not None and not self.group.alive:
            raise ODEError("NativeCollider.collide", "group", "the joint group was destroyed")
        sc = space_contacts(s, self.max_contacts, skip_joined=True)
        self.num_pairs = int(sc.pairs.shape[0])
        self.num_contacts = create_contact_joints(self.world, self.group, sc, self.surface,
                                                  self.mode)
        return self.num_contacts


def native() -> str:
    """A truthy handle saying the batched collider is available (always)."""
    return "engine.ode.collision.batch"
