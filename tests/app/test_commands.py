"""The one table of commands: keys, panel buttons and the help all name its commands.

A specification of ``ikplayground/app/commands.py`` and the two tables that
refer to it, ``keymap.py`` (keys) and ``buttons.py`` (panel buttons), checked
against the real App driven by posted events.
"""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from pygame_gui.elements import UIButton

from ikplayground.app import commands, keymap
from ikplayground.app.commands import BY_NAME, COMMANDS
from ikplayground.app.panel import buttons
from tests.app.conftest import check, choose, frames, key_down, key_up, press_button, select_solver, tap

CONTROLS = Path(__file__).resolve().parents[2] / "docs" / "controls.md"
KEYED = sorted({b.command for b in keymap.KEYMAP})
BUTTONED = sorted({b.command for b in buttons.BUTTONS})


@pytest.fixture
def seen(app):
    """Every (name, value) the App's observer hook reports, in order."""
    calls: list[tuple[str, object]] = []
    stop = app.commands.observe(lambda name, value: calls.append((name, value)))
    yield calls
    stop()


# --- the tables ---------------------------------------------------------------------------
def test_every_command_has_a_unique_name_and_a_line_of_help():
    names = [c.name for c in COMMANDS]
    assert len(names) == len(set(names)) == len(BY_NAME)
    for c in COMMANDS:
        assert c.help and "\n" not in c.help and callable(c.run), c.name


def test_every_key_binding_names_a_command_of_the_table():
    for b in keymap.KEYMAP:
        assert b.command in BY_NAME, f"{b.keys} is bound to {b.command!r}, which is not a command"


def test_no_key_is_bound_twice():
    keys = [(b.key, b.ctrl, b.shift) for b in keymap.KEYMAP]
    assert len(keys) == len(set(keys))


@pytest.mark.slow
def test_every_panel_button_names_a_command_of_the_table(app):
    for spec in buttons.BUTTONS:
        assert spec.command in BY_NAME, f"the {spec.name} button runs {spec.command!r}, which is not a command"
        assert isinstance(getattr(app.panel, spec.attr), UIButton), spec.attr


@pytest.mark.slow
@pytest.mark.parametrize("spec", buttons.BUTTONS, ids=lambda b: b.name)
def test_pressing_a_button_runs_its_command(app, seen, spec):
    press_button(app, getattr(app.panel, spec.attr))
    value = app.panel.path_entry.get_text() if spec.command in ("save", "load") else \
        app.panel.keep_page.timeline.entry.get_text() if spec.command == "timeline_open" else None
    assert seen[0] == (spec.command, value)


# --- the help -----------------------------------------------------------------------------
def test_the_help_lists_every_command_that_has_a_key_or_a_button():
    rows = commands.help_rows()
    for name in sorted(set(KEYED) | set(BUTTONED)):
        command = BY_NAME[name]
        how = [keys for keys, text in rows if text == command.help]
        assert len(how) == 1, f"{name}: the help has {len(how)} rows for it"
        for keys in keymap.keys_for(name) + buttons.names_for(name):
            assert keys in how[0], f"{name}: the help row {how[0]!r} does not show {keys}"


def test_the_help_lists_only_the_mouse_the_steering_keys_and_commands():
    rows = commands.help_rows()
    helps = {c.help for c in COMMANDS}
    others = [row for row in rows if row[1] not in helps]
    assert others == list(keymap.MOUSE_HELP) + [keymap.STEER_HELP]


def test_the_controls_page_table_is_the_help():
    text = CONTROLS.read_text(encoding="utf-8")
    assert commands.controls_table() in text, (
        "docs/controls.md's controls table differs from the command table; put this in it:\n"
        + commands.controls_table())


# --- running commands ----------------------------------------------------------------------
@pytest.mark.slow
def test_the_observer_sees_each_command_once_with_its_value(app, seen):
    tap(app, pygame.K_n, unicode="n")
    assert seen == [("add_chain", None)]
    seen.clear()
    choose(app, app.panel.new_chain, "FABRIK")
    assert seen == [("new_solver", "fabrik")]
    seen.clear()
    press_button(app, app.panel.save_button)
    assert seen == [("save", app.panel.path_entry.get_text())]
    seen.clear()
    tap(app, pygame.K_s, pygame.KMOD_CTRL, "\x13")
    assert seen == [("save", None)]


@pytest.mark.slow
def test_an_observer_that_stopped_sees_nothing_more(app):
    calls = []
    stop = app.commands.observe(lambda name, value: calls.append(name))
    tap(app, pygame.K_TAB)
    stop()
    tap(app, pygame.K_TAB)
    assert calls == ["select_next"]


@pytest.mark.slow
def test_the_observer_sees_a_command_before_it_runs(app):
    counts = []
    app.commands.observe(lambda name, value: counts.append(len(app.scene.chains)))
    n = len(app.scene.chains)
    tap(app, pygame.K_BACKSPACE)
    assert counts == [n] and len(app.scene.chains) == n - 1


@pytest.mark.slow
@pytest.mark.parametrize("binding", keymap.KEYMAP, ids=lambda b: b.keys)
def test_a_held_key_repeats_only_the_commands_marked_repeating(app, seen, binding):
    mod = (pygame.KMOD_CTRL if binding.ctrl else pygame.KMOD_NONE) | (pygame.KMOD_SHIFT if binding.shift else 0)
    for _ in range(3):  # a press and two auto-repeats: no KEYUP between them
        key_down(binding.key, mod)
    key_up(binding.key, mod)
    frames(app)
    app.running = True  # Ctrl+Q quits (nothing is unsaved)
    runs = [name for name, _ in seen if name == binding.command]
    assert len(runs) == (3 if BY_NAME[binding.command].repeats else 1)


def test_the_mirror_key_flips_and_the_mirror_box_sets_through_one_command(app, seen):
    arm = select_solver(app, "two-bone")
    seen.clear()
    before = arm.mirror
    tap(app, pygame.K_m, unicode="m")
    tap(app, pygame.K_m, unicode="m")
    assert arm.mirror == before
    check(app, app.panel.mirror, True)
    check(app, app.panel.mirror, True)
    assert arm.mirror is True
    assert seen == [("mirror", None), ("mirror", None), ("mirror", True), ("mirror", True)]
