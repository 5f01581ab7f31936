"""The viewport's scene builder walks a thousand-link hinge chain (issue 13:
chains longer than 123 links used to be refused; the recursive scene walk
then hit Python's recursion limit)."""

from __future__ import annotations

from app.viewport.scene import SceneBuilder
from engine.world import parse_world


def _chain_text(links: int) -> str:
    link = ("HingeJoint { jointParameters HingeJointParameters { axis 0 1 0 } "
            "endPoint Solid { translation 0 0 -0.1 children [\n"
            "Shape { geometry Sphere { radius 0.02 } }\n")
    tail = "] physics Physics { density -1 mass 0.1 } } }\n"
    return ("#VRML_SIM R2025a utf8\nWorldInfo { }\nDEF BASE Solid { children [\n"
            + link * links + tail * links + "] }\n")


def test_scene_of_a_thousand_link_chain_is_built() -> None:
    scene = SceneBuilder(parse_world(_chain_text(1000))).build()
    assert len(scene.solids) == 1001 and len(scene.shapes) == 1000
