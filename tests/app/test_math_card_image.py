"""The Math page's card reaches its UIImage as ``UIImage.set_image`` would put it there, pixel for pixel, while
the numbers change every frame, in a panel that scrolls and in one that does not, and after a scroll."""

from __future__ import annotations

import numpy as np
import pygame
import pytest

from tests.app.conftest import frames, select_solver


def pixels(surface) -> bytes | None:
    return None if surface is None else pygame.image.tobytes(surface, "RGBA")


def as_set_image_leaves_it(page):
    """The image's surfaces (shown, whole) now, then as a fresh ``set_image`` of the same card leaves them."""
    im = page.image
    ours = (pixels(im.image), pixels(im._pre_clipped_image), im.image.get_size())
    im.set_image(page.card.surface)
    theirs = (pixels(im.image), pixels(im._pre_clipped_image), im.image.get_size())
    return ours, theirs


@pytest.mark.parametrize("size", [(1280, 720), (1280, 1000), (640, 400)])
def test_the_card_on_the_page_is_what_set_image_would_show(app, size):
    app.resize(size)
    arm = select_solver(app, "two-bone")
    app.apply("show_math", True)
    app.panel.show_page("math")
    page = app.panel.math_page
    home = arm.fields["target"].copy()
    for k in range(6):
        app.scene.move_target(arm, home + 30.0 * np.array((np.cos(k), np.sin(k))))
        frames(app, 1)
        assert page.visible
        ours, theirs = as_set_image_leaves_it(page)
        assert ours == theirs
    if app.panel.scroller is not None:  # a scroll re-clips the image from its whole card
        app.panel.scroller.vert_scroll_bar.set_scroll_from_start_percentage(0.5)
        frames(app, 2)
        app.scene.move_target(arm, home)
        frames(app, 1)
        ours, theirs = as_set_image_leaves_it(page)
        assert ours == theirs
