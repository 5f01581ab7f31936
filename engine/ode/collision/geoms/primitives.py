"""The primitive geom classes: sphere, box, capsule, cylinder, plane, ray.

Capsules and cylinders lie along their local z axis (length = the
cylindrical part; a capsule's caps add the radius at each end). A plane is
``a x + b y + c z = d`` with unit normal (a, b, c), not placeable. A ray
starts at its position and points along its local z axis.
"""

from __future__ import annotations

import numpy as np

from engine.ode import checks
from engine.ode.collision.geoms.geom import Geom, _set_world_pos, _set_world_R, geom_of
from engine.ode.constants import (
    dBoxClass,
    dCapsuleClass,
    dCylinderClass,
    dInfinity,
    dPlaneClass,
    dRayClass,
    dSphereClass,
)
from engine.ode.errors import ODEError
from engine.ode.kernels.detlinalg import matmul, norm
from engine.ode.kernels.vec import plane_space

_INF = dInfinity


def _nonneg(value: float, function: str, argument: str) -> float:
    v = checks.real(value, function, argument)
    if v < 0:
        raise ODEError(function, argument, f"must be >= 0, got {v}")
    return v


class Sphere(Geom):
    CLASS = dSphereClass
    NAME = "sphere"
    CREATOR = "dCreateSphere"
    __slots__ = ("radius",)

    def __init__(self, space, radius: float) -> None:
        self.radius = _nonneg(radius, "dCreateSphere", "radius")
        super().__init__(space)

    def compute_aabb(self) -> np.ndarray:
        p = self.pos
        r = self.radius
        return np.array([p[0] - r, p[0] + r, p[1] - r, p[1] + r, p[2] - r, p[2] + r])


class Box(Geom):
    CLASS = dBoxClass
    NAME = "box"
    CREATOR = "dCreateBox"
    __slots__ = ("lengths",)

    def __init__(self, space, lx: float, ly: float, lz: float) -> None:
        self.lengths = np.array([_nonneg(v, "dCreateBox", n) for v, n in
                                 ((lx, "lx"), (ly, "ly"), (lz, "lz"))])
        super().__init__(space)

    def compute_aabb(self) -> np.ndarray:
        # half extent along world axis i: sum_j |R_ij| * side_j / 2
        ext = matmul(np.abs(self.R), 0.5 * self.lengths)
        p = self.pos
        return np.array([p[0] - ext[0], p[0] + ext[0], p[1] - ext[1], p[1] + ext[1],
                         p[2] - ext[2], p[2] + ext[2]])


class Capsule(Geom):
    CLASS = dCapsuleClass
    NAME = "capsule"
    CREATOR = "dCreateCapsule"
    __slots__ = ("radius", "length")

    def __init__(self, space, radius: float, length: float) -> None:
        self.radius = _nonneg(radius, "dCreateCapsule", "radius")
        self.length = _nonneg(length, "dCreateCapsule", "length")
        super().__init__(space)

    def compute_aabb(self) -> np.ndarray:
        axis = self.R[:, 2]
        ext = np.abs(axis * self.length) * 0.5 + self.radius
        p = self.pos
        return np.array([p[0] - ext[0], p[0] + ext[0], p[1] - ext[1], p[1] + ext[1],
                         p[2] - ext[2], p[2] + ext[2]])


class Cylinder(Geom):
    CLASS = dCylinderClass
    NAME = "cylinder"
    CREATOR = "dCreateCylinder"
    __slots__ = ("radius", "length")

    def __init__(self, space, radius: float, length: float) -> None:
        self.radius = _nonneg(radius, "dCreateCylinder", "radius")
        self.length = _nonneg(length, "dCreateCylinder", "length")
        super().__init__(space)

    def compute_aabb(self) -> np.ndarray:
        # the rim's extent along world axis i is r·sqrt(1 - a_i²) for unit axis a
        axis = self.R[:, 2]
        ext = (np.abs(axis * self.length) * 0.5
               + self.radius * np.sqrt(np.maximum(0.0, 1.0 - axis * axis)))
        p = self.pos
        return np.array([p[0] - ext[0], p[0] + ext[0], p[1] - ext[1], p[1] + ext[1],
                         p[2] - ext[2], p[2] + ext[2]])


class Plane(Geom):
    CLASS = dPlaneClass
    NAME = "plane"
    CREATOR = "dCreatePlane"
    PLACEABLE = False
    __slots__ = ("params",)

    def __init__(self, space, a: float, b: float, c: float, d: float) -> None:
        self.params = _plane_params(a, b, c, d, "dCreatePlane")
        super().__init__(space)

    def compute_aabb(self) -> np.ndarray:
        # infinite, except that a plane whose normal lies along an axis bounds
        # the solid half-space behind it on that axis
        n, d = self.params[:3], self.params[3]
        box = np.array([-_INF, _INF, -_INF, _INF, -_INF, _INF])
        for i in range(3):
            others = [k for k in range(3) if k != i]
            if n[others[0]] == 0 and n[others[1]] == 0:
                if n[i] > 0:
                    box[2 * i + 1] = d
                else:
                    box[2 * i] = -d
        return box


def _plane_params(a, b, c, d, function: str) -> np.ndarray:
    n = np.array([checks.real(a, function, "a"), checks.real(b, function, "b"),
                  checks.real(c, function, "c")])
    dd = checks.real(d, function, "d")
    length = float(norm(n))
    if length == 0:
        raise ODEError(function, "a, b, c", "the plane normal must not be zero")
    # ODE normalizes the normal and scales d with it
    return np.array([*(n / length), dd / length])


class Ray(Geom):
    CLASS = dRayClass
    NAME = "ray"
    CREATOR = "dCreateRay"
    __slots__ = ("length", "first_contact", "backface_cull", "closest_hit")

    def __init__(self, space, length: float) -> None:
        self.length = _nonneg(length, "dCreateRay", "length")
        self.first_contact = False
        self.backface_cull = False
        self.closest_hit = False
        super().__init__(space)

    def compute_aabb(self) -> np.ndarray:
        p = self.pos
        e = p + self.R[:, 2] * self.length
        lo = np.minimum(p, e)
        hi = np.maximum(p, e)
        return np.array([lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]])


# ----------------------------------------------------------------------------- sphere
def dCreateSphere(space, radius: float) -> Sphere:
    return Sphere(space, radius)


def dGeomSphereSetRadius(sphere, radius: float) -> None:
    geom_of(sphere, "dGeomSphereSetRadius", "sphere", Sphere).radius = _nonneg(
        radius, "dGeomSphereSetRadius", "radius")


def dGeomSphereGetRadius(sphere) -> float:
    return geom_of(sphere, "dGeomSphereGetRadius", "sphere", Sphere).radius


def dGeomSpherePointDepth(sphere, x: float, y: float, z: float) -> float:
    """Depth of a point inside the sphere (> 0 inside, 0 on, < 0 outside), m."""
    g = geom_of(sphere, "dGeomSpherePointDepth", "sphere", Sphere)
    p = checks.xyz(x, y, z, "dGeomSpherePointDepth")
    return g.radius - float(norm(p - g.pos))


# ----------------------------------------------------------------------------- box
def dCreateBox(space, lx: float, ly: float, lz: float) -> Box:
    return Box(space, lx, ly, lz)


def dGeomBoxSetLengths(box, lx: float, ly: float, lz: float) -> None:
    g = geom_of(box, "dGeomBoxSetLengths", "box", Box)
    g.lengths = np.array([_nonneg(v, "dGeomBoxSetLengths", n)
                          for v, n in ((lx, "lx"), (ly, "ly"), (lz, "lz"))])


def dGeomBoxGetLengths(box) -> np.ndarray:
    """Side lengths (3,) m."""
    return geom_of(box, "dGeomBoxGetLengths", "box", Box).lengths.copy()


def dGeomBoxPointDepth(box, x: float, y: float, z: float) -> float:
    """Depth of a point in the box: inside, the distance to the nearest face
    (> 0); outside, minus the distance to the box (see
    docs/decisions/0005-box-point-depth.md: ODE 0.16.2 is wrong outside)."""
    g = geom_of(box, "dGeomBoxPointDepth", "box", Box)
    p = checks.xyz(x, y, z, "dGeomBoxPointDepth")
    q = matmul(g.R.T, p - g.pos)
    half = 0.5 * g.lengths
    d = half - np.abs(q)
    if np.all(d >= 0):
        return float(np.min(d))
    outside = np.maximum(-d, 0.0)
    return -float(norm(outside))


# ----------------------------------------------------------------------------- capsule
def dCreateCapsule(space, radius: float, length: float) -> Capsule:
    return Capsule(space, radius, length)


def dGeomCapsuleSetParams(capsule, radius: float, length: float) -> None:
    g = geom_of(capsule, "dGeomCapsuleSetParams", "capsule", Capsule)
    g.radius = _nonneg(radius, "dGeomCapsuleSetParams", "radius")
    g.length = _nonneg(length, "dGeomCapsuleSetParams", "length")


def dGeomCapsuleGetParams(capsule) -> tuple[float, float]:
    """(radius, length) in m."""
    g = geom_of(capsule, "dGeomCapsuleGetParams", "capsule", Capsule)
    return g.radius, g.length


def dGeomCapsulePointDepth(capsule, x: float, y: float, z: float) -> float:
    """Depth of a point in the capsule (> 0 inside), m."""
    g = geom_of(capsule, "dGeomCapsulePointDepth", "capsule", Capsule)
    p = checks.xyz(x, y, z, "dGeomCapsulePointDepth")
    axis = g.R[:, 2]
    t = float(np.clip(matmul(p - g.pos, axis), -0.5 * g.length, 0.5 * g.length))
    return g.radius - float(norm(p - (g.pos + t * axis)))


dCreateCCylinder = dCreateCapsule
dGeomCCylinderSetParams = dGeomCapsuleSetParams
dGeomCCylinderGetParams = dGeomCapsuleGetParams
dGeomCCylinderPointDepth = dGeomCapsulePointDepth


# ----------------------------------------------------------------------------- cylinder
def dCreateCylinder(space, radius: float, length: float) -> Cylinder:
    return Cylinder(space, radius, length)


def dGeomCylinderSetParams(cylinder, radius: float, length: float) -> None:
    g = geom_of(cylinder, "dGeomCylinderSetParams", "cylinder", Cylinder)
    g.radius = _nonneg(radius, "dGeomCylinderSetParams", "radius")
    g.length = _nonneg(length, "dGeomCylinderSetParams", "length")


def dGeomCylinderGetParams(cylinder) -> tuple[float, float]:
    """(radius, length) in m."""
    g = geom_of(cylinder, "dGeomCylinderGetParams", "cylinder", Cylinder)
    return g.radius, g.length


# ----------------------------------------------------------------------------- plane
def dCreatePlane(space, a: float, b: float, c: float, d: float) -> Plane:
    return Plane(space, a, b, c, d)


def dGeomPlaneSetParams(plane, a: float, b: float, c: float, d: float) -> None:
    g = geom_of(plane, "dGeomPlaneSetParams", "plane", Plane)
    g.params = _plane_params(a, b, c, d, "dGeomPlaneSetParams")


def dGeomPlaneGetParams(plane) -> np.ndarray:
    """(a, b, c, d) with a unit normal, shape (4,)."""
    return geom_of(plane, "dGeomPlaneGetParams", "plane", Plane).params.copy()


def dGeomPlanePointDepth(plane, x: float, y: float, z: float) -> float:
    """Depth of a point below the plane (> 0 below, on the side opposite the normal)."""
    g = geom_of(plane, "dGeomPlanePointDepth", "plane", Plane)
    p = checks.xyz(x, y, z, "dGeomPlanePointDepth")
    return float(g.params[3] - matmul(g.params[:3], p))


# ----------------------------------------------------------------------------- ray
def dCreateRay(space, length: float) -> Ray:
    return Ray(space, length)


def dGeomRaySetLength(ray, length: float) -> None:
    geom_of(ray, "dGeomRaySetLength", "ray", Ray).length = _nonneg(
        length, "dGeomRaySetLength", "length")


def dGeomRayGetLength(ray) -> float:
    return geom_of(ray, "dGeomRayGetLength", "ray", Ray).length


def dGeomRaySet(ray, px: float, py: float, pz: float, dx: float, dy: float, dz: float) -> None:
    """Start the ray at p, pointing along d (normalized; length unchanged)."""
    fn = "dGeomRaySet"
    g = geom_of(ray, fn, "ray", Ray)
    p = checks.xyz(px, py, pz, fn, "px, py, pz")
    d = checks.xyz(dx, dy, dz, fn, "dx, dy, dz")
    n = float(norm(d))
    if n == 0:
        raise ODEError(fn, "dx, dy, dz", "the direction must not be zero")
    d = d / n
    if g.body is None:
        # as ODE: only the direction column of the rotation is written
        g.own_pos = p
        g.own_R = g.own_R.copy()
        g.own_R[:, 2] = d
        return
    # on a body: move the body so the ray starts at p along d (a full rotation)
    u, v = plane_space(d)
    _set_world_R(g, np.column_stack([u, v, d]))
    _set_world_pos(g, p)


def dGeomRayGet(ray) -> tuple[np.ndarray, np.ndarray]:
    """(start (3,), unit direction (3,))."""
    g = geom_of(ray, "dGeomRayGet", "ray", Ray)
    return np.array(g.pos, dtype=float), np.array(g.R[:, 2], dtype=float)


def dGeomRaySetParams(ray, first_contact: int, backface_cull: int) -> None:
    g = geom_of(ray, "dGeomRaySetParams", "ray", Ray)
    g.first_contact = bool(first_contact)
    g.backface_cull = bool(backface_cull)


def dGeomRayGetParams(ray) -> tuple[int, int]:
    """(first_contact, backface_cull)."""
    g = geom_of(ray, "dGeomRayGetParams", "ray", Ray)
    return int(g.first_contact), int(g.backface_cull)


def dGeomRaySetFirstContact(ray, first_contact: int) -> None:
    geom_of(ray, "dGeomRaySetFirstContact", "ray", Ray).first_contact = bool(first_contact)


def dGeomRayGetFirstContact(ray) -> int:
    return int(geom_of(ray, "dGeomRayGetFirstContact", "ray", Ray).first_contact)


def dGeomRaySetBackfaceCull(ray, backface_cull: int) -> None:
    geom_of(ray, "dGeomRaySetBackfaceCull", "ray", Ray).backface_cull = bool(backface_cull)


def dGeomRayGetBackfaceCull(ray) -> int:
    return int(geom_of(ray, "dGeomRayGetBackfaceCull", "ray", Ray).backface_cull)


def dGeomRaySetClosestHit(ray, closest_hit: int) -> None:
    geom_of(ray, "dGeomRaySetClosestHit", "ray", Ray).closest_hit = bool(closest_hit)


def dGeomRayGetClosestHit(ray) -> int:
    return int(geom_of(ray, "dGeomRayGetClosestHit", "ray", Ray).closest_hit)
