"""The App: a window, a fixed-step loop, and a two-bone arm whose target you drag."""

from __future__ import annotations

import math

import pygame

from ikplayground.solvers import solve_two_bone

STEP = 1.0 / 60.0
BACKGROUND = (24, 26, 33)
BONE = (230, 180, 90)
JOINT = (250, 240, 220)
TARGET = (80, 220, 120)
TARGET_HOVER = (150, 255, 180)
TARGET_RADIUS = 12


class App:
    """A window showing one two-bone chain whose green target follows a mouse drag.

    Parameters
    ----------
    size : (int, int)
        Window size in pixels.
    """

    def __init__(self, size=(1280, 720)):
        pygame.init()
        self.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        pygame.display.set_caption("ikplayground")
        self.clock = pygame.time.Clock()
        w, h = size
        self.root = (w * 0.4, h * 0.6)
        self.lengths = (min(w, h) * 0.25, min(w, h) * 0.2)
        self.target = [w * 0.55, h * 0.45]
        self.grab = None  # offset from the mouse to the target while dragging
        self.running = True
        self.frames = 0

    def run(self, max_frames: int | None = None) -> None:
        """Run the loop until the window closes, Esc, or ``max_frames`` frames."""
        while self.running and (max_frames is None or self.frames < max_frames):
            for event in pygame.event.get():
                self.handle_event(event)
            self.draw()
            pygame.display.flip()
            self.clock.tick(60)
            self.frames += 1

    def handle_event(self, event) -> None:
        if event.type == pygame.QUIT or (event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE):
            self.running = False
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            tx, ty = self.target
            mx, my = event.pos
            if math.hypot(mx - tx, my - ty) <= TARGET_RADIUS:
                self.grab = (tx - mx, ty - my)
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self.grab = None
        elif event.type == pygame.MOUSEMOTION and self.grab is not None:
            w, h = self.screen.get_size()
            self.target = [min(max(event.pos[0] + self.grab[0], 0), w - 1),
                           min(max(event.pos[1] + self.grab[1], 0), h - 1)]

    def solution(self):
        return solve_two_bone(self.root, self.target, *self.lengths)

    def draw(self) -> None:
        sol = self.solution()
        self.screen.fill(BACKGROUND)
        points = [self.root, tuple(sol.knee), tuple(sol.end)]
        pygame.draw.lines(self.screen, BONE, False, points, 6)
        for p in points:
            pygame.draw.circle(self.screen, JOINT, p, 7)
        hover = math.dist(pygame.mouse.get_pos(), self.target) <= TARGET_RADIUS
        colour = TARGET_HOVER if hover or self.grab else TARGET
        pygame.draw.circle(self.screen, colour, self.target, TARGET_RADIUS, 3)

    def save_screenshot(self, path: str) -> None:
        pygame.image.save(self.screen, path)

    def close(self) -> None:
        pygame.quit()
