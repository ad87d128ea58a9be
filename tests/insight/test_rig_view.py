"""The math over a rig: a ring at each sub-base, an arc and a needle at each limited joint, an error line and
label for each missed target, and the goal pose's ghost while the shown pose lags it."""

from __future__ import annotations

import numpy as np

from ikplayground.insight.primitives import Circle, Label, Polyline
from ikplayground.insight.rig_view import rig_overlay
from ikplayground.scene import clamped_joints
from ikplayground.scene.build.rig_build import humanoid_rig


def roles(prims, kind=None):
    return [p.role for p in prims if kind is None or isinstance(p, kind)]


def test_sub_bases_are_the_bone_ends_two_or_more_bones_start_from():
    rig = humanoid_rig((300.0, 300.0))
    rings = [p for p in rig_overlay(rig) if isinstance(p, Circle) and p.role == "step"]
    names = rig.bone_names
    at = {names[int(np.argmin(np.hypot(*(rig.fields["points"][1:] - r.centre).T)))] for r in rings}
    assert at == {"hips", "spine"}  # the legs and the spine leave the hips; the neck and arms the spine


def test_each_limited_joint_has_an_arc_and_a_needle():
    rig = humanoid_rig((300.0, 300.0))
    prims = rig_overlay(rig)
    limited = int(clamped_joints(rig.fields["limits"]).sum())
    assert roles(prims, Polyline).count("limit") == limited
    assert sum(r in ("needle", "needle_hot") for r in roles(prims, Polyline)) == limited


def test_a_missed_target_gets_an_error_line_and_its_distance():
    rig = humanoid_rig((300.0, 300.0))
    f = rig.fields
    bone = int(f["target_bones"][0])
    f["targets"][0] = f["points"][1 + bone] + (30.0, 40.0)  # 50 px off
    prims = rig_overlay(rig)
    lines = [p for p in prims if isinstance(p, Polyline) and p.role == "error"]
    assert len(lines) == 1
    np.testing.assert_allclose(np.hypot(*np.diff(lines[0].points, axis=0)[0]), 50.0)
    assert any(isinstance(p, Label) and p.text.startswith("50.0 px") for p in prims)


def test_the_ghost_shows_only_while_the_goal_pose_differs():
    rig = humanoid_rig((300.0, 300.0))
    f = rig.fields
    f["goal"][:] = f["angles"]

    def goal_ghosts():  # (its appendages' rest poses are dashed ghosts)
        return [p for p in rig_overlay(rig) if p.role == "ghost" and not p.dashed]

    assert not goal_ghosts()
    f["goal"][5] += 0.5
    assert len(goal_ghosts()) == len(f["lengths"])
