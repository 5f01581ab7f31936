"""PROTO stand-ins in the simulation: build an instance as its expansion.

`engine.sim.builder` walks `expanded(node)` in place of a stand-in instance
(`engine.world.protos`), so a RectangleArena builds its floor plane and four
wall boxes, a SolidBox its box (with a body when it has Physics). The
records are those of the expansion's Solids; `alias_instances` then maps
each instance to its expansion root's record, so everything that looks a
Solid up by the world's node (``Model.record_of``, ``body_from_def`` for
dWebotsGetBodyFromDEF, the supervisor) finds it through the instance.
"""

from __future__ import annotations

from engine.world.protos import expanded, instance_of

__all__ = ["alias_instances", "expanded"]


def alias_instances(by_node: dict, solids: list) -> None:
    """Add ``id(instance) -> record`` to ``by_node`` for every record whose
    node is a stand-in instance's expansion root."""
    for rec in solids:
        instance = instance_of(rec.node)
        if instance is not None:
            by_node[id(instance)] = rec
