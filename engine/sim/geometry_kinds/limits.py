"""The size range a geometry is built in, and the checks every kind uses.

Outside [MIN_SIZE, MAX_SIZE] ODE's mass and collision maths under- or
overflows (decision 0014); a field out of range is a `BuildError` naming the
node and the field.
"""

from __future__ import annotations

import numpy as np

from engine.sim.errors import BuildError
from engine.world import Node

#: smallest and largest shape dimension [m] built (radius, height, box side,
#: grid spacing); also the largest |coordinate| of mesh points and grid heights.
MIN_SIZE = 1e-6
MAX_SIZE = 1e6


def positive(node: Node, name: str, label: str, value: float | None = None) -> float:
    """Field ``name`` of ``node`` (or ``value`` read from it) as a dimension [m] in
    [MIN_SIZE, MAX_SIZE], or a BuildError naming node and field."""
    v = node.get(name) if value is None else value
    if not v > 0.0:
        raise BuildError(f"{label}: {node.type_name}.{name} must be positive, got {v}", node)
    if not MIN_SIZE <= v <= MAX_SIZE:
        raise BuildError(f"{label}: {node.type_name}.{name} {v:g} is outside the supported "
                         f"range [{MIN_SIZE:g}, {MAX_SIZE:g}] m", node)
    return float(v)


def within_range(values: np.ndarray, node: Node, name: str, label: str) -> None:
    """BuildError unless every |value| of ``values`` [m] is at most MAX_SIZE."""
    if values.size and not float(np.abs(values).max()) <= MAX_SIZE:
        raise BuildError(f"{label}: {node.type_name}.{name} holds a value beyond "
                         f"{MAX_SIZE:g} m in magnitude", node)
