"""Collision utilities against ODE 0.16.2 (values recorded with the real ODE;
dBoxBox through ctypes, as the flat binding has no wrapper for it).

Box cases: (p1, (axis, angle) of R1, sides1, p2, (axis, angle) of R2, sides2),
rotations made with dRFromAxisAndAngle.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import ode

# fmt: off
BOX_CASES = [
    (([-0.36, 0.29, 0.17], [0.03, 1.36, 1.22, -2.58], [1.91, 1.32, 0.86], [0.04, 1.14, 0.18], [-0.51, -0.3, -0.53, -2.22], [1.12, 1.39, 0.7]), 1),
    (([-0.07, -0.35, 0.17], [-0.87, -1.51, 0.39, -1.59], [1.76, 0.43, 1.04], [-1.07, 1.45, -1.02], [-0.67, -1.92, -0.81, 1.81], [0.7, 0.35, 1.81]), 0),
    (([0.35, 0.09, -0.19], [0.35, 0.25, 1.1, -0.96], [0.49, 1.99, 1.03], [-0.66, -1.48, -1.18], [-1.28, -0.66, -0.84, -2.9], [1.44, 0.3, 0.26]), 0),
    (([0.23, -0.01, 0.35], [-0.25, 0.78, -0.44, 0.59], [0.25, 1.65, 0.54], [-1.02, -0.67, -0.87], [-0.02, 0.34, -0.88, 2.37], [0.37, 0.23, 0.73]), 0),
    (([0.19, 0.28, 0.43], [-1.01, 1.26, -1.26, -2.76], [0.93, 0.64, 1.72], [-1.26, 0.45, -1.28], [0.57, 1.3, -1.6, -2.6], [1.54, 1.18, 1.39]), 0),
    (([-0.34, -0.0, -0.42], [-0.73, 0.39, 0.31, -2.02], [0.46, 0.64, 0.84], [0.4, -0.97, -1.66], [-0.09, -0.22, -1.28, 2.99], [0.31, 1.77, 1.35]), 0),
    (([0.41, 0.2, -0.43], [0.6, -0.83, -0.27, -2.22], [0.91, 1.84, 0.41], [1.1, 0.66, -1.28], [-0.35, 0.19, 1.09, -1.11], [0.36, 1.21, 1.93]), 1),
    (([0.1, -0.26, 0.12], [-0.7, -0.73, -0.49, -1.4], [0.65, 0.45, 0.9], [-0.51, 0.84, -0.75], [-1.13, -0.55, -0.09, 1.74], [1.1, 0.71, 1.29]), 0),
    (([0.38, -0.39, 0.38], [0.39, 0.01, 0.58, -0.31], [0.31, 1.2, 1.67], [-0.46, -1.47, 0.43], [-1.33, 0.89, -0.76, 0.39], [1.47, 1.65, 1.09]), 1),
    (([0.18, -0.11, -0.16], [0.76, 0.5, -0.55, 1.24], [1.6, 0.96, 0.44], [0.27, -0.06, 0.75], [-0.59, 1.74, -0.1, 2.38], [1.8, 1.45, 1.24]), 1),
    (([0.25, 0.41, 0.49], [-0.91, -0.88, 0.5, 2.06], [1.8, 0.63, 0.53], [0.19, -1.28, 1.26], [0.34, 0.58, 1.08, -2.73], [1.54, 1.98, 1.93]), 1),
    (([-0.42, -0.44, 0.26], [-0.37, -0.61, -0.01, 0.58], [1.92, 1.67, 1.89], [-1.07, 1.04, -0.13], [0.6, 0.48, 0.16, 1.5], [1.35, 1.52, 1.26]), 1),
]
BOXBOX = {
    (0, 1): ([-0.19053504022449083, 0.9182686771340492, 0.3471009003749991], 0.5822746426239434, 8, [([0.24770000517056318, 0.7202052020732825, 0.43001049219102083], 0.5822746426239434)]),
    (0, 8): ([-0.19053504022449083, 0.9182686771340492, 0.3471009003749991], 0.5822746426239434, 8, [([0.24770000517056318, 0.7202052020732825, 0.43001049219102083], 0.5822746426239434)]),
    (6, 1): ([0.39251137131906877, 0.7717862757442939, -0.5002806891715655], 0.24280456837665998, 3, [([0.40340397610706263, 0.047326852751996135, -0.5951382664086308], 0.24280456837665987)]),
    (6, 8): ([0.39251137131906877, 0.7717862757442939, -0.5002806891715655], 0.24280456837665998, 3, [([0.225140319489946, 0.36006846266735615, -0.5912971523718502], 0.07332703348245259), ([0.40340397610706263, 0.047326852751996135, -0.5951382664086308], 0.24280456837665987)]),
    (8, 1): ([-0.25350520855923764, -0.9523433256020691, 0.16963873205883342], 0.3117294439174436, 2, [([0.4588661162614611, -0.6812139329526138, 0.5737165746308583], 0.30979549178220933)]),
    (8, 8): ([-0.25350520855923764, -0.9523433256020691, 0.16963873205883342], 0.3117294439174436, 2, [([0.15273320406522878, -0.6206297132360468, 0.6265131017476924], 0.28092984539572907), ([0.4588661162614611, -0.6812139329526138, 0.5737165746308583], 0.30979549178220933), ([0.4522708592551131, -0.7191882694960189, 0.4519289568053087], 0.2926188508964268), ([0.26439419912540163, -0.9542642139692655, -0.36769571913982746], 0.16015822304959737), ([0.09883544558711738, -0.9309635815618748, -0.3687596533349533], 0.14055890290840817)]),
    (9, 1): ([0.2311206068282028, -0.815372631819661, 0.5308019747314838], 0.6706363935372023, 7, [([0.3426965411723273, 0.2634970964457962, 0.17089981529110657], 0.6706363935372023)]),
    (9, 8): ([0.2311206068282028, -0.815372631819661, 0.5308019747314838], 0.6706363935372023, 7, [([0.3426965411723273, 0.2634970964457962, 0.17089981529110657], 0.6706363935372023)]),
    (10, 1): ([0.5731592313200152, -0.5181250189774612, 0.6348503447760391], 0.2666459419829277, 5, [([0.23045944217630798, -0.563129657778371, 0.6691279870709477], 0.26664594198292746)]),
    (10, 8): ([0.5731592313200152, -0.5181250189774612, 0.6348503447760391], 0.2666459419829277, 5, [([0.23045944217630798, -0.563129657778371, 0.6691279870709477], 0.26664594198292746), ([0.3410312048294623, -0.5117620391441027, 0.3353310087412096], 0.0914951933133672), ([0.3516286054989882, 0.0581884226086713, 0.8048797197511983], 0.10035675859707016)]),
    (11, 1): ([0.08018188738856012, 0.955991716830447, -0.28222456003399593], 0.3960013262392921, 2, [([-1.1812066530554037, -0.11006644578267949, -0.40251899999121443], 0.39364210791184007)]),
    (11, 8): ([0.08018188738856012, 0.955991716830447, -0.28222456003399593], 0.3960013262392921, 2, [([-1.1812066530554037, -0.11006644578267949, -0.40251899999121443], 0.39364210791184007), ([-0.8564163304779708, 0.4777932487676279, 0.8319443479049144], 0.15400668343155022)]),
}
# fmt: on

SEGMENTS = [  # (a1, a2, b1, b2) -> ODE's (cp1, cp2)
    (((0, 0, 0), (1, 0, 0), (0.5, 1, 0), (0.5, 1, 2)), ((0.5, 0, 0), (0.5, 1, 0))),
    (((0, 0, 0), (2, 0, 0), (1, 1, 0), (3, 1, 0)), ((1, 0, 0), (1, 1, 0))),          # parallel
    (((0, 0, 0), (0, 0, 0), (1, 1, 1), (1, 1, 1)), ((0, 0, 0), (1, 1, 1))),          # two points
    (((0, 0, 0), (1, 1, 0), (0, 1, -1), (1, 0, 1)), ((0.5, 0.5, 0), (0.5, 0.5, 0))),  # crossing
    (((-1, 2, 0.5), (3, -1, 0.2), (0.3, 0.3, 0.3), (0.3, 0.3, 0.3)),
     ((0.65165405, 0.76125947, 0.37612595), (0.3, 0.3, 0.3))),
    # degenerate and collinear cases
    (((0, 0, 1), (0, 0, 1), (0, 0, 0), (0, 0, 2)), ((0, 0, 1), (0, 0, 1))),
    (((0, 0, 0), (0, 0, 2), (0, 0, 1), (0, 0, 1)), ((0, 0, 1), (0, 0, 1))),
    (((1, 0, 1), (1, 0, 1), (0, 0, 0), (0, 0, 2)), ((1, 0, 1), (0, 0, 1))),
    (((0, 0, 0), (0, 0, 2), (0, 0, 1), (0, 0, 3)), ((0, 0, 1), (0, 0, 1))),
    (((0, 0, 0), (0, 0, 2), (0, 0, 3), (0, 0, 1)), ((0, 0, 1), (0, 0, 1))),
    (((0, 0, 0), (2, 0, 0), (3, 1, 0), (1, 1, 0)), ((1, 0, 0), (1, 1, 0))),
    (((0, 0, 0), (1, 2, 3), (0, 0, 0), (1, 2, 3)), ((0, 0, 0), (0, 0, 0))),
    (((0, 0, 0), (1, 0, 0), (1, 0, 0), (2, 0, 0)), ((1, 0, 0), (1, 0, 0))),
    # parallel segments: ODE's choice among the equally close pairs
    (((-2, 1, 0), (1, 1, 2), (-2, -1, 1), (-0.5, -1, 2)),
     ((-1.5384615384615383, 1.0, 0.3076923076923077), (-2, -1, 1))),
    (((2, -2, -2), (0, -1, 2), (-1, -1, -1), (-2, -0.5, 1)), ((2, -2, -2), (-1, -1, -1))),
]


def _box_args(case):
    p1, r1, s1, p2, r2, s2 = case
    return (p1, ode.dRFromAxisAndAngle(*r1), s1, p2, ode.dRFromAxisAndAngle(*r2), s2)


@pytest.mark.parametrize("args,expected", SEGMENTS)
def test_closest_line_segment_points(args, expected):
    cp1, cp2 = ode.dClosestLineSegmentPoints(*args)
    np.testing.assert_allclose(cp1, expected[0], atol=1e-8)
    np.testing.assert_allclose(cp2, expected[1], atol=1e-8)
    cp1, cp2 = ode.dClosestLineSegmentPoints(*args[2:], *args[:2])
    assert np.linalg.norm(cp1 - cp2) == pytest.approx(
        np.linalg.norm(np.subtract(expected[0], expected[1])), abs=1e-8)
    assert cp1.shape == cp2.shape == (3,)


@settings(max_examples=50, deadline=None)
@given(pts=st.lists(st.tuples(*[st.floats(-5, 5, allow_subnormal=False)] * 3), min_size=4,
                    max_size=4),
       s=st.floats(0, 1), t=st.floats(0, 1))
def test_closest_points_are_no_farther_than_any_pair(pts, s, t):
    a1, a2, b1, b2 = (np.array(p) for p in pts)
    cp1, cp2 = ode.dClosestLineSegmentPoints(a1, a2, b1, b2)
    best = np.linalg.norm(cp1 - cp2)
    other = np.linalg.norm((a1 + s * (a2 - a1)) - (b1 + t * (b2 - b1)))
    assert best <= other + 1e-9
    # both points lie on their segments
    for p, (e1, e2) in ((cp1, (a1, a2)), (cp2, (b1, b2))):
        d = e2 - e1
        dd = float(np.dot(d, d))
        k = 0.0 if dd == 0 else float(np.dot(p - e1, d) / dd)
        assert -1e-9 <= k <= 1 + 1e-9
        np.testing.assert_allclose(p, e1 + k * d, atol=1e-7)


@pytest.mark.parametrize("case,touch", BOX_CASES)
def test_box_touches_box(case, touch):
    assert ode.dBoxTouchesBox(*_box_args(case)) == touch


def test_box_touches_box_counts_touching_faces():
    identity = ode.dRFromAxisAndAngle(0, 0, 1, 0)
    assert ode.dBoxTouchesBox((0, 0, 0), identity, (1, 1, 1), (1, 0, 0), identity, (1, 1, 1)) == 1
    assert ode.dBoxTouchesBox((0, 0, 0), identity, (1, 1, 1), (1.0001, 0, 0), identity,
                              (1, 1, 1)) == 0
    with pytest.raises(ode.ODEError, match="dBoxTouchesBox.*side2"):
        ode.dBoxTouchesBox((0, 0, 0), identity, (1, 1, 1), (1, 0, 0), identity, (1, 1))


@settings(max_examples=50, deadline=None)
@given(axis=st.tuples(st.floats(-1, 1), st.floats(-1, 1), st.floats(0.1, 1)),
       angle=st.floats(-3, 3), direction=st.tuples(*[st.floats(-1, 1)] * 3),
       sides=st.tuples(*[st.floats(0.1, 2)] * 3), scale=st.floats(0, 3))
def test_box_touches_box_near_and_far(axis, angle, direction, sides, scale):
    """Boxes closer than the smaller inner radii touch; farther than the sum of
    the half diagonals, they do not."""
    d = np.array(direction)
    if np.linalg.norm(d) < 1e-3:
        d = np.array([1.0, 0.0, 0.0])
    d /= np.linalg.norm(d)
    R1 = ode.dRFromAxisAndAngle(0, 0, 1, 0)
    R2 = ode.dRFromAxisAndAngle(*axis, angle)
    s1 = np.array([1.0, 0.8, 0.6])
    s2 = np.array(sides)
    inner = 0.5 * (s1.min() + s2.min())
    outer = 0.5 * (np.linalg.norm(s1) + np.linalg.norm(s2))
    dist = scale * outer
    touch = ode.dBoxTouchesBox((0, 0, 0), R1, s1, dist * d, R2, s2)
    if dist <= inner:
        assert touch == 1
    elif dist > outer:
        assert touch == 0
    # the answer does not depend on which box comes first
    assert ode.dBoxTouchesBox(dist * d, R2, s2, (0, 0, 0), R1, s1) == touch


@pytest.mark.parametrize("key", sorted(BOXBOX))
def test_box_box_matches_ode(key):
    k, flags = key
    normal, depth, code, contacts = ode.dBoxBox(*_box_args(BOX_CASES[k][0]), flags)
    o_normal, o_depth, o_code, o_contacts = BOXBOX[key]
    assert code == o_code
    np.testing.assert_allclose(normal, o_normal, atol=1e-9)
    assert depth == pytest.approx(o_depth, abs=1e-9)
    assert len(contacts) == len(o_contacts)
    for c, (pos, d) in zip(contacts, o_contacts, strict=True):
        np.testing.assert_allclose(c.pos, pos, atol=1e-9)
        assert c.depth == pytest.approx(d, abs=1e-9)
        assert (c.g1, c.g2, c.side1, c.side2) == (None, None, -1, -1)


def test_box_box_apart_and_bad_flags():
    k = next(i for i, (_, t) in enumerate(BOX_CASES) if not t)
    normal, depth, code, contacts = ode.dBoxBox(*_box_args(BOX_CASES[k][0]), 4)
    assert (code, depth, contacts) == (0, 0.0, [])
    np.testing.assert_array_equal(normal, np.zeros(3))
    with pytest.raises(ode.ODEError, match="dBoxBox.*flags"):
        ode.dBoxBox(*_box_args(BOX_CASES[0][0]), 0x10000)


def test_infinite_aabb():
    box = np.array([-math.inf, math.inf] * 3)
    np.testing.assert_array_equal(ode.dInfiniteAABB(None), box)
    np.testing.assert_array_equal(ode.dInfiniteAABB(ode.dCreateSphere(None, 1)), box)
    with pytest.raises(ode.ODEError, match="dInfiniteAABB"):
        ode.dInfiniteAABB(3)


# ODE: a unit box at (1, 2, 3) turned 0.6 rad about (1, 1, 1); point/vector (0.3, -0.7, 1.9)
FRAME_EXPECTED = {
    "dGeomGetRelPointPos": [2.1825237354454154, 0.9880028876915543, 4.32947337686303],
    "dGeomGetPosRelPoint": [-1.3613258824890888, -2.620801331495822, -0.517872786015089],
    "dGeomVectorToWorld": [1.1825237354454157, -1.0119971123084457, 1.3294733768630298],
    "dGeomVectorFromWorld": [-0.5126579814092871, 0.031191636525217725, 1.9814663448840693],
}


@pytest.mark.parametrize("name", sorted(FRAME_EXPECTED))
def test_frame_conversions(name):
    fn = getattr(ode, name)
    box = ode.dCreateBox(None, 1, 1, 1)
    ode.dGeomSetPosition(box, 1, 2, 3)
    ode.dGeomSetRotation(box, ode.dRFromAxisAndAngle(1, 1, 1, 0.6))
    np.testing.assert_allclose(fn(box, 0.3, -0.7, 1.9), FRAME_EXPECTED[name], atol=1e-12)
    # non-placeable geoms: the identity frame (ODE)
    plane = ode.dCreatePlane(None, 0, 0, 1, 1)
    np.testing.assert_array_equal(fn(plane, 0.3, -0.7, 1.9), [0.3, -0.7, 1.9])
    with pytest.raises(ode.ODEError, match=name):
        fn(box, 0, math.nan, 0)


def test_frame_conversions_follow_the_body_and_invert():
    w = ode.dWorldCreate()
    b = ode.dBodyCreate(w)
    ode.dBodySetPosition(b, -1, 0.5, 2)
    ode.dBodySetRotation(b, ode.dRFromAxisAndAngle(0.2, -1, 0.4, 1.1))
    g = ode.dCreateSphere(None, 1)
    ode.dGeomSetBody(g, b)
    ode.dGeomSetOffsetPosition(g, 0.1, 0.2, 0.3)
    p = ode.dGeomGetRelPointPos(g, 0.4, 0.5, 0.6)
    np.testing.assert_allclose(p, ode.dBodyGetRelPointPos(b, 0.5, 0.7, 0.9), atol=1e-12)
    np.testing.assert_allclose(ode.dGeomGetPosRelPoint(g, *p), [0.4, 0.5, 0.6], atol=1e-12)
    v = ode.dGeomVectorToWorld(g, 1, 2, 3)
    np.testing.assert_allclose(v, ode.dBodyVectorToWorld(b, 1, 2, 3), atol=1e-12)
    np.testing.assert_allclose(ode.dGeomVectorFromWorld(g, *v), [1, 2, 3], atol=1e-12)


def test_low_level_control_is_refused_by_plain_geoms():
    s = ode.dCreateSphere(None, 1)
    with pytest.raises(ode.ODEError, match="dGeomLowLevelControl.*not supported"):
        ode.dGeomLowLevelControl(s, ode.dGeomColliderControlClass,
                                 ode.dGeomColliderGetMergeSphereContactsControlCode, 0)
    with pytest.raises(ode.ODEError, match="dGeomLowLevelControl.*controlCode"):
        ode.dGeomLowLevelControl(s, 1, "x", 0)
    assert (ode.dGeomCommonControlClass, ode.dGeomColliderControlClass) == (0, 1)
    assert (ode.dGeomCommonAnyControlCode, ode.dGeomColliderSetMergeSphereContactsControlCode,
            ode.dGeomColliderGetMergeSphereContactsControlCode) == (0, 1, 2)
    assert (ode.dGeomColliderMergeContactsValue__Default, ode.dGeomColliderMergeContactsValue_None,
            ode.dGeomColliderMergeContactsValue_Normals,
            ode.dGeomColliderMergeContactsValue_Full) == (0, 1, 2, 3)


def test_low_level_control_calls_the_geom_hook():
    class Controlled(type(ode.dCreateSphere(None, 1))):
        __slots__ = ("merge",)

        def low_level_control(self, cls, code, value):
            if code == ode.dGeomColliderSetMergeSphereContactsControlCode:
                self.merge = value
                return True, value
            if code == ode.dGeomColliderGetMergeSphereContactsControlCode:
                return True, self.merge
            return cls == ode.dGeomColliderControlClass, value

    g = Controlled(None, 1.0)
    assert ode.dGeomLowLevelControl(g, 1, 1, 3) == (1, 3, 4)
    assert ode.dGeomLowLevelControl(g, 1, 2) == (1, 3, 4)
    assert ode.dGeomLowLevelControl(g, 1, 0) == (1, 0, 0)
    assert ode.dGeomLowLevelControl(g, 0, 0) == (0, 0, 0)


def test_manual_cleanup_flag():
    s = ode.dSimpleSpaceCreate(None)
    assert ode.dSpaceGetManualCleanup(s) == 0
    ode.dSpaceSetManualCleanup(s, 5)
    assert ode.dSpaceGetManualCleanup(s) == 1
    ode.dSpaceSetManualCleanup(s, 0)
    assert ode.dSpaceGetManualCleanup(s) == 0
    with pytest.raises(ode.ODEError, match="dSpaceSetManualCleanup.*space"):
        ode.dSpaceSetManualCleanup(ode.dCreateSphere(None, 1), 1)
    with pytest.raises(ode.ODEError, match="dSpaceSetManualCleanup.*mode"):
        ode.dSpaceSetManualCleanup(s, None)
