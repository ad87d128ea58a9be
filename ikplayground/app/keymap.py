"""The keymap: keys bound to the names of commands (``commands.py``); the F1 help shows the same bindings."""

from __future__ import annotations

from typing import NamedTuple

import pygame


class Binding(NamedTuple):
    """A key (with or without Ctrl, and Shift) bound to a command."""

    key: int
    ctrl: bool
    command: str  # a name in commands.COMMANDS
    keys: str  # how the help shows the key
    shift: bool = False  # True: only with Shift; False: with or without it, unless a Shift binding of the key takes it


KEYMAP: tuple[Binding, ...] = (
    Binding(pygame.K_n, False, "add_chain", "N"),
    Binding(pygame.K_BACKSPACE, False, "remove_last", "Backspace"),
    Binding(pygame.K_DELETE, False, "remove_selected", "Delete"),
    Binding(pygame.K_o, False, "add_obstacle", "O"),
    Binding(pygame.K_TAB, False, "select_next", "Tab"),
    Binding(pygame.K_m, False, "mirror", "M"),
    Binding(pygame.K_h, False, "flip", "H"),
    Binding(pygame.K_SPACE, False, "pause", "Space"),
    Binding(pygame.K_F1, False, "help", "F1"),
    Binding(pygame.K_F2, False, "panel", "F2"),
    Binding(pygame.K_l, True, "messages", "Ctrl+L"),
    Binding(pygame.K_ESCAPE, False, "escape", "Esc"),
    Binding(pygame.K_q, True, "quit", "Ctrl+Q"),
    Binding(pygame.K_s, True, "save", "Ctrl+S"),
    Binding(pygame.K_o, True, "load", "Ctrl+O"),
    Binding(pygame.K_g, False, "show_math", "G"),
    Binding(pygame.K_PERIOD, False, "step", ". (period)"),
    Binding(pygame.K_COMMA, False, "step_sweep", ", (comma)"),
    Binding(pygame.K_SLASH, False, "step_finish", "/ (slash)"),
    Binding(pygame.K_r, False, "race", "R"),
    Binding(pygame.K_t, False, "moving_target", "T"),
    Binding(pygame.K_r, True, "record", "Ctrl+R"),
    Binding(pygame.K_F12, False, "screenshot", "F12"),
    Binding(pygame.K_F9, False, "gif", "F9"),
    Binding(pygame.K_z, True, "undo", "Ctrl+Z"),
    Binding(pygame.K_z, True, "redo", "Ctrl+Shift+Z", shift=True),
    Binding(pygame.K_y, True, "redo", "Ctrl+Y"),
    Binding(pygame.K_EQUALS, False, "zoom_in", "+ (=)"),
    Binding(pygame.K_PLUS, False, "zoom_in", "+"),
    Binding(pygame.K_KP_PLUS, False, "zoom_in", "keypad +"),
    Binding(pygame.K_MINUS, False, "zoom_out", "-"),
    Binding(pygame.K_KP_MINUS, False, "zoom_out", "keypad -"),
    Binding(pygame.K_f, False, "fit_view", "F"),
    Binding(pygame.K_HOME, False, "home_view", "Home"),
    Binding(pygame.K_LEFTBRACKET, False, "timeline_back", "["),
    Binding(pygame.K_RIGHTBRACKET, False, "timeline_forward", "]"),
)
PAUSE_KEY = pygame.K_SPACE  # pauses when let go, so that Space held and a left drag pans instead

# held keys, read every step: they steer the selected (or only) snake, else walker, else rig
STEER_KEYS = {pygame.K_UP: "throttle", pygame.K_LEFT: "left", pygame.K_RIGHT: "right"}
STEER_HELP = ("Up / Left / Right", "snake: Up speeds up, Left/Right turn; walker or rig: Left/Right walk, Up runs "
              "(the selected one)")

MOUSE_HELP: tuple[tuple[str, str], ...] = (
    ("Drag a green target", "the chain reaches for it (the topmost target; the grab offset is kept)"),
    ("Click a chain", "select it; the panel shows its settings"),
    ("Drag a root", "move the whole chain"),
    ("Drag inside an obstacle / its rim", "move the circle / resize it (8 to 300 px); Delete over it removes it"),
    ("Drag a rig target's arrow tip", "turn the heading its bone holds (a foot flat on the ground)"),
    ("Drag a wedge's knob", "move that side of a joint's range (the status line gives it in degrees): a chain's "
     "with Show limits on (a free joint's one knob, at its seam, drags a range out of it), the selected rig's or "
     "two-bone arm's"),
    ("Mouse wheel on the stage", "zoom in / out about the mouse"),
    ("Right or middle drag, Space + drag", "pan the view (Space tapped alone pauses)"),
    ("Click an edge arrow", "centre the view on the chain out of view that it points at"),
)


def command_for(key: int, mod: int) -> str | None:
    """The command bound to ``key`` with modifiers ``mod``, or None: Ctrl must match; Shift picks a Shift
    binding where there is one (Ctrl+Shift+Z redo), else it is ignored."""
    ctrl = bool(mod & pygame.KMOD_CTRL)
    shift = bool(mod & pygame.KMOD_SHIFT)
    found = [b for b in KEYMAP if b.key == key and b.ctrl == ctrl and (b.shift == shift or not b.shift)]
    best = [b for b in found if b.shift == shift] or found
    return best[0].command if best else None


def keys_for(command: str) -> list[str]:
    """How the help shows the keys bound to ``command``."""
    return [b.keys for b in KEYMAP if b.command == command]
