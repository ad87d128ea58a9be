"""Annotations in the App: every label of a frame (the math's, the status badges, the race's name tags) is placed
clear of every other, of every target ring, and inside the stage (never under the panel)."""

from __future__ import annotations

import numpy as np
import pygame
import pytest

from ikplayground.app.draw.render import DETAIL_LIMIT, TARGET_RADIUS
from ikplayground.insight.label_place import overlaps
from ikplayground.scene import IK_SOLVERS, SOLVER_LABELS
from tests.app.conftest import choose, frames, tap

PRESETS = ("default", "seeds", "tentacles", "snakes", "spider", "crowd")


def target_rings(app) -> np.ndarray:
    """The square (k, 4) px about every target ring drawn, from the scene itself: every IK chain's, or in a crowd
    (its targets drawn as dots under the chains) the selected chain's."""
    if len(app.scene.chains) > DETAIL_LIMIT:
        chain = app.scene.selected
        targets = [chain.fields["target"][None]] if chain is not None and chain.is_ik else []
    else:
        targets = [g.fields["target"] for g in app.scene.groups if g.solver in IK_SOLVERS]
    if not targets:
        return np.zeros((0, 4))
    c = np.concatenate(targets)
    return np.column_stack([c - TARGET_RADIUS, np.full((len(c), 2), 2.0 * TARGET_RADIUS)])


def check_frame(app) -> int:
    """This frame's placed boxes overlap nothing, cover no target ring, stay on the stage; how many there were."""
    boxes = app.renderer.notes.last_boxes
    sw, sh = app.scene.stage
    assert app.panel.width == 0 or sw <= app.panel.rect.x  # the stage ends where the panel starts
    for k, box in enumerate(boxes):
        assert not overlaps(box[None], np.delete(boxes, k, axis=0))[0], box
        assert box[0] >= 0 and box[1] >= 0 and box[0] + box[2] <= sw and box[1] + box[3] <= sh, box
    if len(boxes):
        assert not overlaps(boxes, target_rings(app)).any()
    return len(boxes)


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
def test_the_math_s_labels_and_the_badges_never_collide_in_any_preset(app, preset):
    choose(app, app.panel.preset_menu, preset)
    tap(app, pygame.K_g, unicode="g")
    assert app.math.shown
    placed = 0
    for _ in range(min(len(app.scene.chains), 6)):  # several selected chains, each for a few frames
        for _ in range(4):
            frames(app)
            placed += check_frame(app)
        tap(app, pygame.K_TAB)
    if preset != "spider":  # (walkers have no math labels, nor badges)
        assert placed > 0


@pytest.mark.slow
def test_a_race_s_racers_wear_name_tags_placed_clear_of_the_math(app):
    tap(app, pygame.K_g, unicode="g")
    tap(app, pygame.K_r, unicode="r")
    assert app.race.on
    racers = app.race.race.chains
    for _ in range(20):
        frames(app)
        check_frame(app)
    tags = [n for n in app.renderer.notes.notes if n.label.key[0] == "race"]
    assert sorted(n.label.key[1] for n in tags) == sorted(c.solver for c in racers)
    named = {n.label.key[1] for n in tags}
    assert named == {row.solver for row in app.race.table()}  # the race table's rows, by the same names
    assert {SOLVER_LABELS[s] for s in named} == {row.label for row in app.race.table()}
    assert len(app.renderer.notes.last_boxes) >= len(racers)  # every tag found a spot
