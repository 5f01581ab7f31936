"""Simulation.pause / resume: the reason is kept until resume, the state is
read-only to others, and the step's and the plugin host's pauses go through it."""

from __future__ import annotations

import pytest

from engine import ode
from engine.sim import Simulation
from tests.engine.plugins.helpers import make_host
from tests.engine.sim.helpers import make_sim

BALL = ("DEF FLOOR Solid { boundingObject Plane { } } DEF BALL Solid { translation 0 0 1 "
        "boundingObject Sphere { radius 0.1 } physics Physics { } }")

FAILS_IN_STEP = """
from engine.plugins.physics import *
def webots_physics_init():
    pass
def webots_physics_step():
    raise RuntimeError("boom")
def webots_physics_cleanup():
    pass
"""

QUIET = """
from engine.plugins.physics import *
def webots_physics_init():
    pass
def webots_physics_step():
    pass
def webots_physics_cleanup():
    pass
"""


def record_pauses(sim: Simulation) -> list[str]:
    """The reasons given to ``sim.pause`` from now on (the pause still happens)."""
    reasons: list[str] = []
    pause = sim.pause

    def recording(reason: str) -> None:
        reasons.append(reason)
        pause(reason)

    setattr(sim, "pause", recording)  # noqa: B010 (an instance attribute over the method)
    return reasons


def test_pause_keeps_the_reason_and_stops_stepping_until_resume() -> None:
    sim = make_sim(BALL)
    assert not sim.paused and sim.pause_message == ""
    assert sim.step()
    sim.pause("looking at the ball")
    assert sim.paused and sim.pause_message == "looking at the ball"
    t = sim.time_ms
    assert sim.step() is False and sim.time_ms == t
    assert sim.pause_message == "looking at the ball"  # kept while paused
    sim.resume()
    assert not sim.paused and sim.pause_message == ""
    assert sim.step() and sim.time_ms == t + sim.basic_time_step


def test_pause_state_is_read_only() -> None:
    sim = make_sim(BALL)
    with pytest.raises(AttributeError):
        setattr(sim, "paused", True)  # noqa: B010 (a read-only property)
    with pytest.raises(AttributeError):
        setattr(sim, "pause_message", "x")  # noqa: B010
    assert not sim.paused and sim.pause_message == ""


def test_load_state_and_reset_resume() -> None:
    sim = make_sim(BALL)
    state = sim.save_state()
    sim.pause("before load")
    sim.load_state(state)
    assert not sim.paused and sim.pause_message == ""
    sim.pause("before reset")
    sim.reset()
    assert not sim.paused and sim.pause_message == ""


def test_an_exploding_body_pauses_with_its_message() -> None:
    sim = make_sim(BALL, "gravity 0")
    reasons = record_pauses(sim)
    ball = sim.body_from_def("BALL")
    ode.dBodySetLinearVel(ball, 0.0, 0.0, 1e9)
    assert sim.step() is False
    assert reasons == [sim.pause_message]
    assert sim.pause_message == ("Solid (DEF BALL): the simulation exploded (position or "
                                 "velocity beyond 1e+06); paused")


def test_a_plugin_fault_pauses_through_pause(tmp_path) -> None:
    sim, host = make_host(tmp_path, FAILS_IN_STEP)
    assert host.running
    reasons = record_pauses(sim)
    host.step()
    assert not host.running and sim.paused
    assert reasons == [sim.pause_message]
    assert sim.pause_message.startswith("physics plugin 'p' failed in webots_physics_step() at ")
    assert sim.pause_message.endswith("RuntimeError: boom")
    sim.resume()  # carry on without the plugin
    t = sim.time_ms
    assert host.step() and sim.time_ms > t and not sim.paused


def test_stopping_a_plugin_pauses_through_pause(tmp_path) -> None:
    sim, host = make_host(tmp_path, QUIET)
    assert host.running
    reasons = record_pauses(sim)
    host.disable()
    assert reasons == ["physics plugin 'p' stopped by the user"]
    assert sim.paused and sim.pause_message == reasons[0]
