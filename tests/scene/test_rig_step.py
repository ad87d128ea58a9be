"""A rig's step (docs/design.md, "The rig"): solved toward every target at once, rate-limited, its mix and status."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ikplayground.scene import Scene, humanoid_rig, make_rig, quadruped_rig
from ikplayground.scene.step.rig_step import bone_ends, coordinated
from tests.scene.scene_cases import assert_chain_ok, wrap

STAGE = (980.0, 694.0)
GROUND = 650.0


def settle(scene: Scene, steps: int) -> None:
    for _ in range(steps):
        scene.step()


@pytest.mark.parametrize("method", ["fabrik", "dls"])
@pytest.mark.parametrize("build", [humanoid_rig, quadruped_rig])
def test_a_standing_rig_settles_on_all_its_targets(build, method):
    scene = Scene(STAGE)
    rig = scene.add(build(standing_on=(400.0, GROUND), method=method))
    settle(scene, 200)
    assert rig.fields["errors"].max() <= 0.5 and rig.status == "reached"
    assert_chain_ok(rig)


@pytest.mark.parametrize("method", ["fabrik", "dls"])
def test_a_humanoids_hand_follows_a_dragged_target_while_the_feet_hold_theirs(method):
    scene = Scene(STAGE)
    rig = scene.add(humanoid_rig(standing_on=(400.0, GROUND), height=330.0, method=method))
    settle(scene, 120)
    hand = list(rig.bone_names).index("hand_r")
    index = int(np.flatnonzero(rig.fields["target_bones"] == hand)[0])
    start = rig.fields["targets"][index].copy()
    feet = [j for j, b in enumerate(rig.fields["target_bones"].astype(int)) if rig.bone_names[b].startswith("foot")]
    planted = rig.fields["targets"][feet].copy()
    for k in range(1, 61):  # dragged 90 px up and 40 px forward over a second
        scene.move_target(rig, start + np.array([40.0, -90.0]) * k / 60, f"target:{index}")
        scene.step()
    settle(scene, 120)
    np.testing.assert_array_equal(rig.fields["targets"][feet], planted)  # the feet's targets stay put
    assert rig.fields["errors"][feet].max() <= 0.5  # and the feet on them
    tip = rig.fields["points"][hand + 1]
    assert np.hypot(*(tip - (start + (40.0, -90.0)))) <= 0.5  # the hand where it was taken
    assert_chain_ok(rig)


def test_the_shown_pose_turns_no_joint_more_than_the_rate_limit_a_step():
    scene = Scene(STAGE)
    rig = scene.add(humanoid_rig(standing_on=(400.0, GROUND), rate_limit=2.0))
    scene.move_target(rig, (520.0, 300.0), "target:1")
    for _ in range(30):
        before = rig.fields["angles"].copy()
        scene.step()
        assert np.abs(wrap(rig.fields["angles"] - before)).max() <= math.radians(2.0) + 1e-12
    assert rig.status in ("iterating", "out of reach", "stalled")  # still turning toward a far target


def test_the_rate_limit_turns_every_joint_together_toward_the_answer():
    limits = np.array([[-math.pi, math.pi], [-0.5, 0.5], [-math.pi, math.pi]])
    current, desired = np.array([3.0, -0.4, 0.0]), np.array([-3.0, 0.4, 0.1])  # joint 0 the short way round
    moved = coordinated(current, desired, 0.05, limits)
    turn = wrap(moved - current)
    np.testing.assert_allclose(turn, np.array([2 * math.pi - 6.0, 0.8, 0.1]) * 0.05 / 0.8, atol=1e-12)
    assert np.abs(turn).max() == pytest.approx(0.05)  # the joint that turns most turns by the rate
    np.testing.assert_allclose(coordinated(current, desired, math.inf, limits), wrap(desired), atol=1e-12)


@pytest.mark.parametrize("method", ["fabrik", "dls"])
def test_the_feet_barely_slip_while_a_hand_goes_round_out_of_reach_and_back(method):
    scene = Scene(STAGE)
    rig = scene.add(humanoid_rig(standing_on=(441.0, 645.4), height=380.0, method=method))
    settle(scene, 60)
    home = rig.fields["targets"][1].copy()
    slips = []
    for k in range(400):  # 60 px round a circle reaching 120 px behind the hand: out of reach and back
        scene.move_target(rig, home + 60.0 * np.array([math.cos(k / 30) - 1, math.sin(k / 30)]), "target:1")
        scene.step()
        slips.append(rig.fields["errors"][2:].max())
    assert max(slips) <= 5.0  # (each joint clipped alone, as a chain's rate limit does: 25 px)
    assert np.percentile(slips, 95) <= 1.5


def test_with_the_rate_limit_off_the_shown_pose_is_the_solvers_answer():
    scene = Scene(STAGE)
    rig = scene.add(humanoid_rig(standing_on=(400.0, GROUND), rate_limit=None))
    scene.move_target(rig, rig.fields["targets"][0] + (30.0, -30.0), "target:0")
    scene.step()
    assert np.abs(wrap(rig.fields["angles"] - rig.fields["goal"])).max() <= 1e-12  # (to the rounding of a turn)
    assert np.abs(wrap(rig.fields["goal"] - rig.fields["rest"])).max() > 0.01  # and that answer has moved


def test_a_mix_of_zero_holds_the_bone_at_its_rest_pose_and_one_half_goes_half_way():
    parents, lengths = [-1, 0], [60.0, 50.0]
    rest = [-math.pi / 2, 0.0]
    scene = Scene(STAGE)
    for mix in (0.0, 0.5):
        rig = scene.add(make_rig((300.0, 400.0), parents, rest, lengths, [1], targets=[[400.0, 400.0]],
                                 mix=[mix], rate_limit=None, iterations=50, tolerance=0.01))
        settle(scene, 3)
        f = rig.fields
        home = bone_ends(f, f["rest"])[1]
        aim = home + mix * (np.array([400.0, 400.0]) - home)
        assert np.hypot(*(f["points"][2] - aim)) <= 0.01
        assert rig.status == "mixed"  # the solve reached its aim; the mix holds the bone short of the target
        np.testing.assert_allclose(f["errors"][0], np.hypot(*(f["points"][2] - (400.0, 400.0))))


def test_a_heading_turns_the_bone_and_a_weight_decides_between_targets_that_conflict():
    parents, lengths = [-1, 0, 0], [40.0, 50.0, 50.0]
    scene = Scene(STAGE)
    heavy, light = 10.0, 1.0
    rig = scene.add(make_rig((300.0, 300.0), parents, [0.0, 0.3, -0.3], lengths, [1, 2],
                             targets=[[300.0, 400.0], [300.0, 200.0]], weights=[heavy, light], rate_limit=None,
                             iterations=100, method="dls"))
    settle(scene, 20)
    assert rig.fields["errors"][0] < rig.fields["errors"][1]  # the heavier target is nearer
    assert rig.status != "reached"
    # a pose with bone 1 pointing down and ending there exists: bone 0 along +x, bone 1 turned a right angle
    aimed = scene.add(make_rig((300.0, 300.0), [-1, 0], [-0.4, 0.2], [50.0, 50.0], [1], targets=[[350.0, 350.0]],
                               headings=[math.pi / 2], rate_limit=None, iterations=100))
    settle(scene, 10)
    f = aimed.fields
    d = f["points"][2] - f["points"][1]
    assert abs(wrap(math.atan2(d[1], d[0]) - math.pi / 2)) <= math.radians(1.0)
    assert f["errors"][0] <= 0.5


def test_a_target_out_of_reach_says_so():
    scene = Scene(STAGE)
    rig = scene.add(make_rig((100.0, 100.0), [-1, 0], [0.0, 0.0], [30.0, 30.0], [1], targets=[[500.0, 100.0]],
                             rate_limit=None))
    settle(scene, 3)
    assert rig.status == "out of reach" and rig.error == pytest.approx(500.0 - 160.0)
    assert not rig.fields["reached"][0]
