"""ODE's collision system, in layers (each imports only those below it):

- ``native``; ``batch`` (whole-space contacts in one compiled pass), ``geom_utils``;
- ``matrix``: the whole collider matrix, (class1, class2) -> collider;
- ``pairs``: the narrow phase, one module per line of ODE's matrix;
- ``dispatch``: dCollide and dSetColliderOverride;
- ``spaces``: spaces and the broad phase;
- ``geoms``: the geom classes;
- ``table``: the collider table dCollide reads.
"""
