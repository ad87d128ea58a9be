"""A dashed line's dashes, worked on plain floats, are the ones worked on numpy arrays (the same sums)."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ikplayground.app.draw.shapes import DASH, dashes


def dashes_on_arrays(points: np.ndarray) -> list[tuple[list, list]]:
    """The dashes walked with numpy's arithmetic on each segment (what ``dashes`` must give, float for float)."""
    out = []
    on, left = True, float(DASH)
    for a, b in zip(points[:-1], points[1:]):
        seg = b - a
        length = float(math.hypot(*seg))
        if length == 0.0:
            continue
        u = seg / length
        pos = 0.0
        while pos < length:
            run = min(left, length - pos)
            if on:
                out.append(((a + u * pos).tolist(), (a + u * (pos + run)).tolist()))
            pos += run
            left -= run
            if left <= 1e-9:
                on, left = not on, float(DASH)
    return out


coordinate = st.floats(-2000.0, 2000.0) | st.sampled_from([0.0, 0.5, 100.0])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(coordinate, coordinate), min_size=0, max_size=6))
def test_dashes_equal_the_numpy_walk(points):
    pts = np.array(points, dtype=float).reshape(-1, 2)
    assert dashes(pts) == dashes_on_arrays(pts)


def test_a_line_of_three_dashes_and_a_half():
    got = dashes(np.array([[0.0, 0.0], [3.5 * 2 * DASH, 0.0]]))
    assert len(got) == 4
    assert got[0] == ([0.0, 0.0], [float(DASH), 0.0])
