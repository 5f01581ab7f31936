"""Blended surfaces (engine.contact.surface): defaults, blending, soft ERP/CFM
and the spring they make in our engine."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine import ode
from engine.contact.surface import (
    BODY_SURFACE,
    ROBOT_LINK_SURFACE,
    STATIC_SURFACE,
    BlendedSurface,
    SurfaceParameters,
    blend,
    harmonic_mean,
    soft_erp_cfm,
)

G = 9.81


def test_defaults_are_klampts():
    assert STATIC_SURFACE == SurfaceParameters(0.3, 0.1, 8e5, 2e5)
    assert BODY_SURFACE == SurfaceParameters(0.5, 0.0, math.inf, math.inf)
    assert ROBOT_LINK_SURFACE == SurfaceParameters(1.0, 0.1, math.inf, math.inf)


@pytest.mark.parametrize("name,index", [("k_friction", 0), ("k_restitution", 1),
                                        ("k_stiffness", 2), ("k_damping", 3)])
@pytest.mark.parametrize("bad", [-0.1, math.nan, "soft"])
def test_bad_values_name_the_parameter(name, index, bad):
    values = [0.5, 0.1, 1e5, 1e3]
    values[index] = bad
    with pytest.raises(ValueError, match=name):
        SurfaceParameters(*values)


def test_infinite_friction_is_refused():
    with pytest.raises(ValueError, match="finite"):
        SurfaceParameters(math.inf, 0.0, 1.0, 1.0)


def test_harmonic_mean_closed_forms():
    assert harmonic_mean(0.5, 0.3) == pytest.approx(0.375, abs=1e-15)
    assert harmonic_mean(2.0, 2.0) == 2.0
    assert harmonic_mean(0.0, 0.7) == 0.0
    assert harmonic_mean(0.7, 0.0) == 0.0
    assert harmonic_mean(math.inf, 8e5) == 8e5
    assert harmonic_mean(8e5, math.inf) == 8e5
    assert harmonic_mean(math.inf, math.inf) == math.inf


def test_blend_of_a_body_on_the_ground():
    """A rigid body (0.5, 0, inf, inf) on the terrain (0.3, 0.1, 8e5, 2e5)."""
    b = blend(BODY_SURFACE, STATIC_SURFACE)
    assert b == blend(STATIC_SURFACE, BODY_SURFACE)
    assert b.mu == pytest.approx(0.375, abs=1e-15)
    assert b.restitution == pytest.approx(0.05, abs=1e-15)
    assert (b.stiffness, b.damping) == (8e5, 2e5)
    assert not b.rigid


def test_blend_of_two_finite_and_two_rigid_surfaces():
    a = SurfaceParameters(1.0, 0.2, 1e4, 100.0)
    c = SurfaceParameters(0.25, 0.6, 3e4, 300.0)
    b = blend(a, c)
    assert b.mu == pytest.approx(2 * 1.0 * 0.25 / 1.25, abs=1e-15)
    assert b.restitution == pytest.approx(0.4, abs=1e-15)
    assert b.stiffness == pytest.approx(1.5e4, rel=1e-15)
    assert b.damping == pytest.approx(150.0, rel=1e-15)
    rigid = blend(BODY_SURFACE, ROBOT_LINK_SURFACE)
    assert rigid.rigid and rigid.damping == math.inf
    assert rigid.mu == pytest.approx(2 * 0.5 / 1.5, abs=1e-15)
    assert rigid.restitution == pytest.approx(0.05, abs=1e-15)


def test_soft_erp_cfm_closed_form():
    b = BlendedSurface(0.5, 0.0, 8e5, 2e5)
    h = 0.001
    soft = soft_erp_cfm(b, h)
    assert soft.erp == pytest.approx(800.0 / 200800.0, rel=1e-15)
    assert soft.cfm == pytest.approx(1.0 / 200800.0, rel=1e-15)
    assert soft_erp_cfm(BlendedSurface(0.5, 0.0, math.inf, 10.0), h) is None
    assert soft_erp_cfm(BlendedSurface(0.5, 0.0, 1e4, math.inf), h) == (0.0, 0.0)
    # no damping: erp 1, cfm 1 / (h kP)
    undamped = soft_erp_cfm(BlendedSurface(0.5, 0.0, 1e4, 0.0), 0.01)
    assert undamped.erp == 1.0 and undamped.cfm == pytest.approx(0.01, rel=1e-15)
    with pytest.raises(ValueError, match="step h"):
        soft_erp_cfm(b, 0.0)
    with pytest.raises(ValueError, match="both 0"):
        soft_erp_cfm(BlendedSurface(0.5, 0.0, 0.0, 0.0), h)


def _sink(surface: BlendedSurface, h: float, seconds: float) -> tuple[float, float]:
    """A 1 kg sphere (r 0.1 m) starting at rest just touching the plane z = 0,
    one soft contact per step from soft_erp_cfm; (depth, vertical speed) at
    the end."""
    w = ode.dWorldCreate()
    ode.dWorldSetGravity(w, 0.0, 0.0, -G)
    body = ode.dBodyCreate(w)
    m = ode.dMass()
    ode.dMassSetSphereTotal(m, 1.0, 0.1)
    ode.dBodySetMass(body, m)
    ode.dBodySetPosition(body, 0.0, 0.0, 0.1)
    group = ode.dJointGroupCreate(0)
    soft = soft_erp_cfm(surface, h)
    for _ in range(int(round(seconds / h))):
        ode.dJointGroupEmpty(group)
        z = float(ode.dBodyGetPosition(body)[2])
        c = ode.dContact()
        c.surface.mode = ode.dContactSoftERP | ode.dContactSoftCFM
        c.surface.mu = surface.mu
        c.surface.soft_erp = soft.erp
        c.surface.soft_cfm = soft.cfm
        c.geom.pos = np.array([0.0, 0.0, min(z - 0.1, 0.0)])
        c.geom.normal = np.array([0.0, 0.0, 1.0])
        c.geom.depth = max(0.1 - z, 0.0)
        j = ode.dJointCreateContact(w, group, c)
        ode.dJointAttach(j, body, None)
        ode.dWorldStep(w, h)
    depth = 0.1 - float(ode.dBodyGetPosition(body)[2])
    speed = float(ode.dBodyGetLinearVel(body)[2])
    ode.dJointGroupDestroy(group)
    ode.dWorldDestroy(w)
    return depth, speed


@pytest.mark.parametrize("surface,seconds", [
    (BlendedSurface(0.5, 0.0, 1e4, 200.0), 1.0),    # critically damped, sinks 0.98 mm
    (blend(BODY_SURFACE, STATIC_SURFACE), 2.0),      # Klamp't's ground: 12 µm
])
def test_soft_contact_is_a_spring(surface, seconds):
    """At rest the soft contact holds m·g at a depth of m·g / kP."""
    depth, speed = _sink(surface, 0.001, seconds)
    assert depth == pytest.approx(G / surface.stiffness, rel=0.02)
    assert abs(speed) < 1e-3 * G / surface.stiffness / 0.001
