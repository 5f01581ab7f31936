"""Node schema: every known node type, its fields in Webots' order, defaults.

`NODE_SPECS` maps a type name to a `NodeSpec`. A `FieldSpec` gives the
field's type, its Webots default, for SFNode/MFNode fields the node types
allowed there (the app's node picker uses `allowed_node_types`), and for
enumerated strings the allowed choices. Field lists and defaults follow
Webots' `resources/nodes/*.wrl` (R2023b-era); ``WorldInfo.stepper`` is an
Odeon extension ("step" = dWorldStep, as Webots; "quickstep" =
dWorldQuickStep).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.world.schema_nodes import NODE_TABLE


@dataclass(frozen=True)
class FieldSpec:
    """One field of a node type."""

    name: str
    type: str
    default: Any
    node_types: frozenset[str] | None = None
    choices: tuple[str, ...] | None = None


@dataclass(frozen=True)
class NodeSpec:
    """A node type: ordered fields and the base types it derives from."""

    name: str
    fields: dict[str, FieldSpec] = field(default_factory=dict)
    bases: tuple[str, ...] = ()

    def is_a(self, type_name: str) -> bool:
        """True if this type is ``type_name`` or derives from it (e.g. Robot is a Solid)."""
        return type_name == self.name or type_name in self.bases


def _build() -> dict[str, NodeSpec]:
    specs: dict[str, NodeSpec] = {}
    for name, bases, rows in NODE_TABLE:
        fields: dict[str, FieldSpec] = {}
        for base in reversed(bases[:1]):
            fields.update(specs[base].fields)
        for row in rows:
            fname, ftype, default = row[0], row[1], row[2]
            extra = row[3] if len(row) > 3 else None
            node_types = frozenset(extra) if ftype.endswith("Node") and extra else None
            choices = tuple(extra) if ftype.endswith("String") and extra else None
            if isinstance(default, list):
                default = tuple(tuple(v) if isinstance(v, list) else v for v in default)
            fields[fname] = FieldSpec(fname, ftype, default, node_types, choices)
        specs[name] = NodeSpec(name, fields, bases)
    return specs


NODE_SPECS: dict[str, NodeSpec] = _build()

# USE of these node types (and derived types) is forbidden (docs/webots-behaviour.md, "World files")
NO_USE_TYPES = ("Solid", "HingeJoint", "Hinge2Joint", "SliderJoint", "BallJoint",
                "JointParameters", "HingeJointParameters", "BallJointParameters")
JOINT_TYPES = ("HingeJoint", "Hinge2Joint", "SliderJoint", "BallJoint")


def get_spec(type_name: str) -> NodeSpec | None:
    """The spec of ``type_name``, or None for unknown types (opaque nodes)."""
    return NODE_SPECS.get(type_name)


def is_a(type_name: str, base: str) -> bool:
    """True if the known node type ``type_name`` is ``base`` or derives from it."""
    spec = NODE_SPECS.get(type_name)
    return spec is not None and spec.is_a(base)


def is_solid_type(type_name: str) -> bool:
    """True for Solid and every Solid-derived type (Robot, devices)."""
    return is_a(type_name, "Solid")


def is_joint_type(type_name: str) -> bool:
    """True for HingeJoint, Hinge2Joint, SliderJoint and BallJoint."""
    return type_name in JOINT_TYPES


def use_forbidden(type_name: str) -> bool:
    """True if a node of this type may not be referenced with USE."""
    return any(is_a(type_name, t) for t in NO_USE_TYPES)


def allowed_node_types(type_name: str, field_name: str) -> tuple[str, ...]:
    """Node types legal in the SFNode/MFNode field ``field_name`` of ``type_name``.

    Sorted by name; empty for fields that are not node fields.
    """
    spec = NODE_SPECS[type_name]
    fspec = spec.fields[field_name]
    return tuple(sorted(fspec.node_types or ()))


def default_value(type_name: str, field_name: str) -> Any:
    """Webots' default value of a field (MF defaults are tuples)."""
    return NODE_SPECS[type_name].fields[field_name].default
