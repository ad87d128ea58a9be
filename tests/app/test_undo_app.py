"""Undo and redo in the real App, driven by posted events: Ctrl+Z, Ctrl+Shift+Z, Ctrl+Y, the Keep page's
Undo and Redo buttons, and every kind of edit they take back (settings, the solver, adding and removing,
drags of targets, roots and poles, the joint-space map, loads, presets and the race)."""

from __future__ import annotations

import json

import numpy as np
import pygame
import pytest

from ikplayground.scene.edit.history import MAX_ENTRIES
from tests.app.conftest import (check, choose, click, drag, frames, mouse_down, mouse_up, move_mouse, press_button,
                                rect_centre, select_solver, slide, tap)

CTRL, SHIFT = pygame.KMOD_CTRL, pygame.KMOD_SHIFT


def undo(app):
    tap(app, pygame.K_z, CTRL, "\x1a")


def redo(app):
    tap(app, pygame.K_z, CTRL | SHIFT, "\x1a")


def redo_y(app):
    tap(app, pygame.K_y, CTRL, "\x19")


def looks(chain) -> dict:
    """A chain's solver, settings (as the panel reads them) and anchor: what an undo must give back."""
    from ikplayground.scene.core.settings import SETTINGS
    return {"solver": chain.solver, "anchor": tuple(chain.anchor.tolist()),
            **{s.name: s.read(chain) for s in SETTINGS if s.applies(chain.solver)}}


def scene_looks(app) -> list:
    return [(c, looks(c)) for c in app.scene.chains]


# --- keys, buttons, the status line ------------------------------------------------------------
@pytest.mark.slow
def test_ctrl_z_undoes_a_bone_count_and_ctrl_shift_z_redoes_it(app):
    ccd = select_solver(app, "ccd")
    slide(app, "bones", 4)
    new = app.scene.selected
    assert new.bones == 4
    undo(app)
    assert app.message == f"Undid: bone count 7 → 4 on CCD #{ccd.number}"
    assert app.scene.selected is ccd and ccd in app.scene.chains and ccd.bones == 7
    assert app.panel.params["bones"].read() == 7  # the panel shows the chain as it is again
    redo(app)
    assert app.message == f"Redid: bone count 7 → 4 on CCD #{ccd.number}"
    assert app.scene.selected is new and new.bones == 4 and app.panel.params["bones"].read() == 4


@pytest.mark.slow
def test_ctrl_y_redoes_too(app):
    select_solver(app, "ccd")
    slide(app, "iterations", 42)
    undo(app)
    assert app.scene.selected.iterations == 10
    redo_y(app)
    assert app.scene.selected.iterations == 42 and app.message.startswith("Redid: iterations 10 → 42")


@pytest.mark.slow
def test_nothing_to_undo_and_nothing_to_redo_are_said(app):
    undo(app)
    assert app.message == "Nothing to undo"
    redo(app)
    assert app.message == "Nothing to redo"


@pytest.mark.slow
def test_the_keep_pages_buttons_undo_and_redo(app):
    arm = select_solver(app, "two-bone")
    tap(app, pygame.K_m, unicode="m")
    assert arm.mirror
    press_button(app, app.panel.tabs["keep"])
    click(app, rect_centre(app.panel.undo_button))
    frames(app)  # the button's pressed event comes the frame after the release
    assert not arm.mirror and app.message == f"Undid: mirror bend off → on on two-bone #{arm.number}"
    click(app, rect_centre(app.panel.redo_button))
    frames(app)
    assert arm.mirror and app.message.startswith("Redid: mirror bend")


@pytest.mark.slow
def test_a_held_ctrl_z_undoes_step_after_step(app):
    select_solver(app, "ccd")
    for k in (20, 30, 40):
        slide(app, "iterations", k)
    for _ in range(3):
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_z, mod=CTRL, unicode="", scancode=0))
    frames(app)
    assert app.scene.selected.iterations == 10


@pytest.mark.slow
def test_at_least_200_steps_are_kept(app):
    ccd = select_solver(app, "ccd")
    for k in range(1, 221):
        app.apply("iterations", 10 + k)
    assert ccd.iterations == 230 and len(app.history) == 220 <= MAX_ENTRIES
    for _ in range(220):
        app.apply("undo")
    assert ccd.iterations == 10
    app.apply("undo")
    assert app.message == "Nothing to undo"


# --- settings ------------------------------------------------------------------------------------
@pytest.mark.slow
def test_every_kind_of_panel_setting_is_undone(app):
    ccd = select_solver(app, "ccd")
    start = looks(ccd)
    check(app, app.panel.setting_rows.boxes["rate_on"], False)  # a flag
    slide(app, "joint_limit", 90)  # a number
    slide(app, "iterations", 3)  # a whole number
    choose(app, app.panel.setting_rows.menus["skin"].menu, "lines")  # a choice
    assert len(app.history) == 4
    for _ in range(4):
        undo(app)
    assert looks(ccd) == start


@pytest.mark.slow
def test_a_solver_change_is_undone_in_place_or_by_the_old_chain(app):
    ccd = select_solver(app, "ccd")
    start = scene_looks(app)
    choose(app, app.panel.solver, "FABRIK")  # in place
    assert ccd.solver == "fabrik"
    choose(app, app.panel.solver, "snake")  # a new chain
    assert app.scene.selected.is_snake
    undo(app)
    assert app.scene.selected is ccd and ccd.solver == "fabrik"
    assert app.message == f"Undid: solver FABRIK → snake on FABRIK #{ccd.number}"
    undo(app)
    assert app.message == f"Undid: solver CCD → FABRIK on CCD #{ccd.number}"
    assert scene_looks(app) == start
    assert app.panel.solver.selected_option[0] == "CCD"


@pytest.mark.slow
def test_a_slider_dragged_with_the_mouse_is_one_entry(app, monkeypatch):
    ccd = select_solver(app, "ccd")
    at = [(0, 0)]  # pygame_gui reads the cursor, which posted motions do not move (the dummy driver)
    monkeypatch.setattr(pygame.mouse, "get_pos", lambda: at[0])
    handle = app.panel.params["bone_length"].slider.sliding_button.get_abs_rect().center
    at[0] = handle
    move_mouse(app, handle)
    mouse_down(app, handle)
    for dx in (10, 20, 30, 40):
        at[0] = (handle[0] + dx, handle[1])
        move_mouse(app, at[0], buttons=(1, 0, 0), rel=(10, 0))
    mouse_up(app, at[0])
    frames(app, 2)  # the slider's last move arrives after the release
    assert ccd.fields["lengths"][0] > 50.0
    assert app.history.labels() == [f"bone length 36 px → {ccd.fields['lengths'][0]:.0f} px on CCD #{ccd.number}"]
    undo(app)
    np.testing.assert_array_equal(ccd.fields["lengths"], 36.0)


@pytest.mark.slow
def test_two_presses_on_a_slider_are_two_entries(app):
    ccd = select_solver(app, "ccd")
    slider = app.panel.params["iterations"].slider
    for k in (20, 30):  # each a press, and the moved event it makes
        mouse_down(app, rect_centre(slider))
        slide(app, "iterations", k)
        mouse_up(app, rect_centre(slider))
    assert ccd.iterations == 30 and len(app.history) == 2
    undo(app)
    assert ccd.iterations == 20


@pytest.mark.slow
def test_the_mirror_key_is_an_edit(app):
    arm = select_solver(app, "two-bone")
    tap(app, pygame.K_m, unicode="m")
    tap(app, pygame.K_m, unicode="m")
    assert len(app.history) == 2 and not arm.mirror
    undo(app)
    assert arm.mirror


# --- add, remove, delete -------------------------------------------------------------------------
@pytest.mark.slow
def test_n_is_undone_and_redone(app):
    start = scene_looks(app)
    move_mouse(app, (300, 300))
    tap(app, pygame.K_n, unicode="n")
    added = app.scene.chains[-1]
    undo(app)
    assert app.message == f"Undid: add CCD #{added.number}" and added not in app.scene.chains
    assert scene_looks(app) == start
    redo(app)
    assert app.scene.chains[-1] is added and app.scene.selected is added


@pytest.mark.slow
@pytest.mark.parametrize("how", ["backspace", "delete", "button"])
def test_a_removed_chain_comes_back_at_its_place(app, how):
    order = list(app.scene.chains)
    if how == "backspace":
        tap(app, pygame.K_BACKSPACE)
        gone = order[-1]
    else:
        gone = select_solver(app, "fabrik")
        if how == "delete":
            tap(app, pygame.K_DELETE)
        else:
            press_button(app, app.panel.remove_button)
    assert gone not in app.scene.chains
    frames(app, 5)
    undo(app)
    assert app.scene.chains == order and app.scene.selected is gone
    assert app.message.startswith("Undid: remove")
    redo(app)
    assert gone not in app.scene.chains


# --- drags -------------------------------------------------------------------------------------
@pytest.mark.slow
def test_a_target_drag_is_one_entry_and_undo_puts_it_back(app):
    ccd = select_solver(app, "ccd")
    start = ccd.fields["target"].copy()
    drag(app, start, start + (-80, -40), steps=8)
    assert len(app.history) == 1
    moved = ccd.fields["target"].copy()
    undo(app)
    assert app.message == f"Undid: target move on CCD #{ccd.number}"
    np.testing.assert_array_equal(ccd.fields["target"], start)
    redo(app)
    np.testing.assert_array_equal(ccd.fields["target"], moved)


@pytest.mark.slow
@pytest.mark.parametrize("solver", ["dls", "snake"])
def test_a_root_drag_is_undone(app, solver):
    chain = select_solver(app, solver)
    anchor = chain.anchor.copy()
    grip = chain.fields["points"][0] if chain.is_snake else anchor  # any node of a snake
    drag(app, grip, grip + (-60, -50))
    assert not np.allclose(chain.anchor, anchor)
    undo(app)
    assert app.message == f"Undid: root move on {('DLS' if solver == 'dls' else 'snake')} #{chain.number}"
    np.testing.assert_allclose(chain.anchor, anchor, atol=1e-9)


@pytest.mark.slow
def test_a_pole_drag_is_undone(app):
    arm = select_solver(app, "two-bone")
    check(app, app.panel.setting_rows.boxes["pole_on"], True)
    pole = arm.pole.copy()
    drag(app, pole, pole + (30, 60))
    assert len(app.history) == 2
    undo(app)
    np.testing.assert_array_equal(arm.pole, pole)
    undo(app)
    assert arm.pole is None


@pytest.mark.slow
def test_a_click_that_moves_nothing_is_no_entry(app):
    ccd = select_solver(app, "ccd")
    click(app, ccd.fields["target"])
    assert len(app.history) == 0


@pytest.mark.slow
def test_ctrl_z_during_a_drag_ends_it_and_undoes_it(app):
    ccd = select_solver(app, "ccd")
    start = ccd.fields["target"].copy()
    drag(app, start, start + (50, -50), release=False)
    undo(app)
    assert app.drag is None
    np.testing.assert_array_equal(ccd.fields["target"], start)


# --- the joint-space map ------------------------------------------------------------------------
@pytest.mark.slow
def test_a_press_and_drag_on_the_map_is_one_entry(app):
    arm = select_solver(app, "two-bone")
    press_button(app, app.panel.tabs["math"])
    frames(app, 2)
    tap(app, pygame.K_SPACE)  # paused: the pose stays as the map set it
    angles = arm.fields["angles"].copy()
    page = app.panel.math_page
    rect, at = page.card.map_rect, page.image.rect
    a = (at.x + rect.x + rect.width // 4, at.y + rect.y + rect.height // 3)
    drag(app, a, (a[0] + 30, a[1] + 20), steps=4)
    assert not np.allclose(arm.fields["angles"], angles)
    assert app.history.labels() == [f"map pose on two-bone #{arm.number}"]
    undo(app)
    np.testing.assert_array_equal(arm.fields["angles"], angles)


# --- loads, presets, saves ------------------------------------------------------------------------
@pytest.mark.slow
def test_through_save_and_load(app, scene_file):
    """Edit, save, load (an entry): undoing the load gives the edited scene, undoing the edit the first."""
    first = scene_looks(app)
    ccd = select_solver(app, "ccd")
    slide(app, "bones", 5)
    edited = scene_looks(app)
    tap(app, pygame.K_s, CTRL, "\x13")
    assert scene_file.exists()
    tap(app, pygame.K_o, CTRL, "\x0f")
    assert app.message.startswith("Loaded")
    loaded = app.scene
    undo(app)
    assert app.message == f"Undid: load of {scene_file.name}"
    assert scene_looks(app) == edited
    undo(app)
    assert app.message == f"Undid: bone count 7 → 5 on CCD #{ccd.number}"
    assert scene_looks(app) == first
    redo(app)
    redo(app)
    assert app.scene is loaded


@pytest.mark.slow
def test_undoing_a_load_restores_the_scene_file_path(app, scene_file, tmp_path):
    other = tmp_path / "other.json"
    tap(app, pygame.K_s, CTRL, "\x13")
    data = json.loads(scene_file.read_text())
    other.write_text(json.dumps(data))
    app.panel.path_entry.set_text(str(other))
    press_button(app, app.panel.load_button)
    assert app.scene_path == other
    undo(app)
    assert app.scene_path == scene_file and app.panel.path_entry.get_text() == str(scene_file)
    redo(app)
    assert app.scene_path == other


@pytest.mark.slow
def test_a_preset_is_undone_and_the_menu_shows_it(app):
    mine = app.scene
    app.apply("preset", "snakes")
    assert app.panel.preset == "snakes"
    undo(app)
    assert app.scene is mine and app.panel.preset is None
    assert app.message == "Undid: preset snakes"
    redo(app)
    assert app.panel.preset == "snakes" and app.scene is not mine


@pytest.mark.slow
def test_a_bad_file_is_no_entry(app, scene_file):
    scene_file.write_text("{not json")
    tap(app, pygame.K_o, CTRL, "\x0f")
    assert app.message_is_error and len(app.history) == 0


# --- the race and the stress test ---------------------------------------------------------------
def test_the_race_is_an_entry_undone_by_ctrl_z(app):
    mine = app.scene
    select_solver(app, "ccd")
    tap(app, pygame.K_r)
    assert app.race.on
    target = app.scene.chains[0].fields["target"].copy()
    drag(app, target, target + (20, 20))  # edits in the race are not recorded
    assert app.history.labels() == ["race"]
    undo(app)
    assert not app.race.on and app.scene is mine and app.message == "Undid: race"
    redo(app)
    assert app.race.on and app.message == "Redid: race"
    undo(app)
    assert app.scene is mine


def test_a_race_ended_by_r_leaves_no_entry(app):
    ccd = select_solver(app, "ccd")
    slide(app, "iterations", 30)
    tap(app, pygame.K_r)
    tap(app, pygame.K_r)
    assert not app.race.on
    undo(app)
    assert ccd.iterations == 10 and not app.race.on


@pytest.mark.slow
def test_undo_is_off_during_the_stress_test(app):
    select_solver(app, "ccd")
    slide(app, "iterations", 30)
    press_button(app, app.panel.stress_button)
    assert app.stress.on
    undo(app)
    assert app.stress.on and app.message.startswith("Undo is off during the stress test")
    app.apply("bones", 3)  # the stress scene's edits are not recorded
    assert app.history.labels()[-1].startswith("iterations")


def test_a_load_during_the_stress_test_is_undone_to_your_scene(app, scene_file):
    mine = app.scene
    tap(app, pygame.K_s, CTRL, "\x13")
    press_button(app, app.panel.stress_button)
    tap(app, pygame.K_o, CTRL, "\x0f")
    assert not app.stress.on
    undo(app)
    assert app.scene is mine


# --- found while building it -------------------------------------------------------------------
def test_undo_selects_the_chain_it_changed(app):
    ccd = select_solver(app, "ccd")
    slide(app, "tolerance", 4.0)
    arm = select_solver(app, "two-bone")
    assert app.scene.selected is arm
    undo(app)
    assert app.scene.selected is ccd and app.panel.params["tolerance"].read() == pytest.approx(0.5, abs=0.05)


@pytest.mark.slow
def test_an_edit_after_an_undo_clears_the_redo_side(app):
    select_solver(app, "ccd")
    slide(app, "iterations", 20)
    undo(app)
    slide(app, "iterations", 30)
    redo(app)
    assert app.message == "Nothing to redo" and app.scene.selected.iterations == 30


def test_another_feature_records_an_edit_of_its_own(app):
    from ikplayground.scene.edit.history import Edit
    arm = select_solver(app, "two-bone")
    index = app.scene.chains.index(arm)

    def flip():
        chain = app.scene.chains[index]
        chain.mirror = not chain.mirror
        return chain

    flip()
    assert app.undo.recording
    app.undo.record(Edit(f"mirror flip on two-bone #{arm.number}", undo=flip, redo=flip))
    select_solver(app, "ccd")
    undo(app)
    assert not arm.mirror and app.scene.selected is arm
    assert app.message == f"Undid: mirror flip on two-bone #{arm.number}"
    redo(app)
    assert arm.mirror


@pytest.mark.slow
def test_the_keep_page_lists_the_edits_the_next_undo_first_and_what_redo_brings_back(app):
    from ikplayground.app.panel.keep_page import HISTORY_LINES

    press_button(app, app.panel.tabs["keep"])
    page = app.panel.keep_page
    assert page.lines[0].visible and "Nothing to undo yet" in page.dim_lines[0].text
    tap(app, pygame.K_n)
    tap(app, pygame.K_n)
    newest, older = app.scene.chains[-1], app.scene.chains[-2]
    assert page.lines[0].text == f"Ctrl+Z: add CCD #{newest.number}"
    assert page.lines[1].text == f"  add CCD #{older.number}"
    undo(app)
    assert page.dim_lines[0].text.startswith("  redo: ")  # the undone add, dim, above
    assert page.lines[1].text.startswith("Ctrl+Z: ")  # the other add is next to undo
    for _ in range(HISTORY_LINES + 3):
        tap(app, pygame.K_n)
    shown = [line.text for line in page.lines if line.text]
    assert len(shown) == HISTORY_LINES and shown[0].startswith("Ctrl+Z: ")
