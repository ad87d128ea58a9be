"""A crowd's steps run on a worker thread while the frame draws the last finished step (modes/step_beside.py):
the same steps as on the main thread, bit for bit; the picture is the step before; nothing else overlaps."""

from __future__ import annotations

import numpy as np
import pygame
import pytest

from ikplayground.app.draw.render import DETAIL_LIMIT
from ikplayground.app.draw.view import HeldFields
from ikplayground.scene import SOLVERS, Scene
from tests.app.conftest import frames, tap

pytestmark = pytest.mark.slow


def state(app) -> list[tuple[str, np.ndarray]]:
    """Every field of every group but the measured solve times."""
    return [(f"{g.solver}.{name}", a.copy()) for g in app.scene.groups for name, a in sorted(g.fields.items())
            if name != "solve_us"]


def run_stress(app, beside: bool, count: int = 400, k: int = 12) -> list[tuple[str, np.ndarray]]:
    app.beside.enabled = beside
    app.stress.start(count)
    before = app.beside.frames
    frames(app, k)
    assert app.beside.frames - before == (k if beside else 0)
    return state(app)


def test_the_steps_taken_beside_the_drawing_are_the_main_thread_s_bit_for_bit(app):
    on = run_stress(app, True)
    off = run_stress(app, False)
    assert len(on) == len(off) > 0
    for (name, a), (other, b) in zip(on, off):
        assert name == other
        np.testing.assert_array_equal(a, b, err_msg=name)


def test_the_crowd_drawn_is_the_step_before_the_frame_s_own(app, monkeypatch):
    app.stress.start(DETAIL_LIMIT + 120)
    frames(app, 2)
    drawn = []
    real = app.renderer._crowd.draw
    monkeypatch.setattr(app.renderer._crowd, "draw",
                        lambda surface, groups, size: drawn.append([g.fields["points"].copy() for g in groups])
                        or real(surface, groups, size))
    for _ in range(3):
        last = [g.fields["points"].copy() for g in app.scene.groups]
        drawn.clear()
        app.frame()
        stepped = [g.fields["points"] for g in app.scene.groups]
        assert len(drawn) == 1 and len(drawn[0]) == len(last)
        for shown, before, after in zip(drawn[0], last, stepped):
            np.testing.assert_array_equal(shown, before)  # the camera is at home: screen px are world px
        assert any(not np.array_equal(b, a) for b, a in zip(last, stepped))  # and the step did run


def test_every_kind_in_a_crowd_is_drawn_from_copies_made_before_the_step(app):
    scene = Scene(app.scene.stage)
    w, h = app.scene.stage
    per = DETAIL_LIMIT // len(SOLVERS) + 2
    for i in range(per * len(SOLVERS)):
        solver = SOLVERS[i % len(SOLVERS)]
        scene.new_chain(solver, (60.0 + (i * 37) % (w - 120), 80.0 + (i * 53) % (h - 160)))
    scene.select(None)
    app.show_scene(scene)
    HeldFields.late.clear()
    frames(app, 4)
    assert app.beside.frames >= 4
    assert HeldFields.late == set()  # no field the crowd draws was read from the arrays being stepped


def test_nothing_overlaps_a_small_scene_a_pause_or_the_math(app):
    frames(app, 3)
    assert len(app.scene.chains) <= DETAIL_LIMIT and app.beside.frames == 0
    app.stress.start(DETAIL_LIMIT + 20)
    frames(app)
    assert app.beside.frames == 1
    tap(app, pygame.K_SPACE)  # paused
    frames(app, 2)
    assert app.beside.frames == 1
    tap(app, pygame.K_SPACE)  # running again: beside
    assert app.beside.frames == 2
    app.scene.select(app.scene.chains[0])
    app.selected_changed()
    app.apply("show_math", True)
    frames(app, 2)
    assert app.math.shown and app.beside.frames == 2


def test_an_error_in_a_step_beside_the_drawing_reaches_the_frame(app, monkeypatch):
    app.stress.start(DETAIL_LIMIT + 20)
    frames(app)

    def broken():
        raise RuntimeError("a step failed")

    monkeypatch.setattr(app.scene, "step", broken)
    with pytest.raises(RuntimeError, match="a step failed"):
        app.frame()
    assert app.beside._worker is None  # waited for: the next frame starts clean
