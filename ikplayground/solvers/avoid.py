"""How CCD and FABRIK keep a chain's bones out of circle obstacles (docs/design.md, "Obstacles").

A solve watches each pair (bone ``j``, circle ``k``) its start has clear (:func:`watched_pairs`; a pair
the start has inside is left free for that solve, so a start that is not clear is solved as without the
circles for the bones inside them) and keeps every watched pair clear: touching counts as clear, to
``CLEAR_SLACK``. This project's own, on the geometry of Ericson, *Real-Time Collision Detection* (2005),
sec. 5.1.2 (a point's distance to a segment) and sec. 5.3 (a moving object's first contact):

- CCD (:func:`turn_room`): a joint's turn swings the bones past it about its pivot. Seen from a bone, a
  circle's centre travels the other way round the pivot on a circle of its own, and the bone touches the
  circle where that path first meets the bone's ``r``-neighbourhood (a stadium: two end discs and two
  sides): the least turn of the path's crossings with those discs and lines. The turn stops
  ``CONTACT_MARGIN`` short of the first contact of any bone it moves (a bone touching now and turning away
  is not stopped), and is checked at its end (else the joint does not turn), so no bone passes through
  a circle on the way.
- FABRIK (:func:`clear_direction`): a joint placed from the one before it goes where the walk puts it,
  unless that bone would cross a circle; then along the nearest direction inside the joint's range that
  keeps it clear. The directions a bone of length ``L`` from a point may not take toward a circle at
  distance ``d`` form one interval about the centre's direction, of half-width ``asin(r / d)`` where the
  tangent point lies within ``L``, else ``acos((d^2 + L^2 - r^2) / (2 d L))`` (the law of cosines); its
  ends and the range's bounds are the candidates, each checked by its gaps.

Each function works on floats and on lists or arrays alike, so :mod:`._jit_avoid` compiles them as they
are; :mod:`._batch_avoid` does the same arithmetic over arrays. Pixels (y down), radians.
"""

from __future__ import annotations

import math

from .obstacles import CLEAR_SLACK
from .reshape import restart_pose
from .validate import clamp_heading

CONTACT_MARGIN = 1e-9  # rad: a CCD turn stopped by a circle stops this short of touching it, a FABRIK bone turned
# clear of one points this far past its edge
TOUCH_TURN = 1e-9  # rad: a contact this near is a bone touching now; a turn of PROBE_TURN says if it leaves
PROBE_TURN = 1e-6  # rad
RESTART_TRIES = 8  # a restart with circles to keep clear of draws up to this many poses for a clear one
TAU = 2.0 * math.pi


def pair_gap(ax: float, ay: float, bx: float, by: float, cx: float, cy: float, r: float) -> float:
    """How far the bone ``(ax, ay) -> (bx, by)`` keeps outside the circle ``(cx, cy, r)``, px (negative inside)."""
    dx = bx - ax
    dy = by - ay
    dd = dx * dx + dy * dy
    t = ((cx - ax) * dx + (cy - ay) * dy) / dd if dd > 0.0 else 0.0
    t = 0.0 if t < 0.0 else 1.0 if t > 1.0 else t
    return math.hypot(cx - ax - t * dx, cy - ay - t * dy) - r


def watched_pairs(xs, ys, n: int, obs, reach: float, mask) -> int:
    """Fill ``mask[j][k]`` (n rows of k) with whether the solve keeps bone ``j`` clear of circle ``k``: the
    start ``xs``, ``ys`` (n + 1 joints, px) has it clear and the circle lies within the chain's ``reach``
    (px) of the root. Returns how many pairs are watched (0: the solve runs as without obstacles)."""
    count = 0
    rx = xs[0]
    ry = ys[0]
    for k in range(len(obs)):
        cx = obs[k][0]
        cy = obs[k][1]
        r = obs[k][2]
        near = math.hypot(cx - rx, cy - ry) - r < reach
        for j in range(n):
            w = near and pair_gap(xs[j], ys[j], xs[j + 1], ys[j + 1], cx, cy, r) >= -CLEAR_SLACK
            mask[j][k] = w
            count += w
    return count


def pose_clear(xs, ys, n: int, obs, mask) -> bool:
    """Whether every watched pair of the joints ``xs``, ``ys`` (px) is clear (to ``CLEAR_SLACK``)."""
    for j in range(n):
        for k in range(len(obs)):
            if mask[j][k] and pair_gap(xs[j], ys[j], xs[j + 1], ys[j + 1], obs[k][0], obs[k][1],
                                       obs[k][2]) < -CLEAR_SLACK:
                return False
    return True


def _crossing(qx, qy, phi0, s, px, py, ax, ay, bx, by, cx, cy, r) -> float:
    """The turn (rad, in ``[0, 2 pi)``) that brings the centre's path, at angle ``phi0`` about the pivot, to the
    point ``(qx, qy)`` (relative to the pivot); a crossing within ``TOUCH_TURN`` counts (0.0) only where a turn
    of ``PROBE_TURN`` the same way takes the bone into the circle."""
    tau = (s * (phi0 - math.atan2(qy, qx))) % TAU
    if tau < TOUCH_TURN or tau > TAU - TOUCH_TURN:
        c = math.cos(s * PROBE_TURN)
        sn = math.sin(s * PROBE_TURN)
        ux = ax - px
        uy = ay - py
        vx = bx - px
        vy = by - py
        if pair_gap(px + c * ux - sn * uy, py + sn * ux + c * uy, px + c * vx - sn * vy, py + sn * vx + c * vy,
                    cx, cy, r) >= -CLEAR_SLACK:
            return math.inf  # leaving (or sliding along) the circle
        return 0.0
    return tau


def bone_contact(px, py, s, ax, ay, bx, by, cx, cy, r) -> float:
    """The least turn (rad, ``>= 0``; inf for none) about the pivot ``(px, py)``, the way ``s`` (+-1.0), that
    brings the bone ``(ax, ay) -> (bx, by)`` onto the circle ``(cx, cy, r)`` (px)."""
    cxr = cx - px
    cyr = cy - py
    rho2 = cxr * cxr + cyr * cyr
    phi0 = math.atan2(cyr, cxr)
    least = math.inf
    for e in range(2):  # the end discs: the path's crossings with the circle of radius r about each end
        ex = (ax if e == 0 else bx) - px
        ey = (ay if e == 0 else by) - py
        d2 = ex * ex + ey * ey
        if d2 > 0.0:
            d = math.sqrt(d2)
            along = (rho2 - r * r + d2) / (2.0 * d)
            h2 = rho2 - along * along
            if h2 >= 0.0:
                h = math.sqrt(h2)
                ux = ex / d
                uy = ey / d
                for side in (-1.0, 1.0):
                    tau = _crossing(along * ux - side * h * uy, along * uy + side * h * ux, phi0, s, px, py,
                                    ax, ay, bx, by, cx, cy, r)
                    least = min(least, tau)
    lx = bx - ax
    ly = by - ay
    length = math.hypot(lx, ly)
    if length > 0.0:  # the sides: the path's crossings with the lines r off the bone's, between its ends
        ux = lx / length
        uy = ly / length
        base = (ax - px) * -uy + (ay - py) * ux  # the bone line's offset from the pivot along its normal
        start = (ax - px) * ux + (ay - py) * uy
        for off in (-r, r):
            w = base + off
            t2 = rho2 - w * w
            if t2 >= 0.0:
                t = math.sqrt(t2)
                for tt in (-t, t):
                    if 0.0 <= tt - start <= length:
                        tau = _crossing(tt * ux - w * uy, tt * uy + w * ux, phi0, s, px, py, ax, ay, bx, by,
                                        cx, cy, r)
                        least = min(least, tau)
    return least


def turn_room(xs, ys, i: int, n: int, rot: float, obs, mask) -> float:
    """The part of the turn ``rot`` (rad) of joint ``i`` that keeps the bones past it clear along the whole
    sweep: ``rot`` itself, or stopped ``CONTACT_MARGIN`` short of the first contact of a watched pair, or 0.0
    where the turn's end fails its check. ``xs``, ``ys``: the joints (px) before the turn."""
    if rot == 0.0:
        return 0.0
    s = 1.0 if rot > 0.0 else -1.0
    room = abs(rot)
    px = xs[i]
    py = ys[i]
    for j in range(i, n):
        ax = xs[j]
        ay = ys[j]
        bx = xs[j + 1]
        by = ys[j + 1]
        # the ring about the pivot the bone sweeps: a circle wholly inside or outside it is never touched
        far = max(math.hypot(ax - px, ay - py), math.hypot(bx - px, by - py))
        near = pair_gap(ax, ay, bx, by, px, py, 0.0)
        for k in range(len(obs)):
            if mask[j][k]:
                cx = obs[k][0]
                cy = obs[k][1]
                r = obs[k][2]
                rho = math.hypot(cx - px, cy - py)
                if rho - r <= far and rho + r >= near:
                    tau = bone_contact(px, py, s, ax, ay, bx, by, cx, cy, r)
                    if tau < room:
                        room = tau
    turn = rot if room == abs(rot) else s * max(room - CONTACT_MARGIN, 0.0)
    if turn == 0.0:
        return 0.0
    c = math.cos(turn)
    sn = math.sin(turn)
    ax = xs[i]
    ay = ys[i]
    for j in range(i, n):  # the check at the turn's end (rounding at a contact)
        vx = xs[j + 1] - px
        vy = ys[j + 1] - py
        bx = px + c * vx - sn * vy
        by = py + sn * vx + c * vy
        for k in range(len(obs)):
            if mask[j][k] and pair_gap(ax, ay, bx, by, obs[k][0], obs[k][1], obs[k][2]) < -CLEAR_SLACK:
                return 0.0
        ax = bx
        ay = by
    return turn


def nearer_turn(px, py, x, y, tx, ty, turn, than) -> bool:
    """Whether the end ``(x, y)`` turned by ``turn`` (rad) about ``(px, py)`` ends nearer ``(tx, ty)`` than turned by
    ``than`` (px)."""
    vx = x - px
    vy = y - py
    c = math.cos(turn)
    s = math.sin(turn)
    c2 = math.cos(than)
    s2 = math.sin(than)
    return (math.hypot(tx - px - c * vx + s * vy, ty - py - s * vx - c * vy)
            < math.hypot(tx - px - c2 * vx + s2 * vy, ty - py - s2 * vx - c2 * vy))


def turn_joints(xs, ys, i: int, n: int, turn: float) -> None:
    """Turn the joints past joint ``i`` (``xs``, ``ys`` px, in place) by ``turn`` rad about it."""
    px = xs[i]
    py = ys[i]
    c = math.cos(turn)
    sn = math.sin(turn)
    for j in range(i + 1, n + 1):
        vx = xs[j] - px
        vy = ys[j] - py
        xs[j] = px + c * vx - sn * vy
        ys[j] = py + sn * vx + c * vy


def bone_clear(x, y, length, phi, j: int, obs, mask) -> bool:
    """Whether bone ``j``, ``length`` px from ``(x, y)`` along ``phi`` (rad), keeps clear of its watched circles."""
    bx = x + length * math.cos(phi)
    by = y + length * math.sin(phi)
    for k in range(len(obs)):
        if mask[j][k] and pair_gap(x, y, bx, by, obs[k][0], obs[k][1], obs[k][2]) < -CLEAR_SLACK:
            return False
    return True


def clear_direction(x, y, length, v0, base, sgn, lo, hi, limited, j: int, obs, mask) -> float:
    """Bone ``j``'s direction parameter (rad) nearest ``v0`` that keeps it clear, or NaN where none does.

    The bone runs ``length`` px from ``(x, y)`` along ``base + sgn * v`` (rad); ``v`` lies in ``[lo, hi]`` when
    ``limited`` (else any, wrapped). ``v0``, where the walk puts it, when that is clear; else the candidate
    nearest it (``|v - v0|``, wrapped when free) of the blocked intervals' ends and the range's bounds that
    is clear of every watched circle (:func:`bone_clear`).
    """
    if bone_clear(x, y, length, base + sgn * v0, j, obs, mask):
        return v0
    best = math.nan
    gap = math.inf
    count = len(obs)
    for m in range(2 * count + 2):
        if m < 2 * count:
            k = m // 2
            if not mask[j][k]:
                continue
            dx = obs[k][0] - x
            dy = obs[k][1] - y
            r = obs[k][2]
            d = math.hypot(dx, dy)
            if d <= r:
                w = 0.5 * math.pi
            elif length * length >= d * d - r * r:
                w = math.asin(r / d)
            else:
                w = math.acos(min(max((d * d + length * length - r * r) / (2.0 * d * length), -1.0), 1.0))
            w += CONTACT_MARGIN  # (a hair off the circle: where the next bone starts on its rim, its tangent is
            phi = math.atan2(dy, dx) + (w if m % 2 else -w)  # ill-conditioned)
            v = sgn * (phi - base)
            v = (v + math.pi) % TAU - math.pi
            if limited:
                v = lo if v < lo else hi if v > hi else v
        elif limited:
            v = lo if m == 2 * count else hi
        else:
            break
        off = abs(v - v0)
        if not limited:
            off = abs((off + math.pi) % TAU - math.pi)
        if off < gap and bone_clear(x, y, length, base + sgn * v, j, obs, mask):
            best = v
            gap = off
    return best


def placed(px, py, qx, qy, length, j: int, obs, mask, base, sgn, v0, lo, hi, limited):
    """``(qx, qy, v)``: a FABRIK walk's joint ``q``, ``length`` px from ``p`` (px) along ``base + sgn * v0``
    (rad; free: wherever ``q`` lies), where bone ``j`` from ``p`` to it keeps clear of its watched circles;
    else moved to the nearest clear direction ``v`` (:func:`clear_direction`); ``v`` NaN, ``q`` unmoved,
    where none is clear."""
    for k in range(len(obs)):
        if mask[j][k] and pair_gap(px, py, qx, qy, obs[k][0], obs[k][1], obs[k][2]) < -CLEAR_SLACK:
            break
    else:
        return qx, qy, v0
    if not limited:
        v0 = math.atan2(qy - py, qx - px)
    v = clear_direction(px, py, length, v0, base, sgn, lo, hi, limited, j, obs, mask)
    if v != v:
        return qx, qy, v
    phi = base + sgn * v
    return px + length * math.cos(phi), py + length * math.sin(phi), v


def clear_restart(a, lens, lim, rx, ry, tx, ty, state: int, obs, mask, watched: bool):
    """A restart into ``a`` (rad, in place): :func:`.reshape.restart_pose`, joint 0 then clamped into ``lim[0]``
    as a heading; ``(state, taken)``. With circles to keep clear of (``watched``), up to ``RESTART_TRIES``
    draws until one keeps every watched pair clear; where none does, ``a`` is left as it was, not taken."""
    n = len(a)
    saved = [0.0] * n
    for i in range(n):
        saved[i] = a[i]
    xs = [0.0] * (n + 1)
    ys = [0.0] * (n + 1)
    for _ in range(RESTART_TRIES if watched else 1):
        state = restart_pose(a, lens, lim, rx, ry, tx, ty, state)
        a[0] = clamp_heading(a[0], lim[0][0], lim[0][1])
        if not watched:
            return state, True
        x = rx
        y = ry
        absolute = 0.0
        xs[0] = x
        ys[0] = y
        for i in range(n):
            absolute += a[i]
            x += lens[i] * math.cos(absolute)
            y += lens[i] * math.sin(absolute)
            xs[i + 1] = x
            ys[i + 1] = y
        if pose_clear(xs, ys, n, obs, mask):
            return state, True
        for i in range(n):
            a[i] = saved[i]
    return state, False
