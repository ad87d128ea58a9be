"""``look_at``: one bone of a chain or skeleton turned to point at a point, its children following
(docs/design.md, "The solver API"; Godot's SkeletonModification2DLookAt).

The bones' starts and ends are computed here independently (each bone's absolute angle by walking its
parents), so the aim, the untouched angles and the children's rigid swing are checked against a second
implementation.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from .solver_cases import PI, angle_gap

from ikplayground.solvers import look_at, wrap

FAST = settings(deadline=None, max_examples=150)


def reference_bones(parents, root, angles, lengths):
    """Each bone's (start (n, 2), end (n, 2), absolute angle (n,)), walking parents (independent code)."""
    n = len(parents)
    start, end, absolute = np.zeros((n, 2)), np.zeros((n, 2)), np.zeros(n)
    for i in range(n):
        p = parents[i]
        base = 0.0 if p < 0 else absolute[p]
        start[i] = root if p < 0 else end[p]
        absolute[i] = base + angles[i]
        end[i] = start[i] + lengths[i] * np.array([math.cos(absolute[i]), math.sin(absolute[i])])
    return start, end, absolute


def descendants(parents, bone) -> set:
    out = {bone}
    for i in range(bone + 1, len(parents)):
        if parents[i] in out:
            out.add(i)
    return out


@st.composite
def skeletons(draw):
    """A chain or a random tree, its pose, a bone, a point and maybe limits (on every bone)."""
    n = draw(st.integers(1, 9))
    tree = draw(st.booleans())
    parents = [-1] + [draw(st.integers(0, i - 1)) if tree else i - 1 for i in range(1, n)]
    root = np.array([draw(st.floats(-800.0, 800.0)), draw(st.floats(-800.0, 800.0))])
    angles = np.array([draw(st.floats(-PI, PI)) for _ in range(n)])
    lengths = np.array([draw(st.floats(1.0, 120.0)) for _ in range(n)])
    bone = draw(st.integers(0, n - 1))
    point = root + np.array([draw(st.floats(-900.0, 900.0)), draw(st.floats(-900.0, 900.0))])
    limits = None
    if draw(st.booleans()):
        rows = []
        for _ in range(n):
            a, b = draw(st.floats(-PI, PI)), draw(st.floats(-PI, PI))
            rows.append((min(a, b), max(a, b)))
        limits = np.array(rows)
    return dict(parents=parents if tree or draw(st.booleans()) else None, root=root, angles=angles,
                lengths=lengths, bone=bone, point=point, limits=limits)


def call(s):
    return look_at(s["root"], s["angles"], s["lengths"], s["bone"], s["point"], limits=s["limits"],
                   parents=s["parents"])


def parents_of(s):
    return s["parents"] if s["parents"] is not None else [-1] + list(range(len(s["angles"]) - 1))


@FAST
@given(skeletons())
def test_the_bone_points_at_the_point_and_nothing_else_turns(s):
    s["limits"] = None
    parents = parents_of(s)
    start, _, _ = reference_bones(parents, s["root"], s["angles"], s["lengths"])
    d = s["point"] - start[s["bone"]]
    assume(math.hypot(*d) > 1e-6)
    out = call(s)
    assert out.shape == s["angles"].shape and out.dtype == np.float64
    _, _, absolute = reference_bones(parents, s["root"], out, s["lengths"])
    assert angle_gap(absolute[s["bone"]], math.atan2(d[1], d[0])) <= 1e-9
    others = [i for i in range(len(out)) if i != s["bone"]]
    assert np.array_equal(out[others], s["angles"][others])  # bit for bit
    assert -PI < out[s["bone"]] <= PI


@FAST
@given(skeletons())
def test_the_children_swing_with_it_and_the_rest_stays(s):
    parents = parents_of(s)
    bone = s["bone"]
    start, end, _ = reference_bones(parents, s["root"], s["angles"], s["lengths"])
    out = call(s)
    nstart, nend, _ = reference_bones(parents, s["root"], out, s["lengths"])
    turn = out[bone] - s["angles"][bone]
    c, si = math.cos(turn), math.sin(turn)
    pivot = start[bone]
    moved = descendants(parents, bone)
    scale = 1.0 + float(np.abs(start).max()) + float(np.sum(s["lengths"]))
    for i in range(len(parents)):
        if i in moved:  # turned rigidly about the bone's start
            v = end[i] - pivot
            want = pivot + np.array([c * v[0] - si * v[1], si * v[0] + c * v[1]])
            assert np.abs(nend[i] - want).max() <= 1e-9 * scale
        else:
            assert np.abs(nend[i] - end[i]).max() <= 1e-9 * scale
            assert np.abs(nstart[i] - start[i]).max() <= 1e-9 * scale


@FAST
@given(skeletons())
def test_a_limit_holds_the_bone_on_the_bound_nearer_the_point(s):
    assume(s["limits"] is not None)
    parents = parents_of(s)
    bone = s["bone"]
    start, _, absolute = reference_bones(parents, s["root"], s["angles"], s["lengths"])
    d = s["point"] - start[bone]
    assume(math.hypot(*d) > 1e-6)
    out = call(s)
    lo, hi = s["limits"][bone]
    assert lo <= out[bone] <= hi
    base = absolute[bone] - s["angles"][bone]  # the parent's absolute direction
    wanted = math.remainder(math.atan2(d[1], d[0]) - base, 2 * PI)  # (base may be many turns: -9 rad and more)
    miss = angle_gap(out[bone], wanted)
    if any(lo - 1e-9 <= wanted + k * 2 * PI <= hi + 1e-9 for k in (-1, 0, 1)):
        assert miss <= 1e-9  # no limit stops it (to rounding): exact
    else:
        assert out[bone] in (lo, hi)
        assert miss <= min(angle_gap(lo, wanted), angle_gap(hi, wanted)) + 1e-12
    others = [i for i in range(len(out)) if i != bone]
    assert np.array_equal(out[others], s["angles"][others])


def test_a_chain_by_hand():
    # two bones of 10 px along +x; bone 1 starts at (10, 0) and looks at (10, 10): straight down (y down)
    out = look_at((0, 0), [0.0, 0.0], [10, 10], 1, (10, 10))
    assert out[0] == 0.0 and math.isclose(out[1], PI / 2)
    # bone 0 looks up and to the left: bone 1 keeps its angle relative to it
    out = look_at((0, 0), [0.0, 0.4], [10, 10], 0, (-5, -5))
    assert math.isclose(out[0], -3 * PI / 4) and out[1] == 0.4
    # a tree: bone 2 hangs off bone 0's end, as bone 1 does
    out = look_at((0, 0), [0.0, 0.5, -0.5], [10, 10, 10], 2, (10, -10), parents=[-1, 0, 0])
    assert out.tolist()[:2] == [0.0, 0.5] and math.isclose(out[2], -PI / 2)
    # limited to +-0.5 rad: held at -0.5, the bound nearer straight up
    out = look_at((0, 0), [0.0, 0.5, -0.2], [10, 10, 10], 2, (10, -10), parents=[-1, 0, 0],
                  limits=[[-PI, PI], [-1, 1], [-0.5, 0.5]])
    assert out[2] == -0.5


def test_huge_angles_aim_all_the_same():
    # 1e308 rad twice would overflow a running sum: the directions are those of the angles wrapped
    angles = np.array([1e308, 1e308, 0.5])
    out = look_at((0, 0), angles, [10, 10, 10], 2, (3, 4))
    wrapped = [wrap(v) for v in angles]  # (the library's own wrap: no direction is exact at 1e308 rad)
    start, _, absolute = reference_bones([-1, 0, 1], np.zeros(2), np.array(wrapped[:2] + [out[2]]), [10, 10, 10])
    assert np.isfinite(out).all() and out[:2].tolist() == [1e308, 1e308]
    assert angle_gap(absolute[2], math.atan2(4 - start[2][1], 3 - start[2][0])) <= 1e-9


def test_a_point_on_the_bones_start_changes_nothing():
    angles = np.array([0.2, 0.3])
    out = look_at((0, 0), angles, [10, 10], 1, (10 * math.cos(0.2), 10 * math.sin(0.2)))
    assert np.array_equal(out, angles) and out is not angles
    assert np.array_equal(look_at((5, 5), angles, [10, 10], 0, (5, 5)), angles)


def test_the_arguments_are_left_as_they_were():
    angles, lengths, limits = np.array([0.1, 0.2, 0.3]), np.array([10.0, 20.0, 30.0]), np.full((3, 2), [-1.0, 1.0])
    keep = angles.copy(), lengths.copy(), limits.copy()
    look_at((0, 0), angles, lengths, 1, (50, 50), limits=limits, parents=[-1, 0, 0])
    for a, b in zip((angles, lengths, limits), keep):
        assert np.array_equal(a, b)


GOOD = dict(root=(0.0, 0.0), angles=[0.0, 0.0, 0.0], lengths=[10.0, 10.0, 10.0], bone=1, point=(5.0, 5.0))


@pytest.mark.parametrize("name, value", [
    ("root", (math.nan, 0.0)), ("root", (1.0,)), ("angles", [0.0, 0.0]), ("angles", [0.0, math.inf, 0.0]),
    ("angles", [True, 0.0, 0.0]), ("lengths", [10.0, 0.0, 10.0]), ("lengths", "abc"),
    ("bone", 3), ("bone", -1), ("bone", True), ("bone", 1.0), ("bone", "1"), ("bone", None),
    ("point", (5.0, math.nan)), ("point", (5.0, 5.0, 5.0)), ("point", "ab"),
    ("limits", [[-1.0, 1.0]] * 2), ("limits", [[1.0, -1.0]] * 3), ("limits", [[-4.0, 1.0]] * 3),
    ("parents", [-1, 0]), ("parents", [0, 0, 1]), ("parents", [-1, 2, 0]), ("parents", [-1, 0.5, 1]),
])
def test_bad_input_is_refused_by_name(name, value):
    args = dict(GOOD, **{name: value})
    kw = {k: args.pop(k) for k in ("limits", "parents") if k in args}
    with pytest.raises(ValueError, match=f"^{name}"):
        look_at(args["root"], args["angles"], args["lengths"], args["bone"], args["point"], **kw)


def test_a_count_that_disagrees_names_angles_or_lengths():
    with pytest.raises(ValueError, match="^(angles|lengths)"):
        look_at((0.0, 0.0), [0.0, 0.0, 0.0], [10.0, 10.0], 1, (5.0, 5.0))


def test_numpy_integers_and_keywords_are_taken():
    out = look_at(root=(0, 0), angles=[0.0, 0.0], lengths=[10, 10], bone=np.int64(1), point=(10, 10))
    assert math.isclose(out[1], PI / 2)
