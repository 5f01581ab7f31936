"""Field edits on a running `Simulation` (docs/simulation.md, "Editing while running").

``apply_edit(sim, node, field, value)`` sets the field and makes it take
effect at once when it can:

==========================================  ====================================
Solid ``translation`` / ``rotation``        the body (or the static geoms) moves;
                                            its velocities are zeroed (Webots)
Physics ``mass``/``density``/               the body's dMass is recomputed
``centerOfMass``/``inertiaMatrix``
Physics/Damping ``damping`` values          the body's damping
a geometry kind's ``live_fields`` (Box      the geom's parameters, and the body
``size``, Sphere ``radius``, Capsule/       mass when it comes from a density
Cylinder ``height``/``radius``) in a        (the kind's ``apply_live``; see
boundingObject                              engine/sim/geometry_kinds/)
WorldInfo ``gravity``/``ERP``/``CFM``/      the ODE world's parameters
``basicTimeStep``/``stepper``/
``physicsDisable*``
JointParameters ``minStop``/``maxStop``/    the joint's stops, springs, motor
``springConstant``/``dampingConstant``/
``staticFriction``
ContactProperties fields                    the contact table
WorldInfo ``physics``                       kind "plugin": load the new plugin
appearance, names, viewpoint, lights...     nothing to do (kind "none")
==========================================  ====================================

Everything else (node fields: nodes added or removed, joint axes and
anchors, meshes, a Solid merged into its parent's body moved...) returns
kind "rebuild": `Simulation.rebuild` builds the ODE objects again from the
current fields, keeping the time (plugin cleanup and init run around it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from engine import ode
from engine.sim.geometry import place_geom
from engine.sim.geometry_kinds import kind_of
from engine.sim.joint_params import axis_param as _param
from engine.sim.joint_params import param_setter as _setter
from engine.sim.joints import AxisParams, JointRecord, configure_axis
from engine.sim.mass import solid_mass, transformed
from engine.sim.poses import Frame
from engine.sim.worldinfo import apply_damping, read_world_info

#: Node types that only change how things look.
VISUAL_TYPES = frozenset({
    "Appearance", "PBRAppearance", "Material", "ImageTexture", "TextureTransform",
    "TextureCoordinate", "Normal", "Color", "Viewpoint", "Background", "DirectionalLight",
    "PointLight", "SpotLight", "Fog",
})
#: Fields that never matter to the physics.
INERT_FIELDS = frozenset({"name", "description", "model", "title", "info", "window",
                          "controller", "controllerArgs", "customData", "supervisor",
                          "castShadows", "isPickable", "recognitionColors", "locked"})
_WORLD_FIELDS = frozenset({"gravity", "ERP", "CFM", "basicTimeStep", "stepper",
                           "physicsDisableTime", "physicsDisableLinearThreshold",
                           "physicsDisableAngularThreshold"})
_AXIS_FIELDS = frozenset({"minStop", "maxStop", "springConstant", "dampingConstant",
                          "staticFriction"})

LIVE, NONE, REBUILD, PLUGIN = "live", "none", "rebuild", "plugin"


@dataclass(frozen=True)
class EditResult:
    """What an edit did: ``kind`` is "live" (applied to the ODE objects), "none"
    (nothing physical), "rebuild" (needs `Simulation.rebuild`) or "plugin"
    (WorldInfo.physics changed: load the named plugin); ``message`` says why."""

    node: Any
    field: str
    kind: str
    message: str = ""

    @property
    def needs_rebuild(self) -> bool:
        """True when only a rebuild makes the edit take effect."""
        return self.kind == REBUILD


#: ``apply_edit(..., baseline=SAME)``: the reset baseline takes the new value.
SAME: Any = object()


def apply_edit(sim, node, field: str, value: Any, baseline: Any = SAME) -> EditResult:
    """``node.set(field, value)`` then `apply_field_change`.

    The edit is the user's: ``sim.baseline`` (what Reset returns to and Save
    writes, decision 0016) takes ``value`` too, or ``baseline`` when given
    (an undo restoring the value the baseline had before the edit)."""
    node.set(field, value)
    sim.baseline.set(node, field, value if baseline is SAME else baseline)
    result = apply_field_change(sim, node, field)
    if result.kind != NONE:
        sim.mark_modified()  # a reset must build the edited world again
    return result


def apply_field_change(sim, node, field: str) -> EditResult:
    """Make the (already set) field ``node.field`` take effect in ``sim``."""
    def result(kind: str, message: str = "") -> EditResult:
        return EditResult(node, field, kind, message)

    spec = node.spec.fields.get(field) if node.spec is not None else None
    if spec is None:
        return result(REBUILD, "unknown field")
    if spec.type.endswith("Node"):
        return result(REBUILD, "structural edit (node added, removed or replaced)")
    t = node.type_name
    if field in INERT_FIELDS or t in VISUAL_TYPES or not _in_physics(node):
        return result(NONE, "no physical effect")
    if node.is_a("Solid"):
        if field in ("translation", "rotation"):
            ok = _move_solid(sim, node)
            return result(LIVE) if ok else result(REBUILD, "moved Solid is not a body's root")
        if field == "contactMaterial":
            sim.rebuild_contact_table()  # the pairs' surfaces are decided again
            return result(LIVE)
        return result(REBUILD, "Solid field read at build time")
    if t == "Physics":
        return result(LIVE) if _update_mass(sim, node) else result(
            REBUILD, "the centre of mass moved in the body")
    if t == "Damping":
        return result(LIVE) if _update_damping(sim, node) else result(REBUILD)
    if t == "WorldInfo":
        if field == "physics":
            return result(PLUGIN, "load the world's new plugin")
        if field in _WORLD_FIELDS:
            _update_world(sim)
            return result(LIVE)
        if field == "randomSeed":
            return result(NONE, "takes effect at reset/reload")
        return result(REBUILD)
    if t == "ContactProperties":
        sim.rebuild_contact_table()
        return result(LIVE)
    kind = kind_of(t)
    if kind is not None and field in kind.live_fields:
        return result(LIVE) if _resize(sim, node) else result(REBUILD, "geometry not found")
    if field in _AXIS_FIELDS and _update_joint_axis(sim, node):
        return result(LIVE)
    return result(REBUILD, "read at build time")


# ----------------------------------------------------------------- helpers
def _in_physics(node) -> bool:
    """False for nodes that only draw: inside a Shape's appearance or a Solid's
    visible children but not in a boundingObject / Physics / joint / WorldInfo."""
    n, field = node, None
    while n is not None:
        if field == "boundingObject" or field == "physics":
            return True
        if n.type_name == "Shape" and field is None:
            return False  # a Shape's own fields (castShadows...) only draw
        if n.type_name == "Shape" and field in ("appearance", "geometry"):
            return False
        if n.is_a("Solid") or n.type_name in ("WorldInfo", "ContactProperties") or \
                n.type_name.endswith("Joint") or "Parameters" in n.type_name:
            return True
        field, n = n.parent_field, n.parent
    return True


def _rec_of_solid(sim, node):
    return sim.model.record_of(node)


def _move_solid(sim, node) -> bool:
    """A Solid's new translation/rotation: move its body or its static geoms."""
    rec = _rec_of_solid(sim, node)
    if rec is None:
        return False
    local = Frame.from_fields(node.get("translation"), node.get("rotation"))
    if rec.parent is None:
        ref = rec.parent_rel
    else:
        ref = sim.solid_world_frame(rec.parent).compose(rec.parent_rel)
    new = ref.compose(local)
    if rec.owner is rec:
        body = rec.body
        body_frame = new.compose(rec.body_offset.inverse())
        ode.dBodySetPosition(body, *body_frame.t)
        ode.dBodySetRotation(body, body_frame.R)
        ode.dBodySetLinearVel(body, 0.0, 0.0, 0.0)
        ode.dBodySetAngularVel(body, 0.0, 0.0, 0.0)
        ode.dBodyEnable(body)
        return True
    if rec.owner is not None:
        return False
    moved = [r for r in sim.model.solids if _descends(r, rec)]
    if any(r.owner is not None for r in moved):
        return False  # bodies fixed under the static Solid: rebuild
    old_inv = rec.frame.inverse()
    sim.model.frames_version += 1
    for r in [rec, *moved]:
        r.frame = new.compose(old_inv.compose(r.frame)) if r is not rec else new
        for leaf in r.geoms.leaves:
            place_geom(leaf, r.frame.compose(leaf.frame))
    for g in _touching_bodies(sim):
        ode.dBodyEnable(g)
    return True


def _touching_bodies(sim) -> list:
    """Every body: wake them after the static scenery moved."""
    return [r.body for r in sim.model.bodies]


def _descends(rec, ancestor) -> bool:
    p = rec.parent
    while p is not None:
        if p is ancestor:
            return True
        p = p.parent
    return False


def _owner_of_physics(sim, physics):
    """The body-owning record whose assembly holds the Solid with ``physics``."""
    solid = physics.parent
    while solid is not None and not solid.is_a("Solid"):
        solid = solid.parent
    rec = sim.model.record_of(solid) if solid is not None else None
    return rec.owner if rec is not None else None


def _assembly_mass(sim, owner) -> ode.dMass:
    total = None
    for member in owner.members:
        m = solid_mass(member.node.get("physics"), member.geoms.leaves, member.label,
                       sim.console.warn)
        if member is not owner:
            rel = owner.frame.inverse().compose(member.frame)
            m = transformed(m, rel.R, rel.t)
        if total is None:
            total = m
        else:
            ode.dMassAdd(total, m)
    return total


def _set_body_mass(sim, owner) -> bool:
    """Recompute the body mass of ``owner``'s assembly; False if its centre moved."""
    total = _assembly_mass(sim, owner)
    c = np.asarray(total.c, dtype=np.float64)[:3]
    expected = owner.frame.inverse().compose(owner.body_frame).t
    if np.abs(c - expected).max() > 1e-9:
        return False
    ode.dMassTranslate(total, *(-c))
    total.c = np.zeros(3)
    ode.dBodySetMass(owner.body, total)
    ode.dBodyEnable(owner.body)
    return True


def _update_mass(sim, physics) -> bool:
    owner = _owner_of_physics(sim, physics)
    if owner is None or owner.body is None:
        return False
    return _set_body_mass(sim, owner)


def _update_damping(sim, damping) -> bool:
    parent = damping.parent
    if parent is not None and parent.type_name == "WorldInfo":
        _update_world(sim)
        return True
    if parent is None or parent.type_name != "Physics":
        return False
    owner = _owner_of_physics(sim, parent)
    if owner is None or owner.body is None:
        return False
    apply_damping(owner.body, damping, sim.model.settings)
    return True


def _update_world(sim) -> None:
    """WorldInfo values -> ODE world (the random generator is not reseeded)."""
    old = sim.model.settings
    new = read_world_info(sim.world.world_info, sim.console.warn)
    new.random_seed = old.random_seed
    w = sim.model.ode_world
    ode.dWorldSetGravity(w, *new.gravity)
    ode.dWorldSetERP(w, new.erp)
    ode.dWorldSetCFM(w, new.cfm)
    ode.dWorldSetAutoDisableFlag(w, 1 if new.disable_time > 0.0 else 0)
    if new.disable_time > 0.0:
        ode.dWorldSetAutoDisableTime(w, new.disable_time)
        ode.dWorldSetAutoDisableLinearThreshold(w, new.disable_linear)
        ode.dWorldSetAutoDisableAngularThreshold(w, new.disable_angular)
    sim.model.settings = new
    sim.set_stepper(new.stepper)
    if new.basic_time_step != old.basic_time_step:
        for rec in sim.model.joints:  # spring ERP/CFM depend on the step
            for axis in range(len(rec.params)):
                if type(rec) is JointRecord:
                    _reconfigure_axis(sim, rec, axis)
        for rec in sim.model.bodies:
            apply_damping(rec.body, rec.node.get("physics").get("damping"), new)


def _resize(sim, geometry) -> bool:
    """A live field of a boundingObject primitive changed (its kind has live fields):
    the kind updates the geom, then the mass follows."""
    for rec in sim.model.solids:
        for leaf in rec.geoms.leaves:
            if leaf.node is not geometry:
                continue
            kind_of(geometry.type_name).apply_live(leaf.geom, geometry)
            owner = rec.owner
            if owner is not None and owner.body is not None:
                phys = rec.node.get("physics")
                if phys is not None and not float(phys.get("mass")) > 0.0:
                    if not _set_body_mass(sim, owner):
                        return False
                ode.dBodyEnable(owner.body)
            else:
                for r in sim.model.bodies:
                    ode.dBodyEnable(r.body)
            return True
    return False


def _joint_axis_of(sim, params_node) -> tuple[JointRecord, int] | None:
    joint = params_node.parent
    if joint is None:
        return None
    for rec in sim.model.joints:
        if rec.node is joint and type(rec) is JointRecord:
            axis = 1 if params_node.parent_field == "jointParameters2" else 0
            if axis < len(rec.params):
                return rec, axis
    return None


def _update_joint_axis(sim, params_node) -> bool:
    found = _joint_axis_of(sim, params_node)
    if found is None:
        return False
    rec, axis = found
    position0 = rec.params[axis].position  # ODE's zero stays the initial position
    p = AxisParams.of(params_node)
    p.position = position0
    rec.params[axis] = p
    _reconfigure_axis(sim, rec, axis)
    for body_rec in sim.model.bodies:
        ode.dBodyEnable(body_rec.body)
    return True


def _reconfigure_axis(sim, rec: JointRecord, axis: int) -> None:
    """Clear the axis' stops, springs and friction motor, then configure it again."""
    set_param = _setter(rec.kind)
    settings = sim.model.settings
    for name, value in (("LoStop", -ode.dInfinity), ("HiStop", ode.dInfinity),
                        ("StopERP", settings.erp),
                        ("StopCFM", settings.cfm), ("FMax", 0.0), ("Vel", 0.0)):
        set_param(rec.joint, _param(rec.kind, axis, name), value)
    if axis in rec.explicit_springs:
        rec.explicit_springs.remove(axis)
    label = rec.node.label() if rec.node.def_name else rec.node.path()
    configure_axis(rec, axis, settings.dt, label, sim.console.warn)
