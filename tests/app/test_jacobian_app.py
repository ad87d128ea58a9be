"""The Jacobian family in the App, driven by posted events: the Solver and New chain menus offer Transpose,
Pseudo-inverse and SDLS, a chain turns into each with its hint and the iterative settings, the race races every
method, and the Math page shows the selected solver's update rule."""

from __future__ import annotations

import pygame
import pytest

from ikplayground.insight.race import race_solvers
from ikplayground.scene import SOLVER_KINDS, SOLVER_LABELS
from tests.app.conftest import choose, frames, press_button, select_solver, tap

FAMILY = ("transpose", "pseudo-inverse", "sdls")


def test_the_menus_offer_every_method(app):
    for menu in (app.panel.solver, app.panel.new_chain):
        offered = [text for text, *_ in menu.options_list]
        for name in FAMILY + ("dls",):
            assert SOLVER_LABELS[name] in offered, (name, offered)


@pytest.mark.slow
@pytest.mark.parametrize("solver", FAMILY)
def test_a_chain_turns_into_each_method_from_the_solver_menu(app, solver):
    chain = select_solver(app, "ccd")
    number = chain.number
    choose(app, app.panel.solver, SOLVER_LABELS[solver], k=2)
    chain = app.scene.selected
    assert chain.solver == solver and chain.number == number
    assert app.panel.hint.text == SOLVER_KINDS[solver].hint
    assert app.panel.params["iterations"].slider.is_enabled
    assert not app.panel.params["damping"].slider.visible  # DLS's own
    frames(app, 30)
    assert chain.error <= 1.0  # stepping toward its target as the others do


@pytest.mark.slow
def test_the_race_races_every_method_and_the_math_page_names_its_rule(app):
    chain = select_solver(app, "sdls")  # added from the New chain menu
    press_button(app, app.panel.tabs["math"], k=2)
    card = app.panel.math_page.card
    assert (SOLVER_KINDS["sdls"].rule, card.size[0]) in card._rules  # the rule's lines were laid out and drawn
    tap(app, pygame.K_r)
    assert app.race.on
    assert tuple(c.solver for c in app.scene.chains) == race_solvers(chain.bones)
    assert set(FAMILY) <= {c.solver for c in app.scene.chains}
    frames(app, 10)
    assert {r.solver for r in app.race.table()} >= set(FAMILY) | {"dls"}
    tap(app, pygame.K_r)
    assert not app.race.on
