"""The keymap: each key (with or without Ctrl) finds its command."""

import pygame

from ikplayground.app import keymap


def test_every_binding_is_found_by_the_handler_lookup():
    for b in keymap.KEYMAP:
        mod = pygame.KMOD_CTRL if b.ctrl else pygame.KMOD_NONE
        assert keymap.command_for(b.key, mod) == b.command


def test_ctrl_and_plain_keys_are_different_bindings():
    assert keymap.command_for(pygame.K_s, pygame.KMOD_NONE) is None
    assert keymap.command_for(pygame.K_s, pygame.KMOD_LCTRL) == "save"
