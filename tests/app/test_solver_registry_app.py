"""A solver registered as one entry is in the App: the New chain menu adds it, the panel shows its hint
and the iterative settings, and the race races it (docs/design.md, "Recipes")."""

from __future__ import annotations

import pygame
import pygame_gui
import pytest

from ikplayground.app.app import App
from ikplayground.scene import SolverKind, register, unregister
from tests.app.conftest import SIZE, frames, move_mouse, post, started, tap
from tests.scene.test_solver_registry import jacobian_transpose

HINT = "Toy: Jacobian transpose steps."


@pytest.fixture
def toy_app(scene_file):
    register(SolverKind("toy", "Toy JT", "ik", HINT, iterative=True, engine=jacobian_transpose, colour=6))
    app = started(App(size=SIZE, realtime=False, scene_path=scene_file))
    yield app
    app.close()
    unregister("toy")


@pytest.mark.slow
def test_the_new_chain_menu_adds_a_registered_solver_with_its_panel(toy_app):
    app = toy_app
    assert "Toy JT" in app.panel.new_chain.options_list[-1]
    post(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, ui_element=app.panel.new_chain, text="Toy JT")
    move_mouse(app, (300, 420))
    tap(app, pygame.K_n, unicode="n")
    chain = app.scene.selected
    assert chain is not None and chain.solver == "toy"
    frames(app, 30)
    assert app.panel.title.text == f"Toy JT #{chain.number}" and app.panel.hint.text == HINT
    assert app.panel.params["iterations"].slider.is_enabled
    assert not app.panel.params["damping"].slider.visible  # DLS's own
    tap(app, pygame.K_r, unicode="r")  # the race, on this chain's bones
    assert "toy" in {c.solver for c in app.scene.chains}
