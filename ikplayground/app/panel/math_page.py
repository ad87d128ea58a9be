"""The panel's Math page: "Show the math", the step-through and race controls (``buttons.py``'s specs), and
the card of live numbers (:class:`~.math_card.MathCard`, a ``UIImage``); a press or drag on its joint-space
map is the command ``("map_pose", (theta1, theta2))``."""

from __future__ import annotations

import pygame
from pygame_gui.elements import UIImage

from ikplayground.app.panel import buttons
from ikplayground.app.panel.math_card import MathCard
from ikplayground.app.panel.param_widgets import PAD, ROW, show_all

CARD_MIN = 300  # px: the card's height when the panel scrolls (a short window)


class MathPage:
    """The Math page's widgets from ``y`` down, ``inner`` px wide (buttons and boxes: ``panel``'s attributes)."""

    def __init__(self, panel, y: int, inner: int, height: int, wide: bool, shown: bool, race: bool, moving: bool):
        m, box = panel.manager, panel.box
        panel.show_math_box = buttons.make_box("show_math_box", pygame.Rect(PAD, y + 4, 18, 18), m, box, shown)
        y += ROW
        steps = buttons.make_row(panel, ("step_button", "sweep_button", "finish_button"), PAD, y, inner, wide)
        y += ROW + 4
        race_w = inner * 2 // 5
        panel.race_button = buttons.make("race_button", pygame.Rect(PAD, y, race_w, 28), m, box, wide)
        panel.moving_target_box = buttons.make_box("moving_target_box", pygame.Rect(PAD + race_w + 8, y + 5, 18, 18),
                                                   m, box, moving)
        y += ROW + 8
        self.wide = wide
        self.card = MathCard((inner, max(height - y - 8, CARD_MIN)))
        self.image = UIImage(pygame.Rect(PAD, y, *self.card.size), self.card.surface, manager=m, container=box,
                             object_id="#math_card")
        self.bottom = y + self.card.size[1] + 8
        self.widgets = [panel.show_math_box, *steps, panel.race_button, panel.moving_target_box, self.image]
        self.panel = panel
        self.dragging = False  # a press on the map, held
        self.show_race(race)

    def show_race(self, on: bool) -> None:
        self.panel.race_button.set_text(buttons.RACE_LABELS[on][self.wide])

    def set_visible(self, visible: bool) -> None:
        show_all(self.widgets, visible)

    @property
    def visible(self) -> bool:
        return self.image.visible

    def update(self, chain, metrics, race_table, obstacles=None) -> None:
        """Draw the card, while the page is up (``obstacles`` (k, 3) px: the scene's, shaded on the map)."""
        if self.visible:
            self.show(self.card.render(chain, metrics, race_table(), obstacles))

    def show(self, card: pygame.Surface) -> None:
        """Put ``card`` (opaque, the image's size) in the image: copied into the image's own surfaces, the part
        the scrolling panel shows too, as ``UIImage.set_image`` would leave them without its three whole-card copies
        a frame (an opaque surface is its own premultiplied-alpha form); ``set_image`` itself when they differ."""
        im = self.image
        shown, whole, clip = im.image, getattr(im, "_pre_clipped_image", None), im.get_image_clipping_rect()
        size = card.get_size()
        if shown is None or shown.get_size() != size or not shown.get_flags() & pygame.SRCALPHA:
            im.set_image(card)
        elif clip is None and whole is None:
            shown.blit(card, (0, 0))
        elif clip is not None and whole is not None and whole.get_size() == size and clip.width and clip.height:
            whole.blit(card, (0, 0))  # what a scroll of the panel shows from
            shown.blit(card, clip.topleft, clip)  # the part shown; the rest stays clear
        else:
            im.set_image(card)

    def map_command(self, event) -> tuple[str, object] | None:
        """``("map_pose", (theta1, theta2))`` for a press on the map, and each move of a drag begun there."""
        t = event.type
        if t == pygame.MOUSEBUTTONUP:
            self.dragging = False
            return None
        if not self.visible or self.card.map_rect is None:
            return None
        at = self.image.rect
        pos = (event.pos[0] - at.x, event.pos[1] - at.y)
        if t == pygame.MOUSEBUTTONDOWN and getattr(event, "button", 0) == 1:
            inside = self.panel.box.rect.collidepoint(event.pos) and self.card.map_rect.collidepoint(pos)
            self.dragging = bool(inside)
            if not inside:
                return None
        elif not (t == pygame.MOUSEMOTION and self.dragging):
            return None
        elif not getattr(event, "buttons", (0,))[0]:  # released where no release reached us (outside the window)
            self.dragging = False
            return None
        r = self.card.map_rect
        pos = (min(max(pos[0], r.left), r.right - 1), min(max(pos[1], r.top), r.bottom - 1))
        return "map_pose", self.card.map_angles(pos)
