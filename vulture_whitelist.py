# ruff: noqa: B018  (each line names an attribute; vulture reads them as uses)
"""Names that vulture, the dead-code finder of ``make lint``, cannot see used.

vulture reads this file as if it were code: each name below counts as used.
It checks ``engine``, ``app`` and ``plugins`` only (``[tool.vulture]`` in
pyproject.toml), so a name used by tests alone is reported unless it is
listed here with the reason the product keeps it. Two groups need no entry:
the ODE API (``d[A-Z]*`` names, all public through ``engine.ode``) and the
plugin callbacks (``webots_physics_*``), both ignored by name in pyproject,
and colliders registered with ``@register`` (ignored by decorator).

A new entry needs a reason: Qt or numba calls it, it is called by name, or it
is public API that the docs describe or the tests use to observe the product.
Dead code is deleted, not listed. ``tests/test_dead_code.py`` runs the check.
"""

from types import SimpleNamespace

_ = SimpleNamespace()

# --- Qt virtual methods (Qt calls them) ---------------------------------------
_.closeEvent
_.sizeHint
_.paintEvent
_.highlightBlock
_.mergeWith
_.rowCount
_.columnCount
_.headerData
_.initializeGL
_.resizeGL
_.paintGL
_.mousePressEvent
_.wheelEvent

# --- numba's compile-event listener (numba calls them) ------------------------
_.on_start
_.on_end

# --- used by name -------------------------------------------------------------
_._on_field  # app/scene_tree/model.py: weak observers look the method up by name
_._on_structure
_.FunctionType  # app/gl_binding.py: PyOpenGL reads this hook of each GL library
_.show_bounding_objects  # app/main_window.py: View menu toggles set them by name
_.show_contacts
_.show_trails
_.show_grid
_.foot_contacts  # plugins/physics/flying_robot: plugin state, read by its tests

# --- ODE API names without the d prefix (public through engine.ode) -----------
_.M_PI
_.NativeCollider
_.native
_.TRIMESH_FACE_NORMALS
_.g_enabled  # broadphase.overlapping_with: ODE's signature, flag not consulted
_.num_pairs  # NativeCollider statistics of the last collide()
_.polygon_data  # the convex's polygon array as given to dCreateConvex
_.preprocess_flags  # trimesh data: which preprocessing steps were done
_.face_angles_storage  # trimesh data: the face-angle storage ODE was asked for
_.B_INVMASS  # engine/ode/joints/layout.py: names the body tuple's last entry

# --- public API described in docs/ or used by the tests to observe the product
_.append_error  # app/console_dock.py: error lines with file:line links
_.link_position
_.current_filter
_.visible_lines
_.kept_lines
_.is_dirty  # app/plots_dock.py
_.highlighter  # app/plugin_editor/editor.py
_.edit_field  # app/runner.py: one field edit in the engine thread
_.stop_timer  # app/runner_qt.py
_.field_index  # app/scene_tree/model.py
_.grabFramebuffer  # app/viewport/widget.py (docs/app.md)
_.request_paint
_.deliver_from_robot  # engine/plugins/host.py, controllers (docs/plugin-guide.md)
_.take_for_robots
_.kept_chars  # engine/sim/console.py
_.dropped_text
_.save_state  # engine/sim/simulation.py (docs/simulation.md)
_.field_names  # engine/world/node.py (docs/world-format.md)
_.tokenize  # engine/world/lexer.py: the lexer's one-call entry
_.ALL_TYPES  # engine/world/fieldtypes.py
_.matrix_to_axis_angle  # engine/sim/poses.py: one matrix (the batched form's reference)
_.atan  # engine/ode/kernels/detmath.py: deterministic replacement of math.atan
_.solve_lcp  # engine/ode/solvers/lcp_dantzig.py: the Dantzig solver on whole arrays
_.build_rows  # engine/ode/step/assemble.py: an island's rows in one call
_.overlapping_pairs  # engine/ode/collision/broadphase.py: the all-pairs reference
_.triangle_mesh_arrays  # engine/ode/collision/mesh_surface.py: a mesh's kernel arrays
_.drawer_names  # app/viewport/geometry_meshes.py: the registry's listing (every kind has a drawer)
_.plugin_errors  # app/viewport/renderer.py, widget.py: the plugin draw errors a host shows
_.solid_poses  # engine/sim/simulation.py: the public bulk read of every Solid's pose (docs/simulation.md)
# engine/contact (issue 15): public API read by users, tests and bench/bench_robust_contacts.py
_.set_torque  # PIDActuator's TORQUE mode (tests/engine/contact/test_actuators.py)
_.set_locked_velocity  # PIDActuator's LOCKED_VELOCITY mode
_.raw_count  # RobustContacts: boundary-layer contacts per pair before clustering
_.substeps  # RobustStepper: sub-steps of the last basic step (adaptive stepping)
_.rollbacks  # RobustStepper: retried sub-steps of the last basic step
# engine/klampt batch (issue 16): Klamp't's public names, read by users' scripts and the tests
_.doSim  # engine/klampt/batch.py: one run, Klamp't's name (bench/bench_batch.py)
_.monteCarloSim  # engine/klampt/batch.py: Klamp't's Monte Carlo entry (docs, tests)
_.stopped  # engine/klampt/runs.py Outcome: stopped by the event or Ctrl-C (the app reads it)
_.worker_pids  # engine/klampt/executors.py LocalPool: its processes (tests kill one)
_.plugin_error  # app/runner_qt.py: a RunnerBridge signal, emitted by name from its queue (poll)
