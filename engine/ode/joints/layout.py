"""Shared layout of joint records and of the constraint rows joints fill.

A joint kernel receives:

- ``d`` float64[JD], ``di`` int64[JI]: its record (layout per joint module);
- ``jf``: its flags (``JF_*``); ``b0``, ``b1``: body rows (``b1`` -1 when the
  joint is attached to one body; ``b0`` is never -1 inside a step);
- ``bodies``: the :class:`~engine.ode.kernels.bundles.Bodies` bundle
  (``bodies.pos (n,3)``, ``bodies.R (n,3,3)``, ``bodies.q``, ``bodies.lvel``,
  ``bodies.avel``, ``bodies.facc``, ``bodies.tacc``, ``bodies.invmass``)
  indexed by body row; ``facc``/``tacc`` may be added to (motors working
  against a stop do so);
- ``wp``: the :class:`~engine.ode.kernels.bundles.WorldParams` (``wp.fps``,
  ``wp.erp``, ``wp.cfm``, ``wp.max_correcting_vel``, ``wp.surface_layer``,
  ``wp.h``);
- ``rows``: the island's :class:`~engine.ode.kernels.bundles.Rows`
  (``rows.J (m,12)``, ``rows.c``, ``rows.cfm``, ``rows.lo``, ``rows.hi``,
  ``rows.findex``) and ``r``, the joint's first row.

``J[r]`` is ``[lin1 (3), ang1 (3), lin2 (3), ang2 (3)]``. Before ``info2``
the rows are preset as ODE presets them: J 0, c 0, cfm = world CFM,
lo = -inf, hi = +inf, findex = -1. ``findex`` written by a joint is
relative to its own first row; the assembler makes it island-relative.
"""

JD = 80          # floats per joint record
JI = 8           # ints per joint record
MAX_ROWS = 6     # most constraint rows any joint type uses

# joint flags
JF_ALIVE = 1 << 0
JF_ENABLED = 1 << 1
JF_REVERSE = 1 << 2      # attached as (NULL, body): ODE's dJOINT_REVERSE
JF_IN_GROUP = 1 << 3
JF_FEEDBACK = 1 << 4
