"""The one keymap: named actions bound to keys.

The App's input handler looks keys up here and the help overlay (F1) and the
README's controls table print the same rows, so what the help says is what the
keys do.
"""

from __future__ import annotations

from typing import NamedTuple

import pygame


class Binding(NamedTuple):
    """A key (with modifier) bound to a named action."""

    key: int
    ctrl: bool
    action: str
    keys: str  # how the help shows the key
    help: str


KEYMAP: tuple[Binding, ...] = (
    Binding(pygame.K_n, False, "add_chain", "N", "add a chain at the mouse; held, more at free spots"),
    Binding(pygame.K_BACKSPACE, False, "remove_last", "Backspace", "remove the chain added last"),
    Binding(pygame.K_DELETE, False, "remove_selected", "Delete", "remove the selected chain"),
    Binding(pygame.K_TAB, False, "select_next", "Tab", "select the next chain"),
    Binding(pygame.K_m, False, "mirror", "M", "mirror the selected two-bone chain's bend"),
    Binding(pygame.K_SPACE, False, "pause", "Space", "pause / resume"),
    Binding(pygame.K_F1, False, "help", "F1", "show / hide this help"),
    Binding(pygame.K_F2, False, "panel", "F2", "hide / show the panel (more room for the stage)"),
    Binding(pygame.K_ESCAPE, False, "escape", "Esc", "close the help, or quit"),
    Binding(pygame.K_s, True, "save", "Ctrl+S", "save the scene to the scene file"),
    Binding(pygame.K_o, True, "load", "Ctrl+O", "load the scene file again"),
)

# Held keys, read every step: they steer the selected snake (or the only one).
STEER_KEYS = {pygame.K_UP: "throttle", pygame.K_LEFT: "left", pygame.K_RIGHT: "right"}
STEER_HELP = ("Up / Left / Right", "drive the snake: Up accelerates, Left/Right turn")

MOUSE_HELP: tuple[tuple[str, str], ...] = (
    ("Drag a green target", "the chain reaches for it"),
    ("Click a chain", "select it; the panel shows its settings"),
    ("Drag a root", "move the whole chain"),
)


def action_for(key: int, mod: int) -> str | None:
    """The action bound to ``key`` with modifiers ``mod`` (pygame's KMOD bits), or None."""
    ctrl = bool(mod & pygame.KMOD_CTRL)
    for b in KEYMAP:
        if b.key == key and b.ctrl == ctrl:
            return b.action
    return None


def help_rows() -> list[tuple[str, str]]:
    """(keys, what they do) rows for the help overlay and the README, mouse first."""
    rows = list(MOUSE_HELP)
    rows += [(b.keys, b.help) for b in KEYMAP]
    rows.insert(len(MOUSE_HELP) + 4, STEER_HELP)
    return rows
