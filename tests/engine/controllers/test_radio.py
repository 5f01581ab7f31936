"""Emitter/Receiver through real controllers: one-step latency, channels,
range, and the physics plugin's channel both ways (Webots' timing)."""

from __future__ import annotations

import pytest

from tests.engine.controllers.project import make_project, start

ROBOT = """
Robot {
  translation %(x)g 0 0
  name "%(name)s"
  controller "%(controller)s"
  children [
    Emitter { name "tx" channel %(tx)d range %(range)g }
    Receiver { name "rx" channel %(rx)d }
  ]
}
"""


def robot(name, controller, x=0.0, tx=1, rx=1, range_=-1.0):
    return ROBOT % {"name": name, "controller": controller, "x": x, "tx": tx, "rx": rx,
                    "range": range_}


SENDER = """
import json
from controller import Robot
r = Robot()
tx = r.getDevice("tx")
k = 0
while r.step(16) != -1:
    k += 1
    tx.send(f"hello {k}")
"""

LISTENER = """
import json
from controller import Robot
r = Robot()
rx = r.getDevice("rx")
rx.enable(16)
seen = []
k = 0
while r.step(16) != -1:
    k += 1
    while rx.getQueueLength() > 0:
        seen.append([k, rx.getString(), round(rx.getSignalStrength(), 6),
                     [round(v, 6) for v in rx.getEmitterDirection()]])
        rx.nextPacket()
    if k == 6:
        print("RESULT " + json.dumps(seen), flush=True)
"""




def test_packet_sent_after_step_k_is_read_after_step_k_plus_1(run_world):
    world = ("WorldInfo { basicTimeStep 16 }\n" + robot("a", "sender", x=0.0)
             + robot("b", "listener", x=2.0))
    run = run_world(world, {"sender": SENDER, "listener": LISTENER})
    run.step(8)
    seen = run.results("b")[0]
    # sent after the sender's step k returned -> read after the listener's step k+1
    assert [item[:2] for item in seen] == [[k + 1, f"hello {k}"] for k in range(1, 6)]
    strength, direction = seen[0][2], seen[0][3]
    assert strength == pytest.approx(1.0 / 4.0)               # 1 / d^2, d = 2 m
    assert direction == [-1.0, 0.0, 0.0]                      # towards the emitter


def test_channels_and_range_filter_packets(run_world):
    world = ("WorldInfo { basicTimeStep 16 }\n"
             + robot("a", "sender", x=0.0, tx=1, range_=1.5)
             + robot("near", "listener", x=1.0, rx=1)
             + robot("far", "listener", x=2.0, rx=1)
             + robot("other", "listener", x=1.0, rx=2)
             + robot("all", "listener", x=1.0, rx=-1))
    run = run_world(world, {"sender": SENDER, "listener": LISTENER})
    run.step(8)
    assert len(run.results("near")[0]) == 5
    assert run.results("far")[0] == []                        # beyond the range
    assert run.results("other")[0] == []                      # another channel
    assert len(run.results("all")[0]) == 5                    # -1 hears every channel


PLUGIN = """
from engine.plugins.physics import *

received = []

def webots_physics_init():
    received.clear()

def webots_physics_step():
    data = dWebotsReceive()
    t = dWebotsGetTime()
    if data is not None:
        dWebotsConsolePrintf("plugin got %s at %g ms", data.decode(), t)
        dWebotsSend(3, f"echo {data.decode()} at {t:g}".encode())

def webots_physics_cleanup():
    pass
"""

TALKER = """
import json
from controller import Robot
r = Robot()
tx, rx = r.getDevice("tx"), r.getDevice("rx")
rx.enable(16)
tx.send("ping")
seen = []
for k in range(1, 5):
    r.step(16)
    while rx.getQueueLength():
        seen.append([round(r.getTime() * 1000), rx.getString(), rx.getSignalStrength()])
        rx.nextPacket()
print("RESULT " + json.dumps(seen), flush=True)
while r.step(16) != -1:
    pass
"""


def test_plugin_and_controller_messages_in_the_documented_steps(tmp_path):
    world = ('WorldInfo { basicTimeStep 16 physics "relay" }\n'
             + robot("talker", "talker", tx=0, rx=3))
    run = start(make_project(tmp_path, world, {"talker": TALKER}, {"relay": PLUGIN}),
                plugin=True)
    try:
        run.step(6)
    finally:
        run.stop()
    # sent before the first step: the plugin reads it inside step 1 (time 0 ms at its start)
    assert "plugin got ping at 0 ms" in run.text()
    # its dWebotsSend in that step is read by the controller right after step 1 (16 ms)
    assert run.results("talker")[0] == [[16, "echo ping at 0", float("inf")]]
