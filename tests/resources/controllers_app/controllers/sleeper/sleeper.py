"""Steps once, then stops answering."""

import time

from controller import Robot

robot = Robot()
robot.step(int(robot.getBasicTimeStep()))
print("sleeping")
time.sleep(120)
