"""Build ODE objects from a parsed world, as Webots does (docs/webots-behaviour.md,
"Nodes and ODE objects"; our rules: docs/simulation.md, "Mapping rules").

`build(world, console)` returns a `Model`: the ODE world, the top simple
space, one body per physics assembly (implicit solid merging), geoms per
boundingObject, joints, and the maps the step loop and the plugin API need
(geom -> Solid, Solid -> body, DEF lookups).

Body frames: an ODE body sits at its assembly's centre of mass with the
orientation of the top (merging) Solid; every Solid of the assembly keeps a
constant ``body_offset`` (its frame in the body frame), so its pose is
``body frame * body_offset``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from engine import ode
from engine.sim.errors import BuildError, located
from engine.sim.geometry import (
    GeomSet,
    collect_primitives,
    create_geoms,
    place_geom,
)
from engine.sim.geometry_kinds import kind_of
from engine.sim.joints import JointRecord, create_joint
from engine.sim.mass import solid_mass, transformed
from engine.sim.poses import Frame
from engine.sim.proto_expansion import alias_instances, expanded
from engine.sim.worldinfo import WorldSettings, apply_damping, read_world_info
from engine.world import Node, World
from engine.world.schema import is_joint_type


@dataclass(eq=False)
class SolidRecord:
    """One Solid node and its ODE side.

    ``frame`` (initial world frame), ``parent`` (closest Solid ancestor),
    ``parent_rel`` (that ancestor's frame -> this Solid's parent frame,
    constant), ``via_joint`` (endPoint of a joint), ``owner`` (the record
    whose body carries this Solid; None = static), ``body_offset`` (this
    Solid's frame in the body frame), ``geoms``.
    """

    node: Node
    frame: Frame
    parent: SolidRecord | None
    parent_rel: Frame
    via_joint: bool
    owner: SolidRecord | None = None
    body: object = None
    body_frame: Frame | None = None
    body_offset: Frame | None = None
    geoms: GeomSet = field(default_factory=GeomSet)
    robot: SolidRecord | None = None
    members: list[SolidRecord] = field(default_factory=list)

    @property
    def label(self) -> str:
        """``Solid 'name'`` or ``Solid (DEF X)`` for messages."""
        n = self.node
        return n.label() if n.def_name else f"{n.type_name} '{n.get('name')}'"

    @property
    def has_physics(self) -> bool:
        return self.node.get("physics") is not None

    @property
    def ode_body(self):
        """The body that moves this Solid (the merged body), or None."""
        return self.owner.body if self.owner is not None else None


@dataclass
class Model:
    """Everything built from a world (see module docstring)."""

    world: World
    settings: WorldSettings
    ode_world: object
    space: object
    solids: list[SolidRecord]
    joints: list[JointRecord]
    geom_solid: dict
    by_node: dict
    fixed_joints: list = field(default_factory=list)
    #: counts the edits that moved static Solids' frames (``SolidRecord.frame``);
    #: what was computed from those frames is stale when it changed
    frames_version: int = 0

    @property
    def bodies(self) -> list[SolidRecord]:
        """Records owning a body, in creation order."""
        return [r for r in self.solids if r.owner is r]

    def body_rows(self) -> np.ndarray:
        """Body-store rows (n,) intp of `bodies`, in the same order (kept
        between calls while the Solid records stay the same)."""
        cached = self.__dict__.get("_body_rows")
        if cached is None or cached[0] != len(self.solids):
            rows = np.array([rec.body.index for rec in self.bodies], dtype=np.intp)
            cached = self.__dict__["_body_rows"] = (len(self.solids), rows)
        return cached[1]

    def record_of(self, node: Node) -> SolidRecord | None:
        """The record of a Solid node."""
        return self.by_node.get(id(node))

    def body_from_def(self, path: str):
        """dWebotsGetBodyFromDEF: the (merged) body of the Solid at DEF ``path`` or None."""
        rec = self._rec(path)
        return None if rec is None or not rec.has_physics else rec.ode_body

    def geom_from_def(self, path: str):
        """dWebotsGetGeomFromDEF: the top geom (or Group space) of the Solid or None."""
        rec = self._rec(path)
        return None if rec is None else rec.geoms.top

    def _rec(self, path: str) -> SolidRecord | None:
        if not path:
            return None
        node = self.world.find_solid_by_def(path)
        return None if node is None else self.record_of(node)

    def destroy(self) -> None:
        """Free the ODE objects (world and spaces) that are still alive (a
        physics plugin may have destroyed them)."""
        if self.space.alive:
            ode.dSpaceDestroy(self.space)
        if self.ode_world.alive:
            ode.dWorldDestroy(self.ode_world)


def build(world: World, warn) -> Model:
    """Create the ODE world, bodies, geoms and joints of ``world``.

    ``warn(text)`` receives warnings; errors raise `BuildError` naming the
    world file, the node (with its line and column) and the field.
    """
    filename = world.filename
    with located(world.world_info, filename, "WorldInfo"):
        settings = read_world_info(world.world_info, warn)
    w = ode.dWorldCreate()
    space = ode.dSimpleSpaceCreate(None)
    try:
        with located(world.world_info, filename, "WorldInfo"):
            settings.apply(w)
        return _populate(world, settings, w, space, warn)
    except BaseException:
        ode.dSpaceDestroy(space)
        ode.dWorldDestroy(w)
        raise


def _populate(world: World, settings, w, space, warn) -> Model:
    """Bodies, geoms and joints of ``world`` in ODE world ``w`` and ``space``."""
    filename = world.filename
    ode.dSpaceSetCleanup(space, 1)
    solids: list[SolidRecord] = []
    joint_sites: list[tuple] = []
    for root in world.nodes:
        _walk(root, Frame.identity(), None, Frame.identity(), False, solids, joint_sites,
              filename)
    model = Model(world, settings, w, space, solids, [], {}, {id(r.node): r for r in solids})
    alias_instances(model.by_node, solids)  # PROTO stand-in instances find their Solid
    base_dir = os.path.dirname(os.path.abspath(world.filename)) if world.filename else os.getcwd()
    _assign_owners(solids, warn)
    for rec in solids:
        bo = rec.node.get("boundingObject")
        with located(rec.node, filename, rec.label, "boundingObject"):
            prim = collect_primitives(bo, rec.label, warn) if bo is not None else None
            if prim is not None:
                rec.geoms = create_geoms(prim, space, rec.label, base_dir, warn)
                _map_geoms(model, rec)
    for rec in solids:
        if rec.owner is rec:
            with located(rec.node, filename, rec.label):
                _create_body(model, rec, warn)
    for rec in solids:
        with located(rec.node, filename, rec.label):
            _place_geoms(rec)
    for node, frame, parent in joint_sites:
        with located(node, filename):
            _make_joint(model, node, frame, parent, warn)
    return model


def _place_geoms(rec: SolidRecord) -> None:
    """Fix the Solid's offset in its body and put its geoms in place."""
    if rec.owner is not None:
        rec.body_offset = rec.owner.body_frame.inverse().compose(rec.frame)
    for leaf in rec.geoms.leaves:
        place_geom(leaf, rec.frame.compose(leaf.frame), rec.ode_body,
                   rec.owner.body_frame if rec.owner else None)
        reason = kind_of(leaf.node.type_name).static_reason
        if reason is not None and rec.owner is not None:
            raise BuildError(f"{rec.label}: a {leaf.node.type_name} boundingObject needs a "
                             f"Solid without Physics ({reason})", leaf.node)


class _Visit(NamedTuple):
    """A node still to walk: ``frame`` is the world frame its fields are in,
    ``parent_rel`` the same frame relative to the closest Solid ancestor."""

    node: object
    frame: Frame
    parent: SolidRecord | None
    parent_rel: Frame
    via_joint: bool


def _walk(node, frame: Frame, parent: SolidRecord | None, parent_rel: Frame, via_joint: bool,
          solids: list, joint_sites: list, filename: str | None = None) -> None:
    """Pre-order walk collecting Solid records and joint sites, with an
    explicit stack (a hinge chain nests two nodes per link, any length);
    failures are located at the node visited in world file ``filename``."""
    stack = [_Visit(node, frame, parent, parent_rel, via_joint)]
    while stack:
        visit = stack.pop()
        with located(visit.node, filename):
            children = _visit(visit, solids, joint_sites)
        # children pushed in reverse: popped (visited) in field order
        stack.extend(reversed(children))


def _visit(v: _Visit, solids: list, joint_sites: list) -> list[_Visit]:
    """Record ``v.node`` (a Solid or a joint site); the nodes to walk under it."""
    node = v.node
    if node is None or node.is_opaque or node.is_use:
        return []
    node = expanded(node)  # a PROTO stand-in builds as the nodes it stands for
    if node.is_a("Solid"):
        local = Frame.from_fields(node.get("translation"), node.get("rotation"))
        rec = SolidRecord(node, v.frame.compose(local), v.parent, v.parent_rel, v.via_joint)
        parent = v.parent
        rec.robot = parent.robot if parent and parent.robot else (
            rec if node.type_name == "Robot" else None)
        solids.append(rec)
        return [_Visit(child, rec.frame, rec, Frame.identity(), False)
                for child in node.get("children")]
    if is_joint_type(node.type_name):
        joint_sites.append((node, v.frame, v.parent))
        end = node.get("endPoint")
        if end is not None and not end.is_opaque and end.type_name != "SolidReference":
            return [_Visit(end, v.frame, v.parent, v.parent_rel, True)]
        return []
    if node.type_name in ("Pose", "Transform"):
        local = Frame.from_fields(node.get("translation"), node.get("rotation"))
        return [_Visit(child, v.frame.compose(local), v.parent, v.parent_rel.compose(local),
                       v.via_joint) for child in node.get("children")]
    if node.type_name == "Group":
        return [_Visit(child, v.frame, v.parent, v.parent_rel, v.via_joint)
                for child in node.get("children")]
    return []


#: Solid types never merged into their parent's body when they have Physics: Webots
#: gives a TouchSensor its own body on a fixed joint whose feedback is the force read
#: (engine/sim/sensors/touch.py)
OWN_BODY_TYPES = ("TouchSensor",)


def _assign_owners(solids: list[SolidRecord], warn) -> None:
    """Decide which body carries each Solid (docs/webots-behaviour.md, "Implicit merging")."""
    for rec in solids:
        p = rec.parent
        inherited = p.owner if p is not None else None
        if rec.has_physics:
            own = rec.node.type_name in OWN_BODY_TYPES
            if inherited is not None and not rec.via_joint and not own:
                if not p.has_physics:
                    warn(f"{rec.label}: a Solid between two Solids with Physics must have "
                         f"Physics ({p.label}); merged into its ancestor's body")
                rec.owner = inherited
                inherited.members.append(rec)
            else:
                rec.owner = rec
                rec.members.append(rec)
        elif inherited is not None:
            if rec.via_joint:
                warn(f"{rec.label}: joint endPoint without Physics; the joint is ignored and "
                     "the Solid moves with its parent")
            rec.owner = inherited


def _create_body(model: Model, rec: SolidRecord, warn) -> None:
    total = None
    for member in rec.members:
        m = solid_mass(member.node.get("physics"), member.geoms.leaves, member.label, warn)
        if member is not rec:
            rel = rec.frame.inverse().compose(member.frame)
            m = transformed(m, rel.R, rel.t)
        if total is None:
            total = m
        else:
            ode.dMassAdd(total, m)
    c = np.asarray(total.c, dtype=np.float64)[:3].copy()
    ode.dMassTranslate(total, *(-c))
    total.c = np.zeros(3)
    body = ode.dBodyCreate(model.ode_world)
    ode.dBodySetMass(body, total)
    rec.body = body
    rec.body_frame = rec.frame.compose(Frame(np.eye(3), c))
    ode.dBodySetPosition(body, *rec.body_frame.t)
    ode.dBodySetRotation(body, rec.body_frame.R)
    v = np.array(rec.node.get("linearVelocity"), dtype=np.float64)
    wv = np.array(rec.node.get("angularVelocity"), dtype=np.float64)
    if v.any():
        ode.dBodySetLinearVel(body, *v)
    if wv.any():
        ode.dBodySetAngularVel(body, *wv)
    apply_damping(body, rec.node.get("physics").get("damping"), model.settings)
    if rec.parent is not None and not rec.via_joint and rec.parent.owner is None:
        # a physics Solid under Solids without Physics is fixed to the static world
        j = ode.dJointCreateFixed(model.ode_world, None)
        ode.dJointAttach(j, body, None)
        ode.dJointSetFixed(j)
        model.fixed_joints.append(j)
    elif rec.parent is not None and not rec.via_joint:
        # an unmerged Solid (OWN_BODY_TYPES) is fixed to its parent's body, attached as
        # (parent, own) like Webots' TouchSensor
        j = ode.dJointCreateFixed(model.ode_world, None)
        ode.dJointAttach(j, rec.parent.ode_body, body)
        ode.dJointSetFixed(j)
        model.fixed_joints.append(j)


def _map_geoms(model: Model, rec: SolidRecord) -> None:
    for leaf in rec.geoms.leaves:
        model.geom_solid[leaf.geom] = rec
    top = rec.geoms.top
    if top is not None and ode.dGeomIsSpace(top):
        model.geom_solid[top] = rec


def _make_joint(model: Model, node: Node, frame: Frame, parent: SolidRecord | None,
                warn) -> None:
    end = node.get("endPoint")
    label = node.label() if node.def_name else node.path()
    if end is None or end.is_opaque or end.type_name == "SolidReference":
        if end is not None and end.type_name == "SolidReference":
            warn(f"{label}: SolidReference endPoints are not simulated; joint ignored")
        return
    child = model.record_of(end)
    if child is None or child.owner is not child:
        return
    parent_body = parent.ode_body if parent is not None else None
    if node.type_name == "Hinge2Joint" and parent_body is None:
        warn(f"{label}: Hinge2Joint needs a parent Solid with Physics; attached to the "
             "static world")
    rec = create_joint(model.ode_world, node, frame, parent_body, child.body,
                       model.settings.dt, label, warn)
    model.joints.append(rec)
