"""Declared joint records: a joint names its record fields, the offsets follow.

Every joint owns one row of the joint store: ``d`` float64[JD] and ``di``
int64[JI] (:mod:`engine.ode.joints.layout`). A joint module declares what
it keeps there, field by field, in order, by name and size::

    RECORD = JointRecord("Hinge")
    ANCHOR1 = RECORD.floats("anchor1", 3)             # d[0:3]
    ANCHOR2 = RECORD.floats("anchor2", 3)             # d[3:6]
    LIMOT = RECORD.block("limot", LIMOT_BLOCK)        # d[6:6 + LM_SIZE]
    I_HAS_SUSPENSION = RECORD.ints("has_suspension")  # di[0]

Each call returns the field's first offset, a plain ``int``, kept as the
module-level constant named after the field (in capitals; ``I_`` before
the name of an int field). The compiled kernels index with that constant:
numba freezes module-level ints at compile time, so ``d[AXIS1:AXIS1 + 3]``
is the same machine code as with a literal offset.

The declaration is checked as it is made, at import: a field that would end
past the record's capacity, a second field of the same name, an empty name
or a size below 1 raise :class:`RecordLayoutError` naming the record and
the field.

A record may be nested: a sub-block (a limit/motor block) is itself a
``JointRecord`` of floats with its own capacity, placed into a joint record
with :meth:`JointRecord.block`; a joint that extends another joint's record
(the double hinge extends the double ball) starts from
:meth:`JointRecord.extended`.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.ode.joints.layout import JD, JI

#: the two kinds of record field: ``d`` (float64) and ``di`` (int64) entries
FLOAT = "float"
INT = "int"


class RecordLayoutError(ValueError):
    """A record declaration that cannot hold: overflow, duplicate or bad field."""


@dataclass(frozen=True)
class RecordField:
    """One declared field: ``name``, ``kind`` (:data:`FLOAT` for ``d``,
    :data:`INT` for ``di``), first ``offset`` and ``size`` (entries)."""

    name: str
    kind: str
    offset: int
    size: int

    @property
    def end(self) -> int:
        """One past the field's last entry."""
        return self.offset + self.size


class JointRecord:
    """The declared layout of one joint type's record (or of a sub-block).

    ``owner`` names the joint type (or block) in errors; ``float_capacity``
    and ``int_capacity`` are the entries available (default the joint
    store's ``JD`` and ``JI``). Fields are laid out in declaration order,
    without gaps, floats and ints each from 0.
    """

    def __init__(self, owner: str, float_capacity: int = JD, int_capacity: int = JI) -> None:
        self.owner = owner
        self.float_capacity = float_capacity
        self.int_capacity = int_capacity
        self._fields: list[RecordField] = []
        self._size = {FLOAT: 0, INT: 0}

    # ------------------------------------------------------------------ declaring
    def floats(self, name: str, size: int = 1) -> int:
        """Declare ``size`` floats called ``name``; their first offset in ``d``."""
        return self._add(name, FLOAT, size)

    def ints(self, name: str, size: int = 1) -> int:
        """Declare ``size`` ints called ``name``; their first offset in ``di``."""
        return self._add(name, INT, size)

    def block(self, name: str, block: JointRecord, count: int = 1) -> int:
        """Declare ``count`` consecutive copies of the float-only sub-block
        ``block`` (e.g. limit/motor blocks) as one field called ``name``;
        the first block's offset in ``d`` (copy ``i`` starts
        ``i * block.float_size`` later)."""
        if block.int_size:
            raise RecordLayoutError(
                f"{self.owner} record: block {name!r} ({block.owner}) declares ints; "
                "only float blocks can be placed in a record")
        if count < 1:
            raise RecordLayoutError(
                f"{self.owner} record: block {name!r} needs a count of at least 1, got {count}")
        return self._add(name, FLOAT, block.float_size * count)

    def extended(self, owner: str) -> JointRecord:
        """A new record for ``owner`` starting with a copy of this record's
        fields (same offsets), to which more fields can be declared."""
        other = JointRecord(owner, self.float_capacity, self.int_capacity)
        other._fields = list(self._fields)
        other._size = dict(self._size)
        return other

    def _add(self, name: str, kind: str, size: int) -> int:
        if not name.isidentifier():
            raise RecordLayoutError(
                f"{self.owner} record: field name {name!r} is not an identifier")
        if type(size) is not int or size < 1:
            raise RecordLayoutError(
                f"{self.owner} record: field {name!r} needs a size of at least 1, got {size!r}")
        if any(f.name == name for f in self._fields):
            raise RecordLayoutError(f"{self.owner} record: field {name!r} is declared twice")
        offset = self._size[kind]
        capacity = self.float_capacity if kind == FLOAT else self.int_capacity
        if offset + size > capacity:
            raise RecordLayoutError(
                f"{self.owner} record: {kind} field {name!r} ({size} at offset {offset}) "
                f"ends at {offset + size}, past the record's {capacity} {kind}s")
        self._fields.append(RecordField(name, kind, offset, size))
        self._size[kind] = offset + size
        return offset

    # ------------------------------------------------------------------ reading
    @property
    def float_size(self) -> int:
        """Floats declared so far (the ``d`` entries used)."""
        return self._size[FLOAT]

    @property
    def int_size(self) -> int:
        """Ints declared so far (the ``di`` entries used)."""
        return self._size[INT]

    @property
    def fields(self) -> tuple[RecordField, ...]:
        """The declared fields in declaration order."""
        return tuple(self._fields)

    def field(self, name: str) -> RecordField:
        """The field called ``name`` (KeyError naming the record if none)."""
        for f in self._fields:
            if f.name == name:
                return f
        raise KeyError(f"{self.owner} record has no field {name!r}")

    def describe(self) -> str:
        """One line per field: ``name: d[start:end]`` or ``name: di[i]``."""
        lines = []
        for f in self._fields:
            array = "d" if f.kind == FLOAT else "di"
            where = f"{f.offset}" if f.size == 1 else f"{f.offset}:{f.end}"
            lines.append(f"{f.name}: {array}[{where}]")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return (f"JointRecord({self.owner!r}: {self.float_size}/{self.float_capacity} floats, "
                f"{self.int_size}/{self.int_capacity} ints)")
