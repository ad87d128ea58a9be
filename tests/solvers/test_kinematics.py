"""Properties of forward_kinematics (relative joint angles, y down)."""

from __future__ import annotations

import pytest

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from .solver_cases import PI, TAU, assert_lengths_kept, chains, coordinate_scale, reference_fk

from ikplayground.solvers import forward_kinematics

FAST = settings(deadline=None, max_examples=150)


@pytest.mark.slow
@FAST
@given(chains())
def test_matches_a_reference_implementation(chain):
    pts = forward_kinematics(chain.root, chain.angles, chain.lengths)
    assert pts.shape == (len(chain.lengths) + 1, 2)
    np.testing.assert_array_equal(pts[0], chain.root)
    scale = coordinate_scale(chain.root, chain.reach)
    np.testing.assert_allclose(pts, reference_fk(chain.root, chain.angles, chain.lengths), rtol=0, atol=1e-9 * scale)
    assert_lengths_kept(pts, chain.lengths)


@pytest.mark.slow
@FAST
@given(chains(), st.lists(st.integers(-3, 3), min_size=8, max_size=8))
def test_whole_turns_change_nothing(chain, turns):
    shifted = chain.angles + TAU * np.array(turns[: len(chain.angles)])
    scale = coordinate_scale(chain.root, chain.reach)
    np.testing.assert_allclose(
        forward_kinematics(chain.root, shifted, chain.lengths),
        forward_kinematics(chain.root, chain.angles, chain.lengths),
        rtol=0,
        atol=1e-9 * scale,
    )


def test_positive_angles_turn_clockwise_on_screen():
    # y grows downward: +90 degrees from +x points down the screen (+y).
    pts = forward_kinematics((10.0, 10.0), [0.0, PI / 2], [10.0, 5.0])
    np.testing.assert_allclose(pts, [[10.0, 10.0], [20.0, 10.0], [20.0, 15.0]], atol=1e-12)
    # angles are relative: the second bone's absolute angle is the sum
    pts = forward_kinematics((0.0, 0.0), [PI / 2, -PI / 2], [3.0, 4.0])
    np.testing.assert_allclose(pts[-1], [4.0, 3.0], atol=1e-12)
    assert math.hypot(*pts[-1]) == 5.0


def test_inputs_are_not_mutated():
    root, angles, lengths = np.array([1.0, 2.0]), np.array([0.5, 7.0]), np.array([3.0, 4.0])
    copies = root.copy(), angles.copy(), lengths.copy()
    out = forward_kinematics(root, angles, lengths)
    for a, b in zip((root, angles, lengths), copies):
        np.testing.assert_array_equal(a, b)
    assert not np.shares_memory(out, root)
