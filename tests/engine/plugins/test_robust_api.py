"""dRobust*: robust contacts from a plugin in a world with Webots' default contacts."""

from __future__ import annotations

import math

import pytest

from engine import ode
from engine.plugins.context import NoPluginRunning
from engine.plugins.physics import SurfaceParameters, dRobustCollide, dRobustGetGeomPadding
from tests.engine.plugins.helpers import make_host, plugin_lines

ROBUST = """
from engine.plugins.physics import *
MADE = []
def webots_physics_init():
    global BOX, FLOOR
    BOX, FLOOR = dWebotsGetGeomFromDEF("BOX"), dWebotsGetGeomFromDEF("FLOOR")
    dRobustSetGeomPadding(BOX, {padding})
    dRobustSetBodySurface(dWebotsGetBodyFromDEF("BOX"),
                          SurfaceParameters(k_friction=0.6, k_restitution=0.0,
                                            k_stiffness=math.inf, k_damping=math.inf))
def webots_physics_collide(g1, g2):
    if {{id(g1), id(g2)}} != {{id(BOX), id(FLOOR)}}:
        return 0
    MADE.append(dRobustCollide(BOX, FLOOR))
    return 1
def webots_physics_step():
    pass
def webots_physics_cleanup():
    pass
"""


def _box_z(sim) -> float:
    return float(ode.dBodyGetPosition(sim.body_from_def("BOX"))[2])


def test_a_plugin_makes_padded_contacts_that_hold_the_box_one_padding_up(tmp_path) -> None:
    sim, host = make_host(tmp_path, "import math\n" + ROBUST.format(padding=0.004))
    assert sim.contact_model == "default"
    for _ in range(150):
        assert host.step(), sim.pause_message
    made = host.plugin.module.MADE
    assert made and 4 <= made[-1] <= 20
    assert _box_z(sim) == pytest.approx(0.1 + 0.004, abs=3e-4)  # box half size 0.1 + padding
    assert sim.contacts == []  # the pair is the plugin's
    assert plugin_lines(sim, "plugin-error") == []
    # the surface the plugin gave is blended with the static floor's (0.3): 2·0.6·0.3/0.9
    box = sim.geom_from_def("BOX")
    assert sim.robust_pairs.geom_surface(box).k_friction == 0.6
    assert 2 * 0.6 * 0.3 / 0.9 == pytest.approx(0.4)


def test_robust_functions_need_a_running_plugin_and_check_their_arguments(tmp_path) -> None:
    with pytest.raises(NoPluginRunning, match="dRobustCollide"):
        dRobustCollide(None, None)
    with pytest.raises(NoPluginRunning, match="dRobustGetGeomPadding"):
        dRobustGetGeomPadding(None)
    bad = """
from engine.plugins.physics import *
def webots_physics_init():
    dRobustSetGeomPadding(dWebotsGetGeomFromDEF("BOX"), -1.0)
def webots_physics_step():
    pass
def webots_physics_cleanup():
    pass
"""
    sim, host = make_host(tmp_path, bad, name="bad")
    errors = " ".join(plugin_lines(sim, "plugin-error"))
    assert "set_padding" in errors or "padding" in errors
    with pytest.raises(ValueError):
        SurfaceParameters(k_friction=-1.0, k_restitution=0.0, k_stiffness=math.inf,
                          k_damping=math.inf)

