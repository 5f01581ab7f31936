"""Prints the centre pixel (R, G, B) of each camera's first image, then keeps stepping."""

import json

from controller import Camera, Robot

robot = Robot()
timestep = int(robot.getBasicTimeStep())
cameras = [d for d in map(robot.getDeviceByIndex, range(robot.getNumberOfDevices()))
           if isinstance(d, Camera)]
for camera in cameras:
    camera.enable(timestep)
seen = {}
while robot.step(timestep) != -1:
    for camera in cameras:
        image = camera.getImage()
        if image is None or camera.getName() in seen:
            continue
        w, h = camera.getWidth(), camera.getHeight()
        x, y = w // 2, h // 2
        seen[camera.getName()] = [Camera.imageGetRed(image, w, x, y),
                                  Camera.imageGetGreen(image, w, x, y),
                                  Camera.imageGetBlue(image, w, x, y), len(image)]
        if len(seen) == len(cameras):
            print("RESULT " + json.dumps(seen))
