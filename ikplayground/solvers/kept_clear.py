"""A single solve's pose checked against the circle obstacles its start was clear of (docs/design.md, "Obstacles").

What the single-chain solvers (CCD and FABRIK now; the Jacobian family's methods after them) share once their loop
is done: whether a pose keeps every pair (bone, circle) the start had clear (:func:`stays_clear`, the geometry of
:mod:`.avoid`, after Ericson, *Real-Time Collision Detection*, 2005, sec. 5.1.2), the start kept where it does not
(:func:`kept_clear`), and a pole's mirror image taken only where it does (:func:`solution`). Pixels (y down),
radians.
"""

from __future__ import annotations

from .avoid import pose_clear, watched_pairs
from .kinematics import joint_xy


def stays_clear(p, angles, obs) -> bool:
    """Whether the pose ``angles`` (rad) of the problem ``p`` (a :class:`~.results.ChainProblem`) keeps clear
    every pair (bone, circle) its start has clear (``obs``: triples ``(x, y, r)`` px, or None)."""
    if obs is None:
        return True
    n = len(p.lengths)
    mask = [[False] * len(obs) for _ in range(n)]
    if not watched_pairs(*joint_xy(p.rx, p.ry, p.angles, p.lengths), n, obs, p.reach, mask):
        return True
    return pose_clear(*joint_xy(p.rx, p.ry, angles, p.lengths), n, obs, mask)


def kept_clear(p, angles: list, obs) -> list:
    """``angles`` (rad), or the start of ``p`` where they are not :func:`stays_clear`."""
    return angles if stays_clear(p, angles, obs) else list(p.angles)


def solution(p, angles: list, error: float, used: int, stalled: bool, obs):
    """``p.solution`` (:class:`~.results.ChainProblem`; mirrored toward its pole), without the mirror where the
    image is not :func:`stays_clear` (``obs``: triples ``(x, y, r)`` px, or None)."""
    sol = p.solution(angles, error, used, stalled)
    if p.pole is None or obs is None or stays_clear(p, sol.angles.tolist(), obs):
        return sol
    return p._replace(pole=None).solution(angles, error, used, stalled)
