"""A rope's length constraints: its joints laid out from a pinned root, or tied at both ends by FABRIK sweeps.

Jakobsen's "Advanced Character Physics" (GDC 2001) keeps a rope's bones their length by relaxation, a few sweeps a
step; for a chain pinned at both ends a sweep here is one FABRIK pass each way (Aristidou and Lasenby, "FABRIK: A
fast, iterative solver for the Inverse Kinematics problem", 2011): the end put on the target and each bone laid back
toward the root, then the root put on its pin and each bone laid out toward the end. Ending on the forward pass keeps
joint 0 on the root and every bone exactly its length; the end is on the target once the sweeps have converged (a
target within reach). With :func:`.jiggle.jiggle_step` (stiffness 0) before it, this is a rope under gravity.

Shapes: ``points`` (N, n + 1, 2) px (y down), ``root`` and ``target`` (N, 2) px, ``lengths`` (N, n) px. Any group
runs on the compiled kernel (:mod:`._jit_rope`) once it has loaded: one pinned rope's 8 sweeps are about a hundred
small numpy calls; each row is swept as it would be alone either way.
"""

from __future__ import annotations

import numpy as np

from . import jit

PIN_TOLERANCE = 0.01  # px: a pinned rope's end this near its target needs no more sweeps this step
FEW = 8  # rows: a group this small runs on the kernel's one-thread build (waking the threads costs more)


def _along(frm: np.ndarray, to: np.ndarray, length: np.ndarray) -> np.ndarray:
    """The points (N, 2) ``length`` (N,) px from ``frm`` (N, 2) toward ``to`` (N, 2) (straight down the screen
    where they coincide)."""
    d = to - frm
    dist = np.sqrt(np.einsum("ij,ij->i", d, d))
    far = dist > 1e-12
    if not far.all():
        d[~far] = (0.0, 1.0)
        dist[~far] = 1.0
    d *= (length / dist)[:, None]
    d += frm
    return d


def lay_out(points: np.ndarray, root: np.ndarray, lengths: np.ndarray) -> None:
    """Put joint 0 of each row on ``root`` and each next joint its bone's length from the one before, toward where
    it was (follow the leader): ``points`` in place."""
    points[:, 0] = root
    for i in range(lengths.shape[1]):
        points[:, i + 1] = _along(points[:, i], points[:, i + 1], lengths[:, i])


def _sweep(points: np.ndarray, root: np.ndarray, target: np.ndarray, lengths: np.ndarray) -> None:
    """One FABRIK sweep each way over ``points``, in place: end on ``target``, bones laid back toward the root,
    then root on ``root``, bones laid out toward the end."""
    n = lengths.shape[1]
    points[:, n] = target
    for i in range(n - 1, -1, -1):
        points[:, i] = _along(points[:, i + 1], points[:, i], lengths[:, i])
    lay_out(points, root, lengths)


def pin_ends(points: np.ndarray, root: np.ndarray, target: np.ndarray, lengths: np.ndarray, passes: int) -> None:
    """Tie each row's end to ``target``, its root staying on ``root``: up to ``passes`` sweeps over ``points``, in
    place, the forward one last (every bone exactly its length, joint 0 on the root). A row stops once its end is
    within ``PIN_TOLERANCE`` px of its target."""
    k = jit.kernels()
    if k is None:
        if len(points) >= FEW:  # a crowd: compile in the background (if numba is there); numpy until then
            jit.warm_up()  # (a few rows never start it: the App does, and an import must not)
    elif points.flags.c_contiguous and points.dtype == np.float64:  # (in place: the kernel's own layout only)
        c = np.ascontiguousarray
        (k.pin_ends if len(points) >= FEW else k.pin_ends_few)(
            points, c(root, dtype=np.float64), c(target, dtype=np.float64), c(lengths, dtype=np.float64), passes,
            PIN_TOLERANCE)
        return
    rows = np.arange(len(points))
    for sweep in range(passes):
        if sweep == 0:
            p, r, t, lens = points, root, target, lengths
        else:
            p, r, t, lens = points[rows], root[rows], target[rows], lengths[rows]
        _sweep(p, r, t, lens)
        if sweep:
            points[rows] = p
        gap = p[:, -1] - t
        rows = rows[np.einsum("ij,ij->i", gap, gap) > PIN_TOLERANCE * PIN_TOLERANCE]
        if not len(rows):
            return
