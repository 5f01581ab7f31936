"""Contacts' Solids gathered as columns (engine/sim/contact_columns.py) agree with
the record-by-record answer they replace."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from engine.sim.contact_columns import (
    DefaultContactArrays,
    NodeColumn,
    RecordLookup,
    solid_columns,
)
from engine.sim.frame import contact_set
from tests.engine.sim.helpers import make_sim

# a static floor, two boxes falling on it and on each other, a static wall
PILE = ("DEF FLOOR Solid { boundingObject Plane { } name \"floor\" } "
        "DEF LOW Solid { translation 0 0 0.1 boundingObject Box { size 0.2 0.2 0.2 } "
        "physics Physics { density -1 mass 1 } name \"low\" } "
        "DEF HIGH Solid { translation 0.05 0 0.35 boundingObject Box { size 0.2 0.2 0.2 } "
        "physics Physics { density -1 mass 1 } name \"high\" } "
        "DEF WALL Solid { translation 0.2 0 0.1 boundingObject Box { size 0.02 1 1 } "
        "name \"wall\" }")


def test_lookup_answers_like_the_records_and_reads_none_at_minus_one():
    sim = make_sim(PILE)
    lookup = RecordLookup.of(sim.model.solids)
    n = len(sim.model.solids)
    assert lookup.records[-1] is None and lookup.nodes[-1] is None
    assert not lookup.static[-1] and not lookup.moving[-1]
    for k, rec in enumerate(sim.model.solids):
        assert lookup.records[k] is rec and lookup.nodes[k] is rec.node
        assert lookup.moving[k] == (rec.ode_body is not None) != lookup.static[k]
    assert len(lookup.records) == n + 1


def test_contact_set_from_columns_is_the_record_by_record_one():
    sim = make_sim(PILE, "basicTimeStep 10")
    sim.record_contact_feedback = True
    for _ in range(60):
        sim.step()
    arrays = sim.contact_arrays()
    assert arrays.lookup is not None and arrays.record1 is not None  # the batched path
    slow = DefaultContactArrays(*arrays[:6])  # the same without the indices
    fast_set, slow_set = contact_set(arrays, []), contact_set(slow, [])
    assert len(fast_set) >= 8
    assert fast_set.solid1 == slow_set.solid1 and fast_set.solid2 == slow_set.solid2
    assert np.array_equal(fast_set.force, slow_set.force, equal_nan=True)
    assert np.array_equal(solid_columns(arrays).reversed_joint,
                          solid_columns(slow).reversed_joint)


def test_extra_records_follow_the_default_contacts():
    moving = SimpleNamespace(node="box", ode_body=object())
    static = SimpleNamespace(node="floor", ode_body=None)
    lookup = RecordLookup.of([moving, static])
    default = DefaultContactArrays(np.zeros((2, 3)), np.zeros((2, 3)), np.zeros(2), None,
                                   [static, moving], [moving, None], lookup,
                                   np.array([1, 0]), np.array([0, -1]))
    columns = solid_columns(default, [static, None], [moving, moving])
    assert columns.nodes1 == ("floor", "box", "floor", None)
    assert columns.nodes2 == ("box", None, "box", "box")
    assert columns.reversed_joint.tolist() == [True, False, True, False]
    slow = solid_columns(DefaultContactArrays(*default[:6]), [static, None], [moving, moving])
    assert slow == (columns.nodes1, columns.nodes2, slow.reversed_joint)
    assert np.array_equal(slow.reversed_joint, columns.reversed_joint)


def test_a_node_column_gathers_once_when_first_read_and_reads_like_its_tuple():
    nodes = np.empty(3, dtype=object)
    nodes[:] = ["a", "b", None]
    rows = np.array([1, -1, 0, 1])
    column = NodeColumn(nodes, rows, ("x",))
    assert column._gathered is None and len(column) == 5  # length without gathering
    assert column == ("b", None, "a", "b", "x") and ("b", None, "a", "b", "x") == column
    gathered = column._gathered
    assert column[2] == "a" and column[-1] == "x" and column[1:3] == (None, "a")
    assert list(column) == ["b", None, "a", "b", "x"] and column._gathered is gathered
    assert column != ("b",) and column != ["b", None, "a", "b", "x"]  # a tuple's equality
    with pytest.raises(TypeError):
        hash(column)


def test_frame_contacts_name_their_solids_only_when_read():
    sim = make_sim(PILE, "basicTimeStep 10")
    for _ in range(60):
        sim.step()
    contacts = sim.frame(mode="fast", running=True, speed=1.0).contacts
    assert isinstance(contacts.solid1, NodeColumn) and contacts.solid1._gathered is None
    names = {node.def_name for node in (*contacts.solid1, *contacts.solid2) if node}
    assert names == {"FLOOR", "LOW", "HIGH"}
    assert contacts[0].solid1 is contacts.solid1[0]
