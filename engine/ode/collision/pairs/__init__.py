"""Narrow phase: one module per line of ODE's collider matrix (``colliders_*``: contact
rows of a pair of geom classes) and the kernels they share (GJK/EPA, support mappings,
mesh surfaces, triangle tests). Which function serves which pair is listed in
:mod:`engine.ode.collision.matrix`."""
