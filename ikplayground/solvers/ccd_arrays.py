"""CCD sweeps over many chains on numpy arrays (the pygame CCD tutorial; :func:`.batched.ccd_batch`).

Step for step :func:`.ccd.ccd_loop`, its restarts and pole steps (:mod:`._batch_reshape`) included, one
numpy call per joint over all chains, so a row equals the single call to rounding. No validation: float64
arrays of the documented shapes, radians, pixels (y down).
"""

from __future__ import annotations

import numpy as np

from ._batch_avoid import Avoid, turn_joints, turn_rooms, wrap_mod
from ._batch_parts import Stall, joint_modes, limit_joint, limit_pose
from ._batch_reshape import Poles, Restarts, in_order
from .kinematics import chain_points_batch
from .reshape import BEHIND, SPIN_LEVER
from .results import STALL_GAIN, STALL_SWEEPS
from .validate import FULL_CIRCLE, TAU, wrap_array


def ccd_arrays(roots, angles, lengths, targets, iterations, tolerance, limits=None, poles=None, obstacles=None):
    """CCD sweeps for ``N`` chains of ``n`` bones (see :func:`.batched.ccd_batch`); ``poles`` (N, 2) px (NaN rows:
    none) stepped toward before each sweep (three bones or more); ``obstacles`` (k, 3) circles ``(x, y, r)`` px
    or None, kept clear of as :func:`.ccd.ccd_loop` keeps them (:mod:`._batch_avoid`)."""
    a = limit_pose(angles, limits)
    count, n = a.shape
    used = np.zeros(count, dtype=np.int64)
    error = np.zeros(count)
    sweeps = int(iterations.max()) if count else 0
    modes = joint_modes(limits, n)
    reach = in_order(lengths)
    avoid = Avoid.of(roots, a, lengths, reach, obstacles)
    restarts = Restarts(roots, lengths, targets, limits, reach, None if avoid is None else avoid.guarded)
    pole = None if poles is None or n < 3 else Poles(roots, targets, poles, reach)
    spin = SPIN_LEVER * reach / n
    with np.errstate(over="ignore"):
        spin = spin * spin  # px^2: with a pole, a joint whose pivot lies this near the end is left be
    gain = STALL_GAIN * reach
    rows = np.arange(count)
    stall = Stall(lengths)
    for sweep in range(sweeps + 1):
        whole = len(rows) == count  # (views of the full arrays until some chains are done)
        sub = a if whole else a[rows]
        r, ln, t = (roots, lengths, targets) if whole else (roots[rows], lengths[rows], targets[rows])
        lim = None if limits is None else limits if whole else limits[rows]
        its = iterations[rows]
        if pole is not None:
            before = None if avoid is None else sub.copy()
            stepped = pole.step(rows, sub, ln, lim, r, reach[rows], sweep < its)
            if before is not None:
                avoid.undo_unclear(stepped, rows, r, sub, ln, before)
        pts = chain_points_batch(r, sub, ln)
        tx, ty = t[:, 0], t[:, 1]
        err = np.hypot(tx - pts[:, n, 0], ty - pts[:, n, 1])
        active = (err > tolerance[rows]) & (sweep < its)
        if sweep % STALL_SWEEPS == 0:
            if restarts.any:
                go = restarts.due(rows, err, stall.last[rows], gain[rows], active, sweep, its)
                if go.any():  # a new pose, and its error and checkpoint at the same sweep
                    go = restarts.take(go, rows, err, sub, ln, lim, r, t, *(() if avoid is None else avoid.at(rows)))
                    pts[go] = chain_points_batch(r[go], sub[go], ln[go])
                    err[go] = np.hypot(tx[go] - pts[go, n, 0], ty[go] - pts[go, n, 1])
                    active[go] = err[go] > tolerance[rows[go]]
                    stall.last[rows[go]] = np.inf
            stall.check(sweep, rows, err, active)
        error[rows] = err
        if sweep == sweeps or not active.any():
            if not whole:
                a[rows] = sub
            break
        if not active.all():
            if not whole:
                a[rows] = sub
            rows = rows[active]
            sub = a[rows]
            r, ln, t, pts = roots[rows], lengths[rows], targets[rows], pts[active]
            lim = None if limits is None else limits[rows]
            tx, ty = t[:, 0], t[:, 1]
        used[rows] += 1
        _sweep(sub, pts, tx, ty, lim, modes, None if pole is None else pole.on[rows], spin[rows],
               None if avoid is None else avoid.at(rows))
        if sub is not a:
            a[rows] = sub
    restarts.restore(a, error, lengths, reach)
    return a, error, used


def _sweep(sub, pts, tx, ty, lim, modes, poled, spin, avoid=None) -> None:
    """One CCD sweep, tip to root, over the working rows ``sub`` (rad, in place) from their joints ``pts`` px;
    ``poled`` (a mask or None): rows with a pole, whose joints within ``sqrt(spin)`` px of the end are left;
    ``avoid``: None, or the circles (k, 3) and the working rows' pairs (K, n, k) to keep clear."""
    n = sub.shape[1]
    ex = pts[:, n, 0].copy()
    ey = pts[:, n, 1].copy()
    if avoid is not None:
        obs, mask = avoid
        guard = np.flatnonzero(mask.any(axis=(1, 2)))  # the rows with a pair to keep clear (the others: as without)
        xs = np.ascontiguousarray(pts[guard, :, 0])
        ys = np.ascontiguousarray(pts[guard, :, 1])
        mask = mask[guard]
    for i in range(n - 1, -1, -1):
        px = pts[:, i, 0]
        py = pts[:, i, 1]
        vx = ex - px
        vy = ey - py
        delta = wrap_array(np.arctan2(ty - py, tx - px) - np.arctan2(vy, vx))
        old = sub[:, i]
        want = old + delta
        new = limit_joint(want, modes[i], lim, i)
        if modes[i] != "wrap":  # the aim straight behind: the way that ends nearer it (:func:`.ccd.ccd_loop`)
            clamped = (np.abs(delta) > BEHIND) & (new != want) & (lim[:, i, 1] - lim[:, i, 0] < FULL_CIRCLE)
            if clamped.any():
                other = limit_joint(np.where(delta > 0.0, want - TAU, want + TAU), modes[i], lim, i)
                nearer = clamped & (np.abs(wrap_array(other - want)) < np.abs(wrap_array(new - want)))
                new = np.where(nearer, other, new)
        if poled is not None:
            new = np.where(poled & (vx * vx + vy * vy < spin), old, new)
        applied = new - old
        if avoid is not None and len(guard):  # stopped short of the first contact along the sweep
            new[guard] = _clear_turns(xs, ys, i, old[guard], new[guard], tx[guard], ty[guard], lim, guard, obs, mask)
        sub[:, i] = new
        c = np.cos(applied)
        s = np.sin(applied)
        ex = px + c * vx - s * vy
        ey = py + s * vx + c * vy
        if avoid is not None and len(guard):
            ex[guard] = xs[:, n]
            ey[guard] = ys[:, n]


def _clear_turns(xs, ys, i, old, new, tx, ty, lim, guard, obs, mask):
    """Joint ``i``'s new angles (rad) of the rows ``guard`` (joints ``xs``, ``ys`` (G, n + 1) px, turned in place),
    their turns from ``old`` to ``new`` stopped short of the first contact, or the other way round where that
    ends nearer (:func:`.ccd.ccd_loop`)."""
    n = xs.shape[1] - 1
    full = np.ones(len(old), dtype=bool) if lim is None else lim[guard, i, 1] - lim[guard, i, 0] >= FULL_CIRCLE
    rot = np.where(full, wrap_mod(new - old), new - old)
    turn = turn_rooms(xs, ys, i, rot, obs, mask)
    other = np.flatnonzero((turn != rot) & full)
    if len(other):
        alt = turn_rooms(xs[other], ys[other], i, rot[other] - np.copysign(TAU, rot[other]), obs, mask[other])
        px, py = xs[other, i], ys[other, i]
        vx, vy = xs[other, n] - px, ys[other, n] - py
        c, s = np.cos(alt), np.sin(alt)
        c2, s2 = np.cos(turn[other]), np.sin(turn[other])
        nearer = (np.hypot(tx[other] - px - c * vx + s * vy, ty[other] - py - s * vx - c * vy)
                  < np.hypot(tx[other] - px - c2 * vx + s2 * vy, ty[other] - py - s2 * vx - c2 * vy))
        turn[other] = np.where(nearer, alt, turn[other])
    new = np.where(turn != rot, np.where(full, wrap_mod(old + turn), old + turn), new)
    turn_joints(xs, ys, i, turn)
    return new
