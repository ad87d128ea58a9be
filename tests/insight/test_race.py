"""The solver race (insight/race.py): lanes, copied chains, the shared target, the figure-eight and the table."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ikplayground.insight.race import (FIGURE_CENTRE, FIGURE_PERIOD, FIGURE_SIZE, LANE_MARGIN, ROOT_MARGIN, Race,
                                       figure_eight, race_solvers)
from ikplayground.scene.build import build
from ikplayground.scene.core.chain import FULL
from ikplayground.scene.core.constants import SOLVER_LABELS
from ikplayground.scene.core.scene import STEP

STAGE = (1200.0, 900.0)


def run(race: Race, steps: int) -> None:
    for _ in range(steps):
        race.drive()
        race.scene.step()
        race.record()


def two_bone_template():
    chain = build.make_ik_chain("two-bone", (100.0, 400.0), (-1.0, 1.0), (120.0, 100.0), (150.0, 300.0))
    chain.fields["limits"][1] = (-2.0, 2.5)
    return chain


FAMILY = ("ccd", "fabrik", "dls", "transpose", "pseudo-inverse", "sdls")  # every iterative solver, in the table's order


def test_race_solvers_per_bone_count():
    assert race_solvers(2) == ("two-bone",) + FAMILY
    for n in (1, 3, 7):
        assert race_solvers(n) == FAMILY


@pytest.mark.parametrize("template", [None, "snake", "two-bone", "ccd"])
def test_lanes_one_chain_per_solver_side_by_side(template):
    if template == "snake":
        template = build.straight_snake((300.0, 300.0), 0.0)
    elif template == "two-bone":
        template = two_bone_template()
    elif template == "ccd":
        template = build.make_ik_chain("ccd", (0.0, 0.0), np.zeros(4), np.full(4, 50.0), (0.0, -100.0))
    race = Race(STAGE, template)
    chains = race.chains
    k = len(chains)
    bones = 2 if template is not None and template.solver == "two-bone" else (4 if template is not None
                                                                            and template.solver == "ccd" else 7)
    assert tuple(c.solver for c in chains) == race_solvers(bones) == race.solvers
    margin = min(LANE_MARGIN * race.reach, STAGE[0] / 4)  # the outer lanes stand in from the sides
    for i, c in enumerate(chains):
        np.testing.assert_allclose(c.fields["root"], (margin + (i + 0.5) * (STAGE[0] - 2 * margin) / k,
                                                      STAGE[1] - ROOT_MARGIN))
        assert c.fields["angles"][0] == pytest.approx(-math.pi / 2)  # pointing up
        np.testing.assert_allclose(c.fields["points"][-1], c.fields["root"] + (0.0, -race.reach), atol=1e-9)
    assert len({c.palette_index for c in chains}) == k
    assert race.scene.selected is chains[0]
    # the start: 60 % of the reach, 60 degrees right of straight up
    np.testing.assert_allclose(race.offset, 0.6 * race.reach * np.array((math.sin(math.pi / 3), -0.5)))
    for c in chains:
        np.testing.assert_allclose(c.fields["target"], c.fields["root"] + race.offset)


def test_default_template_is_the_default_scenes_tentacle():
    race = Race(STAGE)
    for c in race.chains:
        np.testing.assert_array_equal(c.fields["lengths"], np.full(7, 36.0))
        np.testing.assert_array_equal(c.fields["limits"][0], FULL)
        np.testing.assert_allclose(c.fields["limits"][1:], np.tile((-math.pi / 4, math.pi / 4), (6, 1)))


def test_lengths_limits_and_parameters_are_copied():
    limits = np.array([FULL, (-0.3, 0.5), (-1.0, 0.2)])
    template = build.make_ik_chain("fabrik", (0.0, 0.0), (-1.5, 0.1, 0.0), (30.0, 40.0, 50.0), (10.0, -60.0),
                                   limits=limits, rate_limit=None, iterations=17, tolerance=0.25)
    race = Race(STAGE, template)
    assert race.reach == 120.0
    for c in race.chains:
        np.testing.assert_array_equal(c.fields["lengths"], (30.0, 40.0, 50.0))
        np.testing.assert_array_equal(c.fields["limits"], limits)
        assert c.iterations == 17 and c.tolerance == 0.25 and c.rate_limit is None
    template.rate_limit = 7.5
    assert all(c.rate_limit == 7.5 for c in Race(STAGE, template).chains)
    template.fields["limits"][1] = (-0.1, 0.1)
    assert race.chains[0].fields["limits"][1, 1] == 0.5  # copies, not views of the template


def test_a_two_bone_race_copies_the_arms_limits_to_every_chain():
    template = two_bone_template()
    race = Race(STAGE, template)
    for c in race.chains:
        np.testing.assert_array_equal(c.fields["lengths"], (120.0, 100.0))
        np.testing.assert_array_equal(c.fields["limits"], template.fields["limits"])


def test_targets_are_root_plus_offset_after_drive_and_follow_moved_roots():
    race = Race(STAGE)
    race.offset = np.array((-30.0, -150.0))
    race.drive()
    for c in race.chains:
        np.testing.assert_array_equal(c.fields["target"], c.fields["root"] + (-30.0, -150.0))
    moved = race.chains[1]
    race.scene.move_chain(moved, (500.0, 700.0))
    run(race, 3)
    np.testing.assert_allclose(race.offset, (-30.0, -150.0))  # a moved root is no drag
    np.testing.assert_allclose(moved.fields["target"], (470.0, 550.0))


def test_targets_stay_on_the_stage():
    race = Race(STAGE)
    race.set_offset((-1e4, 0.0))
    for c in race.chains:
        assert c.fields["target"][0] == 0.0
    race.drive()
    np.testing.assert_array_equal(race.offset, (-1e4, 0.0))  # the clamped targets are no drag


def test_a_dragged_target_becomes_the_shared_offset():
    race = Race(STAGE)
    run(race, 5)
    lane = race.chains[2]
    race.scene.move_target(lane, lane.fields["root"] + (40.0, -90.0))
    race.drive()
    np.testing.assert_allclose(race.offset, (40.0, -90.0))
    for c in race.chains:
        np.testing.assert_allclose(c.fields["target"], c.fields["root"] + (40.0, -90.0))


def test_moving_ignores_a_drag_and_stopping_keeps_the_target():
    race = Race(STAGE)
    race.set_moving(True)
    assert race.moving
    run(race, 10)
    lane = race.chains[0]
    race.scene.move_target(lane, lane.fields["root"] + (5.0, -5.0))
    race.drive()
    assert not np.allclose(race.offset, (5.0, -5.0))
    race.set_moving(False)
    where = race.offset.copy()
    run(race, 5)
    np.testing.assert_array_equal(race.offset, where)


@settings(max_examples=50)
@given(st.floats(-100.0, 100.0), st.floats(-300.0, 300.0), st.floats(-300.0, 300.0),
       st.floats(0.0, 200.0), st.floats(0.0, 200.0))
def test_figure_eight_is_periodic_and_inside_its_box(t, cx, cy, a, b):
    p = figure_eight(t, (cx, cy), (a, b))
    np.testing.assert_allclose(figure_eight(t + FIGURE_PERIOD, (cx, cy), (a, b)), p, atol=1e-6)
    assert abs(p[0] - cx) <= a + 1e-9 and abs(p[1] - cy) <= b + 1e-9


def test_figure_eight_crosses_its_centre_twice_a_period():
    np.testing.assert_allclose(figure_eight(0.0, (1.0, 2.0), (5.0, 3.0)), (1.0, 2.0))
    np.testing.assert_allclose(figure_eight(FIGURE_PERIOD / 2, (1.0, 2.0), (5.0, 3.0)), (1.0, 2.0), atol=1e-12)
    quarter = figure_eight(FIGURE_PERIOD / 4, (0.0, 0.0), (5.0, 3.0))
    np.testing.assert_allclose(quarter, (5.0, 0.0), atol=1e-12)  # the right loop's tip


def test_the_moving_target_stays_within_reach_and_loops():
    race = Race(STAGE)
    race.set_moving(True)
    offsets = []
    for _ in range(int(round(FIGURE_PERIOD / STEP))):
        race.drive()
        offsets.append(race.offset.copy())
    offsets = np.array(offsets)
    dist = np.hypot(*offsets.T)
    assert dist.max() <= race.reach * 0.86 and dist.min() >= race.reach * (FIGURE_CENTRE - FIGURE_SIZE[1]) - 1e-9
    np.testing.assert_allclose(offsets[-1], (0.0, -FIGURE_CENTRE * race.reach), atol=1e-9)  # back at the start
    assert np.ptp(offsets[:, 0]) > race.reach * 0.7  # it really moves


@pytest.mark.slow
@pytest.mark.parametrize("template", [None, "two-bone"])
def test_table_on_a_static_reachable_target(template):
    race = Race(STAGE, two_bone_template() if template else None)
    run(race, 400)  # on the target within 100 steps, then a whole 5 s window on it
    rows = race.table()
    assert [r.solver for r in rows] == list(race.solvers)
    for row in rows:
        assert row.label == SOLVER_LABELS[row.solver]
        assert row.reached_share == 1.0 and row.error_px <= 0.5
        assert row.jitter_deg < 1e-6  # at rest
        assert row.solve_us > 0
        assert row.iterations <= (0.0 if row.solver == "two-bone" else 1.0)  # at rest, a solve ends at once


@pytest.mark.slow
@pytest.mark.parametrize("template", [None, "two-bone"])
def test_table_on_a_far_unreachable_target(template):
    race = Race(STAGE, two_bone_template() if template else None)
    turn = 0.4  # rad right of straight up: each chain must turn to face it
    race.set_offset(1.5 * race.reach * np.array((math.sin(turn), -math.cos(turn))))
    run(race, 360)
    for c in race.chains:  # nothing clamped onto the stage
        np.testing.assert_allclose(c.fields["target"] - c.fields["root"], race.offset)
    for row in race.table():
        assert row.reached_share == 0.0
        assert row.error_px == pytest.approx(0.5 * race.reach, abs=0.5), row.solver


def test_rows_follow_the_scenes_chains():
    race = Race(STAGE)
    run(race, 3)
    ccd, fabrik, dls, *others = race.chains
    race.scene.remove(fabrik)
    run(race, 2)
    assert [r.solver for r in race.table()] == ["ccd", "dls"] + [c.solver for c in others]
    assert race.metrics(fabrik) is None and len(race.metrics(ccd)) == 5
    longer = race.scene.set_setting(dls, "bones", 5)  # a new chain in the old one's place
    assert longer is not dls
    run(race, 1)
    assert race.metrics(dls) is None and len(race.metrics(longer)) == 1
    np.testing.assert_allclose(longer.fields["target"], longer.fields["root"] + race.offset)
    race.scene.set_solver(ccd, "fabrik")  # the same chain object, another solver: its history starts over
    run(race, 1)
    assert len(race.metrics(ccd)) == 1
    assert [(r.solver, r.label) for r in race.table()][:2] == [("fabrik", "FABRIK"), ("dls", "DLS")]


def test_a_new_chain_shows_before_its_first_record():
    race = Race(STAGE)
    extra = race.scene.new_chain("ccd", (600.0, 500.0))
    rows = race.table()
    assert len(rows) == len(FAMILY) + 1 and rows[-1].error_px == extra.error and rows[-1].reached_share == 0.0
    race.drive()
    np.testing.assert_allclose(extra.fields["target"], extra.fields["root"] + race.offset)
    race.scene.new_chain("snake", (300.0, 300.0))
    assert len(race.table()) == len(FAMILY) + 1  # a snake does not race


def test_a_new_race_reports_its_starting_error():
    race = Race(STAGE)
    for c, row in zip(race.chains, race.table(), strict=True):
        start = c.fields["root"] + (0.0, -race.reach)  # the straight chain's tip
        assert row.error_px == pytest.approx(float(np.hypot(*(c.fields["target"] - start))))
        assert row.error_px > 50.0
