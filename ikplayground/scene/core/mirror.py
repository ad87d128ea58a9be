"""Mirror flip: a chain turned, in place, into its mirror image about the vertical through its anchor.

docs/design.md ("Mirror flip") gives the rules. The axis ``x = x0`` goes
through an IK chain's, a rig's, a rope's or a path chain's root (its first control point), a snake's head or a
walker's body. Pixels (y down),
radians: a point goes to ``(x0 - (x - x0), y)``; an absolute angle ``a`` to
``pi - a`` (``-pi - a`` below 0), a relative one to ``-a`` and its range
``(lo, hi)`` to ``(-hi, -lo)``; joint 0's range across 0 is refused unless it
is the full circle; a side (+-1) to the other. A rig's bone 0 is joint 0,
its targets' points mirror and their headings are absolute angles; it faces and walks the other way.
Flipping twice gives back the chain bit for bit (``Chain.flip_memo`` keeps the state before the last flip).
"""

from __future__ import annotations

import math

import numpy as np

from ikplayground.scene.core.chain import Chain
from ikplayground.scene.step import target_paths
from ikplayground.solvers import FULL_CIRCLE

PI = math.pi
TAU = 2.0 * math.pi


def mirror_x(x, x0: float):
    """``x`` (px, any shape) mirrored about the vertical ``x = x0``: ``x0 - (x - x0)``."""
    return x0 - (x - x0)


def mirror_points(points, x0: float) -> np.ndarray:
    """Points (..., 2) px mirrored about ``x = x0`` (a new array)."""
    out = np.array(points, dtype=float)
    out[..., 0] = mirror_x(out[..., 0], x0)
    return out


def mirror_headings(a, below=None) -> np.ndarray:
    """Headings ``a`` (rad) mirrored into (-pi, pi]; ``below`` marks those whose range lies below 0 (0 to -pi)."""
    a = np.asarray(a, dtype=float)
    low = a < 0 if below is None else np.where(below, a <= 0, a < 0)
    return np.where(low, -PI - a, PI - a)


def _first_range(lo: float, hi: float) -> tuple[float, float]:
    """Joint 0's range mirrored (see the module docstring); a ValueError for one across 0."""
    if hi - lo >= FULL_CIRCLE:
        return -hi, -lo
    if lo >= 0.0:
        return PI - hi, PI - lo
    if hi <= 0.0:
        return -PI - hi, -PI - lo
    raise ValueError(f"joint 0's range {math.degrees(lo):.0f}° to {math.degrees(hi):.0f}° runs across 0°, "
                     "so its mirror image would run across ±180°, which a joint range cannot")


def mirror_limits(limits) -> np.ndarray:
    """A chain's joint ranges (n, 2) rad mirrored: joint 0's as a heading's, the rest ``(-hi, -lo)``;
    ValueError for joint 0's range across 0 (not the full circle).
    """
    lim = np.asarray(limits, dtype=float)
    out = np.stack([-lim[:, 1], -lim[:, 0]], axis=1)
    out[0] = _first_range(float(lim[0, 0]), float(lim[0, 1]))
    return out


def mirror_angles(angles, limits=None) -> np.ndarray:
    """A chain's angles (n,) rad mirrored: joint 0's as a heading (on its range, ``limits``), the rest negated."""
    a = np.array(angles, dtype=float)
    below = None
    if limits is not None:
        lo, hi = float(limits[0][0]), float(limits[0][1])
        below = hi - lo < FULL_CIRCLE and lo < 0.0
    a[0] = mirror_headings(a[0], below)
    a[1:] = -a[1:]
    return a


def axis_x(chain: Chain) -> float:
    """The x (px) of the vertical a chain flips about: its root, a snake's head, a walker's body."""
    if chain.is_snake:
        return float(chain.fields["points"][0, 0])
    return float(chain.fields["body" if chain.is_walker else "root"][0])


def axis_name(chain: Chain) -> str:
    """What that vertical goes through, in words: "root", "head" or "body"."""
    return "head" if chain.is_snake else "body" if chain.is_walker else "root"


def mirrored_fields(chain: Chain) -> dict[str, np.ndarray]:
    """The fields of ``chain``'s mirror image that differ from its own (new arrays; ValueError if it has none)."""
    f = chain.fields
    x0 = axis_x(chain)
    if chain.is_snake:
        return _snake(f, x0)
    if chain.is_walker:
        return _walker(f, x0)
    if chain.is_rig:
        return _rig(f, x0)
    if chain.is_rope:  # no angles: its joints now and a step ago, its root and target, mirrored
        return {name: mirror_points(f[name], x0) for name in ("root", "target", "points", "previous")}
    if chain.is_path:  # its curve's control points and its joints, mirrored
        return {name: mirror_points(f[name], x0) for name in ("root", "control", "points")}
    return _ik(f, x0)


def _ik(f: dict, x0: float) -> dict:
    lim = f["limits"]
    out = {"limits": mirror_limits(lim), "angles": mirror_angles(f["angles"], lim),
           "goal": mirror_angles(f["goal"], lim)}
    for name in ("target", "points", "previous", "motion_centre"):
        out[name] = mirror_points(f[name], x0)
    if not math.isnan(f["pole"][0]):
        out["pole"] = mirror_points(f["pole"], x0)
    if not f["auto_bend"][0] > 0:  # with auto bend, bend says knee up or down: a mirror keeps it
        out["bend"] = -f["bend"]
    out["side"] = -f["side"]
    out["motion_velocity"] = f["motion_velocity"] * (-1.0, 1.0)
    code, phase = int(f["motion"][0]), float(f["motion_phase"][0])
    if code == target_paths.CIRCLE:
        out["motion_phase"] = np.array([(PI - phase) % TAU])
        out["motion_reverse"] = 1.0 - f["motion_reverse"]
    elif code == target_paths.FIGURE_EIGHT:
        out["motion_phase"] = np.array([(phase + PI) % TAU])
    return out


def rig_pose(f: dict) -> dict:
    """A rig's angles, goal, rest pose, ranges and target headings mirrored (new arrays; ValueError for bone 0's
    range across 0): what a replay mirrors of a rig whose root and targets it puts back itself."""
    lim = f["limits"]
    out = {name: mirror_angles(f[name], lim) for name in ("angles", "goal", "rest")}
    out["limits"] = mirror_limits(lim)
    headings = f["headings"]
    out["headings"] = np.where(np.isnan(headings), headings, mirror_headings(np.nan_to_num(headings)))
    return out


def rig_turned(f: dict, x0: float) -> dict:
    """A rig's pose and places (root, points, targets, its feet's steps, its appendages) mirrored about ``x = x0``: a
    walking rig's turn (its facing and velocity are the walk's own)."""
    out = rig_pose(f)
    for name in ("root", "points", "targets", "step_from", "step_to"):
        out[name] = mirror_points(f[name], x0)
    out.update(appendages(f, x0, walker=False))
    return out


def appendages(f: dict, x0: float, walker: bool) -> dict:
    """A walker's or rig's appendages mirrored about ``x = x0``: their joints now and a step ago, their bends and
    where on the parent they hang (across it: the other side; a walker's body frame: along it); the direction
    they hang from the parent's negated (a walker's, absolute in its unmirrored body frame: as a heading)."""
    at = np.array(f["app_at"], dtype=float)
    at[:, 0 if walker else 1] = -at[:, 0 if walker else 1]
    out = {"app_at": at, "app_rest": -f["app_rest"],
           "app_angle": mirror_headings(f["app_angle"]) if walker else -f["app_angle"]}
    for name in ("app_points", "app_previous"):
        out[name] = mirror_points(f[name], x0)
    return out


def _rig(f: dict, x0: float) -> dict:
    out = rig_turned(f, x0)
    for name in ("facing", "velocity", "drive"):
        out[name] = -f[name]
    out["settled"] = np.zeros(1)  # its feet stand on the ground again at its next walking step
    return out


def _snake(f: dict, x0: float) -> dict:
    lo, hi = f["bend_limits"]
    return {"points": mirror_points(f["points"], x0), "previous": mirror_points(f["previous"], x0),
            "rest_points": mirror_points(f["rest_points"], x0), "heading": mirror_headings(f["heading"]),
            "bend_limits": np.array([-hi, -lo]), "turn": -f["turn"], "wander_mirror": 1.0 - f["wander_mirror"]}


def _walker(f: dict, x0: float) -> dict:
    angles = np.array(f["angles"], dtype=float)
    angles[:, 0] = mirror_headings(angles[:, 0])
    angles[:, 1:] = -angles[:, 1:]
    hips = np.array(f["hips"], dtype=float)
    hips[:, 0] = -hips[:, 0]
    out = {"angles": angles, "hips": hips, "home": -f["home"], "settled": np.zeros(1)}
    for name in ("velocity", "facing", "drive", "tilt"):
        out[name] = -f[name]
    for name in ("points", "foot", "step_from", "step_to"):
        out[name] = mirror_points(f[name], x0)
    out.update(appendages(f, x0, walker=True))
    return out


def _snapshot(fields: dict) -> dict[str, np.ndarray]:
    return {name: np.array(v, copy=True) for name, v in fields.items()}


def _same(fields: dict, kept: dict) -> bool:
    """Whether ``fields`` equal ``kept`` bit for bit (NaNs and the sign of zero included)."""
    return fields.keys() == kept.keys() and all(
        fields[k].shape == kept[k].shape and fields[k].tobytes() == kept[k].tobytes() for k in kept)


def off_stage(chain: Chain, fields: dict, stage) -> str | None:
    """Which of an IK chain's mirrored target and pole, a rig's targets or a path chain's control points
    (``fields``), lie off ``stage``, in words, or None."""
    w, h = stage
    if chain.is_path:
        for j, p in enumerate(fields["control"]):
            if not (0.0 <= p[0] <= w and 0.0 <= p[1] <= h):
                return f"control point {j} (at x = {p[0]:.0f} px)"
        return None
    if not chain.has_targets:
        return None
    names = ("target", "pole") if chain.is_ik else [f"target {j}" for j in range(len(chain.fields["targets"]))]
    points = [fields.get(n, chain.fields[n]) for n in names] if chain.is_ik else fields["targets"]
    for name, p in zip(names, points):
        if not math.isnan(p[0]) and not (0.0 <= p[0] <= w and 0.0 <= p[1] <= h):
            return f"the {name} (at x = {p[0]:.0f} px)"
    return None


def flip_chain(chain: Chain, stage=None) -> None:
    """Turn ``chain`` (IK, snake, walker or rig) into its mirror image about its anchor's vertical, in place.

    ``stage`` (width, height) px, optional: an IK chain whose mirrored target or pole, or a rig whose mirrored
    target, would lie off it is not flipped. ValueError says why a chain cannot be flipped; nothing is changed then.
    """
    memo = chain.flip_memo
    if memo is not None and _same(chain.fields, memo[1]):
        new = memo[0]
    else:
        new = mirrored_fields(chain)
    if stage is not None:
        off = off_stage(chain, new, stage)
        if off is not None:
            raise ValueError(f"its mirror image would put {off} off the stage")
    before = _snapshot(chain.fields)
    for name, value in new.items():
        chain.fields[name][...] = value
    chain.flip_memo = (before, _snapshot(chain.fields))
