"""The default contacts of a step as columns, with their Solids as indices.

`ContactHandler.contact_arrays` gives the contacts of the last step as arrays
(`DefaultContactArrays`). A frame turns them into a `ContactSet` after every
published step (`engine.sim.frame.contact_set`), which needs each contact's
two Solid `Node`s and whether ODE reversed its joint (Solid 1 static, Solid 2
moving). With a few thousand contacts, doing that per contact in Python took
about 2 ms a frame in the engine thread (with the GIL held, so the GUI's
paint waited too). The batched contacts know their Solids as indices into
the model's Solid records, so a `RecordLookup` of per-record columns, made
once per model, answers for all contacts with a few numpy gathers; the
node columns themselves are only gathered when someone reads them
(`NodeColumn`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np


@dataclass(frozen=True)
class RecordLookup:
    """Per-record columns of a model's Solid records, each one entry longer than
    the records: index -1 (a geom of no Solid) reads None / False.

    ``records`` (n + 1,) object: the `SolidRecord`s then None; ``nodes`` (n + 1,)
    object: their Solid `Node`s; ``static`` (n + 1,) bool: the record has no
    body; ``moving`` (n + 1,) bool: it has one.
    """

    records: np.ndarray
    nodes: np.ndarray
    static: np.ndarray
    moving: np.ndarray

    @classmethod
    def of(cls, records: Sequence[Any]) -> RecordLookup:
        """The lookup of ``records`` (a model's `SolidRecord`s)."""
        n = len(records)
        objects = np.empty(n + 1, dtype=object)
        nodes = np.empty(n + 1, dtype=object)
        objects[:n] = records
        nodes[:n] = [rec.node for rec in records]
        has_body = np.zeros(n + 1, dtype=bool)
        has_body[:n] = [rec.ode_body is not None for rec in records]
        static = np.zeros(n + 1, dtype=bool)
        static[:n] = ~has_body[:n]
        return cls(objects, nodes, static, has_body)


class DefaultContactArrays(NamedTuple):
    """The default contacts of a step: ``pos`` (m, 3) [m], ``normal`` (m, 3),
    ``depth`` (m,) [m], ``force`` on Solid 1 (m, 3) [N] or None (not recorded),
    ``solid1`` and ``solid2`` the Solid records (sequences of m, None for a geom
    of no Solid); when known, ``record1`` and ``record2`` (m,) int64 the same
    as indices into ``lookup`` (-1 for none)."""

    pos: np.ndarray
    normal: np.ndarray
    depth: np.ndarray
    force: np.ndarray | None
    solid1: Sequence[Any]
    solid2: Sequence[Any]
    lookup: RecordLookup | None = None
    record1: np.ndarray | None = None
    record2: np.ndarray | None = None


def _node_of(rec: Any) -> Any:
    return rec.node if rec is not None else None


def _reversed(rec1: Sequence[Any], rec2: Sequence[Any]) -> np.ndarray:
    """(m,) bool: contacts whose Solid 1 is static and Solid 2 has a body."""
    return np.array([r1 is not None and r1.ode_body is None and r2 is not None
                     and r2.ode_body is not None for r1, r2 in zip(rec1, rec2, strict=True)],
                    dtype=bool).reshape(-1)


class NodeColumn(Sequence):
    """One Solid `Node` (or None) per contact, read from a `RecordLookup`'s node
    column on first use: ``nodes`` (n + 1,) object, ``rows`` (m,) int record
    indices (-1 for none), then the ``extra`` nodes (a tuple). Gathering a few
    thousand nodes into a tuple is most of a frame's contact cost, and most
    frames are drawn without anyone asking a contact's Solids. Compares equal
    to the tuple of its nodes (the arrays are never written after a step, so
    a reader in another thread gathers the same nodes)."""

    __slots__ = ("_nodes", "_rows", "_extra", "_gathered")

    def __init__(self, nodes: np.ndarray, rows: np.ndarray, extra: tuple = ()) -> None:
        self._nodes, self._rows, self._extra = nodes, rows, extra
        self._gathered: tuple | None = None

    def _items(self) -> tuple:
        gathered = self._gathered
        if gathered is None:
            gathered = self._gathered = tuple(self._nodes[self._rows].tolist()) + self._extra
        return gathered

    def __len__(self) -> int:
        return len(self._rows) + len(self._extra)

    def __getitem__(self, i):
        return self._items()[i]

    def __iter__(self) -> Iterator[Any]:
        return iter(self._items())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (tuple, NodeColumn)):
            return self._items() == tuple(other)
        return NotImplemented

    __hash__ = None  # it compares equal to tuples, so it has no hash of its own

    def __repr__(self) -> str:
        return f"NodeColumn({self._items()!r})"


class SolidColumns(NamedTuple):
    """Per contact: Solid `Node`s 1 and 2 (sequences, None for no Solid; a
    `NodeColumn` when gathered from a lookup) and whether ODE reversed its
    joint, ``reversed_joint`` (m,) bool (see `contact_set`)."""

    nodes1: Sequence[Any]
    nodes2: Sequence[Any]
    reversed_joint: np.ndarray


def solid_columns(default: DefaultContactArrays, extra1: Sequence[Any] = (),
                  extra2: Sequence[Any] = ()) -> SolidColumns:
    """The `SolidColumns` of the default contacts followed by contacts of records
    ``extra1``/``extra2`` (a plugin's own contacts): the nodes read from the
    lookup when first used if the default contacts carry record indices, else
    gathered record by record now."""
    if default.lookup is None or default.record1 is None or default.record2 is None:
        rec1, rec2 = list(default.solid1) + list(extra1), list(default.solid2) + list(extra2)
        return SolidColumns(tuple([_node_of(r) for r in rec1]),
                            tuple([_node_of(r) for r in rec2]), _reversed(rec1, rec2))
    lookup, i1, i2 = default.lookup, default.record1, default.record2
    flipped = lookup.static[i1] & lookup.moving[i2]
    nodes1 = NodeColumn(lookup.nodes, i1, tuple(_node_of(r) for r in extra1))
    nodes2 = NodeColumn(lookup.nodes, i2, tuple(_node_of(r) for r in extra2))
    if len(extra1):
        flipped = np.concatenate([flipped, _reversed(extra1, extra2)])
    return SolidColumns(nodes1, nodes2, flipped)
