"""The per-frame work of an instance group (mesh_drawer.py), compiled (numba).

Every frame that brings new poses, each `InstanceGroup` recomputes its
instances' model matrices and bounding spheres (`fill_instance_rows`), then
culls them against the view frustum, picks each one's level of detail and
way of shading, and sorts the rows near to far within each (level, shading)
bucket (`bucket_instances`). Done with numpy this was some 60 array
operations a group and frame, 1.6 ms of the GUI thread with 1000 bodies,
each small operation paying numpy's call overhead and many of them giving
the GIL away and waiting to take it back from the engine thread. These two
kernels do it in one pass each, without the GIL (about 0.1 ms).

The maths is stated in numpy in tests/app/viewport_reference.py, which the
tests check the kernels against: `instance_spheres` (bounding spheres),
`spheres_visible` (frustum test with culling.py's slack),
`projected_radius_px` and `choose_levels` (level of detail), and
`view_depths` (near to far).

numba compiles them once per machine into its cache (``NUMBA_CACHE_DIR``);
the installation's warm-up does it (``python -m app.warmup``, run by the
Makefile after the engine's), so the first paint does not wait for the
compiler.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from app.viewport.culling import SLACK_ABS, SLACK_REL


@njit(cache=True, nogil=True)
def fill_instance_rows(solid_world: np.ndarray, solid: np.ndarray, local: np.ndarray,
                       mesh_centre: np.ndarray, mesh_radius: float, stretch: np.ndarray,
                       rows: np.ndarray, centres: np.ndarray, radii: np.ndarray) -> None:
    """Model matrices and world bounding spheres of a group's n instances.

    ``solid_world`` (S + 1, 4, 4) the Solids' world transforms (the last one
    the world's), ``solid`` (n,) int64 each instance's Solid (-1: the
    world), ``local`` (n, 4, 4) the instance's transform in its Solid,
    ``mesh_centre`` (3,) and ``mesh_radius`` [m] the mesh's bounding sphere,
    ``stretch`` (n,) `lod.shear_stretch` of ``local``. Writes the model
    matrix ``solid_world[solid] @ local`` column-major into ``rows[:, :16]``
    (n, 21) float32 (colours and pick ids stay), the sphere's world centre
    ``A c + t`` into ``centres`` (n, 3) [m] and its radius, scaled by the
    largest column norm of the 3x3 block A times ``stretch``, into ``radii``
    (n,) [m] (`instance_spheres` of tests/app/viewport_reference.py).
    """
    model = np.empty((4, 4))
    for k in range(solid.shape[0]):
        world = solid_world[solid[k]]
        frame = local[k]
        for i in range(4):
            for j in range(4):
                model[i, j] = (world[i, 0] * frame[0, j] + world[i, 1] * frame[1, j]
                               + world[i, 2] * frame[2, j] + world[i, 3] * frame[3, j])
        for j in range(4):
            for i in range(4):
                rows[k, 4 * j + i] = model[i, j]
        largest = 0.0
        for j in range(3):
            largest = max(largest, model[0, j] ** 2 + model[1, j] ** 2 + model[2, j] ** 2)
        for i in range(3):
            centres[k, i] = (model[i, 0] * mesh_centre[0] + model[i, 1] * mesh_centre[1]
                             + model[i, 2] * mesh_centre[2] + model[i, 3])
        radii[k] = mesh_radius * np.sqrt(largest) * stretch[k]


@njit(cache=True, nogil=True)
def bucket_instances(rows: np.ndarray, centres: np.ndarray, radii: np.ndarray,
                     round_: np.ndarray, planes: np.ndarray, viewproj: np.ndarray,
                     height_px: float, max_radius_px: np.ndarray, cull_back: bool,
                     impostors: bool, vertex_lit_max_px: float, impostor_max_px: float,
                     out_rows: np.ndarray, bounds: np.ndarray) -> int:
    """Cull, choose and sort a group's instances; returns how many are visible.

    In: ``rows`` (n, 21) float32 (`fill_instance_rows`), their bounding
    spheres ``centres`` (n, 3) and ``radii`` (n,) [m], ``round_`` (n,) bool
    (scaled alike along the axes), the frustum ``planes`` (6, 4)
    (`culling.frustum_planes`), ``viewproj`` (4, 4), ``height_px`` the
    viewport height [px], the levels' ``max_radius_px`` (L - 1,) [px], and
    whether the group is drawn with back faces culled and may use impostors.

    Each visible instance gets a slot: 0 an impostor (perspective view, round,
    at most ``impostor_max_px`` big); 2 k + 1 level k shaded per vertex (at
    most ``vertex_lit_max_px``, back faces culled); 2 k + 2 level k shaded per
    fragment. Out: the visible rows in ``out_rows`` (n, 21) sorted by slot,
    near to far within a slot (ties in the given order); ``bounds`` (2 L + 2,)
    int64 the first row of each slot, then the count.
    """
    n = centres.shape[0]
    visible = np.empty(n, np.int64)
    depths = np.empty(n)
    count = 0
    for k in range(n):
        reach = radii[k] * (1.0 + SLACK_REL) + SLACK_ABS
        inside = True
        for p in range(6):
            dist = (centres[k, 0] * planes[p, 0] + centres[k, 1] * planes[p, 1]
                    + centres[k, 2] * planes[p, 2] + planes[p, 3])
            if dist < -reach:
                inside = False
                break
        if inside:
            visible[count] = k
            # the clip w of the centre: its distance along the view axis (perspective)
            depths[count] = (centres[k, 0] * viewproj[3, 0] + centres[k, 1] * viewproj[3, 1]
                             + centres[k, 2] * viewproj[3, 2] + viewproj[3, 3])
            count += 1
    # projected radius as the reference's projected_radius_px: f = |row 1 of P V| (cot(fovy / 2) or
    # 2 / (top - bottom)), r f / sqrt(d^2 - r^2) pixels at depth d (inf when the sphere
    # holds the eye), r f / |w| in an orthographic view (row 3 = (0, 0, 0, w))
    focal_px = np.sqrt(viewproj[1, 0] ** 2 + viewproj[1, 1] ** 2
                       + viewproj[1, 2] ** 2) * height_px / 2.0
    orthographic = np.sqrt(viewproj[3, 0] ** 2 + viewproj[3, 1] ** 2
                           + viewproj[3, 2] ** 2) < 1e-12
    has_eye = viewproj[3, 0] != 0.0 or viewproj[3, 1] != 0.0 or viewproj[3, 2] != 0.0
    slots = np.empty(count, np.int64)
    for q in range(count):
        k = visible[q]
        r = radii[k]
        if orthographic:
            px = r * focal_px / max(abs(viewproj[3, 3]), 1e-12)
        else:
            d = depths[q]
            d2 = d * d - r * r
            px = r * focal_px / np.sqrt(d2) if d > r and d2 > 0.0 else np.inf
        if impostors and has_eye and round_[k] and px <= impostor_max_px:
            slots[q] = 0
            continue
        level = 0  # the first level whose largest radius holds px (choose_levels)
        while level < max_radius_px.shape[0] and max_radius_px[level] < px:
            level += 1
        per_fragment = px > vertex_lit_max_px or not cull_back
        slots[q] = 2 * level + (2 if per_fragment else 1)
    # near to far (a stable sort keeps ties in order), then a stable counting sort
    # by slot
    near_to_far = _stable_order(depths, count)
    for s in range(bounds.shape[0]):
        bounds[s] = 0
    for q in range(count):
        bounds[slots[q] + 1] += 1
    for s in range(1, bounds.shape[0]):
        bounds[s] += bounds[s - 1]
    fill = np.empty(bounds.shape[0], np.int64)
    for s in range(bounds.shape[0]):
        fill[s] = bounds[s]
    for t in range(count):
        q = near_to_far[t]
        dest, src = fill[slots[q]], visible[q]
        for c in range(rows.shape[1]):
            out_rows[dest, c] = rows[src, c]
        fill[slots[q]] += 1
    return count


@njit(cache=True, nogil=True)
def _stable_order(keys: np.ndarray, m: int) -> np.ndarray:
    """(m,) int64 indices that sort ``keys[:m]`` ascending, equal keys in their
    given order: a bottom-up merge sort (numpy's stable argsort takes several
    times longer to compile under numba)."""
    order = np.empty(m, np.int64)
    for i in range(m):
        order[i] = i
    spare = np.empty(m, np.int64)
    width = 1
    while width < m:
        for lo in range(0, m, 2 * width):
            mid, hi = min(lo + width, m), min(lo + 2 * width, m)
            a, b, out = lo, mid, lo
            while a < mid and b < hi:
                if keys[order[b]] < keys[order[a]]:  # the left one wins ties: stable
                    spare[out] = order[b]
                    b += 1
                else:
                    spare[out] = order[a]
                    a += 1
                out += 1
            while a < mid:
                spare[out] = order[a]
                a += 1
                out += 1
            while b < hi:
                spare[out] = order[b]
                b += 1
                out += 1
        order, spare = spare, order
        width *= 2
    return order


def warm_up() -> float:
    """Compile both kernels (or load them from numba's cache) on a tiny group;
    returns the seconds it took."""
    start = time.perf_counter()
    rows = np.zeros((1, 21), np.float32)
    centres, radii = np.zeros((1, 3)), np.zeros(1)
    fill_instance_rows(np.eye(4)[None], np.zeros(1, np.int64), np.eye(4)[None], np.zeros(3),
                       1.0, np.ones(1), rows, centres, radii)
    bucket_instances(rows, centres, radii, np.ones(1, bool), np.zeros((6, 4)), np.eye(4), 1.0,
                     np.ones(1), True, True, 1.0, 1.0, np.zeros_like(rows),
                     np.zeros(4, np.int64))
    return time.perf_counter() - start

