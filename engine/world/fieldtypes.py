"""Field types of the `.wbt` format: value checking and normalisation.

Python representation of values:

- SFBool -> bool, SFInt32 -> int (32-bit signed), SFFloat -> float
- SFVec2f -> tuple of 2 floats, SFVec3f / SFColor -> 3 floats,
  SFRotation -> 4 floats (axis x y z, angle in rad)
- SFString -> str, SFNode -> a node or None
- MFxxx -> tuple of the SFxxx values (MFNode: tuple of nodes)

`normalize_sf` checks one single value and returns its canonical form or
raises `TypeError`/`ValueError` with a short reason; the model turns that
into a `FieldValueError` naming node and field.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

from engine.world.lexer import escape_string

SF_TYPES = (
    "SFBool",
    "SFInt32",
    "SFFloat",
    "SFVec2f",
    "SFVec3f",
    "SFRotation",
    "SFColor",
    "SFString",
    "SFNode",
)
MF_TYPES = tuple("MF" + t[2:] for t in SF_TYPES)
ALL_TYPES = SF_TYPES + MF_TYPES

# number of floats of the vector types
VECTOR_SIZES = {"SFVec2f": 2, "SFVec3f": 3, "SFColor": 3, "SFRotation": 4}
INT32_MIN = -(2**31)
INT32_MAX = 2**31 - 1


def is_mf(type_name: str) -> bool:
    """True for the multiple-value types (MFxxx)."""
    return type_name.startswith("MF")


def sf_of(type_name: str) -> str:
    """The single-value type of ``type_name`` (MFVec3f -> SFVec3f; SF types unchanged)."""
    return "SF" + type_name[2:]


def _float(value: Any) -> float:
    if type(value) is not float:  # the common case skips the abstract-class test
        # numbers.Real admits numpy scalars; bool is excluded on purpose
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise TypeError("expected a number")
        value = float(value)
    if not math.isfinite(value):
        raise ValueError("numbers must be finite")
    return value


def normalize_sf(type_name: str, value: Any) -> Any:
    """Check one SF value of ``type_name`` and return its canonical Python form.

    Nodes (SFNode) are returned unchanged; their legality is checked by the model.
    """
    if type_name == "SFBool":
        if not isinstance(value, bool):
            raise TypeError("expected TRUE or FALSE (a bool)")
        return value
    if type_name == "SFInt32":
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise TypeError("expected an integer")
        if not INT32_MIN <= value <= INT32_MAX:
            raise ValueError("integer out of the 32-bit range")
        return int(value)
    if type_name == "SFFloat":
        return _float(value)
    if type_name in VECTOR_SIZES:
        size = VECTOR_SIZES[type_name]
        if isinstance(value, str | bytes) or not hasattr(value, "__len__"):
            raise TypeError(f"expected {size} numbers")
        if len(value) != size:
            raise ValueError(f"expected {size} numbers, got {len(value)}")
        return tuple(_float(v) for v in value)
    if type_name == "SFString":
        if not isinstance(value, str):
            raise TypeError("expected a string")
        return value
    if type_name == "SFNode":
        return value
    raise ValueError(f"unknown field type {type_name}")


def normalize(type_name: str, value: Any) -> Any:
    """Check a whole field value (SF or MF) and return its canonical form."""
    if not is_mf(type_name):
        return normalize_sf(type_name, value)
    if isinstance(value, str | bytes) or not hasattr(value, "__iter__"):
        raise TypeError(f"expected a sequence of {sf_of(type_name)} values")
    sf = sf_of(type_name)
    return tuple(normalize_sf(sf, v) for v in value)


#: Significant digits of the floats written in a world (C's DBL_DIG): every
#: 15-digit decimal reads back to a double that prints as the same 15 digits,
#: so a saved value is stable from the second save on (decision 0015).
FLOAT_DIGITS = 15
#: A vector component smaller than this fraction of the vector's largest
#: component is rounding noise and is written as 0 (decision 0015).
VECTOR_NOISE = 1e-12


def format_float(value: float) -> str:
    """Text of a float in a world file: 15 significant digits, trailing zeros and
    ``.0`` dropped, ``-0`` written ``0`` (``0.1 + 0.2`` -> ``0.3``, ``32.0`` -> ``32``)."""
    value = float(value)
    if value == 0.0:
        return "0"
    text = f"{value:.{FLOAT_DIGITS}g}"
    mantissa, sep, exponent = text.partition("e")
    if "." in mantissa:
        mantissa = mantissa.rstrip("0").rstrip(".")
    if sep:
        # as Python's repr: 'e-05', 'e+20'
        sign = exponent[0] if exponent[0] in "+-" else "+"
        exponent = f"{sign}{int(exponent.lstrip('+-')):02d}"
    return mantissa + (sep + exponent if sep else "")


def format_vector(values: tuple[float, ...]) -> str:
    """Text of a vector value (SFVec2f, SFVec3f, SFColor, SFRotation): components
    below `VECTOR_NOISE` times the largest magnitude are written as 0."""
    largest = max(abs(v) for v in values)
    return " ".join("0" if abs(v) < VECTOR_NOISE * largest else format_float(v)
                    for v in values)


def format_sf(type_name: str, value: Any) -> str:
    """Text of one non-node SF value as written in a `.wbt` file."""
    if type_name == "SFBool":
        return "TRUE" if value else "FALSE"
    if type_name == "SFInt32":
        return str(value)
    if type_name == "SFFloat":
        return format_float(value)
    if type_name in VECTOR_SIZES:
        return format_vector(value)
    if type_name == "SFString":
        return escape_string(value)
    raise ValueError(f"cannot format {type_name} as text")
