"""The mirror flip in the real App: H (or the Keep page's Flip button) mirrors the selected chain about its
root's vertical, the panel shows the flipped settings, H again gives the chain back exactly, and a flip
that cannot be made says why and changes nothing. Driven only by posted events."""

from __future__ import annotations

import pytest

import math

import numpy as np
import pygame

from ikplayground.app.draw.render import TARGET
from ikplayground.scene.core.constants import SOLVER_LABELS
from tests.app.conftest import frames, press_button, select_solver, tap, wrapped


def flip_key(app, k: int = 1) -> None:
    tap(app, pygame.K_h, unicode="h", k=k)


def pause(app) -> None:
    tap(app, pygame.K_SPACE, unicode=" ")
    assert app.paused


def bits(chain) -> dict:
    return {k: v.tobytes() for k, v in chain.fields.items()}


@pytest.mark.slow
def test_h_mirrors_the_selected_chain_about_its_root_on_screen_and_h_again_gives_it_back(app):
    chain = select_solver(app, "ccd")
    frames(app, 30)
    pause(app)  # nothing steps meanwhile: what H does is all that changes
    before = {k: v.copy() for k, v in chain.fields.items()}
    original = bits(chain)
    x0 = before["root"][0]
    flip_key(app)
    f = chain.fields
    assert app.message == f"Flipped CCD #{chain.number} about its root's vertical" and not app.message_is_error
    np.testing.assert_array_equal(f["root"], before["root"])
    np.testing.assert_allclose(f["target"][0], 2 * x0 - before["target"][0], atol=1e-9)
    np.testing.assert_allclose(f["points"][:, 0], 2 * x0 - before["points"][:, 0], atol=1e-9)
    np.testing.assert_array_equal(f["points"][:, 1], before["points"][:, 1])
    np.testing.assert_allclose(wrapped(f["angles"][0] - (math.pi - before["angles"][0])), 0.0, atol=1e-12)
    # on screen: the target ring is drawn where the mirror image of the target is
    tx, ty = (int(round(v)) for v in f["target"])
    ring = [app.screen.get_at((tx + dx, ty))[:3] for dx in range(-14, 15)]
    assert any(sum(abs(a - b) for a, b in zip(p, TARGET)) < 60 for p in ring), ring
    flip_key(app)
    assert bits(chain) == original  # bit for bit, every field
    assert app.message == f"Flipped CCD #{chain.number} about its root's vertical"


def knee_side(chain) -> float:
    """Which side of the root-target line the knee is on (the sign of the cross product)."""
    root, knee, target = chain.fields["points"][0], chain.fields["points"][1], chain.fields["target"]
    d, k = target - root, knee - root
    return float(np.sign(d[0] * k[1] - d[1] * k[0]))


@pytest.mark.slow
def test_the_panels_mirror_box_shows_a_two_bone_arms_new_bend(app):
    chain = select_solver(app, "two-bone")
    frames(app, 60)
    side = knee_side(chain)
    assert side != 0 and not chain.mirror and not app.panel.mirror.is_checked
    flip_key(app, k=60)  # and it goes on, bent the other way round its (mirrored) target
    assert chain.mirror and app.panel.mirror.is_checked
    assert knee_side(chain) == -side
    pause(app)
    flip_key(app)
    assert not chain.mirror and not app.panel.mirror.is_checked


@pytest.mark.slow
def test_the_keep_pages_flip_button_flips_too(app):
    chain = select_solver(app, "fabrik")
    pause(app)
    target = chain.fields["target"].copy()
    press_button(app, app.panel.tabs["keep"])
    button = app.panel.flip_button
    assert button.visible and button.text in ("Flip", "Flip (H)")
    press_button(app, button)
    np.testing.assert_allclose(chain.fields["target"][0], 2 * chain.fields["root"][0] - target[0], atol=1e-9)
    assert app.message.startswith("Flipped FABRIK #")


@pytest.mark.slow
def test_a_snake_flips_about_its_head(app):
    snake = select_solver(app, "snake")
    pause(app)
    points = snake.fields["points"].copy()
    flip_key(app)
    np.testing.assert_allclose(snake.fields["points"][:, 0], 2 * points[0, 0] - points[:, 0], atol=1e-9)
    assert app.message == f"Flipped {SOLVER_LABELS['snake']} #{snake.number} about its head's vertical"


@pytest.mark.slow
def test_nothing_selected_says_so(app):
    pause(app)
    app.scene.select(None)
    app.selected_changed()
    before = [bits(c) for c in app.scene.chains]
    flip_key(app)
    assert "select one" in app.message
    assert [bits(c) for c in app.scene.chains] == before


@pytest.mark.slow
def test_a_flip_that_cannot_be_made_says_why_and_changes_nothing(app):
    chain = select_solver(app, "ccd")
    pause(app)
    chain.fields["limits"][0] = (math.radians(-30), math.radians(60))  # across 0: its mirror would cross 180
    chain.fields["angles"][0] = chain.fields["goal"][0] = 0.5
    before = bits(chain)
    flip_key(app)
    assert app.message_is_error
    assert app.message.startswith(f"Not flipped: CCD #{chain.number}: joint 0's range -30° to 60° runs across 0°")
    assert "\n" not in app.message
    assert bits(chain) == before
    # a target whose mirror image would leave the stage
    chain.fields["limits"][0] = (-math.pi, math.pi)
    chain.fields["root"][0] = 40.0
    chain.fields["target"][0] = 200.0
    before = bits(chain)
    flip_key(app)
    assert app.message_is_error and "would put the target (at x = -120 px) off the stage" in app.message
    assert bits(chain) == before


@pytest.mark.slow
def test_ctrl_z_undoes_a_flip_bit_for_bit_and_ctrl_y_flips_it_again(app):
    chain = select_solver(app, "fabrik")
    frames(app, 20)
    pause(app)
    original = bits(chain)
    flip_key(app)
    flipped = bits(chain)
    assert flipped != original
    tap(app, pygame.K_z, pygame.KMOD_CTRL, "\x1a")
    assert app.message == f"Undid: mirror flip of FABRIK #{chain.number}"
    assert bits(chain) == original
    tap(app, pygame.K_y, pygame.KMOD_CTRL, "\x19")
    assert app.message == f"Redid: mirror flip of FABRIK #{chain.number}"
    assert bits(chain) == flipped


@pytest.mark.slow
def test_an_undo_of_a_flip_that_cannot_be_flipped_back_says_so_and_keeps_the_entry(app):
    chain = select_solver(app, "ccd")
    pause(app)
    flip_key(app)
    flipped = bits(chain)
    w = app.scene.stage[0]
    far = w - 1.0 if chain.fields["root"][0] < w / 2 else 1.0
    chain.fields["target"][0] = far  # the target moved on (a motion path): its mirror image is off the stage
    moved = bits(chain)
    tap(app, pygame.K_z, pygame.KMOD_CTRL, "\x1a")
    assert app.message_is_error and app.message.startswith(f"Not undone: mirror flip of CCD #{chain.number}")
    assert bits(chain) == moved and len(app.history) == 1 and app.history.redoable == 0  # still to undo
    chain.fields["target"][0] = np.frombuffer(flipped["target"])[0]  # back where the flip put it
    tap(app, pygame.K_z, pygame.KMOD_CTRL, "\x1a")
    assert app.message == f"Undid: mirror flip of CCD #{chain.number}" and len(app.history) == 0
