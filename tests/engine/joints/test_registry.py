"""The joint registry: every joint module registered once, and the compiled
dispatch on disk exactly what the registry generates."""

from __future__ import annotations

import ast
import pathlib

from engine.ode import constants
from engine.ode.joints import registry

JOINTS_DIR = pathlib.Path(registry.__file__).resolve().parent


def _defines_kernels(path: pathlib.Path) -> bool:
    tree = ast.parse(path.read_text())
    names = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    return {"info1", "info2"} <= names


def test_dispatch_file_is_what_the_registry_generates():
    """Fails after a change to JOINT_MODULES (or to a joint's TYPE) until
    ``python -m engine.ode.joints.registry`` is run."""
    assert registry.DISPATCH_PATH.read_text() == registry.dispatch_source()


def test_every_module_with_kernels_is_registered_once():
    with_kernels = sorted(p.stem for p in JOINTS_DIR.glob("*.py") if _defines_kernels(p))
    assert sorted(registry.JOINT_MODULES) == with_kernels
    assert len(set(registry.JOINT_MODULES)) == len(registry.JOINT_MODULES)


def test_every_joint_type_constant_has_one_registered_class():
    types = [registry.joint_class(registry.joint_module(m)).TYPE for m in registry.JOINT_MODULES]
    declared = {v for n, v in vars(constants).items() if n.startswith("dJointType")}
    assert sorted(types) == sorted(declared - {constants.dJointTypeNone})


def test_write_dispatch_reports_whether_it_changed(tmp_path):
    path = tmp_path / "dispatch.py"
    assert registry.write_dispatch(path) is True
    assert path.read_text() == registry.dispatch_source()
    assert registry.write_dispatch(path) is False
