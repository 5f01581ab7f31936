"""Moving Solids' translation/rotation fields follow their bodies through the
pose feed (`engine.sim.pose_writer`): read when asked, never notified."""

from __future__ import annotations

import numpy as np

from engine import ode
from engine.sim.edits import REBUILD, apply_edit
from engine.sim.poses import matrix_to_axis_angle
from tests.engine.sim.helpers import make_sim

WORLD = ("DEF FLOOR Solid { boundingObject Plane { } } "
         "DEF BALL Solid { translation 0 0 0.5 boundingObject Sphere { radius 0.1 } "
         "physics Physics { } } "
         "DEF BASE Solid { translation 1 0 0 rotation 0 0 1 0.5 children [ "
         "  DEF CHILD Solid { translation 0 0 0.6 boundingObject Box { size 0.1 0.1 0.1 } "
         "  physics Physics { } } ] }")


def test_fields_follow_the_bodies_without_notifications() -> None:
    sim = make_sim(WORLD)
    ball = sim.world.find_solid_by_def("BALL")
    changes = []
    sim.world.add_field_observer(lambda node, name, old, new: changes.append(name))
    for _ in range(5):
        sim.step()
    assert changes == []
    body = sim.model.record_of(ball).body
    assert ball.get("translation") == tuple(ode.dBodyGetPosition(body).tolist())
    assert ball.get("rotation") == matrix_to_axis_angle(
        np.asarray(ode.dBodyGetRotation(body)).reshape(3, 4)[:, :3])
    assert ball.get("translation")[2] < 0.5


def test_child_of_a_static_solid_is_local_to_it_also_after_the_parent_moved() -> None:
    sim = make_sim(WORLD)
    child = sim.world.find_solid_by_def("CHILD")
    base = sim.world.find_solid_by_def("BASE")
    sim.step()
    t = child.get("translation")
    assert abs(t[0]) < 1e-12 and abs(t[1]) < 1e-12 and t[2] < 0.6     # falls in BASE's frame
    # the static parent moves 2 m up and carries the child's body along (a
    # rebuild): the child's pose stays expressed in the parent's frame
    result = apply_edit(sim, base, "translation", (1.0, 0.0, 2.0))
    assert result.kind == REBUILD
    sim.rebuild()
    sim.step()
    body = sim.model.record_of(child).body
    z_world = float(ode.dBodyGetPosition(body)[2])
    assert z_world > 2.5
    assert abs(child.get("translation")[2] - (z_world - 2.0)) < 1e-12


def test_a_users_edit_while_running_is_kept_and_moves_the_body() -> None:
    sim = make_sim(WORLD)
    ball = sim.world.find_solid_by_def("BALL")
    for _ in range(3):
        sim.step()
    apply_edit(sim, ball, "translation", (0.3, 0.0, 2.0))
    assert ball.get("translation") == (0.3, 0.0, 2.0)
    sim.step()
    t = ball.get("translation")
    assert abs(t[0] - 0.3) < 1e-12 and 1.9 < t[2] < 2.0


def test_reset_and_rebuild_keep_the_poses_right() -> None:
    sim = make_sim(WORLD)
    ball = sim.world.find_solid_by_def("BALL")
    for _ in range(4):
        sim.step()
    before = ball.get("translation")
    sim.rebuild()                     # bodies start again at their current poses
    assert ball.get("translation") == before
    sim.step()
    assert ball.get("translation")[2] < before[2]
    sim.reset()
    assert ball.get("translation") == (0.0, 0.0, 0.5)
    sim.step()
    assert ball.get("translation")[2] < 0.5


def test_the_step_poses_are_the_bodies_rows_in_order_or_not() -> None:
    from engine.sim.pose_writer import _consecutive

    sim = make_sim(WORLD)
    sim.step()
    writer = sim._pose_writer
    store = sim.model.ode_world.bodies
    assert writer.rows.size == 2 and writer.span is not None  # one slice copy
    for rows in (writer.rows, writer.rows[::-1].copy()):  # then a take
        writer.rows, writer.span = rows, _consecutive(rows)
        writer.write()
        np.testing.assert_array_equal(writer.current.body_pos, store.pos[rows])
        np.testing.assert_array_equal(writer.current.body_R, store.R[rows])
    assert writer.span is None
    assert _consecutive(np.array([3, 4, 5])) == slice(3, 6)
    assert _consecutive(np.array([3, 5])) is None
