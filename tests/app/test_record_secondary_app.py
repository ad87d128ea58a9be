"""Secondary motion recorded in the real App (issue 28): a rope's root and a path chain's handle dragged with the
mouse while it records replay into the same file and the same scene, bit for bit (docs/recording.md)."""

from __future__ import annotations

import numpy as np
import pygame
import pytest

from ikplayground.app.app import App
from ikplayground.scene import load_scene, save_scene
from ikplayground.scene.build import presets
from tests.app.conftest import SIZE, frames, mouse_down, mouse_up, move_mouse, post

NOT_STATE = {"replay_head", "replay_body", "replay_angles", "replayed", "solve_us", "held"}  # the replay's inputs


def jerky_drag(app: App, start, end, moves: int = 8) -> None:
    """Press at ``start`` and drag to ``end``, three mouse motions a frame (as a real mouse sends), release."""
    start, end = np.asarray(start, dtype=float), np.asarray(end, dtype=float)
    move_mouse(app, start)
    mouse_down(app, start)
    for t in np.linspace(0.0, 1.0, moves + 1)[1:]:
        for wobble in ((3, -2), (-2, 3), (0, 0)):
            p = start + (end - start) * t + wobble
            post(pygame.MOUSEMOTION, pos=(round(p[0]), round(p[1])), rel=(0, 0), buttons=(1, 0, 0))
        frames(app)
    mouse_up(app, end)


@pytest.mark.slow
def test_a_rope_s_root_and_a_path_s_handle_dragged_while_recording_replay_bit_for_bit(tmp_path):
    scene_file = tmp_path / "springs.json"
    save_scene(presets.load_preset("springs"), scene_file)
    app = App(size=SIZE, realtime=False, scene=load_scene(scene_file), scene_path=scene_file)
    try:
        app.record.start(tmp_path / "a.csv")  # from its first step, as the replay starts
        frames(app, 3)
        rope = next(c for c in app.scene.chains if c.is_rope)
        path = next(c for c in app.scene.chains if c.is_path)
        root = rope.fields["root"].copy()
        jerky_drag(app, root, root + (120, 90))
        assert np.abs(rope.fields["root"] - (root + (120, 90))).max() <= 3  # the mouse moved it
        handle = path.fields["control"][2].copy()
        jerky_drag(app, handle, handle + (-150, 60))
        assert np.abs(path.fields["control"][2] - (handle + (-150, 60))).max() <= 3
        frames(app, 10)
        steps = app.record.steps
        recorded = [{k: v.copy() for k, v in c.fields.items()} for c in app.scene.chains]
        app.record.stop()
    finally:
        app.close()

    app = App(size=SIZE, realtime=False, scene=load_scene(scene_file), scene_path=scene_file)
    try:
        assert app.replay.start(tmp_path / "a.csv") is None
        app.record.start(tmp_path / "b.csv")
        frames(app, steps)
        assert app.record.steps == steps
        for i, (chain, fields) in enumerate(zip(app.scene.chains, recorded)):
            for name in sorted(set(fields) - NOT_STATE):
                np.testing.assert_array_equal(chain.fields[name], fields[name], err_msg=f"chain {i}: {name}")
        app.record.stop()
    finally:
        app.close()
    assert (tmp_path / "b.csv").read_bytes() == (tmp_path / "a.csv").read_bytes()
