"""Radio rules without processes (engine/controllers/radio.py): baudRate spreads
packets over steps, bufferSize drops what does not fit, an infra-red emitter
reaches only receivers inside its cone, media do not mix."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine.controllers.device_records import RobotDevice
from engine.controllers.radio import Radio
from engine.world import Node

DT = 0.016


def _device(node: Node, tag: int) -> RobotDevice:
    return RobotDevice(tag, node, str(node.get("name")), node.type_name, {})


class Setup:
    """A radio with devices placed at given world positions (identity rotations
    unless given)."""

    def __init__(self) -> None:
        self.frames: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self.warnings: list[str] = []
        self.radio = Radio(lambda node: self.frames[id(node)], DT,
                           lambda robot, text: self.warnings.append(text))

    def emitter(self, robot: str, at, R=None, **fields) -> RobotDevice:
        node = Node("Emitter", **fields)
        self.frames[id(node)] = (np.eye(3) if R is None else R, np.array(at, float))
        device = _device(node, len(self.frames))
        self.radio.add_emitter(device, robot)
        return device

    def receiver(self, robot: str, at, **fields) -> RobotDevice:
        node = Node("Receiver", **fields)
        self.frames[id(node)] = (np.eye(3), np.array(at, float))
        device = _device(node, len(self.frames))
        device.period_steps = 1  # enabled
        self.radio.add_receiver(device, robot)
        return device


def test_baud_rate_spreads_packets_over_steps():
    s = Setup()
    # 8000 bit/s over 16 ms steps: 16 bytes per step
    tx = s.emitter("a", (0, 0, 0), baudRate=8000)
    rx = s.receiver("b", (1, 0, 0))
    for k in range(3):
        tx.handlers["send"](bytes([k]) * 10, 0, -1.0)
    per_step = []
    for _ in range(3):
        s.radio.transmit(None)
        per_step.append([p[0][0] for p in s.radio.take(rx)])
    # 10 bytes fit in a 16-byte step, the next 10 do not: one packet per step
    assert per_step == [[0], [1], [2]]


def test_buffer_size_drops_what_does_not_fit():
    s = Setup()
    tx = s.emitter("a", (0, 0, 0), bufferSize=25)
    rx = s.receiver("b", (1, 0, 0), bufferSize=15)
    for k in range(3):
        tx.handlers["send"](bytes([k]) * 10, 0, -1.0)
    assert len(s.warnings) == 1 and "buffer full" in s.warnings[0]   # the third: 30 > 25
    s.radio.transmit(None)
    assert [p[0][0] for p in s.radio.take(rx)] == [0]                # 20 > 15: second dropped


def test_infra_red_reaches_only_receivers_inside_its_cone():
    s = Setup()
    tx = s.emitter("a", (0, 0, 0), type="infra-red", aperture=math.pi / 2)  # ±45° about +x
    ahead = s.receiver("b", (1, 0.5, 0), type="infra-red")      # 26.6° off axis
    aside = s.receiver("c", (1, 1.5, 0), type="infra-red")      # 56.3° off axis
    behind = s.receiver("d", (-1, 0, 0), type="infra-red")
    radio_rx = s.receiver("e", (1, 0, 0))                       # another medium
    tx.handlers["send"](b"x", 0, -1.0)
    s.radio.transmit(None)
    assert len(s.radio.take(ahead)) == 1
    assert s.radio.take(aside) == [] and s.radio.take(behind) == []
    assert s.radio.take(radio_rx) == []


def test_a_robot_does_not_hear_itself_and_disabled_receivers_hear_nothing():
    s = Setup()
    tx = s.emitter("a", (0, 0, 0))
    own = s.receiver("a", (0.5, 0, 0))
    off = s.receiver("b", (0.5, 0, 0))
    off.period_steps = 0
    tx.handlers["send"](b"x", 0, -1.0)
    s.radio.transmit(None)
    assert s.radio.take(own) == [] and s.radio.take(off) == []


def test_channel_zero_reaches_the_plugin_and_plugin_packets_match_channels_exactly():
    s = Setup()
    tx = s.emitter("a", (0, 0, 0))
    on_3 = s.receiver("b", (1, 0, 0), channel=3)
    on_all = s.receiver("c", (1, 0, 0), channel=-1)
    to_plugin = []
    tx.handlers["send"](b"up", 0, -1.0)
    tx.handlers["send"](b"side", 5, -1.0)
    s.radio.transmit(lambda channel, data: to_plugin.append((channel, data)))
    assert to_plugin == [(0, b"up")]
    s.radio.take(on_all)
    s.radio.from_plugin([(3, b"down")])
    (packet,) = s.radio.take(on_3)
    assert packet[0] == b"down" and packet[2] == math.inf
    assert s.radio.take(on_all) == []   # dWebotsSend: the exact channel only


@pytest.mark.parametrize("range_, heard", [(-1.0, True), (2.5, True), (1.5, False)])
def test_range(range_, heard):
    s = Setup()
    tx = s.emitter("a", (0, 0, 0))
    rx = s.receiver("b", (0, 2, 0))
    tx.handlers["send"](b"x", 0, range_)
    s.radio.transmit(None)
    assert bool(s.radio.take(rx)) is heard
