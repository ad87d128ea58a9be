"""The keyboard, once the panel has passed a key on: an arrow key held for steering (``app.held``), or a
key's command run. An auto-repeat runs only commands marked ``repeats``; while a text field is typed in,
keys reach neither, but Esc, which ends the typing. Space pauses when let go, unless a left drag panned
the view while it was down (``modes/view_mode.py``)."""

from __future__ import annotations

import pygame

from ikplayground.app import commands, keymap


def key_down(app, event) -> None:
    """A KEYDOWN: hold a steering key, or run the key's command."""
    repeat = event.key in app.keys_down
    app.keys_down.add(event.key)
    if app.panel.typing() and event.key != pygame.K_ESCAPE:  # Esc ends the typing (the command escape)
        return
    if event.key == keymap.PAUSE_KEY and not getattr(event, "mod", 0) & pygame.KMOD_CTRL:
        if not repeat:
            app.view.space_down()  # it pauses when let go, unless a drag pans meanwhile
        return
    steer = keymap.STEER_KEYS.get(event.key)
    if steer is not None:
        app.held.add(steer)
        return
    name = keymap.command_for(event.key, getattr(event, "mod", 0))
    if name is not None and (not repeat or commands.BY_NAME[name].repeats):
        app.key_repeat = repeat
        try:
            app.apply(name)
        finally:
            app.key_repeat = False


def key_up(app, event) -> None:
    """A KEYUP: the key is no longer down, nor held for steering."""
    app.keys_down.discard(event.key)
    if event.key == keymap.PAUSE_KEY and app.view.space_up():
        app.apply(keymap.command_for(event.key, 0) or "pause")
        return
    steer = keymap.STEER_KEYS.get(event.key)
    if steer is not None:
        app.held.discard(steer)
