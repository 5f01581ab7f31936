"""Ray colliders: ray against sphere, box, capsule, cylinder and plane.

ODE 0.16.2 semantics (``ray.cpp``): at most one contact, whatever
``max_contacts`` and the ray's first_contact/backface_cull/closest_hit flags
(they only matter for trimesh and convex rays). The contact row is

* ``pos`` (3,) m: the hit point, ``start + depth * dir``;
* ``normal`` (3,): the unit surface normal at the hit, pointing out of the
  solid, except that a ray starting inside a sphere, box, capsule or
  cylinder reports the exit point with the normal pointing *inward*;
* ``depth`` m: the distance along the ray from its start (0 < depth <=
  length; box, sphere, capsule and plane also accept depth 0);
* ``side1 = side2 = -1``.

As ODE, a ray starting inside a capsule whose exit through the infinite
cylinder lies beyond the ray's length reports nothing even when it leaves
through a cap within its length; a ray starting behind a plane reports a hit
only when it points towards the plane (normal then negated). Ray-ray has no
collider (no contacts), as in ODE.

The registered functions take the ray first; :mod:`dispatch` serves the
other argument order by negating the normal.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from engine.ode.collision.geoms.geom import Geom
from engine.ode.collision.table import NO_CONTACTS


# ----------------------------------------------------------------------------- kernels
@njit(cache=True, nogil=True)
def _normalize_into(v: np.ndarray) -> None:
    """Scale v (3,) to unit length in place (left as is when zero)."""
    n = math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2])
    if n > 0.0:
        v[0] /= n
        v[1] /= n
        v[2] /= n


@njit(cache=True, nogil=True)
def _ray_sphere_helper(start: np.ndarray, d: np.ndarray, length: float, center: np.ndarray,
                       radius: float, mode: bool, out: np.ndarray) -> bool:
    """ODE's ray_sphere_helper: the ray (start (3,), unit dir d (3,), length m)
    against a sphere (center (3,), radius m). ``mode``: take the exit point
    when the start is outside the sphere (capsule caps from inside the
    capsule). Fills ``out`` (9,) and returns True on a hit."""
    q0 = start[0] - center[0]
    q1 = start[1] - center[1]
    q2 = start[2] - center[2]
    B = q0 * d[0] + q1 * d[1] + q2 * d[2]
    C = q0 * q0 + q1 * q1 + q2 * q2 - radius * radius
    # C <= 0: the ray starts inside the sphere
    k = B * B - C
    if k < 0.0:
        return False
    k = math.sqrt(k)
    if mode and C >= 0.0:
        alpha = -B + k
        if alpha < 0.0:
            return False
    else:
        alpha = -B - k
        if alpha < 0.0:
            alpha = -B + k
            if alpha < 0.0:
                return False
    if alpha > length:
        return False
    nsign = -1.0 if (C < 0.0 or mode) else 1.0
    for i in range(3):
        out[i] = start[i] + alpha * d[i]
        out[3 + i] = nsign * (out[i] - center[i])
    _normalize_into(out[3:6])
    out[6] = alpha
    out[7] = -1.0
    out[8] = -1.0
    return True


@njit(cache=True, nogil=True)
def ray_sphere_kernel(start: np.ndarray, d: np.ndarray, length: float, center: np.ndarray,
                      radius: float, out: np.ndarray) -> bool:
    """Ray (start (3,), unit dir (3,), length m) vs sphere (center (3,),
    radius m): the nearest hit ahead of the start, or the exit point with an
    inward normal when the ray starts inside. Fills ``out`` (9,)."""
    return _ray_sphere_helper(start, d, length, center, radius, False, out)


@njit(cache=True, nogil=True)
def ray_box_kernel(start: np.ndarray, d: np.ndarray, length: float, bpos: np.ndarray,
                   bR: np.ndarray, sides: np.ndarray, out: np.ndarray) -> bool:
    """Ray (start (3,), unit dir (3,), length m) vs box (center (3,), rotation
    (3,3), side lengths (3,) m), slab test in the box frame: the entry face,
    or the exit face when the ray starts inside. Fills ``out`` (9,)."""
    s = np.empty(3)
    v = np.empty(3)
    sign = np.empty(3)
    h = np.empty(3)
    for i in range(3):
        # box-relative start and direction: R^T (start - pos), R^T d
        s[i] = (bR[0, i] * (start[0] - bpos[0]) + bR[1, i] * (start[1] - bpos[1])
                + bR[2, i] * (start[2] - bpos[2]))
        v[i] = bR[0, i] * d[0] + bR[1, i] * d[1] + bR[2, i] * d[2]
    # mirror the line so that v has all components >= 0
    for i in range(3):
        if v[i] < 0.0:
            s[i] = -s[i]
            v[i] = -v[i]
            sign[i] = 1.0
        else:
            sign[i] = -1.0
        h[i] = 0.5 * sides[i]
    for i in range(3):
        if (s[i] < -h[i] and v[i] <= 0.0) or s[i] > h[i]:
            return False
    if v[0] == 0.0 and v[1] == 0.0 and v[2] == 0.0:
        return False
    lo = -np.inf
    hi = np.inf
    nlo = 0
    nhi = 0
    for i in range(3):
        if v[i] != 0.0:
            k = (-h[i] - s[i]) / v[i]
            if k > lo:
                lo = k
                nlo = i
            k = (h[i] - s[i]) / v[i]
            if k < hi:
                hi = k
                nhi = i
    if lo > hi:
        return False
    if lo >= 0.0:
        alpha = lo
        n = nlo
    else:
        alpha = hi
        n = nhi
    if alpha < 0.0 or alpha > length:
        return False
    for i in range(3):
        out[i] = start[i] + alpha * d[i]
        out[3 + i] = bR[i, n] * sign[n]
    out[6] = alpha
    out[7] = -1.0
    out[8] = -1.0
    return True


@njit(cache=True, nogil=True)
def ray_capsule_kernel(start: np.ndarray, d: np.ndarray, length: float, cpos: np.ndarray,
                       cR: np.ndarray, radius: float, clen: float, out: np.ndarray) -> bool:
    """Ray (start (3,), unit dir (3,), length m) vs capsule (center (3,),
    rotation (3,3), radius m, cylinder length m along local z), as ODE's
    dCollideRayCapsule (infinite cylinder first, then the cap spheres).
    Fills ``out`` (9,)."""
    lz2 = 0.5 * clen
    ax = cR[:, 2]
    cs = np.empty(3)
    q = np.empty(3)
    r = np.empty(3)
    for i in range(3):
        cs[i] = start[i] - cpos[i]
    # position of the ray start along the capsule axis
    k = ax[0] * cs[0] + ax[1] * cs[1] + ax[2] * cs[2]
    for i in range(3):
        q[i] = k * ax[i] - cs[i]
    C = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] - radius * radius
    # C < 0: the start is within the infinite extension of the cylinder
    inside = False
    if C < 0.0:
        if k < -lz2:
            k = -lz2
        elif k > lz2:
            k = lz2
        dd = 0.0
        for i in range(3):
            r[i] = cpos[i] + k * ax[i]
            dd += (start[i] - r[i]) * (start[i] - r[i])
        if dd < radius * radius:
            inside = True
    if not inside and C < 0.0:
        # outside the capsule but inside the infinite cylinder: only a cap
        k = -lz2 if k < 0.0 else lz2
    else:
        uv = ax[0] * d[0] + ax[1] * d[1] + ax[2] * d[2]
        for i in range(3):
            r[i] = uv * ax[i] - d[i]
        A = r[0] * r[0] + r[1] * r[1] + r[2] * r[2]
        if A == 0.0:
            # ray parallel to the axis
            k = -lz2 if uv < 0.0 else lz2
        else:
            B = 2.0 * (q[0] * r[0] + q[1] * r[1] + q[2] * r[2])
            k = B * B - 4.0 * A * C
            if k < 0.0:
                # misses the infinite cylinder; from inside it can reach a cap
                if not inside:
                    return False
                k = -lz2 if uv < 0.0 else lz2
            else:
                k = math.sqrt(k)
                A = 1.0 / (2.0 * A)
                alpha = (-B - k) * A
                if alpha < 0.0:
                    alpha = (-B + k) * A
                    if alpha < 0.0:
                        return False
                if alpha > length:
                    return False
                for i in range(3):
                    out[i] = start[i] + alpha * d[i]
                    q[i] = out[i] - cpos[i]
                k = q[0] * ax[0] + q[1] * ax[1] + q[2] * ax[2]
                nsign = -1.0 if inside else 1.0
                if -lz2 <= k <= lz2:
                    for i in range(3):
                        out[3 + i] = nsign * (out[i] - (cpos[i] + k * ax[i]))
                    _normalize_into(out[3:6])
                    out[6] = alpha
                    out[7] = -1.0
                    out[8] = -1.0
                    return True
                # the infinite-cylinder hit is beyond a cap: check that cap
                k = -lz2 if k < 0.0 else lz2
    for i in range(3):
        q[i] = cpos[i] + k * ax[i]
    return _ray_sphere_helper(start, d, length, q, radius, inside, out)


@njit(cache=True, nogil=True)
def ray_cylinder_kernel(start: np.ndarray, d: np.ndarray, length: float, cpos: np.ndarray,
                        cR: np.ndarray, radius: float, clen: float, out: np.ndarray) -> bool:
    """Ray (start (3,), unit dir (3,), length m) vs cylinder (center (3,),
    rotation (3,3), radius m, length m along local z), as ODE's
    dCollideRayCylinder: caps and side in the cylinder frame, exit point
    with inward normal from inside; a hit needs depth > 0. Fills ``out`` (9,)."""
    hl = 0.5 * clen
    pos = np.empty(3)
    dr = np.empty(3)
    for i in range(3):
        pos[i] = (cR[0, i] * (start[0] - cpos[0]) + cR[1, i] * (start[1] - cpos[1])
                  + cR[2, i] * (start[2] - cpos[2]))
        dr[i] = cR[0, i] * d[0] + cR[1, i] * d[1] + cR[2, i] * d[2]
    r2 = radius * radius
    C = pos[0] * pos[0] + pos[1] * pos[1] - r2
    parallel = dr[0] == 0.0 and dr[1] == 0.0
    perpendicular = dr[2] == 0.0
    in_radius = C <= 0.0
    in_caps = abs(pos[2]) <= hl
    check_caps = (not perpendicular) and ((not in_caps) or in_radius)
    check_cyl = (not parallel) and ((not in_radius) or in_caps)
    flip_normals = in_caps and in_radius
    tt = -np.inf
    tmp = np.empty(3)
    nrm = np.empty(3)
    if check_caps:
        # mirror so that only the +z cap needs checking
        flip_dir = (dr[2] < 0.0 and flip_normals) or (dr[2] > 0.0 and not flip_normals)
        pz = -pos[2] if flip_dir else pos[2]
        dz = -dr[2] if flip_dir else dr[2]
        tt = (hl - pz) / dz
        if 0.0 <= tt <= length:
            tmp[0] = pos[0] + tt * dr[0]
            tmp[1] = pos[1] + tt * dr[1]
            if tmp[0] * tmp[0] + tmp[1] * tmp[1] <= r2:
                tmp[2] = -hl if flip_dir else hl
                nrm[0] = 0.0
                nrm[1] = 0.0
                nrm[2] = -1.0 if flip_dir != flip_normals else 1.0
                check_cyl = False
            else:
                tt = -np.inf
        else:
            tt = -np.inf
    if check_cyl:
        A = dr[0] * dr[0] + dr[1] * dr[1]
        B = 2.0 * (pos[0] * dr[0] + pos[1] * dr[1])
        k = B * B - 4.0 * A * C
        if k >= 0.0 and (B < 0.0 or B * B <= k):
            k = math.sqrt(k)
            A = 1.0 / (2.0 * A)
            if abs(B) <= k:
                tt = (-B + k) * A  # the second root: the start is inside
            else:
                tt = (-B - k) * A
            if tt <= length:
                tmp[2] = pos[2] + tt * dr[2]
                if abs(tmp[2]) <= hl:
                    tmp[0] = pos[0] + tt * dr[0]
                    tmp[1] = pos[1] + tt * dr[1]
                    sgn = -1.0 if flip_normals else 1.0
                    nrm[0] = sgn * tmp[0] / radius
                    nrm[1] = sgn * tmp[1] / radius
                    nrm[2] = 0.0
                else:
                    tt = -np.inf
            else:
                tt = -np.inf
    if not tt > 0.0:
        return False
    for i in range(3):
        out[i] = cpos[i] + cR[i, 0] * tmp[0] + cR[i, 1] * tmp[1] + cR[i, 2] * tmp[2]
        out[3 + i] = cR[i, 0] * nrm[0] + cR[i, 1] * nrm[1] + cR[i, 2] * nrm[2]
    out[6] = tt
    out[7] = -1.0
    out[8] = -1.0
    return True


@njit(cache=True, nogil=True)
def ray_plane_kernel(start: np.ndarray, d: np.ndarray, length: float, params: np.ndarray,
                     out: np.ndarray) -> bool:
    """Ray (start (3,), unit dir (3,), length m) vs plane ``params`` (4,) =
    unit normal n and offset m (n·x = offset): the crossing point, normal n
    (-n when the start is behind the plane). Fills ``out`` (9,)."""
    alpha = params[3] - (params[0] * start[0] + params[1] * start[1] + params[2] * start[2])
    # alpha > 0: the start is behind the plane
    nsign = -1.0 if alpha > 0.0 else 1.0
    k = params[0] * d[0] + params[1] * d[1] + params[2] * d[2]
    if k == 0.0:
        return False
    alpha /= k
    if alpha < 0.0 or alpha > length:
        return False
    for i in range(3):
        out[i] = start[i] + alpha * d[i]
        out[3 + i] = nsign * params[i]
    out[6] = alpha
    out[7] = -1.0
    out[8] = -1.0
    return True


# ----------------------------------------------------------------------------- colliders
def _ray_arrays(ray: Geom) -> tuple[np.ndarray, np.ndarray, float]:
    """(start (3,), unit direction (3,), length m) of a ray geom as float64."""
    return (np.ascontiguousarray(ray.pos, dtype=np.float64),
            np.ascontiguousarray(ray.R[:, 2], dtype=np.float64), float(ray.length))


def _frame(g: Geom) -> tuple[np.ndarray, np.ndarray]:
    """(position (3,), rotation (3,3)) of a placeable geom as contiguous float64."""
    return (np.ascontiguousarray(g.pos, dtype=np.float64),
            np.ascontiguousarray(g.R, dtype=np.float64))


def _rows(hit: bool, out: np.ndarray) -> np.ndarray:
    return out.reshape(1, 9) if hit else NO_CONTACTS


def ray_sphere(ray: Geom, sphere: Geom, max_contacts: int) -> np.ndarray:
    """Contacts (0 or 1, shape (k, 9)) of a ray with a sphere."""
    s, d, length = _ray_arrays(ray)
    out = np.empty(9)
    hit = ray_sphere_kernel(s, d, length, np.ascontiguousarray(sphere.pos, dtype=np.float64),
                            float(sphere.radius), out)
    return _rows(hit, out)


def ray_box(ray: Geom, box: Geom, max_contacts: int) -> np.ndarray:
    """Contacts (0 or 1, shape (k, 9)) of a ray with a box."""
    s, d, length = _ray_arrays(ray)
    p, R = _frame(box)
    out = np.empty(9)
    hit = ray_box_kernel(s, d, length, p, R, np.ascontiguousarray(box.lengths, dtype=np.float64),
                         out)
    return _rows(hit, out)


def ray_capsule(ray: Geom, capsule: Geom, max_contacts: int) -> np.ndarray:
    """Contacts (0 or 1, shape (k, 9)) of a ray with a capsule."""
    s, d, length = _ray_arrays(ray)
    p, R = _frame(capsule)
    out = np.empty(9)
    hit = ray_capsule_kernel(s, d, length, p, R, float(capsule.radius), float(capsule.length),
                             out)
    return _rows(hit, out)


def ray_cylinder(ray: Geom, cylinder: Geom, max_contacts: int) -> np.ndarray:
    """Contacts (0 or 1, shape (k, 9)) of a ray with a cylinder."""
    s, d, length = _ray_arrays(ray)
    p, R = _frame(cylinder)
    out = np.empty(9)
    hit = ray_cylinder_kernel(s, d, length, p, R, float(cylinder.radius),
                              float(cylinder.length), out)
    return _rows(hit, out)


def ray_plane(ray: Geom, plane: Geom, max_contacts: int) -> np.ndarray:
    """Contacts (0 or 1, shape (k, 9)) of a ray with a plane."""
    s, d, length = _ray_arrays(ray)
    out = np.empty(9)
    hit = ray_plane_kernel(s, d, length, np.ascontiguousarray(plane.params, dtype=np.float64),
                           out)
    return _rows(hit, out)
