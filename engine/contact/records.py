"""Records of the contact library: the arrays its functions return."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class PaddedContacts(NamedTuple):
    """Boundary-layer contacts of one geom pair (``engine.contact.boundary``).

    ``pos (n, 3)`` float64 m: the midpoint between the two closest points of
    the unpadded shapes; ``normal (n, 3)`` float64 unit, ODE's convention:
    pointing into geom 1 (from geom 2 towards geom 1; moving geom 1 by
    ``depth`` along it separates the padded shells); ``depth (n,)`` float64 m:
    ``pad1 + pad2 - distance`` (> 0), and ``pad1 + pad2 + penetration depth``
    when the unpadded shapes overlap; ``penetrating (n,)`` bool: the
    unpadded shapes overlap at this contact.
    """

    pos: np.ndarray
    normal: np.ndarray
    depth: np.ndarray
    penetrating: np.ndarray
