"""Quitting without losing work: the window's close button and Ctrl+Q quit at once while the scene is as it was
last loaded or saved (``Undo.unsaved``); otherwise a small window asks Save / Discard / Cancel first.

Save saves to the scene file as Ctrl+S does (the stress test or the race ended first, for the user's scene),
then quits; a save that fails does not quit (the status line says why). Discard quits; Cancel, Esc and the
window's own close button go back to the scene. A run of ``max_frames`` frames ends by itself and never asks.
"""

from __future__ import annotations

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIWindow

from ikplayground.app.panel.param_widgets import make_label
from ikplayground.scene import shown_name

SIZE = (380, 150)  # px: the prompt window
CHOICES = ("save", "discard", "cancel")
LABELS = {"save": "Save", "discard": "Discard", "cancel": "Cancel"}


class QuitMode:
    """Whether ``app`` is asking before it quits, and the prompt window while it is."""

    def __init__(self, app):
        self.app = app
        self.window: UIWindow | None = None
        self.buttons: dict[str, UIButton] = {}

    @property
    def asking(self) -> bool:
        return self.window is not None

    def request(self) -> None:
        """Quit now when nothing would be lost, else ask (once: a second request keeps the one prompt)."""
        app = self.app
        if not app.undo.unsaved:
            app.running = False
            return
        if self.window is None:
            self._open()
        app.say("Quit? Unsaved changes")

    def _open(self) -> None:
        app = self.app
        w, h = app.screen.get_size()
        rect = pygame.Rect(0, 0, *SIZE)
        rect.center = app.stage_rect.center if app.stage_rect.width >= SIZE[0] else (w // 2, h // 2)
        window = UIWindow(rect, app.ui, "Quit ikplayground?", object_id="#quit_prompt", draggable=False)
        window.set_blocking(True)
        inner = window.get_container().get_rect()
        lines = ("The scene has changes not saved yet.", f"Save writes {shown_name(app.scene_path)}")
        for i, text in enumerate(lines):  # each cut to fit (a long file name)
            make_label(pygame.Rect(10, 6 + 24 * i, inner.width - 20, 24), text, app.ui, window, "#quit_text")
        bw = (inner.width - 40) // 3
        self.buttons = {c: UIButton(pygame.Rect(10 + i * (bw + 10), inner.height - 44, bw, 32), LABELS[c], app.ui,
                                    window, object_id=f"#quit_{c}")
                        for i, c in enumerate(CHOICES)}
        self.window = window

    def close(self) -> None:
        """Take the prompt away (nothing else changes)."""
        window, self.window = self.window, None
        self.buttons = {}
        if window is not None and window.alive():
            window.kill()

    def process(self, event) -> bool:
        """The prompt's part in ``event``: True when it took the event (a choice, or a key while it asks)."""
        if self.window is None:
            return False
        if event.type == pygame.KEYDOWN:  # the scene's keys wait until it is answered
            if event.key == pygame.K_ESCAPE:
                self.choose("cancel")
            return True
        element = getattr(event, "ui_element", None)
        if event.type == pygame_gui.UI_WINDOW_CLOSE and element is self.window:
            self.window = None  # its own close button: as Cancel
            self.buttons = {}
            self.app.say("Quit cancelled")
            return True
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            choice = next((c for c, b in self.buttons.items() if b is element), None)
            if choice is not None:
                self.choose(choice)
                return True
        return False

    def choose(self, choice: str) -> None:
        """Answer the prompt: "save" (then quit if saved), "discard" (quit) or "cancel"."""
        app = self.app
        self.close()
        if choice == "cancel":
            app.say("Quit cancelled")
            return
        if choice == "save":
            app.stress.stop()  # their scenes are not the user's: it comes back to be saved
            app.race.stop()
            app.apply("save")
            if app.undo.unsaved:  # not saved: the status line says why, and nothing is lost
                return
        app.running = False
