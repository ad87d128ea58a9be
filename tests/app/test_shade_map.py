"""The joint map's out-of-reach shading, painted as one stretched column, is the shading painted a line a row."""

from __future__ import annotations

import numpy as np
import pygame
from hypothesis import given, settings
from hypothesis import strategies as st

from ikplayground.app.panel.math_card import PLOT_BG, SHADE, shade_map
from ikplayground.insight import joint_map


def shaded_line_by_line(surface, rect, shade) -> None:
    for row, v in enumerate(shade.tolist()):
        if v > 0:
            c = tuple(int(b + (a - b) * (0.15 + 0.45 * v)) for a, b in zip(SHADE, PLOT_BG))
            pygame.draw.line(surface, c, (rect.x, rect.y + row), (rect.right - 1, rect.y + row))


def both(shade: np.ndarray, rect: pygame.Rect) -> tuple[bytes, bytes]:
    out = []
    for paint in (shade_map, shaded_line_by_line):
        s = pygame.Surface((rect.right + 7, rect.bottom + 5))
        s.fill((9, 9, 9))
        pygame.draw.rect(s, PLOT_BG, rect)
        paint(s, rect, shade)
        out.append(pygame.image.tobytes(s, "RGB"))
    return out[0], out[1]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([0.0, 1.0]) | st.floats(0.0, 1.0), min_size=1, max_size=60), st.integers(1, 40))
def test_the_stretched_column_is_the_rows_drawn_one_by_one(shade, width):
    ours, theirs = both(np.array(shade), pygame.Rect(3, 2, width, len(shade)))
    assert ours == theirs


def test_a_target_out_of_reach_shades_the_map_as_before():
    rect = pygame.Rect(24, 40, 200, 200)
    shade = joint_map.shade_rows(100.0, 80.0, 300.0, rect.height)
    assert shade.any()
    ours, theirs = both(shade, rect)
    assert ours == theirs
