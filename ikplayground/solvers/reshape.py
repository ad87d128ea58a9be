"""What a CCD or FABRIK solve does besides its sweeps: restarts that escape a local minimum, and the pole.

Restarts (random restarts of a local search, as in Beeson & Ames 2015, "TRAC-IK"): a chain with joint
limits that stalls, or gains less than ``1 - CRAWL_RATIO`` of its error in ``STALL_SWEEPS`` sweeps, short of
a target within its length starts again, up to ``RESTARTS`` times, from a pose drawn inside its limits
(:func:`restart_pose`), and the solve keeps the best pose it saw. The draws are deterministic: Park &
Miller's 1988 "minimal standard" generator (``x -> 48271 x mod (2^31 - 1)``, exact in float64 and int64
alike) seeded from the bone lengths, so a single call, a numpy batch row and a compiled row draw the same
poses; each draw lies about the middle of a range on the side the stalled pose bent to, so the mirror
image of a problem draws the mirrored pose.

The pole (this project's own, after the null-space secondary tasks of Liegeois 1977 and Nakamura 1991,
"Advanced Robotics: Redundancy and Optimization"): before each sweep or pass :func:`pole_step` turns
the joints a little toward an arch that bends to the pole's side, in the null space of the end's
Jacobian, then puts the end back where it was; the sweep then reaches as ever. The steps turn a joint at
most ``POLE_TURN`` rad a solve, so a chain solved frame after frame rolls over to the pole's side
instead of flipping there; a joint bent past ``FOLD`` is pushed back out. With a pole, CCD leaves a joint
whose pivot lies within ``SPIN_LEVER`` of a mean bone of the end (:mod:`.ccd`): its greedy turn would
swing it round for next to no gain.

Each function here also compiles with numba (:mod:`._jit_kernels`) and takes lists or arrays alike;
:mod:`._batch_reshape` does the same arithmetic over arrays. Pixels (y down), radians.
"""

from __future__ import annotations

import math

from .pole import ON_LINE
from .validate import FULL_CIRCLE

RESTARTS = 4  # restarts a limited solve may take
RESTART_DRAWS = 8  # poses drawn for a restart: the one whose end lies nearest the target's distance is taken
CRAWL_RATIO = 0.7  # at a checkpoint, an error above this share of the last one's is stuck (restarts left)
PM_MODULUS = 2147483647  # Park & Miller's 2^31 - 1
PM_MULTIPLIER = 48271
POLE_GAIN = 3.0  # the pole step's gradient (px^2 per rad) times this over the squared reach: rad
POLE_TURN = 0.12  # rad: the most the pole's steps turn a joint in one solve
POLE_DAMPING = 0.01  # of the reach: the damping of the pole step's projection
POLE_REACH = 1.0  # the arch's height: the pole's offset, at most this share of a chain bent once's apex
POLE_SETTLE = 2  # Gauss-Newton steps after a pole step, putting the end back
FOLD = 2.5  # rad: a joint bent further is pushed back out by the pole's steps
POLE_UNFOLD = 0.5  # rad: that push at pi (in proportion past FOLD), before the projection
BEHIND = math.pi - 1e-9  # rad: CCD's aim this far round is straight behind (either way round: reshape's tie)
SPIN_LEVER = 0.3  # of the mean bone: with a pole, CCD leaves a joint whose pivot lies this near the end


def restartable(lim) -> bool:
    """Whether a chain of ranges ``lim`` ((lo, hi) rad per joint) restarts when stuck: some range short of the
    full circle, and some joint after the root's free to take more than one angle (else every draw is the
    same pose)."""
    limited = False
    varies = False
    for i in range(len(lim)):
        lo = lim[i][0]
        hi = lim[i][1]
        if hi - lo < FULL_CIRCLE:
            limited = True
        if i and hi > lo:
            varies = True
    return limited and varies


def restart_seed(lens) -> int:
    """The generator's first state (in ``[1, PM_MODULUS - 1]``) for bones of lengths ``lens`` (px)."""
    total = 0.0
    for v in lens:
        total += v
    return 1 + int((total % 2147483646.0) * 9973.0 % 2147483646.0)


def restart_pose(a, lens, lim, rx: float, ry: float, tx: float, ty: float, state: int) -> int:
    """A pose drawn inside the limits, into ``a`` (rad) in place; the generator's next state.

    ``RESTART_DRAWS`` draws of ``a[1:]``, each uniform in the ranges ``lim[i]`` ((lo, hi) rad) on the side
    of their middle that ``a``'s bend (its sum) lay; the one whose end lies nearest the target's distance
    from the root is taken, and ``a[0]`` turns its end onto the root-target direction (not yet wrapped or
    clamped: the caller clamps it as a heading).
    """
    n = len(a)
    bend = 0.0
    for i in range(1, n):
        bend += a[i]
    sign = -1.0 if bend < 0.0 else 1.0
    dist = math.hypot(tx - rx, ty - ry)
    trial = [0.0] * n
    best = math.inf
    bx = lens[0]
    by = 0.0
    for _ in range(RESTART_DRAWS):
        absolute = 0.0
        x = lens[0]
        y = 0.0
        for i in range(1, n):
            state = (PM_MULTIPLIER * state) % PM_MODULUS
            u = state / PM_MODULUS
            lo = lim[i][0]
            hi = lim[i][1]
            v = min(max(0.5 * (lo + hi) + sign * (u - 0.5) * (hi - lo), lo), hi)
            trial[i] = v
            absolute += v
            x += lens[i] * math.cos(absolute)
            y += lens[i] * math.sin(absolute)
        miss = abs(math.hypot(x, y) - dist)
        if miss < best:
            best = miss
            bx = x
            by = y
            for i in range(1, n):
                a[i] = trial[i]
    a[0] = math.atan2(ty - ry, tx - rx) - math.atan2(by, bx)
    return state


def pole_frame(rx: float, ry: float, tx: float, ty: float, px: float, py: float,
               reach: float) -> tuple[float, float, float]:
    """``(ux, uy, h)``: the unit vector root -> target and the arch's height ``h`` px: the pole's signed
    distance off that line (along the normal ``(-uy, ux)``), at most ``POLE_REACH`` of the apex of a chain
    of length ``reach`` bent once between the root and the target. All 0.0 where the pole is on the line
    (``ON_LINE``) or the target on the root: then the pole takes no step."""
    ux = tx - rx
    uy = ty - ry
    d = math.hypot(ux, uy)
    qx = px - rx
    qy = py - ry
    if d == 0.0 or abs(ux * qy - uy * qx) <= ON_LINE * d * math.hypot(qx, qy):
        return 0.0, 0.0, 0.0
    ux /= d
    uy /= d
    h = qx * -uy + qy * ux
    share = d / reach
    most = POLE_REACH * 0.5 * reach * math.sqrt(max(1.0 - share * share, 0.0))
    return ux, uy, min(max(h, -most), most)


def pole_step(a, lens, xs, ys, n: int, ux: float, uy: float, h: float, reach: float, turn: float) -> float:
    """Turn the joints ``a`` (rad, in place; not wrapped or clamped) a step toward an arch ``h`` px high off
    the root-target line (direction ``ux, uy``: :func:`pole_frame`) in the null space of the end's
    Jacobian, then put the end back where it was; returns the most the step turned a joint (rad).

    The objective: half the sum over joints 1..n-1 of ``(off_j - 4 t_j (1 - t_j) h)^2 / reach^2``,
    ``off_j`` the joint's distance off the line (px, signed as ``h``) and ``t_j`` its share of the chain's
    length from the root; plus, for a joint bent past ``FOLD`` rad, a push back out of the fold. Its
    gradient (times ``POLE_GAIN``, rad) is projected by ``I - J^T (J J^T + POLE_DAMPING^2 I)^-1 J`` (``J``
    the end's Jacobian over the reach; damped, so a straight chain gets a finite step) and shortened to
    turn no joint more than ``turn`` rad; ``POLE_SETTLE`` damped Gauss-Newton steps then put the end
    back. ``xs``, ``ys``: the ``n + 1`` joints of ``a`` (px, ``[0]`` the root); lengths ``lens`` px.
    """
    inv = 1.0 / reach  # (lengths over the reach: no square overflows)
    rx = xs[0]
    ry = ys[0]
    ex = (xs[n] - rx) * inv
    ey = (ys[n] - ry) * inv
    hh = h * inv
    s0 = 0.0  # suffix sums over joints j > i of e_j and e_j s_j (e: off the arch, s: along the line)
    s1 = 0.0
    m11 = POLE_DAMPING * POLE_DAMPING
    m12 = 0.0
    m22 = m11
    vx = 0.0
    vy = 0.0
    d = [0.0] * n
    px = [0.0] * n
    py = [0.0] * n
    along = 1.0  # the chain's share of its length from the root to joint i
    for i in range(n - 1, -1, -1):
        along -= lens[i] * inv
        x = (xs[i] - rx) * inv
        y = (ys[i] - ry) * inv
        s = x * ux + y * uy
        g = POLE_GAIN * (s1 - s * s0)  # the objective's gradient along a[i]
        if i and FOLD < abs(a[i]) < math.pi:  # (folded to exactly pi: no way out is the nearer, none is taken)
            g += math.copysign(POLE_UNFOLD * (abs(a[i]) - FOLD) / (math.pi - FOLD), a[i])
        d[i] = -g
        cx = y - ey  # the Jacobian's column i: the end turned about joint i
        cy = ex - x
        m11 += cx * cx
        m12 += cx * cy
        m22 += cy * cy
        vx -= cx * g
        vy -= cy * g
        if i:
            e = x * -uy + y * ux - 4.0 * along * (1.0 - along) * hh
            s0 += e
            s1 += e * s
    det = m11 * m22 - m12 * m12
    wx = (m22 * vx - m12 * vy) / det
    wy = (m11 * vy - m12 * vx) / det
    most = 0.0
    for i in range(n):
        x = (xs[i] - rx) * inv
        y = (ys[i] - ry) * inv
        d[i] = d[i] - (y - ey) * wx - (ex - x) * wy
        most = max(most, abs(d[i]))
    k = 1.0
    if most > turn:
        k = turn / most
        most = turn
    for i in range(n):
        a[i] += k * d[i]
    for _ in range(POLE_SETTLE):
        m11 = POLE_DAMPING * POLE_DAMPING
        m12 = 0.0
        m22 = m11
        x = 0.0
        y = 0.0
        absolute = 0.0
        for i in range(n):
            px[i] = x
            py[i] = y
            absolute += a[i]
            x += lens[i] * inv * math.cos(absolute)
            y += lens[i] * inv * math.sin(absolute)
        for i in range(n):
            cx = py[i] - y
            cy = x - px[i]
            m11 += cx * cx
            m12 += cx * cy
            m22 += cy * cy
        vx = ex - x
        vy = ey - y
        det = m11 * m22 - m12 * m12
        wx = (m22 * vx - m12 * vy) / det
        wy = (m11 * vy - m12 * vx) / det
        for i in range(n):
            a[i] += (py[i] - y) * wx + (x - px[i]) * wy
    return most


def loop_pole(p, aimed: bool):
    """``(pole, problem)``: the pole a solver's loop steps toward and the problem without it, when the chain
    the loop solves (``aimed``: one bone fewer, :mod:`.heading`) has three bones or more; else ``(None, p)``,
    the pole left to mirror the answer (:func:`.pole.mirrored_toward`: two bones have no pose between their
    two bends)."""
    if p.pole is None or len(p.lengths) - aimed < 3:
        return None, p
    return p.pole, p._replace(pole=None)
SPIN_LEVER = 0.3
