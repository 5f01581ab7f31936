"""ODE's small C structs: their ctypes layouts and the Python classes the flat
API hands out.

The Python classes mirror :mod:`engine.ode.structs` / ``engine.ode.mass``
(same field names, numpy float64 vectors shaped like the C data: dVector3 ->
(3,), dMatrix3 -> (12,), 3x4 row-major). Conversion to and from the C
layouts happens only at the call boundary, so a scene holds plain Python
objects it may read and change freely. :class:`dJointFeedback` is the one
exception: ODE writes into it during a step, so it owns its C struct and its
fields read that memory.

Layouts (x86-64, dReal = double): dVector3 is 4 doubles (the 4th is padding),
dMatrix3 12 doubles; sizes dSurfaceParameters 120 B, dContactGeom 96 B,
dContact 248 B, dMass 136 B, dJointFeedback 128 B.
"""

from __future__ import annotations

import ctypes

import numpy as np

Vector3 = ctypes.c_double * 4
Matrix3 = ctypes.c_double * 12

SURFACE_FIELDS = ("mode", "mu", "mu2", "rho", "rho2", "rhoN", "bounce", "bounce_vel",
                  "soft_erp", "soft_cfm", "motion1", "motion2", "motionN", "slip1", "slip2")


class CSurfaceParameters(ctypes.Structure):
    """C ``dSurfaceParameters``: int mode, then 14 dReal."""

    _fields_ = [("mode", ctypes.c_int)] + [(n, ctypes.c_double) for n in SURFACE_FIELDS[1:]]


class CContactGeom(ctypes.Structure):
    """C ``dContactGeom``."""

    _fields_ = [("pos", Vector3), ("normal", Vector3), ("depth", ctypes.c_double),
                ("g1", ctypes.c_void_p), ("g2", ctypes.c_void_p),
                ("side1", ctypes.c_int), ("side2", ctypes.c_int)]


class CContact(ctypes.Structure):
    """C ``dContact``."""

    _fields_ = [("surface", CSurfaceParameters), ("geom", CContactGeom), ("fdir1", Vector3)]


class CMass(ctypes.Structure):
    """C ``dMass``."""

    _fields_ = [("mass", ctypes.c_double), ("c", Vector3), ("I", Matrix3)]


class CJointFeedback(ctypes.Structure):
    """C ``dJointFeedback``."""

    _fields_ = [("f1", Vector3), ("t1", Vector3), ("f2", Vector3), ("t2", Vector3)]


def vector3(c_vec: ctypes.Array) -> np.ndarray:
    """The first 3 numbers of a C dVector3 as a new (3,) float64 array."""
    return np.array(c_vec[:3], dtype=np.float64)


def c_vector3(values: object) -> Vector3:
    """A C dVector3 from 3 numbers (4th number 0)."""
    a = np.asarray(values, dtype=np.float64).reshape(-1)
    return Vector3(float(a[0]), float(a[1]), float(a[2]), 0.0)


def c_matrix3(R: object) -> Matrix3:
    """A C dMatrix3 from a (12,) 3x4 row-major sequence, a (9,) or a (3, 3) array."""
    a = np.asarray(R, dtype=np.float64)
    if a.size == 12:
        flat = a.reshape(-1)
    elif a.size == 9:
        flat = np.zeros(12)
        flat.reshape(3, 4)[:, :3] = a.reshape(3, 3)
    else:
        raise ValueError(f"rotation: expected 12, 9 or (3, 3) numbers, got shape {a.shape}")
    return Matrix3(*(float(x) for x in flat))


class dMass:
    """ODE's dMass: ``mass`` kg, ``c`` (3,) m (body frame), ``I`` (12,) kg m^2
    (3x4 row-major); all zero when new, as in :mod:`engine.ode`."""

    __slots__ = ("I", "c", "mass")

    def __init__(self) -> None:
        self.mass = 0.0
        self.c = np.zeros(3)
        self.I = np.zeros(12)

    def to_c(self) -> CMass:
        """This mass as a C struct (I given as (3, 3) or (9,) is widened to 3x4)."""
        return CMass(float(self.mass), c_vector3(self.c), c_matrix3(self.I))

    def set_from_c(self, cm: CMass) -> None:
        """Take every field from a C struct."""
        self.mass = float(cm.mass)
        self.c = vector3(cm.c)
        self.I = np.array(cm.I[:], dtype=np.float64)

    def __repr__(self) -> str:
        return f"dMass(mass={self.mass!r}, c={self.c!r}, I={self.I!r})"


class dSurfaceParameters:
    """Contact surface parameters; every field 0 when created."""

    __slots__ = SURFACE_FIELDS

    def __init__(self, **fields: float) -> None:
        for name in SURFACE_FIELDS:
            setattr(self, name, 0)
        for name, value in fields.items():
            setattr(self, name, value)

    def to_c(self) -> CSurfaceParameters:
        """This surface as a C struct."""
        c = CSurfaceParameters()
        c.mode = int(self.mode)
        for name in SURFACE_FIELDS[1:]:
            setattr(c, name, float(getattr(self, name)))
        return c


class dContactGeom:
    """One contact point: pos (3,) m, normal (3,) unit, depth m, g1, g2 (geom
    handles or None), side1, side2."""

    __slots__ = ("depth", "g1", "g2", "normal", "pos", "side1", "side2")

    def __init__(self, pos: object = (0.0, 0.0, 0.0), normal: object = (0.0, 0.0, 0.0),
                 depth: float = 0.0, g1: object = None, g2: object = None,
                 side1: int = -1, side2: int = -1) -> None:
        self.pos = np.array(pos, dtype=np.float64)
        self.normal = np.array(normal, dtype=np.float64)
        self.depth = float(depth)
        self.g1 = g1
        self.g2 = g2
        self.side1 = side1
        self.side2 = side2

    def to_c(self) -> CContactGeom:
        """This contact point as a C struct (handles become their addresses)."""
        return CContactGeom(c_vector3(self.pos), c_vector3(self.normal), float(self.depth),
                            _address(self.g1), _address(self.g2), int(self.side1),
                            int(self.side2))


class dContact:
    """surface (dSurfaceParameters), geom (dContactGeom), fdir1 (3,)."""

    __slots__ = ("fdir1", "geom", "surface")

    def __init__(self, surface: dSurfaceParameters | None = None,
                 geom: dContactGeom | None = None, fdir1: object = (0.0, 0.0, 0.0)) -> None:
        self.surface = dSurfaceParameters() if surface is None else surface
        self.geom = dContactGeom() if geom is None else geom
        self.fdir1 = np.array(fdir1, dtype=np.float64)

    def to_c(self) -> CContact:
        """This contact as a C struct (ODE copies it into the contact joint)."""
        return CContact(self.surface.to_c(), self.geom.to_c(), c_vector3(self.fdir1))


class dJointFeedback:
    """Force (N) and torque (N m) a joint applied to body 1 (f1, t1) and body 2
    (f2, t2) in the last step, world frame; each read as a new (3,) array
    from the C struct ODE writes during the step."""

    __slots__ = ("c_struct",)

    def __init__(self) -> None:
        self.c_struct = CJointFeedback()

    @property
    def f1(self) -> np.ndarray:
        """Force on body 1 (3,) N."""
        return vector3(self.c_struct.f1)

    @property
    def t1(self) -> np.ndarray:
        """Torque on body 1 (3,) N m."""
        return vector3(self.c_struct.t1)

    @property
    def f2(self) -> np.ndarray:
        """Force on body 2 (3,) N."""
        return vector3(self.c_struct.f2)

    @property
    def t2(self) -> np.ndarray:
        """Torque on body 2 (3,) N m."""
        return vector3(self.c_struct.t2)


def _address(handle: object) -> int | None:
    """The C address of a handle (None for None)."""
    return None if handle is None else handle._as_parameter_
