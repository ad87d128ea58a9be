""":mod:`.avoid` compiled with numba for the CCD and FABRIK kernels (:mod:`._jit_kernels`, :mod:`._jit_fabrik`).

The functions are :mod:`.avoid`'s own (geometry after Ericson, *Real-Time Collision Detection*, 2005, sec. 5.1.2
and 5.3), each compiled in one namespace where the names it calls (its siblings, :func:`.reshape.restart_pose`,
:func:`.validate.clamp_heading`) are compiled too, so a kernel's row does the single call's arithmetic. Lists
become arrays: ``obs`` (k, 3) px, ``mask`` (n, k) bool. Pixels (y down), radians.
"""

from __future__ import annotations

import types

import numba

from . import avoid, reshape, validate

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
