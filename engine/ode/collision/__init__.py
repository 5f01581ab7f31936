"""ODE's collision system: geoms, spaces, dCollide and the narrow-phase colliders."""
