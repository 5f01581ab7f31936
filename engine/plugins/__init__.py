"""engine.plugins — the physics-plugin host (docs/plugin-guide.md).

    from engine.plugins import PluginHost
    host = PluginHost(simulation)     # installs the Simulation's plugin hooks
    host.load_world_plugin()          # WorldInfo.physics, search order of discovery.py
    host.step()                       # one step with host.lock held
    host.draw(1, None)                # GUI thread: webots_physics_draw between steps
    host.reload_plugin()              # cleanup, fresh import, init
    host.stop_callback()              # any thread: stop a callback that does not return

Plugins themselves import ``engine.plugins.physics``. See docs/plugin-guide.md.
"""

from engine.plugins.discovery import (
    NO_PLUGIN,
    PluginLocation,
    find_plugin,
    list_plugins,
    search_roots,
)
from engine.plugins.faults import SOURCE_ERROR, SOURCE_OUTPUT, PluginError
from engine.plugins.host import PluginHost
from engine.plugins.watchdog import Budgets, PluginStopped

__all__ = [
    "Budgets",
    "NO_PLUGIN",
    "SOURCE_ERROR",
    "SOURCE_OUTPUT",
    "PluginError",
    "PluginHost",
    "PluginLocation",
    "PluginStopped",
    "find_plugin",
    "list_plugins",
    "search_roots",
]
