"""Obstacles in the real App, driven by posted events: O and the Add obstacle button add one, a drag inside moves
it, a drag of its rim resizes it, Delete over it removes it, Ctrl+Z takes each back, the scene file keeps them,
the Math page's joint-space map shades the poses they forbid, and CCD and FABRIK chains bend round them."""

from __future__ import annotations

import math

import numpy as np
import pygame
import pytest

from ikplayground.app.app import App
from ikplayground.app.drag import ObstacleDrag, hot_obstacle
from ikplayground.app.draw.obstacle_draw import FILL, draw_obstacles
from ikplayground.app.camera import Camera
from ikplayground.app.panel.math_card import OBSTACLE, PLOT_BG
from ikplayground.insight.joint_map import MapFrame
from ikplayground.scene import DEFAULT_RADIUS, MAX_RADIUS, Scene, make_ik_chain, save_scene
from ikplayground.solvers import segment_gaps
from tests.app.conftest import SIZE, ctrl, drag, frames, mouse_up, move_mouse, press_button, started, tap

CTRL, SHIFT = pygame.KMOD_CTRL, pygame.KMOD_SHIFT
ROOT = (300.0, 450.0)  # the arm's root: the left part of the stage; obstacles go to the right of x = 600


def arm_scene() -> Scene:
    """A two-bone arm (150 + 120 px) reaching up and right, and room to its right."""
    scene = Scene((980.0, 694.0))
    scene.add(make_ik_chain("two-bone", ROOT, np.radians([-60.0, 70.0]), np.array([150.0, 120.0]), (430.0, 330.0)))
    return scene


@pytest.fixture
def app(scene_file):
    app = started(App(size=SIZE, scene=arm_scene(), realtime=False, scene_path=scene_file))
    yield app
    app.close()


def undo(app):
    tap(app, pygame.K_z, CTRL, "\x1a")


def redo(app):
    tap(app, pygame.K_z, CTRL | SHIFT, "\x1a")


def o_key(app, at):
    move_mouse(app, at)
    tap(app, pygame.K_o, unicode="o")


def test_o_adds_an_obstacle_at_the_mouse_and_ctrl_z_takes_it_back(app):
    o_key(app, (700, 300))
    assert app.scene.obstacles.tolist() == [[700.0, 300.0, DEFAULT_RADIUS]]
    assert app.message.startswith("Added obstacle 1 at (700, 300), radius 40 px") and not app.message_is_error
    assert len(app.scene.chains) == 1  # not a chain
    undo(app)
    assert app.scene.obstacles.shape == (0, 3) and app.message == "Undid: obstacle 1 added"
    redo(app)
    assert app.scene.obstacles.tolist() == [[700.0, 300.0, DEFAULT_RADIUS]]


def test_o_in_a_zoomed_view_puts_it_under_the_mouse(app):
    app.view.camera.origin[:] = (100.0, 50.0)
    app.view.camera.set_zoom(2.0)
    o_key(app, (600, 300))
    assert app.scene.obstacles.tolist() == [[400.0, 200.0, DEFAULT_RADIUS]]  # (600, 300) / 2 + (100, 50)


def test_ctrl_o_still_loads_and_o_off_the_stage_adds_at_a_free_spot(app, scene_file):
    save_scene(arm_scene(), scene_file)
    tap(app, pygame.K_o, CTRL, "\x0f")
    assert app.message.startswith("Loaded 1 chain") and app.scene.obstacles.shape == (0, 3)
    o_key(app, (1100, 300))  # over the panel
    (x, y, r), = app.scene.obstacles.tolist()
    arm = app.scene.chains[0].fields["points"]
    assert math.dist((x, y), ROOT) > 270 + r and not np.any(np.hypot(arm[:, 0] - x, arm[:, 1] - y) < r)


def test_the_add_obstacle_button_adds_one_at_a_free_spot_each_press(app):
    app.panel.show_page("chain")
    for k in (1, 2):
        press_button(app, app.panel.obstacle_button)
        assert len(app.scene.obstacles) == k and app.message.startswith(f"Added obstacle {k} at")
    (x0, y0, r0), (x1, y1, r1) = app.scene.obstacles.tolist()
    assert math.dist((x0, y0), (x1, y1)) >= r0 + r1  # the second clear of the first


def test_a_drag_inside_moves_it_keeping_the_grab_offset_and_is_one_undo_entry(app):
    o_key(app, (700, 300))
    drag(app, (710, 290), (810, 390), steps=5)
    assert app.scene.obstacles.tolist() == [[800.0, 400.0, DEFAULT_RADIUS]]
    assert app.drag is None and app.scene.chains[0].fields["target"].tolist() == [430.0, 330.0]
    undo(app)
    assert app.scene.obstacles.tolist() == [[700.0, 300.0, DEFAULT_RADIUS]]
    assert app.message == "Undid: obstacle 1 moved"
    undo(app)
    assert app.scene.obstacles.shape == (0, 3)


def test_a_drag_of_its_rim_resizes_it_within_its_range(app):
    o_key(app, (700, 300))
    move_mouse(app, (742, 300))  # 2 px outside the rim
    assert hot_obstacle(app) == (0, "rim")
    drag(app, (742, 300), (772, 300), steps=3, release=False)
    assert isinstance(app.drag, ObstacleDrag) and app.drag.part == "obstacle_rim"
    assert app.scene.obstacles.tolist() == [[700.0, 300.0, DEFAULT_RADIUS + 30]]  # the grab's 2 px kept
    move_mouse(app, (1100, 300), buttons=(1, 0, 0))  # far out: as large as an obstacle gets
    tap(app, pygame.K_z, CTRL, "\x1a")  # undo mid-drag ends the hold first: its resize is the entry undone
    assert app.drag is None and app.scene.obstacles.tolist() == [[700.0, 300.0, DEFAULT_RADIUS]]
    redo(app)
    assert app.scene.obstacles[0, 2] == MAX_RADIUS and app.message == "Redid: obstacle 1 resized"


def test_a_press_on_the_arm_over_an_obstacle_takes_the_arm_not_the_obstacle(app):
    app.scene.add_obstacle((375.0, 320.0), 60.0)  # under the arm's upper bone's end (the elbow at 375, 320)
    frames(app)
    move_mouse(app, (375, 320))
    assert hot_obstacle(app) is None
    drag(app, (430, 330), (460, 330), steps=2)  # the arm's target
    assert app.scene.obstacles.tolist() == [[375.0, 320.0, 60.0]]


def test_delete_over_an_obstacle_removes_it_else_the_selected_chain(app):
    o_key(app, (700, 300))
    o_key(app, (850, 500))
    move_mouse(app, (705, 310))
    tap(app, pygame.K_DELETE, unicode="\x7f")
    assert app.scene.obstacles.tolist() == [[850.0, 500.0, DEFAULT_RADIUS]] and len(app.scene.chains) == 1
    assert app.message == "Removed obstacle 1 (Ctrl+Z puts it back)"
    undo(app)
    assert app.scene.obstacles.tolist() == [[700.0, 300.0, DEFAULT_RADIUS], [850.0, 500.0, DEFAULT_RADIUS]]
    move_mouse(app, (500, 600))  # over nothing: the selected chain goes, as before
    tap(app, pygame.K_DELETE, unicode="\x7f")
    assert app.scene.chains == [] and len(app.scene.obstacles) == 2


def test_save_and_load_keep_them_and_a_bad_obstacle_in_a_file_leaves_the_scene_as_it_was(app, scene_file):
    o_key(app, (700, 300))
    drag(app, (740, 300), (760, 300), steps=2)  # resized to 60 px
    ctrl(app, pygame.K_s, "\x13")
    assert app.message.startswith("Saved 1 chain")
    o_key(app, (850, 500))
    tap(app, pygame.K_o, CTRL, "\x0f")
    assert app.scene.obstacles.tolist() == [[700.0, 300.0, 60.0]]
    scene, rows = app.scene, app.scene.obstacles
    text = scene_file.read_text(encoding="utf-8")
    scene_file.write_text(text.replace("[[700.0, 300.0, 60.0]]", "[[700.0, 300.0, 60.0], [1, 2, -3]]"),
                          encoding="utf-8")
    tap(app, pygame.K_o, CTRL, "\x0f")
    assert app.message_is_error and "obstacles[1]: the radius must be > 0 px, got -3" in app.message
    assert "\n" not in app.message and app.scene is scene and app.scene.obstacles is rows


def test_the_stage_draws_them_under_the_chains_and_the_math_page_shades_the_poses_they_forbid(app):
    app.scene.add_obstacle((520.0, 450.0), 40.0)  # 220 px right of the root: the lower bone's reach only
    app.panel.show_page("math")
    frames(app, 2)
    assert tuple(app.screen.get_at((520, 450)))[:3] != tuple(app.screen.get_at((520, 600)))[:3]  # a disc
    card = app.panel.math_page.card
    frame = MapFrame(*card.map_rect)
    image = app.panel.math_page.image.rect  # where the card is on the screen

    def cell(theta1, theta2):
        x, y = frame.to_map(theta1, theta2)
        return tuple(card.surface.get_at((int(x), int(y))))[:3], tuple(app.screen.get_at((image.x + int(x),
                                                                                            image.y + int(y))))[:3]

    # out to the right (the lower bone level, 7.5 px under the centre): it passes through the circle
    blocked, shown = cell(0.05, -0.05)
    assert blocked == shown and np.abs(np.subtract(blocked, OBSTACLE)).sum() < np.abs(np.subtract(blocked,
                                                                                                   PLOT_BG)).sum()
    assert cell(math.pi / 2 + 0.05, 0.05)[0] == PLOT_BG  # down: clear
    assert "a bone inside an obstacle" in [k[0] for k in card._texts]


@pytest.mark.parametrize("zoom, radius", [(2.0, 40.0), (8.0, 240.0)])  # a kept sprite, and a patch (over 200 px)
def test_drawn_through_the_camera_and_never_outside_the_clip(zoom, radius):
    surface = pygame.Surface((200, 100))
    surface.fill((0, 0, 0))
    surface.set_clip(pygame.Rect(0, 0, 120, 100))
    camera = Camera((100.0 - 100.0 / zoom, 25.0 - 50.0 / zoom), zoom=zoom)
    draw_obstacles(surface, np.array([[100.0, 25.0, radius / zoom]]), camera)  # on screen at (100, 50)
    surface.set_clip(None)
    drawn = {(x, y) for x in range(200) for y in range(100) if tuple(surface.get_at((x, y)))[:3] != (0, 0, 0)}
    assert (100, 50) in drawn and all(x < 120 for x, _ in drawn)  # nothing past the clip
    inside = {(x, y) for x in range(120) for y in range(100) if math.dist((x, y), (100, 50)) < radius - 4}
    assert inside <= drawn and len({tuple(surface.get_at(p))[:3] for p in inside}) == 1  # one fill, shaded
    assert not any(math.dist(p, (100, 50)) > radius + 4 for p in drawn)  # the rim: 2 px wide
    assert FILL[3] < 255


@pytest.mark.parametrize("solver", ["ccd", "fabrik"])
def test_a_chain_dragged_round_an_obstacle_bends_round_it(solver, scene_file):
    """O puts a circle above a straight chain; its target dragged up past the circle and back down behind it: no
    frame shows a bone in the circle, and the chain reaches round it (posted events, the App's own steps)."""
    scene = Scene((980.0, 694.0))
    scene.add(make_ik_chain(solver, (200.0, 400.0), np.zeros(8), np.full(8, 50.0), (600.0, 400.0)))
    app = started(App(size=SIZE, scene=scene, realtime=False, scene_path=scene_file))
    try:
        frames(app, 10)
        o_key(app, (380, 330))
        circle = app.scene.obstacles.copy()
        assert circle.tolist() == [[380.0, 330.0, DEFAULT_RADIUS]]
        chain = app.scene.chains[0]
        inside = []
        drag(app, (600, 400), (450, 150), steps=40, release=False)
        assert app.drag is not None and chain.fields["target"].tolist() == [450.0, 150.0]
        for p in np.linspace((450.0, 150.0), (400.0, 220.0), 30):
            move_mouse(app, p, buttons=(1, 0, 0))
            inside.append(segment_gaps(chain.fields["points"], circle).min())
        mouse_up(app, (400, 220))
        for _ in range(60):
            frames(app)
            inside.append(segment_gaps(chain.fields["points"], circle).min())
        assert min(inside) >= -1e-9
        assert chain.fields["reached"][0] and chain.fields["target"].tolist() == [400.0, 220.0]
    finally:
        app.close()


def test_f_fits_the_obstacles_into_the_view_too(app):
    o_key(app, (900.0, 600.0))  # near the stage's bottom-right corner, the arm far to its left
    app.view.camera.set_zoom(3.0)
    app.view.camera.origin[:] = (0.0, 0.0)  # zoomed on the top-left: the circle out of view
    tap(app, pygame.K_f, unicode="f")
    x, y, r = app.scene.obstacles[0]
    lo = app.view.camera.to_screen((x - r, y - r))
    hi = app.view.camera.to_screen((x + r, y + r))
    stage = app.stage_rect
    assert lo[0] >= 0 and lo[1] >= 0 and hi[0] <= stage.width and hi[1] <= stage.height
