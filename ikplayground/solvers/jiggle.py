"""Jiggle bones: a chain that follows its root with inertia and springs back toward a rest pose.

One Verlet step a call, then the bones' constraints relaxed from the root outward, as in Jakobsen's
"Advanced Character Physics" (GDC 2001) and position-based dynamics (Mueller, Heidelberger, Hennix and
Ratcliff, "Position Based Dynamics", 2007): each joint carries on with what is left of its velocity after
``damping``, falls by ``gravity``, is pulled ``stiffness`` of the way toward where the rest pose puts it (from
its parent bone as it now lies), and is then put back at its bone's length from its parent, its relative angle
clamped into ``limits``. What Godot's jiggle bones and Spine 4.2's physics constraints do, in a chain.

One joint alone (a bone of a fixed parent, no gravity) moves as ``e' = (1 - s) (e + (1 - d) v)`` where ``e``
is its offset from the rest spot and ``v`` its velocity: its oscillation decays by ``sqrt((1 - s) (1 - d))``
a step, so any ``stiffness`` s and ``damping`` d above 0 bring it to rest.

Directions are carried as unit vectors: a bone's rest direction is its parent's as it now lies turned by its
rest angle, and its relative angle is measured (an arctangent) only to clamp it into ``limits``.

Pixels, y down (a positive angle turns clockwise on screen), radians; a step is the caller's frame.
"""

from __future__ import annotations

import numpy as np

from . import jit
from .rope import FEW
from .validate import BOUND, float_array

TINY = 1e-12  # px: a joint this near its parent has no direction of its own; it takes its rest direction


def jiggle_step(points, previous, lengths, root, root_angle, rest_angles, *, stiffness, damping,
                gravity=(0.0, 0.0), dt=1.0 / 60.0, limits=None):
    """One step of a jiggling chain (or of N chains: a leading axis on every array argument).

    Parameters
    ----------
    points, previous : array_like, shape (n + 1, 2) or (N, n + 1, 2)
        The joints now and one step ago, px (y down); their difference is the velocity, px a step.
    lengths : array_like, shape (n,) or (N, n)
        Bone lengths, px, > 0.
    root : array_like, shape (2,) or (N, 2)
        Where joint 0 is pinned this step, px.
    root_angle : float or array_like, shape (N,)
        The absolute direction (rad) the rest pose hangs from: bone 0's rest angle is relative to it.
    rest_angles : array_like, shape (n,) or (N, n)
        The rest pose, relative angles (rad): bone i's direction from bone i - 1's.
    stiffness : float or array_like, shape (N,)
        In [0, 1]: the share of the way to its rest spot each joint is pulled a step (1: rigid, the rest pose
        exactly; 0: a free rope).
    damping : float or array_like, shape (N,)
        In [0, 1]: the share of each joint's velocity removed a step.
    gravity : array_like, shape (2,) or (N, 2)
        px/s^2 (y down: (0, 900) pulls down the screen).
    dt : float
        Seconds a step, > 0 (gravity's displacement is ``gravity * dt**2`` a step).
    limits : array_like, shape (n, 2) or (N, n, 2), optional
        (lo, hi) rad on each relative angle, lo <= hi in [-pi, pi]; bone 0's relative to ``root_angle``.

    Returns
    -------
    new_points : ndarray, shape of ``points``
        The joints after the step, px: joint 0 on ``root``, every bone exactly its length (to rounding).
    points : ndarray, shape of ``points``
        A copy of the input ``points``: what to pass as ``previous`` next step.

    Raises
    ------
    ValueError
        Naming the argument: a wrong shape, a value not a finite real number, a length <= 0, a stiffness or
        damping outside [0, 1], a dt <= 0, or limits with lo > hi or outside [-pi, pi].
    """
    p, prev, lens, base, heading, rest, s, d, g, step, lim, single = _checked(
        points, previous, lengths, root, root_angle, rest_angles, stiffness, damping, gravity, dt, limits)
    new = jiggle_rows(p, prev, lens, base, heading, rest, s, d, g, step, lim)
    return (new[0], p[0].copy()) if single else (new, p.copy())


def jiggle_rows(points: np.ndarray, previous: np.ndarray, lengths: np.ndarray, root: np.ndarray,
                root_angle: np.ndarray, rest: np.ndarray, stiffness: np.ndarray, damping: np.ndarray,
                gravity: np.ndarray, dt: float, limits: np.ndarray | None) -> np.ndarray:
    """:func:`jiggle_step`'s engine on checked float64 arrays: points and previous (N, n + 1, 2), lengths and
    rest (N, n), root and gravity (N, 2), root_angle, stiffness and damping (N,), limits (N, n, 2) or None.
    Element-wise in N (each row as a single call), a new (N, n + 1, 2) array; any group runs
    on the compiled kernel (:mod:`._jit_rope`) once it has loaded."""
    n = lengths.shape[1]
    k = jit.kernels()
    if k is None:
        if len(points) >= FEW:  # a crowd: compile in the background (if numba is there); numpy until then
            jit.warm_up()  # (a few rows never start it: the App does, and an import must not)
    else:
        c = np.ascontiguousarray
        out = np.empty(points.shape)
        (k.jiggle if len(points) >= FEW else k.jiggle_few)(
            c(points, dtype=np.float64), c(previous, dtype=np.float64), c(lengths, dtype=np.float64),
            c(root, dtype=np.float64), c(root_angle, dtype=np.float64), c(rest, dtype=np.float64),
            c(stiffness, dtype=np.float64), c(damping, dtype=np.float64), c(gravity, dtype=np.float64), float(dt),
            c(np.zeros((0, 0, 2)) if limits is None else limits, dtype=np.float64), limits is not None, out)
        return out
    out = np.empty_like(points)
    out[:, 0] = root
    keep = (1.0 - damping)[:, None, None]
    out[:, 1:] = points[:, 1:] + keep * (points[:, 1:] - previous[:, 1:]) + (gravity * (dt * dt))[:, None, :]
    s = stiffness
    ux, uy = np.cos(root_angle), np.sin(root_angle)  # the direction bone i's relative angle is measured from
    cos_rest, sin_rest = np.cos(rest), np.sin(rest)
    for i in range(n):
        bx, by = out[:, i, 0], out[:, i, 1]
        length = lengths[:, i]
        rx = ux * cos_rest[:, i] - uy * sin_rest[:, i]  # the rest direction: the parent's turned by the rest angle
        ry = ux * sin_rest[:, i] + uy * cos_rest[:, i]
        dx = (1.0 - s) * (out[:, i + 1, 0] - bx) + s * length * rx  # pulled s of the way to the rest spot
        dy = (1.0 - s) * (out[:, i + 1, 1] - by) + s * length * ry
        dist = np.sqrt(dx * dx + dy * dy)
        far = dist > TINY
        safe = np.where(far, dist, 1.0)
        dx, dy = np.where(far, dx / safe, rx), np.where(far, dy / safe, ry)
        if limits is not None:
            relative = np.arctan2(ux * dy - uy * dx, ux * dx + uy * dy)
            lo, hi = limits[:, i, 0], limits[:, i, 1]
            out_of = (relative < lo) | (relative > hi)
            if out_of.any():
                clamped = np.minimum(np.maximum(relative, lo), hi)
                c, sn = np.cos(clamped), np.sin(clamped)
                dx, dy = np.where(out_of, ux * c - uy * sn, dx), np.where(out_of, ux * sn + uy * c, dy)
        out[:, i + 1, 0] = bx + length * dx
        out[:, i + 1, 1] = by + length * dy
        ux, uy = dx, dy
    return out


def _checked(points, previous, lengths, root, root_angle, rest_angles, stiffness, damping, gravity, dt, limits):
    """The arguments of :func:`jiggle_step` as float64 arrays with a leading N axis, and whether it was one chain."""
    p = float_array(points, "points")
    single = p.ndim == 2
    if p.ndim not in (2, 3) or p.shape[-1] != 2 or p.shape[-2] < 2:
        raise ValueError(f"points: expected shape (n + 1, 2) or (N, n + 1, 2) with n >= 1, got {p.shape}")
    if single:
        p = p[None]
    count, joints = p.shape[0], p.shape[1]
    n = joints - 1

    def rows(value, name, shape):  # one chain's shape, or the batch's with N in front
        arr = float_array(value, name)
        want = (count, *shape)
        if single and arr.shape == shape:
            return arr[None]
        if not single and arr.shape == want:
            return arr
        raise ValueError(f"{name}: expected shape {shape if single else want}, got {arr.shape}")

    def per_chain(value, name, low=None, high=None):  # a number, or (N,) of them in a batch
        arr = float_array(value, name)
        if arr.ndim == 0:
            arr = np.full(count, float(arr))
        elif single or arr.shape != (count,):
            raise ValueError(f"{name}: expected a number{'' if single else f' or shape ({count},)'}, "
                             f"got shape {arr.shape}")
        if low is not None and not np.all((arr >= low) & (arr <= high)):
            raise ValueError(f"{name}: must lie in [{low:g}, {high:g}], got {arr[(arr < low) | (arr > high)][0]:g}")
        return arr

    prev = rows(previous, "previous", (joints, 2))
    lens = rows(lengths, "lengths", (n,))
    if not np.all(lens > 0.0):
        raise ValueError(f"lengths: every bone must be longer than 0 px, got {lens[lens <= 0.0][0]:g}")
    base = rows(root, "root", (2,))
    for name, arr in (("points", p), ("previous", prev), ("root", base)):
        if not np.all(np.abs(arr) <= BOUND):
            raise ValueError(f"{name}: coordinates must lie within +-{BOUND:g} px")
    heading = per_chain(root_angle, "root_angle")
    rest = rows(rest_angles, "rest_angles", (n,))
    s = per_chain(stiffness, "stiffness", 0.0, 1.0)
    d = per_chain(damping, "damping", 0.0, 1.0)
    g = float_array(gravity, "gravity")
    if g.shape == (2,):
        g = np.broadcast_to(g, (count, 2))
    elif single or g.shape != (count, 2):
        raise ValueError(f"gravity: expected shape (2,){'' if single else f' or ({count}, 2)'}, got {g.shape}")
    step = float(float_array(dt, "dt")) if np.ndim(dt) == 0 else None
    if step is None or not step > 0.0:
        raise ValueError(f"dt: must be a number of seconds > 0, got {dt!r}")
    lim = None
    if limits is not None:
        lim = rows(limits, "limits", (n, 2))
        if not np.all(lim[..., 0] <= lim[..., 1]):
            raise ValueError("limits: every (lo, hi) must have lo <= hi")
        if not np.all((lim >= -np.pi) & (lim <= np.pi)):
            raise ValueError("limits: every (lo, hi) must lie in [-pi, pi]")
    return p, prev, lens, base, heading, rest, s, d, g, step, lim, single
