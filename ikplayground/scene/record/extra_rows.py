"""The rows a chain gives a step after its bones (docs/recording.md): a rope's root, a path chain's joint 0 and
control points 1 to 3, a walker's or rig's appendages.

A rope's one extra row is its root (``angle_deg`` 0); a path chain's four are its joint 0 (where it starts on its
curve: its bones are arcs, so it is not bone 0's length from bone 0's end) and its curve's control points 1, 2
and 3 (``angle_deg`` 0; control point 0 is its target). A walker's or rig's come after its legs (a rig's: after its
targets): for each of ``A`` appendage slots, its root (``angle_deg`` 0), then its ``B`` bones as a rope's (bone 0's
absolute direction, then each turn; ``x, y`` each bone's end). ``A`` and ``B`` are the group's: the slots any of
its chains uses and the most bones any appendage has; a shorter appendage's last bones, and a slot a chain does
not use, lie on its last joint (length 0). Every chain of a group has as many rows: one format a layout.
Pixels, y down; radians here (the recorder writes degrees).
"""

from __future__ import annotations

import numpy as np

ROPE_EXTRA = 1  # a rope's root
PATH_EXTRA = 4  # a path chain's joint 0 (where it starts on its curve), then its control points 1..3


def appendage_shape(f) -> tuple[int, int]:
    """The appendage slots ``A`` and bones ``B`` a walker or rig group's fields ``f`` record ((0, 0): none)."""
    if "app_lengths" not in f:
        return 0, 0
    bones = (f["app_lengths"] > 0.0).sum(axis=2)  # (N, slots): each appendage's bones
    used = np.flatnonzero(bones.max(axis=0, initial=0) > 0)
    if not len(used):
        return 0, 0
    return int(used[-1]) + 1, int(bones.max())


def extra_count(group) -> int:
    """The rows a chain of ``group`` gives a step after its bones (a rig's: after its targets)."""
    if group.solver == "rope":
        return ROPE_EXTRA
    if group.solver == "path":
        return PATH_EXTRA
    a, b = appendage_shape(group.fields)
    return a * (b + 1)


def appendage_joints(f, shape: tuple[int, int]) -> np.ndarray:
    """The appendages' joints as recorded (N, A, B + 1, 2) px: each one's root, then its bones' ends, a joint past
    its last bone (or of a slot it does not use) on its last joint."""
    a, b = shape
    points = f["app_points"][:, :a, :b + 1]
    bones = (f["app_lengths"][:, :a, :b] > 0.0).sum(axis=2)  # (N, A)
    index = np.minimum(np.arange(b + 1), bones[..., None])  # (N, A, B + 1)
    return np.take_along_axis(points, index[..., None], axis=2)


def extra_values(group, joint_angles) -> tuple[np.ndarray, np.ndarray]:
    """``group``'s extra rows: angles (N, e) rad and points (N, e, 2) px; ``joint_angles`` the recorder's (the
    first bone's absolute direction, then each turn, of (M, j + 1, 2) joints)."""
    f = group.fields
    count = len(f["lengths"])
    if group.solver == "rope":
        return np.zeros((count, ROPE_EXTRA)), f["root"][:, None]
    if group.solver == "path":
        return np.zeros((count, PATH_EXTRA)), np.concatenate([f["points"][:, :1], f["control"][:, 1:]], axis=1)
    a, b = appendage_shape(f)
    if not a:
        return np.zeros((count, 0)), np.zeros((count, 0, 2))
    joints = appendage_joints(f, (a, b))  # (N, A, B + 1, 2)
    angles = np.zeros((count, a, b + 1))
    angles[..., 1:] = joint_angles(joints.reshape(count * a, b + 1, 2)).reshape(count, a, b)
    return angles.reshape(count, a * (b + 1)), joints.reshape(count, a * (b + 1), 2)


def entry_appendages(group, row: int) -> dict:
    """What the recorder's rig keeps of chain ``row``'s appendages: ``appendages`` their bone lengths (A, B) px (0:
    no bone) and ``appendage_parents`` (A,) the rig bone each hangs from (-1: a walker's body); {} for none."""
    f = group.fields
    a, b = appendage_shape(f)
    if not a:
        return {}
    parents = np.full(a, -1) if group.solver == "walker" else f["app_bone"][row, :a].astype(int)
    return {"appendages": np.array(f["app_lengths"][row, :a, :b], dtype=float), "appendage_parents": parents}
