"""The first window: a real App, driven by posted pygame events."""

import math

import pygame
import pytest

from ikplayground import cli
from ikplayground.app.app import App


@pytest.fixture
def app():
    a = App(size=(800, 600))
    yield a
    a.close()


def post_drag(start, end, steps=5):
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=start, rel=(0, 0), buttons=(0, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1))
    for k in range(1, steps + 1):
        p = (start[0] + (end[0] - start[0]) * k / steps, start[1] + (end[1] - start[1]) * k / steps)
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=p, rel=(0, 0), buttons=(1, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=end, button=1))


def test_dragging_the_target_moves_it_and_the_end_follows(app):
    start = tuple(app.target)
    end = (start[0] - 60, start[1] + 40)
    post_drag(start, end)
    app.run(max_frames=3)
    assert app.target == pytest.approx(list(end))
    sol = app.solution()
    assert math.dist(sol.end, end) < 1e-6


def test_a_press_away_from_the_target_does_not_grab_it(app):
    start = tuple(app.target)
    post_drag((start[0] + 100, start[1] + 100), (10, 10))
    app.run(max_frames=3)
    assert app.target == list(start)


def test_headless_run_writes_a_screenshot(tmp_path):
    out = tmp_path / "shot.png"
    assert cli.main(["--headless", "--frames", "3", "--screenshot", str(out)]) == 0
    assert out.stat().st_size > 0
    assert pygame.image.load(str(out)).get_size() == (1280, 720)
