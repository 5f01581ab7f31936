"""The batched detection gives padded_contacts' contacts bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

from engine import ode
from engine.contact.batched import batch_pieces
from engine.contact.boundary import padded_contacts
from engine.contact.pieces import side_of
from engine.contact.pipeline import PairInput, detect, pair_geoms
from engine.contact.surface import BODY_SURFACE, blend
from tests.engine.collision.test_convex import cube_arrays
from tests.engine.contact.boundary_shapes import cube_mesh, placed

SURFACE = blend(BODY_SURFACE, BODY_SURFACE)


def _rotation(rng: np.random.Generator) -> np.ndarray:
    q = rng.normal(size=4)
    q /= np.sqrt(np.sum(q * q))
    return ode.dRfromQ(q)


def _scene(seed: int) -> list:
    """Geoms of every single-piece class in a 0.3 m cluster, turned at random,
    plus two planes."""
    rng = np.random.default_rng(seed)
    planes, points, polys = cube_arrays(0.05)
    makers = [lambda: ode.dCreateSphere(None, 0.06),
              lambda: ode.dCreateBox(None, 0.1, 0.14, 0.08),
              lambda: ode.dCreateCapsule(None, 0.04, 0.12),
              lambda: ode.dCreateCylinder(None, 0.05, 0.1),
              lambda: ode.dCreateConvex(None, planes, 6, points, 8, polys)]
    geoms = [placed(make(), tuple(rng.uniform(-0.12, 0.12, 3)), _rotation(rng))
             for make in makers for _ in range(3)]
    geoms.append(ode.dCreatePlane(None, 0.0, 0.0, 1.0, -0.1))
    geoms.append(ode.dCreatePlane(None, 0.3, -0.2, 0.9, -0.12))
    return geoms


def _bits(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=np.float64).view(np.int64)


def _assert_same(got, want) -> None:
    for field in ("pos", "normal", "depth"):
        np.testing.assert_array_equal(_bits(getattr(got, field)), _bits(getattr(want, field)))
    np.testing.assert_array_equal(got.penetrating, want.penetrating)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_pieces_are_those_of_side_of(seed: int) -> None:
    geoms = _scene(seed)
    where = pair_geoms([PairInput(g, g, 0.0, 0.0, SURFACE) for g in geoms])
    ga = where.arrays
    got = batch_pieces(ga.geoms, ga.cls, ga.pos, ga.R, ga.size)
    for i, g in enumerate(ga.geoms):
        want = side_of(g, g.pos, g.R, np.zeros(6)).pieces
        r = int(got.row[i])
        P = got.pieces
        assert P.kind[r] == want.kind[0]
        for field, lo, hi in (("prm", P.off[r], P.off[r + 1]), ("ppts", P.poff[r], P.poff[r + 1]),
                              ("prad", P.poff[r], P.poff[r + 1])):
            np.testing.assert_array_equal(_bits(getattr(P, field)[lo:hi]),
                                          _bits(getattr(want, field)), err_msg=f"{g} {field}")
        for field in ("pos", "R", "lo", "hi", "conv"):
            np.testing.assert_array_equal(getattr(P, field)[r], getattr(want, field)[0])
            if field != "conv":
                np.testing.assert_array_equal(_bits(getattr(P, field)[r]),
                                              _bits(getattr(want, field)[0]))


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_every_pair_in_both_orders_matches_padded_contacts(seed: int) -> None:
    geoms = _scene(seed)
    rng = np.random.default_rng(100 + seed)
    pairs = []
    for i, a in enumerate(geoms):
        for b in geoms[i + 1:]:
            pa, pb = (float(x) for x in rng.choice([0.0, 0.002, 0.01, 0.03], 2))
            pairs += [PairInput(a, b, pa, pb, SURFACE), PairInput(b, a, pb, pa, SURFACE)]
    found = detect(pairs)
    want = {}
    for p in pairs:
        c = padded_contacts(p.g1, p.g2, p.pad1, p.pad2)
        if c.depth.shape[0]:
            want[(id(p.g1), id(p.g2))] = c
    assert len(found.pairs) == len(want) > 20
    for k, p in enumerate(found.pairs):
        _assert_same(found.of_pair(k), want[(id(p.g1), id(p.g2))])
        np.testing.assert_array_equal(found.where.index[k],
                                      [found.where.arrays.geoms.index(g) for g in (p.g1, p.g2)])


def test_mesh_pairs_are_merged_in_pair_order() -> None:
    box = placed(ode.dCreateBox(None, 0.1, 0.1, 0.1), (0.0, 0.0, 0.051))
    mesh = cube_mesh(0.2, (0.0, 0.0, -0.1))
    ball = placed(ode.dCreateSphere(None, 0.05), (0.0, 0.0, 0.152))
    plane = ode.dCreatePlane(None, 0.0, 0.0, 1.0, -0.2)
    pairs = [PairInput(box, mesh, 0.002, 0.0, SURFACE), PairInput(ball, box, 0.002, 0.002, SURFACE),
             PairInput(mesh, plane, 0.0, 0.001, SURFACE), PairInput(ball, mesh, 0.002, 0.0, SURFACE),
             PairInput(plane, box, 0.0, 0.002, SURFACE)]
    found = detect(pairs)
    assert [(p.g1, p.g2) for p in found.pairs] == [(box, mesh), (ball, box), (mesh, plane)]
    for k, p in enumerate(found.pairs):
        _assert_same(found.of_pair(k), padded_contacts(p.g1, p.g2, p.pad1, p.pad2))


def test_a_bad_padding_is_reported_as_by_padded_contacts() -> None:
    a = placed(ode.dCreateSphere(None, 0.05), (0.0, 0.0, 0.0))
    b = placed(ode.dCreateSphere(None, 0.05), (0.0, 0.0, 0.101))
    with pytest.raises(ValueError, match="'pad2' must be finite"):
        detect([PairInput(a, b, 0.001, float("nan"), SURFACE)])
