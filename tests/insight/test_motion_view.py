"""The Math page's view of ropes, path chains and appendages (:mod:`ikplayground.insight.motion_view`)."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ikplayground.insight.chain_view import math_overlay
from ikplayground.insight.jiggle_view import ARROW_STEPS
from ikplayground.insight.motion_view import (StepMemory, appendage_rest, appendage_view, catenary_points,
                                              motion_words, path_view, rope_rest, rope_view)
from ikplayground.insight.primitives import Label, Polyline
from ikplayground.insight.rig_view import rig_overlay
from ikplayground.scene import quadruped_rig
from ikplayground.scene.build import path_build, rope_build
from ikplayground.scene.build.walker_build import make_walker
from ikplayground.scene.core.scene import Scene
from ikplayground.scene.step.appendages import rest_pose


def arrows(prims) -> list:
    """The velocity arrows' shafts (a shaft: two points; an arrowhead: three)."""
    return [p.points for p in prims if isinstance(p, Polyline) and p.role == "velocity" and len(p.points) == 2]


def ghosts(prims) -> list:
    return [p.points for p in prims if isinstance(p, Polyline) and p.role == "ghost"]


@settings(max_examples=150, deadline=None)
@given(st.floats(-300.0, 300.0), st.floats(-300.0, 300.0), st.integers(2, 14), st.floats(1.0, 3.0),
       st.sampled_from([1.0, -1.0]))
def test_a_catenary_runs_from_end_to_end_its_joints_a_bone_apart_along_it_sagging_below_both(dx, dy, n, slack,
                                                                                             down):
    a = np.array((40.0, 60.0))
    b = a + (dx, dy)
    span = math.hypot(dx, dy)
    lengths = np.full(n, max(span * slack, 1.0) / n)
    pts = catenary_points(a, b, lengths, down)
    np.testing.assert_allclose(pts[0], a, atol=1e-9)
    chords = np.hypot(*np.diff(pts, axis=0).T)
    assert np.all(chords <= lengths + 1e-6)  # a chord is never longer than its arc
    if lengths.sum() > span + 1e-3:
        np.testing.assert_allclose(pts[-1], b, atol=1e-6 * max(1.0, lengths.sum()))
        # the rope sags: no joint above (against ``down``) the line between the ends (ends one over the other: the
        # higher of them)
        if abs(dx) > 1e-6:
            line_y = a[1] + np.clip((pts[:, 0] - a[0]) / dx, 0.0, 1.0) * dy
        else:
            line_y = np.full(len(pts), a[1] if down * a[1] < down * b[1] else b[1])
        assert np.all(down * (pts[:, 1] - line_y) >= -1e-6 * max(1.0, lengths.sum()))


def test_a_taut_rope_rests_on_the_line_between_its_ends():
    pts = catenary_points((0.0, 0.0), (100.0, 0.0), np.full(4, 20.0))
    np.testing.assert_allclose(pts, [[0, 0], [20, 0], [40, 0], [60, 0], [80, 0]], atol=1e-9)


def test_a_level_catenary_is_symmetric_its_lowest_joint_in_the_middle():
    pts = catenary_points((0.0, 0.0), (100.0, 0.0), np.full(6, 30.0))
    np.testing.assert_allclose(pts[::-1, 0], 100.0 - pts[:, 0], atol=1e-9)
    np.testing.assert_allclose(pts[::-1, 1], pts[:, 1], atol=1e-9)
    assert int(np.argmax(pts[:, 1])) == 3 and pts[3, 1] > 50.0


def test_a_rope_tied_at_both_ends_shows_its_catenary_as_a_dashed_ghost_labelled():
    rope = rope_build.make_rope((200.0, 100.0), np.full(12, 20.0), pin_end=True, target=(380.0, 140.0))
    rest, words = rope_rest(rope)
    assert "catenary" in words
    np.testing.assert_allclose(rest, catenary_points((200.0, 100.0), (380.0, 140.0), np.full(12, 20.0)))
    prims = rope_view(rope)
    (ghost,) = [p for p in prims if isinstance(p, Polyline) and p.role == "ghost"]
    assert ghost.dashed and np.array_equal(ghost.points, rest)
    (label,) = [p for p in prims if isinstance(p, Label)]
    assert label.text == words and label.pos[1] > rest[:, 1].max()  # under the lowest joint


def test_a_free_rope_rests_straight_along_its_gravity_and_has_no_rest_shape_without_it():
    rope = rope_build.make_rope((200.0, 100.0), np.full(5, 10.0), gravity=900.0)
    rest, words = rope_rest(rope)
    np.testing.assert_allclose(rest, [[200, 100 + 10 * i] for i in range(6)])
    assert words.endswith("down")
    rope.fields["gravity"][0] = -50.0
    rest, words = rope_rest(rope)
    np.testing.assert_allclose(rest, [[200, 100 - 10 * i] for i in range(6)])
    assert words.endswith("up")
    rope.fields["gravity"][0] = 0.0
    rest, words = rope_rest(rope)
    assert rest is None and "no gravity" in words
    prims = rope_view(rope)
    assert not ghosts(prims) and [p.text for p in prims if isinstance(p, Label)] == [words]


def test_a_swinging_ropes_arrows_are_its_joints_velocities():
    rope = rope_build.make_rope((200.0, 100.0), np.full(5, 10.0), gravity=900.0)
    f = rope.fields
    f["previous"][:] = f["points"] - (3.0, 0.0)  # every joint moving 3 px a step to the right
    f["previous"][0] = f["points"][0]  # (the root held)
    shafts = arrows(rope_view(rope))
    assert len(shafts) == 5
    for shaft, joint in zip(shafts, f["points"][1:]):
        np.testing.assert_allclose(shaft, [joint, joint + (3.0 * ARROW_STEPS, 0.0)])
    assert "3.0 px/step" in [p.text for p in rope_view(rope) if isinstance(p, Label)]
    assert arrows(math_overlay(rope)) and len(arrows(math_overlay(rope))) == 5


def test_a_path_chains_arrows_are_what_one_step_moved_its_joints():
    scene = Scene((800.0, 600.0))
    path = scene.add(path_build.new_path((100.0, 300.0), slide=60.0))
    memory = StepMemory()
    assert path_view(path, memory.previous(path)) == []
    scene.step()
    memory.record(path)
    assert memory.previous(path) is None  # one step: nothing to compare with yet
    before = path.fields["points"].copy()
    scene.step()
    memory.record(path)
    np.testing.assert_array_equal(memory.previous(path), before)
    shafts = arrows(math_overlay(path, memory.previous(path)))
    moved = path.fields["points"] - before
    assert len(shafts) == len(before) and np.hypot(*moved.T).min() > 0.5  # (60 px/s: 1 px a step)
    for shaft, joint, d in zip(shafts, path.fields["points"], moved):
        np.testing.assert_allclose(shaft, [joint, joint + ARROW_STEPS * d])
    other = scene.add(path_build.new_path((100.0, 100.0)))
    assert memory.previous(other) is None
    path.fields["points"][2] += 5.0  # moved since the last step (an edit while paused): no arrows
    assert memory.previous(path) is None


def test_a_walkers_antennae_at_rest_lie_on_their_ghosts_and_move_with_arrows_when_it_jerks():
    scene = Scene((1000.0, 800.0))
    walker = scene.add(make_walker((500.0, 400.0)))
    f = walker.fields
    rest_pose({k: v[None] for k, v in f.items()})  # (its group's own arrays, through views)
    used = f["app_lengths"][:, 0] > 0.0
    rests = appendage_rest(f)
    assert len(rests) == int(used.sum()) >= 2
    for rest, pts, lengths in zip(rests, f["app_points"][used], f["app_lengths"][used]):
        k = int((lengths > 0).sum())
        np.testing.assert_allclose(rest, pts[:k + 1], atol=1e-9)
    prims = math_overlay(walker)
    assert len(ghosts(prims)) == len(rests) and not arrows(prims)
    f["app_previous"][used] = f["app_points"][used] + (0.0, 2.0)  # every joint moving 2 px a step up
    shafts = arrows(math_overlay(walker))
    assert len(shafts) == f["app_points"][used].shape[0] * f["app_points"].shape[1]
    assert all(np.allclose(s[1] - s[0], (0.0, -2.0 * ARROW_STEPS)) for s in shafts)
    f["app_on"][0] = 0.0
    assert appendage_view(walker) == [] and not ghosts(math_overlay(walker))


def test_a_rigs_tail_shows_on_its_math_view():
    rig = quadruped_rig((300.0, 300.0))
    f = rig.fields
    used = f["app_lengths"][:, 0] > 0.0
    assert used.any()
    dashed = [p for p in rig_overlay(rig) if isinstance(p, Polyline) and p.role == "ghost" and p.dashed]
    assert len(dashed) == int(used.sum())
    f["app_previous"][used] = f["app_points"][used] - (4.0, 0.0)
    assert len(arrows(rig_overlay(rig))) == f["app_points"][used].shape[0] * f["app_points"].shape[1]


def test_the_words_say_each_kinds_rule_and_settings():
    rope = rope_build.make_rope((0.0, 0.0), np.full(3, 10.0), gravity=700.0, damping=0.25, pin_end=True)
    words = motion_words(rope)
    assert "Verlet velocity" in words and "700 px/s²" in words and "0.25" in words and "both ends" in words
    path = path_build.new_path((0.0, 0.0), slide=-30.0)
    assert "-30 px/s" in motion_words(path)
    walker = make_walker((0.0, 0.0))
    walker.fields["app_stiffness"][0] = 0.4
    assert "Verlet" in motion_words(walker) and "0.40" in motion_words(walker)
    walker.fields["app_on"][0] = 0.0
    assert "off" in motion_words(walker)
