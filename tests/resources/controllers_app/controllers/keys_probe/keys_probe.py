"""Prints the keys held (Keyboard.getKey codes) whenever they change."""

import json

from controller import Robot

VERSION = 1

robot = Robot()
timestep = int(robot.getBasicTimeStep())
keyboard = robot.getKeyboard()
keyboard.enable(timestep)
print(f"keys_probe version {VERSION}")
last = None
while robot.step(timestep) != -1:
    keys = []
    key = keyboard.getKey()
    while key != -1:
        keys.append(key)
        key = keyboard.getKey()
    if keys != last:
        print("KEYS " + json.dumps(keys))
        last = keys
