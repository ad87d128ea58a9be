"""Skeletons as trees: ``skeleton_points`` is forward kinematics bone by bone, a chain is one branch, and
bad trees are refused naming ``parents``."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ikplayground.solvers import forward_kinematics, skeleton_points
from ikplayground.solvers.skeleton_tree import chain_parents

from .solver_cases import chains

FAST = settings(deadline=None, max_examples=100)


@st.composite
def trees(draw, min_bones=1, max_bones=20):
    """(parents, root, angles, lengths) of a random tree, parents before children."""
    n = draw(st.integers(min_bones, max_bones))
    parents = [-1] + [draw(st.integers(0, i - 1)) for i in range(1, n)]
    root = draw(st.tuples(st.floats(-500, 500), st.floats(-500, 500)))
    angles = draw(st.lists(st.floats(-math.pi, math.pi), min_size=n, max_size=n))
    lengths = draw(st.lists(st.floats(1, 100), min_size=n, max_size=n))
    return parents, root, angles, lengths


@FAST
@given(chains())
def test_a_chain_is_a_skeleton_of_one_branch(chain):
    n = len(chain.lengths)
    tree = skeleton_points(chain_parents(n), chain.root, chain.angles, chain.lengths)
    np.testing.assert_allclose(tree, forward_kinematics(chain.root, chain.angles, chain.lengths)[1:],
                               rtol=0, atol=1e-9 * (1 + np.abs(chain.root).max() + sum(chain.lengths)))


@FAST
@given(trees())
def test_each_bone_starts_at_its_parents_end_and_keeps_its_length(tree):
    parents, root, angles, lengths = tree
    ends = skeleton_points(parents, root, angles, lengths)
    starts = np.array([root if p < 0 else ends[p] for p in parents])
    np.testing.assert_allclose(np.hypot(*(ends - starts).T), lengths, rtol=1e-9)
    heading = []
    for i, p in enumerate(parents):  # each bone's absolute direction: its angle plus its parent's
        heading.append(angles[i] + (heading[p] if p >= 0 else 0.0))
        d = ends[i] - starts[i]
        assert abs(math.remainder(math.atan2(d[1], d[0]) - heading[i], math.tau)) < 1e-7


def test_two_branches_from_one_bone_y_down():
    ends = skeleton_points([-1, 0, 0], (0, 0), [0.0, math.pi / 2, -math.pi / 2], [10, 5, 5])
    np.testing.assert_allclose(ends, [[10, 0], [10, 5], [10, -5]], atol=1e-12)  # +pi/2 turns toward +y: down


@pytest.mark.parametrize("parents, words", [
    ([0, 0], "bone 0 must have parent -1"),
    ([-1, 1], "bone 1's parent must be a bone before it"),
    ([-1, 0, 3], "bone 2's parent must be a bone before it"),
    ([], "at least one bone"),
    ("ab", "string"),
    ([-1, 0.5], "whole numbers"),
    ([[-1, 0]], "whole numbers"),
])
def test_bad_parents_are_refused_naming_them(parents, words):
    with pytest.raises(ValueError, match="^parents: ") as info:
        skeleton_points(parents, (0, 0), [0.0] * max(1, len(parents)), [1.0] * max(1, len(parents)))
    assert words in str(info.value)


def test_wrong_counts_name_the_argument():
    with pytest.raises(ValueError, match="^lengths: expected 2"):
        skeleton_points([-1, 0], (0, 0), [0, 0], [1, 1, 1])
    with pytest.raises(ValueError, match="^angles: expected 2"):
        skeleton_points([-1, 0], (0, 0), [0], [1, 1])
    with pytest.raises(ValueError, match="^angles: "):
        skeleton_points([-1, 0], (0, 0), [0, float("nan")], [1, 1])
