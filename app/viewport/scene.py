"""Render scene built from an `engine.world` World (no GL here).

The scene is flat: a list of Solids (parent-first order, each with the
static transform to its parent Solid, or to the world) and two lists of
`SceneItem`s -- visible Shapes and boundingObject geometries -- each
attached to a Solid index (-1 = world) with a static local transform. The
per-frame world transform of an item is ``solid_world[solid] @ local``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from app.viewport import meshes
from app.viewport.geometry_meshes import MeshKey, mesh_for
from app.viewport.transforms import pose_matrix
from engine.sim.poses import axis_angle_to_matrix
from engine.world.depth import deep_recursion
from engine.world.protos import expanded

__all__ = ["DEFAULT_COLOR", "Light", "MeshKey", "RenderScene", "SceneBuilder", "SceneItem",
           "appearance_color", "build_scene", "node_transform"]

DEFAULT_COLOR = (1.0, 1.0, 1.0, 1.0)


@dataclass
class SceneItem:
    """One drawable geometry: mesh kind, local transform (4, 4), RGBA colour, Solid index."""

    mesh_key: MeshKey
    local: np.ndarray
    color: tuple[float, float, float, float]
    solid: int


@dataclass
class Light:
    """A directional light (world direction it shines along), colour*intensity, ambient."""

    direction: np.ndarray
    color: np.ndarray
    ambient: float


@dataclass
class RenderScene:
    """Everything the viewport draws from a world, with the meshes it needs."""

    solids: list[Any] = field(default_factory=list)
    solid_parent: list[int] = field(default_factory=list)
    solid_local: list[np.ndarray] = field(default_factory=list)
    shapes: list[SceneItem] = field(default_factory=list)
    bounds: list[SceneItem] = field(default_factory=list)
    meshes: dict[MeshKey, meshes.MeshData] = field(default_factory=dict)
    background: tuple[float, float, float] = (0.0, 0.0, 0.0)
    lights: list[Light] = field(default_factory=list)
    viewpoint: Any = None
    warnings: list[str] = field(default_factory=list)

    def static_solid_world(self) -> np.ndarray:
        """(S + 1, 4, 4) world transforms of the Solids from the file; last = identity."""
        out = np.tile(np.eye(4), (len(self.solids) + 1, 1, 1))
        for i, (p, L) in enumerate(zip(self.solid_parent, self.solid_local, strict=True)):
            out[i] = out[p] @ L  # parent -1 is the trailing identity
        return out


def _node(n: Any) -> Any:
    return n.target if getattr(n, "is_use", False) else n


def _has(n: Any, name: str) -> bool:
    spec = getattr(n, "spec", None)
    return spec is not None and name in spec.fields


def node_transform(n: Any) -> np.ndarray:
    """(4, 4) local transform of a Solid/Pose/Transform node (translation, rotation, scale)."""
    scale = n.get("scale") if _has(n, "scale") else None
    return pose_matrix(n.get("translation"), axis_angle_to_matrix(n.get("rotation")), scale)


def appearance_color(app: Any) -> tuple[float, float, float, float]:
    """RGBA of an Appearance (Material diffuseColor) or PBRAppearance (baseColor)."""
    app = _node(app) if app is not None else None
    if app is None or getattr(app, "is_opaque", False):
        return DEFAULT_COLOR
    if app.type_name == "PBRAppearance":
        r, g, b = app.get("baseColor")
        return (r, g, b, 1.0 - app.get("transparency"))
    mat = app.get("material")
    if mat is None:
        return DEFAULT_COLOR
    mat = _node(mat)
    r, g, b = mat.get("diffuseColor")
    return (r, g, b, 1.0 - mat.get("transparency"))


class SceneBuilder:
    """Walks a World and fills a `RenderScene` (see module docstring)."""

    def __init__(self, world: Any) -> None:
        self.world = world
        self.scene = RenderScene()
        base = getattr(world, "filename", None)
        self._base_dir = os.path.dirname(os.path.abspath(base)) if base else os.getcwd()

    def build(self) -> RenderScene:
        """Build and return the scene."""
        with deep_recursion():  # _walk recurses per nested node (hinge chains)
            for n in self.world.nodes:
                self._walk(n, -1, np.eye(4))
        self._environment()
        return self.scene

    # ----- tree walk ---------------------------------------------------------------------
    def _walk(self, n: Any, solid: int, M: np.ndarray) -> None:
        n = _node(n)
        if n is None or getattr(n, "is_opaque", False):
            return
        n = expanded(n)  # a PROTO stand-in draws the nodes it stands for
        t = n.type_name
        if n.is_a("Solid"):
            self._solid(n, solid, M)
        elif t in ("Pose", "Transform"):
            M2 = M @ node_transform(n)
            for c in n.get("children"):
                self._walk(c, solid, M2)
        elif t == "Group":
            for c in n.get("children"):
                self._walk(c, solid, M)
        elif t == "Shape":
            geom = n.get("geometry")
            if geom is not None:
                self._geometry(_node(geom), M, appearance_color(n.get("appearance")), solid,
                               self.scene.shapes)
        elif _has(n, "endPoint"):  # joints: the end point Solid hangs off the same parent
            self._walk(n.get("endPoint"), solid, M)

    def _solid(self, n: Any, parent: int, M: np.ndarray) -> None:
        sc = self.scene
        index = len(sc.solids)
        sc.solids.append(n)
        sc.solid_parent.append(parent)
        sc.solid_local.append(M @ node_transform(n))
        bo = n.get("boundingObject")
        if bo is not None:
            self._bounding(_node(bo), index, np.eye(4))
        for c in n.get("children"):
            self._walk(c, index, np.eye(4))

    def _bounding(self, n: Any, solid: int, M: np.ndarray) -> None:
        if n is None or getattr(n, "is_opaque", False):
            return
        t = n.type_name
        if t in ("Pose", "Transform"):
            M2 = M @ node_transform(n)
            for c in n.get("children"):
                self._bounding(_node(c), solid, M2)
        elif t == "Group":
            for c in n.get("children"):
                self._bounding(_node(c), solid, M)
        elif t == "Shape":
            if n.get("geometry") is not None:
                self._bounding(_node(n.get("geometry")), solid, M)
        else:
            self._geometry(n, M, DEFAULT_COLOR, solid, self.scene.bounds)

    # ----- geometry -> mesh key + local scale (app/viewport/geometry_meshes.py) ---------
    def _geometry(self, g: Any, M: np.ndarray, color: tuple, solid: int,
                  out: list[SceneItem]) -> None:
        made = mesh_for(g, self.scene.meshes, self._base_dir)
        if made is None:
            self.scene.warnings.append(f"{g.label()}: nothing to draw")
            return
        key, scale = made
        out.append(SceneItem(key, M @ pose_matrix((0, 0, 0), None, scale), color, solid))

    # ----- background and lights ---------------------------------------------------------
    def _environment(self) -> None:
        sc = self.scene
        for n in self.world.nodes:
            n = _node(n)
            if getattr(n, "is_opaque", False):
                continue
            n = expanded(n)
            if n.type_name == "Viewpoint" and sc.viewpoint is None:
                sc.viewpoint = n
            elif n.type_name == "Background":
                sky = n.get("skyColor")
                if sky:
                    sc.background = tuple(sky[0])
            elif n.type_name in ("DirectionalLight", "PointLight", "SpotLight") and n.get("on"):
                if n.type_name == "PointLight":  # approximated: shines from its location
                    d = -np.asarray(n.get("location"), dtype=float)
                else:
                    d = np.asarray(n.get("direction"), dtype=float)
                norm = np.linalg.norm(d)
                d = d / norm if norm > 0 else np.array([0.0, 0.0, -1.0])
                sc.lights.append(Light(d, np.asarray(n.get("color")) * n.get("intensity"),
                                       n.get("ambientIntensity")))


def build_scene(world: Any) -> RenderScene:
    """The `RenderScene` of ``world`` (an engine.world World, or None for an empty scene)."""
    if world is None:
        return RenderScene()
    return SceneBuilder(world).build()
