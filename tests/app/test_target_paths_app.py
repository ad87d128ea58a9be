"""Animated targets in the real App: the panel's Motion row, a drag taking the target over, letting go."""

from __future__ import annotations

import pytest

import json

import numpy as np
import pygame

from ikplayground.scene.step import target_paths
from ikplayground.scene.step.target_paths import offsets, phase_rate
from tests.app.conftest import choose, ctrl, frames, mouse_down, mouse_up, move_mouse, post, select_solver


def held(chain) -> bool:
    return bool(chain.fields["held"][0])


def start_circle(app, solver="ccd"):
    chain = select_solver(app, solver)
    app.apply("motion_speed", 4.0)
    app.apply("motion_size", 60.0)
    choose(app, app.panel.setting_rows.menus["motion"].menu, "circle")
    assert target_paths.read(chain.fields)["path"] == "circle"
    return chain


def grab_target(app, chain):
    """Press on ``chain``'s target; returns the press point and the grab's offset (target - mouse)."""
    press = tuple(round(float(v)) for v in chain.fields["target"])
    move_mouse(app, press)
    mouse_down(app, press)
    assert app.drag is not None and app.drag.chain is chain and app.drag.part == "target"
    return press, app.drag.offset.copy()


@pytest.mark.slow
def test_the_panel_starts_the_motion_and_the_target_moves_round_the_spot(app):
    chain = select_solver(app, "fabrik")
    spot = chain.fields["target"].copy()
    choose(app, app.panel.setting_rows.menus["motion"].menu, "circle")  # the frame's step already moved it
    frames(app, 9)
    p = 10 * phase_rate(2, 2.0, 80.0)
    np.testing.assert_allclose(chain.fields["target"], spot + 80.0 * np.array((np.cos(p), np.sin(p))), atol=1e-9)


@pytest.mark.slow
def test_a_drag_takes_a_moving_target_over_and_letting_go_resumes_from_there(app):
    chain = start_circle(app)
    frames(app, 5)
    press, offset = grab_target(app, chain)
    assert held(chain)
    phase = chain.fields["motion_phase"][0]
    for pos in ((press[0] - 20, press[1] + 10), (press[0] - 45, press[1] + 30), (press[0] - 60, press[1] + 40)):
        move_mouse(app, pos, buttons=(1, 0, 0))
        np.testing.assert_array_equal(chain.fields["target"], np.array(pos) + offset)  # exactly under the hand
    frames(app, 10)  # held still: the motion waits
    np.testing.assert_array_equal(chain.fields["target"], np.array(pos) + offset)
    assert chain.fields["motion_phase"][0] == phase
    mouse_up(app, pos)  # the release frame's step moves it on, from the release point
    assert not held(chain) and app.drag is None
    step = phase_rate(2, 4.0, 60.0)
    expected = np.array(pos) + offset + offsets(2, phase + step, 60.0) - offsets(2, phase, 60.0)
    np.testing.assert_allclose(chain.fields["target"], expected, atol=1e-9)
    frames(app, 3)
    expected += offsets(2, phase + 4 * step, 60.0) - offsets(2, phase + step, 60.0)
    np.testing.assert_allclose(chain.fields["target"], expected, atol=1e-9)


@pytest.mark.slow
def test_every_way_a_drag_ends_lets_the_target_go(app):
    chain = start_circle(app)
    press, _ = grab_target(app, chain)
    post(pygame.WINDOWFOCUSLOST)  # the button may come up elsewhere
    frames(app)
    assert app.drag is None and not held(chain)
    before = chain.fields["target"].copy()
    frames(app)
    assert not np.array_equal(chain.fields["target"], before)

    press, _ = grab_target(app, chain)
    move_mouse(app, (press[0] + 5, press[1]), buttons=(0, 0, 0))  # released outside the window: no button up
    assert app.drag is None and not held(chain)

    grab_target(app, chain)
    app.apply("solver", "two-bone")  # the chain is replaced while held: the new one is held, the old one not
    new = app.scene.selected
    assert new is not chain and app.drag.chain is new and held(new) and not held(chain)
    assert target_paths.read(new.fields)["path"] == "circle"
    mouse_up(app, (0, 0))
    assert not held(new)

    grab_target(app, new)
    ctrl(app, pygame.K_s, "\x13")
    ctrl(app, pygame.K_o, "\x0f")  # another scene shown: nothing is held any more
    assert app.scene.chains and app.drag is None and not held(new)
    assert not any(held(c) for c in app.scene.chains if not c.is_snake)


@pytest.mark.slow
def test_a_bad_motion_in_a_file_is_refused_and_the_scene_stays(app, scene_file):
    chain = start_circle(app)
    d = {"solver": "ccd", "root": [300, 600], "lengths": [60, 60], "angles": [-90, 0], "target": [320, 450],
         "motion": {"path": "spiral", "speed": 2, "size": 80}}
    scene_file.write_text('{"format": "ikplayground-scene", "version": 1, "chains": [' + json.dumps(d) + "]}",
                          encoding="utf-8")
    scene = app.scene
    ctrl(app, pygame.K_o, "\x0f")
    assert app.scene is scene and chain in scene.chains
    assert app.message_is_error and "chains[0].motion.path: must be one of none, bounce, circle" in app.message
