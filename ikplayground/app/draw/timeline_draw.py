"""The timeline's pose on the stage: the live scene dimmed, the onion skins faded, the recorded chains at the
playhead in their chain colours (screen px)."""

from __future__ import annotations

import pygame

from ikplayground.app.draw.render import BACKGROUND, PALETTE, chain_colour

DIM_ALPHA = 200  # of 255: how much the waiting live scene is dimmed under the recording
POSE_WIDTH = 4  # px: a recorded bone
POSE_JOINT = 4  # px: a recorded joint's radius
ONION_WIDTH = 2
ONION_FADE = (0.2, 0.4)  # an onion skin's share of its colour: this plus (difference) times its nearness (0, 1]
SCREEN_LIMIT = 1e6  # px: points are clamped so that far ones still draw


def faded(colour, share: float) -> tuple[int, int, int]:
    """``colour`` mixed with the stage's background: ``share`` 1 is the colour, 0 the background."""
    return tuple(round(b + (c - b) * share) for c, b in zip(colour, BACKGROUND))


class TimelineDrawer:
    """Draws a :class:`~ikplayground.app.modes.timeline_mode.TimelineMode`'s pose over the stage."""

    def __init__(self):
        self._dim: pygame.Surface | None = None

    def colour(self, scene, chain: int) -> tuple[int, int, int]:
        """Recorded chain ``chain``'s colour: the live chain's at that index, else the palette's."""
        return chain_colour(scene.chains[chain]) if chain < len(scene.chains) else PALETTE[chain % len(PALETTE)]

    def draw(self, screen: pygame.Surface, stage: pygame.Rect, timeline, scene, camera) -> None:
        """Dim ``stage``, then draw ``timeline``'s onion skins and pose (colours by ``scene``'s chains)."""
        if self._dim is None or self._dim.get_size() != stage.size:
            self._dim = pygame.Surface(stage.size, pygame.SRCALPHA)
            self._dim.fill((*BACKGROUND, DIM_ALPHA))
        screen.blit(self._dim, stage.topleft)
        colours = [self.colour(scene, c) for c in range(max(map(len, timeline.frames.layouts)))]
        for index, nearness in timeline.onion_frames():  # the farthest first, so the nearest lie over them
            share = ONION_FADE[0] + (ONION_FADE[1] - ONION_FADE[0]) * nearness
            fade = {c: faded(c, share) for c in set(colours)}
            self._frame(screen, camera, timeline.polylines(index), [fade[c] for c in colours], 0)
        self._frame(screen, camera, timeline.polylines(), colours, POSE_JOINT)

    @staticmethod
    def _frame(screen, camera, polylines, colours, joint: int) -> None:
        """Draw a frame's polylines (``Frames.polylines``) in ``colours`` (one a chain), ``joint``: joints' radius
        (0: none, a bone's width each for dots)."""
        points, starts, joined = polylines
        points = camera.to_screen(points).clip(-SCREEN_LIMIT, SCREEN_LIMIT).tolist()
        width = POSE_WIDTH if joint else ONION_WIDTH
        for a, b, j, colour in zip(starts[:-1].tolist(), starts[1:].tolist(), joined.tolist(), colours):
            if j and b - a > 1:
                pygame.draw.lines(screen, colour, False, points[a:b], width)
            if joint or not j:
                for p in points[a:b]:
                    pygame.draw.circle(screen, colour, p, joint or ONION_WIDTH + 1)
