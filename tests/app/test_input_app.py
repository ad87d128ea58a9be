"""The input model: Esc closes the innermost thing and never quits, quitting asks before losing work, a click in
the panel leaves the keys to the stage, and an undone preset shows in the Preset menu. Through the real App."""

from __future__ import annotations

import json

import pygame
import pytest

from ikplayground.app.panel.panel import NO_PRESET
from tests.app.conftest import (choose, click, ctrl, drag, frames, move_mouse, post, press_button, rect_centre,
                                select_solver, tap)


def esc(app, k: int = 1) -> None:
    tap(app, pygame.K_ESCAPE, unicode="\x1b", k=k)


def open_menu(app, menu) -> None:
    """A real click on a drop-down's closed face opens its list."""
    click(app, rect_centre(menu))
    frames(app, 2)
    assert app.panel.open_menus() == [menu]


def add_one(app) -> None:
    """N on an empty spot of the stage: an edit, so the scene has unsaved changes."""
    move_mouse(app, (150, 600))
    tap(app, pygame.K_n, unicode="n")


def quit_window(app) -> None:
    post(pygame.QUIT)
    frames(app)


# --- Esc -------------------------------------------------------------------------------------------------------
@pytest.mark.slow
def test_esc_closes_an_open_drop_down_and_the_app_keeps_running(app):
    menu = app.panel.preset_menu
    open_menu(app, menu)
    esc(app, k=2)
    assert app.running and app.panel.open_menus() == []
    assert app.panel.preset_menu is menu  # closed, not remade: the choice is as it was


@pytest.mark.slow
def test_esc_closes_the_help_before_anything_else_and_then_only_says_how_to_quit(app):
    tap(app, pygame.K_F1)
    esc(app)
    assert app.running and not app.show_help
    esc(app)
    assert app.running and "Ctrl+Q" in app.message


@pytest.mark.slow
def test_esc_ends_typing_in_the_path_box_and_keeps_the_text(app):
    entry = app.panel.path_entry
    app.ui.set_focus_set(entry)  # as a click in it (at 1280x720 it is scrolled half out of view)
    tap(app, pygame.K_n, unicode="n")  # typed into the box, not the stage's N
    assert app.panel.typing()
    text = entry.get_text()
    esc(app)
    assert app.running and not app.panel.typing() and entry.get_text() == text
    n = len(app.scene.chains)
    move_mouse(app, (150, 600))
    tap(app, pygame.K_n, unicode="n")  # the keys are the stage's again
    assert len(app.scene.chains) == n + 1


@pytest.mark.slow
def test_esc_ends_the_race_and_the_stress_test_and_gives_the_scene_back(app):
    scene = app.scene
    tap(app, pygame.K_r, unicode="r")
    assert app.race.on
    esc(app)
    assert app.running and not app.race.on and app.scene is scene
    press_button(app, app.panel.stress_button)
    assert app.stress.on
    esc(app)
    assert app.running and not app.stress.on and app.scene is scene


@pytest.mark.slow
def test_esc_ends_the_step_through_and_runs_again(app):
    select_solver(app, "ccd")
    tap(app, pygame.K_PERIOD, unicode=".")
    assert app.paused and app.math.stepping
    esc(app)
    assert app.running and not app.paused and app.math.session is None


# --- quitting --------------------------------------------------------------------------------------------------
@pytest.mark.slow
def test_quit_with_unsaved_changes_asks_and_cancel_keeps_everything(app):
    add_one(app)
    n = len(app.scene.chains)
    quit_window(app)
    assert app.running and app.quit.asking
    window = app.quit.window
    quit_window(app)  # a second close: still the one prompt
    assert app.running and app.quit.window is window
    tap(app, pygame.K_n, unicode="n")  # the scene's keys wait for the answer
    assert len(app.scene.chains) == n
    press_button(app, app.quit.buttons["cancel"])
    assert app.running and not app.quit.asking and len(app.scene.chains) == n
    assert not window.alive()


@pytest.mark.slow
def test_esc_in_the_quit_prompt_is_cancel(app):
    add_one(app)
    ctrl(app, pygame.K_q)
    assert app.running and app.quit.asking
    esc(app)
    assert app.running and not app.quit.asking


@pytest.mark.slow
def test_discard_quits_without_writing(app, scene_file):
    add_one(app)
    quit_window(app)
    press_button(app, app.quit.buttons["discard"])
    assert not app.running and not scene_file.exists()


@pytest.mark.slow
def test_save_in_the_prompt_writes_the_scene_file_then_quits(app, scene_file):
    add_one(app)
    n = len(app.scene.chains)
    ctrl(app, pygame.K_q)
    press_button(app, app.quit.buttons["save"])
    assert not app.running
    assert len(json.loads(scene_file.read_text())["chains"]) == n


@pytest.mark.slow
def test_a_failed_save_in_the_prompt_does_not_quit(app, tmp_path):
    app.scene_path = tmp_path / "missing" / "s.json"
    add_one(app)
    quit_window(app)
    press_button(app, app.quit.buttons["save"])
    assert app.running and app.message_is_error and "Not saved" in app.message
    assert app.undo.unsaved


@pytest.mark.slow
def test_save_in_the_prompt_during_the_stress_test_saves_the_users_scene(app, scene_file):
    add_one(app)
    n = len(app.scene.chains)
    press_button(app, app.panel.stress_button)
    quit_window(app)
    press_button(app, app.quit.buttons["save"])
    assert not app.running and len(json.loads(scene_file.read_text())["chains"]) == n


@pytest.mark.slow
def test_what_counts_as_unsaved(app, scene_file):
    assert not app.undo.unsaved  # as started
    frames(app, 30)
    assert not app.undo.unsaved  # the targets' own motion is no edit
    add_one(app)
    assert app.undo.unsaved
    ctrl(app, pygame.K_s)
    assert not app.undo.unsaved
    tap(app, pygame.K_r, unicode="r")  # the race changes nothing of the user's scene
    assert not app.undo.unsaved
    tap(app, pygame.K_r, unicode="r")
    chain = select_solver(app, "two-bone")
    target = chain.fields["target"].copy()
    drag(app, target, target + (30, 20))
    assert app.undo.unsaved
    ctrl(app, pygame.K_z)  # back to the saved scene
    assert not app.undo.unsaved
    choose(app, app.panel.preset_menu, "seeds")
    assert app.undo.unsaved
    ctrl(app, pygame.K_o)  # the file again
    assert not app.undo.unsaved
    quit_window(app)
    assert not app.running and not app.quit.asking


@pytest.mark.slow
def test_a_slider_drag_merged_into_the_saved_entry_counts_as_unsaved(app):
    select_solver(app, "ccd")
    slider = app.panel.params["bones"].slider
    centre = rect_centre(slider)
    move_mouse(app, centre)
    post(pygame.MOUSEBUTTONDOWN, pos=centre, button=1)  # one press: the two settings merge into one entry
    frames(app)
    app.apply("bones", 5)
    ctrl(app, pygame.K_s)
    assert not app.undo.unsaved
    app.apply("bones", 7)
    assert app.undo.unsaved
    post(pygame.MOUSEBUTTONUP, pos=centre, button=1)
    frames(app)


# --- the keys go back to the stage -----------------------------------------------------------------------------
@pytest.mark.slow
def test_after_a_click_on_a_check_box_space_pauses_and_the_box_stays(app):
    select_solver(app, "ccd")
    box = app.panel.pole_on
    before = box.get_state()
    click(app, rect_centre(box))
    clicked = box.get_state()
    assert clicked != before  # the click ticked it
    move_mouse(app, (200, 300))
    tap(app, pygame.K_SPACE, unicode=" ")
    assert app.paused and box.get_state() == clicked
    assert not app.ui.get_focus_set()


@pytest.mark.slow
def test_after_a_click_on_a_button_n_adds(app):
    click(app, rect_centre(app.panel.tabs["math"]))
    click(app, rect_centre(app.panel.tabs["chain"]))
    n = len(app.scene.chains)
    move_mouse(app, (150, 600))
    tap(app, pygame.K_n, unicode="n")
    assert len(app.scene.chains) == n + 1


# --- the Preset menu after undo and redo ------------------------------------------------------------------------
@pytest.mark.slow
def test_undo_and_redo_of_presets_put_the_preset_menu_right(app):
    choose(app, app.panel.preset_menu, "seeds")
    choose(app, app.panel.preset_menu, "crowd")
    assert app.panel.preset == "crowd" and app.panel.preset_menu.selected_option[0] == "crowd"
    ctrl(app, pygame.K_z)
    assert app.panel.preset == "seeds" and app.panel.preset_menu.selected_option[0] == "seeds"
    ctrl(app, pygame.K_z)
    assert app.panel.preset is None and app.panel.preset_menu.selected_option[0] == NO_PRESET
    tap(app, pygame.K_y, pygame.KMOD_CTRL)
    assert app.panel.preset == "seeds" and app.panel.preset_menu.selected_option[0] == "seeds"
