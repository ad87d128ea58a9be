"""End orientation for the single-chain solvers: the last bone aimed at a heading as its end reaches the target.

Kinematic decoupling (Pieper 1968, "The kinematics of manipulators under computer control", the wrist
partitioning of a manipulator's position and orientation; Spong, Hutchinson & Vidyasagar 2006, "Robot
Modeling and Control", sec. 3.3, "Kinematic decoupling"): the last bone, ``L`` px long and pointing along
the absolute heading ``h``, ends on the target ``p`` exactly when the end of the bone before it (the
wrist) is on ``p - L (cos h, sin h)``. So :func:`aimed_loop` hands that point to the first ``n - 1``
bones, the solver's own loop solves it as any target (limits and budget as given), and the last bone's
relative angle is then set so that its absolute direction is ``h``, clamped into its range the nearer
way round the circle (:func:`~.validate.clamp_heading`). A one-bone chain only turns to ``h`` (its end
lands where it lands). Where the last joint's limit keeps it off ``h``, this project's fallbacks
(:func:`aimed_loop`, :func:`chosen`) try other poses of the first bones that keep the wrist.
:func:`aimed_solution` measures the result; :func:`aimed_records` turns the loop's step-through records
of the first ``n - 1`` bones into the whole chain's.

Pixels (y down); radians as ``atan2(dy, dx)``, so a heading turns clockwise on screen.
"""

from __future__ import annotations

import math

import numpy as np

from .kinematics import joint_xy
from .pole import line_image, mirrored_toward
from .results import HEADING_TOLERANCE, CCDStep, ChainProblem, FabrikStep, IKSolution
from .validate import clamp_heading, finite_real, wrap

MAX_ATTEMPTS = 4  # reduced solves at most per bone of the chain (the first and the fallbacks), so they stay few
TIE = 1e-12  # rad: two heading errors closer than this are one to rounding (so a mirror image decides alike)


def heading_of(value) -> float:
    """A heading checked and wrapped to (-pi, pi], rad.

    Raises
    ------
    ValueError
        ``"heading: ..."``: not a real number (a boolean, a string, an array) or not finite.
    """
    return wrap(finite_real(value, "heading"))


def wrist(p: ChainProblem, h: float) -> tuple[float, float]:
    """Where the last bone starts when it points along ``h`` (rad) and ends on the target, px."""
    last = p.lengths[-1]
    return p.tx - last * math.cos(h), p.ty - last * math.sin(h)


def aimed(h: float, absolute: float, lim: tuple | None) -> float:
    """The last bone's relative angle (rad) that points it along ``h`` after bones of ``absolute`` direction.

    ``lim`` its ``(lo, hi)`` range (rad) or None; clamped the nearer way round the circle.
    """
    rel = wrap(h - absolute)
    return rel if lim is None else clamp_heading(rel, *lim)


def measured(p: ChainProblem, h: float, angles: list) -> tuple[float, float]:
    """``(error px, heading error rad)`` of the whole chain at ``angles``."""
    xs, ys = joint_xy(p.rx, p.ry, angles, p.lengths)
    return math.hypot(p.tx - xs[-1], p.ty - ys[-1]), abs(wrap(h - sum(angles)))


def aimed_loop(p: ChainProblem, h: float, loop, watch: bool, attempts: list | None = None):
    """Solve ``p`` with its last bone along ``h`` (rad) by the reduction, running ``loop(problem, watch)``
    (a solver's loop: a generator returning ``(angles, used, error, stalled)``) on the first n - 1 bones.

    Yields the loop's records for the whole chain when ``watch`` (:func:`aimed_records`); returns
    ``(angles, used)``, the whole chain's angles (rad) and the iterations the loops used.

    With a limit on the last joint the aim may be clamped: then the bones before it must point into the
    range ``h - hi .. h - lo`` too. While that leaves the solve short, each bound of the last joint's
    range, the nearer first, is tried as the bone before it pointing along ``h - bound``: the same
    reduction on the first n - 1 bones (which may fall back in turn) on the budget left; the best pose
    is kept. This project's own (``MAX_ATTEMPTS`` per bone).
    """
    lens, lim = p.lengths, p.limits
    n = len(lens)
    last_lim = None if lim is None else lim[-1]
    if n == 1:
        return [aimed(h, 0.0, last_lim)], 0
    if attempts is None:
        attempts = [MAX_ATTEMPTS * n]
    attempts[0] -= 1
    wx, wy = wrist(p, h)
    sub = ChainProblem(p.rx, p.ry, wx, wy, lens[:-1], sum(lens[:-1]), p.angles[:-1],
                       None if lim is None else lim[:-1], p.iterations, p.tolerance, p.pole)
    a, used, _, _ = yield from aimed_records(loop(sub, watch), p, h, last_lim)
    best = chosen(sub, h, a, last_lim)
    error, off = measured(p, h, best)
    if last_lim is None or off <= HEADING_TOLERANCE:
        return best, used
    cost = error + lens[-1] * off
    nearer = best[-1]  # (clamped: on a bound)
    lo, hi = last_lim
    for bound in (nearer, hi if nearer == lo else lo):
        if used >= p.iterations or attempts[0] <= 0 or (error <= p.tolerance and off <= HEADING_TOLERANCE):
            break
        q = sub._replace(angles=best[:-1], iterations=p.iterations - used)  # from where the last attempt ended
        a, spent = yield from aimed_records(aimed_loop(q, wrap(h - bound), loop, watch, attempts), p, h, last_lim)
        used += spent
        trial = a + [aimed(h, sum(a), last_lim)]
        e, o = measured(p, h, trial)
        if e + lens[-1] * o < cost:
            best, error, off, cost = trial, e, o, e + lens[-1] * o
    return best, used


def chosen(sub: ChainProblem, h: float, a: list, lim: tuple | None) -> list:
    """The whole chain's angles (rad): the first n - 1 bones at ``a`` or at its mirror image about the
    root-wrist line (:func:`~.pole.line_image`: the wrist stays), the last bone aimed at ``h``.

    The image is taken where it brings the last bone within ``HEADING_TOLERANCE`` of ``h`` and ``a`` does
    not, or nearer ``h`` when neither does (its limit allowing the bone before it less); where both do or
    neither wins, the pole decides as :meth:`ChainProblem.solution` does (:func:`~.pole.mirrored_toward`).
    """
    whole = a + [aimed(h, sum(a), lim)]
    image = None if len(a) < 2 or lim is None else line_image(sub.rx, sub.ry, sub.tx, sub.ty, a, sub.limits)
    if image is not None:
        other = image + [aimed(h, sum(image), lim)]
        off, other_off = abs(wrap(h - sum(whole))), abs(wrap(h - sum(other)))
        if off > HEADING_TOLERANCE and other_off < off - TIE:
            return other
        if other_off > HEADING_TOLERANCE and off < other_off - TIE:
            return whole
    if sub.pole is None:
        return whole
    a = mirrored_toward(sub.rx, sub.ry, sub.tx, sub.ty, a, sub.lengths, sub.pole, sub.limits)
    return a + [aimed(h, sum(a), lim)]


def aimed_solution(p: ChainProblem, h: float, angles: list, used: int) -> IKSolution:
    """The :class:`IKSolution` of a solve with a heading (:func:`aimed_loop`) that ended at ``angles`` (rad)
    after ``used`` iterations: the error (px) and the heading error (rad) measured.

    ``status``: "reached" (within the tolerance and ``HEADING_TOLERANCE``); "out of reach" (the wrist
    point beyond the first n - 1 bones' length plus the tolerance: no pose has the heading there);
    "stalled" (it stopped before its budget: the reduced solves stalled, or the last joint's limit kept
    the bone off the heading); "iterations".
    """
    error, off = measured(p, h, angles)
    if error <= p.tolerance and off <= HEADING_TOLERANCE:
        status = "reached"
    else:
        wx, wy = wrist(p, h)
        if math.hypot(wx - p.rx, wy - p.ry) > p.reach - p.lengths[-1] + p.tolerance:
            status = "out of reach"
        else:
            status = "stalled" if used < p.iterations else "iterations"
    return IKSolution(np.array(angles, dtype=np.float64), error, used, status == "reached", status, off)


def aimed_records(loop, p: ChainProblem, h: float, lim: tuple | None):
    """Run a reduced solve's loop, yielding each record for the chain one bone longer; returns its value.

    ``lim`` the added bone's range or None. A :class:`CCDStep`'s angles gain the bone's, aimed after the
    turn (its pivot and effector points stay those of the bones the turn moved toward their point: the
    wrist). A :class:`FabrikStep`'s points gain the bone's end, the bone aimed from the direction of the
    one before it (its angles' sum when given, else its points'); after a forward walk, with the joint
    free, that end is on the target.
    """
    while True:
        try:
            step = next(loop)
        except StopIteration as done:
            return done.value
        if type(step) is CCDStep:
            yield step._replace(angles=np.append(step.angles, aimed(h, sum(step.angles.tolist()), lim)))
        else:
            pts = step.points
            if step.angles is not None:
                absolute = sum(step.angles.tolist())
            else:
                absolute = math.atan2(pts[-1, 1] - pts[-2, 1], pts[-1, 0] - pts[-2, 0])
            last = aimed(h, absolute, lim)
            d = absolute + last
            tip = pts[-1] + p.lengths[-1] * np.array((math.cos(d), math.sin(d)))
            yield FabrikStep(step.iteration, step.direction, np.vstack([pts, tip]),
                             None if step.angles is None else np.append(step.angles, last))
