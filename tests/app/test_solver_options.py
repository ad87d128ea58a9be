"""The solver options in the real App: the pole handle, the two-bone controls, mix, DLS, and the status badge.

Each test drives the App only by posted events (clicks, drags, the panel's
check boxes and sliders) and then looks at the chain and at the screen.
"""

from __future__ import annotations

import math

import numpy as np
import pygame
import pytest

from ikplayground.app.draw.badges import BADGE_COLOURS, POLE_RADIUS
from ikplayground.app.status_line import status_facts
from ikplayground.scene.core.constants import SOLVER_LABELS
from tests.app.conftest import check, choose, drag, frames, select_solver, slide


def chain_for(app, solver: str):
    """Select a chain of ``solver`` (the default scene has none of DLS: its CCD chain is switched to it)."""
    if solver != "dls":
        return select_solver(app, solver)
    chain = select_solver(app, "ccd")
    choose(app, app.panel.solver, SOLVER_LABELS["dls"])
    assert chain.solver == "dls"
    return chain


def bend_side(chain) -> float:
    """The sum of the inner joints' signed distances from the root-target line (its sign: the bend's side)."""
    f = chain.fields
    u = f["target"] - f["root"]
    u = u / np.hypot(*u)
    inner = f["points"][1:-1] - f["root"]
    return float((u[0] * inner[:, 1] - u[1] * inner[:, 0]).sum())


def side_of(chain, p) -> float:
    u = chain.fields["target"] - chain.fields["root"]
    d = np.asarray(p, dtype=float) - chain.fields["root"]
    return float(u[0] * d[1] - u[1] * d[0])


@pytest.mark.slow
@pytest.mark.parametrize("solver", ["two-bone", "ccd", "fabrik", "dls"])
def test_the_pole_box_puts_a_handle_on_the_side_the_chain_bends_and_dragging_it_across_flips_the_bend(app, solver):
    chain = chain_for(app, solver)
    frames(app, 60)
    if abs(bend_side(chain)) < 1.0:  # a straight chain has no side yet: aim it short so it bends
        chain.fields["target"][:] = chain.fields["root"] + 0.6 * (chain.fields["points"][-1] - chain.fields["root"])
        frames(app, 120)
    before = bend_side(chain)
    check(app, app.panel.pole_on, True)
    assert chain.pole is not None
    pole = chain.pole.copy()
    assert side_of(chain, pole) * before > 0, "the new pole stands on the side the chain bends now"
    # drag the diamond to its mirror image across the root-target line
    r, t = chain.fields["root"], chain.fields["target"]
    u = (t - r) / np.hypot(*(t - r))
    foot = r + u * np.dot(pole - r, u)
    across = 2 * foot - pole
    assert 0 <= across[0] <= app.scene.stage[0] and 0 <= across[1] <= app.scene.stage[1]
    drag(app, pole, across)
    assert np.allclose(chain.pole, np.round(across), atol=1.0)
    frames(app, 200)
    assert side_of(chain, chain.pole) * bend_side(chain) > 0, "the chain bends toward the dragged pole"
    check(app, app.panel.pole_on, False)
    assert chain.pole is None


@pytest.mark.slow
def test_the_pole_is_drawn_as_a_diamond(app):
    chain = select_solver(app, "ccd")
    check(app, app.panel.pole_on, True)
    frames(app)
    x, y = (int(v) for v in np.round(chain.pole))
    ring = [app.screen.get_at((x + dx, y + dy))[:3] for dx, dy in ((POLE_RADIUS - 1, 0), (0, POLE_RADIUS - 1))]
    background = app.renderer.background(app.stage_rect.size).get_at((x + POLE_RADIUS - 1, y))[:3]
    assert any(c != background for c in ring)


def two_bone(app):
    chain = select_solver(app, "two-bone")
    check(app, app.panel.rate_on, False)  # no rate limit: the arm shows each answer at once
    return chain


def put_target_at(app, chain, distance: float, angle: float = 0.0) -> None:
    chain.fields["target"][:] = chain.fields["root"] + distance * np.array((math.cos(angle), math.sin(angle)))
    frames(app, 2)


def tip_distance(chain) -> float:
    return float(np.hypot(*(chain.fields["points"][-1] - chain.fields["root"])))


@pytest.mark.slow
def test_softness_eases_the_arm_short_of_full_reach(app):
    chain = two_bone(app)
    reach = float(chain.fields["lengths"].sum())
    put_target_at(app, chain, reach - 5.0)
    assert tip_distance(chain) == pytest.approx(reach - 5.0, abs=1e-6)
    slide(app, "softness", 40.0)
    assert chain.fields["softness"][0] == 40.0
    frames(app, 2)
    assert reach - 40.0 < tip_distance(chain) < reach - 5.0 - 1.0
    assert chain.status == "eased"


@pytest.mark.slow
def test_stretch_lets_the_arm_reach_past_its_length(app):
    chain = two_bone(app)
    reach = float(chain.fields["lengths"].sum())
    put_target_at(app, chain, reach * 1.3)
    assert tip_distance(chain) == pytest.approx(reach, rel=1e-9)
    assert chain.status == "out of reach"
    slide(app, "stretch", 1.5)
    frames(app, 2)
    assert tip_distance(chain) == pytest.approx(reach * 1.3, abs=1e-6)
    assert chain.fields["scale"][0] == pytest.approx(1.3)
    assert chain.status == "reached"


def knee_above(chain) -> bool:
    f = chain.fields
    knee = f["points"][1]
    return bool(knee[1] < (f["root"][1] + f["target"][1]) / 2 - 1.0)


@pytest.mark.slow
def test_auto_bend_keeps_the_knee_on_top_across_the_root_and_holds_near_it(app):
    chain = two_bone(app)
    check(app, app.panel.auto_bend, True)
    reach = float(chain.fields["lengths"].sum())
    for angle in (math.radians(10), math.radians(170)):  # the target right, then left of the root
        put_target_at(app, chain, reach * 0.7, angle)
        assert knee_above(chain), math.degrees(angle)
    side = chain.fields["side"][0]
    put_target_at(app, chain, reach * 0.7, -math.pi / 2 + 0.01)  # hovering on the vertical: no switch
    assert chain.fields["side"][0] == side
    check(app, app.panel.auto_bend, False)
    put_target_at(app, chain, reach * 0.7, math.radians(170))
    assert not knee_above(chain), "without auto bend, the fixed bend puts the knee below on the left"


@pytest.mark.slow
@pytest.mark.parametrize("solver", ["two-bone", "ccd", "fabrik", "dls"])
def test_mix_blends_the_rest_pose_with_the_ik_pose(app, solver):
    chain = chain_for(app, solver)
    check(app, app.panel.rate_on, False)
    frames(app, 30)
    ik = chain.fields["goal"].copy()
    slide(app, "mix", 0.0)
    frames(app, 2)
    rest = np.clip(np.r_[-math.pi / 2, np.zeros(chain.bones - 1)], chain.fields["limits"][:, 0],
                   chain.fields["limits"][:, 1])
    assert np.allclose(chain.fields["angles"], rest)
    slide(app, "mix", 0.5)
    frames(app, 2)
    assert np.allclose(chain.fields["angles"], rest + 0.5 * (chain.fields["goal"] - rest), atol=1e-9)
    assert chain.status in ("mixed", "out of reach")
    assert not np.allclose(chain.fields["goal"], rest) or np.allclose(ik, rest)


@pytest.mark.slow
def test_dls_is_in_the_solver_list_and_its_damping_slider_sets_the_chain(app):
    chain = select_solver(app, "ccd")
    choose(app, app.panel.solver, SOLVER_LABELS["dls"])
    assert chain.solver == "dls"
    slide(app, "damping", 1.25)
    assert chain.fields["damping"][0] == 1.25
    frames(app, 120)
    assert chain.status in ("reached", "out of reach", "stalled")


@pytest.mark.slow
def test_a_pinned_chain_shows_a_stalled_badge_and_its_pinned_joints(app):
    chain = select_solver(app, "fabrik")
    slide(app, "joint_limit", 2.0)  # nearly straight
    r = chain.fields["root"]
    reach = float(chain.fields["lengths"].sum())
    chain.fields["target"][:] = r + (reach * 0.5, -reach * 0.3)  # near, to the side: needs a bend it cannot make
    frames(app, 240)
    assert chain.status == "stalled"
    facts = status_facts(app.scene, None, 0.0, 0.0, False, False)
    assert f"#{chain.number}" in facts and "stalled" in facts and f"{int(chain.fields['used'][0])} it" in facts
    frames(app)
    colour = BADGE_COLOURS["stalled"]
    tip = chain.fields["points"][-1]
    x0, y0 = (int(v) for v in np.round(tip - 80))
    area = pygame.Rect(x0, y0, 160, 160).clip(app.screen.get_rect())
    pixels = pygame.surfarray.pixels3d(app.screen)[area.left:area.right, area.top:area.bottom]
    near = np.abs(pixels.astype(int) - np.array(colour)).sum(axis=2) <= 30
    assert near.sum() > 40, "a red 'stalled' badge beside the tip"
