"""The one error type of the flat ODE API."""

from __future__ import annotations


class ODEError(ValueError):
    """Misuse of the ODE API: a NULL handle, an unknown parameter, NaN input...

    The message always names the ODE function and the argument at fault,
    e.g. ``dBodySetMass: argument 'mass': mass must be positive``.
    """

    def __init__(self, function: str, argument: str, message: str) -> None:
        self.function = function
        self.argument = argument
        super().__init__(f"{function}: argument '{argument}': {message}")
