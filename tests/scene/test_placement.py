"""Where N puts a new chain (scene/build/placement.py, Scene.place_chain): clear spots near a point, in a box,
the target within reach, so the chain reaches at once."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ikplayground.scene import Scene, default_scene
from ikplayground.scene.build.placement import REACH_SHARE, place, spiral, taken

STAGE = (980.0, 720.0)


def test_the_spiral_starts_at_the_point_and_goes_out_ring_by_ring():
    pts = spiral((100.0, 50.0), 10.0, 0, 3)
    assert tuple(pts[0]) == (100.0, 50.0)
    assert len(pts) == 1 + 8 + 16 and len({tuple(p) for p in pts.tolist()}) == len(pts)
    rings = np.abs(pts - (100.0, 50.0)).max(axis=1) / 10.0
    assert (np.diff(rings) >= 0).all()


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 980), st.floats(0, 720)), max_size=40),
       st.tuples(st.floats(-200, 1200), st.floats(-200, 900)), st.floats(20, 60), st.floats(60, 400))
def test_a_placed_root_and_target_are_in_the_box_clear_and_in_reach(others, near, spacing, reach):
    box = (100.0, 80.0, 900.0, 650.0)
    others = np.array(others, dtype=float).reshape(-1, 2)
    root, target = place(near, reach, box, others, spacing)
    for p in (root, target):
        assert box[0] <= p[0] <= box[2] and box[1] <= p[1] <= box[3]
    d = np.hypot(*(target - root))
    assert d <= reach * REACH_SHARE + 1e-9
    # when a clear spot was found, both points keep their distance from the others
    clear = (not len(others)) or min(np.hypot(*(others - root).T).min(), np.hypot(*(others - target).T).min()) \
        >= spacing - 1e-9
    if clear:
        assert d == pytest.approx(reach * REACH_SHARE)


@pytest.mark.slow
@pytest.mark.parametrize("solver", ["two-bone", "ccd", "fabrik", "dls", "snake", "walker"])
def test_place_chain_twenty_times_gives_working_chains_apart(solver):
    scene = default_scene(STAGE)
    added = [scene.place_chain(solver, (300.0, 300.0), (0.0, 0.0) + STAGE, 40.0) for _ in range(20)]
    scene.step()
    scene.step()
    points = taken(scene.chains)
    d = np.hypot(*(points[:, None] - points[None]).transpose(2, 0, 1))
    np.fill_diagonal(d, np.inf)
    if solver != "walker":  # a walker's body stands on the ground, wherever its x is
        assert d.min() >= 40.0 - 1e-9 or solver == "snake" and d.min() > 0
    for c in added:
        assert c.status in ("reached", "iterating"), c.status
        if c.is_ik:
            reach = float(c.fields["lengths"].sum())
            assert np.hypot(*(c.fields["target"] - c.fields["root"])) == pytest.approx(REACH_SHARE * reach)
            assert 0 <= c.fields["target"][0] <= STAGE[0] and 0 <= c.fields["target"][1] <= STAGE[1]


def test_place_chain_keeps_to_the_stage_when_the_box_shows_none_of_it():
    scene = Scene(STAGE)
    chain = scene.place_chain("ccd", (5000.0, 5000.0), (4000.0, 4000.0, 6000.0, 6000.0))
    for p in (chain.fields["root"], chain.fields["target"]):
        assert 0 <= p[0] <= STAGE[0] and 0 <= p[1] <= STAGE[1]


def test_place_chain_refuses_an_unknown_solver():
    scene = Scene(STAGE)
    with pytest.raises(ValueError, match="solver"):
        scene.place_chain("jacobian", (10.0, 10.0))
    assert scene.chains == []
