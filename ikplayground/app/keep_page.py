"""The panel's Keep page: what keeps a pose or a motion once found.

Recording and replay, baking a recording to keyframes, undo and redo, the
exact mirror flip and screenshots each have a row here. The rows are
``KEEP_ROWS``: each row names buttons and check boxes of the tables in
``buttons.py`` (so every one runs a command of ``commands.py`` and the F1 help
lists it beside its key), laid side by side in equal widths.
"""

from __future__ import annotations

import pygame
import pygame_gui

from . import buttons
from .param_widgets import PAD, ROW, make_label

# Each row: attributes of the panel's buttons ("..._button", buttons.BUTTONS) and check
# boxes ("..._box", buttons.BOXES), side by side. A new control is a spec in buttons.py
# and its attribute here.
KEEP_ROWS: tuple[tuple[str, ...], ...] = (
    ("flip_button",),  # the exact mirror flip (H)
)
BOX_SIDE = 18


class KeepPage:
    """The Keep page's widgets, from ``y`` down in ``panel``'s box, ``inner`` px wide.

    Each button or box is an attribute of ``panel`` (``panel.record_button``), as every
    button of the panel is, so that ``buttons.command_of`` finds it.
    """

    def __init__(self, panel, y: int, inner: int, wide: bool):
        m, box = panel.manager, panel.box
        self.widgets = [make_label(pygame.Rect(PAD, y, inner, 20), "Record, bake, undo, mirror, screenshots", m, box,
                                   pygame_gui.core.ObjectID("#keep_hint", "@hint"))]
        y += 26
        for row in KEEP_ROWS:
            width = (inner - 4 * (len(row) - 1)) // len(row)
            for i, attr in enumerate(row):
                x = PAD + i * (width + 4)
                if attr.endswith("_box"):
                    widget = buttons.make_box(attr, pygame.Rect(x, y + 5, BOX_SIDE, BOX_SIDE), m, box,
                                              bool(panel.box_states.get(attr, False)))
                else:
                    widget = buttons.make(attr, pygame.Rect(x, y, width, 28), m, box, wide)
                setattr(panel, attr, widget)
                self.widgets.append(widget)
            y += ROW + 4
        self.bottom = y + 4

    def set_visible(self, visible: bool) -> None:
        for w in self.widgets:
            w.show() if visible else w.hide()
