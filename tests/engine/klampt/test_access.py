"""Map paths (engine.klampt.access) on worlds and on simulators."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine.klampt import access
from engine.sim.poses import axis_angle_to_matrix
from engine.world import parse_world
from tests.engine.klampt.fakes import FakeSimulator
from tests.engine.klampt.worlds import ONE_LINK_TEXT


@pytest.fixture
def world():
    return parse_world(ONE_LINK_TEXT)


def column_major(R):
    return list(np.asarray(R).flatten(order="F"))


def test_parse_path_steps_and_indices():
    assert access.parse_path("robots[0].config[4]") == (
        access.PathStep("robots", (0,)), access.PathStep("config", (4,)))
    assert access.parse_path('bodies["LINK"].transform[1][2]') == (
        access.PathStep("bodies", ("LINK",)), access.PathStep("transform", (1, 2)))
    assert access.parse_path("time") == (access.PathStep("time", ()),)


@pytest.mark.parametrize("path, message", [
    ("robots[0.config", r"unexpected '\[' at character 7"),
    ("robots[0].", "expected a name at character 11"),
    ("", "expected a name at character 1"),
])
def test_parse_path_syntax_errors_name_the_place(path, message):
    with pytest.raises(ValueError, match=message):
        access.parse_path(path)


def test_world_groups_follow_the_index(world):
    assert access.get_item(world, "robots[0].name") == "ONE_LINK"
    assert access.get_item(world, "terrains[0].name") == "FLOOR"
    assert access.get_item(world, "rigidObjects[0].name") == "BOX"
    assert access.get_item(world, "bodies[LINK].id") == 2


def test_world_config_reads_and_writes_joint_positions(world):
    assert access.get_item(world, "robots[0].config") == [0.0]
    access.set_item(world, "robots[0].config[0]", 0.75)
    assert access.get_item(world, "robots[ONE_LINK].config") == [0.75]
    hinge = world.find_by_def("ONE_LINK").get("children")[0]
    assert hinge.get("jointParameters").get("position") == 0.75
    access.set_item(world, "robots[0].config", [-1.5])
    assert access.get_item(world, "robots[0].config[0]") == -1.5


def test_world_transform_is_the_world_frame_through_parents(world):
    R, t = access.get_item(world, "rigidObjects[0].transform")
    # BOX at (1, 0, 0.5) rotated 0.3 about z, inside a Transform at (2, 0, 0) turned 90 deg
    expected_R = axis_angle_to_matrix((0, 0, 1, math.pi / 2 + 0.3))
    np.testing.assert_allclose(R, column_major(expected_R), atol=1e-15)
    np.testing.assert_allclose(t, [2.0, 1.0, 0.5], atol=1e-15)


def test_world_transform_round_trips_into_local_fields(world):
    R = column_major(axis_angle_to_matrix((1, 2, 3, 0.7)))
    access.set_item(world, "rigidObjects[BOX].transform", (R, [0.5, -0.25, 3.0]))
    R2, t2 = access.get_item(world, "rigidObjects[0].transform")
    np.testing.assert_allclose(R2, R, atol=1e-14)
    np.testing.assert_allclose(t2, [0.5, -0.25, 3.0], atol=1e-14)
    # written relative to the Transform (turned 90 deg about z, at x = 2)
    np.testing.assert_allclose(world.find_by_def("BOX").get("translation"), [-0.25, 1.5, 3.0],
                               atol=1e-14)
    access.set_item(world, "rigidObjects[0].transform[1][2]", 7.0)
    assert access.get_item(world, "rigidObjects[0].transform[1]") == pytest.approx(
        [0.5, -0.25, 7.0])


def test_world_velocity_writes_the_solid_fields(world):
    access.set_item(world, "rigidObjects[0].velocity", ([0, 0, 1], [1, 2, 3]))
    box = world.find_by_def("BOX")
    assert box.get("angularVelocity") == (0.0, 0.0, 1.0)
    assert box.get("linearVelocity") == (1.0, 2.0, 3.0)
    access.set_item(world, "rigidObjects[0].velocity[1][0]", -4)
    assert access.get_item(world, "rigidObjects[0].velocity") == ([0, 0, 1], [-4, 2, 3])


@pytest.mark.parametrize("path, message", [
    ("robots[3].config", r"robots\[3\].config: robots\[3\]: the world has 1 robot$"),
    ("rigidObjects[2].transform", "the world has 1 rigid object$"),
    ("bodies[9].transform", "the world has 4 bodies$"),
    ("robots[X].config", "the world has no robot named 'X' \\(robots: ONE_LINK\\)"),
    ("robots[0].confg", "a robot has no item 'confg' \\(items: config, velocity, name\\)"),
    ("robots[0].config[4]", r"\[4\] is out of range \(the value has 1 entry\)"),
    ("robots[0].config[0][1]", r"\[1\] indexes a number"),
    ("gravity", "'gravity' is not an item of the world"),
    ("robots.config", "'robots' takes one index"),
    ("robots[0]", r"expected robots\[i\].<item>"),
])
def test_bad_world_paths_name_the_path_and_the_problem(world, path, message):
    with pytest.raises(ValueError, match=message) as info:
        access.get_item(world, path)
    assert str(info.value).startswith(path + ":")


def test_simulator_only_items_on_a_world(world):
    assert access.needs_simulator(world, "robots[0].velocity[0]")
    assert not access.needs_simulator(world, "robots[0].config[0]")
    with pytest.raises(access.SimulatorOnlyError, match="only a Simulator can take"):
        access.set_item(world, "robots[0].velocity", [1.0])


@pytest.mark.parametrize("path, value, message", [
    ("robots[0].config", [1, 2], "expected 1 number \\(the robot's config\\), got 2 numbers"),
    ("rigidObjects[0].transform", ([1] * 9, [0, 0]), "expected \\(R, t\\)"),
    ("rigidObjects[0].velocity", "fast", "expected \\(w, v\\)"),
    ("terrains[0].velocity", ([0] * 3, [0] * 3), "'FLOOR' has no physics"),
    ("robots[0].name", "X", "read-only"),
])
def test_bad_values_are_refused(world, path, value, message):
    with pytest.raises(ValueError, match=message):
        access.set_item(world, path, value)


def test_simulator_items_use_the_simulator_api(world):
    access.set_item(world, "robots[0].config[0]", 0.5)
    sim = FakeSimulator(world)
    sim.controller(0).setPIDCommand([0.25], [0.5])
    assert access.get_item(sim, "time") == 0.0
    assert access.get_item(sim, "robots[0].config") == [0.5]
    assert access.get_item(sim, "controllers[0].sensedConfig") == [0.5]
    assert access.get_item(sim, "controllers[ONE_LINK].commandedConfig") == [0.25]
    assert access.get_item(sim, "controllers[0].commandedVelocity[0]") == 0.5
    access.set_item(sim, "robots[0].velocity[0]", 2.0)
    assert access.get_item(sim, "controllers[0].sensedVelocity") == [2.0]
    assert access.get_item(sim, "robots[0].velocity") == [2.0]
    R, t = access.get_item(sim, "rigidObjects[0].transform")
    assert t == pytest.approx([2.0, 1.0, 0.5])
    access.set_item(sim, "bodies[BOX].velocity", ([0, 0, 0], [1, 0, 0]))
    sim.simulate(0.5)
    assert access.get_item(sim, "rigidObjects[0].transform[1][0]") == pytest.approx(2.5)
    assert access.get_item(sim, "bodies[3].velocity") == ([0, 0, 0], [1, 0, 0])
    assert access.get_item(sim, "time") == pytest.approx(0.5)


def test_bad_simulator_paths(world):
    sim = FakeSimulator(world)
    with pytest.raises(ValueError, match="the simulator's world has 1 controller$"):
        access.get_item(sim, "controllers[1].sensedConfig")
    with pytest.raises(ValueError, match="a controller has no item 'config'"):
        access.get_item(sim, "controllers[0].config")
    with pytest.raises(ValueError, match="read-only"):
        access.set_item(sim, "robots[0].config", [0.0])
    with pytest.raises(ValueError, match="expected an engine.world World or a Simulator"):
        access.get_item(object(), "time")


def test_flat_names_are_paths_of_the_scalars():
    value = ([1, 2], [3])
    assert access.flatten(value) == [1, 2, 3]
    assert access.flat_names("x.v", value) == ["x.v[0][0]", "x.v[0][1]", "x.v[1][0]"]
    assert access.flat_names("time", 1.5) == ["time"]
