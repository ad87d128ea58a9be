"""The Keep page's timeline section: a recording's file box and Open, Load last / Play / Close, the scrub slider,
where the playhead is, [ ] and the loop's ends, onion skins. Its buttons and box are ``buttons.py``'s specs (each
a command of the table); the slider and the box's Enter are :meth:`TimelineSection.command_of`'s."""

from __future__ import annotations

import pygame
import pygame_gui
from pygame_gui.elements import UIHorizontalSlider, UILabel

from ikplayground.app.panel import buttons
from ikplayground.app.panel.param_widgets import PAD, ROW, enable_all, fit, make_label, set_tip
from ikplayground.app.panel.path_entry import PATH_NOTICE, PathEntry

TIMELINE_ROWS: tuple[tuple[str, ...], ...] = (  # under the file box and above the slider, then under the slider
    ("timeline_last_button", "timeline_play_button", "timeline_close_button"),
)
STEP_ROWS: tuple[tuple[str, ...], ...] = (
    ("timeline_back_button", "timeline_forward_button"),
    ("loop_from_button", "loop_to_button", "loop_clear_button"),
    ("onion_skins_box",),
)
ENTRY_TIP = "A recording (.csv) to open in the timeline; Enter or Open opens it (Load last: the last one made)"
SLIDER_TIP = "Scrub: the timeline's playhead, step by step"
PLAY_LABELS = ("Play", "Pause")  # stopped, playing
# the controls that need a recording open
NEEDS_OPEN = ("timeline_play_button", "timeline_close_button", "timeline_back_button", "timeline_forward_button",
              "loop_from_button", "loop_to_button", "loop_clear_button")


class TimelineSection:
    """The timeline's widgets from ``y`` down, ``inner`` px wide; its buttons and box are attributes of ``panel``."""

    def __init__(self, panel, y: int, inner: int, wide: bool):
        self.panel, self.wide = panel, wide
        m, box = panel.manager, panel.box
        self.widgets: list[pygame_gui.core.UIElement] = [
            UILabel(pygame.Rect(PAD, y, inner, 20), "TIMELINE", m, box, object_id="#section")]
        y += 22
        button_w = 52 if wide else 44
        self.entry = PathEntry(pygame.Rect(PAD, y, inner - button_w - 4, 28), m, box, path=panel.timeline_path,
                               object_id="#timeline_path")
        self.entry.set_tooltip(ENTRY_TIP)
        panel.timeline_open_button = buttons.make("timeline_open_button",
                                                  pygame.Rect(PAD + inner - button_w, y, button_w, 28), m, box, wide)
        self.widgets += [self.entry, panel.timeline_open_button]
        y += ROW + 8
        panel.box_states.setdefault("onion_skins_box", True)  # onion skins are on until unticked
        for row in TIMELINE_ROWS:
            self.widgets += buttons.make_row(panel, row, PAD, y, inner, wide)
            y += ROW + 6
        self.slider = UIHorizontalSlider(pygame.Rect(PAD, y, inner, 20), 0, (0, 1), m, box,
                                         object_id="#timeline_slider")
        set_tip(SLIDER_TIP, self.slider, self.slider.sliding_button)
        y += 24
        self.label = make_label(pygame.Rect(PAD, y, inner, 20), "", m, box,
                                pygame_gui.core.ObjectID("#timeline_label", "@hint"))
        self.widgets += [self.slider, self.label]
        y += 22
        for row in STEP_ROWS:
            self.widgets += buttons.make_row(panel, row, PAD, y, inner, wide)
            y += ROW + 6
        self.bottom = y
        self.shown: tuple | None = None  # what the widgets show now (set only when it changes)

    def set_path(self, path: str) -> None:
        """Show ``path`` in the file box (kept through a rebuild)."""
        self.panel.timeline_path = path
        self.entry.set_text(path)

    def update(self, mode) -> None:
        """Show ``mode`` (the App's TimelineMode): the slider at the playhead, where it is, Play or Pause."""
        if not self.slider.visible and self.shown is not None:
            return
        state = (mode.open, mode.playhead, mode.last, mode.playing, mode.label(), mode.onion)
        if state == self.shown:
            return
        if self.shown is None or self.shown[:3] != state[:3]:
            if tuple(self.slider.value_range) != (0, max(mode.last, 1)):
                self.slider.value_range = (0, max(mode.last, 1))
            self.slider.set_current_value(mode.playhead, warn=False)
        if self.shown is None or self.shown[0] != mode.open:
            enable_all([self.slider, *(getattr(self.panel, attr) for attr in NEEDS_OPEN)], mode.open)
        self.panel.timeline_play_button.set_text(PLAY_LABELS[mode.playing])
        fit(self.label, state[4])
        self.panel.show_state(self.panel.onion_skins_box, mode.onion)
        self.panel.box_states["onion_skins_box"] = mode.onion
        self.shown = state

    def command_of(self, event, element) -> tuple[str, object] | None:
        """The command of a move of the slider, an Enter in the file box or its notice, or None."""
        if event.type == pygame_gui.UI_HORIZONTAL_SLIDER_MOVED and element is self.slider:
            return "timeline_seek", int(self.slider.get_current_value())
        if event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and element is self.entry:
            self.entry.unfocus()  # Enter ends typing: the keys go back to the stage
            return "timeline_open", self.entry.get_text()
        if event.type == PATH_NOTICE and element is self.entry:
            return "notice", event.text
        return None
