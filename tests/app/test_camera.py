"""The camera's arithmetic: world and screen points, zoom about a point, pan, fit, edge markers."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ikplayground.app.camera import MAX_ZOOM, MIN_ZOOM, Camera, edge_marker

coords = st.floats(-5000, 5000)
points = st.tuples(coords, coords)
zooms = st.floats(MIN_ZOOM, MAX_ZOOM)


@given(points, zooms, points)
def test_screen_and_world_are_inverse(origin, zoom, p):
    cam = Camera(origin, zoom)
    np.testing.assert_allclose(cam.to_world(cam.to_screen(p)), p, atol=1e-6)


@given(points, zooms, st.tuples(st.floats(0, 980), st.floats(0, 720)), st.floats(0.2, 5))
def test_zooming_about_a_point_keeps_the_world_point_under_it(origin, zoom, mouse, factor):
    cam = Camera(origin, zoom)
    under = cam.to_world(mouse)
    cam.zoom_about(mouse, factor)
    np.testing.assert_allclose(cam.to_world(mouse), under, atol=1e-6)
    assert MIN_ZOOM <= cam.zoom <= MAX_ZOOM


def test_a_pan_moves_the_world_with_the_drag():
    cam = Camera((100.0, 50.0), 2.0)
    before = cam.to_screen((300.0, 300.0))
    cam.pan((40.0, -10.0))
    np.testing.assert_allclose(cam.to_screen((300.0, 300.0)), before + (40.0, -10.0))


@given(st.tuples(coords, coords, st.floats(1, 8000), st.floats(1, 8000)))
def test_fit_shows_the_whole_box_centred(box):
    cam = Camera()
    cam.fit(box, (980.0, 720.0))
    x, y, w, h = box
    corners = cam.to_screen([(x, y), (x + w, y + h)])
    assert (corners >= -1e-6).all() and (corners <= (980.0 + 1e-6, 720.0 + 1e-6)).all()
    np.testing.assert_allclose(corners.mean(axis=0), (490.0, 360.0), atol=1e-6)
    assert cam.zoom <= 1.0


def test_reset_is_home_and_a_bad_zoom_is_ignored():
    cam = Camera((5.0, 5.0), 3.0)
    cam.set_zoom(math.nan)
    cam.set_zoom(-1.0)
    assert cam.zoom == 3.0
    cam.reset()
    assert cam.home and cam.state() == {"origin": [0.0, 0.0], "zoom": 1.0}


@pytest.mark.parametrize(("point", "expected"), [((490.0, 360.0), None), ((2000.0, 360.0), (966.0, 360.0, 0.0)),
                                                 ((490.0, -500.0), (490.0, 14.0, -math.pi / 2))])
def test_an_edge_marker_sits_on_the_edge_toward_what_is_off_view(point, expected):
    got = edge_marker(point, (980.0, 720.0))
    assert got == expected if expected is None else got == pytest.approx(expected)
