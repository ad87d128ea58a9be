"""The public, validated batched solvers: ``N`` chains of ``n`` bones in one call (shapes as the calls say).

Each row equals the single-chain call on it to rounding (1e-9 rad), with the same budget, stall rule
and pole; FABRIK's array passes (more than ``SMALL_BATCH`` chains) round a hair differently, which can
show on targets the limits keep out of reach or aimed at the root. Pixels (y down), radians.
"""

from __future__ import annotations

import math

import numpy as np

from .validate import BOUND, MAX_COUNT, SLACK, _holds_bool, float_array, non_negative, positive_int, wrap_array
from .batched import ccd_batch, fabrik_batch, snake_batch
from ._batch_parts import limit_angles
from .dls import DEFAULT_DAMPING
from .dls_batch import jacobian_batch
from .jacobian import method_code
from .jacobian_loop import DEFAULT_REST_WEIGHT
from .jacobian_steps import DLS
from .obstacles import obstacle_rows
from .results import IKSolution, STATUSES

def _chains(roots, angles, lengths, targets):
    """The checked chain arrays: roots (N, 2), angles (N, n) wrapped, lengths (N, n), targets (N, 2)."""
    a = float_array(angles, "angles", ndim=2)
    count, n = a.shape
    if n < 1:
        raise ValueError(f"angles: needs at least one bone per chain, got shape {a.shape}")
    r = float_array(roots, "roots", ndim=2)
    t = float_array(targets, "targets", ndim=2)
    ln = float_array(lengths, "lengths", ndim=2)
    for name, arr, shape in (("roots", r, (count, 2)), ("targets", t, (count, 2)), ("lengths", ln, (count, n))):
        if arr.shape != shape:
            raise ValueError(f"{name}: expected shape {shape} to match angles {a.shape}, got {arr.shape}")
    if count and ln.min() <= 0:
        k, i = (int(v) for v in np.argwhere(ln <= 0)[0])
        raise ValueError(f"lengths: every length must be > 0 (got {ln[k, i]} at chain {k}, bone {i})")
    if count and ((np.abs(r).max(axis=1) + ln.sum(axis=1) > BOUND).any() or (np.abs(t) > BOUND).any()):
        raise ValueError(f"roots, targets, lengths: every chain and target must lie within +-{BOUND:g} px")
    pi = math.pi
    a = np.where((a > -pi) & (a <= pi), a, np.mod(a + pi, 2 * pi) - pi)
    a[a <= -pi] = pi
    return r, a, ln, t


def _numbers(value, name: str, expected: str) -> np.ndarray:
    """``value`` as an array, unconverted: refused (naming ``name``) if it holds a boolean or is ragged."""
    if _holds_bool(value):
        raise ValueError(f"{name}: must be numbers, not booleans")
    try:
        return np.asarray(value)
    except ValueError:  # ragged
        raise ValueError(f"{name}: expected {expected}, got a ragged list") from None


def _per_chain(value, count: int, name: str, *, whole: bool = False) -> np.ndarray:
    """One value for every chain, or one per chain: an (N,) array, each >= 0 (whole numbers >= 1)."""
    if np.ndim(value) == 0:
        if whole:
            return np.full(count, positive_int(value, name), dtype=np.int64)
        return np.full(count, non_negative(value, name))
    arr = _numbers(value, name, f"one value or shape ({count},)")
    if arr.shape != (count,):
        raise ValueError(f"{name}: expected one value or shape ({count},), got shape {arr.shape}")
    if whole:
        if arr.dtype.kind not in "iu" or (count and (arr.min() < 1 or arr.max() > MAX_COUNT)):
            raise ValueError(f"{name}: must be integers from 1 to {MAX_COUNT:,}")
        return arr.astype(np.int64)
    arr = float_array(value, name, ndim=1)
    if count and arr.min() < 0:
        raise ValueError(f"{name}: every value must be >= 0")
    return arr


def _limits(limits, count: int, n: int) -> np.ndarray | None:
    if limits is None:
        return None
    lim = float_array(limits, "limits", ndim=3)
    if lim.shape != (count, n, 2):
        raise ValueError(f"limits: expected shape {(count, n, 2)}, got {lim.shape}")
    if (lim[..., 0] > lim[..., 1]).any():
        k, i = (int(v) for v in np.argwhere(lim[..., 0] > lim[..., 1])[0])
        raise ValueError(f"limits: chain {k}, joint {i} has lo > hi ({lim[k, i, 0]} > {lim[k, i, 1]})")
    if (lim < -math.pi - SLACK).any() or (lim > math.pi + SLACK).any():
        raise ValueError("limits: every (lo, hi) must lie in [-pi, pi]")
    return np.clip(lim, -math.pi, math.pi)


def _poles(poles, count: int) -> np.ndarray | None:
    if poles is None:
        return None
    p = _numbers(poles, "poles", f"shape {(count, 2)}")
    if p.dtype.kind not in "fiu" or p.shape != (count, 2):
        raise ValueError(f"poles: expected real numbers of shape {(count, 2)}, got "
                         f"{p.dtype} of shape {p.shape}")
    p = p.astype(np.float64)
    none = np.isnan(p).all(axis=1)
    given = p[~none]
    if not np.isfinite(given).all() or (np.abs(given) > BOUND).any():
        raise ValueError(f"poles: each row must be a finite point within +-{BOUND:g} px, or all NaN (no pole)")
    return None if none.all() else p


def _solve(engine, roots, angles, lengths, targets, iterations, tolerance, limits, poles, options=None,
           obstacles=None) -> IKSolution:
    """Check the arguments, run ``engine``, measure. ``options(count, n)`` (the Jacobian family's): the engine's
    own keywords, checked; ``obstacles`` passed on as ``obstacles=``."""
    r, a, ln, t = _chains(roots, angles, lengths, targets)
    count, n = a.shape
    extra = {} if options is None else options(count, n)
    its = _per_chain(iterations, count, "iterations", whole=True)
    tol = _per_chain(tolerance, count, "tolerance")
    lim = _limits(limits, count, n)
    pole = _poles(poles, count)
    if extra.get("rest") is not None:  # wrapped, then clamped into the limits (as the single call's)
        extra["rest"] = limit_angles(wrap_array(extra["rest"]), lim)
    extra["obstacles"] = None if obstacles is None else obstacle_rows(obstacles)
    out, error, used = engine(r, a, ln, t, its, tol, lim, poles=pole, **extra)  # (every engine steps toward its poles)
    reached = error <= tol
    distance = np.hypot(t[:, 0] - r[:, 0], t[:, 1] - r[:, 1])
    status = np.where(reached, STATUSES[0], np.where(distance > ln.sum(axis=1) + tol, STATUSES[1],
                                                      np.where(used < its, STATUSES[2], STATUSES[3])))
    # the batch IKSolution holds a per-chain array in every field (the fields are typed for one chain); no
    # batched call takes a heading, so every heading error is 0
    return IKSolution(out, error, used, reached, status, np.zeros(count))  # type: ignore[arg-type]


def solve_ccd_batch(roots, angles, lengths, targets, *, iterations=10, tolerance=0.5, limits=None,
                    poles=None, obstacles=None) -> IKSolution:
    """:func:`~.ccd.solve_ccd` for ``N`` chains of ``n`` bones at once.

    Parameters
    ----------
    roots, targets : array_like, shape (N, 2)
        px, y down.
    angles, lengths : array_like, shape (N, n)
        Starting relative angles (rad) and bone lengths (px, each > 0).
    iterations, tolerance : int and float, or array_like, shape (N,)
        Most sweeps (>= 1) and the px that count as reached (>= 0).
    limits : array_like, shape (N, n, 2), optional
        ``(lo, hi)`` rad per relative angle, ``-pi <= lo <= hi <= pi``.
    poles : array_like, shape (N, 2), optional
        Each chain's pole (px), or a row of NaN for none.
    obstacles : array_like, shape (k, 3), optional
        Circles ``(x, y, r)`` px every chain keeps clear of as the single call does (one set for the batch).

    Returns
    -------
    IKSolution
        Of arrays: ``angles`` (N, n), ``error`` (N,) px, ``iterations`` (N,), ``reached`` (N,) bool,
        ``status`` (N,) str, ``heading_error`` (N,) zeros (no heading here).

    Raises
    ------
    ValueError
        Naming the argument: a wrong shape, values not finite real numbers, a length <= 0, bad limits, poles or
        obstacles.
    """
    return _solve(ccd_batch, roots, angles, lengths, targets, iterations, tolerance, limits, poles,
                  obstacles=obstacles)


def solve_fabrik_batch(roots, angles, lengths, targets, *, iterations=10, tolerance=0.5, limits=None,
                       poles=None, obstacles=None) -> IKSolution:
    """:func:`~.fabrik.solve_fabrik` for ``N`` chains at once: arguments and result as :func:`solve_ccd_batch`."""
    return _solve(fabrik_batch, roots, angles, lengths, targets, iterations, tolerance, limits, poles,
                  obstacles=obstacles)


def solve_dls_batch(roots, angles, lengths, targets, *, iterations=10, tolerance=0.5, limits=None, damping=None,
                    poles=None, obstacles=None) -> IKSolution:
    """:func:`~.jacobian.solve_dls` for ``N`` chains at once: as :func:`solve_ccd_batch` (``obstacles`` too), with
    ``damping`` (one value or (N,), >= 0; None: the single call's default)."""
    def options(count, n):
        return {"method": DLS, "damping": _per_chain(DEFAULT_DAMPING if damping is None else damping, count, "damping")}

    return _solve(jacobian_batch, roots, angles, lengths, targets, iterations, tolerance, limits, poles, options,
                  obstacles)


def solve_jacobian_batch(roots, angles, lengths, targets, *, method, iterations=100, tolerance=0.5, limits=None,
                         rest=None, rest_weight=DEFAULT_REST_WEIGHT, poles=None, damping=None,
                         obstacles=None) -> IKSolution:
    """:func:`~.jacobian.solve_jacobian` for ``N`` chains at once: as :func:`solve_ccd_batch` (``obstacles`` too),
    with ``method``, ``rest`` (N, n) rad (clamped into the limits), ``rest_weight`` and, for "dls" only,
    ``damping`` (one value or (N,), >= 0).

    Raises
    ------
    ValueError
        As :func:`solve_ccd_batch`, and a method not in the list, a bad rest pose or weight, a damping for
        another method than "dls".
    """
    code = method_code(method)
    if damping is not None and code != DLS:
        raise ValueError(f"damping: only the 'dls' method takes a damping (method {method!r})")

    def options(count, n):
        out = {"method": code, "damping": _per_chain(DEFAULT_DAMPING if damping is None else damping, count, "damping"),
               "rest_weight": _per_chain(rest_weight, count, "rest_weight")}
        if rest is not None:
            out["rest"] = float_array(rest, "rest", ndim=2)
            if out["rest"].shape != (count, n):
                raise ValueError(f"rest: expected shape {(count, n)}, got {out['rest'].shape}")
        return out

    return _solve(jacobian_batch, roots, angles, lengths, targets, iterations, tolerance, limits, poles, options,
                  obstacles)


def follow_snake_batch(points, heads, lengths, bend_limits) -> np.ndarray:
    """:func:`~.snake.follow_snake` for ``N`` snakes of ``n`` segments at once.

    Parameters
    ----------
    points : array_like, shape (N, n + 1, 2)
        Current nodes, px (y down), ``[:, 0]`` the heads.
    heads : array_like, shape (N, 2)
        New head positions, px.
    lengths : array_like, shape (N, n)
        Segment lengths, px, each > 0.
    bend_limits : array_like, shape (N, 2) or (2,)
        ``(lo, hi)`` rad at every inner node, ``-pi <= lo <= hi <= pi``.

    Returns
    -------
    ndarray, shape (N, n + 1, 2)
        The new nodes (a new array).

    Raises
    ------
    ValueError
        Naming the argument: a wrong shape, values not finite real numbers, a length <= 0, a bad range.
    """
    pts = float_array(points, "points", ndim=3)
    count, m, two = pts.shape
    if two != 2 or m < 2:
        raise ValueError(f"points: expected shape (N, n + 1, 2) with n >= 1, got {pts.shape}")
    h = float_array(heads, "heads", ndim=2)
    ln = float_array(lengths, "lengths", ndim=2)
    for name, arr, shape in (("heads", h, (count, 2)), ("lengths", ln, (count, m - 1))):
        if arr.shape != shape:
            raise ValueError(f"{name}: expected shape {shape}, got {arr.shape}")
    if count and ln.min() <= 0:
        raise ValueError("lengths: every length must be > 0")
    bl = float_array(bend_limits, "bend_limits")
    bl = np.broadcast_to(bl, (count, 2)) if bl.shape == (2,) else bl
    if bl.shape != (count, 2):
        raise ValueError(f"bend_limits: expected shape (2,) or {(count, 2)}, got {bl.shape}")
    if (bl[:, 0] > bl[:, 1]).any() or (bl < -math.pi - SLACK).any() or (bl > math.pi + SLACK).any():
        raise ValueError("bend_limits: each (lo, hi) must have lo <= hi inside [-pi, pi]")
    if count and ((np.abs(pts) > BOUND).any() or (np.abs(h).max(axis=1) + ln.sum(axis=1) > BOUND).any()):
        raise ValueError(f"points, heads: every snake must lie within +-{BOUND:g} px")
    bl = np.clip(bl, -math.pi, math.pi)
    return snake_batch(pts, h, ln, np.ascontiguousarray(bl[:, 0]), np.ascontiguousarray(bl[:, 1]))
