"""FABRIK passes over many chains on numpy arrays (Aristidou & Lasenby 2011; :func:`.batched.fabrik_batch`).

Step for step :func:`.fabrik.fabrik_loop` with this project's limit changes, restarts and pole steps
(:mod:`._batch_reshape`), so a row equals the single call to rounding. No validation: float64 arrays of
the documented shapes, radians, pixels (y down).
"""

from __future__ import annotations

import numpy as np

from ._batch_avoid import Avoid, placed, wrap_mod
from ._batch_parts import Stall, joint_modes, limit_joint, limit_pose
from ._batch_reshape import Poles, Restarts, in_order
from .validate import FULL_CIRCLE, TAU, wrap_array
from .kinematics import chain_points_batch
from .results import ROUNDING, STALL_GAIN, STALL_SWEEPS

PI = np.pi


def fabrik_arrays(roots, angles, lengths, targets, iterations, tolerance, limits=None, poles=None, obstacles=None):
    """FABRIK passes for ``N`` chains of ``n`` bones (see :func:`.batched.fabrik_batch`); ``poles`` (N, 2) px
    (NaN rows: none) stepped toward before each pass (three bones or more); ``obstacles`` (k, 3) circles
    ``(x, y, r)`` px or None, kept clear of as :func:`.fabrik.fabrik_loop` keeps them (:mod:`._batch_avoid`)."""
    a = limit_pose(angles, limits)
    count, n = a.shape
    pts = chain_points_batch(roots, a, lengths)
    xs = np.ascontiguousarray(pts[:, :, 0])
    ys = np.ascontiguousarray(pts[:, :, 1])
    reach = in_order(lengths)
    dist = np.hypot(targets[:, 0] - roots[:, 0], targets[:, 1] - roots[:, 1])
    unreachable = dist >= reach
    safe = np.where(dist > 0, dist, 1.0)
    ux = np.where(dist > 0, (targets[:, 0] - roots[:, 0]) / safe, 1.0)
    uy = np.where(dist > 0, (targets[:, 1] - roots[:, 1]) / safe, 0.0)
    used = np.zeros(count, dtype=np.int64)
    sweeps = int(iterations.max()) if count else 0
    modes = joint_modes(limits, n)
    bent = np.zeros((count, n), dtype=bool) if limits is None else limits[..., 1] - limits[..., 0] < FULL_CIRCLE
    turns = ["all" if bent[:, j].all() else "some" if bent[:, j].any() else "none" for j in range(n)]
    avoid = Avoid.of(roots, a, lengths, reach, obstacles)
    restarts = Restarts(roots, lengths, targets, limits, reach, None if avoid is None else avoid.guarded)
    pole = None if poles is None or n < 3 else Poles(roots, targets, poles, reach)
    gain = STALL_GAIN * reach
    # the working set: views of the full arrays until some chains are done, then compact copies (written back)
    rows = np.arange(count)
    sx, sy, sa, sb = xs, ys, a, bent
    ln, rx, ry, tx, ty = lengths, roots[:, 0], roots[:, 1], targets[:, 0], targets[:, 1]
    tol, its, far, lim, sux, suy = tolerance, iterations, unreachable, limits, ux, uy
    compact = False
    stall = Stall(lengths)
    hope = Hope(count)
    for sweep in range(sweeps):
        if pole is not None:  # the pole's step, from the angles (read back from the points when free)
            if sweep and lim is None:
                sa[:] = _read_angles(sx, sy)
            before = None if avoid is None else sa.copy()
            stepped = pole.step(rows, sa, ln, lim, np.stack([rx, ry], axis=1), reach[rows], sweep < its)
            if before is not None:
                avoid.undo_unclear(stepped, rows, np.stack([rx, ry], axis=1), sa, ln, before)
            if stepped.any():
                _place(stepped, sa, sx, sy, rx, ry, ln)
        err = np.hypot(tx - sx[:, n], ty - sy[:, n])
        active = (err > tol) & (sweep < its)
        if sweep:
            active &= ~far  # one pass lays an unreachable chain straight
        if sweep % STALL_SWEEPS == 0:
            if restarts.any:
                go = restarts.due(rows, err, stall.last[rows], gain[rows], active, sweep, its)
                if go.any():  # a new pose, and its error and checkpoint at the same pass
                    if lim is None:  # (the walks moved the points alone)
                        sa[go] = _read_angles(sx[go], sy[go])
                    go = restarts.take(go, rows, err, sa, ln, lim, np.stack([rx, ry], axis=1),
                                       np.stack([tx, ty], axis=1), *(() if avoid is None else avoid.at(rows)))
                    _place(go, sa, sx, sy, rx, ry, ln)
                    err[go] = np.hypot(tx[go] - sx[go, n], ty[go] - sy[go, n])
                    active[go] = err[go] > tol[go]
                    stall.last[rows[go]] = np.inf
                    hope.since[rows[go]] = 0
                    hope.before[rows[go]] = np.inf
            stall.check(sweep, rows, err, active)
        if sweep > 2:
            active &= ~hope.lost(sweep, rows, err, tol, its, reach[rows], restarts, pole)
        hope.note(rows, err)
        if not active.any():
            break
        if not active.all():
            if compact:
                xs[rows], ys[rows], a[rows] = sx, sy, sa
            rows = rows[active]
            sx, sy, sa, sb = xs[rows], ys[rows], a[rows], bent[rows]
            ln, rx, ry, tx, ty = lengths[rows], roots[rows, 0], roots[rows, 1], targets[rows, 0], targets[rows, 1]
            tol, its, far, sux, suy = tolerance[rows], iterations[rows], unreachable[rows], ux[rows], uy[rows]
            lim = None if limits is None else limits[rows]
            compact = True
        used[rows] += 1
        hope.since[rows] += 1
        clear = None if avoid is None else avoid.at(rows)
        if clear is not None:
            before = (sx.copy(), sy.copy(), sa.copy())  # (a pass that finds no clear way is not taken)
        _forward(sx, sy, sb, ln, lim, tx, ty, sux, suy, turns, modes, clear)
        if far.any():  # a straight line toward an unreachable target
            along = np.cumsum(ln, axis=1)
            sx[:, 1:] = np.where(far[:, None], rx[:, None] + sux[:, None] * along, sx[:, 1:])
            sy[:, 1:] = np.where(far[:, None], ry[:, None] + suy[:, None] * along, sy[:, 1:])
        failed = _backward(sx, sy, sa, ln, lim, rx, ry, sux, suy, modes, clear)
        if failed is not None and failed.any():
            sx[failed], sy[failed], sa[failed] = before[0][failed], before[1][failed], before[2][failed]
    if compact:
        xs[rows], ys[rows], a[rows] = sx, sy, sa
    if limits is None:
        a = np.where((used > 0)[:, None], _read_angles(xs, ys), a)
    error = np.hypot(targets[:, 0] - xs[:, n], targets[:, 1] - ys[:, n])
    back = restarts.restore(a, error, lengths, reach)
    if len(back):
        pts = chain_points_batch(roots[back], a[back], lengths[back])
        error[back] = np.hypot(targets[back, 0] - pts[:, n, 0], targets[back, 1] - pts[:, n, 1])
    return a, error, used


class Hope:
    """The hopeless rule over a batch (:func:`.fabrik.fabrik_loop`'s, :class:`~.results.IKSolution`): per chain the
    passes since its start or last restart, the error before its last pass and the gain of the pass before (px)."""

    def __init__(self, count: int):
        self.since = np.zeros(count, dtype=np.int64)
        self.before = np.full(count, np.inf)
        self.gain = np.full(count, np.inf)

    def lost(self, sweep, rows, err, tol, its, reach, restarts, pole) -> np.ndarray:
        """The working rows (a mask) whose last pass, the third or later, gained no more than the one before (to
        rounding of their ``reach`` (K,) px), at whose gain the passes left cannot bring ``err`` (K,) px down to
        ``tol``: no pole stepping them, no restart still to come."""
        gained = self.before[rows] - err
        out = self.since[rows] > 2
        out &= gained <= self.gain[rows] + ROUNDING * reach
        out &= err - tol > gained * (its - sweep)
        if pole is not None:
            out &= ~pole.on[rows]
        if restarts.any:
            out &= ~((restarts.left[rows] > 0) & ((sweep // STALL_SWEEPS + 2) * STALL_SWEEPS <= its))
        return out

    def note(self, rows, err) -> None:
        """The working rows' errors ``err`` (K,) px before their next pass."""
        self.gain[rows] = self.before[rows] - err
        self.before[rows] = err


def _read_angles(xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """The relative angles (K, n) rad, wrapped, of the joints ``xs``, ``ys`` (K, n + 1) px."""
    absolute = np.arctan2(np.diff(ys, axis=1), np.diff(xs, axis=1))
    parent = np.concatenate([np.zeros((len(xs), 1)), absolute[:, :-1]], axis=1)
    return wrap_array(absolute - parent)


def _place(mask, sa, sx, sy, rx, ry, ln) -> None:
    """The joints of the working rows ``mask`` laid out from their angles ``sa`` (in place on ``sx``, ``sy``)."""
    pts = chain_points_batch(np.stack([rx[mask], ry[mask]], axis=1), sa[mask], ln[mask])
    sx[mask] = pts[:, :, 0]
    sy[mask] = pts[:, :, 1]


def _forward(sx, sy, sb, ln, lim, tx, ty, ux, uy, turns, modes, clear=None):
    """Forward reaching over the working set, in place; ``turns[j]``: "all", "some" or "none" chains limit ``j``;
    ``clear``: None, or the circles (k, 3) and the working rows' pairs (K, n, k) to keep clear."""
    n = ln.shape[1]
    x = tx.copy()
    y = ty.copy()
    sx[:, n] = x
    sy[:, n] = y
    for i in range(n - 1, -1, -1):
        dx = sx[:, i] - x
        dy = sy[:, i] - y
        turn = turns[i + 1] if i + 1 < n else "none"
        if turn != "all":
            fx, fy = _pull(x, y, dx, dy, ln[:, i], -ux, -uy)
        if turn != "none":
            turned_x, turned_y, child, v = _turn(x, y, dx, dy, sx[:, i + 2], sy[:, i + 2], ln[:, i], ux, uy, lim,
                                                 i + 1, modes[i + 1])
            if turn == "all":
                fx, fy = turned_x, turned_y
            else:
                fx = np.where(sb[:, i + 1], turned_x, fx)
                fy = np.where(sb[:, i + 1], turned_y, fy)
        if clear is not None:  # turned clear of the circles (in the range), where it can be (else left)
            guard = clear[1][:, i].any(axis=1)
            bent = sb[:, i + 1] & guard if turn != "none" else np.zeros_like(guard)
            for rows, limited in ((np.flatnonzero(guard & ~bent), False), (np.flatnonzero(bent), True)):
                if len(rows):
                    at = (x[rows], y[rows], fx[rows], fy[rows], ln[rows, i], clear[0], clear[1][rows, i])
                    if limited:
                        fx[rows], fy[rows], _ = placed(*at, child[rows] + PI, -1.0, v[rows], lim[rows, i + 1, 0],
                                                       lim[rows, i + 1, 1], True)
                    else:
                        fx[rows], fy[rows], _ = placed(*at, 0.0, 1.0, 0.0, -PI, PI, False)
        x, y = fx, fy
        sx[:, i] = x
        sy[:, i] = y


def _backward(sx, sy, sa, ln, lim, rx, ry, ux, uy, modes, clear=None):
    """Backward reaching over the working set, in place; with limits in angles (``sa`` updated), joint 0 a heading.
    ``clear`` as :func:`_forward`'s: then the rows where some bone found no clear direction (a mask), else None."""
    n = ln.shape[1]
    x = rx.copy()
    y = ry.copy()
    sx[:, 0] = x
    sy[:, 0] = y
    failed = None if clear is None else np.zeros(len(x), dtype=bool)
    if lim is None:
        for i in range(n):
            px, py = x, y
            x, y = _pull(x, y, sx[:, i + 1] - x, sy[:, i + 1] - y, ln[:, i], ux, uy)
            if clear is not None:
                rows = np.flatnonzero(clear[1][:, i].any(axis=1))
                if len(rows):
                    x, y = x.copy(), y.copy()
                    x[rows], y[rows], v = placed(px[rows], py[rows], x[rows], y[rows], ln[rows, i], clear[0],
                                                 clear[1][rows, i], 0.0, 1.0, 0.0, -PI, PI, False)
                    failed[rows] |= np.isnan(v)
            sx[:, i + 1] = x
            sy[:, i + 1] = y
        return failed
    parent = np.zeros(len(rx))
    for i in range(n):
        dx = sx[:, i + 1] - x
        dy = sy[:, i + 1] - y
        want = np.arctan2(dy, dx)
        still = dx == 0
        still &= dy == 0
        if still.any():  # the joint on its parent: keep the bone's angle
            want = np.where(still, parent + sa[:, i], want)
        rel = _limited(want - parent, modes[i], lim, i)
        if i == 0 and modes[0] != "wrap":
            rel = _heading(want, rel, lim)
        if clear is not None:
            rel = _clear_rel(x, y, parent, rel, ln[:, i], lim[:, i], clear[0], clear[1][:, i], failed)
        sa[:, i] = rel
        parent = parent + rel
        x = x + ln[:, i] * np.cos(parent)
        y = y + ln[:, i] * np.sin(parent)
        sx[:, i + 1] = x
        sy[:, i + 1] = y
    return failed


def _clear_rel(x, y, parent, rel, length, lim, obs, mask, failed):
    """A limited walk back's relative angles ``rel`` (K,) rad of one bone, each turned to the nearest in its range
    ``lim`` (K, 2) that keeps it clear of the circles ``obs`` of its pairs ``mask`` (K, k) (:func:`.avoid.placed`);
    ``failed`` (K,) set where none is."""
    rel = rel.copy()
    bound = lim[:, 1] - lim[:, 0] < FULL_CIRCLE  # (else the direction found is the bone's absolute one)
    guard = mask.any(axis=1)
    for limited in (False, True):
        rows = np.flatnonzero(guard & (bound == limited))
        if not len(rows):
            continue
        px, py, up, was, ln = x[rows], y[rows], parent[rows], rel[rows], length[rows]
        phi = up + was
        _, _, v = placed(px, py, px + ln * np.cos(phi), py + ln * np.sin(phi), ln, obs, mask[rows],
                         up if limited else 0.0, 1.0, was, lim[rows, 0], lim[rows, 1], limited)
        bad = np.isnan(v)
        failed[rows] |= bad
        rel[rows] = np.where(~bad & (v != was), v if limited else wrap_mod(v - up), was)
    return rel


def _limited(rel, mode, lim, i):
    """Relative angles ``rel`` (any turn) wrapped and limited by joint ``i``'s ``lim`` in ``mode``."""
    if mode == "clamp":  # a plain wrap is enough before a clamp off the +-pi edge
        return np.minimum(np.maximum(np.mod(rel + PI, TAU) - PI, lim[:, i, 0]), lim[:, i, 1])
    return limit_joint(wrap_array(rel), mode, lim, i)


def _heading(want, rel, lim):
    """``rel`` with joint 0's headings ``want`` outside their range put on the bound nearer round the circle."""
    lo, hi = lim[:, 0, 0], lim[:, 0, 1]
    out = (want < lo) | (want > hi)  # (want from arctan2, in [-pi, pi]: its -pi is pi, which the modulo knows)
    out &= hi - lo < FULL_CIRCLE
    if not out.any():
        return rel
    return np.where(out, np.where(np.mod(lo - want, TAU) < np.mod(want - hi, TAU), lo, hi), rel)


def _pull(x, y, dx, dy, length, sx, sy):
    """The point ``length`` px from ``(x, y)`` along ``(dx, dy)``; along ``(sx, sy)`` where that is zero."""
    d = np.hypot(dx, dy)
    moved = d > 0
    with np.errstate(over="ignore"):
        k = length / np.where(moved, d, 1.0)
    huge = np.isinf(k)  # d tiny against the bone: scale the other way round, as the single-chain walk does
    if huge.any():
        k = np.where(huge, length, k)
        scale = np.where(huge, d, 1.0)
        dx, dy = dx / scale, dy / scale
    if moved.all():
        return x + dx * k, y + dy * k
    return np.where(moved, x + dx * k, x + sx * length), np.where(moved, y + dy * k, y + sy * length)


def _turn(x, y, dx, dy, cx, cy, length, ux, uy, lim, j, mode):
    """Joint ``j - 1`` placed from joint ``j`` at ``(x, y)``, its bone turned into joint ``j``'s range: ``(x, y,
    child, v)``, the child bone's direction and the relative angle taken (rad)."""
    child = np.arctan2(cy - y, cx - x)
    d = np.arctan2(-dy, -dx)
    still = dx == 0
    still &= dy == 0
    if still.any():
        d = np.where(still, np.arctan2(uy, ux), d)
    v = _limited(child - d, mode, lim, j)
    d = child - v
    return x - length * np.cos(d), y - length * np.sin(d), child, v
