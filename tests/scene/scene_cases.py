"""Shared checks and strategies for the scene tests.

The invariants here are the ones docs/design.md promises for every chain after a
step: finite numbers, bone lengths kept, joint limits and snake bends held.
Seed 004's constants are written out as numbers on purpose, so that a change
of the package's constants shows up as a failing test.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import strategies as st

from ikplayground.scene.step import rope_step
from ikplayground.solvers import along_path, chain_points_batch, skeleton_points

SOLVER_ORDER = ("two-bone", "ccd", "fabrik", "dls", "snake")
IK_SOLVERS = ("two-bone", "ccd", "fabrik", "dls")

# Seed 004 (the snake), in the seed's units.
SEED_ACCEL = 1.0  # px/step added per step while Up is held
SEED_MAX_SPEED = 10.0  # px/step
SEED_DECAY = 0.8  # speed factor per step without Up
SEED_TURN_DEG = 5.0  # degrees per step
SEED_SEGMENT = 40.0  # px
SEED_BEND_DEG = 30.0  # +- degrees at every inner node

LENGTH_RTOL = 1e-6
ANGLE_TOL = 1e-9


def wrap(a):
    """Angles (radians) wrapped to [-pi, pi), element-wise; for comparing differences."""
    return np.mod(np.asarray(a, dtype=float) + math.pi, 2 * math.pi) - math.pi


def segment_lengths(points) -> np.ndarray:
    return np.hypot(*np.diff(np.asarray(points), axis=0).T)


def snake_bends(points) -> np.ndarray:
    """Signed bend (radians) at each inner node: the angle from segment k-1 to segment k."""
    d = np.diff(np.asarray(points), axis=0)
    absolute = np.arctan2(d[:, 1], d[:, 0])
    return wrap(np.diff(absolute))


def all_numbers(chain) -> dict[str, np.ndarray]:
    """The chain's numbers; a pole of NaN is "no pole" (ik_options.py), so it counts only when it is set, and a
    rig's target's heading of NaN is "no heading"."""
    return {name: np.asarray(v) for name, v in chain.fields.items()
            if (name != "pole" or chain.pole is not None) and name != "headings"}


def assert_no_nan(chain) -> None:
    for name, arr in all_numbers(chain).items():
        assert not np.isnan(arr).any(), f"{chain.solver} chain {chain.id}: NaN in {name}: {arr}"


def assert_chain_ok(chain) -> None:
    """Every invariant of one chain (see the module docstring)."""
    f = chain.fields
    assert_no_nan(chain)
    pts = np.asarray(f["points"])
    assert np.isfinite(pts).all(), f"non-finite points: {pts}"
    if chain.is_walker:  # each leg: hip, knee[, ankle], foot, its bones as long as they are
        legs = pts.reshape(-1, np.asarray(f["lengths"]).shape[1] + 1, 2)
        lengths = np.asarray(f["lengths"])
        assert (lengths > 0).all() and legs.shape[0] == lengths.shape[0] == chain.bones
        assert 2 <= chain.bones <= 8
        bones = np.hypot(*np.diff(legs, axis=1).transpose(2, 0, 1))
        np.testing.assert_allclose(bones, lengths, rtol=LENGTH_RTOL, atol=1e-9, err_msg="walker: legs not kept")
        assert set(np.unique(f["state"]).tolist()) <= {0.0, 1.0}
        return
    if chain.is_rig:
        assert_rig_ok(chain)
        return
    if chain.is_path:  # its joints on its curve (its bones are chords of their arcs), its root on control point 0
        np.testing.assert_allclose(pts, along_path(f["control"], f["lengths"], start=float(f["start"][0])), atol=1e-6)
        np.testing.assert_array_equal(f["root"], f["control"][0])
        return
    lengths = np.asarray(f["lengths"])
    assert (lengths > 0).all(), f"lengths must be > 0: {lengths}"
    assert pts.shape == (lengths.shape[0] + 1, 2)
    np.testing.assert_allclose(segment_lengths(pts), lengths, rtol=LENGTH_RTOL, atol=0,
                               err_msg=f"{chain.solver}: bone lengths not kept")
    if chain.is_snake:
        lo, hi = f["bend_limits"]
        bends = snake_bends(pts)
        # how far each bend lies outside [lo, hi] round the circle: a bend of -pi is one of +pi (a snake folded
        # back on itself comes out either way, by the sign of a rounding zero; hypothesis found limits of
        # [180, 180] degrees and a bend of -180)
        outside = np.abs(wrap(bends - (lo + hi) / 2)) - (hi - lo) / 2
        assert np.all(outside <= ANGLE_TOL), f"snake bends {np.degrees(bends)} outside {np.degrees([lo, hi])} degrees"
        assert np.isfinite(f["heading"]).all() and np.isfinite(f["speed"]).all()
    elif chain.is_rope:  # joint 0 on its root (a root dragged since the last step: after the next, tried on a copy);
        assert np.isfinite(f["previous"]).all() and np.isfinite(f["target"]).all()  # its joints a step ago and
        if not np.array_equal(pts[0], f["root"]):  # its end's target finite
            after = {k: np.array(v, dtype=float)[None] for k, v in f.items()}
            rope_step.step_ropes(after)
            np.testing.assert_array_equal(after["points"][0, 0], f["root"])
            np.testing.assert_allclose(segment_lengths(after["points"][0]), lengths, rtol=LENGTH_RTOL, atol=0)
    else:
        for name in ("root", "target", "angles", "limits"):
            assert np.isfinite(f[name]).all(), f"non-finite {name}: {f[name]}"
        if f["jiggle"][0] < 1.0:  # jiggling: shown off its pose, joint 0 on the root, its last step's joints finite
            np.testing.assert_allclose(pts[0], f["root"], rtol=0, atol=1e-9)
            assert np.isfinite(f["previous"]).all()
        else:  # the points are the forward kinematics of root, angles and lengths
            fk = chain_points_batch(f["root"][None], f["angles"][None], f["lengths"][None])[0]
            np.testing.assert_allclose(pts, fk, rtol=0, atol=1e-6 * max(1.0, float(lengths.sum())),
                                       err_msg="points are not the forward kinematics of the angles")
        a = np.asarray(f["angles"])
        lo = f["limits"][:, 0]
        hi = f["limits"][:, 1]
        assert np.all(lo >= -math.pi) and np.all(hi <= math.pi) and np.all(lo <= hi)
        assert np.all(a >= -math.pi - ANGLE_TOL) and np.all(a <= math.pi + ANGLE_TOL), f"angles not wrapped: {a}"
        if chain.solver in ("ccd", "fabrik", "dls"):
            inside = (a >= lo - ANGLE_TOL) & (a <= hi + ANGLE_TOL)
            assert inside.all(), (
                f"{chain.solver}: angles {np.degrees(a)} outside limits {np.degrees(f['limits']).tolist()}")


def assert_rig_ok(chain) -> None:
    """A rig's invariants: its points the forward kinematics of its tree from the root (bones as long as they
    are), every angle inside its range, its targets and headings finite or none, its errors measured."""
    f = chain.fields
    parents = f["parents"].astype(int)
    lengths = np.asarray(f["lengths"])
    assert (lengths > 0).all() and parents[0] == -1 and all(0 <= p < i for i, p in enumerate(parents) if i)
    pts = np.asarray(f["points"])
    np.testing.assert_array_equal(pts[0], f["root"])
    np.testing.assert_allclose(pts[1:], skeleton_points(parents, f["root"], f["angles"], lengths), rtol=0,
                               atol=1e-6 * max(1.0, float(lengths.sum())), err_msg="rig: points are not its FK")
    np.testing.assert_allclose(np.hypot(*(pts[1:] - pts[parents + 1]).T), lengths, rtol=LENGTH_RTOL)
    lo, hi = f["limits"][:, 0], f["limits"][:, 1]
    a = np.asarray(f["angles"])
    assert np.all(lo >= -math.pi) and np.all(hi <= math.pi) and np.all(lo <= hi)
    assert np.all((a >= lo - ANGLE_TOL) & (a <= hi + ANGLE_TOL)), f"rig: angles {a} outside {f['limits']}"
    assert np.isfinite(f["targets"]).all() and not np.isinf(f["headings"]).any()
    ends = pts[f["target_bones"].astype(int) + 1]
    np.testing.assert_allclose(f["errors"], np.hypot(*(f["targets"] - ends).T), rtol=0, atol=1e-9)


def assert_scene_ok(scene) -> None:
    for c in scene.chains:
        assert_chain_ok(c)
    assert scene.selected is None or any(c is scene.selected for c in scene.chains)


def bounding_box(chain) -> tuple[np.ndarray, np.ndarray]:
    pts = np.asarray(chain.fields["points"])
    if not chain.is_snake:
        pts = np.vstack([pts, chain.fields["target"]])
    return pts.min(axis=0), pts.max(axis=0)


def boxes_intersect(a, b) -> bool:
    return bool(np.all(a[0] <= b[1]) and np.all(b[0] <= a[1]))


def total_reach(chain) -> float:
    return float(np.sum(chain.fields["lengths"]))


STAGE = (980.0, 720.0)
stage_points = st.tuples(st.floats(0, STAGE[0]), st.floats(0, STAGE[1]))
solvers = st.sampled_from(SOLVER_ORDER)
ik_solvers = st.sampled_from(IK_SOLVERS)
