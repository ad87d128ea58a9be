"""The crowd renderer: a thousand chains drawn in array passes look like pygame's own lines, and cost no garbage."""

from __future__ import annotations

import gc

import numpy as np
import pygame
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ikplayground.app.draw import crowd_draw
from ikplayground.app.draw.crowd_draw import CrowdLayer, bone_samples, clip_segments
from ikplayground.app.draw.render import ANCHOR_FILL, PALETTE, TARGET, SceneRenderer
from ikplayground.scene.build.stress import stress_scene
from ikplayground.solvers import jit
from tests.app.conftest import frames

coords = st.floats(-300.0, 300.0, allow_nan=False)
on_stage = st.floats(0.0, 1000.0, allow_nan=False)  # the stage of these tests is 1000 x 1000 px


def flat_samples(pts):
    """``bone_samples`` on a 1000 x 1000 stage, as three flat arrays."""
    x, y, owner = bone_samples(pts, 1000.0, 1000.0)
    return x.ravel(), y.ravel(), np.broadcast_to(owner, x.shape).ravel()


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(on_stage, on_stage, on_stage, on_stage, st.integers(1, 3))
def test_bone_samples_walk_a_bone_end_to_end_a_pixel_at_a_time(ax, ay, bx, by, rows):
    pts = np.array([[[ax, ay], [bx, by]]] * rows)
    x, y, owner = flat_samples(pts)
    assert owner.tolist() == sorted(owner.tolist()) and set(owner.tolist()) == set(range(rows))
    sx, sy = x[owner == 0], y[owner == 0]
    assert (sx[0], sy[0]) == (ax, ay) and np.hypot(sx[-1] - bx, sy[-1] - by) < 1e-9
    assert np.all(np.maximum(np.abs(np.diff(sx)), np.abs(np.diff(sy))) <= 1.0 + 1e-9)
    cross = (sx - ax) * (by - ay) - (sy - ay) * (bx - ax)  # every sample on the line through the ends
    assert np.all(np.abs(cross) <= 1e-6 * max(1.0, np.hypot(bx - ax, by - ay)) ** 2)


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(on_stage, on_stage), min_size=2, max_size=6))
def test_every_joint_of_a_chain_is_sampled(joints):
    x, y, owner = flat_samples(np.array([joints], float))
    for jx, jy in joints:
        assert np.min(np.hypot(x - jx, y - jy)) < 1e-9


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(coords, coords, coords, coords)
def test_clipping_keeps_exactly_the_part_of_a_segment_in_the_box(ax, ay, bx, by):
    w, h = 120.0, 80.0
    a = np.array([[ax, ay]])
    d = np.array([[bx - ax, by - ay]])
    clip_segments(a, d, w, h)
    ts = np.linspace(0.0, 1.0, 2001)
    px, py = ax + (bx - ax) * ts, ay + (by - ay) * ts
    inside = (px >= -1) & (px <= w) & (py >= -1) & (py <= h)
    if not inside.any():
        # nothing in the box (a brush of an edge may survive as a point on it)
        assert d[0].tolist() == [0.0, 0.0] or np.all((a[0] >= -1 - 1e-6) & (a[0] <= (w + 1e-6, h + 1e-6)))
        return
    lo, hi = a[0], a[0] + d[0]
    for p in (lo, hi):  # the cut segment's ends lie in the box, on the original segment
        assert -1 - 1e-6 <= p[0] <= w + 1e-6 and -1 - 1e-6 <= p[1] <= h + 1e-6
    first, last = np.argmax(inside), len(ts) - 1 - np.argmax(inside[::-1])
    seg = np.array([bx - ax, by - ay])
    step = np.hypot(*seg) / 2000
    assert np.hypot(*(lo - (px[first], py[first]))) <= step + 1e-6
    assert np.hypot(*(hi - (px[last], py[last]))) <= step + 1e-6


def layer():
    """A fresh crowd layer (the display is the ``app`` fixture's)."""
    return SceneRenderer()._crowd


def stage(app) -> tuple[int, int]:
    w, h = app.scene.stage
    return int(w), int(h)


@pytest.mark.slow
def test_bones_cover_what_pygames_three_px_lines_cover(app):
    """The same crowd drawn by the old way (one draw.lines a chain, 3 px) and the new: the same pixels, give or
    take the rounding at a line's edge."""
    scene = stress_scene(300, (600.0, 400.0))
    groups = [g for g in scene.groups if g.solver in ("ccd", "fabrik")]
    crowd = layer()
    new = pygame.Surface((600, 400))
    crowd.draw(new, groups, (600, 400))
    old = pygame.Surface((600, 400))
    for g in groups:
        for m, line in zip(g.members, g.fields["points"].tolist()):
            pygame.draw.lines(old, PALETTE[m.palette_index % len(PALETTE)], False, line, 3)
    sprites_off = pygame.Surface((600, 400))
    crowd._sprites = lambda *a: None  # bones only
    crowd.draw(sprites_off, groups, (600, 400))
    new_px = pygame.surfarray.array3d(sprites_off).any(axis=2)
    old_px = pygame.surfarray.array3d(old).any(axis=2)
    assert new_px.sum() > 5000
    assert 0.9 < new_px.sum() / old_px.sum() < 1.15  # as much ink
    tmp = np.zeros(new_px.shape, np.uint8)
    for a, b in ((new_px, old_px), (old_px, new_px)):  # each within a pixel of the other, but for a few corners
        near = a.astype(np.uint8)
        crowd_draw.dilate_square(near, tmp)
        assert (b & (near > 0)).sum() / b.sum() > 0.98


@pytest.mark.slow
def test_each_chain_is_drawn_in_its_own_colour(app):
    scene = stress_scene(40, (400.0, 300.0))
    g = next(g for g in scene.groups if g.solver == "ccd")
    surf = pygame.Surface((400, 300))
    crowd = layer()
    crowd._sprites = lambda *a: None
    crowd.draw(surf, [g], (400, 300))
    rgb = pygame.surfarray.array3d(surf)
    for m, pts in zip(g.members, g.fields["points"]):
        mid = (pts[3] + pts[4]) / 2  # the middle of a bone, away from the ends other chains may cross
        x, y = np.floor(mid + 0.5).astype(int)
        near = rgb[max(x - 1, 0):x + 2, max(y - 1, 0):y + 2].reshape(-1, 3).tolist()
        assert list(PALETTE[m.palette_index % len(PALETTE)]) in near


@pytest.mark.slow
def test_a_dense_crowd_is_stamped_into_the_buffer_and_drops_the_dots_on_tiny_bones(app, monkeypatch):
    blits = []
    real = CrowdLayer._blit_all

    def spy(surface, sprite, at, half):
        blits.append((sprite.get_width(), np.asarray(at).reshape(-1, 2).shape[0]))
        real(surface, sprite, at, half)

    monkeypatch.setattr(CrowdLayer, "_blit_all", staticmethod(spy))
    surf = pygame.Surface((980, 694))
    sparse = stress_scene(1000, (980.0, 694.0))  # bones of 3 px, chains of 31 px: antialiased sprites
    layer().draw(surf, sparse.groups, (980, 694))
    assert {w for w, _ in blits} == {7, 13, 19}  # dots, anchors, targets
    blits.clear()
    dense = stress_scene(10000, (980.0, 694.0))  # chains of 10 px
    surf.fill((0, 0, 0))
    layer().draw(surf, dense.groups, (980, 694))
    assert blits == []
    rgb = pygame.surfarray.array3d(surf)
    roots = np.concatenate([g.fields["root"] for g in dense.groups if g.solver != "snake"])
    targets = np.concatenate([g.fields["target"] for g in dense.groups if g.solver != "snake"])
    cx, cy = np.floor(roots + 0.5).astype(int).T
    assert np.mean(np.all(rgb[cx, cy] == ANCHOR_FILL, axis=1)) > 0.3  # (later chains cover some)
    tx, ty = np.floor(targets + 0.5).astype(int).T
    on_ring = np.all(rgb[np.clip(tx + 2, 0, 979), ty] == TARGET, axis=1)
    assert np.mean(on_ring) > 0.3
    arms = next(g for g in dense.groups if g.solver == "two-bone")  # bones of 5 px keep their dots
    assert crowd_draw.has_dots(arms)
    assert not any(crowd_draw.has_dots(g) for g in dense.groups if g.solver in ("ccd", "fabrik", "dls"))


@pytest.mark.slow
def test_a_bone_a_million_px_long_is_drawn_across_the_stage_only(app):
    pts = np.array([[[10.0, 100.0], [1e6, 100.0]], [[10.0, 50.0], [20.0, 50.0]]] * 50)
    class G:  # a group: the arrays are all the layer reads
        solver = "ccd"
        fields = {"points": pts, "lengths": np.array([[1e6], [10.0]] * 50), "root": pts[:, 0],
                  "target": pts[:, -1]}
        members = [type("M", (), {"palette_index": i})() for i in range(100)]

    surf = pygame.Surface((300, 200))
    crowd = layer()
    crowd._sprites = lambda *a: None
    crowd.draw(surf, [G], (300, 200))
    lit = pygame.surfarray.array3d(surf).any(axis=2)
    assert lit[:, 100].sum() >= 290  # the long bone crosses the whole stage
    assert lit[:, 150].sum() == 0


@pytest.mark.slow
def test_drawing_a_thousand_chains_sets_off_no_garbage_collection(app):
    """The collector runs when the container objects alive pass a threshold (700 young ones): the old renderer's
    lists of points (about 13,000 a frame) set it off every frame, and each run walked every chain."""
    app.stress.start(1000)
    frames(app, 3)
    jit.kernels(wait=True)  # (numba's import on the loading thread would set collections off meanwhile)
    runs = []

    def watch(phase, info):
        if phase == "start":
            runs.append(info["generation"])

    gc.collect()
    gc.callbacks.append(watch)
    try:
        for _ in range(3):
            app.renderer.draw(app.screen, app.scene, stage_size=stage(app))
    finally:
        gc.callbacks.remove(watch)
    assert runs == []


@pytest.mark.slow
@pytest.mark.parametrize("count", [100, 1000])
def test_the_crowd_shows_in_the_app(app, count):
    app.stress.start(count)
    frames(app, 2)
    w, h = stage(app)
    rgb = pygame.surfarray.array3d(app.screen)[:w, :h]
    bones = np.zeros(rgb.shape[:2], bool)
    for colour in PALETTE:
        bones |= np.all(rgb == colour, axis=2)
    assert bones.sum() > count * 5
    assert crowd_draw.DOT_MIN_BONE > 0


@pytest.mark.parametrize("centre", [(0.0, 0.0), (9.0, 5.0), (1.0, 3.0), (-2.0, 3.0), (12.0, -2.0), (np.nan, 1.0)])
def test_a_stamp_at_the_stage_edge_sets_just_its_pixels_on_the_stage(centre):
    w, h = 10, 6
    buf = np.zeros(w * h + 1, np.uint8)
    crowd_draw.stamp(buf, w, h, np.array([centre, (5.0, 3.0)]), crowd_draw.ANCHOR_EDGE, np.array([7, 9]))
    grid = buf[:-1].reshape(h, w)
    want = np.zeros((h, w), np.uint8)
    for value, (cx, cy) in ((7, centre), (9, (5.0, 3.0))):
        if np.isnan(cx):
            continue
        for ox, oy in crowd_draw.ANCHOR_EDGE:
            x, y = int(cx) + ox, int(cy) + oy
            if 0 <= x < w and 0 <= y < h:
                want[y, x] = value
    assert grid.tolist() == want.tolist()


@pytest.mark.slow
def test_the_layer_keeps_no_dropped_scenes_groups_alive(app):
    """Its per-group colours are kept weakly: a soak of stress tests and scene swaps grew by hundreds of MB while
    the layer held the groups of up to 64 dropped scenes."""
    import weakref

    crowd = layer()
    scene = stress_scene(200, (400.0, 300.0))
    crowd.draw(pygame.Surface((400, 300)), scene.groups, (400, 300))
    refs = [weakref.ref(g) for g in scene.groups]
    assert all(r() is not None for r in refs)
    del scene
    gc.collect()
    assert [r() for r in refs] == [None] * len(refs)
