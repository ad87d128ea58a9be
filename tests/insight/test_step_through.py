"""The step-through session: a scene chain stepped one CCD turn or FABRIK half-pass at a time.

Stepped to the end it must rest exactly where solve_ccd / solve_fabrik put it
from the same start; each key's worth of records, the texts for the status
line and the overlay's primitives are checked on chains alone and inside a
scene (where the chain's fields are views into its group's arrays).
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from ikplayground.insight.primitives import ROLES, Circle, Label, Polyline
from ikplayground.insight.step_through import StepThrough
from ikplayground.scene.build.build import make_ik_chain
from ikplayground.scene.core.chain import STATUSES, is_reached
from ikplayground.scene.core.scene import Scene
from ikplayground.solvers import solve_ccd, solve_fabrik

SOLVE = {"ccd": solve_ccd, "fabrik": solve_fabrik}
both = pytest.mark.parametrize("solver", ["ccd", "fabrik"])


def fk(root, angles, lengths):
    """Joint positions (n + 1, 2) by cumulative sums (independent of the library)."""
    absolute = np.cumsum(angles)
    steps = np.stack([lengths * np.cos(absolute), lengths * np.sin(absolute)], axis=1)
    return np.vstack([root, root + np.cumsum(steps, axis=0)])


def seeded_chain(solver, seed, *, free=False, reachable=True, iterations=10, tolerance=0.5):
    """A chain of 2..8 bones at a random pose; joints 1.. limited to +-45 degrees unless ``free``."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 9))
    lengths = rng.uniform(20.0, 60.0, n)
    root = rng.uniform(300.0, 600.0, 2)
    angles = rng.uniform(-0.7, 0.7, n)
    a = rng.uniform(-math.pi, math.pi)
    dist = lengths.sum() * (rng.uniform(0.3, 0.9) if reachable else 1.5)
    target = root + dist * np.array((math.cos(a), math.sin(a)))
    limits = np.tile([-math.pi, math.pi], (n, 1)) if free else None
    return make_ik_chain(solver, root, angles, lengths, target, limits=limits, iterations=iterations,
                         tolerance=tolerance, rate_limit=None)


def expected(chain):
    """What the chain's solver answers from the chain's shown pose (limits None when none clamps)."""
    f = chain.fields
    limits = f["limits"]
    clamped = (limits[:, 1] - limits[:, 0]) < 2 * math.pi - 1e-9
    return SOLVE[chain.solver](f["root"].copy(), f["angles"].copy(), f["lengths"].copy(), f["target"].copy(),
                               iterations=chain.iterations, tolerance=chain.tolerance,
                               limits=limits.copy() if clamped.any() else None)


def in_scene(chain):
    """The chain inside a scene beside another of its kind, grouped (its fields now group views)."""
    scene = Scene()
    scene.add(chain)
    other = make_ik_chain(chain.solver, (100.0, 100.0), np.zeros(chain.bones), np.full(chain.bones, 30.0),
                          (150.0, 150.0), rate_limit=None)
    scene.add(other)
    group = scene.groups[0]
    assert chain.fields["angles"].base is group.fields["angles"]
    return scene, group, other


def assert_chain_shows(chain, angles):
    f = chain.fields
    assert np.array_equal(f["angles"], angles) and np.array_equal(f["goal"], angles)
    np.testing.assert_allclose(f["points"], fk(f["root"], angles, f["lengths"]), rtol=0, atol=1e-9)
    assert f["error"][0] == pytest.approx(math.dist(f["points"][-1], f["target"]), abs=1e-12)
    assert f["reached"][0] == float(is_reached(f["error"][0], chain.tolerance))


# ----------------------------------------------------------------------------
# To the end: the solver's answer, exactly
# ----------------------------------------------------------------------------


@both
@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("free", [False, True])
def test_finish_leaves_the_solvers_answer(solver, seed, free):
    chain = seeded_chain(solver, seed, free=free, reachable=seed % 3 != 2, iterations=[1, 10, 100][seed % 3])
    want = expected(chain)
    angles_array = chain.fields["angles"]
    session = StepThrough(chain)
    taken = session.finish()
    assert session.done and taken == session.records
    assert np.array_equal(session.solution.angles, want.angles)
    assert session.solution.status == want.status and session.solution.error == want.error
    assert chain.fields["angles"] is angles_array  # written in place
    assert_chain_shows(chain, want.angles)
    assert session.step() is None and session.sweep() == [] and session.finish() == 0


@both
@pytest.mark.parametrize("seed", range(4))
def test_stepping_inside_a_scene_writes_the_group(solver, seed):
    chain = seeded_chain(solver, seed)
    scene, group, other = in_scene(chain)
    want = expected(chain)
    before_other = other.fields["angles"].copy()
    session = StepThrough(chain)
    records = []
    while (r := session.step()) is not None:
        records.append(r)
        if r.angles is not None and not session.done:
            assert_chain_shows(chain, r.angles)
    assert len(records) == session.records
    row = group.members.index(chain)
    assert np.array_equal(group.fields["angles"][row], want.angles)
    assert np.array_equal(group.fields["goal"][row], want.angles)
    assert np.array_equal(other.fields["angles"], before_other)
    assert_chain_shows(chain, want.angles)


def test_status_follows_the_solve():
    chain = seeded_chain("ccd", 1, reachable=False)
    session = StepThrough(chain)
    session.step()
    assert STATUSES[int(chain.fields["status"][0])] == "out of reach"
    reachable = seeded_chain("fabrik", 0, iterations=200)
    session = StepThrough(reachable)
    session.finish()
    assert session.solution.reached and STATUSES[int(reachable.fields["status"][0])] == "reached"


# ----------------------------------------------------------------------------
# The keys: one record, one sweep or pass
# ----------------------------------------------------------------------------


def test_ccd_sweep_takes_one_sweep():
    chain = seeded_chain("ccd", 4, tolerance=0.0)
    n = chain.bones
    session = StepThrough(chain)
    first = session.sweep()
    assert [r.joint for r in first] == list(range(n - 1, -1, -1)) and {r.sweep for r in first} == {1}
    assert_chain_shows(chain, first[-1].angles)
    one = session.step()
    assert (one.sweep, one.joint) == (2, n - 1)
    rest = session.sweep()  # finishes the sweep begun with "."
    assert len(rest) == n - 1 and {r.sweep for r in rest} == {2}
    assert session.records == 2 * n


def test_fabrik_sweep_takes_one_pass():
    chain = seeded_chain("fabrik", 2, tolerance=0.0)
    session = StepThrough(chain)
    taken = session.sweep()
    assert [(r.iteration, r.direction) for r in taken] == [(1, "forward"), (1, "backward")]
    assert_chain_shows(chain, taken[-1].angles)
    forward = session.step()
    assert (forward.iteration, forward.direction) == (2, "forward")
    assert np.array_equal(chain.fields["angles"], taken[-1].angles)  # a forward walk has no angles to show


def test_sweeps_to_the_end_are_the_records_to_the_end():
    chain = seeded_chain("ccd", 5, iterations=30, tolerance=0.0)
    by_step = StepThrough(seeded_chain("ccd", 5, iterations=30, tolerance=0.0))
    by_step.finish()
    session = StepThrough(chain)
    count = 0
    while batch := session.sweep():
        count += len(batch)
        assert len({r.sweep for r in batch}) == 1
    assert count == by_step.records and np.array_equal(chain.fields["angles"], by_step.solution.angles)


# ----------------------------------------------------------------------------
# Same problem?
# ----------------------------------------------------------------------------


@both
def test_matches_until_the_problem_changes(solver):
    chain = seeded_chain(solver, 3)
    scene = Scene()
    scene.add(chain)
    session = StepThrough(chain)
    session.step()
    assert session.matches(chain)
    scene.add(make_ik_chain(solver, (50, 50), np.zeros(chain.bones), np.full(chain.bones, 20.0), (60, 60)))
    scene.groups  # regrouped: new views, same problem
    assert session.matches(chain)
    assert not session.matches(seeded_chain(solver, 3))  # an equal chain is another chain
    scene.move_target(chain, chain.fields["target"] + (5.0, 0.0))
    assert not session.matches(chain)
    for change in (lambda c: setattr(c, "iterations", c.iterations + 1),
                   lambda c: setattr(c, "tolerance", c.tolerance + 0.1),
                   lambda c: c.set_joint_limit(30.0),
                   lambda c: c.fields["root"].__iadd__(1.0)):
        other = seeded_chain(solver, 3)
        s = StepThrough(other)
        change(other)
        assert not s.matches(other)


def test_only_ccd_and_fabrik():
    arm = make_ik_chain("two-bone", (0, 0), [0.0, 0.0], [50, 50], (60, 20))
    with pytest.raises(ValueError, match="solver"):
        StepThrough(arm)


# ----------------------------------------------------------------------------
# The status line
# ----------------------------------------------------------------------------


def test_ccd_texts():
    chain = seeded_chain("ccd", 0, iterations=200)
    n = chain.bones
    session = StepThrough(chain)
    assert session.describe() == "CCD ready: press . for one joint, , for a sweep, / for the rest"
    r = session.step()
    assert session.describe() == f"CCD sweep 1, joint {n} of {n}: turned {math.degrees(r.turn):.1f}°"
    session.step()
    assert session.describe().startswith(f"CCD sweep 1, joint {n - 1} of {n}: turned ")
    session.finish()
    s = session.solution
    assert s.status == "reached"
    unit = "sweep" if s.iterations == 1 else "sweeps"
    assert session.describe() == f"CCD done: reached in {s.iterations} {unit}, error {s.error:.2f} px"


def test_a_stalled_ccd_says_so():
    # a straight two-bone chain whose elbow cannot bend, aimed at a point it cannot touch
    chain = make_ik_chain("ccd", (0, 0), [0.0, 0.0], [50, 50], (30, 40), limits=[(-math.pi, math.pi), (0, 0)],
                          iterations=100, tolerance=0.5, rate_limit=None)
    session = StepThrough(chain)
    session.finish()
    assert session.solution.status == "stalled"
    assert re.fullmatch(r"CCD done: stalled after 16 sweeps, error 50\.00 px", session.describe())
    assert STATUSES[int(chain.fields["status"][0])] == "stalled"


def test_fabrik_texts():
    chain = seeded_chain("fabrik", 1, tolerance=0.0)
    session = StepThrough(chain)
    assert session.describe() == "FABRIK ready: press . for one half-pass, , for a pass, / for the rest"
    session.step()
    assert session.describe() == "FABRIK pass 1, forward (tip first)"
    session.step()
    assert session.describe() == "FABRIK pass 1, backward (root first)"
    far = StepThrough(seeded_chain("fabrik", 1, reachable=False))
    far.step()
    assert far.describe() == "FABRIK pass 1, straight toward the target out of reach"
    far.finish()
    assert re.fullmatch(r"FABRIK done: out of reach, stopped after 1 pass, error \d+\.\d\d px", far.describe())


# ----------------------------------------------------------------------------
# The overlay
# ----------------------------------------------------------------------------


def roles(prims):
    return {p.role for p in prims}


def test_ccd_overlay():
    chain = seeded_chain("ccd", 0, tolerance=0.0)
    session = StepThrough(chain)
    assert session.overlay() == []
    r = session.step()
    prims = session.overlay()
    assert {"step", "step_target", "angle"} <= roles(prims) and roles(prims) <= set(ROLES)
    lines = [p for p in prims if isinstance(p, Polyline)]
    assert any(np.allclose(p.points, [r.pivot, r.effector_before]) and p.role == "step" for p in lines)
    assert any(np.allclose(p.points, [r.pivot, chain.fields["target"]]) and p.role == "step_target" for p in lines)
    arc = next(p for p in lines if p.role == "angle")
    radii = np.hypot(*(arc.points - r.pivot).T)
    assert np.allclose(radii, radii[0])
    swept = [math.atan2(*(q - r.pivot)[::-1]) for q in arc.points[[0, -1]]]
    assert abs(math.remainder(swept[1] - swept[0] - r.turn, 2 * math.pi)) < 1e-9
    label = next(p for p in prims if isinstance(p, Label) and p.role == "angle")
    assert label.text == f"{math.degrees(r.turn):+.1f}°"
    assert not [p for p in prims if p.role == "step_ghost"]


@both
def test_ghosts_fade_and_are_the_earlier_chains(solver):
    chain = seeded_chain(solver, 6, tolerance=0.0, iterations=50)
    session = StepThrough(chain)
    taken = [session.step() for _ in range(9)]
    ghosts = [p for p in session.overlay() if p.role == "step_ghost"]
    assert len(ghosts) == 6
    fades = [g.fade for g in ghosts]
    assert fades[0] == pytest.approx(0.6) and fades[1] == pytest.approx(0.45)
    assert all(a > b > 0 for a, b in zip(fades, fades[1:]))
    for ghost, record in zip(ghosts, taken[-2::-1]):  # newest first
        if solver == "ccd":
            want = fk(chain.fields["root"], record.angles, chain.fields["lengths"])
        else:
            want = record.points
        np.testing.assert_allclose(ghost.points, want, rtol=0, atol=1e-9)


def test_fabrik_overlay():
    chain = seeded_chain("fabrik", 3, tolerance=0.0)
    start = chain.fields["points"].copy()
    session = StepThrough(chain)
    forward = session.step()
    prims = session.overlay()
    chain_line = next(p for p in prims if isinstance(p, Polyline) and p.role == "step")
    assert np.array_equal(chain_line.points, forward.points)
    circles = [p for p in prims if isinstance(p, Circle)]
    moved = forward.points[np.any(np.abs(forward.points - start) > 1e-9, axis=1)]
    assert len(circles) == len(moved) > 0
    label = next(p for p in prims if isinstance(p, Label))
    middle = forward.points[len(forward.points) // 2]
    assert label.text == "forward: tip first" and math.dist(label.pos, middle) < 40
    backward = session.step()
    label = next(p for p in session.overlay() if isinstance(p, Label))
    middle = backward.points[len(backward.points) // 2]
    assert label.text == "backward: root first" and math.dist(label.pos, middle) < 40
    circles = [p for p in session.overlay() if isinstance(p, Circle)]
    moved = backward.points[np.any(backward.points != forward.points, axis=1)]
    assert len(circles) == len(moved) and np.array_equal(np.array([c.centre for c in circles]), moved)
