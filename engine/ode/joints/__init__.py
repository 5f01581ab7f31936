"""ODE's joints: the Joint handle and dJoint* functions (``base``), one module per joint
type with its record layout and row kernels, and the per-type dispatch the stepper uses."""
