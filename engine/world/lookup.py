"""Tree walks over world nodes: iteration, DEF lookup, structural equality (the deep
copy, `copy_node`, lives with the node classes in `engine.world.node`).

`find_node_by_def` implements Webots' ``findNodeByDef`` (docs/webots-behaviour.md, "DEF lookup"): a
pre-order depth-first search that tests the start node itself, then a joint's
``endPoint``, then ``children`` in order; it never enters boundingObject,
physics, device fields, USE nodes or opaque nodes. `find_by_def_path` applies
it once per dot-separated part, each part starting from the previous hit.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from engine.world.node import BaseNode, Node, OpaqueNode, UseNode
from engine.world.schema import is_joint_type


def iter_tree(roots: Iterable[BaseNode]) -> Iterator[BaseNode]:
    """Every node under ``roots`` in pre-order (USE nodes yielded, not entered)."""
    stack = list(reversed(list(roots)))
    while stack:
        node = stack.pop()
        yield node
        children = [child for _, _, child in node.child_nodes()]
        stack.extend(reversed(children))


def _search_children(node: BaseNode) -> list[BaseNode]:
    if not isinstance(node, Node) or node.is_use:
        return []
    if is_joint_type(node.type_name):
        end = node.get("endPoint")
        return [end] if end is not None else []
    if "children" in node.spec.fields:  # type: ignore[union-attr]
        return list(node.get("children"))
    return []


def find_node_by_def(start: BaseNode, name: str) -> BaseNode | None:
    """Webots' findNodeByDef: pre-order search from ``start`` (inclusive)."""
    stack = [start]
    while stack:
        node = stack.pop()
        if not node.is_use and node.def_name == name:
            return node
        stack.extend(reversed(_search_children(node)))
    return None


def find_by_def_path(roots: Iterable[BaseNode], path: str) -> BaseNode | None:
    """Resolve a dotted DEF path (``"ROBOT.ARM.HAND"``) from the world's root nodes.

    Each dot may skip any number of intermediate nodes; None when not found.
    """
    if not path:
        return None
    parts = path.split(".")
    node: BaseNode | None = None
    for root in roots:
        node = find_node_by_def(root, parts[0])
        if node is not None:
            break
    for part in parts[1:]:
        if node is None:
            return None
        node = find_node_by_def(node, part)
    return node


def tree_equal(a: BaseNode | None, b: BaseNode | None) -> bool:
    """Structural equality: same types, DEF names, field values and sub-trees.

    A USE node compares as the DEF node it refers to, so a tree where DEF and
    USE positions were swapped by the writer is equal to the original.
    """
    if a is None or b is None:
        return a is b
    if isinstance(a, UseNode):
        a = a.target
    if isinstance(b, UseNode):
        b = b.target
    if a is b:
        return True
    if type(a) is not type(b) or a.type_name != b.type_name or a.def_name != b.def_name:
        return False
    if isinstance(a, OpaqueNode):
        return a.text == b.text  # type: ignore[attr-defined]
    assert isinstance(a, Node) and isinstance(b, Node)
    if a.hidden != b.hidden or a.unknown_fields != b.unknown_fields:
        return False
    for name, spec in a.spec.fields.items():  # type: ignore[union-attr]
        va, vb = a.get(name), b.get(name)
        if spec.type == "SFNode":
            if not tree_equal(va, vb):
                return False
        elif spec.type == "MFNode":
            if len(va) != len(vb) or not all(tree_equal(x, y) for x, y in zip(va, vb, strict=True)):
                return False
        elif va != vb:
            return False
    return True
