"""TouchSensor: force-3d and force from the fixed joint's feedback, bumper from contacts."""

from __future__ import annotations

import pytest

from engine import ode
from tests.engine.sim.sensors.worlds import FLOOR, device, make_sim, run

G = 9.81


def robot_on_sensor(sensor_fields: str, mass: float = 8.0) -> object:
    """A robot box of ``mass`` kg resting on its 1 kg TouchSensor, the sensor on the floor."""
    return make_sim(FLOOR + "Robot { translation 0 0 0.25 children [ TouchSensor { name \"t\" "
                    f"translation 0 0 -0.15 {sensor_fields} "
                    "boundingObject Box { size 0.2 0.2 0.1 } physics Physics { density -1 mass 1 } "
                    "} ] boundingObject Box { size 0.2 0.2 0.2 } "
                    f"physics Physics {{ density -1 mass {mass} }} }}", info="basicTimeStep 8")


def test_touch_sensor_with_physics_has_its_own_body_on_a_fixed_joint() -> None:
    sim = robot_on_sensor('type "force-3d"')
    sensor = sim.model.record_of(sim.world.nodes_of_type("TouchSensor")[0])
    robot = sim.model.record_of(sim.world.nodes_of_type("Robot")[0])
    assert sensor.owner is sensor and robot.owner is robot
    joints = [j for j in sim.model.fixed_joints
              if {ode.dJointGetBody(j, 0), ode.dJointGetBody(j, 1)} == {robot.body, sensor.body}]
    assert len(joints) == 1
    # other devices with Physics still merge into their parent's body
    sim = make_sim("Robot { children [ Accelerometer { physics Physics { } } ] "
                   "physics Physics { } boundingObject Box { size 0.1 0.1 0.1 } }")
    acc = sim.model.record_of(sim.world.nodes_of_type("Accelerometer")[0])
    assert acc.owner is sim.model.record_of(sim.world.nodes_of_type("Robot")[0])


def test_force3d_under_a_resting_box_reads_its_weight() -> None:
    sim = robot_on_sensor('type "force-3d" lookupTable []')
    t = device(sim, "TouchSensor", "t")
    run(sim, [t], 200)
    fx, fy, fz = t.read()
    # the robot box's weight m g; the sensor's own 1 kg is carried by the floor
    assert fz == pytest.approx(8.0 * G, rel=1e-9)
    assert abs(fx) < 1e-9 and abs(fy) < 1e-9


def test_force3d_components_are_in_the_sensor_frame() -> None:
    # the sensor turned by pi/2 about y: its x axis points down, the load reads along -x
    sim = robot_on_sensor('type "force-3d" lookupTable [] rotation 0 1 0 1.5707963267948966')
    t = device(sim, "TouchSensor", "t")
    run(sim, [t], 200)
    fx, fy, fz = t.read()
    assert fx == pytest.approx(-8.0 * G, rel=1e-6)
    assert abs(fy) < 1e-6 and abs(fz) < 1e-3


def test_force_with_webots_default_table_reads_tenths_of_newtons() -> None:
    # Webots' touch_sensor_force test: 981 +- 1 for a 10 kg robot resting on a force sensor
    # whose x axis points at the floor (default table: 0.1 N units)
    sim = robot_on_sensor('type "force" rotation 0 1 0 1.5707963267948966', mass=10.0)
    t = device(sim, "TouchSensor", "t")
    run(sim, [t], 105)
    assert t.read() == pytest.approx(981.0, abs=1.0)


def test_force_pull_and_free_fall_read_zero() -> None:
    sim = make_sim("Robot { translation 0 0 5 children [ TouchSensor { name \"t\" type \"force\" "
                   "lookupTable [] boundingObject Box { size 0.1 0.1 0.1 } "
                   "physics Physics { density -1 mass 1 } } ] "
                   "boundingObject Box { size 0.2 0.2 0.2 } physics Physics { } }")
    t = device(sim, "TouchSensor", "t")
    run(sim, [t], 20)
    assert t.read() == pytest.approx(0.0, abs=1e-9)


def test_force_resolution_and_no_physics() -> None:
    sim = robot_on_sensor('type "force-3d" lookupTable [] resolution 10')
    t = device(sim, "TouchSensor", "t")
    run(sim, [t], 200)
    assert t.read()[2] == 80.0  # 78.48 N at 10 N resolution
    sim = make_sim("Robot { children [ TouchSensor { name \"t\" type \"force\" "
                   "boundingObject Box { size 0.1 0.1 0.1 } } ] }")
    t = device(sim, "TouchSensor", "t")
    run(sim, [t], 2)
    assert t.read() == 0.0  # lookup(0) of the default table


def test_force3d_on_a_static_robot_reads_the_load_on_the_parent() -> None:
    # a 3 kg box on a 1 kg sensor on top of a static robot: the parent carries 4 kg, downwards
    sim = make_sim("Robot { translation 0 0 0.1 children [ TouchSensor { name \"t\" "
                   "type \"force-3d\" translation 0 0 0.15 lookupTable [] "
                   "boundingObject Box { size 0.2 0.2 0.1 } physics Physics { density -1 mass 1 } "
                   "} ] boundingObject Box { size 0.2 0.2 0.2 } }\n"
                   "Solid { translation 0 0 0.3 boundingObject Box { size 0.2 0.2 0.1 } "
                   "physics Physics { density -1 mass 3 } }", info="basicTimeStep 8")
    t = device(sim, "TouchSensor", "t")
    run(sim, [t], 200)
    assert t.read()[2] == pytest.approx(-4.0 * G, rel=1e-6)


def test_bumper_reads_one_after_a_contact_and_resets_on_read() -> None:
    sim = make_sim("Robot { children [ TouchSensor { name \"b\" translation 0 0 0.05 "
                   "boundingObject Box { size 0.4 0.4 0.1 } } ] }\n"
                   "DEF BOX Solid { translation 0 0 0.6 boundingObject Box { size 0.1 0.1 0.1 } "
                   "physics Physics { } }", info="basicTimeStep 8")
    b = device(sim, "TouchSensor", "b")
    assert b.read() == 0.0
    # free fall from 0.45 m above the bumper: t = sqrt(2 h / g) = 0.303 s
    run(sim, [b], 30)
    assert b.read() == 0.0
    run(sim, [b], 20)
    assert b.read() == 1.0  # the first impact (the box bounces off again)
    run(sim, [b], 200)
    assert b.read() == 1.0
    # the box rests on it: touching at every later step
    run(sim, [b], 1)
    assert b.read() == 1.0
    assert b.read() == 0.0  # no step since the last read
