"""What a CCD or FABRIK solve does besides its sweeps: restarts that escape a local minimum, and the pole's pull.

Restarts (random restarts of a local search; for IK, e.g. the restarts of Beeson & Ames 2015, "TRAC-IK"): a
limited chain that stalls or crawls short of a target within its reach starts again from a pose drawn
inside its limits, its end aimed at the target; the solve keeps the best pose it saw. The draw is
deterministic: a Park & Miller 1988 minimal standard generator (``x -> 48271 x mod 2^31 - 1``, exact in
float64 and int64 alike) seeded from the bone lengths, so a single call, a batch row and a compiled row
draw the same poses; each draw is taken about the middle of the range on the side the stalled pose bent
to, so a chain's mirror image draws the mirrored pose.

The pole (a soft target for the inner joints, this project's form of Godot's ``magnet``): before each
sweep or pass, each inner joint moves a share of its way toward the pole's distance from the
root-target line, along that line's normal; the share shrinks with the error (``POLE_SHARE`` at an error
of ``POLE_SCALE`` times the mean bone or more), so the pull fades as the end reaches and the answer stays
the solver's own. A chain warm-started frame after frame so drifts to the pole's side instead of flipping.

Each function here also compiles with numba (:mod:`._jit_kernels`) and takes lists or arrays alike;
:mod:`._batch_reshape` does the same arithmetic over arrays. Pixels (y down), radians.
"""

from __future__ import annotations

import math

MIRROR_FIRST = False
RESTARTS = 6  # restarts a limited solve may take
CRAWL_RATIO = 0.7  # a checkpoint's error above this share of the last one's counts as stuck (with restarts left)
PM_MODULUS = 2147483647  # Park & Miller's 2^31 - 1
PM_MULTIPLIER = 48271
POLE_GAIN = 2.0  # the pole step: its gradient (px^2 per rad) times this over the squared reach (rad)
POLE_TURN = 0.15  # rad: the most the pole's steps turn a joint in one solve
POLE_DAMPING = 0.01  # of the reach: the damping of the pole step's projection
POLE_REACH = 0.5  # the pole's offset counts up to this share of the apex of a chain bent once
ON_LINE = 1e-9  # a pole this close to the root-target line (relative: the sine of its angle off it) is on it


def restart_seed(lens) -> int:
    """The generator's first state (in ``[1, PM_MODULUS - 1]``) for bones of lengths ``lens`` (px)."""
    total = 0.0
    for v in lens:
        total += v
    return 1 + int(math.fmod(math.fmod(total, 2147483646.0) * 9973.0, 2147483646.0))


def restart_pose(a, lens, lim, rx: float, ry: float, tx: float, ty: float, state: int) -> int:
    """A pose drawn inside the limits, into ``a`` (rad) in place; the generator's next state.

    ``a[1:]`` uniform in their ranges ``lim[i]`` ((lo, hi) rad), taken on the side of the middle that
    ``a``'s bend (its sum) lay; ``a[0]`` turns the whole chain's end onto the root-target direction,
    not yet wrapped or clamped (the caller clamps it as a heading).
    """
    n = len(a)
    bend = 0.0
    for i in range(1, n):
        bend += a[i]
    sign = -1.0 if bend < 0.0 else 1.0
    absolute = 0.0
    x = lens[0]
    y = 0.0
    for i in range(1, n):
        state = (PM_MULTIPLIER * state) % PM_MODULUS
        u = state / PM_MODULUS
        lo = lim[i][0]
        hi = lim[i][1]
        v = 0.5 * (lo + hi) + sign * (u - 0.5) * (hi - lo)
        v = min(max(v, lo), hi)
        a[i] = v
        absolute += v
        x += lens[i] * math.cos(absolute)
        y += lens[i] * math.sin(absolute)
    a[0] = math.atan2(ty - ry, tx - rx) - math.atan2(y, x)
    return state


def pole_frame(rx: float, ry: float, tx: float, ty: float, px: float, py: float,
               reach: float) -> tuple[float, float, float]:
    """``(ux, uy, h)``: the unit vector root -> target and the pole's signed distance (px) from that line
    along its normal ``(-uy, ux)``; all 0.0 where the pole is on the line (``ON_LINE``) or the target on
    the root: then no pull."""
    ux = tx - rx
    uy = ty - ry
    d = math.hypot(ux, uy)
    qx = px - rx
    qy = py - ry
    cross = ux * qy - uy * qx
    if d == 0.0 or abs(cross) <= ON_LINE * d * math.hypot(qx, qy):
        return 0.0, 0.0, 0.0
    ux /= d
    uy /= d
    h = qx * -uy + qy * ux
    # no further off the line than the apex of a chain bent once between the root and the target
    most = POLE_REACH * 0.5 * math.sqrt(max(reach * reach - d * d, 0.0))
    return ux, uy, min(max(h, -most), most)


def pole_step(a, xs, ys, n: int, ux: float, uy: float, h: float, reach: float, turn: float) -> float:
    """Turn the joints ``a`` (rad, in place; not wrapped or clamped) by a step that moves the inner joints
    toward the distance ``h`` px from the root-target line (direction ``ux, uy``) in the null space of the
    end effector's Jacobian, so the end stays where it is to first order.

    ``xs``, ``ys``: the ``n + 1`` joints of ``a`` (px, ``[0]`` the root). The objective is half the sum of
    the squared distances ``off_j - h`` of joints 1..n-1; its gradient (px^2 per rad) is projected by
    ``I - J^T (J J^T + (POLE_DAMPING reach)^2 I)^-1 J`` (damped, so a straight chain gets a finite step),
    scaled by ``POLE_GAIN / reach^2`` and shortened to turn no joint more than ``turn`` rad. Returns the
    most it turned a joint (rad).
    """
    rx = xs[0]
    ry = ys[0]
    ex = xs[n]
    ey = ys[n]
    # suffix sums over joints j > i of e_j and e_j s_j (e: distance off the pole's line, s: along the line)
    s0 = 0.0
    s1 = 0.0
    m11 = 0.0
    m12 = 0.0
    m22 = 0.0
    vx = 0.0
    vy = 0.0
    d = [0.0] * n
    for i in range(n - 1, -1, -1):
        s = (xs[i] - rx) * ux + (ys[i] - ry) * uy
        g = s1 - s * s0  # the objective's gradient along a[i]
        d[i] = -g
        cx = ys[i] - ey  # the Jacobian's column i: the end turned about joint i
        cy = ex - xs[i]
        m11 += cx * cx
        m12 += cx * cy
        m22 += cy * cy
        vx -= cx * g
        vy -= cy * g
        if i:
            e = (xs[i] - rx) * -uy + (ys[i] - ry) * ux - h
            s0 += e
            s1 += e * s
    damp = (POLE_DAMPING * reach) ** 2
    m11 += damp
    m22 += damp
    det = m11 * m22 - m12 * m12
    wx = (m22 * vx - m12 * vy) / det
    wy = (m11 * vy - m12 * vx) / det
    scale = POLE_GAIN / (reach * reach)
    most = 0.0
    for i in range(n):
        d[i] = scale * (d[i] - (ys[i] - ey) * wx - (ex - xs[i]) * wy)
        most = max(most, abs(d[i]))
    k = 1.0
    if most > turn:
        k = turn / most
        most = turn
    for i in range(n):
        a[i] += k * d[i]
    return most


def loop_pole(p, aimed: bool):
    """``(pole, problem)``: the pole a solver's loop steps toward and the problem without it, when the chain
    the loop solves (``aimed``: one bone fewer, :mod:`.heading`) has three bones or more; else ``(None, p)``,
    the pole left to mirror the answer (:func:`.pole.mirrored_toward`: two bones have no pose between their
    two bends)."""
    if p.pole is None or len(p.lengths) - aimed < 3:
        return None, p
    return p.pole, p._replace(pole=None)
