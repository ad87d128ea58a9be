"""Appendages: tails, antennae and ears that jiggle on walkers and rigs, every one of a scene in one batched step.

An appendage is a short chain of jiggle bones (:func:`ikplayground.solvers.jiggle_rows`: Jakobsen's Verlet
step with position constraints, GDC 2001; what Godot's jiggle bones and Spine 4.2's physics constraints do)
whose joint 0 is pinned to a point on its parent: a rig's bone (``app_bone``) or a walker's body. The point
lies ``app_at`` (along, across) px from the parent's start in its frame (across: + to the clockwise side of its
direction); the rest pose hangs from the parent's absolute direction turned by ``app_angle``, then bends by
``app_rest``. Each step, after the parents have moved, every appendage of every walker and rig group is stepped
in one call; a chain with "Appendages" off has its appendages held in their rest pose (stiffness 1, no speed),
so turning them on starts them there. Fields ``APPENDAGE_FIELDS`` (scene/core/field_specs.py) with a leading
axis of N chains; pixels, y down (a positive angle turns clockwise on screen), radians, seconds.
"""

from __future__ import annotations

import numpy as np

from ikplayground.solvers import jiggle_rows

DT = 1.0 / 60.0  # s: a step


def has_appendages(f) -> bool:
    """Whether a group's fields ``f`` hold any appendage (a first bone longer than 0)."""
    return "app_lengths" in f and bool((f["app_lengths"][:, :, 0] > 0.0).any())


def parent_frames(f) -> tuple[np.ndarray, np.ndarray]:
    """Each appendage's parent start (N, A, 2) px and absolute direction (N, A) rad: a walker's body centre and
    tilt, or the start and direction of a rig's bone ``app_bone`` as it lies (its ``points``)."""
    count, slots = f["app_bone"].shape
    if "body" in f:  # a walker
        start = np.broadcast_to(f["body"][:, None, :], (count, slots, 2))
        return start, np.broadcast_to(f["tilt"][:, :1], (count, slots))
    n = f["lengths"].shape[1]
    bone = np.clip(f["app_bone"].astype(np.int64), 0, n - 1)
    rows = np.arange(count)[:, None]
    parent = f["parents"].astype(np.int64)[rows, bone]
    start = f["points"][rows, parent + 1]
    d = f["points"][rows, bone + 1] - start
    return start, np.arctan2(d[..., 1], d[..., 0])


def roots(f) -> tuple[np.ndarray, np.ndarray]:
    """Where each appendage's joint 0 is pinned (N, A, 2) px and the direction its rest pose hangs from (N, A) rad."""
    start, heading = parent_frames(f)
    c, s = np.cos(heading), np.sin(heading)
    along, across = f["app_at"][..., 0], f["app_at"][..., 1]
    root = start + np.stack([c * along - s * across, s * along + c * across], axis=-1)
    return root, heading + f["app_angle"]


def rest_pose(f) -> None:
    """Put every appendage of a group's fields ``f`` (leading axis N) in its rest pose, at rest, in place."""
    if not has_appendages(f):
        return
    used = f["app_lengths"][:, :, 0] > 0.0
    root, heading = roots(f)
    ones = np.ones(int(used.sum()))
    new = jiggle_rows(f["app_points"][used], f["app_previous"][used], f["app_lengths"][used], root[used],
                      heading[used], f["app_rest"][used], ones, ones, np.zeros((len(ones), 2)), DT, None)
    f["app_points"][used] = new
    f["app_previous"][used] = new


def step_appendages(groups) -> None:
    """One step of the appendages of every walker and rig in ``groups`` (after their parents moved), in place:
    one :func:`~ikplayground.solvers.jiggle_rows` call for them all."""
    parts = []
    for g in groups:
        f = g.fields
        if not has_appendages(f):
            continue
        used = f["app_lengths"][:, :, 0] > 0.0
        root, heading = roots(f)
        on = np.broadcast_to(f["app_on"][:, :1] > 0, used.shape)
        stiffness = np.broadcast_to(f["app_stiffness"][:, :1], used.shape)
        damping = np.broadcast_to(f["app_damping"][:, :1], used.shape)
        parts.append((f, used, root[used], heading[used], np.where(on, stiffness, 1.0)[used],
                      np.where(on, damping, 1.0)[used]))
    if not parts:
        return

    def joined(key):
        return np.concatenate([f[key][used] for f, used, *_ in parts])

    lengths = joined("app_lengths")
    k = int(np.flatnonzero((lengths > 0.0).any(axis=0))[-1]) + 1  # the bones any appendage has (the rest are 0)
    gravity = np.zeros((len(lengths), 2))
    gravity[:, 1] = joined("app_gravity")
    root, heading, stiffness, damping = (np.concatenate([p[j] for p in parts]) for j in range(2, 6))
    new = np.empty((len(lengths), lengths.shape[1] + 1, 2))
    new[:, :k + 1] = jiggle_rows(joined("app_points")[:, :k + 1], joined("app_previous")[:, :k + 1],
                                 lengths[:, :k], root, heading, joined("app_rest")[:, :k], stiffness, damping,
                                 gravity, DT, None)
    new[:, k + 1:] = new[:, k:k + 1]  # joints past the last bone: on its end, as a bone of length 0 puts them
    at = 0
    for f, used, *_ in parts:
        count = int(used.sum())
        f["app_previous"][used] = f["app_points"][used]
        f["app_points"][used] = new[at:at + count]
        at += count
