"""The two-bone construction's geometry (insight/two_bone_view.py) against solve_two_bone and a stepped scene."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ikplayground.insight.primitives import Circle, Label, Polyline, Ring
from ikplayground.insight.two_bone_view import annulus, goal_triangle, triangle, two_bone_overlay
from ikplayground.scene.build.build import make_ik_chain
from ikplayground.scene.core.scene import Scene
from ikplayground.solvers import solve_two_bone
from ikplayground.solvers import wrap

coords = st.floats(-500, 500, allow_nan=False)
points = st.tuples(coords, coords)
bones = st.floats(5, 300)
bends = st.sampled_from([1, -1])


def gap(a, b):
    """The angle between ``a`` and ``b`` (rad), wrapped: 0 when they are the same direction."""
    return abs(wrap(a - b))


def direction(v):
    return math.atan2(v[1], v[0])


@settings(max_examples=150, deadline=None)
@pytest.mark.slow
@given(root=points, target=points, l1=bones, l2=bones, bend=bends,
       softness=st.sampled_from([0.0, 0.0, 15.0, 400.0]), stretch=st.sampled_from([1.0, 1.0, 1.3]),
       pole=st.one_of(st.none(), points))
def test_triangle_is_the_solvers(root, target, l1, l2, bend, softness, stretch, pole):
    tri = triangle(root, target, l1, l2, bend, pole=pole, softness=softness, stretch=stretch)
    sol = solve_two_bone(root, target, l1, l2, bend, pole=pole, softness=softness, stretch=stretch)
    assert gap(sol.theta1, tri.phi - tri.bend * tri.psi) < 1e-9
    assert gap(sol.theta2, tri.bend * (math.pi - tri.gamma)) < 1e-9
    assert tri.scale == pytest.approx(sol.scale, rel=1e-12)
    np.testing.assert_allclose(tri.knee, sol.knee, atol=1e-7)
    np.testing.assert_allclose(tri.end, sol.end, atol=1e-7)
    # the triangle's sides: the (scaled) bones and r
    a, c = tri.scale * l1, tri.scale * l2
    assert math.dist(tri.root, tri.knee) == pytest.approx(a, rel=1e-9)
    assert math.dist(tri.knee, tri.end) == pytest.approx(c, rel=1e-9)
    assert math.dist(tri.root, tri.end) == pytest.approx(tri.r, rel=1e-7, abs=1e-7)
    assert abs(a - c) - 1e-9 <= tri.r <= a + c + 1e-9
    if math.dist(root, target) > 0:
        assert gap(tri.phi, direction(np.subtract(target, root))) < 1e-12


@settings(max_examples=80, deadline=None)
@given(l1=bones, l2=bones, softness=st.floats(0, 700), stretch=st.floats(1, 2), angle=st.floats(-3, 3))
def test_annulus_is_where_the_solver_reaches(l1, l2, softness, stretch, angle):
    ring = annulus(l1, l2, softness, stretch)
    assert ring.inner == abs(l1 - l2)
    assert ring.outer == pytest.approx(stretch * (l1 + l2), rel=1e-12)
    assert ring.inner <= ring.soft_start <= ring.outer
    u = np.array((math.cos(angle), math.sin(angle)))
    far = solve_two_bone((0.0, 0.0), 10 * ring.outer * u, l1, l2, softness=softness, stretch=stretch)
    assert np.hypot(*far.end) == pytest.approx(ring.outer, rel=1e-9)
    if ring.soft_start > ring.inner + 1e-6 * ring.outer:  # a zone where the end lands on the target
        inside = ring.soft_start * (1 - 1e-9) * u
        sol = solve_two_bone((0.0, 0.0), inside, l1, l2, softness=softness, stretch=stretch)
        assert sol.reached
    past = (ring.soft_start + 1e-6 * ring.outer + 1e-9) * u
    assert not solve_two_bone((0.0, 0.0), past, l1, l2, softness=softness, stretch=stretch).reached


def test_annulus_by_hand():
    assert annulus(110, 90) == (20.0, 200.0, 200.0)
    assert annulus(110, 90, softness=30) == (20.0, 200.0, 170.0)
    assert annulus(110, 90, stretch=1.5) == (20.0, 300.0, 300.0)
    assert annulus(100, 10, softness=500) == (90.0, 110.0, 90.0)  # softness counts up to 110, start kept at the hole


def stepped(steps=3, **kw):
    scene = Scene((1000.0, 800.0))
    target = kw.pop("target", (430.0, 330.0))
    chain = scene.add(make_ik_chain("two-bone", (300.0, 400.0), [-1.0, 1.2], [110.0, 90.0], target,
                                    rate_limit=None, **kw))
    for _ in range(steps):
        scene.step()
    return scene, chain


CASES = [
    {},
    {"mirror": True},
    {"auto_bend": True, "target": (220.0, 330.0)},  # left of the root: auto bend's side -1
    {"auto_bend": True, "mirror": True, "target": (220.0, 330.0)},
    {"pole": (420.0, 450.0)},
    {"pole": (300.0, 200.0), "mirror": True},
    {"softness": 30.0, "target": (480.0, 380.0)},
    {"stretch": 1.3, "target": (560.0, 400.0)},
    {"target": (310.0, 395.0)},  # inside the hole
]


@pytest.mark.parametrize("kw", CASES)
def test_goal_triangle_agrees_with_the_solver(kw):
    scene, chain = stepped(**kw)
    f = chain.fields
    bend = f["bend"][0] * (f["side"][0] if f["auto_bend"][0] else 1.0)
    want = triangle(f["root"], f["target"], *f["lengths"].tolist(), bend, pole=f["pole"],
                    softness=f["softness"][0], stretch=f["stretch"][0])
    got = goal_triangle(chain)
    for name in ("r", "phi", "psi", "gamma", "theta1", "theta2", "scale"):
        assert getattr(got, name) == pytest.approx(getattr(want, name), abs=1e-7), name
    for name in ("knee", "end"):
        np.testing.assert_allclose(getattr(got, name), getattr(want, name), atol=1e-7)
    np.testing.assert_allclose(got.knee, f["points"][1], atol=1e-7)  # rate limit off: shown = goal


def test_auto_bend_and_pole_pick_the_drawn_side():
    _, plain = stepped(target=(220.0, 330.0))
    _, auto = stepped(auto_bend=True, target=(220.0, 330.0))
    assert goal_triangle(plain).bend == 1.0 and goal_triangle(auto).bend == -1.0
    _, below = stepped(pole=(365.0, 500.0), target=(430.0, 400.0))  # target level right; pole below (+y)
    assert goal_triangle(below).knee[1] > 400.0


def arcs_and_labels(prims):
    arcs = [p for p in prims if isinstance(p, Polyline) and p.role == "angle"]
    labels = [p for p in prims if isinstance(p, Label) and p.role == "angle"]
    return arcs, labels


@pytest.mark.parametrize("kw", CASES)
def test_overlay_draws_the_triangle_and_its_angles(kw):
    _, chain = stepped(**kw)
    prims = two_bone_overlay(chain)
    tri = goal_triangle(chain)
    f = chain.fields
    root = f["root"]
    guides = [p for p in prims if isinstance(p, Polyline) and p.role == "guide" and p.closed]
    assert len(guides) == 1
    np.testing.assert_allclose(guides[0].points, [tri.root, tri.knee, tri.end])
    arcs, labels = arcs_and_labels(prims)
    assert [lb.text.split()[0] for lb in labels] == ["phi", "psi", "gamma"]
    for lb, value in zip(labels, (tri.phi, tri.psi, tri.gamma)):
        assert lb.text.split()[1] == f"{math.degrees(value):.1f}\N{DEGREE SIGN}"
    phi_arc, psi_arc, gamma_arc = arcs
    # phi: about the root from +x to the target's direction
    radius = np.hypot(*(phi_arc.points - root).T)
    assert np.allclose(radius, radius[0]) and radius[0] > 0
    assert gap(direction(phi_arc.points[0] - root), 0.0) < 1e-9
    assert gap(direction(phi_arc.points[-1] - root), tri.phi) < 1e-9
    # psi: from the target's direction to bone 1, turning psi
    assert gap(direction(psi_arc.points[0] - root), tri.phi) < 1e-9
    assert gap(direction(psi_arc.points[-1] - root), direction(tri.knee - root)) < 1e-7
    swept = np.sum(np.abs(np.diff(np.unwrap(np.arctan2(*(psi_arc.points - root).T[::-1])))))
    assert swept == pytest.approx(tri.psi, abs=1e-7)
    # gamma: at the knee, from the bone back to the root round to bone 2, inside the triangle
    knee = tri.knee
    assert gap(direction(gamma_arc.points[0] - knee), direction(tri.root - knee)) < 1e-7
    assert gap(direction(gamma_arc.points[-1] - knee), direction(tri.end - knee)) < 1e-7
    swept = np.sum(np.abs(np.diff(np.unwrap(np.arctan2(*(gamma_arc.points - knee).T[::-1])))))
    assert swept == pytest.approx(tri.gamma, abs=1e-7)
    if 0.05 < tri.gamma < math.pi - 0.05:  # the arc's middle lies inside the triangle
        m = gamma_arc.points[len(gamma_arc.points) // 2]
        assert inside_triangle(m, tri.root, tri.knee, tri.end)


def inside_triangle(p, a, b, c):
    def cross(o, u, v):
        return (u[0] - o[0]) * (v[1] - o[1]) - (u[1] - o[1]) * (v[0] - o[0])
    s = [cross(a, b, p), cross(b, c, p), cross(c, a, p)]
    return all(v >= 0 for v in s) or all(v <= 0 for v in s)


def test_overlay_annulus():
    _, chain = stepped()
    prims = two_bone_overlay(chain)
    reach = sorted(p.radius for p in prims if isinstance(p, Circle) and p.role == "reach")
    assert reach == [20.0, 200.0]
    assert not [p for p in prims if isinstance(p, Ring)]
    _, chain = stepped(softness=30.0, stretch=1.5)
    prims = two_bone_overlay(chain)
    reach = sorted(p.radius for p in prims if isinstance(p, Circle) and p.role == "reach")
    assert reach == [20.0, 200.0, 300.0]  # the hole, the unstretched reach, the stretched one
    (soft,) = [p for p in prims if isinstance(p, Ring)]
    assert (soft.role, soft.inner, soft.outer) == ("soft", 270.0, 300.0)
    np.testing.assert_array_equal(soft.centre, chain.fields["root"])
