"""One name a chain in the real App: the panel title and the status line agree, through a solver switch,
undo, redo, a save and a load; and the two-bone arm's Upper and Lower length rows, Bone length's ratios."""

from __future__ import annotations

import numpy as np
import pygame
import pytest

from ikplayground.app.draw import chrome
from ikplayground.scene import SOLVER_LABELS
from tests.app.conftest import choose, ctrl, frames, move_mouse, select_solver, slide, tap

CTRL, SHIFT = pygame.KMOD_CTRL, pygame.KMOD_SHIFT


def shown_names(app, monkeypatch) -> tuple[str, str]:
    """(the panel's title, the status line's facts) of the next drawn frame."""
    drawn = []
    real = chrome.draw_status

    def recording(screen, rect, facts, *args, **kwargs):
        drawn.append(facts)
        return real(screen, rect, facts, *args, **kwargs)

    monkeypatch.setattr(chrome, "draw_status", recording)
    frames(app)
    monkeypatch.undo()
    return app.panel.title.text, drawn[-1]


@pytest.mark.slow
def test_the_panel_title_and_the_status_line_name_a_chain_alike_through_switch_undo_save_and_load(app, monkeypatch):
    assert [c.label for c in app.scene.chains] == ["two-bone #1", "CCD #2", "FABRIK #3", "DLS #4", "snake #5"]
    ccd = select_solver(app, "ccd")
    title, facts = shown_names(app, monkeypatch)
    assert title == "CCD #2" and "   ·   CCD #2  error" in facts
    choose(app, app.panel.solver, SOLVER_LABELS["fabrik"])
    assert app.scene.selected is ccd and ccd.solver == "fabrik"
    title, facts = shown_names(app, monkeypatch)
    assert title == "FABRIK #2" and "   ·   FABRIK #2  error" in facts
    choose(app, app.panel.solver, SOLVER_LABELS["snake"])  # a rebuilt chain: another object, the same number
    snake = app.scene.selected
    assert snake is not ccd and snake.number == 2 and app.scene.chains.index(snake) == 1
    assert shown_names(app, monkeypatch)[0] == "snake #2"
    tap(app, pygame.K_z, CTRL, "\x1a")
    tap(app, pygame.K_z, CTRL, "\x1a")
    title, facts = shown_names(app, monkeypatch)
    assert title == "CCD #2" and "   ·   CCD #2  error" in facts
    assert app.message == "Undid: solver CCD → FABRIK on CCD #2"
    tap(app, pygame.K_z, CTRL | SHIFT, "\x1a")
    assert shown_names(app, monkeypatch)[0] == "FABRIK #2"
    ctrl(app, pygame.K_s, "\x13")
    ctrl(app, pygame.K_o, "\x0f")
    assert [c.label for c in app.scene.chains] == ["two-bone #1", "FABRIK #2", "FABRIK #3", "DLS #4", "snake #5"]
    tap(app, pygame.K_TAB)
    title, facts = shown_names(app, monkeypatch)
    assert app.scene.selected is app.scene.chains[1]
    assert title == "FABRIK #2" and "   ·   FABRIK #2  error" in facts


@pytest.mark.slow
def test_new_chains_take_the_next_number_and_none_comes_back_while_the_scene_has_had_it(app):
    move_mouse(app, (300, 200))
    tap(app, pygame.K_n, unicode="n")
    added = app.scene.selected
    assert added.number == 6 and app.message == f"Added {added.label}" and app.panel.title.text == added.label
    tap(app, pygame.K_BACKSPACE)
    assert app.message == f"Removed {added.label}" and added not in app.scene.chains
    tap(app, pygame.K_n, unicode="n")
    assert app.scene.selected.number == 7
    numbers = [c.number for c in app.scene.chains]
    assert numbers == [1, 2, 3, 4, 5, 7] and len(set(numbers)) == len(numbers)


@pytest.mark.slow
def test_the_arm_s_upper_and_lower_length_rows_set_each_bone_and_undo(app):
    arm = select_solver(app, "two-bone")
    np.testing.assert_array_equal(arm.fields["lengths"], (120.0, 100.0))
    rows = app.panel.setting_rows.sliders
    assert rows["upper_length"].slider.is_enabled and rows["lower_length"].slider.is_enabled
    slide(app, "upper_length", 150.0)
    np.testing.assert_array_equal(arm.fields["lengths"], (150.0, 100.0))
    slide(app, "lower_length", 80.0, k=2)
    np.testing.assert_array_equal(arm.fields["lengths"], (150.0, 80.0))
    # the arm solves with its new bones: the knee is 150 px from the root, the tip 80 px from the knee
    root, knee, tip = arm.fields["points"]
    assert np.hypot(*(knee - root)) == pytest.approx(150.0) and np.hypot(*(tip - knee)) == pytest.approx(80.0)
    assert app.history.labels()[-2:] == ["upper length 120 px → 150 px on two-bone #1",
                                         "lower length 100 px → 80 px on two-bone #1"]
    tap(app, pygame.K_z, CTRL, "\x1a")
    np.testing.assert_array_equal(arm.fields["lengths"], (150.0, 100.0))
    tap(app, pygame.K_z, CTRL, "\x1a")
    np.testing.assert_array_equal(arm.fields["lengths"], (120.0, 100.0))
    ccd = select_solver(app, "ccd")
    assert not rows["upper_length"].slider.is_enabled and ccd.bones == 7  # two-bone only


@pytest.mark.slow
def test_bone_length_on_bones_of_120_and_100_scales_both_keeping_their_ratio(app):
    arm = select_solver(app, "two-bone")
    assert app.panel.setting_rows.sliders["bone_length"].value.text.startswith("110")  # the mean
    slide(app, "bone_length", 165.0)  # x1.5 (the slider stops at 200 px: 220 is in tests/scene/test_identity.py)
    np.testing.assert_allclose(arm.fields["lengths"], (180.0, 150.0), rtol=1e-15)
    assert app.panel.setting_rows.sliders["bone_length"].value.text.startswith("165")
    tap(app, pygame.K_z, CTRL, "\x1a")
    np.testing.assert_array_equal(arm.fields["lengths"], (120.0, 100.0))
