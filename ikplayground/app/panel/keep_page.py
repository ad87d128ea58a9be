"""The panel's Keep page: record, export, undo and redo, flip, screenshot and GIF capture (``KEEP_ROWS`` of
``buttons.py``'s specs), the timeline (``timeline_page.py``), then the latest edits of the undo history."""

from __future__ import annotations

import pygame
import pygame_gui
from pygame_gui.elements import UILabel

from ikplayground.app.panel import buttons
from ikplayground.app.panel.param_widgets import PAD, ROW, fit, make_label, show_all
from ikplayground.app.panel.timeline_page import TimelineSection

# each row: the panel's buttons ("..._button") and boxes ("..._box") of buttons.py, side by side
KEEP_ROWS: tuple[tuple[str, ...], ...] = (
    ("record_button", "export_button"),
    ("export_selected_box",),
    ("spine_button",),  # every chain of the last recording, as a Spine skeleton
    ("undo_button", "redo_button"),
    ("flip_button", "screenshot_button"),  # the exact mirror flip (H), F12
    ("gif_button",),  # F9: the window to an animated GIF
)
NO_RECORDING = "No recording yet: Record (Ctrl+R), then Export"
HISTORY_LINES = 5  # edits the page lists: the redo side (dim) above, then the undo side, the next undo first
LINE = 20


class KeepPage:
    """The Keep page's widgets, from ``y`` down, ``inner`` px wide; each button or box is an attribute of ``panel``."""

    def __init__(self, panel, y: int, inner: int, wide: bool):
        self.wide = wide
        m, box = panel.manager, panel.box
        self.hint = make_label(pygame.Rect(PAD, y, inner, 20), NO_RECORDING, m, box,
                               pygame_gui.core.ObjectID("#keep_hint", "@hint"))
        self.widgets: list[pygame_gui.core.UIElement] = [self.hint]
        self.hint_text = NO_RECORDING
        y += 26
        for row in KEEP_ROWS:
            self.widgets += buttons.make_row(panel, row, PAD, y, inner, wide)
            y += ROW + 4
        y += 4
        self.timeline = TimelineSection(panel, y, inner, wide)  # open a recording, play, scrub, step, loop
        self.widgets += self.timeline.widgets
        y = self.timeline.bottom + 2
        self.widgets.append(UILabel(pygame.Rect(PAD, y, inner, 20), "HISTORY", m, box, object_id="#section"))
        y += 22
        self.lines, self.dim_lines = ([make_label(pygame.Rect(PAD, y + i * LINE, inner, LINE), "", m, box,
                                                  pygame_gui.core.ObjectID(f"#history{kind}_{i}", style))
                                       for i in range(HISTORY_LINES)]
                                      for kind, style in (("", "@param_label"), ("_redo", "@hint")))
        self.widgets += self.lines + self.dim_lines
        self.shown: list[tuple[str, bool]] | None = None  # what the lines show now (set only when it changes)
        self.bottom = y + HISTORY_LINES * LINE + 8

    def history_lines(self, history) -> list[tuple[str, bool]]:
        """(text, is a redo) lines for ``history``: the redo side first, then the undo side, the next undo first."""
        done, undone = history.recent(HISTORY_LINES)
        if not done and not undone:
            return [("Nothing to undo yet: your edits will be listed here", True)]
        redo = [(f"  redo: {label}", True) for label in undone[: HISTORY_LINES // 2][::-1]]
        undo = [(("Ctrl+Z: " if i == 0 else "  ") + label, False) for i, label in enumerate(done)]
        return (redo + undo)[:HISTORY_LINES]

    def update(self, history, recording: str = "") -> None:
        """List the latest edits under ``recording``'s line while the page is up."""
        if not self.lines[0].visible and self.shown is not None:
            return
        hint = recording or NO_RECORDING
        if hint != self.hint_text:
            self.hint_text = hint
            fit(self.hint, hint)
        lines = self.history_lines(history)
        if lines == self.shown:
            return
        self.shown = lines
        for i, (bright, dim) in enumerate(zip(self.lines, self.dim_lines)):
            text, is_redo = lines[i] if i < len(lines) else ("", False)
            fit(bright, "" if is_redo else text)
            fit(dim, text if is_redo else "")

    def set_visible(self, visible: bool) -> None:
        show_all(self.widgets, visible)
