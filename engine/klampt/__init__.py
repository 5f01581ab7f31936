"""Klamp't's Simulator API and batch simulation over Odeon worlds (DESIGN.md 9).

`engine.klampt` mirrors Klamp't's Python names (its simulation seed) over
`.wbt` worlds, as `engine.ode` mirrors ODE's; docs/scripting.md is the guide.
"""
