"""Shared layout of joint records and of the constraint rows joints fill.

A joint kernel receives:

- ``d`` float64[JD], ``di`` int64[JI]: its record (layout per joint module);
- ``jf``: its flags (``JF_*``); ``b0``, ``b1``: body rows (``b1`` -1 when the
  joint is attached to one body; ``b0`` is never -1 inside a step);
- ``B``: body arrays tuple ``(pos (n,3), R (n,3,3), q (n,4), lvel (n,3),
  avel (n,3), facc (n,3), tacc (n,3), invmass (n,))`` indexed by body row;
  ``facc``/``tacc`` may be added to (motors working against a stop do so);
- ``wp``: world parameters float64[WP_SIZE] (``WP_*`` indices);
- ``rows``: the island's row arrays tuple ``(J (m,12), c (m,), cfm (m,),
  lo (m,), hi (m,), findex (m,))`` and ``r``, the joint's first row.

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

# world parameters handed to kernels
WP_FPS = 0        # 1 / step size (1/s)
WP_ERP = 1        # world ERP
WP_CFM = 2        # world CFM
WP_MAX_VEL = 3    # contact max correcting velocity (m/s)
WP_LAYER = 4      # contact surface layer (m)
WP_H = 5          # step size (s)
WP_SIZE = 6

# row tuple indices
ROW_J, ROW_C, ROW_CFM, ROW_LO, ROW_HI, ROW_FINDEX = range(6)
# body tuple indices
B_POS, B_R, B_Q, B_LVEL, B_AVEL, B_FACC, B_TACC, B_INVMASS = range(8)
