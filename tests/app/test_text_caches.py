"""The kept text surfaces: a text drawn every frame stays kept (not rendered again) among a stream of changing
numbers, and no cache grows past its bound."""

from __future__ import annotations

import pygame

from ikplayground.app.draw.annotate import Notes
from ikplayground.app.draw.math_draw import LABEL_CACHE, MathPainter
from ikplayground.app.panel.math_card import TEXT_CACHE, MathCard


def test_the_cards_steady_texts_stay_kept_among_changing_numbers():
    pygame.font.init()
    card = MathCard((276, 400))
    card.heading("JOINT SPACE", 0)
    steady = dict(card._texts)
    for k in range(3 * TEXT_CACHE):
        card.heading("JOINT SPACE", 0)  # drawn every frame
        card.text(f"error {k * 0.01:.2f} px", (0, 20))  # a new number every frame
    assert len(card._texts) <= TEXT_CACHE
    assert all(card._texts.get(key) is surf for key, surf in steady.items())


def test_the_painters_steady_labels_stay_kept_among_changing_numbers():
    pygame.font.init()
    painter = MathPainter()
    first = painter.label("phi", "angle")
    for k in range(3 * LABEL_CACHE):
        assert painter.label("phi", "angle") is first
        painter.label(f"r {k * 0.1:.1f} px", "guide")
    assert len(painter._labels) <= LABEL_CACHE


def test_the_label_patches_are_kept_and_bounded():
    notes = Notes()
    first = notes._patch((40, 14))
    for w in range(1, 600):
        assert notes._patch((40, 14)) is first
        notes._patch((w, 15))
    assert len(notes._patches) <= 257
