"""One step of a group of walkers: a body over the terrain, legs solved with the two-bone formula.

The procedural walk of game animation: each foot has a rest spot (``home`` px
ahead of the body's centre); a planted foot stays put until it is more than
``threshold`` px from it, then steps on an arc ``step_height`` px high to the
ground a little ahead. Two gait groups (alternate legs) take turns, so the
body is always supported; its height and tilt follow the supporting feet. A
two-bone leg is solved by the law of cosines of the raylib multi-chain demo
(knees up and out, as a spider's); a three-bone leg by CCD from its last pose
within one-way joint ranges (as an insect's), with an exact pose where CCD
leaves a foot. Arrays of ``WALKER_FIELDS`` with a leading axis of N walkers,
legs on the second; pixels, y down, radians.
"""

from __future__ import annotations

import numpy as np

from ikplayground.solvers import ccd_batch, rate_limited
from ikplayground.solvers import two_bone_arrays

RIDE = 0.33  # the body's height above the ground under it, as a share of a leg's reach
CLEARANCE = 0.16  # the least height of the body's centre above the ground right under it, share of reach
MAX_TILT = 0.4  # rad: the steepest the body tilts
ACCEL = 0.08  # the share of its speed a walker gains or loses in one step
EASE = 0.2  # the share of the way to its riding height a body moves in one step
LEAD = 0.6  # a step lands this share of the threshold ahead of the rest spot (in the walking direction)
EDGE = 0.5  # share of the reach: a walker turns (or stops) this far inside the stage's edge
CCD_SWEEPS = 60  # most CCD sweeps of a three-bone leg a step (from its last pose it needs a few)
CCD_TOLERANCE = 0.05  # px: CCD stops this close to the foot
LANDED = 0.25  # px: a three-bone leg whose tip CCD leaves further than this off its foot takes the exact pose
THIGH = (-2.3, 0.35)  # rad: the thigh's heading range of a leg on the front side (mirrored behind)
KNEE = (0.15, 2.9)  # rad: the knee's relative angle range
ANKLE = (0.0, 1.7)  # rad: the ankle's
TARSUS = 0.25  # the exact pose's tarsus leans out by this much per px down


def rest_x(f) -> np.ndarray:
    """Each foot's rest spot x (N, n) px: ``home`` ahead of the body's centre."""
    return f["body"][:, :1] + f["home"]


def reach(f) -> np.ndarray:
    """Each walker's leg reach (N,) px: the mean of thigh + shin over its legs."""
    return f["lengths"].sum(axis=2).mean(axis=1)


def settle(f, rows: np.ndarray, terrain) -> None:
    """Put the feet of walkers ``rows`` (N,) on the ground (group 1 half a threshold ahead), the body over them."""
    r = reach(f)[rows]
    facing = np.where(f["facing"][rows, 0] < 0, -1.0, 1.0)
    x = rest_x(f)[rows] + (f["gait"][rows] > 0) * (0.5 * f["threshold"][rows] * facing[:, None])
    f["foot"][rows] = np.stack([x, terrain.height_at(x)], axis=-1)
    f["step_from"][rows] = f["foot"][rows]
    f["step_to"][rows] = f["foot"][rows]
    f["state"][rows] = 0.0
    f["progress"][rows] = 0.0
    bx = f["body"][rows, 0]
    f["body"][rows, 1] = np.minimum(f["foot"][rows, :, 1].mean(axis=1) - RIDE * r,
                                    terrain.height_at(bx) - CLEARANCE * r)
    f["tilt"][rows] = 0.0
    f["settled"][rows] = 1.0


def drive(f, stage) -> np.ndarray:
    """Move the bodies along x by their speed; returns the move (N,) px (so a replay steps feet alike).

    ``drive`` (-1, 0, +1) walks that way (twice as fast while ``run``); else ``auto`` walks on its ``facing`` way.
    """
    return walk_x(f["body"][:, 0], f["velocity"][:, 0], f["facing"][:, 0], f["drive"][:, 0], f["run"][:, 0],
                  f["auto"][:, 0], f["speed"][:, 0], EDGE * reach(f), stage)


def walk_x(x, v, facing, steer, run, auto, speed, margin, stage) -> np.ndarray:
    """Walk ``x`` (N,) px along by the velocity ``v`` (N,) px/step, eased toward the wished one; returns the move.

    ``steer`` (-1, 0, +1) walks that way (twice ``speed`` while ``run`` > 0) and sets ``facing`` (+-1); else
    ``auto`` > 0 walks on its ``facing`` way. ``x`` stays ``margin`` (N,) px inside the stage's ``(width, height)``
    (its middle, if narrower), the velocity stopping there, and an auto walk turns there. ``x``, ``v`` and
    ``facing`` are changed in place (views of the walkers' or the rigs' fields).
    """
    facing[:] = np.where(steer != 0, np.sign(steer), np.where(facing < 0, -1.0, 1.0))
    top = speed * np.where(run > 0, 2.0, 1.0)
    want = np.where(steer != 0, facing, np.where(auto > 0, facing, 0.0)) * top
    dv = np.maximum(speed * ACCEL, 0.02)
    v += np.clip(want - v, -dv, dv)
    before = x.copy()
    x += v
    lo = np.minimum(margin, stage[0] / 2)
    hi = np.maximum(stage[0] - margin, stage[0] / 2)
    low, high = x < lo, x > hi
    np.clip(x, lo, hi, out=x)
    v[(low & (v < 0)) | (high & (v > 0))] = 0.0
    turn = auto > 0
    facing[low & turn & (steer == 0)] = 1.0
    facing[high & turn & (steer == 0)] = -1.0
    return x - before


def gait(f, v: np.ndarray, terrain) -> None:
    """Start, carry on and end the steps of every foot (in place: ``state``, ``progress``, ``foot``...)."""
    threshold = f["threshold"]  # (N, 1)
    planted = f["state"] < 0.5
    drift = f["foot"][..., 0] - rest_x(f)
    group = f["gait"] > 0.5
    stepping = ~planted
    up0 = (stepping & ~group).any(axis=1, keepdims=True)
    up1 = (stepping & group).any(axis=1, keepdims=True)
    over = planted & (np.abs(drift) > threshold)
    need0 = (over & ~group).any(axis=1, keepdims=True)
    need1 = (over & group).any(axis=1, keepdims=True)
    worst = np.abs(np.where(over, drift, 0.0))
    w0 = np.where(~group, worst, 0.0).max(axis=1, keepdims=True)
    w1 = np.where(group, worst, 0.0).max(axis=1, keepdims=True)
    # a group may lift only while the other is all down; when both could, the one further out goes
    go0 = need0 & ~up1 & ~(need1 & ~up0 & (w1 > w0))
    go1 = need1 & ~up0 & ~go0
    go = np.where(group, go1, go0)
    # the group's feet that have drifted at all go with it (the group steps as one)
    start = planted & go & (np.abs(drift) > 0.2 * threshold)
    f["state"][start] = 1.0
    f["progress"][start] = 0.0
    f["step_from"][start] = f["foot"][start]
    moving = f["state"] > 0.5
    if not moving.any():
        return
    speed = np.abs(v)[:, None]
    duration = np.clip(0.5 * threshold / np.maximum(speed, 1e-9), 6.0, 16.0)
    lead = np.clip(v[:, None] * duration * 1.2, -LEAD * threshold, LEAD * threshold)
    to_x = rest_x(f) + lead
    to = np.stack([to_x, terrain.height_at(to_x)], axis=-1)
    f["step_to"][moving] = to[moving]
    p = np.minimum(f["progress"] + 1.0 / duration, 1.0)
    f["progress"][moving] = p[moving]
    s = p[..., None]
    ease = s * s * (3.0 - 2.0 * s)
    along = f["step_from"] + (to - f["step_from"]) * ease
    lift = f["step_height"] * np.sin(np.pi * p)  # (N, n) px
    y = np.minimum(along[..., 1] - lift, terrain.height_at(along[..., 0]) - 0.3 * lift)
    arc = np.stack([along[..., 0], y], axis=-1)
    landed = moving & (p >= 1.0)
    f["foot"][moving] = arc[moving]
    f["foot"][landed] = to[landed]  # exactly on the ground
    f["state"][landed] = 0.0


def body_pose(f, terrain) -> None:
    """Ease the body's height and tilt toward a line through the supporting feet (in place)."""
    r = reach(f)
    target_y, tilt = support_height(f, f["body"][:, 0], RIDE * r, CLEARANCE * r, terrain)
    f["body"][:, 1] += (target_y - f["body"][:, 1]) * EASE
    f["tilt"][:, 0] += (tilt - f["tilt"][:, 0]) * 0.15


def support_height(f, x, ride, clearance, terrain) -> tuple[np.ndarray, np.ndarray]:
    """The height (N,) px a body at ``x`` (N,) px rides at over its feet, and their line's tilt (N,) rad.

    The line is fitted through the feet (``f``'s ``foot``, ``state``, ``step_to``: (N, n) of each; a planted foot
    weighs 1, a stepping one 0.5 where it lands); the height is ``ride`` (N,) px above that line at ``x``, and
    at least ``clearance`` (N,) px above the ground right under it.
    """
    planted = f["state"] < 0.5
    w = np.where(planted, 1.0, 0.5)
    pts = np.where(planted[..., None], f["foot"], f["step_to"])
    mx = (w * pts[..., 0]).sum(axis=1) / w.sum(axis=1)
    my = (w * pts[..., 1]).sum(axis=1) / w.sum(axis=1)
    dx = pts[..., 0] - mx[:, None]
    dy = pts[..., 1] - my[:, None]
    slope = (w * dx * dy).sum(axis=1) / ((w * dx * dx).sum(axis=1) + 1e-6)
    tilt = np.clip(np.arctan(slope), -MAX_TILT, MAX_TILT)
    ground = my + np.tan(tilt) * (x - mx)
    return np.minimum(ground - ride, terrain.height_at(x) - clearance), tilt


def hips(f) -> np.ndarray:
    """The hips (N, n, 2) px: the body-frame offsets turned by the tilt, from the body's centre."""
    c, s = np.cos(f["tilt"]), np.sin(f["tilt"])  # (N, 1)
    hx, hy = f["hips"][..., 0], f["hips"][..., 1]
    return f["body"][:, None, :] + np.stack([c * hx - s * hy, s * hx + c * hy], axis=-1)


def solve_legs(f) -> None:
    """Pose every leg toward its foot (two bones: the formula; three: CCD); fills ``angles`` and ``points``."""
    if f["lengths"].shape[-1] == 2:
        solve_two_bone_legs(f)
    else:
        solve_three_bone_legs(f)


def solve_two_bone_legs(f) -> None:
    """Pose two-bone legs with the two-bone formula, knees up and out."""
    hip = hips(f)
    foot = f["foot"]
    l1, l2 = f["lengths"][..., 0], f["lengths"][..., 1]
    out = np.sign(f["home"])
    pole = (hip + foot) / 2 + np.stack([out * 0.6 * (l1 + l2), -(l1 + l2)], axis=-1)
    knee, end, t1, t2, _, _ = two_bone_arrays(hip, foot, l1, l2, np.ones_like(l1), pole=pole)
    f["angles"][..., 0] = t1
    f["angles"][..., 1] = t2
    f["points"][:] = np.stack([hip, knee, end], axis=2).reshape(f["points"].shape)


def leg_limits(count: int) -> np.ndarray:
    """Joint ranges (count, 3, 2) rad of front-side three-bone legs: the knee and ankle bend clockwise only."""
    return np.broadcast_to(np.array([THIGH, KNEE, ANKLE]), (count, 3, 2)).copy()


def mirrored(angles: np.ndarray, out: np.ndarray) -> np.ndarray:
    """Leg angles (count, 3) rad mirrored about the hip where ``out`` < 0 (joint 0 as a heading)."""
    flip = out < 0
    m = angles.copy()
    m[flip, 0] = (np.pi - angles[flip, 0] + np.pi) % (2 * np.pi) - np.pi
    m[flip, 1:] = -angles[flip, 1:]
    return m


def leg_points(hip: np.ndarray, angles: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Joints (..., m+1, 2) px of legs from their hips (..., 2), angles and lengths (..., m)."""
    heading = np.cumsum(angles, axis=-1)
    steps = lengths[..., None] * np.stack([np.cos(heading), np.sin(heading)], axis=-1)
    return np.concatenate([hip[..., None, :], hip[..., None, :] + np.cumsum(steps, axis=-2)], axis=-2)


def exact_pose(hip: np.ndarray, foot: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Angles (count, 3) rad of front-side three-bone legs with feet (count, 2) px on the ground, tarsus down."""
    l1, l2, l3 = lengths[:, 0], lengths[:, 1], lengths[:, 2]
    down = np.array([TARSUS, 1.0]) / np.hypot(TARSUS, 1.0)
    ankle = foot - l3[:, None] * down
    bend = np.ones_like(l1)
    _, _, t1, t2, ok, _ = two_bone_arrays(hip, ankle, l1, l2, bend)
    t3 = (np.arctan2(down[1], down[0]) - t1 - t2 + np.pi) % (2 * np.pi) - np.pi
    _, _, s1, s2, _, _ = two_bone_arrays(hip, foot, l1, l2 + l3, bend)
    line = ~ok | (t3 < ANKLE[0]) | (t3 > ANKLE[1])
    return np.stack([np.where(line, s1, t1), np.where(line, s2, t2), np.where(line, 0.0, t3)], axis=-1)


def solve_three_bone_legs(f) -> None:
    """Pose three-bone legs by CCD from their last pose, :func:`exact_pose` where CCD leaves a foot."""
    hip = hips(f)
    foot = f["foot"]
    lengths = f["lengths"]
    count = foot.shape[0] * foot.shape[1]
    # the side by the sign bit: a mirror-flipped centre leg (home -0.0) is solved mirrored, as it was
    out = np.where(np.signbit(f["home"]), -1.0, 1.0).reshape(count)
    roots, targets, ln = hip.reshape(count, 2), foot.reshape(count, 2), lengths.reshape(count, 3)
    seen = targets.copy()  # the foot as the mirror shows it (the hip stays put)
    seen[:, 0] = roots[:, 0] + out * (targets[:, 0] - roots[:, 0])
    angles, error, _ = ccd_batch(roots, mirrored(f["angles"].reshape(count, 3), out), ln, seen,
                                 np.full(count, CCD_SWEEPS), np.full(count, CCD_TOLERANCE), leg_limits(count))
    off = error > LANDED
    if off.any():
        angles[off] = exact_pose(roots[off], seen[off], ln[off])
    angles = mirrored(angles, out)
    f["angles"][:] = angles.reshape(f["angles"].shape)
    f["points"][:] = leg_points(hip, f["angles"], lengths).reshape(f["points"].shape)


def step_walkers(f, stage, terrain) -> None:
    """One step of a group of walkers: settle new ones, walk, step the feet, pose the body, solve the legs.

    ``f``: the group's ``WALKER_FIELDS`` (leading axis N), changed in place; ``stage`` (width, height) px:
    walkers turn or stop at its edges; ``terrain``: the ground.
    """
    unsettled = f["settled"][:, 0] < 0.5
    if unsettled.any():
        settle(f, unsettled, terrain)
    replayed = f["replayed"][:, 0] > 0
    before = f["body"][:, 0].copy() if replayed.any() else None
    v = drive(f, stage)
    if before is not None:
        follow_replay_x(f, replayed, before, v)
    gait(f, v, terrain)
    body_pose(f, terrain)
    if before is not None:  # the body's height as recorded; its legs reach from there
        f["body"][replayed, 1] = f["replay_body"][replayed, 1]
        f["replayed"][replayed] = 0.0
    rate = f["rate"][:, 0]
    limited = ~np.isinf(rate)
    shown = f["angles"][limited] if limited.any() else None  # (a copy)
    solve_legs(f)
    if shown is not None:
        rate_limit_legs(f, limited, shown)


def rate_limit_legs(f, rows: np.ndarray, shown: np.ndarray) -> None:
    """The legs of walkers ``rows`` (N,) bool turned from their ``shown`` angles (M, n, m) rad toward the ones
    just solved by at most each walker's ``rate`` (rad; the chains' rate limit, every joint the shorter way
    round), and laid out from the hips again, in place."""
    count, n, m = shown.shape
    solved = f["angles"][rows]
    free = np.broadcast_to(np.array((-np.pi, np.pi)), (count * n, m, 2))
    rate = np.repeat(f["rate"][rows, 0], n)
    angles = rate_limited(shown.reshape(count * n, m), solved.reshape(count * n, m), rate, free)
    f["angles"][rows] = angles.reshape(count, n, m)
    f["points"][rows] = leg_points(hips(f)[rows], f["angles"][rows], f["lengths"][rows]).reshape(
        f["points"][rows].shape)


def follow_replay_x(f, replayed: np.ndarray, before: np.ndarray, move: np.ndarray) -> None:
    """Put the replayed walkers' bodies (N,) at the recorded x; ``move`` and velocity follow, in place."""
    x = f["body"][:, 0]
    off = replayed & (x != f["replay_body"][:, 0])
    if not off.any():
        return
    x[off] = f["replay_body"][off, 0]
    move[off] = x[off] - before[off]
    f["velocity"][off, 0] = move[off]
    moving = off & (move != 0)
    f["facing"][moving, 0] = np.sign(move[moving])


def steer(groups, driven, turn: int, run: bool) -> None:
    """The arrow keys' input: ``driven`` (a walker, a rig or None) walks ``turn`` (-1, 0, +1); the others get none."""
    for g in groups:
        if g.solver in ("walker", "rig"):
            g.fields["drive"][:] = 0.0
            g.fields["run"][:] = 0.0
    if driven is not None:
        driven.fields["drive"][0] = float(np.sign(turn))
        driven.fields["run"][0] = 1.0 if run else 0.0
