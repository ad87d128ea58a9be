"""One joint's range at a time (scene/core/joint_ranges.py): the edges a drag turns on a CCD/FABRIK/DLS chain, a
two-bone arm's elbow and a rig, the undoable move, the words the status line uses, and a two-bone arm's elbow
limit through the step, a file and a mirror flip."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ikplayground.scene.build.rig_build import humanoid_rig
from ikplayground.scene.core import joint_ranges
from ikplayground.scene.core.scene import Scene
from ikplayground.scene.edit import moves
from ikplayground.scene.edit.history import History
from ikplayground.scene.files import scene_file

STAGE = (980.0, 720.0)


def toward(chain, joint: int, angle: float, far: float = 60.0) -> np.ndarray:
    """A point ``far`` px from joint ``joint`` at ``angle`` rad from its parent bone's direction."""
    base = joint_ranges.parent_heading(chain, joint)
    start = chain.fields["points"][joint_ranges.tree_parents(chain.fields)[joint] + 1]
    return start + far * np.array([math.cos(base + angle), math.sin(base + angle)])


@pytest.mark.parametrize("solver", ["ccd", "fabrik", "dls"])
def test_an_edge_turns_toward_the_point_never_past_the_other_bound_and_undo_is_exact(solver):
    scene = Scene(STAGE)
    chain = scene.new_chain(solver, (490.0, 600.0))
    before = chain.fields["limits"].copy()
    start = moves.where(chain, "limit_hi:2")
    scene.move_target(chain, toward(chain, 2, 1.0), "limit_hi:2")
    assert chain.fields["limits"][2, 1] == pytest.approx(1.0) and chain.fields["limits"][2, 0] == before[2, 0]
    scene.move_target(chain, toward(chain, 2, -2.0), "limit_hi:2")  # past the lower bound: stops on it
    assert chain.fields["limits"][2, 1] == before[2, 0]
    scene.move_target(chain, toward(chain, 2, 0.7), "limit_hi:2")
    edit = moves.record_move(scene, chain, "limit_hi:2", start)
    assert edit is not None and edit.label == f"joint 2's range on {chain.label}"
    history = History()
    history.push(edit)
    after = chain.fields["limits"].copy()
    history.undo()
    np.testing.assert_array_equal(chain.fields["limits"], before)
    history.redo()
    np.testing.assert_array_equal(chain.fields["limits"], after)
    assert joint_ranges.range_text(chain, 2) == f"{chain.label}, joint 2: -45° to 40°"
    assert joint_ranges.range_text(chain, 0) == f"{chain.label}, joint 0: free"


def test_which_joints_a_drag_may_set():
    scene = Scene(STAGE)
    arm = scene.new_chain("two-bone", (300.0, 600.0))
    assert joint_ranges.settable(arm).tolist() == [False, True]  # the elbow alone
    assert joint_ranges.limit_edge(arm, "limit_lo:0") is None and joint_ranges.limit_edge(arm, "limit_hi:1") == (1, 1)
    assert not joint_ranges.move_limit(arm, (0.0, 0.0), "limit_lo:0")
    snake = scene.new_chain("snake", (600.0, 300.0))
    assert joint_ranges.limit_edge(snake, "limit_lo:1") is None
    rig = scene.add(humanoid_rig(standing_on=(700.0, 650.0)))
    assert joint_ranges.settable(rig).all() and joint_ranges.limit_edge(rig, "limit_lo:3") == (3, 0)
    for part in ("limit_lo:99", "limit_x:1", "limit_lo:-1", "target"):
        assert joint_ranges.limit_edge(rig, part) is None
    knee = rig.bone_names.index("shin_l")
    assert joint_ranges.range_text(rig, knee).startswith(f"{rig.label}, shin_l: ")


def test_set_range_puts_the_pose_inside_and_refuses_a_range_out_of_order():
    scene = Scene(STAGE)
    chain = scene.new_chain("ccd", (490.0, 600.0))
    joint_ranges.set_range(chain, 3, 0.1, 0.4)
    for name in ("angles", "goal"):
        assert 0.1 <= chain.fields[name][3] <= 0.4
    before = chain.fields["limits"].copy()
    with pytest.raises(ValueError, match="range"):
        joint_ranges.set_range(chain, 3, 0.5, 0.2)
    np.testing.assert_array_equal(chain.fields["limits"], before)


def test_an_elbow_limit_holds_the_arm_through_the_step_a_file_and_a_mirror_flip():
    scene = Scene(STAGE)
    arm = scene.new_chain("two-bone", (490.0, 500.0))
    arm.rate_limit = None
    scene.set_setting(arm, "elbow_limit", True)
    lo, hi = (0.0, math.radians(150.0))
    assert arm.fields["limits"][1].tolist() == [lo, pytest.approx(hi)]
    reach = float(arm.fields["lengths"].sum())
    for k in range(24):
        a = 2 * math.pi * k / 24
        scene.move_target(arm, arm.fields["root"] + 0.6 * reach * np.array([math.cos(a), math.sin(a)]))
        scene.step()
        assert lo <= arm.fields["angles"][1] <= hi and arm.error < 1e-6  # the other bend where asked-for breaks it
    scene.move_target(arm, arm.fields["root"] + (0.0, -0.05 * reach))  # inside the hole: folded as far as it may
    scene.step()
    assert arm.fields["angles"][1] == pytest.approx(hi) and arm.status == "out of reach"
    text = scene_file.scene_to_text(scene)
    assert '"elbow_limit": [0.0, 150.0]' in text
    np.testing.assert_allclose(scene_file.parse_scene(text).chains[0].fields["limits"], arm.fields["limits"],
                               atol=1e-9)
    scene.move_target(arm, arm.fields["root"] + (0.4 * reach, -0.3 * reach))
    scene.step()
    x0 = float(arm.fields["root"][0])
    mirrored = {"angles": arm.fields["angles"].copy(), "points": arm.fields["points"].copy()}
    scene.flip(arm)
    np.testing.assert_allclose(arm.fields["limits"][1], (-hi, -lo))  # (lo, hi) -> (-hi, -lo)
    scene.step()  # the same target mirrored: the mirrored pose
    np.testing.assert_allclose(arm.fields["points"][:, 0], 2 * x0 - mirrored["points"][:, 0], atol=1e-9)
    np.testing.assert_allclose(arm.fields["angles"][1], -mirrored["angles"][1], atol=1e-12)
    scene.set_setting(arm, "elbow_limit", False)
    assert arm.fields["limits"][1].tolist() == [-math.pi, math.pi]
