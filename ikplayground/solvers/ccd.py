"""Cyclic Coordinate Descent (CCD) for a planar chain.

After the pygame CCD tutorial: each sweep visits the joints from the tip to
the root and turns each one so the end effector points at the target. A sweep
never moves the pivots it has still to visit (they sit closer to the root), so
one forward-kinematics pass per sweep plus one rotation of the end effector per
joint is the whole cost: O(n) per sweep.

Joint limits clamp the relative angle after each turn; the end effector is
turned by the angle actually applied, so positions and angles never disagree.
The sweeps stop early once the error stops improving (the stall rule of
:class:`~.results.IKSolution`). Screen coordinates (y down), radians.
"""

from __future__ import annotations

import math

from ._problem import chain_problem
from ._validate import clamp_angle
from .results import STALL_GAIN, STALL_SWEEPS, IKSolution


def solve_ccd(root, angles, lengths, target, *, iterations=10, tolerance=0.5, limits=None, pole=None) -> IKSolution:
    """Move a chain's end effector toward ``target`` by CCD sweeps.

    Parameters
    ----------
    root : array_like, shape (2,)
        Fixed position of joint 0, in pixels.
    angles : array_like, shape (n,)
        Starting relative joint angles in radians.
    lengths : array_like, shape (n,)
        Bone lengths in pixels, each > 0.
    target : array_like, shape (2,)
        Goal for the end effector, in pixels.
    iterations : int, optional
        Most sweeps to run (>= 1). Fewer run once the error stops improving
        (``status`` "stalled"), so a large budget is safe.
    tolerance : float, optional
        Stop once the end effector is this close to the target, in pixels.
    limits : array_like, shape (n, 2), optional
        ``(lo, hi)`` bounds in radians on each relative angle,
        ``-pi <= lo <= hi <= pi``. Starting angles outside them are clamped.
    pole : array_like, shape (2,), optional
        A point, in pixels, that chooses the side the chain bends toward: when
        the inner joints end on the other side of the root-target line, the
        pose is mirrored across that line (same error; not taken when the
        mirror image breaks a limit). See :mod:`.pole`.

    Returns
    -------
    IKSolution
        New angles, the end effector's distance to the target, sweeps used,
        ``reached`` and the ``status`` saying why the sweeps stopped.

    Raises
    ------
    ValueError
        Naming the argument: wrong shape, not real numbers (booleans, complex
        numbers and strings are refused), non-finite, a length <= 0, limits
        outside [-pi, pi], or a chain or target past ``+-1e300`` px.
    """
    p = chain_problem(root, angles, lengths, target, iterations, tolerance, limits, pole)
    rx, ry, tx, ty, lens, _, a, lim, iterations, tolerance, _ = p
    a, used, error, stalled = ccd_sweeps(rx, ry, a, lens, tx, ty, iterations, tolerance, lim)
    return p.solution(a, error, used, stalled)


def ccd_sweeps(rx, ry, a, lens, tx, ty, iterations, tolerance, lim):
    """Run up to ``iterations`` CCD sweeps on plain floats.

    Returns ``(angles, sweeps used, error, stalled)``: ``error`` is the end
    effector's distance to the target after the last sweep, ``stalled`` whether
    the stall rule (:class:`~.results.IKSolution`) stopped the sweeps.

    ``a`` is updated in place and returned. The loop is written out by hand
    (forward kinematics and angle wrapping inlined): it is the single-chain hot
    path and must stay as fast as the plain-Python versions it replaces.
    """
    atan2, cos, sin, hypot = math.atan2, math.cos, math.sin, math.hypot
    pi, tau = math.pi, 2.0 * math.pi
    n = len(lens)
    joints = range(n - 1, -1, -1)
    xs = [0.0] * n
    ys = [0.0] * n
    used = 0
    # the stall rule (StallWatch, inlined): the error at the last checkpoint, and the least gain
    last, gain = math.inf, STALL_GAIN * sum(lens)
    stalled = False
    bones = range(n)
    while True:
        x, y, absolute = rx, ry, 0.0
        for i in bones:
            xs[i] = x
            ys[i] = y
            absolute += a[i]
            x += lens[i] * cos(absolute)
            y += lens[i] * sin(absolute)
        error = hypot(tx - x, ty - y)
        if error <= tolerance:
            break
        if not used % STALL_SWEEPS:
            if used and not error < last - gain:
                stalled = True
                break
            last = error
        if used == iterations:
            break
        used += 1
        if lim is None:  # (the same sweep, with the turn wrapped instead of clamped)
            for i in joints:
                px = xs[i]
                py = ys[i]
                vx = x - px
                vy = y - py
                old = a[i]
                new = old + (atan2(ty - py, tx - px) - atan2(vy, vx))
                if new > pi:
                    new -= tau
                    if new > pi:
                        new -= tau
                elif new <= -pi:
                    new += tau
                    if new <= -pi:
                        new += tau
                a[i] = new
                applied = new - old
                if applied:
                    c = cos(applied)
                    s = sin(applied)
                    x = px + c * vx - s * vy
                    y = py + s * vx + c * vy
        else:
            for i in joints:
                px = xs[i]
                py = ys[i]
                vx = x - px
                vy = y - py
                delta = atan2(ty - py, tx - px) - atan2(vy, vx)
                if delta > pi:
                    delta -= tau
                elif delta <= -pi:
                    delta += tau
                old = a[i]
                lo, hi = lim[i]
                new = clamp_angle(old + delta, lo, hi)
                a[i] = new
                applied = new - old
                if applied:
                    c = cos(applied)
                    s = sin(applied)
                    x = px + c * vx - s * vy
                    y = py + s * vx + c * vy
    return a, used, error, stalled
