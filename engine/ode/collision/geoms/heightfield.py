"""Heightfield data (dHeightfieldDataID) and the heightfield geom (dHeightfieldClass).

A heightfield is a regular grid of ``width_samples x depth_samples`` height
samples spanning ``width`` (m) along the geom's local x axis and ``depth``
(m) along its local z axis; **local y is "up"** (ODE's convention). The
local origin is the centre of the grid: sample ``(ix, iz)`` sits at local
``x = ix * width / (width_samples - 1) - width / 2`` and
``z = iz * depth / (depth_samples - 1) - depth / 2`` with height
``raw * scale + offset``. Each grid cell is split into two triangles along
the diagonal from sample ``(ix + 1, iz)`` to ``(ix, iz + 1)``.

Raw samples come from a callback ``callback(user_data, ix, iz) -> height``
or from an array of bytes (uint8), shorts (int16), singles (float32) or
doubles (float64) holding ``depth_samples`` rows of ``width_samples``
values (flat or 2-D). With ``copy`` = 0 the data keeps a reference to the
caller's object and reads it at every collision, as ODE keeps the pointer
(numpy arrays of the builder's dtype are read in place, so later changes
are seen). ``wrap`` != 0 tiles the field infinitely (sample indices taken
modulo ``samples - 1``); otherwise indices are clamped to the grid.

A non-placeable heightfield sits at the world origin with the identity
rotation (world y up); a placeable one is positioned like any geom.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from engine.ode import checks
from engine.ode.collision.geoms.geom import Geom, geom_of
from engine.ode.constants import dHeightfieldClass, dInfinity
from engine.ode.errors import ODEError

_INF = dInfinity

#: Storage modes, as ODE numbers them.
MODE_CALLBACK, MODE_BYTE, MODE_SHORT, MODE_SINGLE, MODE_DOUBLE = range(5)
_DTYPES = {MODE_BYTE: np.uint8, MODE_SHORT: np.int16, MODE_SINGLE: np.float32,
           MODE_DOUBLE: np.float64}
_RANGES = {MODE_BYTE: (0, 255), MODE_SHORT: (-32768, 32767)}


class HeightfieldData:
    """ODE's dHeightfieldDataID: grid size, sample spacing, scale/offset,
    thickness, wrap mode, the samples (or callback) and the height bounds.

    Lengths in metres; ``min_height``/``max_height`` are the scaled and
    offset bounds (``min_height`` includes the thickness), ±inf for a
    callback field until :func:`dGeomHeightfieldDataSetBounds`.
    """

    __slots__ = ("width", "depth", "width_samples", "depth_samples", "scale", "offset",
                 "thickness", "wrap", "mode", "copy", "source", "callback", "user_data",
                 "min_height", "max_height", "sample_width", "sample_depth", "inv_sample_width",
                 "inv_sample_depth", "aspect", "half_width", "half_depth", "alive", "built")

    def __init__(self) -> None:
        # an unbuilt data object has ODE's zeroed fields
        self.width = self.depth = 0.0
        self.width_samples = self.depth_samples = 0
        self.scale = self.offset = self.thickness = 0.0
        self.wrap = 0
        self.mode = MODE_CALLBACK
        self.copy = 0
        self.source = None
        self.callback: Callable | None = None
        self.user_data = None
        self.min_height = self.max_height = 0.0
        self.sample_width = self.sample_depth = 0.0
        self.inv_sample_width = self.inv_sample_depth = 0.0
        self.aspect = 0.0
        self.half_width = self.half_depth = 0.0
        self.alive = True
        self.built = False

    # -- set-up ---------------------------------------------------------------
    def set_grid(self, width: float, depth: float, width_samples: int, depth_samples: int,
                 scale: float, offset: float, thickness: float, wrap: int) -> None:
        """Store the grid geometry and the derived spacings (ODE's SetData)."""
        self.width = width
        self.depth = depth
        self.half_width = width / 2.0
        self.half_depth = depth / 2.0
        self.scale = scale
        self.offset = offset
        self.thickness = thickness
        self.width_samples = width_samples
        self.depth_samples = depth_samples
        self.sample_width = width / (width_samples - 1.0)
        self.sample_depth = depth / (depth_samples - 1.0)
        self.aspect = self.sample_depth / self.sample_width
        self.inv_sample_width = 1.0 / self.sample_width
        self.inv_sample_depth = 1.0 / self.sample_depth
        self.wrap = wrap
        self.built = True

    def raw_samples(self) -> np.ndarray:
        """The raw samples as a flat array of the storage dtype (array modes)."""
        dtype = _DTYPES[self.mode]
        if self.copy:
            return self.source
        # a reference: read the caller's object now (in place for a matching array)
        return np.asarray(self.source, dtype=dtype).reshape(-1)

    def compute_bounds(self) -> None:
        """Height bounds from the samples (scaled, offset, thickness below)."""
        raw = self.raw_samples()[: self.width_samples * self.depth_samples]
        lo = float(np.min(raw))
        hi = float(np.max(raw))
        self.min_height = lo * self.scale + self.offset - self.thickness
        self.max_height = hi * self.scale + self.offset

    # -- sampling -------------------------------------------------------------
    def _indices(self, i0: int, i1: int, n: int) -> np.ndarray:
        idx = np.arange(i0, i1 + 1)
        if self.wrap:
            return idx % (n - 1)
        return np.clip(idx, 0, n - 1)

    def grid(self, x0: int, x1: int, z0: int, z1: int) -> np.ndarray:
        """Heights (x1 - x0 + 1, z1 - z0 + 1) in m of samples x0..x1, z0..z1
        (indices clamped, or wrapped in wrap mode), scaled and offset."""
        xi = self._indices(x0, x1, self.width_samples)
        zi = self._indices(z0, z1, self.depth_samples)
        if self.mode == MODE_CALLBACK:
            raw = np.empty((xi.size, zi.size))
            cb = self.callback
            for a, x in enumerate(xi.tolist()):
                for b, z in enumerate(zi.tolist()):
                    raw[a, b] = float(cb(self.user_data, x, z))
        else:
            flat = self.raw_samples()
            raw = flat[xi[:, None] + zi[None, :] * self.width_samples].astype(np.float64)
        return raw * self.scale + self.offset

    def __repr__(self) -> str:
        state = "" if self.alive else " destroyed"
        return (f"<heightfield data {self.width_samples}x{self.depth_samples}"
                f" {self.width}x{self.depth} m{state}>")


def data_of(d, function: str, argument: str = "d") -> HeightfieldData:
    """``d`` checked to be a live HeightfieldData."""
    if d is None:
        raise ODEError(function, argument, "must not be NULL (None)")
    if not isinstance(d, HeightfieldData):
        raise ODEError(function, argument, f"expected a dHeightfieldDataID, got {d!r}")
    if not d.alive:
        raise ODEError(function, argument, "the heightfield data has been destroyed")
    return d


class Heightfield(Geom):
    """A placeable heightfield geom; ``hf_data`` is its HeightfieldData."""

    CLASS = dHeightfieldClass
    NAME = "heightfield"
    CREATOR = "dCreateHeightfield"
    __slots__ = ("hf_data",)

    def __init__(self, space, data: HeightfieldData) -> None:
        self.hf_data = data
        super().__init__(space)

    def compute_aabb(self) -> np.ndarray:
        d = data_of(self.hf_data, "dGeomGetAABB", "geom's heightfield data")
        if d.wrap:
            return np.array([-_INF, _INF, -_INF, _INF, -_INF, _INF])
        R = self.R
        p = self.pos
        out = np.empty(6)
        for i in range(3):
            # extents of the three local axes' spans along world axis i
            xs = (R[i, 0] * -d.half_width, R[i, 0] * d.half_width)
            ys = (_scaled(R[i, 1], d.min_height, -1.0), _scaled(R[i, 1], d.max_height, 1.0))
            zs = (R[i, 2] * -d.half_depth, R[i, 2] * d.half_depth)
            out[2 * i] = p[i] + min(min(xs), min(ys), min(zs))
            out[2 * i + 1] = p[i] + max(max(xs), max(ys), max(zs))
        return out


def _scaled(r: float, h: float, sign: float) -> float:
    """r * h, where an infinite bound along an axis with r = 0 contributes 0
    (ODE's rule, which keeps a rotated callback field's AABB free of NaN)."""
    if math.isinf(h):
        return r * sign * _INF if r != 0.0 else 0.0
    return r * h


class FixedHeightfield(Heightfield):
    """A non-placeable heightfield: at the world origin, world y up."""

    PLACEABLE = False
    __slots__ = ()

    def compute_aabb(self) -> np.ndarray:
        d = data_of(self.hf_data, "dGeomGetAABB", "geom's heightfield data")
        if d.wrap:
            return np.array([-_INF, _INF, d.min_height, d.max_height, -_INF, _INF])
        return np.array([-d.half_width, d.half_width, d.min_height, d.max_height,
                         -d.half_depth, d.half_depth])


# ----------------------------------------------------------------------------- data
def dGeomHeightfieldDataCreate() -> HeightfieldData:
    """A new, empty heightfield data object (build it with a dGeomHeightfieldDataBuild*)."""
    return HeightfieldData()


def dGeomHeightfieldDataDestroy(d) -> None:
    """Destroy the data; geoms still using it must not be collided afterwards."""
    data = data_of(d, "dGeomHeightfieldDataDestroy")
    data.alive = False
    data.source = None
    data.callback = None


def _grid_args(function: str, width, depth, width_samples, depth_samples, scale, offset,
               thickness, wrap) -> tuple:
    w = checks.real(width, function, "width")
    dp = checks.real(depth, function, "depth")
    if w <= 0:
        raise ODEError(function, "width", f"must be > 0, got {w}")
    if dp <= 0:
        raise ODEError(function, "depth", f"must be > 0, got {dp}")
    ws = checks.integer(width_samples, function, "width_samples")
    ds = checks.integer(depth_samples, function, "depth_samples")
    if ws < 2:
        raise ODEError(function, "width_samples", f"must be at least 2, got {ws}")
    if ds < 2:
        raise ODEError(function, "depth_samples", f"must be at least 2, got {ds}")
    return (w, dp, ws, ds, checks.real(scale, function, "scale"),
            checks.real(offset, function, "offset"),
            checks.real(thickness, function, "thickness"),
            int(checks.integer(wrap, function, "wrap") != 0))


def dGeomHeightfieldDataBuildCallback(d, user_data, callback, width: float, depth: float,
                                      width_samples: int, depth_samples: int, scale: float,
                                      offset: float, thickness: float, wrap: int) -> None:
    """Heights from ``callback(user_data, ix, iz) -> raw height`` (0 <= ix <
    width_samples, 0 <= iz < depth_samples), called during collisions.
    The bounds stay infinite until dGeomHeightfieldDataSetBounds."""
    fn = "dGeomHeightfieldDataBuildCallback"
    data = data_of(d, fn)
    if callback is None:
        raise ODEError(fn, "callback", "must not be NULL (None)")
    if not callable(callback):
        raise ODEError(fn, "callback", f"must be callable, got {callback!r}")
    args = _grid_args(fn, width, depth, width_samples, depth_samples, scale, offset,
                      thickness, wrap)
    data.mode = MODE_CALLBACK
    data.callback = callback
    data.user_data = user_data
    data.source = None
    data.copy = 0
    data.set_grid(*args)
    data.min_height = -_INF
    data.max_height = _INF


def _samples(values, mode: int, n: int, ws: int, ds: int, copy: bool, function: str):
    """The caller's samples checked (count, shape, range) for storage ``mode``:
    a flat copy, or (copy False) the object itself to be read at collision time."""
    if values is None:
        raise ODEError(function, "height_data", "must not be NULL (None)")
    dtype = _DTYPES[mode]
    try:
        as_float = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise ODEError(function, "height_data",
                       f"expected a sequence of numbers, got {values!r}") from None
    if as_float.ndim == 2 and as_float.shape != (ds, ws):
        raise ODEError(function, "height_data",
                       f"a 2-D array must have shape (depth_samples, width_samples) = "
                       f"({ds}, {ws}), got {as_float.shape}")
    flat = as_float.reshape(-1)
    if flat.size < n:
        raise ODEError(function, "height_data",
                       f"expected {n} samples ({ws} x {ds}), got {flat.size}")
    if not np.all(np.isfinite(flat[:n])):
        raise ODEError(function, "height_data", "samples must be finite")
    if mode in _RANGES:
        lo, hi = _RANGES[mode]
        if np.any(flat[:n] < lo) or np.any(flat[:n] > hi):
            raise ODEError(function, "height_data",
                           f"samples must lie in [{lo}, {hi}] for this format")
    if not copy:
        return values
    return np.asarray(values, dtype=dtype).reshape(-1)[:n].copy()


def _build(mode: int, function: str, d, height_data, copy: int, width, depth, width_samples,
           depth_samples, scale, offset, thickness, wrap) -> None:
    data = data_of(d, function)
    args = _grid_args(function, width, depth, width_samples, depth_samples, scale, offset,
                      thickness, wrap)
    ws, ds = args[2], args[3]
    keep = checks.integer(copy, function, "copy") != 0
    src = _samples(height_data, mode, ws * ds, ws, ds, keep, function)
    data.mode = mode
    data.copy = int(keep)
    data.source = src
    data.callback = None
    data.user_data = None
    data.set_grid(*args)
    data.compute_bounds()


def dGeomHeightfieldDataBuildByte(d, height_data, copy: int, width: float, depth: float,
                                  width_samples: int, depth_samples: int, scale: float,
                                  offset: float, thickness: float, wrap: int) -> None:
    """Heights from unsigned bytes (0..255): depth_samples rows of width_samples."""
    _build(MODE_BYTE, "dGeomHeightfieldDataBuildByte", d, height_data, copy, width, depth,
           width_samples, depth_samples, scale, offset, thickness, wrap)


def dGeomHeightfieldDataBuildShort(d, height_data, copy: int, width: float, depth: float,
                                   width_samples: int, depth_samples: int, scale: float,
                                   offset: float, thickness: float, wrap: int) -> None:
    """Heights from signed 16-bit integers: depth_samples rows of width_samples."""
    _build(MODE_SHORT, "dGeomHeightfieldDataBuildShort", d, height_data, copy, width, depth,
           width_samples, depth_samples, scale, offset, thickness, wrap)


def dGeomHeightfieldDataBuildSingle(d, height_data, copy: int, width: float, depth: float,
                                    width_samples: int, depth_samples: int, scale: float,
                                    offset: float, thickness: float, wrap: int) -> None:
    """Heights from float32 values: depth_samples rows of width_samples."""
    _build(MODE_SINGLE, "dGeomHeightfieldDataBuildSingle", d, height_data, copy, width, depth,
           width_samples, depth_samples, scale, offset, thickness, wrap)


def dGeomHeightfieldDataBuildDouble(d, height_data, copy: int, width: float, depth: float,
                                    width_samples: int, depth_samples: int, scale: float,
                                    offset: float, thickness: float, wrap: int) -> None:
    """Heights from float64 values: depth_samples rows of width_samples."""
    _build(MODE_DOUBLE, "dGeomHeightfieldDataBuildDouble", d, height_data, copy, width, depth,
           width_samples, depth_samples, scale, offset, thickness, wrap)


def dGeomHeightfieldDataSetBounds(d, min_height: float, max_height: float) -> None:
    """Raw sample bounds (scale, offset and, for the minimum, thickness are applied)."""
    fn = "dGeomHeightfieldDataSetBounds"
    data = data_of(d, fn)
    lo = checks.real_or_inf(min_height, fn, "min_height")
    hi = checks.real_or_inf(max_height, fn, "max_height")
    data.min_height = lo * data.scale + data.offset - data.thickness
    data.max_height = hi * data.scale + data.offset


# ----------------------------------------------------------------------------- geom
def dCreateHeightfield(space, data, placeable: int) -> Heightfield:
    """A heightfield geom on ``data``; placeable != 0 lets it be moved and rotated,
    otherwise it stays at the origin with world y as its height axis."""
    fn = "dCreateHeightfield"
    hd = data_of(data, fn, "data")
    if checks.integer(placeable, fn, "placeable"):
        return Heightfield(space, hd)
    return FixedHeightfield(space, hd)


def dGeomHeightfieldSetHeightfieldData(g, d) -> None:
    """Use data ``d`` for heightfield ``g`` (placeability unchanged)."""
    fn = "dGeomHeightfieldSetHeightfieldData"
    geom = geom_of(g, fn, "g", Heightfield)
    geom.hf_data = data_of(d, fn)


def dGeomHeightfieldGetHeightfieldData(g) -> HeightfieldData:
    """The data object of heightfield ``g``."""
    return geom_of(g, "dGeomHeightfieldGetHeightfieldData", "g", Heightfield).hf_data
