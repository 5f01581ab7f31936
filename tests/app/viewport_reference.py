"""numpy statements of the maths the viewport's instance kernels compute
(app/viewport/instance_kernels.py): bounding spheres, the frustum test, the
projected radius and level of detail, the depth order. The tests check the
kernels against them and them against closed forms."""

from __future__ import annotations

import numpy as np

from app.viewport.culling import SLACK_ABS, SLACK_REL


def spheres_visible(centres: np.ndarray, radii: np.ndarray, planes: np.ndarray) -> np.ndarray:
    """(n,) bool: the sphere (``centres`` (n, 3), ``radii`` (n,), metres) may be seen."""
    dist = np.asarray(centres, np.float64) @ planes[:, :3].T + planes[:, 3]  # (n, 6)
    reach = np.asarray(radii, np.float64) * (1.0 + SLACK_REL) + SLACK_ABS
    return np.all(dist >= -reach[:, None], axis=1)


def instance_spheres(blocks: np.ndarray, translations: np.ndarray, centre: np.ndarray,
                     radius: float, stretch: np.ndarray | None = None
                     ) -> tuple[np.ndarray, np.ndarray]:
    """World bounding spheres of instances: ``(centres (n, 3), radii (n,))`` in metres.

    The instances' local -> world transforms are given as their (n, 3, 3)
    ``blocks`` and (n, 3) ``translations``. The mesh's sphere (``centre``
    (3,), ``radius``) maps to centre ``A c + t``; the block A stretches any
    vector by at most its largest singular value, which for A = R S (rotation
    times axis scales) is the largest column norm |A e_i| = |s_i|. That norm
    times ``stretch`` (n,) (see `shear_stretch` of the static part; 1 if None)
    scales the radius.
    """
    centres = translations
    if np.any(centre):
        centres = translations + np.einsum("nij,j->ni", blocks, centre)
    scale = np.sqrt(np.max(np.einsum("nij,nij->nj", blocks, blocks), axis=1))
    if stretch is not None:
        scale = scale * stretch
    return centres, radius * scale


def projected_radius_px(centres: np.ndarray, radii: np.ndarray, viewproj: np.ndarray,
                        height_px: int) -> np.ndarray:
    """(n,) radius in pixels of the screen disc of each bounding sphere (inf if it holds the eye).

    ``centres`` (n, 3) and ``radii`` (n,) in metres, ``viewproj`` (4, 4)
    world -> clip, ``height_px`` the viewport height. Maths: the clip w of the
    centre is its depth d along the view axis (perspective; row 3 of the
    projection is -z_eye) or 1 (orthographic, row 3 = (0, 0, 0, 1)). Row 1 of
    P V is f * (camera up row) with f = cot(fovy / 2) (perspective) or
    2 / (top - bottom) (orthographic), so f is the norm of its first three
    entries and a world length l at depth d spans ``l * f / d`` NDC units,
    i.e. ``l * f / d * height_px / 2`` pixels. A sphere of radius r at depth d
    seen from the eye subtends a cone with sin(a) = r / d, whose trace on the
    image plane has radius f tan(a) = f r / sqrt(d^2 - r^2) (the exact
    on-axis value, slightly larger than r f / d close up, never smaller).
    """
    c = np.asarray(centres, np.float64)
    r = np.asarray(radii, np.float64)
    vp = np.asarray(viewproj, np.float64)
    focal_px = np.linalg.norm(vp[1, :3]) * height_px / 2.0
    if np.linalg.norm(vp[3, :3]) < 1e-12:  # orthographic: no perspective division by depth
        return r * focal_px / max(abs(vp[3, 3]), 1e-12)
    depth = c @ vp[3, :3] + vp[3, 3]
    d2 = depth * depth - r * r
    with np.errstate(divide="ignore", invalid="ignore"):
        out = r * focal_px / np.sqrt(d2)
    return np.where((depth > r) & (d2 > 0), out, np.inf)


def choose_levels(radius_px: np.ndarray, max_radius_px: np.ndarray) -> np.ndarray:
    """(n,) level index of each instance: the first k with radius_px <= max_radius_px[k]."""
    return np.searchsorted(max_radius_px, radius_px, side="left")


def view_depths(centres: np.ndarray, viewproj: np.ndarray) -> np.ndarray:
    """Clip-space w of points ``centres`` (n, 3) (m): their distance in front of the
    camera along its axis for a perspective ``viewproj`` (4, 4) (a constant for an
    orthographic one, where the order then stays the given one)."""
    return centres @ viewproj[3, :3] + viewproj[3, 3]
