"""Odeon's own ODE objects, checked after each plugin callback.

A plugin holds handles to the simulation's world, space and contact joint
group (``dWebotsGetContactJointGroup``) and may destroy them (``dWorldDestroy``,
``dSpaceDestroy``, ``dJointGroupDestroy``). The host checks them after every
callback; a destroyed one is the plugin's fault (named with its callback),
the step in progress is abandoned (`StepAborted`) and the ODE objects are
built again from the world's current fields (`rebuild_objects`), so the
node tree, the time and the user's edits are kept.
"""

from __future__ import annotations


class StepAborted(Exception):  # noqa: N818 (a control-flow signal, caught by the host)
    """Raised out of a Simulation hook to abandon the step in progress (the
    plugin destroyed an object the step needs); `PluginHost.step` catches it."""


#: What `owned_objects` lists, in its order.
_OWNED_NAMES = ("the world", "the collision space", "the contact joint group",
                "the plugin's contact joint group")


def owned_objects(sim) -> tuple:
    """The simulation's own ODE objects a plugin could destroy (world, space,
    contact joint group, the plugin's contact joint group)."""
    model = sim.model
    return model.ode_world, model.space, sim.contact_group, sim.plugin_contact_group


def destroyed_objects(sim) -> list[str]:
    """Names of the simulation's own ODE objects that are no longer alive
    (``[]`` when all are)."""
    return [name for name, obj in zip(_OWNED_NAMES, owned_objects(sim), strict=True)
            if not getattr(obj, "alive", True)]


def rebuild_objects(sim) -> None:
    """Build the simulation's ODE objects again from the current fields (time
    and step count kept, bodies at rest at their current poses), without
    running the plugin hooks."""
    before, after = sim.before_reset, sim.after_reset
    sim.before_reset = sim.after_reset = None
    try:
        sim.rebuild()
    finally:
        sim.before_reset, sim.after_reset = before, after
