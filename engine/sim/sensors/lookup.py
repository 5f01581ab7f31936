"""Webots' sensor lookup tables, noise and resolution (docs/sensors.md, "Lookup tables").

A ``lookupTable`` (MFVec3f rows ``input output noise``) maps a raw reading
to the value the controller API returns: linear interpolation between the
two rows around the input, clamped to the first/last row outside the
table; then multiplicative Gaussian noise ``v (1 + sigma N(0, 1))`` with
sigma interpolated from the third column the same way; an empty table
returns the raw reading. `discretize` applies a sensor's ``resolution``
(-1 = none) as Webots does: ``trunc(v / r + 0.5) r``, which truncates
towards zero, so a negative value rounds one step towards zero
(-1.2 with r = 1 gives 0, not -1).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from numpy.random import PCG64, Generator


def rng_of(seed: int) -> Generator:
    """The noise generator of one device: ``Generator(PCG64(seed))``; the
    controller host derives ``seed`` from WorldInfo.randomSeed and the
    device's index."""
    return Generator(PCG64(int(seed)))


@dataclass(frozen=True)
class LookupTable:
    """The rows of a ``lookupTable`` field: inputs (increasing), outputs, noise sigmas."""

    inputs: tuple[float, ...] = ()
    outputs: tuple[float, ...] = ()
    noises: tuple[float, ...] = ()

    @staticmethod
    def of(rows: Sequence[Sequence[float]]) -> LookupTable:
        """The table of an MFVec3f field value (a sequence of 3-vectors)."""
        return LookupTable(tuple(float(r[0]) for r in rows), tuple(float(r[1]) for r in rows),
                           tuple(float(r[2]) for r in rows))

    @property
    def empty(self) -> bool:
        return not self.inputs

    @property
    def max_input(self) -> float:
        """The largest input (a DistanceSensor's range) [input units]; 0 when empty."""
        return max(self.inputs, default=0.0)

    def interpolate(self, x: float) -> tuple[float, float]:
        """(output, noise sigma) at input ``x``: clamped to the end rows,
        linear in between. Not for an empty table."""
        xs = self.inputs
        last = len(xs) - 1
        if x <= xs[0]:
            return self.outputs[0], self.noises[0]
        if x >= xs[last]:
            return self.outputs[last], self.noises[last]
        # the row pair [lo, hi] with xs[lo] <= x < xs[hi] (bisection)
        lo, hi = 0, last
        while lo + 1 < hi:
            mid = (lo + hi) // 2
            if x < xs[mid]:
                hi = mid
            else:
                lo = mid
        u = (x - xs[lo]) / (xs[hi] - xs[lo])
        return ((1.0 - u) * self.outputs[lo] + u * self.outputs[hi],
                (1.0 - u) * self.noises[lo] + u * self.noises[hi])

    def lookup(self, x: float, rng: Generator | None) -> float:
        """The table's output for raw reading ``x`` with noise drawn from ``rng``
        (no draw when the interpolated sigma is 0 or ``rng`` is None)."""
        if self.empty:
            return float(x)
        v, sigma = self.interpolate(float(x))
        if sigma != 0.0 and rng is not None:
            v *= 1.0 + sigma * float(rng.standard_normal())
        return v


def discretize(v: float, resolution: float) -> float:
    """``v`` at a sensor's ``resolution`` (-1: unchanged; NaN and inf unchanged)."""
    if resolution == -1.0 or resolution <= 0.0 or not math.isfinite(v):
        return v
    return math.trunc(v / resolution + 0.5) * resolution


@dataclass
class Reading:
    """A device's lookup table, resolution and noise generator: `apply` turns a
    raw reading into the API value."""

    table: LookupTable
    resolution: float = -1.0
    rng: Generator | None = None

    @classmethod
    def of_node(cls, node, seed: int) -> Reading:
        """The reading of a sensor node: its ``lookupTable`` and ``resolution``
        fields, noise drawn from the device's seed."""
        return cls(LookupTable.of(node.get("lookupTable")), float(node.get("resolution")),
                   rng_of(seed))

    def apply(self, x: float) -> float:
        """lookup (with noise), then resolution."""
        return discretize(self.table.lookup(x, self.rng), self.resolution)

    def apply3(self, v: Sequence[float], enabled: Sequence[bool]) -> list[float]:
        """`apply` per component; a disabled axis gives NaN (no noise drawn for it)."""
        return [self.apply(float(x)) if on else math.nan for x, on in zip(v, enabled, strict=True)]
