"""Fixtures and input helpers for the headless App tests.

tests/conftest.py has already set ``SDL_VIDEODRIVER=dummy`` before anything
imports pygame. Every test gets a real :class:`App` (fixed step: one scene
step per frame) and drives it only with posted pygame / pygame_gui events,
then runs frames: the events of a frame are handled before that frame's step.
"""

from __future__ import annotations

import math

import numpy as np
import pygame
import pygame_gui
import pytest

from ikplayground.app.app import App
from ikplayground.scene import SOLVER_LABELS

SIZE = (1280, 720)


@pytest.fixture
def scene_file(tmp_path):
    return tmp_path / "s.json"


def started(app: App) -> App:
    """``app`` past its start-up: the events its making queued taken off (by ``get``: pygame-ce keeps a
    ``clear``-ed event's dict alive, and pygame_gui's events hold their widgets), one frame run."""
    pygame.event.get()
    app.run(max_frames=1)  # let the window's own start-up events through
    return app


@pytest.fixture
def app(scene_file):
    app = started(App(size=SIZE, realtime=False, scene_path=scene_file))
    yield app
    app.close()


# --- running ---------------------------------------------------------------------
def frames(app: App, k: int = 1) -> None:
    """Run ``k`` more frames (``App.run`` counts frames from the start)."""
    app.run(max_frames=app.frames + k)


def post(type_, **attrs) -> None:
    pygame.event.post(pygame.event.Event(type_, attrs))


# --- keyboard --------------------------------------------------------------------
def key_down(key: int, mod: int = pygame.KMOD_NONE, unicode: str = "") -> None:
    post(pygame.KEYDOWN, key=key, mod=mod, unicode=unicode, scancode=0)


def key_up(key: int, mod: int = pygame.KMOD_NONE, unicode: str = "") -> None:
    post(pygame.KEYUP, key=key, mod=mod, unicode=unicode, scancode=0)


def tap(app: App, key: int, mod: int = pygame.KMOD_NONE, unicode: str = "", k: int = 1) -> None:
    """Press and release a key, then run ``k`` frames."""
    key_down(key, mod, unicode)
    key_up(key, mod, unicode)
    frames(app, k)


def hold(app: App, key: int, presses: int, unicode: str = "") -> None:
    """Hold ``key`` through ``presses`` KEYDOWNs (a press and its auto-repeats) in one frame, then let it go."""
    for _ in range(presses):
        key_down(key, unicode=unicode)
    frames(app)
    key_up(key, unicode=unicode)
    frames(app)


def ctrl(app: App, key: int, unicode: str = "") -> None:
    tap(app, key, pygame.KMOD_CTRL, unicode)


# --- mouse -----------------------------------------------------------------------
def _pos(p) -> tuple[int, int]:
    return (round(float(p[0])), round(float(p[1])))


def move_mouse(app: App, pos, buttons=(0, 0, 0), rel=(0, 0), k: int = 1) -> None:
    post(pygame.MOUSEMOTION, pos=_pos(pos), rel=rel, buttons=buttons)
    frames(app, k)


def mouse_down(app: App, pos, k: int = 1) -> None:
    post(pygame.MOUSEBUTTONDOWN, pos=_pos(pos), button=1)
    frames(app, k)


def mouse_up(app: App, pos, k: int = 1) -> None:
    post(pygame.MOUSEBUTTONUP, pos=_pos(pos), button=1)
    frames(app, k)


def click(app: App, pos) -> None:
    """A real click: hover, press, a frame, release."""
    move_mouse(app, pos)
    mouse_down(app, pos)
    mouse_up(app, pos)


def drag(app: App, start, end, steps: int = 6, release: bool = True) -> None:
    """Press at ``start``, move in ``steps`` motions (a frame each) to ``end``, release there."""
    start = np.asarray(start, dtype=float)
    end = np.asarray(end, dtype=float)
    move_mouse(app, start)
    mouse_down(app, start)
    last = _pos(start)
    for t in np.linspace(0.0, 1.0, steps + 1)[1:]:
        p = _pos(start + (end - start) * t)
        move_mouse(app, p, buttons=(1, 0, 0), rel=(p[0] - last[0], p[1] - last[1]))
        last = p
    if release:
        mouse_up(app, end)


def rect_centre(widget) -> tuple[int, int]:
    return widget.get_abs_rect().center


# --- pygame_gui events, as the widgets post them ---------------------------------
def slide(app: App, action: str, value, k: int = 1) -> None:
    """Move a panel slider to ``value`` and post its moved event."""
    slider = app.panel.params[action].slider
    slider.set_current_value(value, warn=False)
    post(pygame_gui.UI_HORIZONTAL_SLIDER_MOVED, ui_element=slider, value=value)
    frames(app, k)


def choose(app: App, menu, text: str, k: int = 1) -> None:
    post(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, ui_element=menu, text=text)
    frames(app, k)


def check(app: App, box, on: bool, k: int = 1) -> None:
    post(pygame_gui.UI_CHECK_BOX_CHECKED if on else pygame_gui.UI_CHECK_BOX_UNCHECKED, ui_element=box)
    frames(app, k)


def press_button(app: App, button, k: int = 1) -> None:
    post(pygame_gui.UI_BUTTON_PRESSED, ui_element=button)
    frames(app, k)


# --- scene helpers ---------------------------------------------------------------
def select_solver(app: App, solver: str):
    """Tab until a chain of ``solver`` is selected; returns it. The default scene has no walker, rig, rope, path or
    Jacobian solver but DLS: one is added from the New chain menu (N at a spot clear of the other chains)."""
    for _ in range(len(app.scene.chains) + 1):
        if app.scene.selected is not None and app.scene.selected.solver == solver:
            return app.scene.selected
        tap(app, pygame.K_TAB)
    if solver in ("walker", "rig", "transpose", "pseudo-inverse", "sdls", "rope", "path"):
        post(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, ui_element=app.panel.new_chain, text=SOLVER_LABELS[solver])
        move_mouse(app, (300, 420))
        tap(app, pygame.K_n, unicode="n")
        if app.scene.selected is not None and app.scene.selected.solver == solver:
            return app.scene.selected
    raise AssertionError(f"no {solver} chain to select")


def chain_of(app: App, solver: str):
    return next(c for c in app.scene.chains if c.solver == solver)


def wrapped(a):
    """Angles wrapped to (-pi, pi]."""
    a = np.asarray(a, dtype=float)
    return (a + math.pi) % (2 * math.pi) - math.pi


def inside(stage, p, eps: float = 1e-9) -> bool:
    return -eps <= p[0] <= stage[0] + eps and -eps <= p[1] <= stage[1] + eps


# --- the crowd layer's tests (test_crowd_fast.py, test_crowd_appendages.py) ---------------
@pytest.fixture(scope="module")
def kernels():
    from ikplayground.app.draw import crowd_fast

    pytest.importorskip("numba")
    k = crowd_fast.LOADER.kernels(wait=True)
    if k is None:
        pytest.skip("numba is installed but the crowd kernels are turned off (IKPLAYGROUND_JIT=0)")
    return k


@pytest.fixture(scope="module")
def display():
    pygame.display.init()
    screen = pygame.display.set_mode((320, 240))
    yield screen
    pygame.display.quit()


@pytest.fixture(scope="module")
def crowd(display):
    """A crowd layer (its sprites are made for the display)."""
    from ikplayground.app.draw.render import SceneRenderer

    return SceneRenderer()._crowd
