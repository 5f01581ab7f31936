"""The robust_rover sample: a rover on a mesh terrain under the robust contact model."""

from __future__ import annotations

import numpy as np

from engine.contact.adaptive import SimStatus
from engine.contact.padding import padding_of
from tests.plugins.helpers import errors, physics_lines, position, run_until, start

WHEELS = ("WHEEL_FL", "WHEEL_FR", "WHEEL_RL", "WHEEL_RR")


def _terrain_height(x: float, y: float) -> float:
    return 0.02 * np.sin(3.0 * x) * np.cos(2.0 * y)


def test_the_rover_settles_on_its_wheels_then_drives_over_the_terrain() -> None:
    sim, host = start("robust_rover")
    assert sim.contact_model == "robust"
    mod = host.plugin.module
    assert len(mod.wheels) == 4
    for name in WHEELS:
        assert padding_of(sim.geom_from_def(name)) == mod.WHEEL_PADDING
    run_until(sim, host, 1.0)
    start_x = position(sim, "ROVER")[0]
    lowest_gap = np.inf
    statuses = set()
    while sim.time_ms < 4000.0 - 1e-9:
        assert host.step(), sim.pause_message
        statuses.add(sim.contact_status)
        for name in WHEELS:
            p = position(sim, name)
            # the wheel's lowest point stays above the terrain under it
            lowest_gap = min(lowest_gap, p[2] - 0.05 - _terrain_height(p[0], p[1]))
    travelled = position(sim, "ROVER")[0] - start_x
    # 4 rad/s on 5 cm wheels is 0.2 m/s: about 0.6 m in 3 s once up to speed
    assert 0.3 < travelled < 0.7
    assert abs(position(sim, "ROVER")[1]) < 0.1
    assert lowest_gap > -0.003  # never sinks into the mesh
    assert SimStatus.CONTACT_UNRELIABLE not in statuses
    assert SimStatus.UNSTABLE not in statuses
    assert errors(sim) == []
    assert any("rover at" in line for line in physics_lines(sim))


def test_wheel_contacts_are_the_plugins_robust_ones() -> None:
    sim, host = start("robust_rover")
    sim.record_contact_feedback = True
    run_until(sim, host, 1.0)
    contacts = sim.contact_set()
    wheel_nodes = {sim.world.find_solid_by_def(n) for n in WHEELS}
    plugin_wheel = [k for k in range(len(contacts)) if contacts.plugin[k]
                    and ({contacts.solid1[k], contacts.solid2[k]} & wheel_nodes)]
    assert plugin_wheel  # dRobustCollide made them
    # on the terrain (rolling slowly down its gentle slope on free wheels), the
    # contact forces carry the rover's 2.4 kg
    vertical = sum(abs(contacts.force[k][2]) for k in range(len(contacts))
                   if contacts.has_force[k])
    assert abs(vertical - 2.4 * 9.81) < 0.05 * 2.4 * 9.81
