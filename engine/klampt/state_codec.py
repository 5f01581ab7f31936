"""A simulator state as a string: nested values and arrays, checked, no pickle.

`encode(value)` turns a tree of dicts (str keys), lists, str, int, float,
bool, None and numpy arrays into a base64 string; `decode(text)` gives the
tree back, every float and array element bit for bit. The bytes are

    MAGIC (8) | sha256 of the rest (32) | zlib( header length (8, little
    endian) | JSON header | array bytes ... )

The JSON header holds the tree with each array replaced by
``{"__array__": [dtype, shape, offset, nbytes]}``; floats are written with
``repr`` (exact in Python, ``Infinity``/``NaN`` included). A string that is
not base64, was cut, or was changed in any byte raises `StateError` with
what is wrong; nothing is half-decoded. Object arrays are refused.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import struct
import zlib
from typing import Any

import numpy as np

#: The first bytes of every state (format version 1).
MAGIC = b"ODNKST01"
_ARRAY_KEY = "__array__"


class StateError(ValueError):
    """A state string that cannot be read (corrupt, cut, not a state)."""


def _header(value: Any, blobs: list[bytes], offset: list[int]) -> Any:
    if isinstance(value, np.ndarray):
        if value.dtype.hasobject:
            raise TypeError("encode: object arrays cannot be stored in a state")
        data = np.ascontiguousarray(value).astype(value.dtype.newbyteorder("<"), copy=False)
        raw = data.tobytes()
        entry = {_ARRAY_KEY: [data.dtype.str, list(value.shape), offset[0], len(raw)]}
        blobs.append(raw)
        offset[0] += len(raw)
        return entry
    if isinstance(value, dict):
        if not all(isinstance(k, str) for k in value):
            raise TypeError("encode: dict keys must be strings")
        return {k: _header(v, blobs, offset) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_header(v, blobs, offset) for v in value]
    if isinstance(value, (np.floating, np.integer, np.bool_)):
        return value.item()
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    raise TypeError(f"encode: cannot store a {type(value).__name__} in a state")


def encode(value: Any) -> str:
    """The base64 state string of ``value`` (module docstring)."""
    blobs: list[bytes] = []
    header = json.dumps(_header(value, blobs, [0]), allow_nan=True,
                        separators=(",", ":")).encode()
    body = zlib.compress(struct.pack("<Q", len(header)) + header + b"".join(blobs), 6)
    return base64.b64encode(MAGIC + hashlib.sha256(body).digest() + body).decode("ascii")


def _tree(node: Any, data: memoryview) -> Any:
    if isinstance(node, dict):
        spec = node.get(_ARRAY_KEY)
        if spec is not None and len(node) == 1:
            dtype, shape, offset, nbytes = spec
            dt = np.dtype(dtype)
            if dt.hasobject or offset < 0 or offset + nbytes > len(data):
                raise StateError("the state's arrays do not fit its data")
            arr = np.frombuffer(data[offset:offset + nbytes], dtype=dt)
            return arr.astype(dt.newbyteorder("="), copy=True).reshape(shape)
        return {k: _tree(v, data) for k, v in node.items()}
    if isinstance(node, list):
        return [_tree(v, data) for v in node]
    return node


def decode(text: str) -> Any:
    """The value of a state string from `encode`; `StateError` when it is not one."""
    if not isinstance(text, (str, bytes)):
        raise StateError(f"a state is a string, got {type(text).__name__}")
    try:
        raw = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise StateError("the state is not base64 text (was it cut or edited?)") from None
    if raw[:len(MAGIC)] != MAGIC:
        raise StateError("the string is not an Odeon simulator state (wrong header)")
    digest, body = raw[len(MAGIC):len(MAGIC) + 32], raw[len(MAGIC) + 32:]
    if hashlib.sha256(body).digest() != digest:
        raise StateError("the state is corrupt (its checksum does not match)")
    try:
        plain = zlib.decompress(body)
        (size,) = struct.unpack("<Q", plain[:8])
        header = json.loads(plain[8:8 + size])
        return _tree(header, memoryview(plain)[8 + size:])
    except (zlib.error, struct.error, ValueError, TypeError, KeyError) as exc:
        raise StateError(f"the state cannot be read ({exc})") from None
