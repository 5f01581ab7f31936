"""Webots `.wbt` worlds: lexer, parser, node schema with defaults, model, writer.

Public names::

    from engine.world import read_world, parse_world, write_world, format_world
    from engine.world import World, Node, UseNode, OpaqueNode, Field
    from engine.world import WorldSyntaxError, FieldValueError, StructureError
    from engine.world import WorldError, WorldReadOnlyError

This package never imports Qt, OpenGL, numba or `engine.ode`.
"""

from engine.world.errors import (
    FieldValueError,
    StructureError,
    WorldError,
    WorldReadOnlyError,
    WorldSyntaxError,
)
from engine.world.lookup import tree_equal
from engine.world.model import (
    DEF_FIELD,
    BaseNode,
    ExternProto,
    Field,
    Node,
    OpaqueNode,
    UseNode,
    World,
)
from engine.world.parser import parse_world, read_world
from engine.world.schema import (
    NODE_SPECS,
    FieldSpec,
    NodeSpec,
    allowed_node_types,
    default_value,
    get_spec,
    is_joint_type,
    is_solid_type,
    use_forbidden,
)
from engine.world.schema_nodes import ROOT as ROOT_NODE_TYPES
from engine.world.writer import format_world, write_world

__all__ = [
    "DEF_FIELD",
    "NODE_SPECS",
    "ROOT_NODE_TYPES",
    "BaseNode",
    "ExternProto",
    "Field",
    "FieldSpec",
    "FieldValueError",
    "Node",
    "NodeSpec",
    "OpaqueNode",
    "StructureError",
    "UseNode",
    "World",
    "WorldError",
    "WorldReadOnlyError",
    "WorldSyntaxError",
    "allowed_node_types",
    "default_value",
    "format_world",
    "get_spec",
    "is_joint_type",
    "is_solid_type",
    "parse_world",
    "read_world",
    "tree_equal",
    "use_forbidden",
    "write_world",
]
