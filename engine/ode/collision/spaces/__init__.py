"""Spaces: the Space base and dSpace* functions, the simple/hash/SAP/quadtree spaces and
the broad phase (gathering geoms into arrays, candidate pairs)."""
