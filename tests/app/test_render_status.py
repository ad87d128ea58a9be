"""What the renderer tells: the line to a missed target, and a wedge at every clamped joint.

The renderer decides nothing of its own here: the line follows the scene's
"reached" (the tip within tolerance of the target after the step), and a joint
gets a wedge exactly when the solvers clamp it.
"""

from __future__ import annotations

import math

import numpy as np
import pygame
import pytest

from ikplayground.app.draw import render
from ikplayground.scene.build import build
from ikplayground.solvers import clamp_angle
from tests.app.conftest import check, drag, frames, select_solver, slide


def reach_lines(app, monkeypatch) -> list[tuple]:
    """The reach lines one drawn frame holds, as (start, end) pairs."""
    lines = []
    real = pygame.draw.aaline

    def recording(surface, colour, start, end, *args, **kwargs):
        if tuple(colour)[:3] == render.REACH_LINE:
            lines.append((tuple(start), tuple(end)))
        return real(surface, colour, start, end, *args, **kwargs)

    monkeypatch.setattr(pygame.draw, "aaline", recording)
    frames(app)
    monkeypatch.undo()
    return lines


@pytest.mark.slow
def test_a_chain_held_short_by_its_joint_limits_is_tied_to_its_target(app, monkeypatch):
    """A CCD chain made a straight 252 px rod cannot put its tip on a target 162 px from its root."""
    chain = select_solver(app, "ccd")
    check(app, app.panel.rate_on, False)
    slide(app, "joint_limit", 0)
    root = chain.fields["root"]
    drag(app, chain.fields["target"], (root[0], root[1] - 162.0))
    frames(app, 30)
    assert math.dist(chain.fields["root"], chain.fields["target"]) < chain.fields["lengths"].sum()
    assert chain.error > 80.0
    lines = reach_lines(app, monkeypatch)
    tip, target = chain.tip.tolist(), chain.fields["target"].tolist()
    assert any(np.allclose(a, tip) and np.allclose(b, target) for a, b in lines), lines


@pytest.mark.slow
def test_a_chain_on_its_target_draws_no_reach_line(app, monkeypatch):
    chain = select_solver(app, "two-bone")
    check(app, app.panel.rate_on, False)
    root = chain.fields["root"]
    drag(app, chain.fields["target"], (root[0] + 120.0, root[1] - 60.0))
    frames(app, 5)
    assert chain.error <= chain.tolerance
    tip = chain.tip.tolist()
    assert not any(np.allclose(a, tip) for a, _ in reach_lines(app, monkeypatch))


# --- limit wedges ---------------------------------------------------------------------
def wedge_centres(app, chain, monkeypatch) -> list[tuple[float, float]]:
    centres = []
    monkeypatch.setattr(render, "draw_wedge", lambda surface, centre, lo, hi, radius: centres.append(centre))
    app.renderer.draw_selection(pygame.Surface(app.screen.get_size()), chain)
    monkeypatch.undo()
    return centres


def solvers_clamp(lo: float, hi: float) -> bool:
    """Whether the solvers hold a joint of range [lo, hi] at ``hi`` rather than let it wrap round."""
    return clamp_angle(hi + 1e-3, lo, hi) == hi


@pytest.mark.slow
@pytest.mark.parametrize("short_of_circle", [0.0, 1e-10, 1e-9, 1e-8, 1e-7, 1e-6, 1e-3, math.pi])
def test_a_joint_gets_a_wedge_exactly_when_the_solvers_clamp_it(app, monkeypatch, short_of_circle):
    lo = -math.pi
    hi = lo + 2 * math.pi - short_of_circle
    limits = [(-math.pi, math.pi), (lo, hi), (-math.pi / 4, math.pi / 4)]
    chain = build.make_ik_chain("ccd", (400.0, 500.0), [-math.pi / 2, 0.0, 0.0], [60.0, 60.0, 60.0],
                                (450.0, 300.0), limits=limits)
    centres = wedge_centres(app, chain, monkeypatch)
    joint = [tuple(p) for p in chain.fields["points"][:3].tolist()]
    assert joint[0] not in centres  # the full circle: no limit
    assert joint[2] in centres  # +-45 degrees
    assert (joint[1] in centres) == solvers_clamp(lo, hi)


@pytest.mark.slow
def test_a_range_a_hair_short_of_the_full_circle_is_clamped_and_shows_a_wedge(app, monkeypatch):
    lo, hi = -math.pi, math.pi - 1e-7
    assert solvers_clamp(lo, hi)
    chain = build.make_ik_chain("fabrik", (400.0, 500.0), [-math.pi / 2, 0.0], [80.0, 80.0], (450.0, 300.0),
                                limits=[(-math.pi, math.pi), (lo, hi)])
    assert tuple(chain.fields["points"][1].tolist()) in wedge_centres(app, chain, monkeypatch)


def test_the_renderer_has_one_colour_for_every_palette_index_the_scene_hands_out():
    from ikplayground.app.draw.render import PALETTE
    from ikplayground.scene.core.constants import PALETTE_SIZE
    from ikplayground.scene.core.scene import Scene

    assert len(PALETTE) == PALETTE_SIZE
    scene = Scene()
    colours = [scene.new_chain("ccd").palette_index for _ in range(PALETTE_SIZE + 2)]
    assert colours == [i % PALETTE_SIZE for i in range(PALETTE_SIZE + 2)]
