"""A crowd's walkers keep their antennae: thin strokes in their walker's colour, the same pixels by numpy and by
the compiled kernels, none with "Appendages" off."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ikplayground.app.draw.crowd_parts import appendage_strokes
from ikplayground.scene.build.walker_build import make_walker
from ikplayground.scene.core.scene import Scene
from ikplayground.scene.build.stress import stress_scene
from tests.app.test_crowd_fast import Group, Member, groups

W, H = 120, 90  # the stage of the made-up groups


def walkers(count: int, size=(900.0, 700.0), gap: float = 100.0) -> Scene:
    """``count`` walkers in rows ``gap`` px apart, a few steps on (their antennae swinging)."""
    scene = Scene(size)
    per_row = max(1, int((size[0] - 60.0) // gap))
    for i in range(count):
        at = (60.0 + (i % per_row) * gap, 100.0 + (i // per_row) * gap)
        scene.add(make_walker(at, palette_index=i % 8), select=False)
    for _ in range(4):
        scene.step()
    return scene


@pytest.fixture(scope="module")
def spiders():
    return walkers(50)


def tips(scene) -> list[tuple[np.ndarray, int]]:
    """Each antenna's tip (px) and its walker's palette index, over every walker group."""
    out = []
    for g in scene.groups:
        f = g.fields
        for m, pts, lengths in zip(g.members, f["app_points"], f["app_lengths"]):
            for p, b in zip(pts, lengths):
                k = int((b > 0).sum())
                if k:
                    out.append((p[k], m.palette_index))
    return out


def test_a_crowds_walkers_have_their_antennae_in_their_colour_and_none_with_appendages_off(crowd, spiders):
    index = crowd.indices(spiders.groups, (900, 700))
    ends = tips(spiders)
    assert len(ends) == 2 * len(spiders.chains)
    colours = crowd.colours(spiders.groups[0])
    for (tip, _), c in zip(ends, np.repeat(colours, 2)):
        x, y = np.floor(tip + 0.5).astype(int)
        assert index[y, x] == c + 1  # the tip, in its walker's palette colour
    lengths = spiders.groups[0].fields["app_lengths"][:, :, 0].sum()
    assert (index != 0).sum() > 0.8 * 3 * lengths  # 3 px strokes along them
    f = spiders.groups[0].fields
    f["app_on"][:] = 0.0
    try:
        assert appendage_strokes(spiders.groups, crowd.colours) == []
        assert not crowd.indices(spiders.groups, (900, 700)).any()
    finally:
        f["app_on"][:] = 1.0
    f["app_on"][::2] = 0.0  # every other walker's off: only the others' antennae
    try:
        (points, c), = appendage_strokes(spiders.groups, crowd.colours)
        assert len(points) == 2 * (len(spiders.chains) // 2) and np.array_equal(c, np.repeat(colours[1::2], 2))
    finally:
        f["app_on"][:] = 1.0


def test_walkers_antennae_are_the_same_pixels_either_way_with_chains_over_them(crowd, kernels, spiders):
    mixed = spiders.groups + stress_scene(200, (900.0, 700.0)).groups
    a, b = crowd.indices(mixed, (900, 700)), crowd.indices(mixed, (900, 700), kernels)
    assert (a != 0).sum() > 2000 and np.array_equal(a, b)
    alone = crowd.indices(spiders.groups, (900, 700))
    assert np.array_equal(alone, crowd.indices(spiders.groups, (900, 700), kernels))


class Walkers(Group):
    """A made-up walker group: its legs are not the crowd layer's, its appendages (two slots of up to 3 bones) are."""

    def __init__(self, antennae: np.ndarray, colours, on):
        n = len(colours)
        self.solver = "walker"
        lengths = np.zeros((n, 2, 3))
        bones = np.diff(antennae, axis=2)
        with np.errstate(invalid="ignore", over="ignore"):
            lengths[:] = np.nan_to_num(np.hypot(bones[..., 0], bones[..., 1]), posinf=1e6) + 1.0
        lengths[:, 1, 2] = 0.0  # the second slot has two bones
        self.fields = {"app_points": antennae, "app_lengths": lengths, "app_on": np.asarray(on, float)[:, None],
                       "points": np.zeros((n, 3, 2)), "lengths": np.ones((n, 2))}
        self.members = [Member(c) for c in colours]


coordinate = st.one_of(st.floats(-20.0, W + 20.0, allow_nan=False),
                       st.sampled_from([np.nan, -0.5, W - 0.5, 1e12, -1e6]))


@st.composite
def walker_groups(draw):
    n = draw(st.integers(1, 4))
    flat = draw(st.lists(coordinate, min_size=n * 8 * 2, max_size=n * 8 * 2))
    colours = draw(st.lists(st.integers(0, 7), min_size=n, max_size=n))
    on = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    return Walkers(np.array(flat, float).reshape(n, 2, 4, 2), colours, on)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(walker_groups(), groups())
def test_the_compiled_crowd_sets_the_antennae_pixels_numpy_sets(kernels, crowd, ws, gs):
    mixed = [ws] + gs
    with np.errstate(all="ignore"):
        a, b = crowd.indices(mixed, (W, H)), crowd.indices(mixed, (W, H), kernels)
    assert a.tolist() == b.tolist()
