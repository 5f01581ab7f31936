"""Steps once, then raises."""

from controller import Robot

robot = Robot()
robot.step(int(robot.getBasicTimeStep()))
raise RuntimeError("boom from the crasher")
