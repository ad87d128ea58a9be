"""Damped least squares (DLS) inverse kinematics for a planar chain.

Each step solves for all joint turns at once from the end effector's 2 x n
Jacobian ``J``: column ``i`` is the perpendicular of ``end - joint_i``, that is
``(-(end_y - y_i), end_x - x_i)`` (px per radian), and the step is

    dtheta = J^T (J J^T + lambda^2 I)^-1 e,    e = target - end,

with the 2 x 2 inverse in closed form. This is the damped least squares (or
singularity-robust inverse) of Wampler, "Manipulator inverse kinematic
solutions based on vector formulations and damped least-squares methods",
IEEE Trans. SMC 16 (1986), and of Nakamura & Hanafusa, "Inverse kinematic
solutions with singularity robustness for robot manipulator control", J. Dyn.
Sys. Meas. Control 108 (1986); the survey followed here is Buss,
"Introduction to Inverse Kinematics with Jacobian Transpose, Pseudoinverse and
Damped Least Squares methods" (2004).

The damping grows with the error, ``lambda = damping * mu * |e|`` (px), and
``mu`` adapts as in Levenberg, "A method for the solution of certain non-linear
problems in least squares", Q. Appl. Math. 2 (1944) and Marquardt, "An
algorithm for least-squares estimation of nonlinear parameters", J. SIAM 11
(1963): a step that does not lower the error is rejected and ``mu`` grows
fourfold; an accepted one halves it, down to 1. Rejected steps count against
the budget too. The largest joint turn of a step is capped (the whole step is
scaled down). Joint limits clamp after the step; before that, joints sitting
at a bound whose step would push them further out are taken out of the
Jacobian and the step is solved again (one such round). So the error never
grows (but by rounding, below), and a chain asked again and again for a target
it cannot reach comes to rest instead of dithering.

What a Jacobian method cannot do alone: with every joint on the line through
the end effector and the target (one bone pointing straight away from the
target, a straight chain with the target on its own line, to within about
1e-6 rad) no turn moves the end effector along the error at first order, and
the step is zero or lost in rounding. So a step of almost nothing (under
``NULL_STEP`` rad) toward a target within reach is followed by this
project's escape (:func:`escape`): turns of ``KICKS`` rad of one joint, then
folds of two neighbouring joints, each tried both ways, the first that lowers
the error taken (of its two ways, the better). It can only lower the error,
and it also lifts a chain out of a pose its limits pin short of a target it
could reach another way.

So that rounding never decides (the mirror image of a chain, solved by the
playground's mirror flip, rounds otherwise and must take the mirrored path):
a step of almost nothing is taken unless it raises the error by more than
rounding (``ROUNDING`` of the reach, so a chain at the bottom of a flat valley
comes to its floor, not to wherever rounding stops it), a joint within
``AT_BOUND`` rad of a bound counts as on it, and the escape weighs each turn
both ways (trying ``+`` before ``-`` would turn a chain and its mirror image the
same way round).

Every sum runs joint by joint in a fixed order, and the error is a written-out
hypot, so the batched version (:mod:`.dls_batch`) repeats this arithmetic
exactly. The solve stops early by the stall rule of
:class:`~.results.IKSolution`. Screen coordinates (y down), radians.
"""

from __future__ import annotations

import math

from .problem import chain_problem
from .validate import FULL_CIRCLE, non_negative
from .kinematics import joint_xy as joint_points
from .results import ROUNDING, IKSolution, StallWatch

DEFAULT_DAMPING = 0.5  # lambda = damping * mu * |e|; of 0.3, 0.5, 1.0 the fewest steps on the limited benchmark
MAX_STEP = 0.5  # rad: the largest joint turn one step may make
MU_GROW = 4.0  # mu after a rejected step, times
MU_SHRINK = 0.5  # mu after an accepted step, times (never below 1)
MU_MAX = 1e100  # mu stops growing here (lambda^2 stays finite for any sane damping)

NULL_STEP = 1e-6  # rad: a step whose largest turn is under this is no step at all
AT_BOUND = 1e-12  # rad: a joint this near a bound is at it (its own rounding must not decide; the mirror flip)
KICKS = (0.5, 0.1, 0.02)  # rad: the escape's trial turns, largest first

_PI = math.pi
_TAU = 2.0 * math.pi
_INF = math.inf


def solve_dls(root, angles, lengths, target, *, iterations=10, tolerance=0.5, limits=None, damping=None,
              pole=None) -> IKSolution:
    """Move a chain's end effector toward ``target`` by damped least squares steps.

    Parameters
    ----------
    root, angles, lengths, target, tolerance
        As :func:`~.ccd.solve_ccd`: points of shape (2,) and the chain's
        relative angles and bone lengths of shape (n,), in pixels (y down)
        and radians; the distance in pixels that counts as reached.
    iterations : int, optional
        Most steps to try (>= 1), rejected ones included. Fewer run once the
        error stops improving (``status`` "stalled"), so a large budget is safe.
    limits : array_like, shape (n, 2), optional
        ``(lo, hi)`` bounds in radians on each relative angle,
        ``-pi <= lo <= hi <= pi``. Starting angles outside them are clamped;
        the returned angles always lie inside them.
    damping : float, optional
        ``lambda = damping * mu * |e|`` in pixels, ``mu`` the adaptive factor
        (>= 1). Finite and >= 0; None means ``DEFAULT_DAMPING`` (0.5). 0 gives
        undamped (pseudo-inverse) steps, which cannot leave a singular pose.
    pole : array_like, shape (2,), optional
        As :func:`~.ccd.solve_ccd`: a point in pixels that chooses the side
        the chain bends toward (the pose is mirrored across the root-target
        line when it bends the other way; :mod:`.pole`).

    Returns
    -------
    IKSolution
        New angles (wrapped to (-pi, pi]), the end effector's distance to the
        target, steps used, ``reached`` and the ``status`` saying why the
        steps stopped.

    Raises
    ------
    ValueError
        Naming the argument: wrong shape, not real numbers (booleans, complex
        numbers and strings are refused), non-finite, a length <= 0, limits
        outside [-pi, pi], a negative damping, or a chain or target past
        ``+-1e300`` px.
    """
    p = chain_problem(root, angles, lengths, target, iterations, tolerance, limits, pole)
    damping = DEFAULT_DAMPING if damping is None else non_negative(damping, "damping")
    a, used, error, stalled = dls_iterations(p.rx, p.ry, p.angles, p.lengths, p.tx, p.ty, p.iterations, p.tolerance,
                                             p.limits, damping)
    return p.solution(a, error, used, stalled)


def distance(dx: float, dy: float) -> float:
    """``hypot(dx, dy)`` written out (scaled by the larger part, so nothing overflows).

    Not :func:`math.hypot`: numpy's ``hypot`` rounds differently in the last
    place, and the batched solver must take the same accept/reject decisions.
    """
    ax = -dx if dx < 0.0 else dx
    ay = -dy if dy < 0.0 else dy
    m = ax if ax > ay else ay
    if m == 0.0:
        return 0.0
    qx = dx / m
    qy = dy / m
    return m * math.sqrt(qx * qx + qy * qy)


def dls_step(jx: list, jy: list, ux: float, uy: float, lam2: float, d: list) -> float:
    """The damped least squares step ``J^T (J J^T + lam2 I)^-1 u`` into ``d`` (radians), capped at ``MAX_STEP``;
    returns its largest turn before the cap (rad).

    ``jx``, ``jy`` are the Jacobian's rows and ``u`` the error, all divided by
    one scale (the step does not depend on it); a zeroed column gives a zero
    turn. A system that is singular or overflows gives no step at all.
    """
    n = len(jx)
    sxx = syy = sxy = 0.0
    for i in range(n):
        p = jx[i]
        q = jy[i]
        sxx += p * p
        syy += q * q
        sxy += p * q
    a11 = sxx + lam2
    a22 = syy + lam2
    det = a11 * a22 - sxy * sxy
    if not 0.0 < det < _INF:
        for i in range(n):
            d[i] = 0.0
        return 0.0
    wx = (a22 * ux - sxy * uy) / det
    wy = (a11 * uy - sxy * ux) / det
    largest = 0.0
    for i in range(n):
        v = jx[i] * wx + jy[i] * wy
        d[i] = v
        if v < 0.0:
            v = -v
        if v > largest:
            largest = v
    if largest > MAX_STEP:
        for i in range(n):
            d[i] = d[i] * MAX_STEP / largest
    return largest


def joint_bounds(lim: list | None, n: int) -> list:
    """Per joint ``(lo, hi, clamped)``: ``clamped`` False where the range is the full circle (or no limits)."""
    if lim is None:
        return [(-_PI, _PI, False)] * n
    return [(lo, hi, hi - lo < FULL_CIRCLE) for lo, hi in lim]


def turned(value: float, lo: float, hi: float, clamped: bool) -> float:
    """A joint angle after a step of at most ``MAX_STEP`` from inside ``[lo, hi]``.

    A clamped joint is clamped; a free one (the full circle) is wrapped back
    into (-pi, pi] by one turn and then kept inside ``[lo, hi]``, as
    :func:`~.validate.clamp_angle` keeps it.
    """
    if clamped:
        return lo if value < lo else hi if value > hi else value
    if value > _PI:
        value -= _TAU
    elif value <= -_PI:
        value += _TAU
    return lo if value < lo else hi if value > hi else value


def dls_iterations(rx, ry, a, lens, tx, ty, iterations, tolerance, lim, damping=DEFAULT_DAMPING):
    """Run up to ``iterations`` damped least squares steps on plain floats.

    ``a`` must already be wrapped to (-pi, pi] and inside ``lim`` (a list of
    ``(lo, hi)`` or None). Returns ``(angles, steps used, error, stalled)``: a
    new list of angles, the end effector's distance (px) to the target, and
    whether the stall rule (:class:`~.results.IKSolution`) stopped the steps.
    """
    n = len(lens)
    reach = 0.0
    for length in lens:
        reach += length
    bounds = joint_bounds(lim, n)
    limited = lim is not None and any(b[2] for b in bounds)
    reachable = distance(tx - rx, ty - ry) < reach
    a = list(a)
    xs, ys = joint_points(rx, ry, a, lens)
    error = distance(tx - xs[n], ty - ys[n])
    watch = StallWatch(reach)
    jx = [0.0] * n
    jy = [0.0] * n
    d = [0.0] * n
    used = 0
    mu = 1.0
    stalled = False
    while True:
        if error <= tolerance:
            break
        if watch.stalled(used, error):
            stalled = True
            break
        if used == iterations:
            break
        used += 1
        ex = xs[n]
        ey = ys[n]
        scale = error if error > reach else reach  # every entry below 1 in size: nothing overflows
        ux = (tx - ex) / scale
        uy = (ty - ey) / scale
        lam = damping * mu * error / scale
        for i in range(n):
            jx[i] = -(ey - ys[i]) / scale
            jy[i] = (ex - xs[i]) / scale
        lam2 = lam * lam
        largest = dls_step(jx, jy, ux, uy, lam2, d)
        if limited:
            pushed = False
            for i in range(n):
                lo, hi, clamped = bounds[i]
                if clamped and ((a[i] >= hi - AT_BOUND and d[i] > 0.0) or (a[i] <= lo + AT_BOUND and d[i] < 0.0)):
                    jx[i] = jy[i] = 0.0
                    pushed = True
            if pushed:
                largest = dls_step(jx, jy, ux, uy, lam2, d)
        b = [turned(a[i] + d[i], *bounds[i]) for i in range(n)]
        bx, by = joint_points(rx, ry, b, lens)
        trial = distance(tx - bx[n], ty - by[n])
        null = largest < NULL_STEP  # (the same as max(map(abs, d)) < NULL_STEP, measured before the cap)
        before, before_error = a, error  # an escape kicks from here: with the null step, no turn passes the cap
        if trial < error or (null and trial <= error + ROUNDING * reach):
            a, xs, ys, error = b, bx, by, trial
            mu = mu * MU_SHRINK
            if mu < 1.0:
                mu = 1.0
        else:
            mu = mu * MU_GROW
            if mu > MU_MAX:
                mu = MU_MAX
        if null and reachable:
            kicked = escape(rx, ry, before, lens, tx, ty, bounds, before_error)
            if kicked is not None:
                a, xs, ys, error = kicked
    return a, used, error, stalled


def escape(rx, ry, a, lens, tx, ty, bounds, error):
    """The trial pose of the first pair of :func:`kicks` that lowers ``error`` by more than rounding (of the
    two, the one that lowers it more; the first where they tie to rounding): ``(angles, xs, ys, error)``,
    or None.

    For a chain whose damped least squares step is nothing (see the module
    docstring); ``bounds`` as :func:`joint_bounds`. A pair is one turn (or
    fold) both ways, weighed together, so the mirror image of a chain takes
    the mirror image of its kick (the playground's mirror flip). Deterministic,
    so the batched solver repeats it row by row.
    """
    tiny = ROUNDING * sum(lens)  # a gain this small is rounding: the single and batched errors differ by it
    for pair in kicks(a, bounds):
        found = None
        for b in pair:
            bx, by = joint_points(rx, ry, b, lens)
            trial = distance(tx - bx[-1], ty - by[-1])
            if trial < error - tiny and (found is None or trial < found[3] - tiny):
                found = b, bx, by, trial
        if found is not None:
            return found
    return None


def kicks(a: list, bounds: list):
    """The escape's trial poses (lists of angles, rad) in pairs (a turn both ways; a pair may hold one
    pose, or none, where a bound stops a turn), for each size of ``KICKS``, largest first: each joint
    turned alone (root first), which swings a chain toward a target behind it; then each pair of
    neighbouring joints folded (``+s`` and ``-2 s``, ``s`` at most half of ``MAX_STEP`` so no joint
    turns further than a step may), which shortens a straight chain toward a target on its own line (a
    fold the single turns cannot make: for them a straight chain aimed past its target is a local
    minimum). Turns are kept inside ``bounds``."""
    n = len(a)
    for size in KICKS:
        for i in range(n):
            pair = []
            for turn in (size, -size):
                b = list(a)
                b[i] = turned(a[i] + turn, *bounds[i])
                if b[i] != a[i]:
                    pair.append(b)
            yield pair
        fold = min(size, MAX_STEP / 2)  # the second joint turns twice as far: still within a step's cap
        for i in range(n - 1):
            pair = []
            for turn in (fold, -fold):
                b = list(a)
                b[i] = turned(a[i] + turn, *bounds[i])
                b[i + 1] = turned(a[i + 1] - 2.0 * turn, *bounds[i + 1])
                if b[i] != a[i] or b[i + 1] != a[i + 1]:
                    pair.append(b)
            yield pair
