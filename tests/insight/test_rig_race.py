"""A rig races itself: a FABRIK copy and a DLS copy in two lanes, the first target shared and moved by the race,
the other targets held where they are from each root; the table names the two methods."""

from __future__ import annotations

import numpy as np

from ikplayground.insight.race import Race
from ikplayground.scene.build.rig_build import humanoid_rig

STAGE = (980.0, 720.0)


def race_of_a_humanoid():
    template = humanoid_rig(standing_on=(300.0, 680.0))
    return template, Race(STAGE, template)


def test_two_copies_of_the_rig_one_a_method():
    template, race = race_of_a_humanoid()
    chains = race.chains
    assert [c.solver for c in chains] == ["rig", "rig"]
    assert [int(c.fields["method"][0]) for c in chains] == [0, 1]
    for c in chains:
        np.testing.assert_array_equal(c.fields["parents"], template.fields["parents"])
        np.testing.assert_array_equal(c.fields["lengths"], template.fields["lengths"])
        np.testing.assert_array_equal(c.fields["limits"], template.fields["limits"])
        np.testing.assert_allclose(c.fields["targets"] - c.fields["root"], template.fields["targets"]
                                   - template.fields["root"], atol=1e-9)
    assert [row.label for row in race.table()] == ["FABRIK rig", "DLS rig"]


def test_the_moving_target_moves_the_first_target_of_both_and_holds_the_others():
    _, race = race_of_a_humanoid()
    held = [c.fields["targets"][1:] - c.fields["root"] for c in race.chains]
    race.set_moving(True)
    for _ in range(30):
        race.drive()
        race.scene.step()
        race.record()
    a, b = race.chains
    np.testing.assert_allclose(a.fields["targets"][0] - a.fields["root"], b.fields["targets"][0] - b.fields["root"])
    for c, rest in zip(race.chains, held):
        np.testing.assert_array_equal(c.fields["targets"][1:] - c.fields["root"], rest)
    rows = race.table()
    assert all(row.iterations > 0 for row in rows)  # each racer's metrics recorded its solves


def test_a_dragged_first_target_sets_the_shared_offset():
    _, race = race_of_a_humanoid()
    a, b = race.chains
    race.scene.move_target(a, a.fields["root"] + (40.0, -180.0), "target:0")
    race.drive()
    np.testing.assert_allclose(b.fields["targets"][0] - b.fields["root"], (40.0, -180.0))
