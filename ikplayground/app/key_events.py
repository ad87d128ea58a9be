"""The keyboard, once the panel has passed a key on: an arrow key held for steering, or a key's command run.

A press of an arrow key (``keymap.STEER_KEYS``) holds it in ``app.held`` until
its release (the scene's step steers with it); any other key runs the command
``keymap.command_for`` gives it through ``app.apply``. A key's auto-repeat (a
press while it is down) runs only the commands marked ``repeats`` in
commands.py, with ``app.key_repeat`` True meanwhile. While a text field has the
keyboard, keys reach neither.
"""

from __future__ import annotations

from ikplayground.app import commands, keymap


def key_down(app, event) -> None:
    """A KEYDOWN ``event`` on the App ``app``: hold a steering key, or run the key's command."""
    repeat = event.key in app.keys_down
    app.keys_down.add(event.key)
    if app.panel.typing():
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
    """A KEYUP ``event``: the key is no longer down, nor held for steering."""
    app.keys_down.discard(event.key)
    steer = keymap.STEER_KEYS.get(event.key)
    if steer is not None:
        app.held.discard(steer)
