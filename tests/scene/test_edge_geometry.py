"""Degenerate and extreme geometry through the scene and the solvers: finite results, invariants kept.

Targets on the root, on the reach boundary, inside the inner radius and 1e9 px away;
1-bone and 64-bone chains; equal lengths; joint limits with lo = hi and at +-180.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from ikplayground.scene.build import build
from ikplayground.scene.core.scene import Scene
from ikplayground.solvers import follow_snake, solve_ccd, solve_fabrik, solve_two_bone
from tests.scene.scene_cases import assert_chain_ok

PI = math.pi
BIG = 1e9


def target_cases(lengths):
    """Named targets relative to a root at the origin, for bones ``lengths``, pointing right."""
    reach = float(np.sum(lengths))
    inner = max(0.0, 2 * float(np.max(lengths)) - reach)
    return {
        "on the root": (0.0, 0.0),
        "on the reach boundary": (reach, 0.0),
        "just past the boundary": (reach * (1 + 1e-12), 0.0),
        "inside the inner radius": (inner * 0.5, 0.0),
        "far away": (BIG, -BIG),
        "straight up, in reach": (0.0, -reach * 0.7),
    }


def limit_cases(n):
    lim = {"free": np.tile((-PI, PI), (n, 1)).astype(float)}
    same = np.tile((-PI, PI), (n, 1)).astype(float)
    same[1:] = (0.0, 0.0)  # lo = hi: the joint cannot move
    lim["lo = hi = 0"] = same
    tilted = np.tile((-PI, PI), (n, 1)).astype(float)
    tilted[1:] = (math.radians(30), math.radians(30))
    lim["lo = hi = 30 deg"] = tilted
    edge = np.tile((-PI, PI), (n, 1)).astype(float)
    edge[1:] = (-PI, -PI + 0.2)  # a range that starts at -180
    lim["at -180"] = edge
    top = np.tile((-PI, PI), (n, 1)).astype(float)
    top[1:] = (PI - 0.2, PI)  # ... and one that ends at +180
    lim["at +180"] = top
    return lim


CHAINS = {
    "two-bone equal": ("two-bone", [50.0, 50.0]),
    "two-bone unequal": ("two-bone", [80.0, 30.0]),
    "ccd 1 bone": ("ccd", [40.0]),
    "ccd 64 bones": ("ccd", [5.0] * 64),
    "fabrik 1 bone": ("fabrik", [40.0]),
    "fabrik 64 bones": ("fabrik", [5.0] * 64),
    "fabrik equal 3": ("fabrik", [30.0, 30.0, 30.0]),
}


@pytest.mark.parametrize("name", list(CHAINS))
@pytest.mark.parametrize("where", list(target_cases([1.0])))
def test_scene_steps_stay_sound_for_awkward_targets(name, where):
    solver, lengths = CHAINS[name]
    scene = Scene((4 * BIG, 4 * BIG))
    root = np.array((2 * BIG, 2 * BIG))
    n = len(lengths)
    angles = np.zeros(n)
    for limits_name, limits in (limit_cases(n).items() if solver != "two-bone" else [("free", None)]):
        chain = scene.add(build.make_ik_chain(solver, root, angles, lengths, root, limits=limits))
        offset = np.array(target_cases(lengths)[where])
        scene.move_target(chain, root + offset)
        for rate in (3.0, None):
            chain.rate_limit = rate
            for _ in range(4):
                scene.step()
                assert_chain_ok(chain), (name, where, limits_name)
        scene.remove(chain)


@pytest.mark.parametrize("name", list(CHAINS))
@pytest.mark.parametrize("where", list(target_cases([1.0])))
def test_single_chain_solvers_stay_finite_for_awkward_targets(name, where):
    solver, lengths = CHAINS[name]
    lengths = np.array(lengths)
    target = np.array(target_cases(lengths)[where])
    if solver == "two-bone":
        for bend in (1, -1):
            sol = solve_two_bone((0.0, 0.0), tuple(target), float(lengths[0]), float(lengths[1]), bend)
            assert np.isfinite(sol.knee).all() and np.isfinite(sol.end).all()
            assert math.isfinite(sol.theta1) and math.isfinite(sol.theta2)
            assert math.dist(sol.knee, (0, 0)) == pytest.approx(lengths[0], rel=1e-9)
            assert math.dist(sol.end, sol.knee) == pytest.approx(lengths[1], rel=1e-9)
        return
    solve = solve_ccd if solver == "ccd" else solve_fabrik
    for limits in limit_cases(len(lengths)).values():
        sol = solve((0.0, 0.0), np.zeros(len(lengths)), lengths, target, limits=limits, iterations=20)
        assert np.isfinite(sol.angles).all() and math.isfinite(sol.error)
        lo, hi = limits[:, 0], limits[:, 1]
        same = np.isclose(sol.angles, PI) & np.isclose(lo, -PI)  # +180 is -180
        assert np.all(((sol.angles >= lo - 1e-9) & (sol.angles <= hi + 1e-9)) | same)


@pytest.mark.slow
@pytest.mark.parametrize("bend", [(0.0, 0.0), (-PI, PI), (-PI, -PI + 0.1), (0.3, 0.3)])
@pytest.mark.parametrize("segments", [1, 64])
def test_snakes_with_extreme_bend_ranges_stay_sound(bend, segments):
    scene = Scene((2000.0, 2000.0))
    snake = scene.add(build.straight_snake((1000.0, 1000.0), 0.3, nodes=segments + 1, segment=10.0,
                                           bend_limits=bend))
    rng = np.random.default_rng(segments)
    for step in range(120):
        scene.steer(throttle=step % 40 < 30, turn=int(rng.integers(-1, 2)))
        scene.step()
        assert_chain_ok(snake)
    pts = snake.fields["points"]
    for head in ((0.0, 0.0), tuple(pts[1]), (BIG, BIG), tuple(pts[-1])):  # onto a node, far away, onto the tail
        out = follow_snake(pts, head, snake.fields["lengths"], bend)
        assert np.isfinite(out).all()
        # lengths hold to the precision the coordinates carry (a few ulps of 1e9 is ~1e-7 px)
        scale = 1e-14 * float(np.abs(out).max())
        np.testing.assert_allclose(np.hypot(*np.diff(out, axis=0).T), snake.fields["lengths"], rtol=1e-9, atol=scale)
