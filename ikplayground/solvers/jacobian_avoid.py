"""How the Jacobian family keeps a chain's bones out of circle obstacles (docs/design.md, "Obstacles").

The pairs (bone, circle) a solve keeps clear are :func:`.avoid.watched_pairs`' (those its start has clear),
as CCD's and FABRIK's. Two pieces, on floats and indexable sequences, so the compiled kernel (:mod:`._jit_dls`)
runs them as they are:

- :func:`repulsion`: a secondary task that pushes the points of the bones nearest each circle away from it,
  after Maciejewski & Klein 1985, "Obstacle avoidance for kinematically redundant manipulators in dynamically
  varying environments" (there each obstacle's nearest point gets an escape velocity, projected on the null space
  of the end effector's task); here its gradient form (Liegeois 1977): ``z = REPULSE * sum w J_o^T u`` over the
  watched pairs whose gap is under ``ZONE`` of the circle's radius, ``u`` the unit direction from the centre to
  the bone's nearest point, ``J_o`` that point's 2 x n Jacobian (over the reach: rad), ``w = 1 - gap / (ZONE
  r)``; the loop projects it on the null space of ``J`` (:func:`.jacobian_steps.projected`).
- :func:`backtracked`: a step whose pose would put a watched bone in its circle is halved, up to ``BACKTRACKS``
  times (a backtracking line search), until one is clear (:func:`pose_kept`); none clear, the step is refused.

Pixels (y down), radians.
"""

from __future__ import annotations

import math

from .avoid import pair_gap
from .dls import turned
from .obstacles import CLEAR_SLACK

REPULSE = 0.25  # rad: the repulsion's turn for a point on a circle's rim, per unit of lever over the reach
ZONE = 0.5  # a circle's repulsion reaches this share of its radius out from its rim
BACKTRACKS = 4  # a step into a circle is halved up to this many times
STEP_SLACK = 0.5 * CLEAR_SLACK  # px: a step may take a bone no deeper than this into a circle (half the slack
# that counts as clear, so the pose a solve ends at is clear to any other rounding of its gaps)


def pose_kept(xs, ys, n: int, obs, mask) -> bool:
    """Whether every watched pair of the joints ``xs``, ``ys`` (px) keeps within ``STEP_SLACK`` of clear."""
    for j in range(n):
        for k in range(len(obs)):
            if mask[j][k] and pair_gap(xs[j], ys[j], xs[j + 1], ys[j + 1], obs[k][0], obs[k][1],
                                       obs[k][2]) < -STEP_SLACK:
                return False
    return True


def repulsion(xs, ys, n: int, obs, mask, reach: float, z) -> bool:
    """The repulsive secondary task's turns (rad) into ``z`` for the joints ``xs``, ``ys`` (n + 1, px); whether any
    watched pair is within its zone (else ``z`` is all 0)."""
    for i in range(n):
        z[i] = 0.0
    near = False
    for j in range(n):
        ax = xs[j]
        ay = ys[j]
        dx = xs[j + 1] - ax
        dy = ys[j + 1] - ay
        dd = dx * dx + dy * dy
        for k in range(len(obs)):
            if not mask[j][k]:
                continue
            cx = obs[k][0]
            cy = obs[k][1]
            r = obs[k][2]
            t = ((cx - ax) * dx + (cy - ay) * dy) / dd if dd > 0.0 else 0.0
            t = 0.0 if t < 0.0 else 1.0 if t > 1.0 else t
            qx = ax + t * dx  # the bone's point nearest the centre
            qy = ay + t * dy
            ox = qx - cx
            oy = qy - cy
            dist = math.hypot(ox, oy)
            zone = ZONE * r
            gap = dist - r
            if gap >= zone or dist == 0.0:
                continue
            near = True
            w = REPULSE * (1.0 - (gap if gap > 0.0 else 0.0) / zone) / (dist * reach)
            for i in range(j + 1):  # the point's velocity for a unit turn of joint i, dotted with u
                z[i] += w * (-(qy - ys[i]) * ox + (qx - xs[i]) * oy)
    return near


def backtracked(rx, ry, a, d, lens, lo, hi, clamped, obs, mask, b, bx, by) -> bool:
    """The pose ``a + d`` (rad; each joint :func:`.dls.turned` into ``lo``, ``hi``, ``clamped``) in ``b`` and its
    joints in ``bx``, ``by`` (px), ``d`` halved up to ``BACKTRACKS`` times (in place) until every watched pair is
    clear (:func:`pose_kept`); whether one is. ``b``, ``bx``, ``by`` hold the first pose tried on entry."""
    n = len(a)
    for _ in range(BACKTRACKS):
        if pose_kept(bx, by, n, obs, mask):
            return True
        x = rx
        y = ry
        absolute = 0.0
        for i in range(n):
            d[i] = 0.5 * d[i]
            v = turned(a[i] + d[i], lo[i], hi[i], clamped[i])
            b[i] = v
            absolute += v
            x += lens[i] * math.cos(absolute)
            y += lens[i] * math.sin(absolute)
            bx[i + 1] = x
            by[i + 1] = y
    return pose_kept(bx, by, n, obs, mask)
