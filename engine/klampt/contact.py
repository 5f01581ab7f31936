"""Klamp't's ``contact.simContactMap``: every touching pair's contact points.

``simContactMap(sim)`` maps each pair of body IDs (a < b) touching at the end
of the last sub-step to its contacts as `ContactPoint`s (Klamp't's
``klampt.model.contact.ContactPoint``: point ``x`` [m], unit normal ``n`` from
b into a, friction coefficient ``kFriction``).
"""

from __future__ import annotations

from typing import NamedTuple


class ContactPoint(NamedTuple):
    """One contact: ``x`` (3-list, m), ``n`` (3-list, from b into a), ``kFriction``."""

    x: list
    n: list
    kFriction: float


def simContactMap(sim) -> dict[tuple[int, int], list[ContactPoint]]:
    """{(a, b): [ContactPoint, ...]} of the pairs of ``sim`` (a `Simulator`) in
    contact after its last sub-step, a < b."""
    out: dict[tuple[int, int], list[ContactPoint]] = {}
    for (a, b), c in sorted(sim.feedback.last.items()):
        out[(a, b)] = [ContactPoint(p.tolist(), n.tolist(), float(mu))
                       for p, n, mu in zip(c.pos, c.normal, c.mu, strict=True)]
    return out
