"""The keymap: each key (with or without Ctrl, with or without Shift) finds its command."""

import pygame

from ikplayground.app import keymap


def test_every_binding_is_found_by_the_handler_lookup():
    for b in keymap.KEYMAP:
        mod = (pygame.KMOD_CTRL if b.ctrl else pygame.KMOD_NONE) | (pygame.KMOD_SHIFT if b.shift else 0)
        assert keymap.command_for(b.key, mod) == b.command


def test_ctrl_and_plain_keys_are_different_bindings():
    assert keymap.command_for(pygame.K_s, pygame.KMOD_NONE) is None
    assert keymap.command_for(pygame.K_s, pygame.KMOD_LCTRL) == "save"


def test_shift_tells_redo_from_undo_and_is_ignored_where_no_binding_needs_it():
    assert keymap.command_for(pygame.K_z, pygame.KMOD_CTRL) == "undo"
    assert keymap.command_for(pygame.K_z, pygame.KMOD_LCTRL | pygame.KMOD_LSHIFT) == "redo"
    assert keymap.command_for(pygame.K_z, pygame.KMOD_RCTRL | pygame.KMOD_RSHIFT) == "redo"
    assert keymap.command_for(pygame.K_y, pygame.KMOD_CTRL) == "redo"
    assert keymap.command_for(pygame.K_z, pygame.KMOD_NONE) is None
    assert keymap.command_for(pygame.K_z, pygame.KMOD_SHIFT) is None
    assert keymap.command_for(pygame.K_s, pygame.KMOD_CTRL | pygame.KMOD_SHIFT) == "save"
    assert keymap.command_for(pygame.K_n, pygame.KMOD_SHIFT) == "add_chain"


def test_the_help_shows_ctrl_shift_z():
    assert keymap.keys_for("redo") == ["Ctrl+Shift+Z", "Ctrl+Y"]
    assert keymap.keys_for("undo") == ["Ctrl+Z"]
