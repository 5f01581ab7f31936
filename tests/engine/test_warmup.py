"""The install-time warm-up (engine/warmup.py) steps each world with both
steppers, reports progress, and skips a broken world without failing."""

from __future__ import annotations

import io

from engine import warmup

WORLD = """#VRML_SIM R2023b utf8
WorldInfo { basicTimeStep 10 }
Solid { boundingObject Plane { } }
Solid {
  translation 0 0 0.2
  boundingObject Box { size 0.1 0.1 0.1 }
  physics Physics { }
}
"""


def test_warm_up_steps_worlds_and_skips_broken_ones(tmp_path):
    good = tmp_path / "good.wbt"
    good.write_text(WORLD)
    broken = tmp_path / "broken.wbt"
    broken.write_text("#VRML_SIM R2023b utf8\nSolid { translation 0 0 }\n")
    lines = []
    report = warmup.warm_up([broken, good], progress=lines.append)
    assert report.worlds == ["good.wbt"]
    assert [name for name, _ in report.failed] == ["broken.wbt"]
    assert lines[0].startswith("[1/2] broken.wbt: skipped (")
    assert lines[1].startswith("[2/2] good.wbt: done; ")


def test_the_bundled_worlds_warm_up_without_failures():
    out = io.StringIO()
    assert warmup.main(out) == 0
    text = out.getvalue()
    assert "skipped" not in text
    assert text.rstrip().endswith(f"({len(list(warmup.WORLDS_DIR.glob('*.wbt')))} worlds).")


def test_the_helper_part_runs_collision_passes_only(tmp_path):
    good = tmp_path / "good.wbt"
    good.write_text(WORLD)
    broken = tmp_path / "broken.wbt"
    broken.write_text("#VRML_SIM R2023b utf8\nSolid { translation 0 0 }\n")
    assert warmup.warm_collisions([broken, good]) >= 0  # the broken world is skipped
    out = io.StringIO()
    assert warmup.main(out, ("--collisions",)) == 0
    assert "collision kernels compiled in" in out.getvalue()


def test_the_step_kernels_warm_up_on_a_world_of_their_own():
    warmup.warm_step_kernels()  # raises if the small world cannot be stepped


def test_the_robust_shapes_touch_so_their_kernels_compile():
    from engine.sim.simulation import Simulation
    from engine.world import parse_world

    sim = Simulation(parse_world(warmup.ROBUST_SHAPES))
    assert sim.contact_model == "robust"
    assert sim.collision_pass() >= 10
