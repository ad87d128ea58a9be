""":mod:`.avoid` over many chains: CCD's turns stopped at the first contact and FABRIK's clear directions, on numpy.

The same arithmetic as :mod:`.avoid` in the same order, one operation over all rows at a time, so a batch row
equals the single call (:mod:`.ccd_arrays`, :mod:`.fabrik_arrays`; geometry after Ericson, *Real-Time Collision
Detection*, 2005, sec. 5.1.2 and 5.3). ``obs`` is one ``(k, 3)`` array of circles ``(x, y, r)`` px for every
row; ``mask`` (K, n, k) says which pairs (bone, circle) each row keeps clear. Float64 arrays, radians, pixels
(y down).
"""

from __future__ import annotations

import numpy as np

from ._batch_parts import limit_headings, limit_pose
from .avoid import CONTACT_MARGIN, PROBE_TURN, RESTART_TRIES, TOUCH_TURN
from .kinematics import chain_points_batch
from .obstacles import CLEAR_SLACK
from .validate import TAU

PI = np.pi


def gaps(ax, ay, bx, by, cx, cy, r):
    """:func:`.avoid.pair_gap` element-wise (broadcast), px."""
    dx = bx - ax
    dy = by - ay
    dd = dx * dx + dy * dy
    some = dd > 0.0
    t = np.where(some, ((cx - ax) * dx + (cy - ay) * dy) / np.where(some, dd, 1.0), 0.0)
    t = np.minimum(np.maximum(t, 0.0), 1.0)
    return np.hypot(cx - ax - t * dx, cy - ay - t * dy) - r


def watched(xs, ys, obs, reach) -> np.ndarray:
    """:func:`.avoid.watched_pairs` of ``K`` chains (joints ``xs``, ``ys`` (K, n + 1) px, lengths' sums ``reach``
    (K,)): the mask (K, n, k)."""
    cx, cy, r = obs[:, 0], obs[:, 1], obs[:, 2]
    near = np.hypot(cx - xs[:, :1], cy - ys[:, :1]) - r < reach[:, None]  # (K, k)
    g = gaps(xs[:, :-1, None], ys[:, :-1, None], xs[:, 1:, None], ys[:, 1:, None], cx, cy, r)
    return near[:, None, :] & (g >= -CLEAR_SLACK)


def clear(xs, ys, obs, mask) -> np.ndarray:
    """:func:`.avoid.pose_clear` of ``K`` rows: (K,) bool."""
    g = gaps(xs[:, :-1, None], ys[:, :-1, None], xs[:, 1:, None], ys[:, 1:, None], obs[:, 0], obs[:, 1], obs[:, 2])
    return ~np.any(mask & (g < -CLEAR_SLACK), axis=(1, 2))


def clear_poses(roots, a, lengths, obs, mask) -> np.ndarray:
    """:func:`clear` of the poses ``a`` (K, n) rad."""
    pts = chain_points_batch(roots, a, lengths)
    return clear(pts[:, :, 0], pts[:, :, 1], obs, mask)


def _turned(px, py, c, sn, x, y):
    """The point ``(x, y)`` turned about ``(px, py)`` by the angle of cosine ``c`` and sine ``sn``."""
    vx = x - px
    vy = y - py
    return px + c * vx - sn * vy, py + sn * vx + c * vy


def _contacts(px, py, s, ax, ay, bx, by, cx, cy, r):
    """:func:`.avoid.bone_contact` element-wise (broadcast): the least turn to contact, rad (inf for none)."""
    cxr = cx - px
    cyr = cy - py
    rho2 = cxr * cxr + cyr * cyr
    phi0 = np.arctan2(cyr, cxr)
    c = np.cos(s * PROBE_TURN)
    sn = np.sin(s * PROBE_TURN)
    leaving = gaps(*_turned(px, py, c, sn, ax, ay), *_turned(px, py, c, sn, bx, by), cx, cy, r) >= -CLEAR_SLACK

    def crossing(ok, qx, qy):
        tau = np.mod(s * (phi0 - np.arctan2(qy, qx)), TAU)
        touch = (tau < TOUCH_TURN) | (tau > TAU - TOUCH_TURN)
        return np.where(ok, np.where(touch, np.where(leaving, np.inf, 0.0), tau), np.inf)

    least = np.full(np.broadcast(px, ax, cx).shape, np.inf)
    for ex, ey in ((ax - px, ay - py), (bx - px, by - py)):
        d2 = ex * ex + ey * ey
        d = np.sqrt(d2)
        safe = np.where(d2 > 0.0, d, 1.0)
        along = (rho2 - r * r + d2) / (2.0 * safe)
        h2 = rho2 - along * along
        ok = (d2 > 0.0) & (h2 >= 0.0)
        h = np.sqrt(np.where(ok, h2, 0.0))
        ux = ex / safe
        uy = ey / safe
        for side in (-1.0, 1.0):
            least = np.minimum(least, crossing(ok, along * ux - side * h * uy, along * uy + side * h * ux))
    lx = bx - ax
    ly = by - ay
    length = np.hypot(lx, ly)
    some = length > 0.0
    safe = np.where(some, length, 1.0)
    ux = lx / safe
    uy = ly / safe
    base = (ax - px) * -uy + (ay - py) * ux
    start = (ax - px) * ux + (ay - py) * uy
    for off in (-r, r):
        w = base + off
        t2 = rho2 - w * w
        ok = some & (t2 >= 0.0)
        t = np.sqrt(np.where(ok, t2, 0.0))
        for tt in (-t, t):
            inside = ok & (tt - start >= 0.0) & (tt - start <= length)
            least = np.minimum(least, crossing(inside, tt * ux - w * uy, tt * uy + w * ux))
    return least


def turn_rooms(xs, ys, i: int, rot, obs, mask) -> np.ndarray:
    """:func:`.avoid.turn_room` of ``K`` rows (joints ``xs``, ``ys`` (K, n + 1) px; turns ``rot`` (K,) rad;
    ``mask`` (K, n, k)): the turns (K,) rad that keep the bones past joint ``i`` clear along the sweep."""
    n = xs.shape[1] - 1
    s = np.where(rot > 0.0, 1.0, -1.0)[:, None, None]
    px = xs[:, i, None, None]
    py = ys[:, i, None, None]
    ax, ay = xs[:, i:n, None], ys[:, i:n, None]
    bx, by = xs[:, i + 1:, None], ys[:, i + 1:, None]
    cx, cy, r = obs[:, 0], obs[:, 1], obs[:, 2]
    far = np.maximum(np.hypot(ax - px, ay - py), np.hypot(bx - px, by - py))
    near = gaps(ax, ay, bx, by, px, py, 0.0)
    rho = np.hypot(cx - px, cy - py)
    ring = mask[:, i:] & (rho - r <= far) & (rho + r >= near)
    tau = np.where(ring, _contacts(px, py, s, ax, ay, bx, by, cx, cy, r), np.inf)
    whole = np.abs(rot)
    room = np.minimum(whole, tau.min(axis=(1, 2))) if tau.size else whole
    turn = np.where(room == whole, rot, s[:, 0, 0] * np.maximum(room - CONTACT_MARGIN, 0.0))
    turn = np.where(rot == 0.0, 0.0, turn)
    moving = turn != 0.0
    if moving.any():  # the check at the turn's end
        c = np.cos(turn)[:, None]
        sn = np.sin(turn)[:, None]
        tx, ty = _turned(xs[:, i, None], ys[:, i, None], c, sn, xs[:, i + 1:], ys[:, i + 1:])
        sx = np.concatenate([xs[:, i:i + 1], tx[:, :-1]], axis=1)
        sy = np.concatenate([ys[:, i:i + 1], ty[:, :-1]], axis=1)
        g = gaps(sx[:, :, None], sy[:, :, None], tx[:, :, None], ty[:, :, None], cx, cy, r)
        turn = np.where(np.any(mask[:, i:] & (g < -CLEAR_SLACK), axis=(1, 2)), 0.0, turn)
    return turn


def turn_joints(xs, ys, i: int, turn) -> None:
    """:func:`.avoid.turn_joints` of ``K`` rows, in place on ``xs``, ``ys`` (K, n + 1) px; ``turn`` (K,) rad."""
    c = np.cos(turn)[:, None]
    sn = np.sin(turn)[:, None]
    xs[:, i + 1:], ys[:, i + 1:] = _turned(xs[:, i, None], ys[:, i, None], c, sn, xs[:, i + 1:], ys[:, i + 1:])


def _bone_clear(x, y, length, phi, obs, mask_j):
    """:func:`.avoid.bone_clear` element-wise over rows (``x``, ``y``, ``length``, ``phi`` (K,) or (K, m);
    ``mask_j`` (K, k))."""
    bx = x + length * np.cos(phi)
    by = y + length * np.sin(phi)
    g = gaps(x[..., None], y[..., None], bx[..., None], by[..., None], obs[:, 0], obs[:, 1], obs[:, 2])
    m = mask_j if np.ndim(phi) == 1 else mask_j[:, None, :]
    return ~np.any(m & (g < -CLEAR_SLACK), axis=-1)


def clear_directions(x, y, length, v0, base, sgn, lo, hi, limited: bool, obs, mask_j) -> np.ndarray:
    """:func:`.avoid.clear_direction` of ``K`` rows (every argument (K,) but ``sgn`` (K,) or a float, ``limited``
    one flag for all and ``mask_j`` (K, k)): the direction parameters (K,) rad, NaN where none is clear."""
    cx, cy, r = obs[:, 0], obs[:, 1], obs[:, 2]
    dx = cx - x[:, None]
    dy = cy - y[:, None]
    d = np.hypot(dx, dy)
    L = length[:, None]
    tangent = L * L >= d * d - r * r
    with np.errstate(invalid="ignore", divide="ignore"):
        w = np.where(d <= r, 0.5 * PI, np.where(tangent, np.arcsin(np.minimum(r / d, 1.0)), np.arccos(
            np.minimum(np.maximum((d * d + L * L - r * r) / (2.0 * d * L), -1.0), 1.0))))
    w = w + CONTACT_MARGIN
    phi = np.arctan2(dy, dx)
    cand = np.stack([phi - w, phi + w], axis=-1).reshape(len(x), -1)  # (K, 2k): -w, +w per circle
    base2 = np.asarray(base)[..., None] if np.ndim(base) else base
    sgn2 = np.asarray(sgn)[..., None] if np.ndim(sgn) else sgn
    v = np.mod(sgn2 * (cand - base2) + PI, TAU) - PI
    valid = np.repeat(mask_j, 2, axis=1)
    if limited:
        v = np.minimum(np.maximum(v, lo[:, None]), hi[:, None])
        v = np.concatenate([v, lo[:, None], hi[:, None]], axis=1)
        valid = np.concatenate([valid, np.ones((len(x), 2), dtype=bool)], axis=1)
    off = np.abs(v - v0[:, None])
    if not limited:
        off = np.abs(np.mod(off + PI, TAU) - PI)
    ok = valid & _bone_clear(x[:, None], y[:, None], L, base2 + sgn2 * v, obs, mask_j)
    off = np.where(ok, off, np.inf)
    pick = np.argmin(off, axis=1) if off.shape[1] else np.zeros(len(x), dtype=np.int64)
    rows = np.arange(len(x))
    best = np.where(np.isfinite(off[rows, pick]), v[rows, pick], np.nan) if off.shape[1] else np.full(len(x), np.nan)
    return np.where(_bone_clear(x, y, length, base + sgn * v0, obs, mask_j), v0, best)


def _at(z, k):
    """``z[k]``, or ``z`` itself where it is one number for every row."""
    return z[k] if np.ndim(z) else z


def placed(px, py, qx, qy, length, obs, mask_j, base, sgn, v0, lo, hi, limited: bool):
    """:func:`.avoid.placed` of ``K`` rows (arrays (K,); ``mask_j`` (K, k)): ``(qx, qy, v)``, v NaN where no
    direction is clear (``q`` then unmoved)."""
    g = gaps(px[:, None], py[:, None], qx[:, None], qy[:, None], obs[:, 0], obs[:, 1], obs[:, 2])
    blocked = np.any(mask_j & (g < -CLEAR_SLACK), axis=1)
    v = np.array(v0, dtype=float, copy=True) if np.ndim(v0) else np.full(len(px), float(v0))
    if not blocked.any():
        return qx, qy, v
    k = np.flatnonzero(blocked)
    start = np.arctan2(qy[k] - py[k], qx[k] - px[k]) if not limited else v[k]
    got = clear_directions(px[k], py[k], length[k], start, _at(base, k), _at(sgn, k), _at(lo, k), _at(hi, k), limited,
                           obs, mask_j[k])
    v[k] = got
    phi = _at(base, k) + _at(sgn, k) * got
    found = ~np.isnan(got)
    qx = qx.copy()
    qy = qy.copy()
    qx[k] = np.where(found, px[k] + length[k] * np.cos(phi), qx[k])
    qy[k] = np.where(found, py[k] + length[k] * np.sin(phi), qy[k])
    return qx, qy, v


def clear_restarts(draw, a, lengths, limits, roots, targets, state, obs, mask):
    """:func:`.avoid.clear_restart` of ``K`` rows with circles to keep clear of: ``draw`` (``restart_poses``) up to
    ``RESTART_TRIES`` times; ``a`` (K, n) in place (rows where no draw was clear left as they were);
    ``(state, taken)`` (K,)."""
    saved = a.copy()
    taken = np.zeros(len(a), dtype=bool)
    state = state.copy()
    for _ in range(RESTART_TRIES):
        left = np.flatnonzero(~taken)
        if not len(left):
            break
        sub = saved[left]
        state[left] = draw(sub, lengths[left], limits[left], roots[left], targets[left], state[left])
        sub[:, 0] = limit_headings(sub[:, 0], limits[left, 0, 0], limits[left, 0, 1])
        ok = clear_poses(roots[left], sub, lengths[left], obs, mask[left])
        a[left[ok]] = sub[ok]
        taken[left[ok]] = True
    return state, taken


def clear_images(roots, start, limits, a, image, lengths, obs):
    """The poses ``image`` (N, n) rad, or ``a`` in the rows where ``image`` has a bone in a circle the start (``start``
    put inside ``limits``) had it clear of: a pole's mirror image that would break a pair is not taken."""
    if image is a:
        return a
    reach = np.zeros(len(a))
    for i in range(lengths.shape[1]):  # (added left to right, as Python's sum adds a list)
        reach = reach + lengths[:, i]
    avoid = Avoid.of(roots, limit_pose(start, limits), lengths, reach, obs)
    if avoid is None:
        return image
    changed = np.flatnonzero(np.any(image != a, axis=1) & avoid.guarded)
    bad = changed[~clear_poses(roots[changed], image[changed], lengths[changed], obs, avoid.mask[changed])]
    if not len(bad):
        return image
    out = image.copy()
    out[bad] = a[bad]
    return out


def wrap_mod(a):
    """:func:`.validate.wrap` element-wise: the same modulo (rad, to (-pi, pi])."""
    w = np.mod(a + PI, TAU) - PI
    return np.where(w <= -PI, PI, w)


class Avoid:
    """What a batch keeps clear: the circles ``obs`` (k, 3) px and each row's pairs (bone, circle) ``mask`` (N, n, k)
    (:func:`watched` at the start); ``guarded`` (N,): the rows with any."""

    def __init__(self, obs: np.ndarray, mask: np.ndarray):
        self.obs = obs
        self.mask = mask
        self.guarded = np.asarray(mask.any(axis=(1, 2)))

    @classmethod
    def of(cls, roots, a, lengths, reach, obstacles) -> "Avoid | None":
        """The batch's, from its start ``a`` (N, n) rad; None with no obstacles or no pair within reach."""
        if obstacles is None or not len(obstacles):
            return None
        pts = chain_points_batch(roots, a, lengths)
        mask = watched(pts[:, :, 0], pts[:, :, 1], obstacles, reach)
        return cls(obstacles, mask) if mask.any() else None

    def at(self, rows) -> tuple[np.ndarray, np.ndarray]:
        """The circles and the pairs of the working ``rows``."""
        return self.obs, self.mask[rows]

    def undo_unclear(self, moved, rows, roots, a, lengths, before) -> None:
        """Put ``before`` back (in place on ``a``, the working rows' angles) where the working rows ``moved`` lost
        a pair (a pole step or a restart into a circle is not taken)."""
        k = np.flatnonzero(moved & self.guarded[rows])
        if len(k):
            bad = k[~clear_poses(roots[k], a[k], lengths[k], self.obs, self.mask[rows[k]])]
            a[bad] = before[bad]
