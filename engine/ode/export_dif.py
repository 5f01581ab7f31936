"""dWorldExportDIF: write a world's state as text in the Dynamics Interchange
Format's Lua-like syntax (world parameters, every body, every joint).

Joint fields are found by ODE's naming convention in the module that defines
the joint's type (where its flat-API functions live): every
``dJointGet<Name><Field>(j)`` getter that takes only the joint (anchors,
axes, angles, positions, distances...) and every limit/motor parameter of
its groups.
"""

from __future__ import annotations

import inspect
import sys
from typing import TextIO

import numpy as np

from engine.ode import constants
from engine.ode.body import (
    dBodyGetAngularVel,
    dBodyGetLinearVel,
    dBodyGetMass,
    dBodyGetPosition,
    dBodyGetQuaternion,
)
from engine.ode.body_settings import dBodyGetGravityMode, dBodyIsEnabled
from engine.ode.errors import ODEError
from engine.ode.joints.base import Joint, dJointGetBody
from engine.ode.joints.bulk import joint_handle
from engine.ode.joints.layout import JF_ALIVE
from engine.ode.world import World, world_of

_PARAM_NAMES = ("LoStop", "HiStop", "Vel", "FMax", "FudgeFactor", "Bounce", "CFM",
                "StopERP", "StopCFM", "SuspensionERP", "SuspensionCFM")


def _fmt(v) -> str:
    if isinstance(v, np.ndarray) or isinstance(v, (list, tuple)):
        return "{" + ",".join(_fmt(x) for x in np.ravel(v)) + "}"
    if isinstance(v, (float, np.floating)):
        return repr(float(v))
    return str(v)


def _joint_fields(joint: Joint) -> list[tuple[str, object]]:
    """(field, value) of every one-argument getter and every limit/motor parameter."""
    api = vars(sys.modules[type(joint).__module__])   # the joint type's flat-API functions
    prefix = f"dJointGet{joint.NAME}"
    fields = []
    for name in sorted(api):
        if not name.startswith(prefix) or name.endswith("Param"):
            continue
        fn = api[name]
        try:
            n_args = len(inspect.signature(fn).parameters)
        except (TypeError, ValueError):
            continue
        if n_args != 1:
            continue
        try:
            fields.append((name[len(prefix):], fn(joint)))
        except ODEError:
            continue
    getter = api.get(f"{prefix}Param")
    if getter is not None and joint.LIMOTS:
        for g in range(len(joint.LIMOTS)):
            for pname in _PARAM_NAMES:
                code = getattr(constants, f"dParam{pname}") + 0x100 * g
                suffix = "" if g == 0 else str(g + 1)
                try:
                    fields.append((pname + suffix, getter(joint, code)))
                except ODEError:
                    continue
    return fields


def dWorldExportDIF(w: World, file: TextIO | str, world_name: str) -> None:
    """Write world ``w`` to ``file`` (an open text file or a path), naming it
    ``world_name``."""
    world = world_of(w, "dWorldExportDIF")
    if not isinstance(world_name, str):
        raise ODEError("dWorldExportDIF", "world_name", "must be a string")
    if isinstance(file, str):
        with open(file, "w", encoding="utf-8") as fh:
            _write(world, fh, world_name)
    elif hasattr(file, "write"):
        _write(world, file, world_name)
    else:
        raise ODEError("dWorldExportDIF", "file", "expected a text file or a path")


def _write(world: World, out: TextIO, name: str) -> None:
    out.write("-- Dynamics Interchange Format v0.1\n\n")
    out.write(f"{name}world = dynamics.world {{\n")
    out.write(f"  gravity = {_fmt(world.gravity)},\n")
    out.write(f"  ODE = {{\n    ERP = {world.erp!r},\n    CFM = {world.cfm!r},\n")
    ad = world.autodisable
    out.write(f"    auto_disable = {{\n      linear_threshold = {ad.lin_thr!r},\n"
              f"      angular_threshold = {ad.ang_thr!r},\n      average_samples = {ad.samples},\n"
              f"      idle_time = {ad.time!r},\n      idle_steps = {ad.steps},\n"
              "    },\n  },\n}\n")
    index = {}
    for b in world.bodies.handles:
        if b is None:
            continue
        k = len(index) + 1
        index[b.index] = k
        m = dBodyGetMass(b)
        out.write(f"{name}body[{k}] = dynamics.body {{\n  world = {name}world,\n"
                  f"  pos = {_fmt(dBodyGetPosition(b))},\n"
                  f"  q = {_fmt(dBodyGetQuaternion(b))},\n"
                  f"  lvel = {_fmt(dBodyGetLinearVel(b))},\n"
                  f"  avel = {_fmt(dBodyGetAngularVel(b))},\n"
                  f"  mass = {m.mass!r},\n  I = {_fmt(m.I.reshape(3, 4)[:, :3])},\n"
                  f"  ODE = {{\n    disabled = {int(not dBodyIsEnabled(b))},\n"
                  f"    gravity_mode = {dBodyGetGravityMode(b)},\n  }},\n}}\n")
    k = 0
    store = world.joints
    for row in np.flatnonzero(store.flags[:store.count] & JF_ALIVE).tolist():
        j = joint_handle(world, row)
        k += 1
        bodies = []
        for slot in (0, 1):
            bb = dJointGetBody(j, slot)
            bodies.append("0" if bb is None else f"{name}body[{index[bb.index]}]")
        out.write(f"{name}joint[{k}] = dynamics.{j.NAME.lower()}_joint {{\n"
                  f"  world = {name}world,\n  body = {{{','.join(bodies)}}},\n")
        for field, value in _joint_fields(j):
            out.write(f"  {field} = {_fmt(value)},\n")
        out.write("}\n")
