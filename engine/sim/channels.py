"""Emitter/Receiver channel facts shared by the physics plugins
(`engine.plugins`) and the controllers (`engine.controllers`)."""

from __future__ import annotations

#: The only channel a physics plugin receives on (dWebotsReceive): Emitters on
#: channel 0 reach it.
PLUGIN_CHANNEL = 0
