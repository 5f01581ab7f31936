"""Camera devices rendered by the app: the device camera's projection (no GL),
then pixel probes under Xvfb through a real controller's ``Camera.getImage``:
the front camera faces a red box, the left one a green box, and the physics
plugin's draw runs with view = the robot's name in the cameras' images."""

from __future__ import annotations

import json
import math
import os
import shutil
from pathlib import Path

import numpy as np
import pytest

from app.camera_dock import due
from app.viewport.device_camera import DeviceCamera
from engine.sim.poses import axis_angle_to_matrix
from tests.app import test_main_window as main_window_tests

answers = main_window_tests.answers
make_window = main_window_tests.make_window


def trust(_question) -> bool:
    """The trust question's answer: the test project's code may run."""
    return True

PROJECT = Path(__file__).resolve().parents[1] / "resources" / "controllers_app"
WAIT_MS = 20000
FOV = 0.7854


def ndc(camera: DeviceCamera, point) -> np.ndarray:
    """Normalised device coordinates (3,) of a world point."""
    clip = camera.view_projection() @ np.append(np.asarray(point, float), 1.0)
    return clip[:3] / clip[3]


def pose(axis_angle=(0.0, 0.0, 1.0, 0.0), t=(0.0, 0.0, 0.0)) -> np.ndarray:
    M = np.eye(4)
    M[:3, :3] = axis_angle_to_matrix(axis_angle)
    M[:3, 3] = t
    return M


def test_device_camera_looks_along_x_with_z_up_and_horizontal_fov() -> None:
    cam = DeviceCamera(pose(), FOV, 64, 32, 0.01, 0.0)
    assert np.allclose(ndc(cam, (2, 0, 0))[:2], 0.0)
    # +y is the camera's left (image x < 0), +z its top (image y > 0)
    assert ndc(cam, (1, 0.1, 0))[0] < 0 < ndc(cam, (1, -0.1, 0))[0]
    assert ndc(cam, (1, 0, 0.1))[1] > 0
    # fieldOfView is horizontal: the right edge at fov/2, the top at the
    # vertical angle 2·atan(tan(fov/2)·h/w)
    half = math.tan(FOV / 2)
    assert ndc(cam, (1, -half, 0))[0] == pytest.approx(1.0)
    assert ndc(cam, (1, 0, half * 32 / 64))[1] == pytest.approx(1.0)
    assert cam.fovy() == pytest.approx(2 * math.atan(half / 2))
    # far 0 is infinite: a point very far ahead is still in front of the far plane
    assert -1 < ndc(cam, (1e7, 0, 0))[2] < 1
    assert ndc(cam, (0.01, 0, 0))[2] == pytest.approx(-1.0)
    finite = DeviceCamera(pose(), FOV, 64, 32, 0.1, 50.0)
    assert ndc(finite, (50, 0, 0))[2] == pytest.approx(1.0)
    assert ndc(finite, (0.1, 0, 0))[2] == pytest.approx(-1.0)


def test_device_camera_follows_its_pose() -> None:
    # turned a quarter about z and moved: it looks along world +y from (1, 2, 3)
    cam = DeviceCamera(pose((0, 0, 1, math.pi / 2), (1, 2, 3)), FOV, 16, 16)
    assert np.allclose(cam.eye, (1, 2, 3)) and np.allclose(cam.forward, (0, 1, 0))
    assert np.allclose(ndc(cam, (1, 5, 3))[:2], 0.0, atol=1e-12)
    assert ndc(cam, (0.5, 5, 3))[0] < 0  # world -x is its left now
    # rolled a quarter about its axis: its top (+z) points along world -y
    rolled = DeviceCamera(pose((1, 0, 0, math.pi / 2)), FOV, 16, 16)
    assert ndc(rolled, (1, -0.1, 0))[1] > 0


def test_render_rate_is_the_sampling_period() -> None:
    assert due(None, 0.0, 32.0)
    assert not due(0.0, 16.0, 32.0)
    assert due(0.0, 32.0, 32.0)
    assert due(64.0, 16.0, 32.0)  # a reset sent the time back


@pytest.fixture
def project(tmp_path) -> Path:
    target = tmp_path / "controllers_app"
    shutil.copytree(PROJECT, target)
    return target


def camera_result(qtbot, window) -> dict:
    """What camera_probe printed: camera name -> [R, G, B, image bytes] of the centre pixel."""
    prefix = "[eye] RESULT "

    def found() -> list[str]:
        return [t for s, t in window.console.kept_lines()
                if s == "controller:eye" and t.startswith(prefix)]
    qtbot.waitUntil(lambda: bool(found()), timeout=WAIT_MS)
    return json.loads(found()[0][len(prefix):])


def test_cameras_see_the_boxes_in_front_of_them(qtbot, make_window, project) -> None:
    window = make_window(project / "worlds" / "robots.wbt", ask_trust=trust)
    window.run_realtime()
    result = camera_result(qtbot, window)
    red, green = result["front"], result["left"]
    assert red[3] == 4 * 32 * 24 and green[3] == 4 * 16 * 16
    assert red[0] > 150 and red[1] < 80 and red[2] < 80, red  # a specular glint
    assert green[1] > 150 and green[0] < 80 and green[2] < 80, green
    dock = window.controllers_ui.cameras
    qtbot.waitUntil(lambda: len(dock.views) == 2, timeout=WAIT_MS)
    assert dock.isVisible()
    # the stored image, probed app-side: BGRA, rows from the top, opaque; the box
    # (0.8 m wide and high, 0.9 m ahead) fills the 45° x 34° view
    front = next(v for v in dock.views.values() if v.sampler.device.name == "front")
    image = np.frombuffer(front.sampler.read(), np.uint8).reshape(24, 32, 4)
    assert tuple(image[12, 16, :3]) == (red[2], red[1], red[0])
    assert (image[:, :, 3] == 255).all()
    assert (image[:, :, 2] > 150).all() and (image[:, :, 0] < 80).all()
    qtbot.waitUntil(lambda: front.image.pixmap() is not None
                    and not front.image.pixmap().isNull(), timeout=WAIT_MS)
    shot = os.environ.get("ODEON_TEST_SHOT")
    if shot:  # a picture to look at (the test itself does not need it)
        window.grab().save(shot)


def test_plugin_draws_in_the_robot_camera_view(qtbot, make_window, project) -> None:
    window = make_window(project / "worlds" / "camera_plugin.wbt",
                         ask_trust=trust)
    qtbot.waitUntil(lambda: window.runner.host.name == "eye_marker", timeout=WAIT_MS)
    window.run_realtime()
    result = camera_result(qtbot, window)
    yellow, green = result["front"], result["left"]
    assert yellow[0] > 200 and yellow[1] > 200 and yellow[2] < 80, yellow
    assert green[1] > 150 and green[0] < 80, green  # drawn only in front of "front"
    # the 3D view's passes have view None, the robot cameras' the robot's name
    assert {"eye", None} <= window.runner.host.plugin.module.views


def test_camera_image_is_not_mirrored_or_upside_down(qtbot, make_window, project) -> None:
    # the red box fills the top-left quarter of the image (camera_layout.wbt)
    window = make_window(project / "worlds" / "camera_layout.wbt", ask_trust=trust)
    window.run_realtime()
    camera_result(qtbot, window)
    dock = window.controllers_ui.cameras
    sampler = next(iter(dock.views.values())).sampler
    image = np.frombuffer(sampler.read(), np.uint8).reshape(24, 32, 4)  # rows from the top
    bgr = {name: tuple(int(c) for c in image[row, col, :3])
           for name, (row, col) in {"top left": (4, 4), "top right": (4, 27),
                                    "bottom left": (19, 4), "bottom right": (19, 27)}.items()}
    assert bgr["top left"][2] > 150 and bgr["top left"][0] < 80, bgr
    for corner in ("top right", "bottom left", "bottom right"):
        assert bgr[corner] == (255, 0, 0), bgr  # the sky: pure blue
