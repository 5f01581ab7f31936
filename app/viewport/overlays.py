"""Line geometry of the overlays: ground grid, contacts (points, normals, forces), trails.

Pure numpy: each function returns ``(points (2k, 3), colors (2k, 4))`` for a
`LineBatch`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from engine.contact.pipeline import CONTACT_OPEN, CONTACT_SLIDING, CONTACT_STICKING
from engine.sim.frame import STATE_UNKNOWN, ContactInfo, ContactSet

GRID_COLOR = (0.45, 0.45, 0.45, 1.0)
CONTACT_COLOR = (1.0, 0.55, 0.0, 1.0)
NORMAL_COLOR = (0.0, 1.0, 0.3, 1.0)
FORCE_COLOR = (0.1, 0.4, 1.0, 1.0)
#: Contact colours by `ContactSet.state` (robust model): open, sticking, sliding;
#: a contact of unknown state (default model, plugin contacts) keeps `CONTACT_COLOR`.
STATE_COLORS = {CONTACT_OPEN: (0.6, 0.6, 0.6, 1.0), CONTACT_STICKING: (0.1, 0.85, 0.1, 1.0),
                CONTACT_SLIDING: (1.0, 0.1, 0.5, 1.0)}
TRAIL_COLORS = ((1.0, 0.2, 0.6, 1.0), (0.2, 0.9, 0.9, 1.0), (1.0, 0.9, 0.1, 1.0),
                (0.6, 0.4, 1.0, 1.0))


def grid_lines(extent: float = 10.0, spacing: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """Lines of a square grid in the z = 0 plane, from -extent to +extent."""
    v = np.arange(-extent, extent + spacing / 2, spacing)
    n = len(v)
    a = np.zeros((n, 2, 3))
    a[:, 0, 0], a[:, 1, 0], a[:, :, 1] = -extent, extent, v[:, None]
    b = a[:, :, [1, 0, 2]]
    pts = np.concatenate([a, b]).reshape(-1, 3)
    return pts, np.tile(GRID_COLOR, (len(pts), 1))


def arrows(start: np.ndarray, vec: np.ndarray) -> np.ndarray:
    """(k * 6, 3) segments of k arrows: shaft plus two head strokes (20 % of the length)."""
    end = start + vec
    length = np.linalg.norm(vec, axis=1, keepdims=True)
    d = vec / np.where(length > 1e-12, length, 1.0)
    side = np.cross(d, [0.0, 0.0, 1.0])
    vertical = np.linalg.norm(side, axis=1) < 1e-6
    side[vertical] = np.cross(d[vertical], [1.0, 0.0, 0.0])
    side /= np.maximum(np.linalg.norm(side, axis=1, keepdims=True), 1e-12)
    head = 0.2 * length
    back = end - head * d
    segs = np.stack([start, end, end, back + 0.5 * head * side, end, back - 0.5 * head * side], 1)
    return segs[length[:, 0] > 1e-9].reshape(-1, 3)


def state_colors(state: np.ndarray) -> np.ndarray:
    """(m, 4) RGBA of contacts of ``state`` (m,) int: `STATE_COLORS`, else `CONTACT_COLOR`."""
    out = np.tile(np.asarray(CONTACT_COLOR, np.float64), (len(state), 1))
    for value, color in STATE_COLORS.items():
        out[np.asarray(state) == value] = color
    return out


def cluster_scale(cluster_size: np.ndarray) -> np.ndarray:
    """(m,) >= 1: how much larger a contact's cross is drawn for its ``cluster_size`` (m,)
    (the square root: a cluster of 4 contacts twice, of 16 four times the size)."""
    return np.sqrt(np.maximum(np.asarray(cluster_size, np.float64), 1.0))


def contact_lines(contacts: ContactSet | Iterable[ContactInfo], show_points: bool,
                  show_forces: bool, point_size: float = 0.03, normal_length: float = 0.1,
                  force_scale: float = 0.05, *, by_state: bool = False,
                  by_cluster: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Contact crosses and normals (``show_points``) and force arrows (``show_forces``).

    Each contact has ``pos`` (3,), ``normal`` (3,), ``depth`` and ``force``
    ((3,) in newtons or None); arrows are ``force * force_scale`` metres long.
    For a `ContactSet`, ``by_state`` colours the crosses and normals by the
    contacts' ``state`` (`state_colors`) and ``by_cluster`` draws each cross
    `cluster_scale` times ``point_size`` for its ``cluster_size``.
    """
    state = np.full(0, STATE_UNKNOWN, np.int8)
    cluster = np.ones(0)
    if isinstance(contacts, ContactSet):  # a frame's contacts: their arrays
        all_P, all_N = contacts.pos, contacts.normal
        state, cluster = contacts.state, contacts.cluster_size
        force_P = contacts.pos[contacts.has_force]
        force_F = contacts.force[contacts.has_force]
    else:
        contacts = list(contacts)
        all_P = np.array([c.pos for c in contacts], dtype=float).reshape(-1, 3)
        all_N = np.array([c.normal for c in contacts], dtype=float).reshape(-1, 3)
        with_force = [c for c in contacts if c.force is not None]
        force_P = np.array([c.pos for c in with_force], dtype=float).reshape(-1, 3)
        force_F = np.array([c.force for c in with_force], dtype=float).reshape(-1, 3)
    pts: list[np.ndarray] = []
    cols: list[np.ndarray] = []
    if len(all_P) and show_points:
        P, N = all_P, all_N
        scale = cluster_scale(cluster) if by_cluster and len(cluster) else np.ones(len(P))
        h = (point_size / 2 * scale)[:, None, None] * np.eye(3)[None]  # (m, 3 axes, 3)
        cross = np.stack([P - h[:, 0], P + h[:, 0], P - h[:, 1], P + h[:, 1], P - h[:, 2],
                          P + h[:, 2]], 1)
        pts += [cross.reshape(-1, 3), np.stack([P, P + normal_length * N], 1).reshape(-1, 3)]
        if by_state and len(state):
            rgba = state_colors(state)
            cols += [np.repeat(rgba, 6, axis=0), np.repeat(rgba, 2, axis=0)]
        else:
            cols += [np.tile(CONTACT_COLOR, (6 * len(P), 1)),
                     np.tile(NORMAL_COLOR, (2 * len(P), 1))]
    if len(force_P) and show_forces:
        seg = arrows(force_P, force_F * force_scale)
        pts.append(seg)
        cols.append(np.tile(FORCE_COLOR, (len(seg), 1)))
    if not pts:
        return np.zeros((0, 3)), np.zeros((0, 4))
    return np.concatenate(pts), np.concatenate(cols)


class Trails:
    """Recent world positions of selected Solids (at most ``length`` points each).

    Simulated time going back (Reset, a reloaded world) starts the paths again:
    a trail never joins two runs.
    """

    def __init__(self, length: int = 2000) -> None:
        self.length = length
        self.paths: dict[Any, deque] = {}
        self.last_time_ms: float | None = None  # simulated time of the last record

    def set_solids(self, nodes: Sequence[Any]) -> None:
        """Track exactly ``nodes`` (kept paths of nodes still tracked stay)."""
        self.paths = {n: self.paths.get(n, deque(maxlen=self.length)) for n in nodes}

    def clear(self) -> None:
        """Forget every recorded point."""
        for p in self.paths.values():
            p.clear()
        self.last_time_ms = None

    def record(self, positions: dict[Any, np.ndarray], time_ms: float | None = None) -> None:
        """Append each tracked Solid's position (3,) [m] if it moved; a ``time_ms``
        earlier than the last one recorded clears the paths first."""
        if time_ms is not None:
            if self.last_time_ms is not None and time_ms < self.last_time_ms:
                self.clear()
            self.last_time_ms = float(time_ms)
        for node, path in self.paths.items():
            p = positions.get(node)
            if p is not None and (not path or np.any(np.abs(path[-1] - p) > 1e-6)):
                path.append(np.array(p, dtype=float))

    def lines(self) -> tuple[np.ndarray, np.ndarray]:
        """Polylines of every path as segments."""
        pts, cols = [], []
        for k, path in enumerate(self.paths.values()):
            if len(path) < 2:
                continue
            a = np.array(path)
            seg = np.stack([a[:-1], a[1:]], 1).reshape(-1, 3)
            pts.append(seg)
            cols.append(np.tile(TRAIL_COLORS[k % len(TRAIL_COLORS)], (len(seg), 1)))
        if not pts:
            return np.zeros((0, 3)), np.zeros((0, 4))
        return np.concatenate(pts), np.concatenate(cols)
