"""The Jacobian family (:mod:`.jacobian_loop`; Buss 2004, Buss & Kim 2005; DLS after Wampler 1986) for many chains.

The single call's arithmetic, operation for operation, over arrays (its steps :mod:`.jacobian_arrays`), so each
row equals :func:`~.jacobian.solve_jacobian` to rounding; up to ``SMALL_BATCH`` chains run the single loop row by
row, a group of ``JIT_MIN_BATCH`` or more the compiled kernel (:mod:`.jit`) once it is loaded. No validation:
float64 arrays; pixels (y down), radians.
"""

from __future__ import annotations

from functools import partial

import numpy as np

from . import jit
from ._batch_avoid import clear_images
from ._batch_parts import SMALL_BATCH, limit_pose, run_rows
from .batched import JIT_MIN_BATCH
from .dls import AT_BOUND, DEFAULT_DAMPING, MU_GROW, MU_MAX, MU_SHRINK, NULL_STEP, escape, joint_bounds
from ._batch_reshape import Poles, Restarts
from .jacobian_arrays import capped, dls_step, largest_of, method_turns, projected, rest_pull
from .jacobian_loop import DEFAULT_REST_WEIGHT, SETTLE, jacobian_iterations
from .jacobian_steps import DLS, METHODS
from .pole import mirrored_toward_batch
from .results import ROUNDING, STALL_GAIN, STALL_SWEEPS
from .validate import FULL_CIRCLE, TAU

PI = np.pi


def dls_batch(roots, angles, lengths, targets, iterations, tolerance, limits=None, damping=None):
    """Damped least squares steps for ``N`` chains of ``n`` bones: ``(angles (N, n) rad, error (N,) px, steps (N,))``.

    Arguments as :func:`.batched.ccd_batch`'s, and ``damping`` one value or (N,) (None: ``DEFAULT_DAMPING``).
    """
    return jacobian_batch(roots, angles, lengths, targets, iterations, tolerance, limits, DLS, damping)


def jacobian_batch(roots, angles, lengths, targets, iterations, tolerance, limits=None, method="dls", damping=None,
                   rest=None, rest_weight=DEFAULT_REST_WEIGHT, poles=None, obstacles=None):
    """Steps of ``method`` (a name of :data:`.jacobian_steps.METHODS`, or its index) for ``N`` chains of ``n``
    bones: ``(angles (N, n) rad, error (N,) px, steps (N,))``.

    Arguments as :func:`.batched.ccd_batch`'s, and ``damping`` (DLS's; None: ``DEFAULT_DAMPING``) and
    ``rest_weight`` one value or (N,), ``rest`` (N, n) rad inside the limits or None, ``poles`` (N, 2) px (NaN
    rows: none) or None, as :func:`.jacobian_loop.jacobian_iterations` takes them; ``obstacles`` (k, 3) circles
    ``(x, y, r)`` px for every chain, or None: a row with one within its reach of its root runs the single loop
    (:func:`_rows`), the others as without.
    """
    method = method if isinstance(method, int) else METHODS.index(method)
    count, n = angles.shape
    damp = np.broadcast_to(np.asarray(DEFAULT_DAMPING if damping is None else damping, dtype=np.float64), (count,))
    weight = np.broadcast_to(np.asarray(rest_weight, dtype=np.float64), (count,))
    if poles is not None and np.isnan(poles[:, 0]).all():
        poles = None
    mirror = None
    if poles is not None and n < 3:  # (no null space to pull in: the answer is mirrored, as the single call's)
        mirror, poles = poles, None
    if obstacles is not None and not len(obstacles):
        obstacles = None
    args = (roots, angles, lengths, targets, iterations, tolerance, limits, method, damp, rest, weight, poles)
    out = _dispatch(*args) if obstacles is None else _among_circles(args, obstacles)
    if mirror is not None:
        image = mirrored_toward_batch(roots, out[0], lengths, targets, mirror, limits)
        if obstacles is not None:  # (not where the image puts a bone in a circle the start had it clear of)
            image = clear_images(roots, angles, limits, out[0], image, lengths, obstacles)
        out = (image,) + out[1:]
    return out


def _dispatch(*args):
    """A group without circles: row by row, on the kernel or on numpy (``args`` as :func:`_rows`')."""
    if len(args[1]) <= SMALL_BATCH:
        return _rows(*args)
    out = _kernel(*args)
    return _arrays(*args) if out is None else out


def _among_circles(args: tuple, obstacles: np.ndarray):
    """``(angles, error, used)`` of a group among circles: the rows with one within their reach of their root through
    the single loop (:func:`_rows`), the others as without (:func:`_dispatch`)."""
    roots, lengths = args[0], args[2]
    reach = np.zeros(len(roots))
    for i in range(lengths.shape[1]):  # (the single call's sum)
        reach = reach + lengths[:, i]
    centres = obstacles[:, :2][None] - roots[:, None]
    near = (np.hypot(centres[..., 0], centres[..., 1]) - obstacles[:, 2] < reach[:, None]).any(axis=1)
    if not near.any():
        return _dispatch(*args)
    a = np.empty(args[1].shape)
    error = np.empty(len(a))
    used = np.zeros(len(a), dtype=np.int64)
    for rows, run in ((near, partial(_rows, obs=obstacles.tolist())), (~near, _dispatch)):
        if rows.any():
            part = [None if x is None or isinstance(x, int) else x[rows] for x in args]
            part[7] = args[7]  # (the method)
            a[rows], error[rows], used[rows] = run(*part)
    return a, error, used


def _rows(roots, angles, lengths, targets, iterations, tolerance, limits, method, damp, rest, weight, poles, obs=None):
    """A few chains through the single loop, one by one (among the circles ``obs``, triples ``(x, y, r)`` px)."""
    index = iter(range(len(angles)))

    def row(rx, ry, a, lens, tx, ty, its, tol, lim, *_):
        k = next(index)
        pole = None if poles is None or np.isnan(poles[k, 0]) else tuple(poles[k].tolist())
        return jacobian_iterations(rx, ry, a, lens, tx, ty, its, tol, lim, float(damp[k]), method,
                                   None if rest is None else rest[k].tolist(), float(weight[k]), pole, obs)[:3]

    return run_rows(row, roots, angles, lengths, targets, iterations, tolerance, limits)


def _kernel(roots, angles, lengths, targets, iterations, tolerance, limits, method, damp, rest, weight, poles):
    """The compiled kernel's ``(angles, error, used)``, or None (no numba, not loaded yet, a small group)."""
    if len(angles) < JIT_MIN_BATCH:
        return None
    k = jit.kernels()
    if k is None:
        jit.warm_up()  # compile in the background (if numba is there); numpy until then
        return None

    def c(x, dtype=None):  # C-contiguous and writable: numba types a read-only array apart, and would compile
        return np.require(x, dtype, ("C", "W"))  # the whole kernel again for it (minutes, cold)

    count, n = angles.shape
    a = np.array(angles, dtype=np.float64, order="C")  # limited and solved in place
    error = np.empty(count)
    used = np.zeros(count, dtype=np.int64)
    if limits is None:  # (the full circle: each joint wraps, as without limits)
        limits = np.broadcast_to(np.array([-PI, PI]), a.shape + (2,))
    k.dls(c(roots, dtype=np.float64), a, c(lengths, dtype=np.float64), c(targets, dtype=np.float64),
          c(iterations, dtype=np.int64), c(tolerance, dtype=np.float64), c(limits, dtype=np.float64), error, used,
          c(damp), STALL_SWEEPS, STALL_GAIN, ROUNDING, method, rest is not None,
          c(np.zeros((count, n)) if rest is None else rest, dtype=np.float64), c(weight),
          c(np.full((count, 2), np.nan) if poles is None else poles, dtype=np.float64))
    return a, error, used


def _arrays(roots, angles, lengths, targets, iterations, tolerance, limits, method, damp, rest, weight, poles):
    """The numpy engine: every chain of the working set one step at a time."""
    count, n = angles.shape
    a = limit_pose(angles, limits)
    error = np.zeros(count)
    used = np.zeros(count, dtype=np.int64)
    reach = np.zeros(count)
    for i in range(n):
        reach = reach + lengths[:, i]
    if limits is None:
        lo = np.full((count, n), -PI)
        hi = np.full((count, n), PI)
        clamped = None
        limited = np.zeros(count, dtype=bool)
    else:
        lo = limits[..., 0]
        hi = limits[..., 1]
        clamped = hi - lo < FULL_CIRCLE
        limited = clamped.any(axis=1)
    extra = np.full(count, rest is not None)
    rx, ry, tx, ty = roots[:, 0], roots[:, 1], targets[:, 0], targets[:, 1]
    xs, ys = joint_points(rx, ry, a, lengths)
    err = distance(tx - xs[:, n], ty - ys[:, n])
    reachable = distance(tx - rx, ty - ry) < reach
    gain = STALL_GAIN * reach  # the single call's sum, joint by joint
    # the restarts (reshape.restart_pose: each row's draws left, generator and best pose)
    restarts = Restarts(roots, lengths, targets, limits if limited.any() else None, reach)
    # the working set: its rows, each row's state, and compact copies of what each chain needs (_one_step's order)
    rows = np.arange(count)
    state = dict(a=a, xs=xs, ys=ys, err=err, mu=np.ones(count), last=np.full(count, np.inf),
                 settled=np.zeros(count, dtype=bool))
    fixed = dict(rx=rx, ry=ry, ln=lengths, tx=tx, ty=ty, reach=reach, damping=damp, lo=lo, hi=hi, its=iterations,
                 tol=tolerance, reachable=reachable, gain=gain, extra=extra, rest=rest, weight=weight,
                 clamped=clamped, limits=limits, roots=roots, targets=targets)
    # the poles' steps (reshape.pole_step, three bones or more): each row's arch and what it may still turn
    pole = None if poles is None or n < 3 else Poles(roots, targets, poles, reach)
    step = 0
    while True:
        s, f = state, fixed
        if pole is not None:  # the pole's step, before each step (as the single call's)
            _pole_step(pole, rows, s, f, step)
        on = s["err"] <= f["tol"]
        active = ~(on & (~f["extra"] | s["settled"]))
        if step % STALL_SWEEPS == 0:
            check = active & ~on
            if step and restarts.any:
                go = restarts.due(rows, s["err"], s["last"], f["gain"], check, step, f["its"])
                if go.any():  # a new pose, its error the new checkpoint's (as the single call's)
                    _restart(restarts, go, rows, s, f)
                    on = s["err"] <= f["tol"]
                    active = ~(on & (~f["extra"] | s["settled"]))
                    check &= ~go
            if step:
                active &= ~(check & ~(s["err"] < s["last"] - f["gain"]))
            s["last"] = np.where(active & ~on, s["err"], s["last"])
        active &= step < f["its"]
        if not active.all():
            done = ~active
            a[rows[done]] = s["a"][done]
            error[rows[done]] = s["err"][done]
            used[rows[done]] = step
            if not active.any():
                break
            rows = rows[active]
            state = {k: v[active] for k, v in s.items()}
            fixed = {k: None if v is None else v[active] for k, v in f.items()}
        step += 1
        _one_step(state, fixed, method)
    restarts.restore(a, error, lengths, reach)
    return a, error, used


def _restart(restarts: Restarts, go: np.ndarray, rows: np.ndarray, s: dict, f: dict) -> None:
    """The working set's rows ``go`` (a mask) start again from a pose drawn inside their limits, the best kept."""
    a = s["a"].copy()
    restarts.take(go, rows, s["err"], a, f["ln"], f["limits"], f["roots"], f["targets"])
    n = a.shape[1]
    bx, by = joint_points(f["rx"][go], f["ry"][go], a[go], f["ln"][go])
    s["a"] = a
    s["xs"], s["ys"], s["err"], s["mu"] = s["xs"].copy(), s["ys"].copy(), s["err"].copy(), s["mu"].copy()
    s["xs"][go] = bx
    s["ys"][go] = by
    s["err"][go] = distance(f["tx"][go] - bx[:, n], f["ty"][go] - by[:, n])
    s["mu"][go] = 1.0


def _pole_step(pole: Poles, rows: np.ndarray, s: dict, f: dict, step: int) -> None:
    """The working set's rows that step toward their poles now (:meth:`._batch_reshape.Poles.step`), in place."""
    a = s["a"].copy()
    lim = f["limits"]
    # (a step is taken after a restart before the next pole step, as in the single call)
    moved = pole.step(rows, a, f["ln"], lim, f["roots"], f["reach"], step < f["its"])
    if moved.any():
        n = a.shape[1]
        bx, by = joint_points(f["rx"][moved], f["ry"][moved], a[moved], f["ln"][moved])
        s["a"] = a
        s["xs"] = s["xs"].copy()
        s["ys"] = s["ys"].copy()
        s["err"] = s["err"].copy()
        s["xs"][moved] = bx
        s["ys"][moved] = by
        s["err"][moved] = distance(f["tx"][moved] - bx[:, n], f["ty"][moved] - by[:, n])


def _one_step(s: dict, f: dict, method: int) -> None:
    """One step of ``method`` on every chain of the working set (see :func:`~.jacobian_loop.jacobian_iterations`)."""
    a, xs, ys, err, mu = s["a"], s["xs"], s["ys"], s["err"], s["mu"]
    lo, hi, clamped, tx, ty, reach = f["lo"], f["hi"], f["clamped"], f["tx"], f["ty"], f["reach"]
    n = a.shape[1]
    on = err <= f["tol"]
    ex = xs[:, n]
    ey = ys[:, n]
    scale = np.maximum(err, reach)
    ux = (tx - ex) / scale
    uy = (ty - ey) / scale
    with np.errstate(over="ignore"):  # an enormous damping: no step, as in the single call
        lam = f["damping"] * mu * err / scale
        lam2 = lam * lam
    shrink = 1.0 / mu
    jx = [-(ey - ys[:, i]) / scale for i in range(n)]
    jy = [(ex - xs[:, i]) / scale for i in range(n)]
    d, largest = method_turns(method, jx, jy, ux, uy, lam2, shrink, dls_step)
    if clamped is not None:
        pushed = np.zeros(len(a), dtype=bool)
        for i in range(n):
            out = clamped[:, i] & (((a[:, i] >= hi[:, i] - AT_BOUND) & (d[i] > 0.0))
                                   | ((a[:, i] <= lo[:, i] + AT_BOUND) & (d[i] < 0.0)))
            if out.any():
                jx[i] = np.where(out, 0.0, jx[i])
                jy[i] = np.where(out, 0.0, jy[i])
                pushed |= out
        if pushed.any():  # solved again for every row: the rows with nothing pushed get the same step
            d, largest = method_turns(method, jx, jy, ux, uy, lam2, shrink, dls_step)
    if f["extra"].any():
        d = _with_null_term(s, f, jx, jy, d, shrink, on)
    b = np.empty_like(a)
    for i in range(n):
        v = a[:, i] + d[i]
        wrapped = np.where(v > PI, v - TAU, np.where(v <= -PI, v + TAU, v))
        if clamped is None:
            b[:, i] = wrapped
        else:
            b[:, i] = np.minimum(np.maximum(np.where(clamped[:, i], v, wrapped), lo[:, i]), hi[:, i])
    bx, by = joint_points(f["rx"], f["ry"], b, f["ln"])
    trial = distance(tx - bx[:, n], ty - by[:, n])
    null = largest < NULL_STEP
    tie = 0.0 if method == DLS else ROUNDING * reach  # (the single call's: a gain within rounding is none)
    better = np.where(on, trial <= f["tol"], trial < err - tie) | (null & (trial <= err + ROUNDING * reach))
    before, before_err = a, err  # an escape kicks from here (as the single call)
    keep = better[:, None]
    s["a"] = a = np.where(keep, b, a)
    s["xs"] = xs = np.where(keep, bx, xs)
    s["ys"] = ys = np.where(keep, by, ys)
    s["err"] = err = np.where(better, trial, err)
    s["mu"] = np.where(better, np.maximum(mu * MU_SHRINK, 1.0), np.minimum(mu * MU_GROW, MU_MAX))
    kick = null & ~on & f["reachable"]
    if kick.any():  # the single call's escape, row by row (rare: a chain on its target's line)
        for k in np.flatnonzero(kick).tolist():
            lim = None if clamped is None else list(zip(lo[k].tolist(), hi[k].tolist()))
            kicked = escape(float(f["rx"][k]), float(f["ry"][k]), before[k].tolist(), f["ln"][k].tolist(),
                            float(tx[k]), float(ty[k]), joint_bounds(lim, n), float(before_err[k]))
            if kicked is not None:
                a[k], xs[k], ys[k], err[k] = kicked


def _with_null_term(s: dict, f: dict, jx: list, jy: list, d: list, shrink, on) -> list:
    """``d`` with the rest pose's null-space term added where a row has one (capped again); marks the rows on the
    target whose term has settled (:func:`.jacobian_loop.null_term`)."""
    a, lo, hi, extra = s["a"], f["lo"], f["hi"], f["extra"]
    n = a.shape[1]
    z = rest_pull(a, f["rest"], f["weight"], lo, hi)
    jx = list(jx)
    jy = list(jy)
    for i in range(n):
        held = (jx[i] == 0.0) & (jy[i] == 0.0)
        if f["clamped"] is not None:
            held |= f["clamped"][:, i] & (((a[:, i] >= hi[:, i] - AT_BOUND) & (z[i] > 0.0))
                                          | ((a[:, i] <= lo[:, i] + AT_BOUND) & (z[i] < 0.0)))
        z[i] = np.where(held, 0.0, z[i])
        jx[i] = np.where(held, 0.0, jx[i])
        jy[i] = np.where(held, 0.0, jy[i])
    z, turn = projected(jx, jy, z)
    turn = turn * shrink
    moved = [v + p * shrink for v, p in zip(d, z)]
    moved = capped(moved, largest_of(moved))
    s["settled"] = s["settled"] | (extra & on & (turn < SETTLE))
    return [np.where(extra, m, v) for m, v in zip(moved, d)]


def distance(dx: np.ndarray, dy: np.ndarray) -> np.ndarray:
    """:func:`.dls.distance` over arrays: ``hypot`` written out, rounding as the single call's."""
    m = np.maximum(np.abs(dx), np.abs(dy))
    safe = np.where(m > 0.0, m, 1.0)
    qx = dx / safe
    qy = dy / safe
    return m * np.sqrt(qx * qx + qy * qy)


def joint_points(rx: np.ndarray, ry: np.ndarray, a: np.ndarray, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`.kinematics.joint_xy` over a batch: x and y of the ``n + 1`` joints, each shape (N, n + 1)."""
    absolute = np.cumsum(a, axis=1)  # (accumulate adds in order: the single call's sums)
    xs = np.cumsum(np.column_stack([rx, lengths * np.cos(absolute)]), axis=1)
    ys = np.cumsum(np.column_stack([ry, lengths * np.sin(absolute)]), axis=1)
    return xs, ys
