"""A crowd's steps on a worker thread while the App draws (app/modes/step_worker.py).

The worker's steps are the App's own loop's, number for number; what the App draws is the last finished step,
never a half-written one; an error in a step reaches the main thread; the App's loop keeps each step's hooks (a
recording, a race, a replay) by stepping itself while they run.
"""

from __future__ import annotations

import numpy as np
import pygame
import pytest

from ikplayground.app.app import App
from ikplayground.app.draw.render import DETAIL_LIMIT
from ikplayground.scene import STEP
from ikplayground.solvers import jit
from tests.app.conftest import SIZE, frames, key_down, started

CROWD = DETAIL_LIMIT + 40


def crowd_app(mode: str, scene_file, chains: int = CROWD) -> App:
    app = started(App(size=SIZE, realtime=False, scene_path=scene_file))
    app.pipeline.mode = mode
    jit.kernels(wait=True)  # (both ways on the same engines: the kernels loaded, or numpy throughout)
    app.stress.start(chains)
    return app


def state(app: App) -> dict:
    return {(g.solver, name): value.copy() for g in app.scene.groups for name, value in g.fields.items()}


def test_the_workers_steps_are_the_apps_own_number_for_number(tmp_path):
    runs = {}
    for mode in ("on", "off"):  # one App at a time: a window each
        app = crowd_app(mode, tmp_path / f"{mode}.json")
        try:
            frames(app, 25)
            app.pipeline.finish()
            runs[mode] = (state(app), app.scene.steps, app.pipeline.worker.launched)
        finally:
            app.close()
    (on, on_steps, on_jobs), (off, off_steps, off_jobs) = runs["on"], runs["off"]
    assert on_steps == off_steps > 20
    assert on_jobs > 20 and off_jobs == 0
    assert on.keys() == off.keys()
    for key in on:
        if key[1] != "solve_us":  # (the solver's measured time)
            np.testing.assert_array_equal(on[key], off[key], err_msg=str(key))


def test_a_job_of_several_steps_takes_them_as_the_apps_loop_does(tmp_path):
    runs = {}
    for mode in ("on", "off"):
        app = crowd_app(mode, tmp_path / f"{mode}.json")
        try:
            for _ in range(6):
                app.advance(3 * STEP)  # a slow frame's catching up: three steps at once
                app.pipeline.finish()
            runs[mode] = (state(app), app.scene.steps)
        finally:
            app.close()
    assert runs["on"][1] == runs["off"][1] >= 18
    for key, value in runs["on"][0].items():
        if key[1] != "solve_us":
            np.testing.assert_array_equal(value, runs["off"][0][key], err_msg=str(key))


def test_the_frame_draws_the_last_finished_step_not_the_one_being_taken(tmp_path):
    app = crowd_app("on", tmp_path / "s.json")
    seen = []
    draw = app.renderer.draw

    def spy(surface, scene, **kw):  # the arrays drawn, before and after the drawing
        before = np.concatenate([g.fields["points"].reshape(-1) for g in scene.groups])
        draw(surface, scene, **kw)
        after = np.concatenate([g.fields["points"].reshape(-1) for g in scene.groups])
        seen.append((before, after))

    app.renderer.draw = spy
    try:
        frames(app, 10)
        assert len(seen) == 10
        for before, after in seen:  # nothing moved under the drawing
            np.testing.assert_array_equal(before, after)
        assert all(not np.array_equal(a[0], b[0]) for a, b in zip(seen, seen[1:]))  # yet each frame moved on
    finally:
        app.close()


def test_an_error_in_a_step_is_raised_on_the_main_thread(tmp_path, monkeypatch):
    app = crowd_app("on", tmp_path / "s.json")
    try:
        frames(app, 2)
        import ikplayground.app.modes.step_worker as step_worker

        def broken(*args):
            raise RuntimeError("a step failed")

        monkeypatch.setattr(step_worker, "step_groups", broken)
        frames(app, 1)  # launched: the error waits for the next frame
        with pytest.raises(RuntimeError, match="a step failed"):
            frames(app, 1)
    finally:
        monkeypatch.undo()
        app.close()


def test_a_recording_keeps_every_step_on_the_apps_loop(tmp_path):
    app = crowd_app("on", tmp_path / "s.json")
    try:
        frames(app, 3)
        launched = app.pipeline.worker.launched
        key_down(pygame.K_r, pygame.KMOD_CTRL)
        frames(app, 5)
        assert app.record.active
        assert app.pipeline.worker.launched == launched  # each step recorded after it, on the main thread
    finally:
        app.close()


def test_a_small_scene_steps_on_the_apps_loop(tmp_path):
    app = started(App(size=SIZE, realtime=False, scene_path=tmp_path / "s.json"))
    app.pipeline.mode = "on"
    try:
        frames(app, 5)
        assert app.pipeline.worker.launched == 0 and len(app.scene.chains) <= DETAIL_LIMIT
    finally:
        app.close()
