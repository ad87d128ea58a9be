"""The ``get`` and ``put`` of the settings table's rows that are not kept on the chain as attributes.

Each ``put(scene, chain, value)`` takes a checked, clamped value, sets it where
the step and the renderer read it and lays the chain out again where its pose
depends on it; it returns None. Degrees in, radians stored.
"""

from __future__ import annotations

import math

import numpy as np

from ikplayground.scene.core import joint_ranges
from ikplayground.scene.core.constants import JIGGLE_OFF, MAX_COORD, RIG_METHODS
from ikplayground.scene.step import jiggle_step
from ikplayground.scene.step import target_paths as tm
from ikplayground.solvers import FULL_CIRCLE


def set_rate_on(scene, chain, on):
    chain.rate_limit = chain.rate_deg if on else None


def set_rate(scene, chain, degrees):
    chain.rate_deg = degrees  # the limit too, while it is on


def set_mirror(scene, chain, on):
    chain.mirror = on


def set_joint_limit(scene, chain, degrees):
    chain.set_joint_limit(degrees)
    scene.lay_out(chain)


def said_elbow(chain) -> str:
    """The status line after the elbow limit is set: the elbow's range, in degrees."""
    return joint_ranges.range_text(chain, joint_ranges.ELBOW)


KNEE_DEG = 150.0  # a two-bone arm's elbow limit when turned on: 0 to this, on its bend's side


def elbow_limited(chain) -> bool:
    lo, hi = chain.fields["limits"][joint_ranges.ELBOW].tolist()
    return hi - lo < FULL_CIRCLE


def set_elbow_limit(scene, chain, on):
    """Turn a two-bone arm's elbow limit on (a knee's range: 0 to ``KNEE_DEG`` on its bend's side) or off."""
    if on == elbow_limited(chain):
        return
    knee = math.radians(KNEE_DEG)
    lo, hi = ((-knee, 0.0) if chain.mirror else (0.0, knee)) if on else (-math.pi, math.pi)
    joint_ranges.set_range(chain, joint_ranges.ELBOW, lo, hi)
    scene.lay_out(chain)


def set_bend_range(scene, chain, degrees):
    r = math.radians(degrees)
    chain.fields["bend_limits"][:] = (-r, r)
    scene.lay_out(chain)


def set_path_start(scene, chain, px):
    """A path chain's ``start`` (px along its curve), its joints laid along it again at once."""
    chain.fields["start"][0] = px
    scene.lay_out(chain)


def set_bone_length(scene, chain, length):
    """Scale every bone by ``length`` over their mean (the row's shown value): their ratios are kept (the
    longest bone at most ``MAX_COORD`` px)."""
    lengths = chain.fields["lengths"]
    mean = float(lengths.mean())
    if lengths.min() == lengths.max() or not mean > 0:
        lengths[...] = length  # all alike: exactly the value, no rounding of a product
    else:
        lengths *= min(length / mean, MAX_COORD / float(lengths.max()))
    scene.lay_out(chain)


def bone_setter(index):
    """``put`` of a setting that is bone ``index``'s length alone (px; a two-bone arm's upper or lower)."""

    def put(scene, chain, length):
        chain.fields["lengths"][index] = length
        scene.lay_out(chain)

    return put


def set_pole_on(scene, chain, on):
    pole = chain.fields["pole"]
    if on and chain.pole is None:
        pole[:] = scene.clamp(pole_beside(chain.fields))
    elif not on:
        pole[:] = math.nan


def field_setting(name, kind=float):
    """``get`` and ``put`` of a setting kept as it is in the chain's one-number field ``name``."""

    def put(scene, chain, value):
        chain.fields[name][0] = value

    return {"get": lambda c: kind(c.fields[name][0]), "put": put}


def set_jiggle(scene, chain, stiffness):
    """Set the jiggle's stiffness; turned on, the jiggle starts at rest on the shown pose; turned off, the chain is
    shown as its step poses it (a snake: its un-jiggled body)."""
    f = chain.fields
    was_on = f["jiggle"][0] < JIGGLE_OFF
    f["jiggle"][0] = stiffness
    if stiffness < JIGGLE_OFF and not was_on:
        jiggle_step.at_rest(f)
    elif was_on and not stiffness < JIGGLE_OFF:
        if "rest_points" in f:
            f["points"][...] = f["rest_points"]
        scene.lay_out(chain)


def set_motion(scene, chain, path):
    tm.start(chain.fields, path)  # from where the target is now


def set_motion_speed(scene, chain, speed):
    tm.set_speed(chain.fields, speed)


def set_method(scene, chain, method):
    chain.fields["method"][0] = RIG_METHODS.index(method)


def set_iterations(scene, chain, n):
    chain.iterations = n


def set_tolerance(scene, chain, px):
    chain.tolerance = px


def set_max_speed(scene, chain, speed):
    chain.fields["max_speed"][0] = speed


def set_turn_rate(scene, chain, degrees):
    chain.fields["turn_rate"][0] = math.radians(degrees)


POLE_OFFSET = 0.5  # a new pole stands this share of the chain's reach off the root-target line


def pole_beside(fields: dict[str, np.ndarray]) -> np.ndarray:
    """Where an IK chain's new pole goes (2,) px: beside its root-target line's middle, on its bend's side."""
    root, target, pts = fields["root"], fields["target"], fields["points"]
    u = target - root
    dist = float(np.hypot(*u))
    u = u / dist if dist > 0 else np.array((0.0, -1.0))
    normal = np.array((-u[1], u[0]))  # cross(u, normal) = 1: the positive side
    inner = pts[1:-1] - root
    bend = float((u[0] * inner[:, 1] - u[1] * inner[:, 0]).sum())
    side = 1.0 if bend > 0 or (bend == 0 and normal[1] < 0) else -1.0
    reach = float(fields["lengths"].sum())
    return root + u * min(dist, reach) / 2 + side * normal * POLE_OFFSET * reach


# a rig's target and bone the panel's rig rows act on: the last grabbed (``Chain.current_target``, ``current_bone``)
def current_target(chain) -> int | None:
    """The index of the rig's target the panel's target rows act on (the last one grabbed), or None (none)."""
    k = len(chain.fields["targets"])
    return min(max(chain.current_target, 0), k - 1) if k else None


def current_bone(chain) -> int:
    """The index of the rig's bone the panel's bone row acts on (the last one clicked)."""
    return min(max(chain.current_bone, 0), len(chain.fields["lengths"]) - 1)


def target_value(name: str, default: float):
    """``get`` of a row that is the current target's ``name`` field (``default`` for a rig without targets)."""
    def get(chain):
        k = current_target(chain)
        return default if k is None else float(chain.fields[name][k])
    return get


def target_setter(name: str):
    """``put`` of a row that is the current target's ``name`` field (a rig's ``weights`` or ``mix``)."""
    def put(scene, chain, value):
        k = current_target(chain)
        if k is not None:
            chain.fields[name][k] = value
    return put


def target_aimed(chain) -> bool:
    k = current_target(chain)
    return k is not None and bool(np.isfinite(chain.fields["headings"][k]))


def set_target_aim(scene, chain, on):
    """Aim the current target's bone (on: at the direction it points now) or let it turn freely (NaN)."""
    k = current_target(chain)
    if k is None or on == target_aimed(chain):
        return
    f = chain.fields
    bone = int(f["target_bones"][k])
    d = f["points"][bone + 1] - f["points"][int(f["parents"][bone]) + 1]
    f["headings"][k] = math.atan2(d[1], d[0]) if on else math.nan


def set_current_bone_length(scene, chain, length):
    chain.fields["lengths"][current_bone(chain)] = length
    scene.lay_out(chain)
