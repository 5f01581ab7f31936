"""Robust contacts and actuators: Klamp't's contact model as an engine library.

Boundary layers (padded shells around every geom), clustering of contact
points, blended per-body surfaces, adaptive time stepping helpers, PID
actuators and stick-slip joint friction. Used by `engine.sim` (worlds that
choose the robust model), by physics plugins (`engine.plugins.physics`) and,
through them, by the app. See docs/robust-contacts.md.
"""

from engine.contact.padding import padding_of, set_padding

__all__ = ["padding_of", "set_padding"]
