"""Errors raised by the engine during a step, turned into one pause message.

The inputs known to break a step are refused when the world is built or
when an ODE setter is called (decision 0014); this is the last line of
defence: `Simulation.step` catches `STEP_FAILURES`, pauses, and reports
`step_failure_message`, which names the world file, the simulated time and,
when one can be found, the Solid whose body holds non-finite values (or the
joint whose data holds NaN).
"""

from __future__ import annotations

import numpy as np

from engine.ode.errors import ODEError

#: engine failures a step is paused on (anything else is a bug and propagates)
STEP_FAILURES = (ODEError, ArithmeticError, MemoryError, np.linalg.LinAlgError)


def step_failure_message(model, filename: str | None, time_ms: float,
                         exc: BaseException) -> str:
    """``file: the step at t = ... ms failed: <where>: <Error>: <text>; paused``.

    ``model`` is the `engine.sim.builder.Model` stepped; ``time_ms`` the
    simulated time [ms] at the start of the failed step.
    """
    where = _culprit(model)
    if isinstance(exc, ODEError):
        text = str(exc)  # names the ODE function and argument already
    else:
        text = f"{type(exc).__name__}: {str(exc) or 'no details'}"
    head = f"{filename}: " if filename else ""
    at = f"{where}: " if where else ""
    return f"{head}the step at t = {time_ms:g} ms failed: {at}{text}; paused"


def _culprit(model) -> str | None:
    """The label of the first Solid whose body state is not finite, else of the
    first joint whose stored data holds NaN, else None."""
    store = model.ode_world.bodies
    for rec in model.bodies:
        row = rec.body.index
        values = (store.pos[row], store.lvel[row], store.avel[row], store.q[row])
        if not all(np.isfinite(v).all() for v in values):
            return rec.label
    for joint in model.joints:
        data = getattr(joint.joint, "d", None)
        # stops and FMax may be infinite: only NaN marks broken joint data
        if data is not None and np.isnan(data).any():
            node = joint.node
            return node.label() if node.def_name else node.path()
    return None
