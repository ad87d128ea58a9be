"""Circle obstacles' geometry: checked rows, a bone's gap to a circle, a point pushed out of circles."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ikplayground.solvers.obstacles import bone_gap, is_clear, obstacle_rows, pushed_out, segment_gaps

coord = st.floats(-500, 500)
radius = st.floats(0.5, 200)


def brute_gap(a, b, c, r, samples=4001):
    """Distance from circle centre c to the segment a-b by dense sampling, minus r."""
    t = np.linspace(0.0, 1.0, samples)[:, None]
    pts = np.asarray(a) + t * (np.asarray(b) - np.asarray(a))
    return float(np.min(np.hypot(*(pts - c).T))) - r


@given(coord, coord, coord, coord, coord, coord, radius)
def test_a_bones_gap_is_its_distance_to_the_centre_less_the_radius(ax, ay, bx, by, cx, cy, r):
    step = math.hypot(bx - ax, by - ay) / 4000
    want = brute_gap((ax, ay), (bx, by), (cx, cy), r)
    got = bone_gap(ax, ay, bx, by, [(cx, cy, r)])
    assert want - step - 1e-9 <= got <= want + 1e-9
    arrays = segment_gaps(np.array([[ax, ay], [bx, by]]), np.array([[cx, cy, r]]))
    assert arrays.shape == (1, 1)
    assert arrays[0, 0] == pytest.approx(got, abs=1e-9)


def test_batched_gaps_are_row_by_row_the_single_ones():
    rng = np.random.default_rng(1)
    pts = rng.uniform(-100, 100, (7, 5, 2))
    obs = np.column_stack([rng.uniform(-100, 100, (3, 2)), rng.uniform(1, 30, 3)])
    gaps = segment_gaps(pts, obs)
    assert gaps.shape == (7, 4, 3)
    for row in range(7):
        for i in range(4):
            for j in range(3):
                assert gaps[row, i, j] == pytest.approx(bone_gap(*pts[row, i], *pts[row, i + 1], [tuple(obs[j])]))
    assert list(is_clear(pts, obs)) == [bool(np.all(g >= -1e-9)) for g in gaps]


def test_a_bone_through_a_circle_is_not_clear_and_one_beside_it_is():
    obs = np.array([[50.0, 0.0, 10.0]])
    assert not is_clear(np.array([[0.0, 0.0], [100.0, 0.0]]), obs)
    assert is_clear(np.array([[0.0, 10.0], [100.0, 10.0]]), obs)  # touching counts as clear
    assert is_clear(np.array([[0.0, 0.0], [100.0, 0.0]]), obstacle_rows(None))


@given(coord, coord, st.lists(st.tuples(coord, coord, radius), min_size=1, max_size=1))
def test_a_point_pushed_out_of_one_circle_lands_on_its_edge(x, y, circles):
    (cx, cy, r), = circles
    px, py = pushed_out(x, y, circles)
    d = math.hypot(px - cx, py - cy)
    assert d >= r - 1e-9
    if math.hypot(x - cx, y - cy) >= r:
        assert (px, py) == (x, y)


@pytest.mark.parametrize("bad, words", [
    ([[0, 0]], "shape (k, 3)"), ([[0, 0, 0]], "obstacles[0]: the radius must be > 0"),
    ([[0, 0, 1], [0, 0, -2]], "obstacles[1]"), ([[0, math.nan, 1]], "finite"), ("abc", "real numbers"),
    ([[0, 0, 1e301]], "obstacles[0]: must lie within"),
])
def test_bad_rows_are_refused_naming_the_argument(bad, words):
    with pytest.raises(ValueError, match=r"^obstacles") as err:
        obstacle_rows(bad)
    assert words in str(err.value)


def test_none_and_empty_are_no_obstacles():
    assert obstacle_rows(None).shape == (0, 3)
    assert obstacle_rows([]).shape == (0, 3)
    assert obstacle_rows([[1, 2, 3]]).tolist() == [[1.0, 2.0, 3.0]]
