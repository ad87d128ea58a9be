"""The Jacobian family for a planar chain: :func:`solve_jacobian` (transpose, pseudo-inverse, DLS, SDLS) and
:func:`solve_dls`, its damped least squares.

The methods: Buss 2004, "Introduction to inverse kinematics with Jacobian transpose, pseudoinverse and damped
least squares methods"; damped least squares after Wampler 1986 and Nakamura & Hanafusa 1986; selectively
damped least squares after Buss & Kim 2005; the rest pose's and the pole's null-space terms after Liegeois 1977;
circle obstacles kept clear by a repulsive secondary task after Maciejewski & Klein 1985 (:mod:`.jacobian_avoid`).
Their one loop is :func:`.jacobian_loop.jacobian_iterations`, its steps :mod:`.jacobian_steps`. Pixels (y
down), radians.
"""

from __future__ import annotations

from .dls import DEFAULT_DAMPING
from .heading import aimed_loop, aimed_solution, heading_of
from .jacobian_loop import DEFAULT_REST_WEIGHT, jacobian_iterations
from .jacobian_steps import DLS, METHODS
from .kept_clear import kept_clear, solution
from .obstacles import obstacle_list
from .reshape import loop_pole
from .results import IKSolution, chain_problem, finish
from .validate import angles_list, clamp_angle, non_negative



def method_code(method) -> int:
    """``method``'s index in :data:`.jacobian_steps.METHODS`; a ValueError naming ``method`` for anything else."""
    if isinstance(method, str) and method in METHODS:
        return METHODS.index(method)
    raise ValueError(f"method: must be one of {', '.join(repr(m) for m in METHODS)}, got {method!r}")


def rest_pose(rest, n: int, limits) -> list | None:
    """``rest`` checked (n angles, rad, wrapped) and clamped into ``limits`` ((lo, hi) pairs or None); None stays."""
    if rest is None:
        return None
    r = angles_list(rest, n, "rest")
    return r if limits is None else [clamp_angle(v, lo, hi) for v, (lo, hi) in zip(r, limits)]


def solve_jacobian(root, angles, lengths, target, *, method, iterations=100, tolerance=0.5, limits=None, rest=None,
                   rest_weight=DEFAULT_REST_WEIGHT, pole=None, damping=None, heading=None,
                   obstacles=None) -> IKSolution:
    """Move a chain's end effector toward ``target`` by steps of a Jacobian method.

    Root and target (2,) px, y down; angles and lengths (n,) rad and px; limits (n, 2) rad; heading rad, as
    :func:`~.ccd.solve_ccd`'s; the result and the errors too, ``iterations`` counting steps, refused ones
    included (>= 1).

    Parameters
    ----------
    method : {"transpose", "pseudo-inverse", "dls", "sdls"}
        The step (:mod:`.jacobian_steps`): ``alpha J^T e``; ``J^+ e``; ``J^T (J J^T + lambda^2 I)^-1 e``;
        Buss & Kim's selectively damped ``J^+ e``, each singular direction clamped by how far it moves the
        joints.
    rest : array_like, shape (n,), optional
        A rest pose (rad, clamped into the limits): each step adds ``(I - J^+ J) (rest - angles) *
        rest_weight``, so that of the poses that reach the solve ends nearer it (it goes on past the tolerance
        until that turn is under ``SETTLE`` rad a step, the error kept within the tolerance).
    rest_weight : float
        >= 0.
    pole : array_like, shape (2,), optional
        px: before each step, CCD's and FABRIK's null-space step toward an arch on the pole's side
        (:func:`.reshape.pole_step`, at most ``POLE_TURN`` rad a solve), so a chain solved frame after frame
        rolls over to the pole's side instead of flipping there; two bones (no pose between their two bends)
        are mirrored to its side after the solve (:mod:`.pole`).
    damping : float, optional
        "dls" only: ``lambda = damping * mu * |e|``, >= 0 (None: ``DEFAULT_DAMPING``).
    obstacles : array_like, shape (k, 3), optional
        Circles ``(x, y, r)`` px: no bone the start has clear of a circle ends in it (a bone the start has inside
        one is free of it for that solve, as :func:`~.ccd.solve_ccd`'s). Each step adds a repulsion from the
        circles near the bones in the null space and is halved until its pose is clear, else refused; any chain
        with a circle within reach restarts when it stalls short of a target within reach (:mod:`.jacobian_loop`).
        With a heading, as :func:`~.ccd.solve_ccd`'s. None or ``(0, 3)``: as without.

    Raises
    ------
    ValueError
        Naming the argument: those of :func:`~.ccd.solve_ccd`, a method not in the list, a bad rest pose or
        weight, a damping for another method than "dls".
    """
    code = method_code(method)
    if damping is not None and code != DLS:
        raise ValueError(f"damping: only the 'dls' method takes a damping (method {method!r})")
    return _solve(root, angles, lengths, target, code, iterations, tolerance, limits, rest, rest_weight, pole,
                  damping, heading, obstacles)


def solve_dls(root, angles, lengths, target, *, iterations=10, tolerance=0.5, limits=None, damping=None,
              pole=None, heading=None, obstacles=None) -> IKSolution:
    """Damped least squares: :func:`solve_jacobian` with ``method="dls"`` (its default budget 10 steps).

    Each step is ``J^T (J J^T + lambda^2 I)^-1 e`` (``e = target - end``, ``J`` the 2 x n Jacobian), ``lambda =
    damping * mu * |e|`` px; the other arguments (``obstacles`` too), the result and the errors are
    :func:`solve_jacobian`'s.
    """
    return _solve(root, angles, lengths, target, DLS, iterations, tolerance, limits, None, 0.0, pole, damping,
                  heading, obstacles)


def _solve(root, angles, lengths, target, code, iterations, tolerance, limits, rest, rest_weight, pole, damping,
           heading, obstacles) -> IKSolution:
    p = chain_problem(root, angles, lengths, target, iterations, tolerance, limits, pole)
    obs = None if obstacles is None else obstacle_list(obstacles)
    damping = DEFAULT_DAMPING if damping is None else non_negative(damping, "damping")
    r = rest_pose(rest, len(p.lengths), p.limits)
    weight = non_negative(rest_weight, "rest_weight")
    pole, p = loop_pole(p, heading is not None)  # stepped toward inside the loop, not mirrored after it
    if heading is not None:
        h = heading_of(heading)

        def run(q, watch):  # a generator that yields nothing, as the other solvers' loops unwatched
            return jacobian_iterations(q.rx, q.ry, q.angles, q.lengths, q.tx, q.ty, q.iterations, q.tolerance,
                                       q.limits, damping, code, None if r is None else r[:len(q.lengths)], weight,
                                       pole, obs)
            yield

        a, used = finish(aimed_loop(p, h, run, False))
        return aimed_solution(p, h, kept_clear(p, a, obs), used)
    rx, ry, tx, ty, lens, _, a, lim, iterations, tolerance, _ = p
    a, used, error, stalled = jacobian_iterations(rx, ry, a, lens, tx, ty, iterations, tolerance, lim, damping, code,
                                                  r, weight, pole, obs)
    return solution(p, a, error, used, stalled, obs)
