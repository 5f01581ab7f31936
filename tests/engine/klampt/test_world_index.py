"""The world index: IDs in pre-order, terrains / rigid objects / robot links,
robots' config axes, and set_axis_position moving a joint's endPoint."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine.klampt import Simulator
from engine.klampt.world_index import (
    RIGID_OBJECT,
    ROBOT_LINK,
    TERRAIN,
    axis_position,
    index_world,
    set_axis_position,
)
from engine.world import parse_world
from tests.engine.klampt.sim_worlds import FLOOR, INFO, box
from tests.engine.sim.helpers import world_text

PHYS = "physics Physics { density -1 mass 1 }"
BOX = "boundingObject Box { size 0.1 0.1 0.1 }"
ARM = f"""DEF ARM Robot {{ translation 0 0 1 children [
  HingeJoint {{
    jointParameters HingeJointParameters {{ axis 0 1 0 anchor 0 0 0.5 }}
    endPoint DEF L1 Solid {{ translation 0 0 1 {BOX} {PHYS} children [
      SliderJoint {{
        jointParameters JointParameters {{ axis 0 0 1 }}
        endPoint DEF L2 Solid {{ translation 0 0 0.3 {BOX} {PHYS} }}
      }}
      Hinge2Joint {{
        endPoint DEF L3 Solid {{ translation 0.5 0 0 {BOX} {PHYS} }}
      }}
    ] }}
  }}
] controller "<none>" }}
"""
WALL = "DEF WALL Solid { translation 3 0 0 boundingObject Box { size 0.1 1 1 } }\n"
DECOR = "DEF DECOR Solid { translation 0 3 0 }\n"
TEXT = world_text(FLOOR + ARM + box("CRATE", 0.5, x=2.0) + WALL + DECOR, INFO)


def test_ids_are_given_depth_first_with_kinds_and_robots() -> None:
    index = index_world(parse_world(TEXT))
    names = [b.node.def_name for b in index.bodies]
    assert names == ["FLOOR", "L1", "L2", "L3", "CRATE", "WALL"]
    assert [b.kind for b in index.bodies] == [TERRAIN, ROBOT_LINK, ROBOT_LINK, ROBOT_LINK,
                                              RIGID_OBJECT, TERRAIN]
    assert [b.robot for b in index.bodies] == [-1, 0, 0, 0, -1, -1]
    assert index.terrains == [0, 5] and index.rigid_objects == [4]
    (robot,) = index.robots
    assert robot.node.def_name == "ARM"
    # config: the hinge, the slider inside L1 (pre-order), then the Hinge2's two axes
    assert [(a.joint.type_name, a.axis, a.params_field) for a in robot.axes] == [
        ("HingeJoint", 0, "jointParameters"), ("SliderJoint", 0, "jointParameters"),
        ("Hinge2Joint", 0, "jointParameters"), ("Hinge2Joint", 1, "jointParameters2")]
    assert [axis_position(a) for a in robot.axes] == [0.0, 0.0, 0.0, 0.0]


def test_the_simulator_uses_the_index() -> None:
    sim = Simulator(parse_world(TEXT))
    assert sim.numIDs() == 6
    assert [sim.getName(i) for i in range(6)] == ["FLOOR", "L1", "L2", "L3", "CRATE", "WALL"]
    assert len(sim.controller("ARM").getSensedConfig()) == 4


def test_set_axis_position_turns_the_end_point_about_the_anchor() -> None:
    world = parse_world(TEXT)
    hinge = index_world(world).robots[0].axes[0]
    l1 = world.find_solid_by_def("L1")
    set_axis_position(hinge, 0.5)
    # (0, 0, 1) about y through (0, 0, 0.5) by 0.5 rad
    assert l1.get("translation") == pytest.approx(
        [0.5 * math.sin(0.5), 0.0, 0.5 + 0.5 * math.cos(0.5)], abs=1e-12)
    rot = l1.get("rotation")
    assert rot[3] * np.array(rot[:3]) == pytest.approx([0.0, 0.5, 0.0], abs=1e-12)
    assert axis_position(hinge) == 0.5
    set_axis_position(hinge, 0.2)   # by the change: 0.2 from 0 in all
    assert l1.get("translation") == pytest.approx(
        [0.5 * math.sin(0.2), 0.0, 0.5 + 0.5 * math.cos(0.2)], abs=1e-12)
    assert axis_position(hinge) == 0.2
    # the L2 below it moves with L1 (its translation is in L1's frame)
    assert world.find_solid_by_def("L2").get("translation") == pytest.approx([0, 0, 0.3])
    sim = Simulator(world)
    assert sim.controller(0).getSensedConfig()[0] == pytest.approx(0.2, abs=1e-12)
    R, t = sim.body("L1").getTransform()
    assert t == pytest.approx([0.5 * math.sin(0.2), 0.0, 1.5 + 0.5 * math.cos(0.2)], abs=1e-12)
    assert R[2] == pytest.approx(-math.sin(0.2), abs=1e-12)   # R·x̂ tilts down about y


def test_set_axis_position_slides_a_slider_and_refuses_other_axes() -> None:
    world = parse_world(TEXT)
    axes = index_world(world).robots[0].axes
    set_axis_position(axes[1], 0.1)
    assert world.find_solid_by_def("L2").get("translation") == pytest.approx([0, 0, 0.4],
                                                                             abs=1e-12)
    assert axis_position(axes[1]) == 0.1
    # a Hinge2Joint without parameters gets a HingeJointParameters holding the position
    set_axis_position(axes[2], 0.25)
    assert axis_position(axes[2]) == 0.25
    assert axes[2].joint.get("jointParameters").type_name == "HingeJointParameters"
    with pytest.raises(ValueError, match="axis 2"):
        set_axis_position(axes[3], 0.1)
    with pytest.raises(ValueError, match="finite"):
        set_axis_position(axes[0], math.nan)
