"""Small loaders for Mesh boundingObjects: Wavefront OBJ and STL (ASCII or binary).

Both return ``(vertices, indices)``: vertices (n, 3) float64 in metres and
triangle indices (m, 3) int32 (polygons are fanned into triangles).
"""

from __future__ import annotations

import os
import struct

import numpy as np


class MeshError(ValueError):
    """A mesh file that cannot be read; the message names the file."""


def load_mesh(path: str) -> tuple[np.ndarray, np.ndarray]:
    """Vertices (n, 3) and triangles (m, 3) of an ``.obj`` or ``.stl`` file."""
    ext = os.path.splitext(path)[1].lower()
    if ext == ".obj":
        return load_obj(path)
    if ext == ".stl":
        return load_stl(path)
    raise MeshError(f"{path}: unsupported mesh format '{ext}' (use .obj or .stl)")


def load_obj(path: str) -> tuple[np.ndarray, np.ndarray]:
    """Read the ``v`` and ``f`` lines of a Wavefront OBJ file (all objects merged)."""
    vertices: list[tuple[float, float, float]] = []
    triangles: list[tuple[int, int, int]] = []
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for lineno, line in enumerate(f, 1):
                parts = line.split()
                if not parts:
                    continue
                if parts[0] == "v":
                    if len(parts) < 4:
                        raise MeshError(f"{path}:{lineno}: a vertex needs 3 coordinates")
                    vertices.append((float(parts[1]), float(parts[2]), float(parts[3])))
                elif parts[0] == "f":
                    idx = [_obj_index(p, len(vertices), path, lineno) for p in parts[1:]]
                    for k in range(1, len(idx) - 1):
                        triangles.append((idx[0], idx[k], idx[k + 1]))
    except OSError as exc:
        raise MeshError(f"{path}: {exc.strerror}") from None
    except ValueError as exc:
        if isinstance(exc, MeshError):
            raise
        raise MeshError(f"{path}: {exc}") from None
    return _finish(path, vertices, triangles)


def _obj_index(token: str, nverts: int, path: str, lineno: int) -> int:
    i = int(token.split("/")[0])
    i = i - 1 if i > 0 else nverts + i   # OBJ indices are 1-based; negative = relative
    if not 0 <= i < nverts:
        raise MeshError(f"{path}:{lineno}: face index {token} out of range")
    return i


def load_stl(path: str) -> tuple[np.ndarray, np.ndarray]:
    """Read an STL file; identical vertices are merged so the mesh has shared edges."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        raise MeshError(f"{path}: {exc.strerror}") from None
    if len(data) >= 84:
        (count,) = struct.unpack_from("<I", data, 80)
        if 84 + 50 * count == len(data):
            raw = np.frombuffer(data, dtype=np.dtype([
                ("n", "<f4", 3), ("v", "<f4", (3, 3)), ("attr", "<u2")]), count=count, offset=84)
            corners = raw["v"].reshape(-1, 3).astype(np.float64)
            return _merge(path, corners)
    text = data.decode("ascii", errors="replace")
    corners_list = []
    for line in text.splitlines():
        parts = line.split()
        if parts and parts[0] == "vertex":
            try:
                corners_list.append([float(v) for v in parts[1:4]])
            except ValueError:
                raise MeshError(f"{path}: bad vertex line {line.strip()!r}") from None
    if not corners_list or len(corners_list) % 3:
        raise MeshError(f"{path}: not a valid STL file")
    return _merge(path, np.array(corners_list))


def _merge(path: str, corners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    verts, inverse = np.unique(corners, axis=0, return_inverse=True)
    tris = inverse.reshape(-1, 3)
    return _finish(path, verts, tris)


def _finish(path: str, vertices, triangles) -> tuple[np.ndarray, np.ndarray]:
    v = np.asarray(vertices, dtype=np.float64).reshape(-1, 3)
    t = np.asarray(triangles, dtype=np.int32).reshape(-1, 3)
    if len(t) == 0:
        raise MeshError(f"{path}: the mesh has no triangles")
    if not np.isfinite(v).all():
        raise MeshError(f"{path}: the mesh has non-finite coordinates")
    return v, t
