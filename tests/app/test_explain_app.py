"""The App explains itself: a step-through on a chain that has reached says what to do and the Math page's
live numbers follow the steps; G on a walker draws its legs' reach and planted feet; counts read "1 chain";
tool tips do not linger."""

from __future__ import annotations

import numpy as np
import pygame
import pytest

from ikplayground.app.status_line import status_facts
from tests.app.conftest import click, drag, frames, rect_centre, select_solver, tap
from tests.app.conftest import move_mouse as post_move
from tests.app.test_math_app import stage_copy


@pytest.mark.slow
def test_stepping_a_chain_that_has_reached_says_to_move_the_target_first(app):
    chain = select_solver(app, "ccd")
    drag(app, chain.fields["target"], chain.fields["root"] + (-60, -80))
    frames(app, 120)
    assert chain.status == "reached"
    tap(app, pygame.K_PERIOD)
    text = app.math.status_text()
    assert "reached: drag the target, then press . to step" in text and "0 sweeps" not in text


@pytest.mark.slow
@pytest.mark.parametrize("solver", ["ccd", "fabrik"])
def test_the_live_numbers_follow_the_steps(app, solver):
    chain = select_solver(app, solver)
    drag(app, chain.fields["target"], chain.fields["root"] + (-90, -120))
    tap(app, pygame.K_SPACE)
    for sweep in (1, 2):
        tap(app, pygame.K_COMMA)
        row = app.math.metrics.latest()
        assert app.math.metrics.chain is chain and row.iterations == sweep
        assert row.error_px == pytest.approx(chain.error)
        assert f"{sweep} it" in status_facts(app.scene, None, 0.0, 0.0, False, True, app.math.status_text())
    tap(app, pygame.K_SLASH)
    assert app.math.metrics.latest().iterations == app.math.session.solution.iterations


@pytest.mark.slow
def test_g_on_a_walker_draws_its_legs_reach_and_feet(app):
    walker = select_solver(app, "walker")
    frames(app, 30)
    tap(app, pygame.K_SPACE)  # still: only the overlay changes the pixels
    before = stage_copy(app)
    tap(app, pygame.K_g, unicode="g")
    after = stage_copy(app)
    f = walker.fields
    m = f["lengths"].shape[-1]
    hip = f["points"].reshape(-1, m + 1, 2)[0, 0]
    r = float(f["lengths"][0].sum())
    h, w = before.shape[1], before.shape[0]
    top = (int(round(hip[0])), int(round(hip[1] - r)))  # the top of the first leg's reach circle
    assert 0 <= top[1] < h and 0 <= top[0] < w
    box = (slice(top[0] - 3, top[0] + 4), slice(max(top[1] - 3, 0), top[1] + 4))
    assert np.any(before[box] != after[box])
    tap(app, pygame.K_g, unicode="g")
    assert np.array_equal(stage_copy(app), before)


def test_one_chain_is_one_chain(app):
    while len(app.scene.chains) > 1:
        tap(app, pygame.K_BACKSPACE)
    facts = status_facts(app.scene, None, 0.0, 0.0, False, False)
    assert "1 chain " in facts + " " and "1 chains" not in facts


@pytest.mark.slow
def test_a_tool_tip_goes_at_a_key_and_when_the_mouse_leaves(app, monkeypatch):
    where = [(200, 300)]  # pygame_gui reads the pointer itself: headless, it is where the posted motions put it
    monkeypatch.setattr(pygame.mouse, "get_pos", lambda: where[0])
    button = app.panel.add_button

    def move_mouse(app, pos, k=1):
        where[0] = pos
        post_move(app, pos, k=k)
    for _ in range(2):
        move_mouse(app, rect_centre(button), k=75)  # hovered past the tip's delay (1 s)
        assert button.tool_tip is not None
        tap(app, pygame.K_F1)
        assert button.tool_tip is None
        frames(app, 80)
        assert button.tool_tip is None  # not again while the mouse stays
        tap(app, pygame.K_F1)
        move_mouse(app, (200, 300))  # off it, and back: the tip comes again
    move_mouse(app, rect_centre(button), k=80)
    assert button.tool_tip is not None
    move_mouse(app, (200, 300))
    assert button.tool_tip is None


@pytest.mark.slow
def test_no_tool_tip_covers_an_open_drop_down_list(app, monkeypatch):
    where = [(200, 300)]
    monkeypatch.setattr(pygame.mouse, "get_pos", lambda: where[0])
    menu = app.panel.new_chain
    centre = rect_centre(menu)
    where[0] = centre
    click(app, centre)  # the list opens; the mouse rests on the menu, past a tip's delay
    frames(app, 90)
    assert app.panel.open_menus() == [menu]
    shown = [el for el in app.ui.get_sprite_group().sprites() if getattr(el, "tool_tip", None) is not None]
    assert shown == []
    tap(app, pygame.K_ESCAPE)  # closed: the tip may come again once the mouse moves onto the menu anew
    assert app.panel.open_menus() == []
