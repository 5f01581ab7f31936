"""The dWebots* functions of engine.plugins.physics."""

from __future__ import annotations

import pytest

from engine import ode
from engine.plugins import physics
from engine.plugins.messages import Inbox
from tests.engine.plugins.helpers import make_host, plugin_lines

WORLD = """
DEF FLOOR Solid {
  name "floor"
  boundingObject Plane { }
}
DEF WALL Solid {
  translation 2 0 0.5
  name "wall"
  boundingObject Box { size 0.1 1 1 }
}
DEF ROBOT Robot {
  translation 0 0 1
  children [
    DEF ARM Pose {
      translation 0.2 0 0
      children [
        DEF HAND Solid {
          name "hand"
          boundingObject Sphere { radius 0.05 }
          physics Physics { }
        }
      ]
    }
    HingeJoint {
      endPoint DEF WHEEL Solid {
        translation 0 0.3 0
        name "wheel"
        boundingObject Sphere { radius 0.1 }
        physics Physics { }
      }
    }
    DEF DECOR Solid {
      name "decor"
    }
  ]
  boundingObject Group { children [ Box { size 0.1 0.1 0.1 } ] }
  physics Physics { }
}
"""

LOOKUP = """
from engine.plugins.physics import *
RESULT = {}
def webots_physics_init():
    for path in QUERIES:
        RESULT[path] = (dWebotsGetBodyFromDEF(path), dWebotsGetGeomFromDEF(path))
def webots_physics_step():
    pass
def webots_physics_cleanup():
    pass
"""

QUERIES = ["FLOOR", "WALL", "ROBOT", "HAND", "ROBOT.HAND", "ROBOT.ARM.HAND", "WHEEL",
           "ROBOT.WHEEL", "ARM", "DECOR", "MISSING", "FLOOR.WHEEL", "WALL.HAND"]


@pytest.fixture
def looked_up(tmp_path):
    sim, host = make_host(tmp_path, f"QUERIES = {QUERIES!r}\n" + LOOKUP, nodes=WORLD)
    return sim, host.plugin.module.RESULT


def test_def_lookup_cases(looked_up) -> None:
    sim, r = looked_up
    rec = {name: sim.model.record_of(sim.world.find_solid_by_def(name))
           for name in ("ROBOT", "WHEEL", "WALL", "FLOOR")}
    robot_body = rec["ROBOT"].body
    assert robot_body is not None
    # static solids: no body, their geom
    assert r["FLOOR"][0] is None and ode.dGeomGetClass(r["FLOOR"][1]) == ode.dPlaneClass
    assert r["WALL"][0] is None and ode.dGeomGetClass(r["WALL"][1]) == ode.dBoxClass
    # a Group boundingObject gives its space
    assert r["ROBOT"][0] is robot_body and ode.dGeomIsSpace(r["ROBOT"][1])
    # a merged Solid gives the merged body; dots skip any number of nodes
    for path in ("HAND", "ROBOT.HAND", "ROBOT.ARM.HAND"):
        assert r[path][0] is robot_body
        assert ode.dGeomGetClass(r[path][1]) == ode.dSphereClass
    # a joint's endPoint has a body of its own
    assert r["WHEEL"][0] is rec["WHEEL"].body is r["ROBOT.WHEEL"][0]
    assert r["WHEEL"][0] is not robot_body
    # not a Solid, no physics and no boundingObject, missing, wrong scope
    assert r["ARM"] == (None, None)
    assert r["DECOR"] == (None, None)
    assert r["MISSING"] == (None, None)
    assert r["FLOOR.WHEEL"] == (None, None)
    assert r["WALL.HAND"] == (None, None)


def test_empty_def_warns_and_gives_none(tmp_path) -> None:
    sim, host = make_host(tmp_path, """
        from engine.plugins.physics import *
        OUT = []
        def webots_physics_step():
            OUT.append((dWebotsGetBodyFromDEF(""), dWebotsGetGeomFromDEF(None)))
        def webots_physics_cleanup():
            pass
    """)
    host.step()
    assert host.plugin.module.OUT == [(None, None)]
    lines = plugin_lines(sim)
    assert "WARNING: dWebotsGetBodyFromDEF(): invalid NULL or empty DEF argument." in lines
    assert "WARNING: dWebotsGetGeomFromDEF(): invalid NULL or empty DEF argument." in lines


def test_contact_group_time_and_geom_helpers(tmp_path) -> None:
    sim, host = make_host(tmp_path, """
        from engine.plugins.physics import *
        OUT = []
        def webots_physics_step():
            g = dWebotsGetGeomFromDEF("BOX")
            OUT.append((dWebotsGetContactJointGroup(), dWebotsGetTime(),
                        dAreGeomsSame(g, g), dAreGeomsSame(g, dWebotsGetGeomFromDEF("FLOOR"))))
            dGeomSetDynamicFlag(g)
        def webots_physics_cleanup():
            pass
    """)
    host.step()
    host.step()
    out = host.plugin.module.OUT
    assert out[0][0] is sim.plugin_contact_group
    assert [o[1] for o in out] == [0.0, 10.0]
    assert isinstance(out[1][1], float)
    assert out[0][2:] == (1, 0)


def test_dgeomsetdynamicflag_rejects_null() -> None:
    with pytest.raises(ode.ODEError):
        physics.dGeomSetDynamicFlag(None)


@pytest.mark.parametrize("call", [
    lambda: physics.dWebotsGetTime(),
    lambda: physics.dWebotsGetBodyFromDEF("X"),
    lambda: physics.dWebotsReceive(),
    lambda: physics.dWebotsSend(1, b"x"),
    lambda: physics.dWebotsConsolePrintf("x"),
    lambda: physics.dWebotsGetContactJointGroup(),
])
def test_outside_a_callback_is_a_clear_error(call) -> None:
    with pytest.raises(physics.NoPluginRunning, match="no plugin is running"):
        call()


def test_the_whole_ode_api_is_exported() -> None:
    namespace: dict = {}
    exec("from engine.plugins.physics import *", namespace)
    missing = [n for n in ode.__all__ if n not in namespace]
    assert missing == []
    for name in ("dWebotsGetBodyFromDEF", "dWebotsGetGeomFromDEF", "dWebotsGetContactJointGroup",
                 "dGeomSetDynamicFlag", "dAreGeomsSame", "dWebotsSend", "dWebotsReceive",
                 "dWebotsGetTime", "dWebotsConsolePrintf"):
        assert callable(namespace[name])


PRINTER = """
from engine.plugins.physics import *
TEXTS = []
def webots_physics_step():
    for fmt, args in TEXTS:
        dWebotsConsolePrintf(fmt, *args)
    TEXTS.clear()
def webots_physics_cleanup():
    pass
"""


def test_console_printf_formats_prefixes_and_splits_lines(tmp_path) -> None:
    sim, host = make_host(tmp_path, PRINTER)
    host.plugin.module.TEXTS.extend([("x = %d, y = %.2f", (3, 1.5)), ("two\nlines\n", ()),
                                     ("100%%", ())])
    host.step()
    assert sim.console.lines == [("physics", "p: x = 3, y = 1.50"), ("physics", "p: two"),
                                 ("physics", "p: lines"), ("physics", "p: 100%")]


def test_console_printf_with_a_format_that_does_not_fit_is_a_clear_fault(tmp_path) -> None:
    sim, host = make_host(tmp_path, PRINTER)
    host.plugin.module.TEXTS.append(("100%", ()))  # C would need "100%%"
    host.step()
    assert not host.running
    assert "dWebotsConsolePrintf(): the format '100%' does not fit" in sim.pause_message


def test_console_printf_form_feed_clears(tmp_path) -> None:
    sim, host = make_host(tmp_path, PRINTER)
    mod = host.plugin.module
    mod.TEXTS.extend([("old", ()), ("\f", ())])
    host.step()
    assert sim.console.lines == []
    mod.TEXTS.extend([("a", ()), ("\fb", ())])
    host.step()
    assert sim.console.lines == [("physics", "p: b")]


SENDER = """
from engine.plugins.physics import *
GOT = []
SEND = []
READS = 1
def webots_physics_step():
    for _ in range(READS):
        GOT.append(dWebotsReceive())
    for channel, data in SEND:
        dWebotsSend(channel, data)
    SEND.clear()
def webots_physics_cleanup():
    pass
"""


def test_receive_concatenates_a_steps_messages_and_second_read_is_none(tmp_path) -> None:
    sim, host = make_host(tmp_path, SENDER)
    mod = host.plugin.module
    mod.READS = 2
    assert host.deliver_from_robot(0, b"ab")
    assert host.deliver_from_robot(0, b"c\0")
    assert not host.deliver_from_robot(1, b"other channel")
    host.step()
    assert mod.GOT == [b"abc\0", None]


def test_unread_data_accumulates_across_steps(tmp_path) -> None:
    sim, host = make_host(tmp_path, SENDER)
    mod = host.plugin.module
    mod.READS = 0
    host.deliver_from_robot(0, b"1")
    host.step()
    host.deliver_from_robot(0, b"2")
    host.step()
    mod.READS = 1
    host.step()
    host.step()
    assert mod.GOT == [b"12", None]


def test_inbox_new_data_after_a_read_replaces_the_read_data() -> None:
    box = Inbox()
    box.deliver(0, b"old")
    assert box.receive() == b"old"
    box.deliver(0, b"new")
    assert box.receive() == b"new"
    assert box.receive() is None


def test_send_queues_for_robots_and_rejects_empty_data(tmp_path) -> None:
    sim, host = make_host(tmp_path, SENDER)
    mod = host.plugin.module
    mod.SEND.extend([(1, b"hello"), (2, bytearray(b"\x01\x02")), (-1, b"x"), (3, b""),
                     (3, None)])
    host.step()
    assert host.take_for_robots() == [(1, b"hello"), (2, b"\x01\x02"), (-1, b"x")]
    assert host.take_for_robots() == []
    assert sum("dWebotsSend(): invalid" in t for t in plugin_lines(sim)) == 2
    # the plugin does not hear itself (Send goes to robots' Receivers only)
    mod.SEND.append((0, b"self"))
    host.step()
    host.step()
    assert mod.GOT[-1] is None
