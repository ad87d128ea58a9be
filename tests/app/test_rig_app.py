"""A rig in the real App, driven by posted events: it is drawn by its skin, its targets are grabbed one at a time
by the mouse, the drag is undone in one step, and in a crowd it is still drawn in detail."""

from __future__ import annotations

import numpy as np
import pygame
import pytest

from ikplayground.app.draw.render import BACKGROUND, GRID, GRID_MAJOR
from ikplayground.scene.build.rig_build import humanoid_rig

from .conftest import ctrl, drag, frames, tap


def add_humanoid(app, x=300.0):
    w, h = app.scene.stage
    rig = app.scene.add(humanoid_rig(standing_on=(x, h - 40)))
    app.panel.sync(rig)
    frames(app)
    return rig


def bone_middles(rig) -> np.ndarray:
    f = rig.fields
    return (f["points"][f["parents"].astype(int) + 1] + f["points"][1:]) / 2


def drawn_at(app, points) -> float:
    """The share of ``points`` (world px, camera at home) where the screen shows neither background nor grid."""
    blank = {BACKGROUND, GRID, GRID_MAJOR}
    return float(np.mean([tuple(app.screen.get_at((round(x), round(y))))[:3] not in blank for x, y in points]))


@pytest.mark.parametrize("skin", ["capsules", "sprite", "lines"])
def test_every_bone_of_a_rig_is_drawn_whatever_its_skin(app, skin):
    rig = add_humanoid(app)
    app.scene.set_setting(rig, "skin", skin)
    frames(app)
    assert drawn_at(app, bone_middles(rig)) == 1.0


def test_dragging_one_target_moves_that_target_alone_and_undo_puts_it_back(app):
    rig = add_humanoid(app)
    before = rig.fields["targets"].copy()
    hand = 0  # the first target: a hand
    start = before[hand]
    end = start + (40.0, -60.0)
    drag(app, start, end)
    after = rig.fields["targets"]
    np.testing.assert_allclose(after[hand], end, atol=1.0)
    np.testing.assert_array_equal(np.delete(after, hand, axis=0), np.delete(before, hand, axis=0))
    ctrl(app, pygame.K_z, "z")
    np.testing.assert_array_equal(rig.fields["targets"], before)


def test_the_target_under_the_mouse_is_lit(app):
    rig = add_humanoid(app)
    target = rig.fields["targets"][1]
    ring = (round(target[0]), round(target[1] - 16))  # just outside the ring: the glow of a lit target only
    frames(app)
    dark = tuple(app.screen.get_at(ring))[:3]
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(round(target[0]), round(target[1])), rel=(0, 0),
                                         buttons=(0, 0, 0)))
    frames(app)
    lit = tuple(app.screen.get_at(ring))[:3]
    assert sum(lit) > sum(dark)


def test_a_rig_in_a_crowd_is_drawn_in_detail(app):
    app.stress.start(200)
    frames(app)
    rig = add_humanoid(app, x=500.0)
    app.scene.select(app.scene.chains[0])
    frames(app)
    assert len(app.scene.chains) > 200 and rig is not app.scene.selected
    f = rig.fields
    head = f["points"][1 + rig.bone_names.index("head")]
    assert tuple(app.screen.get_at((round(head[0]), round(head[1]))))[:3] not in {BACKGROUND, GRID, GRID_MAJOR}


def test_the_math_page_and_overlay_of_a_rig_draw(app):
    rig = add_humanoid(app)
    app.scene.select(rig)
    app.selected_changed()
    app.apply("show_math", True)
    app.panel.show_page("math")
    rig.fields["targets"][0] += (50.0, -50.0)
    before = app.screen.copy()
    frames(app, 3)  # the card lists every target (it used to fail on a rig's lengths' shape)
    assert app.math.shown and app.screen.get_at((0, 0)) == before.get_at((0, 0))


def test_dragging_a_headings_arrow_turns_it_and_undo_restores_it_exactly(app):
    from ikplayground.app.draw.rig_draw import HEADING_ARROW

    rig = add_humanoid(app)
    f = rig.fields
    k = int(np.flatnonzero(np.isfinite(f["headings"]))[0])  # a foot, aimed flat
    before = f["headings"].copy()
    target = f["targets"][k].copy()
    tip = target + HEADING_ARROW * np.array([np.cos(before[k]), np.sin(before[k])])
    drag(app, tip, target + (0.0, -40.0))  # up the screen: -90 degrees, y down
    assert f["headings"][k] == pytest.approx(-np.pi / 2, abs=0.03)
    np.testing.assert_array_equal(f["targets"][k], target)  # the target itself stays
    ctrl(app, pygame.K_z, "z")
    np.testing.assert_array_equal(f["headings"], before)


def test_dragging_an_edge_of_a_joints_wedge_sets_that_bound_and_undo_restores_it(app):
    from ikplayground.app.draw.render import WEDGE_RADIUS

    rig = add_humanoid(app)
    app.scene.select(rig)
    f = rig.fields
    knee = rig.bone_names.index("shin_l")
    before = f["limits"].copy()
    frames(app)
    start = f["points"][int(f["parents"][knee]) + 1].copy()  # the knee joint: where the shin starts
    base = float(np.sum(f["angles"][[0, rig.bone_names.index("thigh_l")]]))  # the thigh's direction
    hi = base + before[knee, 1]
    edge = start + WEDGE_RADIUS * np.array([np.cos(hi), np.sin(hi)])
    drag(app, edge, start + WEDGE_RADIUS * np.array([np.cos(base + 1.5), np.sin(base + 1.5)]))
    assert f["limits"][knee, 1] == pytest.approx(1.5, abs=0.05)
    np.testing.assert_array_equal(np.delete(f["limits"], knee, axis=0), np.delete(before, knee, axis=0))
    ctrl(app, pygame.K_z, "z")
    np.testing.assert_array_equal(f["limits"], before)


def test_r_races_a_selected_rig_against_itself_and_r_again_brings_the_scene_back(app):
    rig = add_humanoid(app)
    app.scene.select(rig)
    mine = app.scene
    tap(app, pygame.K_r, unicode="r", k=5)
    racers = app.scene.chains
    assert app.scene is not mine and [c.solver for c in racers] == ["rig", "rig"]
    assert [row.label for row in app.race.table()] == ["FABRIK rig", "DLS rig"]
    tap(app, pygame.K_r, unicode="r")
    assert app.scene is mine and rig in app.scene.chains


def test_the_rig_rows_act_on_the_last_grabbed_target_and_the_clicked_bone(app):
    from .conftest import check, click, slide

    rig = add_humanoid(app)
    f = rig.fields
    drag(app, f["targets"][2], f["targets"][2])  # grab the third target (a foot) without moving it
    slide(app, "target_weight", 3.0)
    assert f["weights"][2] == pytest.approx(3.0) and f["weights"][[0, 1, 3]].tolist() == [1.0, 1.0, 1.0]
    check(app, app.panel.target_aim, False)
    assert np.isnan(f["headings"][2]) and np.isfinite(f["headings"][3])
    ctrl(app, pygame.K_z, "z")
    assert np.isfinite(f["headings"][2])
    spine = rig.bone_names.index("spine")
    middle = (f["points"][int(f["parents"][spine]) + 1] + f["points"][spine + 1]) / 2
    click(app, middle)
    before = f["lengths"].copy()
    slide(app, "current_bone_length", 90.0)
    assert f["lengths"][spine] == pytest.approx(90.0)
    np.testing.assert_array_equal(np.delete(f["lengths"], spine), np.delete(before, spine))
