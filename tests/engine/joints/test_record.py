"""Declared joint records (engine.ode.joints.record): offsets, the fit check
at declaration, duplicate and malformed fields, and the declarations of every
registered joint module."""

from __future__ import annotations

import pytest

from engine.ode.joints import registry
from engine.ode.joints.layout import JD, JI
from engine.ode.joints.limot import LIMOT_BLOCK, LM_SIZE
from engine.ode.joints.record import FLOAT, INT, JointRecord, RecordField, RecordLayoutError


def test_offsets_follow_declaration_order_floats_and_ints_apart():
    rec = JointRecord("Demo")
    assert rec.floats("anchor1", 3) == 0
    assert rec.ints("mode") == 0
    assert rec.floats("erp") == 3
    assert rec.ints("axis_frame", 3) == 1
    assert rec.floats("axis1", 3) == 4
    assert (rec.float_size, rec.int_size) == (7, 4)
    assert rec.fields == (RecordField("anchor1", FLOAT, 0, 3), RecordField("mode", INT, 0, 1),
                          RecordField("erp", FLOAT, 3, 1), RecordField("axis_frame", INT, 1, 3),
                          RecordField("axis1", FLOAT, 4, 3))
    assert rec.field("axis_frame").end == 4
    assert rec.describe().splitlines() == ["anchor1: d[0:3]", "mode: di[0]", "erp: d[3]",
                                           "axis_frame: di[1:4]", "axis1: d[4:7]"]


def test_blocks_take_their_block_size_times_count():
    block = JointRecord("limot-like block")
    block.floats("lo")
    block.floats("hi")
    rec = JointRecord("Demo")
    rec.floats("axis", 3)
    assert rec.block("limots", block, count=3) == 3
    assert rec.floats("after") == 9
    assert rec.field("limots").size == 6


def test_limot_block_size_is_its_declared_fields():
    assert LM_SIZE == LIMOT_BLOCK.float_size == len(LIMOT_BLOCK.fields)
    assert LIMOT_BLOCK.int_size == 0


def test_extended_record_keeps_the_base_offsets_and_leaves_the_base_alone():
    base = JointRecord("Base")
    base.floats("anchor1", 3)
    base.ints("mode")
    ext = base.extended("Ext")
    assert ext.floats("axis1", 3) == 3
    assert ext.ints("flag") == 1
    assert [f.name for f in ext.fields] == ["anchor1", "mode", "axis1", "flag"]
    assert [f.name for f in base.fields] == ["anchor1", "mode"]
    assert (base.float_size, base.int_size) == (3, 1)


def test_a_float_field_past_the_record_names_joint_and_field():
    rec = JointRecord("Gearbox", float_capacity=8)
    rec.floats("anchor1", 3)
    rec.floats("anchor2", 3)
    with pytest.raises(RecordLayoutError, match=r"Gearbox record: float field 'axis1' "
                                                r"\(3 at offset 6\) ends at 9, past the "
                                                r"record's 8 floats"):
        rec.floats("axis1", 3)
    # nothing was declared by the failed call
    assert rec.float_size == 6 and [f.name for f in rec.fields] == ["anchor1", "anchor2"]


def test_an_int_field_past_the_record_names_joint_and_field():
    rec = JointRecord("Gearbox", int_capacity=2)
    rec.ints("mode")
    with pytest.raises(RecordLayoutError, match=r"Gearbox record: int field 'frames' "
                                                r"\(2 at offset 1\) ends at 3"):
        rec.ints("frames", 2)


def test_the_default_capacity_is_the_joint_store_record():
    rec = JointRecord("Big")
    assert rec.floats("all", JD) == 0
    assert rec.ints("all_ints", JI) == 0
    with pytest.raises(RecordLayoutError, match="Big record: float field 'one_more'"):
        rec.floats("one_more")
    with pytest.raises(RecordLayoutError, match="Big record: int field 'one_more_int'"):
        rec.ints("one_more_int")


def test_a_too_big_block_names_the_block_field():
    block = JointRecord("wide block")
    block.floats("values", 30)
    rec = JointRecord("Crane")
    with pytest.raises(RecordLayoutError, match="Crane record: float field 'limots'"):
        rec.block("limots", block, count=3)


def test_duplicate_names_are_refused_across_floats_and_ints():
    rec = JointRecord("Demo")
    rec.floats("axis1", 3)
    with pytest.raises(RecordLayoutError, match="Demo record: field 'axis1' is declared twice"):
        rec.floats("axis1", 3)
    with pytest.raises(RecordLayoutError, match="Demo record: field 'axis1' is declared twice"):
        rec.ints("axis1")
    ext = rec.extended("Ext")
    with pytest.raises(RecordLayoutError, match="Ext record: field 'axis1' is declared twice"):
        ext.floats("axis1")


@pytest.mark.parametrize("size", [0, -1, 1.5, True])
def test_sizes_below_one_or_not_int_are_refused(size):
    with pytest.raises(RecordLayoutError, match="Demo record: field 'x' needs a size"):
        JointRecord("Demo").floats("x", size)


@pytest.mark.parametrize("name", ["", "two words", "1st"])
def test_field_names_must_be_identifiers(name):
    with pytest.raises(RecordLayoutError, match="is not an identifier"):
        JointRecord("Demo").floats(name)


def test_blocks_must_be_floats_only_and_counted_from_one():
    block = JointRecord("mixed block")
    block.ints("flag")
    with pytest.raises(RecordLayoutError, match="block 'b' .* declares ints"):
        JointRecord("Demo").block("b", block)
    with pytest.raises(RecordLayoutError, match="block 'b' needs a count of at least 1"):
        JointRecord("Demo").block("b", LIMOT_BLOCK, count=0)


def test_unknown_field_lookup_names_the_record():
    with pytest.raises(KeyError, match="Demo record has no field 'nope'"):
        JointRecord("Demo").field("nope")


@pytest.mark.parametrize("name", registry.JOINT_MODULES)
def test_every_joint_declares_a_record_that_fits(name):
    module = registry.joint_module(name)
    rec = module.RECORD
    assert isinstance(rec, JointRecord)
    assert rec.float_size <= JD and rec.int_size <= JI


@pytest.mark.parametrize("name", registry.JOINT_MODULES)
def test_every_field_has_its_module_constant(name):
    """Each declared field ``x`` is the module constant ``X`` (floats) or
    ``I_X`` (ints), holding the field's offset: the kernels' names and the
    declaration cannot drift apart."""
    module = registry.joint_module(name)
    fields = module.RECORD.fields
    # a record made with ``extended`` starts with the fields of the joint it
    # extends; their constants live in that joint's module
    bases = [registry.joint_module(m) for m in registry.JOINT_MODULES if m != name]
    bases = [b for b in bases if b.RECORD.fields and fields[:len(b.RECORD.fields)] == b.RECORD.fields]
    for f in fields:
        constant = f.name.upper() if f.kind == FLOAT else "I_" + f.name.upper()
        owner = module if hasattr(module, constant) else next(
            b for b in bases if f in b.RECORD.fields)
        assert getattr(owner, constant) == f.offset, (name, f)
        assert type(getattr(owner, constant)) is int


def test_limot_offsets_of_the_joint_classes_are_declared_blocks():
    """``Joint.LIMOTS`` (one offset per parameter group) lists exactly the
    limot blocks the record declares."""
    for name in registry.JOINT_MODULES:
        module = registry.joint_module(name)
        cls = registry.joint_class(module)
        blocks = [f for f in module.RECORD.fields if "limot" in f.name]
        starts = [f.offset + k * LM_SIZE for f in blocks for k in range(f.size // LM_SIZE)]
        assert sorted(cls.LIMOTS) == sorted(starts), name
