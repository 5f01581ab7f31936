"""Emitter -> Receiver transmission, and the physics plugin's channel.

Timing (Webots'; docs/controllers.md, "Emitter and Receiver"): a packet an
Emitter sends travels with its controller's step request; at the start of the
next world step `Radio.transmit` puts it in the waiting queue of every
Receiver that hears it and, when the emitter's channel is 0, in the
plugin's receive buffer (`dWebotsReceive` sees it in that same step). A
Receiver moves its waiting packets to the controller at each of its
samples. `dWebotsSend(channel, data)` packets reach, at the end of the
step, every enabled Receiver whose channel is exactly ``channel``.

A Receiver hears a packet when: it is enabled; the media match (radio and
serial are one medium, infra-red another); the channels match (equal, or
either is -1); the emitter is on another robot; the distance is within the
emitter's range (-1 = infinite); for infra-red, the receiver lies inside
the emitter's cone (half-angle aperture/2 about its +x axis; aperture -1 =
all directions). Occlusion of infra-red by obstacles is not modelled.
An Emitter with a baudRate sends at most baudRate·dt/8 bytes per step
(whole packets, in order; the rest wait); an Emitter or Receiver with a
bufferSize keeps at most that many bytes queued (newer packets dropped).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from engine.controllers.device_records import RobotDevice
from engine.ode.kernels import detmath
from engine.sim.channels import PLUGIN_CHANNEL


@dataclass
class Packet:
    """Bytes on a channel from an Emitter (``source`` None: from the plugin),
    with the emitter's range [m] at send time."""

    data: bytes
    channel: int
    range: float
    source: RadioEnd | None = None


@dataclass
class RadioEnd:
    """An Emitter or Receiver: its device, robot, medium and queues."""

    device: RobotDevice
    robot: str
    medium: str
    channel: int
    buffer_size: int
    baud_rate: int = -1
    aperture: float = -1.0
    outgoing: list[Packet] = field(default_factory=list)
    waiting: list[tuple] = field(default_factory=list)

    def outgoing_bytes(self) -> int:
        """Bytes an Emitter holds, not sent yet."""
        return sum(len(packet.data) for packet in self.outgoing)

    def waiting_bytes(self) -> int:
        """Bytes a Receiver holds for its next sample (items: data first)."""
        return sum(len(item[0]) for item in self.waiting)


def _medium(node) -> str:
    return "infra-red" if str(node.get("type")) == "infra-red" else "radio"


class Radio:
    """Every Emitter and Receiver of the running controllers (module docstring)."""

    def __init__(self, frame_of: Callable[[object], tuple[np.ndarray, np.ndarray]],
                 step_s: float, warn: Callable[[str, str], None]) -> None:
        #: frame_of(node) -> (R 3x3, t 3) of a device's world frame now
        self._frame_of = frame_of
        self._step_s = step_s
        self._warn = warn
        self.emitters: list[RadioEnd] = []
        self.receivers: list[RadioEnd] = []

    # ------------------------------------------------------------ building
    def add_emitter(self, device: RobotDevice, robot: str) -> None:
        node = device.node
        end = RadioEnd(device, robot, _medium(node), int(node.get("channel")),
                       int(node.get("bufferSize")), int(node.get("baudRate")),
                       float(node.get("aperture")))
        self.emitters.append(end)

        def send(data: bytes, channel: int, rng: float) -> None:
            if end.buffer_size != -1 and \
                    end.outgoing_bytes() + len(data) > end.buffer_size:
                self._warn(robot, f'Emitter "{device.name}": buffer full ({end.buffer_size} '
                                  "bytes), packet dropped")
                return
            end.outgoing.append(Packet(bytes(data), int(channel), float(rng), end))

        device.handlers["send"] = send

    def add_receiver(self, device: RobotDevice, robot: str) -> None:
        node = device.node
        end = RadioEnd(device, robot, _medium(node), int(node.get("channel")),
                       int(node.get("bufferSize")), aperture=float(node.get("aperture")))
        self.receivers.append(end)

        def set_channel(channel: int) -> None:
            end.channel = int(channel)

        device.handlers["channel"] = set_channel

    def forget_robot(self, robot: str) -> None:
        """Drop the ends of a robot whose controller stopped."""
        self.emitters = [e for e in self.emitters if e.robot != robot]
        self.receivers = [r for r in self.receivers if r.robot != robot]

    # ------------------------------------------------------------ stepping
    def transmit(self, to_plugin: Callable[[int, bytes], bool] | None) -> None:
        """Start of a step: every emitter's due packets to the receivers that
        hear them, and channel-0 packets to the plugin."""
        for emitter in self.emitters:
            for packet in self._due(emitter):
                if to_plugin is not None and packet.channel == PLUGIN_CHANNEL:
                    to_plugin(packet.channel, packet.data)
                for receiver in self.receivers:
                    heard = self._hears(receiver, emitter, packet)
                    if heard is not None:
                        self._enqueue(receiver, heard)

    def from_plugin(self, packets: list[tuple[int, bytes]]) -> None:
        """End of a step: `dWebotsSend` packets to the enabled receivers on that channel."""
        for channel, data in packets:
            for receiver in self.receivers:
                if receiver.device.period_steps > 0 and receiver.channel == channel:
                    self._enqueue(receiver, (bytes(data), channel, math.inf,
                                             [math.nan, math.nan, math.nan]))

    def take(self, receiver_device: RobotDevice) -> list[tuple]:
        """A receiver's waiting packets (its sample is due), oldest first."""
        for receiver in self.receivers:
            if receiver.device is receiver_device:
                out, receiver.waiting = receiver.waiting, []
                return out
        return []

    def _due(self, emitter: RadioEnd) -> list[Packet]:
        if emitter.baud_rate <= 0:
            out, emitter.outgoing = emitter.outgoing, []
            return out
        budget = emitter.baud_rate * self._step_s / 8.0
        out = []
        # whole packets in order; the first one goes even when larger than a step's budget
        while emitter.outgoing and (not out or len(emitter.outgoing[0].data) <= budget):
            packet = emitter.outgoing.pop(0)
            budget -= len(packet.data)
            out.append(packet)
        return out

    def _enqueue(self, receiver: RadioEnd, item: tuple) -> None:
        if receiver.buffer_size != -1 and \
                receiver.waiting_bytes() + len(item[0]) > receiver.buffer_size:
            return
        receiver.waiting.append(item)

    def _hears(self, receiver: RadioEnd, emitter: RadioEnd, packet: Packet) -> tuple | None:
        """``(data, channel, strength, direction)`` when ``receiver`` gets the packet."""
        if receiver.device.period_steps <= 0 or receiver.robot == emitter.robot:
            return None
        if receiver.medium != emitter.medium:
            return None
        if not (packet.channel == receiver.channel or packet.channel == -1
                or receiver.channel == -1):
            return None
        e_R, e_t = self._frame_of(emitter.device.node)
        r_R, r_t = self._frame_of(receiver.device.node)
        offset = [float(e_t[k] - r_t[k]) for k in range(3)]
        distance = math.sqrt(offset[0] * offset[0] + offset[1] * offset[1]
                             + offset[2] * offset[2])
        if packet.range != -1.0 and distance > packet.range:
            return None
        if emitter.medium == "infra-red" and emitter.aperture >= 0.0 and distance > 0.0:
            # the receiver must lie within aperture/2 of the emitter's +x axis
            cos_angle = -sum(offset[k] * float(e_R[k][0]) for k in range(3)) / distance
            if cos_angle < detmath.cos(emitter.aperture / 2.0):
                return None
        strength = math.inf if distance == 0.0 else 1.0 / (distance * distance)
        if distance == 0.0:
            direction = [math.nan, math.nan, math.nan]
        else:
            # towards the emitter, in the receiver's frame: R^T (offset / |offset|)
            direction = [sum(float(r_R[k][j]) * offset[k] for k in range(3)) / distance
                         for j in range(3)]
        return (packet.data, packet.channel, strength, direction)
