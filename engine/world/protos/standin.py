"""The `StandIn` record and the node-building helpers the stand-ins share."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.world.node import BaseNode, Node, UseNode, copy_node
from engine.world.schema_protos import PROTO_INTERFACES


@dataclass(frozen=True)
class StandIn:
    """A built-in stand-in for one Webots PROTO.

    ``name`` is the PROTO name (the instance's ``getTypeName()``), ``base``
    its base node type, ``rows`` its interface (field rows with Webots'
    defaults, `engine.world.schema_nodes` format) and ``expand(instance)``
    returns the regular, detached Odeon node the instance stands for (a
    Solid sub-tree, a Background, a DirectionalLight).
    """

    name: str
    base: str
    rows: tuple[tuple, ...]
    expand: Callable[[Node], Node]


def stand_in(name: str, expand: Callable[[Node], Node]) -> StandIn:
    """The `StandIn` of PROTO ``name`` with its interface from `schema_protos`."""
    base, rows = PROTO_INTERFACES[name]
    return StandIn(name, base, tuple(rows), expand)


def owned(node: BaseNode | None) -> BaseNode | None:
    """A detached deep copy of an instance's node field value (a USE resolved to
    its DEF node), for use inside an expansion; None stays None."""
    if node is None:
        return None
    return copy_node(node.target if isinstance(node, UseNode) else node)


def appearance(instance_value: BaseNode | None, rgb: tuple[float, float, float]) -> BaseNode:
    """The instance's Appearance/PBRAppearance (copied) or, when it is NULL or
    an unknown PROTO (opaque), a plain PBRAppearance of colour ``rgb`` (0..1)."""
    value = owned(instance_value)
    if value is None or value.is_opaque:
        return Node("PBRAppearance", baseColor=rgb, roughness=0.5, metalness=0.0)
    return value


def solid(instance: Node, model: str, **fields: Any) -> Node:
    """A Solid carrying the instance's pose and ``name``, ``model`` set, plus ``fields``."""
    return Node("Solid", translation=instance.get("translation"),
                rotation=instance.get("rotation"), name=instance.get("name"), model=model,
                **fields)


def box_shape(size: tuple[float, float, float], look: BaseNode) -> Node:
    """A Shape drawing a Box of ``size`` [m] (x, y, z) with appearance ``look``."""
    return Node("Shape", appearance=look, geometry=Node("Box", size=size))
