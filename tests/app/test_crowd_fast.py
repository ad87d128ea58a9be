"""The compiled crowd drawing (numba) sets the very pixels the numpy path sets, and the numpy path stays the
fallback."""

from __future__ import annotations

import numpy as np
import pygame
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ikplayground.app.draw import crowd_fast
from ikplayground.app.draw.render import SceneRenderer
from ikplayground.scene.build.stress import stress_scene

W, H = 120, 90  # the stage of the made-up groups


class Member:
    def __init__(self, palette_index: int):
        self.palette_index = palette_index


class Group:
    """What the crowd layer reads of a group: its solver, arrays and members."""

    def __init__(self, solver: str, points: np.ndarray, colours):
        self.solver = solver
        n, k = points.shape[:2]
        bones = np.diff(points, axis=1)
        with np.errstate(invalid="ignore", over="ignore"):
            lengths = np.hypot(bones[..., 0], bones[..., 1])
        self.fields = {"points": points, "lengths": np.nan_to_num(lengths, posinf=1e6), "root": points[:, 0],
                       "target": points[:, -1] + 3.0}
        self.members = [Member(c) for c in colours]


def numpy_and_compiled(crowd, groups, size, kernels):
    return crowd.indices(groups, size), crowd.indices(groups, size, kernels)


special = st.sampled_from([np.nan, 0.0, -0.5, 0.5, W - 0.5, H - 0.5, -1e12, 1e12, 1e6, -3.0, W + 2.0])
coordinate = st.one_of(st.floats(-20.0, W + 20.0, allow_nan=False), special)
solver = st.sampled_from(["two-bone", "ccd", "snake"])


@st.composite
def groups(draw):
    out = []
    for _ in range(draw(st.integers(1, 3))):
        n, k = draw(st.integers(1, 4)), draw(st.integers(2, 5))
        flat = draw(st.lists(coordinate, min_size=n * k * 2, max_size=n * k * 2))
        pts = np.array(flat, float).reshape(n, k, 2)
        if draw(st.booleans()):  # short bones (the broadcast sampling), zero-length ones too
            step = np.array([draw(st.floats(-3.0, 3.0)), draw(st.sampled_from([0.0, 0.7, -2.5]))])
            pts = pts[:, :1] + step * np.arange(k)[None, :, None]
        colours = draw(st.lists(st.integers(0, 7), min_size=n, max_size=n))
        out.append(Group(draw(solver), pts, colours))
    return out


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(groups())
def test_the_compiled_crowd_sets_the_pixels_numpy_sets(kernels, crowd, gs):
    with np.errstate(all="ignore"):  # (the numpy path's own arithmetic on NaN and huge points)
        a, b = numpy_and_compiled(crowd, gs, (W, H), kernels)
    assert a.tolist() == b.tolist()


@pytest.mark.parametrize("count", [100, 1000, 10000])
def test_a_stress_crowd_has_the_same_pixels_either_way(kernels, crowd, count):
    scene = stress_scene(count, (500.0, 360.0))
    a, b = numpy_and_compiled(crowd, scene.groups, (500, 360), kernels)
    assert (a != 0).sum() > count * 10
    assert np.array_equal(a, b)


@pytest.mark.parametrize("count", [300, 3000])
def test_the_drawn_surface_is_the_same_either_way_sprites_and_clip_too(kernels, display, monkeypatch, count):
    scene = stress_scene(count, (300.0, 220.0))
    shown = []
    for compiled in (False, True):
        monkeypatch.setattr(crowd_fast, "kernels", lambda: kernels if compiled else None)
        surf = pygame.Surface((320, 240)).convert()
        surf.fill((22, 25, 32))
        surf.set_clip(pygame.Rect(7, 5, 290, 200))  # sprites cut at the clip's edges
        SceneRenderer()._crowd.draw(surf, scene.groups, (300, 220))
        shown.append(pygame.surfarray.array3d(surf))
    assert np.array_equal(*shown)
    assert np.all(shown[1][:7] == (22, 25, 32))  # nothing left of the clip


def test_without_the_kernels_the_numpy_path_draws(display, monkeypatch):
    monkeypatch.setenv("IKPLAYGROUND_JIT", "0")
    assert crowd_fast.kernels() is None
    scene = stress_scene(200, (300.0, 220.0))
    surf = pygame.Surface((300, 220)).convert()
    SceneRenderer()._crowd.draw(surf, scene.groups, (300, 220))
    assert pygame.surfarray.array3d(surf).any(axis=2).sum() > 2000


def test_a_surface_the_kernels_cannot_write_gets_the_numpy_path(display):
    assert crowd_fast.Canvas.fits(pygame.Surface((10, 10)).convert())
    assert not crowd_fast.Canvas.fits(pygame.Surface((10, 10), depth=24))
    assert not crowd_fast.Canvas.fits(pygame.Surface((10, 10), pygame.SRCALPHA))


centre = st.one_of(st.tuples(st.floats(-4.0, 14.0), st.floats(-4.0, 10.0)), st.just((np.nan, 2.0)))


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.lists(centre, min_size=1, max_size=8), st.sampled_from(["ANCHOR_EDGE", "ANCHOR_INSIDE", "TARGET_RING",
                                                                  "JOINT_CROSS"]), st.booleans())
def test_compiled_stamps_overlap_as_numpys_do(kernels, centres, shape, per_chain):
    """Shapes cut by the stage's edge are set before the whole ones, in both."""
    from ikplayground.app.draw import crowd_draw

    w, h = 10, 6
    at = np.array(centres, float)
    offsets = getattr(crowd_draw, shape)
    colours = np.arange(len(at))
    buf = np.zeros(w * h + 1, np.uint8)
    crowd_draw.stamp(buf, w, h, at, offsets, colours + 1 if per_chain else 9)
    out = np.zeros((h, w), np.uint8)
    kernels.stamp(out, at[:, None], colours, 1 if per_chain else 9, int(per_chain), offsets)
    assert buf[:-1].reshape(h, w).tolist() == out.tolist()
