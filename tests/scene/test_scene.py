"""Scene membership, selection, placement and picking (no window)."""

from __future__ import annotations

import functools
import gc
import math
import weakref

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ikplayground.scene.build import build
from ikplayground.scene.build.presets import default_scene
from ikplayground.scene.core.scene import Scene
from tests.scene.scene_cases import (IK_SOLVERS, SOLVER_ORDER, STAGE, assert_chain_ok, assert_scene_ok, bounding_box,
                                     boxes_intersect, solvers, stage_points)

FEW = settings(max_examples=40)


def joints(scene) -> np.ndarray:
    return np.concatenate([c.fields["points"] for c in scene.chains])


def clearance(scene, p) -> float:
    """Distance (px) from ``p`` to the nearest joint of any chain."""
    return float(np.min(np.hypot(*(joints(scene) - np.asarray(p)).T)))


def inside(p, stage, slack=0.0) -> bool:
    return -slack <= p[0] <= stage[0] + slack and -slack <= p[1] <= stage[1] + slack


# Scene.move_chain (which resize uses) lands a root a few ulps outside the stage;
# test_resize_puts_roots_exactly_inside_the_stage is that bug, exactly.


# --- adding -----------------------------------------------------------------------
@pytest.mark.parametrize("solver", SOLVER_ORDER)
def test_new_chain_adds_and_selects_it(solver):
    scene = default_scene()
    before = list(scene.chains)
    chain = scene.new_chain(solver, (400.0, 500.0))
    assert scene.chains == before + [chain]
    assert scene.selected is chain
    assert chain.solver == solver
    assert scene.counts()[solver] == 2
    # it starts where it was asked to: an IK chain's root, a snake's head
    start = chain.fields["points"][0]
    np.testing.assert_array_equal(start, (400.0, 500.0))
    if solver != "snake":
        np.testing.assert_array_equal(chain.fields["root"], (400.0, 500.0))
        assert inside(chain.fields["target"], scene.stage)
    assert_chain_ok(chain)


@pytest.mark.parametrize("solver", SOLVER_ORDER)
def test_new_chain_outside_the_stage_is_pulled_inside(solver):
    scene = Scene(STAGE)
    chain = scene.new_chain(solver, (-50.0, 5000.0))
    np.testing.assert_array_equal(chain.fields["points"][0], (0.0, STAGE[1]))


def test_new_chain_with_no_place_uses_a_free_spot():
    scene = default_scene()
    spot = scene.free_spot()
    chain = scene.new_chain("ccd")
    np.testing.assert_array_equal(chain.fields["root"], spot)


def test_new_chain_rejects_an_unknown_solver_and_leaves_the_scene_alone():
    scene = default_scene()
    before = list(scene.chains)
    selected = scene.selected
    with pytest.raises(ValueError, match="solver"):
        scene.new_chain("jacobian", (10, 10))
    assert scene.chains == before
    assert scene.selected is selected


@pytest.mark.slow
@given(st.lists(st.tuples(solvers, stage_points), min_size=1, max_size=8))
@FEW
def test_every_added_chain_is_valid_and_steps_cleanly(adds):
    scene = Scene(STAGE)
    for solver, at in adds:
        scene.new_chain(solver, at)
    assert [c.solver for c in scene.chains] == [k for k, _ in adds]
    assert_scene_ok(scene)
    for _ in range(5):
        scene.step()
    assert_scene_ok(scene)


# --- removing ---------------------------------------------------------------------
def test_remove_last_removes_the_chain_added_last_and_returns_it():
    scene = Scene(STAGE)
    added = [scene.new_chain(k, (100.0 + 150 * i, 600.0)) for i, k in enumerate(SOLVER_ORDER)]
    for expected in reversed(added):
        assert scene.remove_last() is expected
        assert expected not in scene.chains
    assert scene.chains == []
    assert scene.selected is None


def test_remove_last_on_an_empty_scene_returns_none():
    scene = Scene(STAGE)
    assert scene.remove_last() is None
    assert scene.chains == [] and scene.selected is None
    scene.step()  # and the scene still steps


def test_remove_of_the_selected_chain_moves_the_selection_to_a_chain_in_the_scene():
    scene = default_scene()
    for victim_index in (1, 0, 0, 0):
        victim = scene.chains[victim_index]
        scene.select(victim)
        scene.remove(victim)
        assert victim not in scene.chains
        if scene.chains:
            assert scene.selected in scene.chains
        else:
            assert scene.selected is None


def test_remove_of_another_chain_keeps_the_selection():
    scene = default_scene()
    keep = scene.chains[2]
    scene.select(keep)
    before = len(scene.chains)
    scene.remove(scene.chains[0])
    assert scene.selected is keep
    assert len(scene.chains) == before - 1


def test_a_removed_chain_no_longer_steps():
    scene = default_scene()
    arm = scene.chains[0]
    scene.remove(arm)
    before = arm.fields["angles"].copy()
    scene.move_target(arm, (0.0, 0.0))
    for _ in range(5):
        scene.step()
    np.testing.assert_array_equal(arm.fields["angles"], before)


# --- selection --------------------------------------------------------------------
def test_select_next_cycles_through_every_chain_in_order():
    scene = default_scene()
    scene.select(None)
    seen = [scene.select_next() for _ in range(2 * len(scene.chains))]
    assert seen == scene.chains + scene.chains


def test_select_next_on_an_empty_scene_is_none():
    scene = Scene(STAGE)
    assert scene.select_next() is None
    assert scene.selected is None


def test_driven_snake_is_the_selected_snake():
    scene = default_scene()
    first = next(c for c in scene.chains if c.is_snake)
    second = scene.new_chain("snake", (500.0, 500.0))
    scene.select(first)
    assert scene.driven_snake() is first
    scene.select(second)
    assert scene.driven_snake() is second


def test_driven_snake_is_the_only_snake_when_an_ik_chain_is_selected():
    scene = default_scene()
    snake = next(c for c in scene.chains if c.is_snake)
    assert not scene.selected.is_snake
    assert scene.driven_snake() is snake
    scene.select(None)
    assert scene.driven_snake() is snake


def test_driven_snake_is_none_with_two_snakes_and_neither_selected():
    scene = default_scene()
    scene.new_chain("snake", (500.0, 500.0))
    scene.select(scene.chains[0])
    assert scene.driven_snake() is None


def test_driven_snake_is_none_without_snakes():
    scene = default_scene()
    scene.remove(next(c for c in scene.chains if c.is_snake))
    for c in scene.chains:
        scene.select(c)
        assert scene.driven_snake() is None


# --- the default scene ------------------------------------------------------------
@pytest.mark.parametrize("stage", [(980.0, 720.0), (800.0, 600.0), (1920.0, 1080.0)])
def test_default_scene_has_one_chain_of_each_solver_apart_and_inside(stage):
    scene = default_scene(stage)
    assert sorted(c.solver for c in scene.chains) == sorted(SOLVER_ORDER)
    assert scene.selected in scene.chains
    boxes = [bounding_box(c) for c in scene.chains]
    for i in range(len(boxes)):
        lo, hi = boxes[i]
        assert np.all(lo >= 0) and np.all(hi <= stage), (scene.chains[i].solver, lo, hi)
        for j in range(i + 1, len(boxes)):
            assert not boxes_intersect(boxes[i], boxes[j]), (scene.chains[i].solver, scene.chains[j].solver)
    assert_scene_ok(scene)


@pytest.mark.slow
def test_default_scene_steps_cleanly():
    scene = default_scene()
    for _ in range(120):
        scene.step()
    assert_scene_ok(scene)
    arm = next(c for c in scene.chains if c.solver == "two-bone")
    assert arm.error < 1e-6  # its target is within reach and two-bone is exact


# --- free spot --------------------------------------------------------------------
def test_free_spot_on_an_empty_stage_is_inside():
    scene = Scene(STAGE)
    assert inside(scene.free_spot(), STAGE)


def test_free_spot_of_the_default_scene_is_clear_of_every_chain():
    scene = default_scene()
    spot = scene.free_spot()
    assert inside(spot, scene.stage)
    # further from every joint than the longest default chain is long
    assert clearance(scene, spot) > 252.0
    assert scene.chain_at(spot, 20.0) is None


def test_chains_added_at_free_spots_do_not_start_on_top_of_others():
    scene = default_scene()
    for solver in ("ccd", "two-bone", "fabrik"):
        spot = scene.free_spot()
        assert clearance(scene, spot) > 60.0, (solver, spot)
        scene.new_chain(solver)


@pytest.mark.slow
@given(
    st.lists(st.tuples(solvers, stage_points), min_size=1, max_size=6),
    st.tuples(st.floats(60, STAGE[0] - 60), st.floats(60, STAGE[1] - 60)),
)
@FEW
def test_free_spot_is_about_as_clear_as_any_point_of_the_stage(adds, probe):
    """No point of the stage (60 px in from the edges) is much further from the chains.

    The search is over a grid, so the answer can lose at most half a grid
    cell's diagonal (about 58 px on this stage) to the best point.
    """
    scene = Scene(STAGE)
    for solver, at in adds:
        scene.new_chain(solver, at)
    spot = scene.free_spot()
    assert inside(spot, STAGE)
    assert clearance(scene, spot) >= clearance(scene, probe) - 60.0


# --- resize -----------------------------------------------------------------------
@pytest.mark.slow
@given(
    st.lists(st.tuples(solvers, stage_points), min_size=0, max_size=6),
    st.tuples(st.floats(20, 2000), st.floats(20, 2000)),
)
@FEW
def test_resize_keeps_roots_targets_and_snake_heads_inside(adds, new_stage):
    scene = default_scene()
    for solver, at in adds:
        scene.new_chain(solver, at)
    for _ in range(3):
        scene.step()
    lengths = [c.fields["lengths"].copy() for c in scene.chains]
    scene.resize(new_stage)
    assert scene.stage == new_stage
    for c, before in zip(scene.chains, lengths):
        if c.is_snake:
            assert inside(c.fields["points"][0], new_stage), c.fields["points"][0]
        else:
            assert inside(c.fields["root"], new_stage), c.fields["root"]
            assert inside(c.fields["target"], new_stage), c.fields["target"]
        np.testing.assert_array_equal(c.fields["lengths"], before)
    assert_scene_ok(scene)
    for _ in range(3):
        scene.step()
    assert_scene_ok(scene)
    for c in scene.chains:
        if c.is_snake:
            assert inside(c.fields["points"][0], new_stage)


@pytest.mark.slow
@given(st.tuples(st.floats(1000, 3000), st.floats(800, 3000)))
@FEW
def test_growing_the_stage_moves_nothing(new_stage):
    scene = default_scene()
    before = [c.fields["points"].copy() for c in scene.chains]
    scene.resize(new_stage)
    for c, pts in zip(scene.chains, before):
        np.testing.assert_array_equal(c.fields["points"], pts)


def test_resize_puts_roots_exactly_inside_the_stage():
    stage = (20.0, 20.081421145864155)
    scene = default_scene()
    scene.resize(stage)
    for c in scene.chains:
        if not c.is_snake:
            assert inside(c.fields["root"], stage), repr(c.fields["root"][1])


def test_resize_keeps_a_snake_head_inside_a_stage_shorter_than_the_snake():
    scene = Scene(STAGE)
    snake = scene.add(build.straight_snake((900.0, 300.0), 0.0))  # tail at x = 540
    scene.resize((200.0, 720.0))
    assert inside(snake.fields["points"][0], scene.stage), snake.fields["points"][0]


def layout(scene):
    """Every chain's root, target and points (a snake's points), copied."""
    return [[c.fields[k].copy() for k in (("points",) if c.is_snake else ("root", "target", "points"))]
            for c in scene.chains]


@pytest.mark.slow
@given(st.tuples(st.floats(20, 600), st.floats(20, 400)), st.integers(1, 3))
@FEW
def test_a_squashed_stage_gives_the_layout_back_when_it_grows_again(small, squeezes):
    scene = default_scene()
    stage = scene.stage
    before = layout(scene)
    for k in range(squeezes):  # squashed a few times, smaller each time
        scene.resize((small[0] / (k + 1), small[1] / (k + 1)))
    moved = any(not np.array_equal(g, w) for parts, was in zip(layout(scene), before) for g, w in zip(parts, was))
    assert moved  # the squash did push something in (the default scene reaches past 600 x 400)
    scene.resize(stage)
    for parts, was in zip(layout(scene), before):
        for got, want in zip(parts, was):
            np.testing.assert_allclose(got, want, atol=1e-9)


@pytest.mark.slow
@given(st.lists(st.tuples(st.floats(20, 2000), st.floats(20, 2000)), min_size=1, max_size=5))
@FEW
def test_the_layout_after_resizes_depends_only_on_the_last_size(sizes):
    """Resized through any sizes (nothing moved meanwhile) = resized straight to the last one."""
    through, straight = default_scene(), default_scene()
    for size in sizes:
        through.resize(size)
    through.resize(sizes[-1])  # twice to the same size changes nothing
    straight.resize(sizes[-1])
    for parts, want in zip(layout(through), layout(straight)):
        for got, exp in zip(parts, want):
            np.testing.assert_allclose(got, exp, atol=1e-9)


def test_a_squash_moves_each_target_with_its_root_then_clamps_it_once():
    """Was: a target clamped before its root was pulled in, then shifted with it (clamped twice)."""
    scene = default_scene()
    small = np.array((320.0, 240.0))
    want = []
    for c in scene.chains:
        if not c.is_snake:
            offset = np.clip(c.fields["root"], 0.0, small) - c.fields["root"]
            want.append(np.clip(c.fields["target"] + offset, 0.0, small))
    scene.resize((320.0, 240.0))
    got = [c.fields["target"] for c in scene.chains if not c.is_snake]
    np.testing.assert_allclose(got, want, atol=1e-9)


def test_a_chain_dragged_into_the_corner_it_was_pushed_to_stays_there():
    scene = default_scene()
    stage = scene.stage
    fabrik = next(c for c in scene.chains if c.solver == "fabrik")
    scene.resize((320.0, 240.0))
    corner = fabrik.fields["root"].copy()
    scene.move_chain(fabrik, (5000.0, 5000.0))  # clamped to exactly where the squash had put it
    np.testing.assert_array_equal(fabrik.fields["root"], corner)
    scene.resize(stage)
    np.testing.assert_array_equal(fabrik.fields["root"], corner)


@pytest.mark.slow
def test_free_spots_on_a_crowded_stage_do_not_repeat():
    scene = default_scene()
    for k in range(300):
        scene.new_chain("ccd", (30.0 + (k % 30) * 30.0, 300.0 + (k // 30) * 30.0))
    spots = [tuple(scene.new_chain("ccd").fields["root"]) for _ in range(20)]
    assert len(set(spots)) == 20, spots

def test_a_chain_moved_while_squashed_stays_where_it_was_put():
    scene = default_scene()
    stage = scene.stage
    arm = next(c for c in scene.chains if c.solver == "two-bone")
    far = next(c for c in scene.chains if c is not arm and not c.is_snake)
    scene.resize((120.0, 120.0))
    scene.move_chain(arm, (60.0, 60.0))  # the user drags its root
    far.fields["target"][:] = (10.0, 10.0)  # and another chain's target
    far_root_squashed = far.fields["root"].copy()
    scene.resize(stage)
    np.testing.assert_array_equal(arm.fields["root"], (60.0, 60.0))
    np.testing.assert_array_equal(far.fields["target"], (10.0, 10.0))
    assert not np.array_equal(far.fields["root"], far_root_squashed)  # its untouched root went home


def test_a_chain_replaced_while_squashed_is_not_moved_back():
    scene = default_scene()
    stage = scene.stage
    scene.resize((120.0, 120.0))
    old = scene.chains[1]
    new = scene.replace(old, build.converted(old, "fabrik"))
    root = new.fields["root"].copy()
    scene.resize(stage)
    np.testing.assert_array_equal(new.fields["root"], root)


@pytest.mark.slow
@pytest.mark.parametrize("how", ["remove", "remove_last", "clear", "replace"])
def test_a_chain_that_left_a_squashed_scene_is_not_kept_alive(how):
    """Was: the resize memory held a removed chain (its arrays too) until the next resize."""
    scene = default_scene()
    scene.resize((120.0, 120.0))  # pushes every chain in: each one is remembered
    gone = scene.chains[-1]
    if how == "remove":
        scene.remove(gone)
    elif how == "remove_last":
        assert scene.remove_last() is gone
    elif how == "clear":
        scene.clear()
    else:
        scene.replace(gone, build.converted(gone, "ccd"))
    scene.step()  # regroup: the scene's own arrays let go of it
    ref = weakref.ref(gone)
    del gone
    gc.collect()
    assert ref() is None, "the removed chain is still referenced"


# --- picking ----------------------------------------------------------------------
@pytest.mark.slow
@given(
    st.lists(stage_points, min_size=1, max_size=6),
    stage_points,
    st.floats(1.0, 300.0),
)
@FEW
def test_target_at_picks_the_topmost_target_within_the_radius(targets, pos, radius):
    scene = Scene(STAGE)
    chains = []
    for i, t in enumerate(targets):
        c = scene.new_chain(IK_SOLVERS[i % 3], (490.0, 700.0))
        scene.move_target(c, t)
        chains.append(c)
    scene.new_chain("snake", pos)  # snakes have no target and are never picked by it
    within = [c for c in chains if math.dist(c.fields["target"], pos) <= radius]
    expected = within[-1] if within else None
    assert scene.target_at(pos, radius) is expected


def test_target_at_prefers_the_chain_added_last_when_targets_coincide():
    scene = Scene(STAGE)
    a = scene.new_chain("ccd", (200.0, 600.0))
    b = scene.new_chain("two-bone", (600.0, 600.0))
    scene.move_target(a, (400.0, 300.0))
    scene.move_target(b, (403.0, 300.0))
    assert scene.target_at((400.0, 300.0), 10.0) is b
    assert scene.target_at((397.0, 300.0), 4.0) is a
    assert scene.target_at((380.0, 300.0), 10.0) is None


@functools.cache
def stepped_default_scene():
    """The default scene after 30 steps (built once: picking does not change it)."""
    scene = default_scene()
    for _ in range(30):
        scene.step()
    return scene


@pytest.mark.slow
@given(st.data())
@FEW
def test_chain_at_finds_a_chain_by_a_point_on_one_of_its_bones(data):
    scene = stepped_default_scene()
    chain = data.draw(st.sampled_from(scene.chains))
    pts = chain.fields["points"]
    k = data.draw(st.integers(0, len(pts) - 2))
    t = data.draw(st.floats(0.0, 1.0))
    p = pts[k] + t * (pts[k + 1] - pts[k])
    found = scene.chain_at(p, 4.0)
    assert found is not None
    assert found[0] is chain  # default chains are far apart, so no other one is near
    if chain.is_snake:
        assert found[1] == "anchor"
    elif math.dist(p, chain.fields["root"]) > 6.0:
        assert found[1] == "bone"


def test_chain_at_reports_the_root_of_an_ik_chain_as_its_anchor():
    scene = default_scene()
    for c in scene.chains:
        if not c.is_snake:
            assert scene.chain_at(c.fields["root"], 5.0) == (c, "anchor")


def test_chain_at_picks_the_topmost_chain_and_misses_empty_space():
    scene = Scene(STAGE)
    below = scene.new_chain("ccd", (500.0, 600.0))
    above = scene.new_chain("fabrik", (500.0, 600.0))  # the same pose, on top
    mid = (below.fields["points"][3] + below.fields["points"][4]) / 2
    assert scene.chain_at(mid, 3.0) == (above, "bone")
    scene.remove(above)
    assert scene.chain_at(mid, 3.0) == (below, "bone")
    assert scene.chain_at((50.0, 50.0), 10.0) is None
