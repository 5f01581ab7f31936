"""Expanding stand-in instances, with a cache so everyone sees the same nodes.

The simulation builder and the viewport both walk a stand-in instance's
expansion; they must walk the *same* node objects (the viewport matches the
simulation's Solid poses by node identity). `expanded` therefore keeps one
expansion per instance and makes a new one only when an interface field
other than ``translation``/``rotation`` changed; the pose fields are copied
onto the kept expansion's root on every call (a moved SolidBox keeps its
identity).

The instance stays what the user wrote (saved unchanged, shown with its
interface fields in the scene tree); the expansion is detached from the
world and never saved.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

from engine.world.lookup import tree_equal
from engine.world.node import BaseNode, Node, copy_node
from engine.world.protos.backgrounds import BACKGROUNDS
from engine.world.protos.floors import FLOORS
from engine.world.protos.solids import SOLIDS
from engine.world.protos.standin import StandIn

#: PROTO name -> stand-in (the built-in PROTOs Odeon simulates)
STAND_INS: dict[str, StandIn] = {**FLOORS, **SOLIDS, **BACKGROUNDS}

_POSE_FIELDS = ("translation", "rotation")


@dataclass
class _Cached:
    """An instance's expansion and a copy of the instance it was made from."""

    snapshot: Node
    root: Node


_CACHE: weakref.WeakKeyDictionary[Node, _Cached] = weakref.WeakKeyDictionary()
_INSTANCE_OF: weakref.WeakKeyDictionary[Node, Node] = weakref.WeakKeyDictionary()


def is_stand_in(node: BaseNode | None) -> bool:
    """True for a (non-USE, non-opaque) node whose type is a built-in stand-in PROTO."""
    return (node is not None and not node.is_use and not node.is_opaque
            and node.type_name in STAND_INS)


def expanded(node: BaseNode) -> BaseNode:
    """The regular node ``node`` stands for: its expansion for a stand-in
    instance (cached, see module docstring), else ``node`` itself."""
    if not is_stand_in(node):
        return node
    assert isinstance(node, Node)
    cached = _CACHE.get(node)
    if cached is None or not _same_interface(cached.snapshot, node):
        root = STAND_INS[node.type_name].expand(node)
        root.source = node.source
        root.def_name = node.def_name  # messages name the instance's DEF
        snapshot = copy_node(node)
        assert isinstance(snapshot, Node)
        cached = _Cached(snapshot, root)
        _CACHE[node] = cached
        _INSTANCE_OF[root] = node
    root = cached.root
    for name in _POSE_FIELDS:
        if name in root.field_names():
            root.set(name, node.get(name))
    return root


def instance_of(root: BaseNode) -> Node | None:
    """The stand-in instance whose expansion ``root`` is, or None."""
    return _INSTANCE_OF.get(root) if isinstance(root, Node) else None


def world_node_of(node: BaseNode) -> BaseNode:
    """The node of the world that shows ``node``: the outermost stand-in
    instance whose expansion holds ``node`` (a RectangleArena for one of its
    walls), else ``node`` itself."""
    found = node
    current: BaseNode | None = node
    while current is not None:
        top = current
        while top.parent is not None:
            top = top.parent
        instance = instance_of(top)
        if instance is None:
            break
        found = current = instance
    return found


def _same_interface(a: Node, b: Node) -> bool:
    """True when the two instances' interface fields (pose aside) are equal."""
    spec_a = a.spec
    assert spec_a is not None  # stand-ins are known types
    for name, spec in spec_a.fields.items():
        if name in _POSE_FIELDS:
            continue
        va, vb = a.get(name), b.get(name)
        if spec.type == "SFNode":
            if not tree_equal(va, vb):
                return False
        elif spec.type == "MFNode":
            if len(va) != len(vb) or not all(
                    tree_equal(x, y) for x, y in zip(va, vb, strict=True)):
                return False
        elif va != vb:
            return False
    return True
