"""Mass parameters of a rigid body: ``dMass`` and the manual's dMass* functions.

A :class:`dMass` holds, as in C, ``mass`` (float, kg), ``c`` (3,) the centre
of mass in the body frame (m) and ``I`` (12,) the 3x3 inertia tensor about
the body's point of reference in the body frame (kg m^2), stored row-major
in 3 rows of 4 (C's dMatrix3, ``I[4*i + j]``).  Assigning a (3, 3), (9,) or
(12,) array to ``I`` (or a 3- or 4-sequence to ``c``) is accepted.

The functions change their dMass argument in place, as C does
(``m = dMass(); dMassSetBoxTotal(m, 1.0, lx, ly, lz)``).  Where ODE would
report bad parameters (non-positive mass or density, negative dimensions,
NaN, a direction other than 1, 2, 3, an inertia that is not positive
definite or inconsistent with the centre of mass) an :class:`ODEError`
naming the function and argument is raised and the dMass is left as it was.
Units: densities in kg/m^3, lengths in m; ``direction`` 1 = x, 2 = y, 3 = z.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine.ode.errors import ODEError
from engine.ode.kernels.linalg import factor_cholesky, matmul
from engine.ode.rotation import as_real, as_rotation3, as_vector

__all__ = [
    "dMass",
    "dMassAdd",
    "dMassAdjust",
    "dMassCheck",
    "dMassRotate",
    "dMassSetBox",
    "dMassSetBoxTotal",
    "dMassSetCappedCylinder",
    "dMassSetCappedCylinderTotal",
    "dMassSetCapsule",
    "dMassSetCapsuleTotal",
    "dMassSetCylinder",
    "dMassSetCylinderTotal",
    "dMassSetParameters",
    "dMassSetSphere",
    "dMassSetSphereTotal",
    "dMassSetZero",
    "dMassTranslate",
]


class dMass:
    """ODE's dMass struct: ``mass``, ``c`` (3,), ``I`` (12,); all zero when new."""

    __slots__ = ("_I", "_c", "mass")

    def __init__(self) -> None:
        self.mass = 0.0
        self._c = np.zeros(3)
        self._I = np.zeros(12)

    @property
    def c(self) -> np.ndarray:
        """Centre of mass (3,) in the body frame [m]."""
        return self._c

    @c.setter
    def c(self, value: Any) -> None:
        a = np.array(value, dtype=np.float64).reshape(-1)
        if a.size not in (3, 4):
            raise ODEError("dMass", "c", f"expected 3 numbers, got {a.size}")
        self._c = a[:3].copy()

    @property
    def I(self) -> np.ndarray:  # noqa: E743 (C's field name)
        """Inertia (12,) about the point of reference, 3x4 row-major [kg m^2]."""
        return self._I

    @I.setter
    def I(self, value: Any) -> None:  # noqa: E743
        a = np.array(value, dtype=np.float64)
        if a.size == 12:
            self._I = a.reshape(-1).copy()
        elif a.size == 9:
            out = np.zeros(12)
            out.reshape(3, 4)[:, :3] = a.reshape(3, 3)
            self._I = out
        else:
            raise ODEError("dMass", "I", f"expected a (3, 3), (9,) or (12,) array, got {a.shape}")

    def I3(self) -> np.ndarray:
        """The inertia as a new (3, 3) array."""
        return self._I.reshape(3, 4)[:, :3].copy()

    def copy(self) -> dMass:
        """An independent copy."""
        m = dMass()
        m.mass = float(self.mass)
        m._c = self._c.copy()
        m._I = self._I.copy()
        return m

    def __repr__(self) -> str:
        return f"dMass(mass={self.mass!r}, c={self._c!r}, I={self._I!r})"


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------
def _need(m: Any, function: str, argument: str = "m") -> dMass:
    if not isinstance(m, dMass):
        what = "None (NULL)" if m is None else type(m).__name__
        raise ODEError(function, argument, f"is {what}; a dMass is required")
    return m


def _positive(x: Any, function: str, argument: str) -> float:
    v = as_real(x, function, argument)
    if not v > 0.0:
        raise ODEError(function, argument, f"must be > 0, got {v}")
    return v


def _length(x: Any, function: str, argument: str) -> float:
    v = as_real(x, function, argument)
    if v < 0.0:
        raise ODEError(function, argument, f"must be >= 0, got {v}")
    return v


def _direction(direction: Any, function: str) -> int:
    if isinstance(direction, bool) or direction not in (1, 2, 3):
        raise ODEError(function, "direction", f"must be 1 (x), 2 (y) or 3 (z), got {direction!r}")
    return int(direction)


def _cross_matrix(v: np.ndarray) -> np.ndarray:
    """[v]x (3, 3): [v]x w = v x w."""
    return np.array([[0.0, -v[2], v[1]], [v[2], 0.0, -v[0]], [-v[1], v[0], 0.0]])


def _mul(A: np.ndarray, B: np.ndarray, transpose_b: bool = False) -> np.ndarray:
    """A B (or A B') of (3, 3) matrices with plain left-to-right sums (as ODE)."""
    out = np.empty((3, 3))
    matmul(np.ascontiguousarray(A), np.ascontiguousarray(B), out, False, transpose_b)
    return out


def _is_pd3(M: np.ndarray) -> bool:
    A = np.array(M, dtype=np.float64)  # a copy: the factorisation works in place
    return bool(np.isfinite(A).all()) and factor_cholesky(A, 3)


def _problem(mass: float, c: np.ndarray, I3: np.ndarray) -> str | None:
    """Why (mass, c, I) is not a valid mass (ODE's dMassCheck), or None."""
    if not mass > 0.0:
        return f"mass must be > 0, got {mass}"
    if not _is_pd3(I3):
        return "inertia must be positive definite"
    # the inertia about the centre of mass, I + mass [c]x^2, must be PD too
    cx = _cross_matrix(c)
    if not _is_pd3(I3 + mass * _mul(cx, cx)):
        return "centre of mass inconsistent with the inertia"
    return None


def _commit(m: dMass, mass: float, c: np.ndarray, I3: np.ndarray,
            function: str, argument: str) -> None:
    """Store (mass, c, I3) into m after checking them; ODEError otherwise."""
    why = _problem(mass, c, I3)
    if why is not None:
        raise ODEError(function, argument, why)
    m.mass = float(mass)
    m._c = np.array(c, dtype=np.float64)
    m._I = np.zeros(12)
    m._I.reshape(3, 4)[:, :3] = I3


def _diag(a: float, b: float, c: float) -> np.ndarray:
    return np.diag([a, b, c])


# ---------------------------------------------------------------------------
# the flat ODE API
# ---------------------------------------------------------------------------
def dMassCheck(m: dMass) -> int:
    """1 if m is a valid mass, else 0 (ODE's dMassCheck).

    Valid: mass > 0, I positive definite, and I + mass [c]x^2 (the inertia
    about the centre of mass) positive definite.
    """
    m = _need(m, "dMassCheck")
    return int(_problem(float(m.mass), m.c, m.I3()) is None)


def dMassSetZero(m: dMass) -> None:
    """Set mass, c and I of m to zero."""
    m = _need(m, "dMassSetZero")
    m.mass = 0.0
    m._c = np.zeros(3)
    m._I = np.zeros(12)


def dMassSetParameters(m: dMass, themass: float, cgx: float, cgy: float, cgz: float,
                       I11: float, I22: float, I33: float,
                       I12: float, I13: float, I23: float) -> None:
    """Set m to mass ``themass`` [kg], centre (cgx, cgy, cgz) [m] and the
    symmetric inertia with diagonal I11, I22, I33 and off-diagonal I12, I13,
    I23 [kg m^2] (about the point of reference, body frame)."""
    fn = "dMassSetParameters"
    m = _need(m, fn)
    mass = _positive(themass, fn, "themass")
    c = np.array([as_real(v, fn, n) for v, n in ((cgx, "cgx"), (cgy, "cgy"), (cgz, "cgz"))])
    e = {n: as_real(v, fn, n) for v, n in ((I11, "I11"), (I22, "I22"), (I33, "I33"),
                                            (I12, "I12"), (I13, "I13"), (I23, "I23"))}
    I3 = np.array([[e["I11"], e["I12"], e["I13"]],
                   [e["I12"], e["I22"], e["I23"]],
                   [e["I13"], e["I23"], e["I33"]]])
    if not _is_pd3(I3):
        raise ODEError(fn, "I11..I23", "inertia must be positive definite")
    _commit(m, mass, c, I3, fn, "cgx, cgy, cgz")


def dMassSetSphereTotal(m: dMass, total_mass: float, radius: float) -> None:
    """A solid sphere of mass ``total_mass`` and ``radius``, centred at the origin."""
    fn = "dMassSetSphereTotal"
    m = _need(m, fn)
    mass = _positive(total_mass, fn, "total_mass")
    r = _length(radius, fn, "radius")
    i = 0.4 * mass * r * r  # 2/5 m r^2
    _commit(m, mass, np.zeros(3), _diag(i, i, i), fn, "radius")


def dMassSetSphere(m: dMass, density: float, radius: float) -> None:
    """A solid sphere of ``density`` and ``radius``, centred at the origin."""
    fn = "dMassSetSphere"
    m = _need(m, fn)
    rho = _positive(density, fn, "density")
    r = _length(radius, fn, "radius")
    mass = (4.0 / 3.0) * math.pi * r * r * r * rho
    i = 0.4 * mass * r * r
    _commit(m, mass, np.zeros(3), _diag(i, i, i), fn, "radius")


def _capsule(m: dMass, density: float, direction: Any, radius: Any, length: Any,
             function: str) -> None:
    axis = _direction(direction, function) - 1
    r = _length(radius, function, "radius")
    h = _length(length, function, "length")
    m_cyl = math.pi * r * r * h * density
    m_caps = (4.0 / 3.0) * math.pi * r * r * r * density  # both hemispheres
    # Across the axis: cylinder m(r^2/4 + h^2/12); each hemisphere (m_caps/2)
    # has 2/5 (m_caps/2) r^2 about its flat face and its centre 3r/8 from the
    # face, so by the parallel axis theorem the caps add
    # m_caps (2/5 r^2 + 3/8 r h + 1/4 h^2) about the capsule's centre.
    i_across = (m_cyl * (0.25 * r * r + (1.0 / 12.0) * h * h)
                + m_caps * (0.4 * r * r + 0.375 * r * h + 0.25 * h * h))
    i_along = (m_cyl * 0.5 + m_caps * 0.4) * r * r
    d = [i_across] * 3
    d[axis] = i_along
    _commit(m, m_cyl + m_caps, np.zeros(3), _diag(*d), function, "radius, length")


def dMassSetCapsule(m: dMass, density: float, direction: int, radius: float,
                    length: float) -> None:
    """A capsule: a cylinder of ``radius`` and ``length`` (caps not counted)
    along axis ``direction`` capped by two hemispheres, centred at the origin."""
    fn = "dMassSetCapsule"
    _capsule(_need(m, fn), _positive(density, fn, "density"), direction, radius, length, fn)


def dMassSetCapsuleTotal(m: dMass, total_mass: float, direction: int, radius: float,
                         length: float) -> None:
    """As dMassSetCapsule, given the total mass (computed at density 1, then adjusted)."""
    fn = "dMassSetCapsuleTotal"
    m = _need(m, fn)
    mass = _positive(total_mass, fn, "total_mass")
    tmp = dMass()
    _capsule(tmp, 1.0, direction, radius, length, fn)
    _adjust(tmp, mass, fn)
    _copy_into(m, tmp)


def _cylinder(m: dMass, mass: float, direction: Any, radius: Any, length: Any,
              function: str, density: float | None = None) -> None:
    axis = _direction(direction, function) - 1
    r = _length(radius, function, "radius")
    h = _length(length, function, "length")
    if density is not None:
        mass = math.pi * r * r * h * density
    r2 = r * r
    d = [mass * (0.25 * r2 + (1.0 / 12.0) * h * h)] * 3
    d[axis] = mass * 0.5 * r2
    _commit(m, mass, np.zeros(3), _diag(*d), function, "radius, length")


def dMassSetCylinder(m: dMass, density: float, direction: int, radius: float,
                     length: float) -> None:
    """A flat-ended solid cylinder of ``radius`` and ``length`` along ``direction``."""
    fn = "dMassSetCylinder"
    m = _need(m, fn)
    _cylinder(m, 0.0, direction, radius, length, fn, _positive(density, fn, "density"))


def dMassSetCylinderTotal(m: dMass, total_mass: float, direction: int, radius: float,
                          length: float) -> None:
    """As dMassSetCylinder, given the total mass."""
    fn = "dMassSetCylinderTotal"
    m = _need(m, fn)
    _cylinder(m, _positive(total_mass, fn, "total_mass"), direction, radius, length, fn)


def _box(m: dMass, mass: float | None, lx: Any, ly: Any, lz: Any, function: str,
         density: float = 0.0) -> None:
    x = _length(lx, function, "lx")
    y = _length(ly, function, "ly")
    z = _length(lz, function, "lz")
    if mass is None:
        mass = x * y * z * density
    k = mass / 12.0
    _commit(m, mass, np.zeros(3), _diag(k * (y * y + z * z), k * (x * x + z * z),
                                        k * (x * x + y * y)), function, "lx, ly, lz")


def dMassSetBox(m: dMass, density: float, lx: float, ly: float, lz: float) -> None:
    """A solid box with side lengths lx, ly, lz along x, y, z, centred at the origin."""
    fn = "dMassSetBox"
    m = _need(m, fn)
    _box(m, None, lx, ly, lz, fn, _positive(density, fn, "density"))


def dMassSetBoxTotal(m: dMass, total_mass: float, lx: float, ly: float, lz: float) -> None:
    """As dMassSetBox, given the total mass."""
    fn = "dMassSetBoxTotal"
    m = _need(m, fn)
    _box(m, _positive(total_mass, fn, "total_mass"), lx, ly, lz, fn)


# ---------------------------------------------------------------------------
# dMassSetTrimesh / dMassSetTrimeshTotal need a trimesh geom: they come with
# the collision issue (they belong with the trimesh code), not here.
# ---------------------------------------------------------------------------


def _copy_into(dst: dMass, src: dMass) -> None:
    dst.mass, dst._c, dst._I = src.mass, src._c.copy(), src._I.copy()


def _adjust(m: dMass, newmass: float, function: str) -> None:
    if not m.mass != 0.0:
        raise ODEError(function, "m", "cannot rescale a zero mass")
    scale = newmass / m.mass
    _commit(m, newmass, m.c, m.I3() * scale, function, "newmass")


def dMassAdjust(m: dMass, newmass: float) -> None:
    """Rescale m to total mass ``newmass`` (the inertia scales with it, c is kept)."""
    fn = "dMassAdjust"
    m = _need(m, fn)
    _adjust(m, _positive(newmass, fn, "newmass"), fn)


def _store_checked(m: dMass, c: np.ndarray, I3: np.ndarray, function: str,
                   argument: str) -> None:
    """Store a transformed (c, I3): checked only if m was valid before, so that
    transforming e.g. a zeroed dMass is allowed as in ODE."""
    if not np.isfinite(I3).all() or not np.isfinite(c).all():
        raise ODEError(function, argument, "result is not finite")
    if _problem(float(m.mass), m.c, m.I3()) is None:
        _commit(m, m.mass, c, I3, function, argument)
    else:
        m._c = c
        m._I = np.zeros(12)
        m._I.reshape(3, 4)[:, :3] = I3


def dMassTranslate(m: dMass, x: float, y: float, z: float) -> None:
    """Move the mass by (x, y, z) [m] in the body frame (c += t; I about the
    point of reference updated by the parallel axis theorem)."""
    fn = "dMassTranslate"
    m = _need(m, fn)
    t = np.array([as_real(x, fn, "x"), as_real(y, fn, "y"), as_real(z, fn, "z")])
    # about the reference point, I = I_cm - mass [c]x^2, so moving c to
    # a = c + t gives I + mass ([c]x^2 - [a]x^2)
    cx = _cross_matrix(m.c)
    ax = _cross_matrix(m.c + t)
    I3 = m.I3() + m.mass * (_mul(cx, cx) - _mul(ax, ax))
    I3 = np.triu(I3) + np.triu(I3, 1).T  # exact symmetry: lower := upper
    _store_checked(m, m.c + t, I3, fn, "x, y, z")


def dMassRotate(m: dMass, R: Any) -> None:
    """Rotate the mass by R (12-, 9-sequence or (3, 3)) about the point of
    reference: I := R I R', c := R c."""
    fn = "dMassRotate"
    m = _need(m, fn)
    R3 = as_rotation3(R, fn, "R")
    I3 = _mul(R3, _mul(m.I3(), R3, transpose_b=True))
    I3 = np.triu(I3) + np.triu(I3, 1).T
    c = m.c
    rc = np.array([R3[i, 0] * c[0] + R3[i, 1] * c[1] + R3[i, 2] * c[2] for i in range(3)])
    _store_checked(m, rc, I3, fn, "R")


def dMassAdd(a: dMass, b: dMass) -> None:
    """Add the mass b to a (a := a + b): masses and inertias add, the centre
    of mass is the mass-weighted mean.  Both must be in the same frame."""
    fn = "dMassAdd"
    a = _need(a, fn, "a")
    b = _need(b, fn, "b")
    total = float(a.mass) + float(b.mass)
    if total == 0.0 or not math.isfinite(total):
        raise ODEError(fn, "b", f"total mass must be non-zero and finite, got {total}")
    bc = as_vector(b.c, 3, fn, "b")
    bI = np.array(b.I, dtype=np.float64).reshape(-1)
    if bI.size != 12 or not np.isfinite(bI).all():
        raise ODEError(fn, "b", "inertia must be 12 finite numbers")
    inv = 1.0 / total
    a._c = (a.c * a.mass + bc * b.mass) * inv
    a.mass = total
    a._I = a.I + bI


def dMassSetCappedCylinder(m: dMass, density: float, direction: int, radius: float,
                           length: float) -> None:
    """Deprecated ODE name of :func:`dMassSetCapsule`."""
    dMassSetCapsule(m, density, direction, radius, length)


def dMassSetCappedCylinderTotal(m: dMass, total_mass: float, direction: int, radius: float,
                                length: float) -> None:
    """Deprecated ODE name of :func:`dMassSetCapsuleTotal`."""
    dMassSetCapsuleTotal(m, total_mass, direction, radius, length)
