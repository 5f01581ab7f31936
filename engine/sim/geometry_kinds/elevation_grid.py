"""ElevationGrid: an ODE heightfield.

The grid has ``xDimension`` x ``yDimension`` heights (x fastest) along local
z, spaced ``xSpacing``/``ySpacing`` [m] in x/y from the origin. ODE's
heightfield is centred with heights along its local y, so the geom sits at
the grid's centre rotated by +90 deg about x (`GeomBuild.offset`).
"""

from __future__ import annotations

import numpy as np

from engine import ode
from engine.sim.errors import BuildError
from engine.sim.geometry_kinds.kind import GeomBuild, GeometryKind, no_volume
from engine.sim.geometry_kinds.limits import positive, within_range
from engine.sim.poses import Frame
from engine.world import Node

#: ODE heightfield local axes (x, y=height, z) written in ElevationGrid axes.
HEIGHTFIELD_R = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]])


def build(node: Node, space: object, label: str, base_dir: str) -> GeomBuild:
    """The heightfield geom and its offset (centre, axes) in the grid's frame."""
    nx, ny = node.get("xDimension"), node.get("yDimension")
    heights = node.get("height")
    if nx < 2 or ny < 2:
        raise BuildError(f"{label}: ElevationGrid.xDimension and yDimension must be >= 2")
    if len(heights) < nx * ny:
        raise BuildError(f"{label}: ElevationGrid.height has {len(heights)} values, "
                         f"expected xDimension*yDimension = {nx * ny}")
    dx = positive(node, "xSpacing", label)
    dy = positive(node, "ySpacing", label)
    width, depth = (nx - 1) * dx, (ny - 1) * dy
    grid = np.array(heights[: nx * ny], dtype=np.float64).reshape(ny, nx)
    within_range(grid, node, "height", label)
    within_range(np.array([width, depth]), node, "xSpacing/ySpacing (grid size)", label)
    # ODE sample (x, k) lies at ElevationGrid row j = ny - 1 - k (its z axis is -y here)
    data = grid[::-1].reshape(-1).copy()
    hf_data = ode.dGeomHeightfieldDataCreate()
    thickness = max(float(node.get("thickness")), 0.0)
    ode.dGeomHeightfieldDataBuildDouble(hf_data, data, 1, width, depth, nx, ny, 1.0, 0.0,
                                        thickness, 0)
    ode.dGeomHeightfieldDataSetBounds(hf_data, float(grid.min()), float(grid.max()))
    offset = Frame(HEIGHTFIELD_R, np.array([width / 2, depth / 2, 0.0]))
    return GeomBuild(ode.dCreateHeightfield(space, hf_data, 1), offset=offset)


KIND = GeometryKind("ElevationGrid", build, no_volume)
