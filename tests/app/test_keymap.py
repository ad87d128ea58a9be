"""The one keymap: the help overlay, the input handler and the README agree."""

from pathlib import Path

import pygame

from ikplayground.app import keymap

README = Path(__file__).resolve().parents[2] / "README.md"


def test_every_binding_is_found_by_the_handler_lookup():
    for b in keymap.KEYMAP:
        mod = pygame.KMOD_CTRL if b.ctrl else pygame.KMOD_NONE
        assert keymap.action_for(b.key, mod) == b.action


def test_ctrl_and_plain_keys_are_different_bindings():
    assert keymap.action_for(pygame.K_s, pygame.KMOD_NONE) is None
    assert keymap.action_for(pygame.K_s, pygame.KMOD_LCTRL) == "save"


def test_the_help_lists_every_binding_and_the_steering_keys():
    rows = dict(keymap.help_rows())
    for b in keymap.KEYMAP:
        assert rows[b.keys] == b.help
    assert keymap.STEER_HELP[0] in rows


def test_the_readme_controls_table_lists_every_key_of_the_keymap():
    text = README.read_text(encoding="utf-8")
    table = [line for line in text.splitlines() if line.startswith("| ")]
    for keys, _ in keymap.help_rows():
        assert any(line.startswith(f"| {keys} |") for line in table), keys
