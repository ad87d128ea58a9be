"""The panel's setting controls come from the table of settings, and "Show limits" works end to end.

The table's own specification is tests/scene/test_settings.py; here: the panel
has exactly one control per entry (a check box for a flag, a slider row for a
number), each enabled exactly for the solvers the entry applies to, the F1
help describes each one, and the "Show limits" check box, in the real App,
keeps an unselected chain's wedges drawn and goes through a save and a load.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pygame
import pytest
from pygame_gui.elements import UICheckBox, UIHorizontalSlider

from ikplayground.app.draw.render import DETAIL_LIMIT, WEDGE_RADIUS
from ikplayground.app.panel.panel_help import panel_table
from ikplayground.app.panel.param_widgets import panel_help_rows
from ikplayground.scene.core.constants import SOLVERS
from ikplayground.scene.core.settings import BY_NAME, SETTINGS
from tests.app.conftest import check, ctrl, frames, select_solver, slide, tap

CONTROLS = Path(__file__).resolve().parents[2] / "docs" / "controls.md"


@pytest.mark.slow
def test_the_panel_has_exactly_one_control_per_setting(app):
    rows = app.panel.setting_rows
    assert set(rows.sliders) | set(rows.boxes) | set(rows.menus) == set(BY_NAME)
    assert len(rows.sliders) + len(rows.boxes) + len(rows.menus) == len(BY_NAME)
    for s in SETTINGS:
        if s.kind == "flag":
            assert isinstance(rows.boxes[s.name], UICheckBox) and getattr(app.panel, s.name) is rows.boxes[s.name]
        elif s.kind == "choice":
            assert [o[0] if isinstance(o, tuple) else o for o in rows.menus[s.name].menu.options_list] == list(
                s.choices)
        else:
            assert isinstance(rows.sliders[s.name].slider, UIHorizontalSlider)
            assert rows.sliders[s.name].slider.value_range == s.span
    object_ids = [el.object_ids[-1] for el in app.ui.get_sprite_group().sprites() if getattr(el, "object_ids", None)]
    for s in SETTINGS:
        assert object_ids.count(f"#{s.name}") == 1, s.name


@pytest.mark.slow
@pytest.mark.parametrize("solver", SOLVERS)
def test_each_control_is_enabled_exactly_for_the_solvers_of_its_setting(app, solver):
    chain = select_solver(app, solver)
    frames(app)
    rows = app.panel.setting_rows
    for s in SETTINGS:
        widget = {"flag": lambda: rows.boxes[s.name], "choice": lambda: rows.menus[s.name].menu}.get(
            s.kind, lambda: rows.sliders[s.name].slider)()
        needs = s.needs is None or not s.applies(solver) or BY_NAME[s.needs].read(chain)  # (its own kinds' flag)
        assert widget.is_enabled == (s.applies(solver) and bool(needs)), s.name
        if s.kind == "flag" and s.applies(solver):
            assert widget.is_checked == s.read(chain), s.name


def test_the_help_describes_every_setting_control():
    assert [label for label, _ in panel_help_rows()] == [s.label for s in SETTINGS]
    rows = dict(panel_help_rows())
    assert "0.5 to 30.0 °/step" in rows["Rate limit"] and rows["Rate limit"].endswith("snake, Walker, Rig")
    assert rows["Elbow limit"].endswith("· two-bone")
    assert rows["Show limits"].endswith("CCD, FABRIK, DLS, Transpose, Pseudo-inverse, SDLS, snake, Rig")
    assert [text.rpartition(" · ")[2] for label, text in panel_help_rows() if label == "Damping"] == ["DLS", "Rope"]
    assert rows["Softness"].endswith("· two-bone")


def test_the_controls_page_panel_table_is_the_panel_s_own():
    text = CONTROLS.read_text(encoding="utf-8")
    assert panel_table() in text, (
        "docs/controls.md's panel table differs from the panel; put this in it:\n" + panel_table())
    for s in SETTINGS:
        assert f"| {s.label} |" in panel_table(), s.label


@pytest.mark.slow
def test_the_help_overlay_draws_with_the_panel_section(app):
    tap(app, pygame.K_F1)
    assert app.show_help
    frames(app)


# --- Show limits, end to end ------------------------------------------------------------------
def around_joints(app, chain) -> bytes:
    """The screen's pixels around ``chain``'s joints, where its wedges would be."""
    pts = chain.fields["points"]
    lo = np.floor(pts.min(axis=0)) - WEDGE_RADIUS - 2
    hi = np.ceil(pts.max(axis=0)) + WEDGE_RADIUS + 2
    rect = pygame.Rect(int(lo[0]), int(lo[1]), int(hi[0] - lo[0]), int(hi[1] - lo[1])).clip(app.stage_rect)
    return pygame.image.tobytes(app.screen.subsurface(rect), "RGB")


@pytest.mark.slow
@pytest.mark.parametrize("solver", ["ccd", "snake"])
def test_show_limits_keeps_an_unselected_chain_s_wedges_drawn(app, solver):
    drawn = []
    real = app.renderer.draw_wedges
    app.renderer.draw_wedges = lambda surface, chain, **kw: drawn.append(chain) or real(surface, chain, **kw)
    tap(app, pygame.K_SPACE)  # paused: only the setting changes what is drawn
    chain = select_solver(app, solver)
    select_solver(app, "two-bone")
    drawn.clear()
    frames(app)
    plain = around_joints(app, chain)
    assert chain not in drawn

    select_solver(app, solver)
    assert app.panel.show_limits.is_enabled and not app.panel.show_limits.is_checked
    check(app, app.panel.show_limits, True)
    assert chain.show_limits is True
    select_solver(app, "two-bone")
    assert not app.panel.show_limits.is_enabled  # a two-bone arm has no limits to show
    drawn.clear()
    frames(app)
    assert chain in drawn
    shown = around_joints(app, chain)
    assert shown != plain

    select_solver(app, solver)
    assert app.panel.show_limits.is_checked
    check(app, app.panel.show_limits, False)
    select_solver(app, "two-bone")
    drawn.clear()
    frames(app)
    assert chain not in drawn and around_joints(app, chain) == plain


@pytest.mark.slow
def test_show_limits_draws_a_crowd_chain_s_wedges_only_while_it_is_ticked(app):
    app.stress.start(DETAIL_LIMIT + 100)  # drawn as a crowd: only the ticked chains get their wedges over it
    tap(app, pygame.K_SPACE)
    ccd, fabrik = (next(c for c in app.scene.chains if c.solver == s) for s in ("ccd", "fabrik"))
    drawn = []
    real = app.renderer.draw_wedges
    app.renderer.draw_wedges = lambda surface, chain, **kw: drawn.append(chain) or real(surface, chain, **kw)
    for chain, ticked in ((ccd, True), (ccd, False)):
        app.scene.select(chain)
        app.selected_changed()
        check(app, app.panel.show_limits, ticked)
        app.scene.select(fabrik)
        app.selected_changed()
        drawn.clear()
        frames(app)
        assert (ccd in drawn) is ticked


@pytest.mark.slow
def test_show_limits_goes_through_a_save_and_a_load(app, scene_file):
    ccd = select_solver(app, "ccd")
    check(app, app.panel.show_limits, True)
    snake = select_solver(app, "snake")
    slide(app, "bend_range", 50)
    ctrl(app, pygame.K_s, "s")
    assert '"show_limits": true' in scene_file.read_text(encoding="utf-8")
    index = app.scene.chains.index(ccd), app.scene.chains.index(snake)
    check(app, app.panel.show_limits, True)  # the snake too: the load must put it back to off
    ctrl(app, pygame.K_o, "o")
    loaded = [app.scene.chains[i] for i in index]
    assert loaded[0] is not ccd and loaded[0].show_limits is True
    assert loaded[1].solver == "snake" and loaded[1].show_limits is False
    select_solver(app, "ccd")
    assert app.panel.show_limits.is_checked


@pytest.mark.parametrize("solver", SOLVERS)
def test_the_help_lists_the_selected_solver_s_settings_as_the_panel_shows_them(solver):
    assert [label for label, _ in panel_help_rows(solver)] == [s.label for s in SETTINGS if s.applies(solver)]


@pytest.mark.parametrize("size", [(1280, 720), (800, 480), (640, 360)])
def test_the_help_overlay_fits_its_box_in_any_window(size):
    """Every line of the help is drawn inside its box, above the closing hint, however short the window."""
    from ikplayground.app.draw import help_view, overlay

    pygame.font.init()
    stage = pygame.Rect(0, 0, size[0] - 300, size[1] - overlay.STATUS_HEIGHT)
    drawn = []
    real = pygame.Surface.blit

    class Spy(pygame.Surface):
        def blit(self, source, dest, *args, **kwargs):
            drawn.append(pygame.Rect(dest, source.get_size()))
            return real(self, source, dest, *args, **kwargs)

    spy = Spy(size)
    help_view.draw_help(spy, stage, overlay.Fonts(), "dls")
    box, *texts = drawn
    hint = texts[-1]
    assert box.height <= stage.height
    for rect in texts[:-1]:
        assert box.top <= rect.top and rect.bottom <= hint.top + 2, rect
