""":mod:`.avoid` compiled with numba for the CCD and FABRIK kernels (:mod:`._jit_kernels`, :mod:`._jit_fabrik`).

The functions are :mod:`.avoid`'s own (geometry after Ericson, *Real-Time Collision Detection*, 2005, sec. 5.1.2
and 5.3), each compiled in one namespace where the names it calls (its siblings, :func:`.reshape.restart_pose`,
:func:`.validate.clamp_heading`) are compiled too, so a kernel's row does the single call's arithmetic. Lists
become arrays: ``obs`` (k, 3) px, ``mask`` (n, k) bool. :func:`clear_move_rows` is :func:`.settle.clear_moves`'s
kernel. Pixels (y down), radians.
"""

from __future__ import annotations

import math
import types

import numba
import numpy as np

from . import avoid, reshape, validate
from .validate import FULL_CIRCLE

_SPACE: dict = {}
for _module in (validate, reshape, avoid):  # (their constants agree where names meet: math, TAU, FULL_CIRCLE)
    _SPACE.update(vars(_module))
for _module, _names in ((validate, ("wrap", "clamp_angle", "clamp_heading")), (reshape, ("restart_pose",)),
                        (avoid, ("pair_gap", "watched_pairs", "pose_clear", "_crossing", "bone_contact", "turn_room",
                                 "nearer_turn", "turn_joints", "bone_clear", "clear_direction", "placed",
                                 "clear_restart"))):
    for _name in _names:
        _f = getattr(_module, _name)
        _SPACE[_name] = numba.njit(cache=True)(types.FunctionType(_f.__code__, _SPACE, _name, _f.__defaults__))

watched_pairs = _SPACE["watched_pairs"]
pose_clear = _SPACE["pose_clear"]
turn_room = _SPACE["turn_room"]
nearer_turn = _SPACE["nearer_turn"]
turn_joints = _SPACE["turn_joints"]
placed = _SPACE["placed"]
clear_restart = _SPACE["clear_restart"]
_wrap = _SPACE["wrap"]


@numba.njit(cache=True, inline="always")
def _pose(rx, ry, a, lengths, xs, ys):
    """Forward kinematics of one chain into ``xs``, ``ys`` (n + 1 each, px)."""
    x = rx
    y = ry
    absolute = 0.0
    xs[0] = x
    ys[0] = y
    for i in range(len(a)):
        absolute += a[i]
        x += lengths[i] * math.cos(absolute)
        y += lengths[i] * math.sin(absolute)
        xs[i + 1] = x
        ys[i + 1] = y


@numba.njit(cache=True, parallel=True, nogil=True)
def clear_move_rows(roots, before, after, lengths, limits, obstacles, out, held):
    """:func:`.settle.clear_moves` of ``N`` chains, one a parallel row: ``out`` (N, n) rad and ``held`` (N,) filled."""
    count, n = after.shape
    for k in numba.prange(count):
        xs = np.empty(n + 1)
        ys = np.empty(n + 1)
        mask = np.zeros((n, len(obstacles)), dtype=np.bool_)
        out[k] = after[k]
        held[k] = False
        reach = 0.0
        for i in range(n):
            reach += lengths[k, i]
        _pose(roots[k, 0], roots[k, 1], before[k], lengths[k], xs, ys)
        if watched_pairs(xs, ys, n, obstacles, reach, mask) == 0:
            continue
        bx = np.empty(n + 1)
        by = np.empty(n + 1)
        _pose(roots[k, 0], roots[k, 1], after[k], lengths[k], bx, by)
        if pose_clear(bx, by, n, obstacles, mask):
            continue
        held[k] = True
        for i in range(n):
            a = before[k, i]
            full = not limits[k, i, 1] - limits[k, i, 0] < FULL_CIRCLE
            rot = _wrap(after[k, i] - a) if full else after[k, i] - a
            turn = turn_room(xs, ys, i, n, rot, obstacles, mask)
            if turn == rot:
                out[k, i] = after[k, i]
            else:
                out[k, i] = _wrap(a + turn) if full else a + turn
            if turn != 0.0:
                turn_joints(xs, ys, i, n, turn)
