"""Status that tells the truth: "reached", settings that survive edits, rate limits that are checked.

A chain is reached when, after the step, its end effector is within its
tolerance of the target; whatever holds it short (reach, joint limits, the
rate limit) it is not. The settings a chain shows (joint limit, rate limit,
bone count) are its own and outlive bone-count changes, solver switches and
scene scene_file.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from ikplayground.scene.build import build
from ikplayground.scene.core.scene import Scene
from ikplayground.scene.files import scene_file
from tests.scene.scene_cases import IK_SOLVERS, STAGE

ROOT = (490.0, 600.0)


def chain_in_scene(solver: str, *, rate=None):
    """A scene holding one new chain of ``solver`` at ``ROOT`` (7 bones of 36 px for CCD and FABRIK)."""
    scene = Scene(STAGE)
    chain = scene.new_chain(solver, ROOT)
    chain.rate_limit = rate
    return scene, chain


def chase(scene, chain, target, steps: int = 60):
    scene.move_target(chain, target)
    for _ in range(steps):
        scene.step()


def at_distance(dist: float, angle_deg: float = -60.0) -> tuple[float, float]:
    a = math.radians(angle_deg)
    return (ROOT[0] + dist * math.cos(a), ROOT[1] + dist * math.sin(a))


# --- reached ------------------------------------------------------------------------
@pytest.mark.parametrize("solver", IK_SOLVERS)
def test_a_chain_on_its_target_is_reached(solver):
    scene, chain = chain_in_scene(solver)
    chase(scene, chain, at_distance(190.0))
    assert chain.error <= chain.tolerance
    assert chain.fields["reached"][0]


@pytest.mark.parametrize("solver", IK_SOLVERS)
def test_a_target_beyond_the_chain_is_not_reached(solver):
    scene, chain = chain_in_scene(solver)
    chase(scene, chain, at_distance(float(chain.fields["lengths"].sum()) + 90.0))
    assert chain.error == pytest.approx(90.0, abs=1e-6)
    assert not chain.fields["reached"][0]


@pytest.mark.parametrize("solver", ["ccd", "fabrik"])
def test_a_chain_held_short_by_its_joint_limits_is_not_reached(solver):
    """A straight rod of 252 px (every joint limited to 0) keeps its tip 90 px or more from a target 162 px away."""
    scene, chain = chain_in_scene(solver)
    scene.set_setting(chain, "joint_limit", 0.0)
    chase(scene, chain, at_distance(162.0))
    assert math.dist(chain.fields["root"], chain.fields["target"]) < chain.fields["lengths"].sum()  # within length
    assert chain.error >= 90.0 - 1e-6
    assert not chain.fields["reached"][0]


def test_a_chain_stuck_against_its_default_limits_is_not_reached():
    """Straight up and 150 px away: CCD under the default +-45 degrees stalls about 81 px short, though a
    pose inside those limits reaches the target, as FABRIK (both walks limited: solvers/fabrik.py) shows. (A
    scene step's 10 sweeps leave no room for CCD's restarts, which need 8 sweeps of budget left:
    solvers/reshape.py.)"""
    scene, chain = chain_in_scene("ccd")
    chase(scene, chain, at_distance(150.0, angle_deg=-90.0))
    assert chain.error > 50.0
    assert not chain.fields["reached"][0]
    scene, chain = chain_in_scene("fabrik")
    chase(scene, chain, at_distance(150.0, angle_deg=-90.0))
    assert chain.error <= chain.tolerance
    assert chain.fields["reached"][0]


@pytest.mark.slow
@pytest.mark.parametrize("solver", IK_SOLVERS)
def test_a_chain_still_lagging_behind_its_rate_limit_is_not_reached_until_it_arrives(solver):
    scene, chain = chain_in_scene(solver, rate=1.0)
    target = at_distance(150.0, angle_deg=-150.0)
    chase(scene, chain, target, steps=3)  # 3 degrees of turn: far from there yet
    assert chain.error > chain.tolerance
    assert not chain.fields["reached"][0]
    chase(scene, chain, target, steps=400)
    assert chain.error <= chain.tolerance
    assert chain.fields["reached"][0]


@pytest.mark.parametrize("solver", IK_SOLVERS)
def test_an_edit_that_moves_the_tip_off_the_target_unreaches_the_chain(solver):
    scene, chain = chain_in_scene(solver)
    chase(scene, chain, at_distance(190.0))
    assert chain.fields["reached"][0]
    scene.set_setting(chain, "bone_length", float(chain.fields["lengths"][0]) + 10.0)  # the pose follows at once
    assert chain.error > chain.tolerance
    assert not chain.fields["reached"][0]


# --- settings survive edits ---------------------------------------------------------
@pytest.mark.parametrize("solver", ["ccd", "fabrik"])
@pytest.mark.parametrize("degrees", [45.0, 30.0])
def test_a_joint_limit_survives_going_to_one_bone_and_back(solver, degrees):
    scene, chain = chain_in_scene(solver, rate=3.0)
    scene.set_setting(chain, "joint_limit", degrees)
    one = scene.set_setting(chain, "bones", 1)
    assert one.joint_limit == pytest.approx(degrees)  # what the panel shows meanwhile
    seven = scene.set_setting(one, "bones", 7)
    assert seven.joint_limit == pytest.approx(degrees)
    np.testing.assert_allclose(np.degrees(seven.fields["limits"][1:]), [[-degrees, degrees]] * 6)


@pytest.mark.parametrize("via", [["two-bone"], ["snake"], ["two-bone", "snake"], ["snake", "two-bone"]])
@pytest.mark.parametrize("solver", ["ccd", "fabrik"])
def test_a_chain_converted_away_and_back_keeps_its_bone_count_and_joint_limit(solver, via):
    scene, chain = chain_in_scene(solver)
    scene.set_setting(chain, "joint_limit", 30.0)
    for other in via:
        chain = scene.set_solver(chain, other)
    back = scene.set_solver(chain, solver)
    assert back.bones == 7
    assert back.joint_limit == pytest.approx(30.0)
    np.testing.assert_allclose(np.degrees(back.fields["limits"][1:]), [[-30.0, 30.0]] * 6)


def test_ccd_with_seven_bones_through_two_bone_and_snake_comes_back_with_seven():
    scene, chain = chain_in_scene("ccd")
    assert chain.bones == 7
    chain = scene.set_solver(chain, "two-bone")
    chain = scene.set_solver(chain, "snake")
    assert chain.bones != 7  # the snake lays 40 px segments along the same reach
    assert scene.set_solver(chain, "ccd").bones == 7


def test_a_bone_count_chosen_last_is_the_one_a_conversion_gives_back():
    scene, chain = chain_in_scene("ccd")
    chain = scene.set_setting(chain, "bones", 12)
    snake = scene.set_solver(chain, "snake")
    snake = scene.set_setting(snake, "bones", 4)
    assert scene.set_solver(snake, "fabrik").bones == 4


@pytest.mark.parametrize("solver", IK_SOLVERS)
def test_a_switched_off_rate_limit_keeps_its_setting_through_a_save_and_a_load(solver, tmp_path):
    scene, chain = chain_in_scene(solver, rate=7.5)
    chain.rate_limit = None
    path = tmp_path / "off.json"
    scene_file.save_scene(scene, path)
    loaded = scene_file.load_scene(path, STAGE).chains[0]
    assert loaded.rate_limit is None
    assert loaded.rate_deg == pytest.approx(7.5)
    loaded.rate_limit = loaded.rate_deg  # what the panel's check box does
    assert loaded.rate_limit == pytest.approx(7.5)


def test_a_file_without_the_rate_setting_still_loads_with_the_default():
    text = ('{"format": "ikplayground-scene", "version": 1, "chains": ['
            '{"solver": "ccd", "root": [100, 600], "lengths": [50, 50], "angles": [-90, 0], "target": [150, 500],'
            ' "rate_limit": null},'
            '{"solver": "fabrik", "root": [300, 600], "lengths": [50, 50], "angles": [-90, 0], "target": [350, 500],'
            ' "rate_limit": 9}]}')
    off, on = scene_file.parse_scene(text, "old.json", STAGE).chains
    assert off.rate_limit is None and off.rate_deg == pytest.approx(3.0)
    assert on.rate_limit == pytest.approx(9.0) and on.rate_deg == pytest.approx(9.0)


# --- rate limits are checked where they are set ---------------------------------------
BAD_RATES = [0.0, -3.0, math.nan, math.inf, -math.inf, 180.5]


@pytest.mark.parametrize("rate", BAD_RATES)
@pytest.mark.parametrize("solver", IK_SOLVERS)
def test_a_rate_limit_that_is_not_a_positive_finite_number_is_refused_and_nothing_changes(solver, rate):
    scene, chain = chain_in_scene(solver, rate=5.0)
    before = {k: v.copy() for k, v in chain.fields.items()}
    with pytest.raises(ValueError, match="rate_limit"):
        chain.rate_limit = rate
    with pytest.raises(ValueError, match="rate_deg"):
        chain.rate_deg = rate
    assert chain.rate_limit == pytest.approx(5.0) and chain.rate_deg == pytest.approx(5.0)
    for k, v in before.items():
        np.testing.assert_array_equal(chain.fields[k], v, err_msg=k)


@pytest.mark.parametrize("rate", BAD_RATES)
def test_a_chain_cannot_be_built_with_a_bad_rate_limit(rate):
    with pytest.raises(ValueError, match="rate_limit"):
        build.make_ik_chain("ccd", ROOT, [0.0, 0.0], [50.0, 50.0], (500.0, 500.0), rate_limit=rate)


def test_the_smallest_and_largest_rate_limits_are_accepted():
    scene, chain = chain_in_scene("ccd")
    chain.rate_limit = 1e-6
    assert chain.rate_limit == pytest.approx(1e-6)
    chain.rate_limit = 180.0
    assert chain.rate_limit == pytest.approx(180.0)
