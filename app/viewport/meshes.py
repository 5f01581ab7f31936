"""Triangle and edge meshes for every Webots geometry type.

A `MeshData` holds a triangle soup (``positions``, ``normals``: (n, 3)
float32, n a multiple of 3) and an edge list (``edges``: (m, 3) float32, m
even, drawn as GL_LINES for boundingObjects). Primitive meshes are unit
shapes scaled per instance (Box: unit cube, Sphere: radius 1, Cylinder:
radius 1 height 1, Plane: 1 x 1); Capsule, IndexedFaceSet, ElevationGrid and
Mesh are built at their real size. Webots R2022+ (ENU): Cylinder and Capsule
axes are along Z; Plane and ElevationGrid lie in the XY plane, Z up.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass
class MeshData:
    """Triangle soup and edges of one geometry, in its local frame."""

    positions: np.ndarray
    normals: np.ndarray
    edges: np.ndarray


def _finish(tri: np.ndarray, normals: np.ndarray | None = None,
            edges: np.ndarray | None = None) -> MeshData:
    tri = np.asarray(tri, dtype=np.float32).reshape(-1, 3)
    if normals is None:
        normals = _flat_normals(tri)
    if edges is None:
        t = tri.reshape(-1, 3, 3)
        edges = np.stack([t[:, 0], t[:, 1], t[:, 1], t[:, 2], t[:, 2], t[:, 0]], axis=1)
    return MeshData(tri, np.asarray(normals, np.float32).reshape(-1, 3),
                    np.asarray(edges, np.float32).reshape(-1, 3))


def _flat_normals(tri: np.ndarray) -> np.ndarray:
    t = tri.reshape(-1, 3, 3).astype(np.float64)
    n = np.cross(t[:, 1] - t[:, 0], t[:, 2] - t[:, 0])
    length = np.linalg.norm(n, axis=1, keepdims=True)
    n = n / np.where(length > 0, length, 1.0)
    return np.repeat(n, 3, axis=0)


def unit_box() -> MeshData:
    """Cube of side 1 centred at the origin."""
    tris, norms = [], []
    for axis in range(3):
        for sign in (-1.0, 1.0):
            n = np.zeros(3)
            n[axis] = sign
            u, v = np.zeros(3), np.zeros(3)
            u[(axis + 1) % 3], v[(axis + 2) % 3] = 0.5, 0.5
            c = n * 0.5
            quad = [c - u - v, c + u - v, c + u + v, c - u + v]
            if sign < 0:
                quad = quad[::-1]
            tris += [quad[0], quad[1], quad[2], quad[0], quad[2], quad[3]]
            norms += [n] * 6
    corners = np.array([[x, y, z] for x in (-.5, .5) for y in (-.5, .5) for z in (-.5, .5)])
    edges = [corners[i] for a in range(8) for b in range(a + 1, 8)
             if np.sum(corners[a] != corners[b]) == 1 for i in (a, b)]
    return _finish(np.array(tris), np.array(norms), np.array(edges))


def _ring(radius: float, z: float, n: int) -> np.ndarray:
    a = np.linspace(0.0, 2 * np.pi, n + 1)
    return np.stack([radius * np.cos(a), radius * np.sin(a), np.full(n + 1, z)], axis=1)


def _circle_edges(ring: np.ndarray) -> np.ndarray:
    return np.stack([ring[:-1], ring[1:]], axis=1).reshape(-1, 3)


def _lathe(profile: np.ndarray, segments: int) -> tuple[np.ndarray, np.ndarray]:
    """Surface of revolution about Z of a (k, 2) profile (r, z) with (k, 2) normals (nr, nz)."""
    pr, pn = profile[:, :2], profile[:, 2:]
    a = np.linspace(0.0, 2 * np.pi, segments + 1)
    ca, sa = np.cos(a), np.sin(a)
    def rev(q: np.ndarray) -> np.ndarray:
        return np.stack([q[:, None, 0] * ca, q[:, None, 0] * sa,
                         np.repeat(q[:, None, 1], len(a), 1)], 2)

    P, N = rev(pr), rev(pn)
    i, j = np.meshgrid(np.arange(len(pr) - 1), np.arange(segments), indexing="ij")
    i, j = i.ravel(), j.ravel()
    idx = [(i, j), (i, j + 1), (i + 1, j + 1), (i, j), (i + 1, j + 1), (i + 1, j)]
    tri = np.stack([P[a_, b_] for a_, b_ in idx], 1).reshape(-1, 3)
    nor = np.stack([N[a_, b_] for a_, b_ in idx], 1).reshape(-1, 3)
    return tri, nor


def _great_circles(segments: int) -> np.ndarray:
    """(6 * segments, 3) edges of the three axis great circles of the unit sphere."""
    ring = _ring(1.0, 0.0, segments)
    return np.concatenate([_circle_edges(ring), _circle_edges(ring[:, [0, 2, 1]]),
                           _circle_edges(ring[:, [2, 0, 1]])])


def unit_sphere(rings: int = 10, segments: int = 18) -> MeshData:
    """Sphere of radius 1 (UV sphere; smooth normals)."""
    t = np.linspace(-np.pi / 2, np.pi / 2, rings + 1)
    prof = np.stack([np.cos(t), np.sin(t), np.cos(t), np.sin(t)], 1)
    tri, nor = _lathe(prof, segments)
    return _finish(tri, nor, _great_circles(48))


_ICO_T = (1.0 + np.sqrt(5.0)) / 2.0
_ICO_VERTS = np.array([[-1, _ICO_T, 0], [1, _ICO_T, 0], [-1, -_ICO_T, 0], [1, -_ICO_T, 0],
                       [0, -1, _ICO_T], [0, 1, _ICO_T], [0, -1, -_ICO_T], [0, 1, -_ICO_T],
                       [_ICO_T, 0, -1], [_ICO_T, 0, 1], [-_ICO_T, 0, -1], [-_ICO_T, 0, 1]])
_ICO_FACES = np.array([[0, 11, 5], [0, 5, 1], [0, 1, 7], [0, 7, 10], [0, 10, 11],
                       [1, 5, 9], [5, 11, 4], [11, 10, 2], [10, 7, 6], [7, 1, 8],
                       [3, 9, 4], [3, 4, 2], [3, 2, 6], [3, 6, 8], [3, 8, 9],
                       [4, 9, 5], [2, 4, 11], [6, 2, 10], [8, 6, 7], [9, 8, 1]])


def icosphere(subdivisions: int, circle_segments: int = 48) -> MeshData:
    """Sphere of radius 1: an icosahedron whose triangles are split in 4, ``subdivisions`` times.

    20 * 4**subdivisions counter-clockwise (outward) triangles with smooth
    normals; edges are three great circles of ``circle_segments`` segments.
    """
    v = _ICO_VERTS / np.linalg.norm(_ICO_VERTS, axis=1, keepdims=True)
    tri = v[_ICO_FACES]                                   # (f, 3 corners, 3)
    for _ in range(subdivisions):
        a, b, c = tri[:, 0], tri[:, 1], tri[:, 2]
        ab, bc, ca = (a + b), (b + c), (c + a)
        ab, bc, ca = (m / np.linalg.norm(m, axis=1, keepdims=True) for m in (ab, bc, ca))
        tri = np.concatenate([np.stack(t, 1) for t in
                              ((a, ab, ca), (ab, b, bc), (ca, bc, c), (ab, bc, ca))])
    pos = tri.reshape(-1, 3)
    return _finish(pos, pos, _great_circles(circle_segments))


def sphere_gap(mesh: MeshData) -> float:
    """Largest gap between the unit sphere and an inscribed triangle mesh, in radii.

    A triangle with its corners on the unit sphere lies in a plane at distance
    ``|n . a|`` (unit normal n, corner a) from the centre; the sphere bulges
    out of it by ``1 - |n . a|``, the worst silhouette error of that face.
    """
    t = mesh.positions.reshape(-1, 3, 3).astype(np.float64)
    n = np.cross(t[:, 1] - t[:, 0], t[:, 2] - t[:, 0])
    n /= np.linalg.norm(n, axis=1, keepdims=True)
    return float(1.0 - np.min(np.abs(np.sum(n * t[:, 0], axis=1))))


def _disc(radius: float, z: float, up: bool, segments: int) -> tuple[np.ndarray, np.ndarray]:
    ring = _ring(radius, z, segments)
    c = np.array([0.0, 0.0, z])
    tri = []
    for k in range(segments):
        a, b = ring[k], ring[k + 1]
        tri += [c, a, b] if up else [c, b, a]
    nor = np.tile([0.0, 0.0, 1.0 if up else -1.0], (len(tri), 1))
    return np.array(tri), nor


def unit_cylinder(segments: int = 36) -> MeshData:
    """Cylinder of radius 1 and height 1 along Z, centred at the origin."""
    side, sn = _lathe(np.array([[1.0, -0.5, 1.0, 0.0], [1.0, 0.5, 1.0, 0.0]]), segments)
    top, tn = _disc(1.0, 0.5, True, segments)
    bot, bn = _disc(1.0, -0.5, False, segments)
    ring_t, ring_b = _ring(1.0, 0.5, segments), _ring(1.0, -0.5, segments)
    verticals = np.array([p for k in range(0, segments, max(1, segments // 4))
                          for p in (ring_b[k], ring_t[k])])
    edges = np.concatenate([_circle_edges(ring_t), _circle_edges(ring_b), verticals])
    return _finish(np.concatenate([side, top, bot]), np.concatenate([sn, tn, bn]), edges)


def capsule(radius: float, height: float, segments: int = 24, rings: int = 8,
            circle_segments: int = 48) -> MeshData:
    """Capsule along Z: a cylinder of ``height`` with hemispherical caps of ``radius``.

    ``segments`` around the axis, ``rings`` per cap; the edge circles have
    ``circle_segments`` segments.
    """
    h = height / 2.0
    t_top = np.linspace(0.0, np.pi / 2, rings + 1)
    t_bot = np.linspace(-np.pi / 2, 0.0, rings + 1)
    bot = np.stack([radius * np.cos(t_bot), -h + radius * np.sin(t_bot),
                    np.cos(t_bot), np.sin(t_bot)], 1)
    top = np.stack([radius * np.cos(t_top), h + radius * np.sin(t_top),
                    np.cos(t_top), np.sin(t_top)], 1)
    tri, nor = _lathe(np.concatenate([bot, top]), segments)
    ring_t, ring_b = _ring(radius, h, circle_segments), _ring(radius, -h, circle_segments)
    arc = np.concatenate([bot[:, :2], top[:, :2]])
    side_arcs = []
    for ang in (0.0, np.pi / 2, np.pi, 1.5 * np.pi):
        pts = np.stack([arc[:, 0] * np.cos(ang), arc[:, 0] * np.sin(ang), arc[:, 1]], 1)
        side_arcs.append(np.stack([pts[:-1], pts[1:]], 1).reshape(-1, 3))
    edges = np.concatenate([_circle_edges(ring_t), _circle_edges(ring_b)] + side_arcs)
    return _finish(tri, nor, edges)


#: Cells along each side of a Plane's mesh: planes are lit per vertex
#: (app/viewport/mesh_drawer.py), so the highlight of a light is interpolated
#: between the corners of these cells.
PLANE_CELLS = 8


def unit_plane(cells: int = PLANE_CELLS) -> MeshData:
    """1 x 1 square in the XY plane, normal +Z (drawn two-sided), as ``cells`` x
    ``cells`` squares of two triangles; its edges are the outline."""
    ticks = np.linspace(-0.5, 0.5, cells + 1)
    x0, y0 = (a.ravel() for a in np.meshgrid(ticks[:-1], ticks[:-1], indexing="ij"))
    x1, y1 = x0 + 1.0 / cells, y0 + 1.0 / cells
    z = np.zeros_like(x0)
    corners = [np.stack(c, axis=1) for c in ((x0, y0, z), (x1, y0, z), (x1, y1, z),
                                             (x0, y1, z))]
    tri = np.stack([corners[k] for k in (0, 1, 2, 0, 2, 3)], axis=1).reshape(-1, 3)
    q = np.array([[-.5, -.5, 0], [.5, -.5, 0], [.5, .5, 0], [-.5, .5, 0]])
    edges = q[[0, 1, 1, 2, 2, 3, 3, 0]]
    return _finish(tri, np.tile([0.0, 0.0, 1.0], (len(tri), 1)), edges)


def indexed_face_set(points: Sequence[Sequence[float]], coord_index: Sequence[int],
                     ccw: bool = True) -> MeshData | None:
    """Triangle fans of the faces of an IndexedFaceSet (faces end at index -1)."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 3)
    tris: list[np.ndarray] = []
    edges: list[np.ndarray] = []
    face: list[int] = []
    for i in list(coord_index) + [-1]:
        if i >= 0:
            face.append(int(i))
            continue
        face = [k for k in face if k < len(pts)]
        if len(face) >= 3:
            for k in range(1, len(face) - 1):
                tri = [face[0], face[k], face[k + 1]] if ccw else [face[0], face[k + 1], face[k]]
                tris.append(pts[tri])
            ring = face + face[:1]
            edges += [pts[[a, b]] for a, b in zip(ring[:-1], ring[1:], strict=True)]
        face = []
    if not tris:
        return None
    return _finish(np.concatenate(tris), None, np.concatenate(edges))


def elevation_grid(heights: Sequence[float], nx: int, ny: int, dx: float,
                   dy: float) -> MeshData | None:
    """ElevationGrid: ``nx`` x ``ny`` heights (x fastest), x along X, y along Y, heights Z."""
    if nx < 2 or ny < 2 or len(heights) < nx * ny:
        return None
    h = np.asarray(heights[: nx * ny], dtype=np.float64).reshape(ny, nx)
    X, Y = np.meshgrid(np.arange(nx) * dx, np.arange(ny) * dy)
    P = np.stack([X, Y, h], axis=2)
    a, b, c, d = P[:-1, :-1], P[:-1, 1:], P[1:, 1:], P[1:, :-1]
    tri = np.stack([a, b, c, a, c, d], axis=2).reshape(-1, 3)
    edges = np.concatenate([np.stack([P[:, :-1], P[:, 1:]], 2).reshape(-1, 3),
                            np.stack([P[:-1, :], P[1:, :]], 2).reshape(-1, 3)])
    return _finish(tri, None, edges)


def load_obj(path: str) -> MeshData | None:
    """A Wavefront .obj file's faces (``v`` and ``f`` lines only), or None if unreadable."""
    if not path.lower().endswith(".obj") or not os.path.isfile(path):
        return None
    verts: list[list[float]] = []
    index: list[int] = []
    with open(path, encoding="utf-8", errors="replace") as fh:
        for line in fh:
            parts = line.split()
            if not parts:
                continue
            if parts[0] == "v" and len(parts) >= 4:
                verts.append([float(v) for v in parts[1:4]])
            elif parts[0] == "f":
                face = [int(p.split("/")[0]) for p in parts[1:]]
                index += [(k - 1 if k > 0 else len(verts) + k) for k in face] + [-1]
    return indexed_face_set(verts, index) if verts else None
