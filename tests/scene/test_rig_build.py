"""Rigs (issue 26, docs/design.md "The rig"): the registry's kind, the fields, the builders, a scene holding them."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ikplayground.scene import (SOLVER_KINDS, SOLVERS, STATUSES, Scene, drive_stress, humanoid_rig, make_rig,
                                quadruped_rig, stress_scene)
from ikplayground.scene.build import rig_build
from ikplayground.scene.core.field_specs import RIG_FIELDS, field_shapes
from ikplayground.solvers import skeleton_points
from tests.scene.scene_cases import assert_chain_ok

STAGE = (980.0, 694.0)


def test_the_registry_has_a_rig_of_its_own_kind():
    assert "rig" in SOLVERS
    kind = SOLVER_KINDS["rig"]
    assert (kind.kind, kind.label, kind.iterative) == ("rig", "Rig", False)


def test_a_rigs_fields_have_a_row_per_bone_and_per_target():
    shapes = field_shapes("rig", 5, 3)
    assert shapes["parents"] == shapes["lengths"] == shapes["angles"] == shapes["goal"] == (5,)
    assert shapes["limits"] == (5, 2) and shapes["points"] == (6, 2)
    assert shapes["targets"] == (3, 2)
    assert shapes["target_bones"] == shapes["headings"] == shapes["weights"] == shapes["mix"] == (3,)
    assert set(RIG_FIELDS) >= {"method", "rate", "iterations", "tolerance", "status", "used", "errors"}


def test_make_rig_lays_out_a_tree_and_puts_targets_on_the_bone_ends():
    chain = make_rig((100.0, 200.0), [-1, 0, 0], [0.0, 0.5, -0.5], [50.0, 40.0, 30.0], [1, 2])
    ends = skeleton_points([-1, 0, 0], (100.0, 200.0), [0.0, 0.5, -0.5], [50.0, 40.0, 30.0])
    np.testing.assert_array_equal(chain.fields["points"][0], (100.0, 200.0))
    np.testing.assert_allclose(chain.fields["points"][1:], ends, atol=1e-12)
    np.testing.assert_allclose(chain.fields["targets"], ends[[1, 2]], atol=1e-12)
    assert chain.fields["errors"].max() < 1e-9 and chain.status == "reached" and chain.is_rig
    assert chain.bone_names == ("bone0", "bone1", "bone2")
    assert np.isnan(chain.fields["headings"]).all() and (chain.fields["weights"] == 1).all()
    assert chain.group_key == ("rig", 3, 2)  # grouped by bones and targets


def test_a_rig_puts_its_angles_inside_their_ranges():
    chain = make_rig((0.0, 0.0), [-1, 0], [0.0, 2.0], [10.0, 10.0], [1], limits=[[-3.0, 3.0], [-0.5, 0.5]])
    assert chain.fields["angles"][1] == 0.5 and chain.fields["rest"][1] == 0.5


@pytest.mark.parametrize(("kw", "message"), [
    ({"parents": [0, 0]}, "parents"),
    ({"parents": [-1, 2]}, "parents"),
    ({"target_bones": [2]}, "target_bones"),
    ({"target_bones": [1, 1]}, "target_bones"),
    ({"lengths": [10.0, -1.0]}, "lengths"),
    ({"limits": [[1.0, 0.0], [0.0, 1.0]]}, "limits"),
    ({"names": ["a", "a"]}, "names"),
    ({"names": ["a", "b,c"]}, "names"),
    ({"method": "ccd"}, "method"),
    ({"weights": [0.0]}, "weights"),
    ({"mix": [1.5]}, "mix"),
])
def test_a_bad_rig_is_a_value_error_naming_the_argument(kw, message):
    args = {"root": (0.0, 0.0), "parents": [-1, 0], "angles": [0.0, 0.0], "lengths": [10.0, 10.0],
            "target_bones": [1], **kw}
    with pytest.raises(ValueError, match=message):
        make_rig(**args)


@pytest.mark.parametrize("build", [humanoid_rig, quadruped_rig])
def test_the_humanoid_and_the_quadruped_stand_with_every_foot_on_the_ground(build):
    chain = build(standing_on=(400.0, 600.0))
    f = chain.fields
    names = chain.bone_names
    feet = [i for i, b in enumerate(f["target_bones"].astype(int)) if "foot" in names[b] or "paw" in names[b]]
    assert len(feet) == (2 if build is humanoid_rig else 4)
    np.testing.assert_array_equal(f["targets"][feet, 1], 600.0)
    assert f["points"][1:, 1].max() == pytest.approx(600.0)  # the lowest foot touches it, no bone below
    assert names[0] == ("hips" if build is humanoid_rig else "pelvis")
    assert_chain_ok(chain)


def test_the_humanoids_elbows_and_knees_bend_one_way_only():
    chain = humanoid_rig()
    limits = dict(zip(chain.bone_names, chain.fields["limits"].tolist()))
    for side in "lr":
        lo, hi = limits[f"forearm_{side}"]
        assert hi == 0.0 and lo < -2.0  # the forearm turns only anticlockwise (forward, facing +x)
        lo, hi = limits[f"shin_{side}"]
        assert lo == 0.0 and hi > 2.0  # the shin only clockwise (backward)
    hands = [chain.bone_names[int(b)] for b in chain.fields["target_bones"]]
    assert hands == ["hand_l", "hand_r", "foot_l", "foot_r"]
    np.testing.assert_array_equal(chain.fields["headings"][2:], 0.0)  # feet flat


def test_a_scene_holds_steps_and_counts_rigs():
    scene = Scene(STAGE)
    rig = scene.new_chain("rig", (400.0, 300.0))
    scene.add(rig_build.quadruped_rig(standing_on=(700.0, 650.0)))
    assert rig.is_rig and scene.counts()["rig"] == 2
    assert [g.solver for g in scene.groups] == ["rig", "rig"]  # (16 bones, 4 targets) and (20, 4)
    for _ in range(5):
        scene.step()
    for c in scene.chains:
        assert_chain_ok(c)
        assert math.isfinite(c.error) and c.status in STATUSES


def test_a_new_rig_is_on_the_stage():
    scene = Scene((300.0, 200.0))
    rig = scene.new_chain("rig", (150.0, 20.0))
    w, h = scene.stage
    assert ((rig.fields["targets"] >= 0) & (rig.fields["targets"] <= (w, h))).all()


def test_n_places_a_rig_clear_of_the_others_and_places_others_clear_of_a_rig():
    scene = Scene(STAGE)
    first = scene.place_chain("rig", (400.0, 300.0))
    second = scene.place_chain("rig", (400.0, 300.0))
    chain = scene.place_chain("ccd", tuple(first.fields["targets"][0]))
    assert np.hypot(*(second.anchor - first.anchor)) >= 28.0
    assert np.hypot(*(first.fields["targets"] - chain.anchor).T).min() >= 28.0


def test_the_stress_test_drives_a_scene_holding_a_rig():
    scene = stress_scene(12, STAGE)
    rig = scene.set_solver(scene.chains[0], "rig")
    before = rig.fields["targets"].copy()
    for step in range(3):
        drive_stress(scene, step)
        scene.step()
    np.testing.assert_array_equal(rig.fields["targets"], before)  # its targets are its own
    assert_chain_ok(rig)
