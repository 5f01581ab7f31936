"""The viewport on the bundled default world with its real physics plugin (flying_robot)."""

from __future__ import annotations

from tests.app.test_viewport_helpers import count_near, pixels, shown_viewport


def test_default_world_with_plugin_draw(qtbot, gl_available):
    from engine.plugins import PluginHost
    from engine.sim.simulation import Simulation

    sim = Simulation("resources/worlds/default.wbt")
    host = PluginHost(sim)
    host.load_world_plugin()
    for _ in range(120):  # the robot lifts off after 1 s; the plugin's ray is then known
        host.step()
    assert host.errors == []
    w = shown_viewport(qtbot, (640, 480))
    w.set_world(sim.world)
    plain = pixels(w.grabFramebuffer())
    w.set_plugin_draw(lambda pass_: host.draw(pass_, None))
    drawn = pixels(w.grabFramebuffer())
    assert w.gl_errors == [] and w.paint_errors == [] and w.plugin_errors == []
    assert host.errors == []
    ray = count_near(drawn, (255, 255, 0), 25) - count_near(plain, (255, 255, 0), 25)
    assert ray > 20  # the plugin's yellow ray line
    w.close()
    host.close()
