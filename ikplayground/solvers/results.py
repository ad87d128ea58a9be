"""Result types returned by the solvers."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class TwoBoneSolution(NamedTuple):
    """Result of :func:`ikplayground.solvers.solve_two_bone`.

    For a single chain the positions have shape ``(2,)`` and the angles and
    ``reached`` are scalars; for a batch of ``N`` chains the positions have
    shape ``(N, 2)`` and the rest shape ``(N,)``.

    Attributes
    ----------
    knee : ndarray, shape (2,) or (N, 2)
        Position of the joint between the bones, in pixels (y down).
    end : ndarray, shape (2,) or (N, 2)
        Position of the end effector, in pixels.
    theta1 : float or ndarray (N,)
        Absolute angle of bone 1 in radians, wrapped to (-pi, pi].
    theta2 : float or ndarray (N,)
        Angle of bone 2 relative to bone 1 in radians, wrapped to (-pi, pi].
    reached : bool or ndarray (N,) of bool
        False where the target lay outside the annulus ``[|l1 - l2|, l1 + l2]``.
    """

    knee: np.ndarray
    end: np.ndarray
    theta1: float | np.ndarray
    theta2: float | np.ndarray
    reached: bool | np.ndarray


class IKSolution(NamedTuple):
    """Result of an iterative solver (:func:`solve_ccd`, :func:`solve_fabrik`).

    Attributes
    ----------
    angles : ndarray, shape (n,)
        Relative joint angles in radians, wrapped to (-pi, pi] and inside the
        joint limits when limits were given.
    error : float
        Distance in pixels from the end effector of ``angles`` to the target.
    iterations : int
        Sweeps (CCD) or forward/backward passes (FABRIK) actually run.
    """

    angles: np.ndarray
    error: float
    iterations: int
