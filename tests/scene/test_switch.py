"""Switching a chain's solver, bone count and bone length in a live scene."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ikplayground.scene.build.presets import default_scene
from ikplayground.scene.core.scene import Scene
from ikplayground.solvers import solve_ccd, solve_fabrik
from tests.scene.scene_cases import (IK_SOLVERS, SOLVER_ORDER, assert_chain_ok, assert_scene_ok, segment_lengths,
                                     snake_bends, stage_points, total_reach)

PAIRS = [(a, b) for a, b in itertools.permutations(SOLVER_ORDER, 2)]
FEW = settings(max_examples=15)


def posed_scene(solver, target, steps):
    """A chain of ``solver`` between two others, bent by chasing ``target`` (or steered)."""
    scene = Scene((980.0, 720.0))
    scene.new_chain("two-bone", (120.0, 650.0))
    chain = scene.new_chain(solver, (490.0, 420.0))
    scene.new_chain("two-bone", (850.0, 650.0))  # one more chain after it, so its index matters
    scene.select(chain)
    if solver == "snake":
        for i in range(steps):
            scene.steer(True, (-1, 0, 1)[i % 3])
            scene.step()
        scene.steer(False, 0)
    else:
        scene.move_target(chain, target)
        for _ in range(steps):
            scene.step()
    return scene, chain


@pytest.mark.slow
@pytest.mark.parametrize(("old", "new"), PAIRS)
@given(target=stage_points, steps=st.integers(0, 30))
@FEW
def test_set_solver_keeps_the_chain_in_place(old, new, target, steps):
    scene, chain = posed_scene(old, target, steps)
    index = scene.chains.index(chain)
    count = len(scene.chains)
    anchor = chain.anchor.copy()
    reach = total_reach(chain)

    switched = scene.set_solver(chain, new)

    assert switched.solver == new
    assert scene.chains[index] is switched
    assert len(scene.chains) == count
    assert scene.selected is switched
    assert chain not in scene.chains or chain is switched
    np.testing.assert_allclose(switched.anchor, anchor, rtol=0, atol=1e-6)
    if old in IK_SOLVERS and new in IK_SOLVERS:
        assert total_reach(switched) == pytest.approx(reach, rel=1e-9)
    if new == "two-bone":
        assert switched.bones == 2
    if new != "snake":
        assert_chain_ok(switched)  # IK chains are consistent at once

    for _ in range(5):
        scene.step()
    assert_scene_ok(scene)
    assert scene.chains[index] is switched


@pytest.mark.parametrize(("old", "new"), PAIRS)
def test_set_solver_of_an_unselected_chain_keeps_the_selection(old, new):
    scene, chain = posed_scene(old, (300.0, 200.0), 10)
    other = scene.chains[0]
    scene.select(other)
    switched = scene.set_solver(chain, new)
    assert scene.selected is other
    assert switched.solver == new


@pytest.mark.parametrize("solver", SOLVER_ORDER)
def test_set_solver_to_the_same_solver_changes_nothing(solver):
    scene, chain = posed_scene(solver, (300.0, 200.0), 10)
    before = {k: v.copy() for k, v in chain.fields.items()}
    assert scene.set_solver(chain, solver) is chain
    for k, v in before.items():
        np.testing.assert_array_equal(chain.fields[k], v)


def test_set_solver_rejects_an_unknown_solver():
    scene, chain = posed_scene("ccd", (300.0, 200.0), 5)
    with pytest.raises(ValueError, match="solver"):
        scene.set_solver(chain, "jacobian")
    assert chain in scene.chains and chain.solver == "ccd"


@pytest.mark.parametrize(("old", "new"), [("ccd", "fabrik"), ("fabrik", "ccd")])
def test_ccd_fabrik_switch_keeps_pose_and_parameters(old, new):
    scene, chain = posed_scene(old, (300.0, 250.0), 20)
    chain.rate_limit = 7.5
    chain.iterations = 17
    chain.tolerance = 0.25
    chain.set_joint_limit(30.0)
    before = {k: v.copy() for k, v in chain.fields.items()}
    switched = scene.set_solver(chain, new)
    for k in ("root", "target", "lengths", "angles", "limits", "rate", "iterations", "tolerance"):
        np.testing.assert_array_equal(switched.fields[k], before[k], err_msg=k)
    scene.step()
    assert_chain_ok(switched)


@pytest.mark.parametrize(("old", "new"), list(itertools.permutations(IK_SOLVERS, 2)))
def test_ik_switch_keeps_rate_limit_iterations_and_tolerance(old, new):
    scene, chain = posed_scene(old, (300.0, 250.0), 20)
    chain.rate_limit = None
    chain.rate_deg = 12.0
    chain.iterations = 23
    chain.tolerance = 0.125
    switched = scene.set_solver(chain, new)
    assert switched.rate_limit is None
    assert switched.rate_deg == 12.0
    assert switched.iterations == 23
    assert switched.tolerance == 0.125
    np.testing.assert_array_equal(switched.fields["target"], chain.fields["target"])


def test_ik_to_snake_keeps_the_reach_and_snake_to_ik_targets_the_head():
    scene, chain = posed_scene("ccd", (300.0, 250.0), 30)
    reach = total_reach(chain)
    snake = scene.set_solver(chain, "snake")
    assert total_reach(snake) == pytest.approx(reach, rel=1e-9)
    head = snake.fields["points"][0].copy()
    arm = scene.set_solver(snake, "two-bone")
    np.testing.assert_allclose(arm.fields["target"], head, atol=1e-9)
    np.testing.assert_allclose(arm.tip, head, atol=1e-6)  # the knee is placed so the tip stays


def _fresh_two_bone():
    scene = Scene((980.0, 720.0))
    return scene, scene.new_chain("two-bone", (490.0, 600.0))  # knee bent 90 degrees


def _bent_ccd():
    scene = default_scene()
    for _ in range(60):  # the CCD chain bends toward its target
        scene.step()
    return scene, next(c for c in scene.chains if c.solver == "ccd")


@pytest.mark.parametrize("make", [_fresh_two_bone, _bent_ccd], ids=["two-bone", "bent-ccd"])
def test_switch_to_snake_gives_a_valid_snake_at_once(make):
    """Its nodes sit exactly ``lengths`` apart with every bend in range, before any step."""
    scene, chain = make()
    anchor = chain.anchor.copy()
    snake = scene.set_solver(chain, "snake")
    np.testing.assert_allclose(segment_lengths(snake.fields["points"]), snake.fields["lengths"], rtol=1e-6)
    lo, hi = snake.fields["bend_limits"]
    bends = snake_bends(snake.fields["points"])
    assert np.all(bends >= lo - 1e-9) and np.all(bends <= hi + 1e-9), np.degrees(bends)
    np.testing.assert_allclose(snake.anchor, anchor, atol=1e-6)
    scene.step()  # and so the first step leaves the still snake where it is
    np.testing.assert_allclose(snake.anchor, anchor, atol=1e-6)


# --- bone count -------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("solver", ["ccd", "fabrik", "snake"])
@given(n=st.integers(-3, 80), target=stage_points)
@settings(max_examples=20)
def test_set_bone_count(solver, n, target):
    scene, chain = posed_scene(solver, target, 10)
    index = scene.chains.index(chain)
    old = {k: v.copy() for k, v in chain.fields.items()}
    old_bones = chain.bones
    changed = scene.set_setting(chain, "bones", n)
    expected = min(max(n, 1), 64)
    assert changed.bones == expected
    assert changed.solver == solver
    assert scene.chains[index] is changed
    assert scene.selected is changed
    keep = min(expected, old_bones)
    if solver == "snake":
        # the head stays and the kept segments are where they were
        np.testing.assert_allclose(changed.fields["points"][: keep + 1], old["points"][: keep + 1], atol=1e-9)
        np.testing.assert_array_equal(changed.fields["bend_limits"], old["bend_limits"])
        np.testing.assert_array_equal(changed.fields["heading"], old["heading"])
    else:
        np.testing.assert_array_equal(changed.fields["root"], old["root"])
        np.testing.assert_array_equal(changed.fields["target"], old["target"])
        np.testing.assert_array_equal(changed.fields["lengths"][:keep], old["lengths"][:keep])
        np.testing.assert_allclose(changed.fields["angles"][:keep], old["angles"][:keep], rtol=0, atol=1e-12)
        np.testing.assert_array_equal(changed.fields["limits"][:keep], old["limits"][:keep])
        assert changed.rate_limit == pytest.approx(chain.rate_limit, rel=1e-12)
        np.testing.assert_allclose(changed.fields["points"][: keep + 1], old["points"][: keep + 1], atol=1e-9)
    assert_chain_ok(changed)
    for _ in range(5):
        scene.step()
    assert_scene_ok(scene)


def test_set_bone_count_leaves_two_bone_at_two():
    scene, chain = posed_scene("two-bone", (300.0, 250.0), 5)
    for n in (1, 3, 7, 64):
        assert scene.set_setting(chain, "bones", n) is chain
        assert chain.bones == 2


# --- bone length ------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("solver", SOLVER_ORDER)
@given(length=st.floats(-10.0, 300.0), target=stage_points)
@settings(max_examples=20)
def test_set_bone_length(solver, length, target):
    scene, chain = posed_scene(solver, target, 10)
    anchor = chain.fields["points"][0].copy()  # IK root, snake head
    angles = None if solver == "snake" else chain.fields["angles"].copy()
    before = chain.fields["lengths"].copy()
    scene.set_setting(chain, "bone_length", length)
    expected = max(length, 1.0)
    if np.ptp(before) == 0:  # one length: exactly the value
        np.testing.assert_array_equal(chain.fields["lengths"], np.full(chain.bones, expected))
    else:  # the two-bone arm's 120 and 100 px: scaled alike, the mean the value
        np.testing.assert_allclose(chain.fields["lengths"], before * expected / before.mean(), rtol=1e-12)
    np.testing.assert_array_equal(chain.fields["points"][0], anchor)
    if angles is not None:
        np.testing.assert_array_equal(chain.fields["angles"], angles)
        assert chain.error == pytest.approx(math.dist(chain.tip, chain.fields["target"]), abs=1e-9)
    assert_chain_ok(chain)
    for _ in range(5):
        scene.step()
    assert_scene_ok(scene)


def test_a_switched_chain_is_solved_by_its_new_solver():
    """FABRIK -> CCD in a scene with another CCD chain: the next step is CCD's answer."""
    scene = Scene((980.0, 720.0))
    scene.new_chain("ccd", (300.0, 650.0))
    b = scene.new_chain("fabrik", (700.0, 650.0))
    scene.step()
    b = scene.set_solver(b, "ccd")
    scene.move_target(b, (790.0, 470.0))
    b.rate_limit = None
    f = {k: v.copy() for k, v in b.fields.items()}
    # the solve starts from the solver's own last answer (its goal), not the rate-limited pose
    args = (f["root"], f["goal"], f["lengths"], f["target"])
    kw = {"iterations": b.iterations, "tolerance": b.tolerance, "limits": f["limits"]}
    ccd = solve_ccd(*args, **kw)
    fabrik = solve_fabrik(*args, **kw)
    assert np.max(np.abs(ccd.angles - fabrik.angles)) > 1e-3  # the two solvers disagree here
    scene.step()
    np.testing.assert_allclose(b.fields["angles"], ccd.angles, rtol=0, atol=1e-9)
    assert b.error == pytest.approx(ccd.error, abs=1e-6)
