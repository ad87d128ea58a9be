"""Skins: each chain drawn by its own skin (IK: sprite, capsules, lines; snake: blocks, body,
lines), switched through the panel's Skin menu, kept by the scene file, and set aside by the
crowd drawing of the stress test; and the skins' geometry (app/draw/skins.py)."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pygame
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ikplayground.app.draw import skins
from ikplayground.app.draw.render import DETAIL_LIMIT, chain_colour
from ikplayground.app.draw.shapes import visible_box
from ikplayground.scene.core.settings import IK_SKINS, SNAKE_SKINS
from ikplayground.scene.files.scene_file import load_scene
from tests.app.conftest import chain_of, choose, ctrl, frames, select_solver, tap

KINDS = {"ik": ("skin", IK_SKINS), "snake": ("snake_skin", SNAKE_SKINS)}


def paused(app) -> None:
    tap(app, pygame.K_SPACE, k=2)  # paused: frames differ only by how they are drawn
    assert app.paused


def pixels_around(app, chain) -> np.ndarray:
    """The stage's pixels in the box of ``chain``'s points (30 px around them)."""
    box = visible_box(chain.fields["points"], 30, app.stage_rect)
    assert box is not None
    return pygame.surfarray.array3d(app.screen)[box.left:box.right, box.top:box.bottom].copy()


def set_skin(app, name: str, skin: str, chains) -> None:
    for chain in chains:
        assert app.scene.set_setting(chain, name, skin) is chain
        assert getattr(chain, name) == skin
    frames(app)


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_each_skin_draws_and_draws_differently(app, kind):
    name, choices = KINDS[kind]
    chains = [c for c in app.scene.chains if c.is_snake == (kind == "snake")]
    watched = chains[-1]  # the snake, or the DLS chain
    paused(app)
    drawn = {}
    for skin in choices:
        set_skin(app, name, skin, chains)
        drawn[skin] = pixels_around(app, watched)
    for a, b in itertools.combinations(choices, 2):
        assert (drawn[a] != drawn[b]).any(axis=2).sum() > 50, (a, b)
    set_skin(app, name, choices[0], chains)  # back to the first: drawn as at first, exactly
    np.testing.assert_array_equal(pixels_around(app, watched), drawn[choices[0]])


@pytest.mark.slow
def test_capsules_cover_more_than_lines_and_draw_a_lighter_rim(app):
    ccd = chain_of(app, "ccd")
    paused(app)
    set_skin(app, "skin", "lines", [ccd])
    lines = pixels_around(app, ccd)
    set_skin(app, "skin", "capsules", [ccd])
    capsules = pixels_around(app, ccd)
    background = app.renderer.background(app.stage_rect.size)
    box = visible_box(ccd.fields["points"], 30, app.stage_rect)
    bg = pygame.surfarray.array3d(background)[box.left:box.right, box.top:box.bottom]
    covered = {k: (v != bg).any(axis=2).sum() for k, v in (("lines", lines), ("capsules", capsules))}
    assert covered["capsules"] > 1.3 * covered["lines"]
    rim = np.array(skins.shade(chain_colour(ccd), 0.45))
    assert (np.abs(capsules.astype(int) - rim).sum(axis=2) < 12).sum() > 40


@pytest.mark.slow
@pytest.mark.parametrize("solver, name, skin", [("ccd", "skin", "capsules"), ("ccd", "skin", "lines"),
                                                ("snake", "snake_skin", "body"), ("snake", "snake_skin", "lines")])
def test_the_panel_s_skin_menu_switches_the_selected_chain_s_skin(app, solver, name, skin):
    chain = select_solver(app, solver)
    others = {c.id: (c.skin, c.snake_skin) for c in app.scene.chains if c is not chain}
    paused(app)
    first = getattr(chain, name)
    before = pixels_around(app, chain)
    menu = app.panel.setting_rows.menus[name].menu
    assert menu.is_enabled
    choose(app, menu, skin)
    assert app.scene.selected is chain and getattr(chain, name) == skin
    assert (pixels_around(app, chain) != before).any()
    assert {c.id: (c.skin, c.snake_skin) for c in app.scene.chains if c is not chain} == others
    choose(app, app.panel.setting_rows.menus[name].menu, first)
    assert getattr(chain, name) == first
    np.testing.assert_array_equal(pixels_around(app, chain), before)


@pytest.mark.slow
def test_a_saved_scene_keeps_each_chain_s_skin(app, scene_file):
    arm, ccd, fabrik, dls, snake = app.scene.chains
    wanted = {arm.id: "capsules", ccd.id: "lines", fabrik.id: "sprite", dls.id: "capsules", snake.id: "body"}
    for chain in (arm, ccd, fabrik, dls):
        app.scene.set_setting(chain, "skin", wanted[chain.id])
    app.scene.set_setting(snake, "snake_skin", "body")
    ctrl(app, pygame.K_s, "\x13")
    assert scene_file.exists()
    for chain in (arm, ccd, dls):
        app.scene.set_setting(chain, "skin", "sprite")
    app.scene.set_setting(snake, "snake_skin", "lines")
    ctrl(app, pygame.K_o, "\x0f")
    frames(app, 2)
    loaded = [c.snake_skin if c.is_snake else c.skin for c in app.scene.chains]
    assert loaded == ["capsules", "lines", "sprite", "capsules", "body"]
    # the file writes a skin only when it is not the default; a file without one loads the defaults
    text = json.loads(scene_file.read_text())
    lines = text["chains"]
    assert ["skin" in c for c in lines] == [True, True, False, True, True]
    for c in lines:
        c.pop("skin", None)
    scene_file.write_text(json.dumps(text))
    assert [c.snake_skin if c.is_snake else c.skin for c in load_scene(scene_file).chains] == [
        "sprite"] * 4 + ["blocks"]


@pytest.mark.slow
def test_a_thousand_chain_stress_scene_draws_the_crowd_way_whatever_the_skins(app, monkeypatch):
    app.stress.start(1000)
    frames(app)
    chains = app.scene.chains
    assert len(chains) == 1000 > DETAIL_LIMIT
    for i, chain in enumerate(chains):
        if chain.is_snake:
            chain.snake_skin = SNAKE_SKINS[1 + i % 2]
        else:
            chain.skin = IK_SKINS[1 + i % 2]
    calls = {"crowd": 0, "skin": 0}
    renderer = app.renderer
    crowd = renderer.draw_crowd

    def count(key, real):
        def counted(*args, **kwargs):
            calls[key] += 1
            return real(*args, **kwargs)
        return counted

    monkeypatch.setattr(renderer, "draw_crowd", count("crowd", crowd))
    for f in ("draw_capsules", "draw_bone_lines", "draw_body", "draw_snake_lines", "draw_blocks"):
        monkeypatch.setattr(skins, f, count("skin", getattr(skins, f)))
    monkeypatch.setattr(renderer, "draw_sprites", count("skin", renderer.draw_sprites))
    frames(app, 3)
    assert calls["crowd"] == 3
    assert calls["skin"] <= 3  # the selected chain alone is drawn in full, by its skin


@pytest.mark.slow
@pytest.mark.parametrize("skin", IK_SKINS)
def test_a_chain_a_million_px_long_draws_in_every_skin(app, skin):
    from ikplayground.scene.build import build

    giant = build.make_ik_chain("two-bone", (300, 300), (-1.0, 1.0), (1e6, 1e6), (400, 300))
    app.scene.add(giant)
    app.scene.set_setting(giant, "skin", skin)
    frames(app, 2)
    assert app.running and giant.skin == skin


# --- geometry ---------------------------------------------------------------------------------
def test_capsules_are_a_share_of_the_bone_within_6_to_30_px():
    pts = np.array([[0.0, 0.0], [10.0, 0.0], [10.0, 50.0], [10.0, 50.0], [310.0, 50.0]])
    np.testing.assert_allclose(skins.capsule_radii(pts) * 2, [6.0, 15.0, 6.0, 30.0])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.floats(-500, 500), st.floats(-500, 500)), min_size=2, max_size=12),
       st.integers(1, 6))
def test_the_spline_passes_through_the_nodes(nodes, samples):
    pts = np.array(nodes)
    spine = skins.catmull_rom(pts, samples)
    assert spine.shape == ((len(pts) - 1) * samples + 1, 2)
    np.testing.assert_allclose(spine[::samples], pts, atol=1e-9)


def test_the_body_is_widest_behind_the_head_and_tapers_to_the_tail():
    w = skins.body_widths(37)
    widest = int(np.argmax(w))
    assert 0 < widest < 37 * 0.3
    assert w[0] > w[3] < w[widest]  # a head, a neck
    assert (np.diff(w[widest:]) <= 1e-12).all() and w[-1] < 0.2 * w[widest]


def test_the_body_outline_runs_its_half_width_from_the_spine():
    theta = np.linspace(0, 1.2, 10)
    pts = np.stack([200 + 300 * np.cos(theta), 200 + 300 * np.sin(theta)], axis=1)  # an arc, head first
    spine, widths, tangent, normal = skins.body_frame(pts)
    outline = skins.body_outline(spine, widths, tangent, normal)
    k = len(spine)
    left = outline[1:k][::-1]  # after the tail's point: the left side from the tail to the head's neighbour
    np.testing.assert_allclose(np.hypot(*(left - spine[1:]).T), widths[1:], rtol=1e-9)
    np.testing.assert_allclose(np.hypot(*tangent.T), 1.0)
    # the snout is in front of the head: -tangent[0] points away from the second node
    snout_tip = outline[k + len(skins._SNOUT) // 2]
    assert np.dot(snout_tip - spine[0], pts[1] - pts[0]) < 0


@pytest.mark.slow
@pytest.mark.parametrize("solver, name, skin", [("two-bone", "skin", "capsules"), ("snake", "snake_skin", "body")])
def test_the_selection_halo_shows_around_a_thick_skin(app, solver, name, skin):
    chain = select_solver(app, solver)
    app.scene.set_setting(chain, name, skin)
    paused(app)
    pts = chain.fields["points"]
    a, b = pts[1], pts[2]  # a bone, or a segment behind the head
    mid, d = (a + b) / 2, (b - a) / np.hypot(*(b - a))
    reach = skins.capsule_radii(pts).max() if skin == "capsules" else skins.BODY_HALF_WIDTH + skins.BODY_RIM
    x, y = (mid + np.array([-d[1], d[0]]) * (reach + 3)).round().astype(int).tolist()
    background = app.renderer.background(app.stage_rect.size).get_at((x, y))
    assert app.screen.get_at((x, y)) != background
