"""Worlds that cannot be built raise one located `BuildError`; engine failures
during a step pause the simulation with a message (decision 0014)."""

from __future__ import annotations

import io

import numpy as np
import pytest

from engine import ode
from engine.headless import run_headless
from engine.sim import BuildError, Simulation
from engine.world import Node, WorldError
from tests.engine.sim.helpers import world_text

PENDULUM = """DEF ARM Solid {{
  {arm}
  children [
    DEF HINGE {joint} {{
      jointParameters {params1}
      {params2}
      endPoint DEF BOB Solid {{
        translation 0 0 -0.5
        boundingObject Sphere {{ radius {radius} }}
        physics Physics {{ density -1 mass 1 }}
      }}
    }}
  ]
}}
"""


def pendulum(joint: str = "HingeJoint", axis: str = "1 0 0", radius: str = "0.05",
             axis2: str | None = None, arm: str = "") -> str:
    params = "HingeJointParameters" if joint != "SliderJoint" else "JointParameters"
    params2 = (f"jointParameters2 JointParameters {{ axis {axis2} }}"
               if axis2 is not None else "")
    return PENDULUM.format(joint=joint, params1=f"{params} {{ axis {axis} }}",
                           params2=params2, radius=radius, arm=arm)


def write(tmp_path, nodes: str, info: str = "") -> str:
    path = tmp_path / "w.wbt"
    path.write_text(world_text(nodes, info))
    return str(path)


def line_of(path: str, needle: str) -> int:
    """1-based line of the first line of the file containing ``needle``."""
    with open(path) as f:
        for k, line in enumerate(f, 1):
            if needle in line:
                return k
    raise AssertionError(needle)


def test_zero_hinge_axis_names_file_node_line_and_setter(tmp_path) -> None:
    path = write(tmp_path, pendulum(axis="0 0 0"))
    with pytest.raises(BuildError) as info:
        Simulation(path)
    text = str(info.value)
    line = line_of(path, "DEF HINGE HingeJoint")
    assert text.startswith(f"{path}:{line}:")
    assert "HingeJoint (DEF HINGE)" in text and "dJointSetHingeAxis" in text
    assert "zero vector" in text
    assert isinstance(info.value, WorldError)


def test_aligned_hinge2_axes_are_a_located_build_error(tmp_path) -> None:
    path = write(tmp_path, pendulum("Hinge2Joint", axis="0 0 1", axis2="0 0 2",
                                    arm="physics Physics { density -1 mass 1 }"))
    with pytest.raises(BuildError) as info:
        Simulation(path)
    text = str(info.value)
    assert text.startswith(f"{path}:{line_of(path, 'DEF HINGE')}:")
    assert "Hinge2Joint (DEF HINGE)" in text and "along one line" in text


@pytest.mark.parametrize("radius", ["1e-300", "1e300", "1e-7", "2e6"])
def test_huge_or_tiny_shapes_are_refused_naming_the_field(tmp_path, radius: str) -> None:
    path = write(tmp_path, pendulum(radius=radius))
    with pytest.raises(BuildError) as info:
        Simulation(path)
    text = str(info.value)
    assert text.startswith(f"{path}:{line_of(path, 'boundingObject Sphere')}:")
    assert "Solid (DEF BOB)" in text and "Sphere.radius" in text and "range" in text


def test_huge_mesh_points_are_refused(tmp_path) -> None:
    nodes = ("Solid { boundingObject IndexedFaceSet { coord Coordinate { point "
             "[ 0 0 0, 1e300 0 0, 0 1 0 ] } coordIndex [ 0 1 2 -1 ] } }")
    path = write(tmp_path, nodes)
    with pytest.raises(BuildError, match=r"Coordinate\.point holds a value beyond"):
        Simulation(path)


def test_tiny_basic_time_step_is_refused(tmp_path) -> None:
    path = write(tmp_path, "", "basicTimeStep 1e-300")
    with pytest.raises(BuildError) as info:
        Simulation(path)
    assert str(info.value).startswith(f"{path}:{line_of(path, 'WorldInfo')}:")
    assert "WorldInfo.basicTimeStep" in str(info.value)


def test_smallest_basic_time_step_builds(tmp_path) -> None:
    sim = Simulation(write(tmp_path, pendulum(), "basicTimeStep 0.001"))
    assert sim.step()


def test_huge_axis_component_is_normalised_and_steps(tmp_path) -> None:
    """A 1.3e154+ component used to make every step fail with ZeroDivisionError."""
    sim = Simulation(write(tmp_path, pendulum(axis="2e154 0 0")))
    for _ in range(5):
        assert sim.step(), sim.pause_message
    axis = ode.dJointGetHingeAxis(sim.model.joints[0].joint)
    assert np.array_equal(axis, [1.0, 0.0, 0.0])


def test_edited_node_without_position_is_located_at_its_ancestor(tmp_path) -> None:
    path = write(tmp_path, pendulum())
    sim = Simulation(path)
    bob = sim.world.find_solid_by_def("BOB")
    bob.set("boundingObject", Node("Box", size=(0.0, 1.0, 1.0)))
    with pytest.raises(BuildError) as info:
        sim.rebuild()
    assert str(info.value).startswith(f"{path}:{line_of(path, 'endPoint DEF BOB')}:")
    assert "Box.size must be positive" in str(info.value)


def test_engine_failure_during_a_step_pauses_with_a_message(tmp_path, monkeypatch) -> None:
    path = write(tmp_path, pendulum())
    sim = Simulation(path)
    assert sim.step()

    def broken(world, dt):
        raise ZeroDivisionError("float division by zero")

    monkeypatch.setattr(ode, "dWorldStep", broken)
    assert not sim.step()
    assert sim.paused
    assert sim.pause_message.startswith(f"{path}: the step at t = 32 ms failed")
    assert "ZeroDivisionError: float division by zero" in sim.pause_message
    assert any(sim.pause_message in text for _, text in sim.console.lines)


def test_step_failure_names_the_solid_with_non_finite_values(tmp_path, monkeypatch) -> None:
    sim = Simulation(write(tmp_path, pendulum()))

    def broken(world, dt):
        world.bodies.lvel[0, 0] = np.nan
        raise FloatingPointError("overflow")

    monkeypatch.setattr(ode, "dWorldStep", broken)
    assert not sim.step()
    assert "Solid (DEF BOB)" in sim.pause_message


def test_odeon_run_reports_a_failed_step_without_traceback(tmp_path, monkeypatch) -> None:
    path = write(tmp_path, pendulum())

    def broken(world, dt):
        raise MemoryError()

    monkeypatch.setattr(ode, "dWorldStep", broken)
    out = io.StringIO()
    assert run_headless(path, 1.0, out, plugin=False) == 1
    text = out.getvalue()
    assert f"{path}: the step at t = 0 ms failed: MemoryError" in text
    assert "Traceback" not in text
