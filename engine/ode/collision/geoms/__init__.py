"""Geom classes: the Geom base and dGeom* functions, the primitives, convex, triangle mesh
(and its data), heightfield (and its data), geom transform and user classes."""
