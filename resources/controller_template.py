"""Robot controller "template" for Odeon (Webots' Python controller API).

Odeon runs it in its own process when a Robot's controller field is
"template": its file is <project>/controllers/template/template.py. What it
prints shows in the console under the robot's name. See docs/controllers.md
for the devices and their methods.
"""

from controller import Robot

robot = Robot()
# the world's basicTimeStep [ms]; step() wants an int
timestep = int(robot.getBasicTimeStep())

# Devices are found by name, e.g. motor = robot.getDevice("left wheel motor").
# A sensor gives values once enabled with its sampling period [ms]. As an
# example, the first device of the robot with a single value is read.
sensor = None
for index in range(robot.getNumberOfDevices()):
    device = robot.getDeviceByIndex(index)
    if hasattr(device, "enable") and hasattr(device, "getValue"):
        sensor = device
        sensor.enable(timestep)
        break

# step() advances the simulation by timestep ms; -1: the simulation ends
steps = 0
while robot.step(timestep) != -1:
    steps += 1
    if sensor is not None and steps % max(1, 1000 // timestep) == 0:  # about once a second
        print(f"t = {robot.getTime():.3f} s: {sensor.getName()} = {sensor.getValue()}")

# the simulation ended (reset, reload or quit): clean up here if needed
