"""Argument checks shared by the solvers.

Every check raises :class:`ValueError` whose message starts with the argument's
name, so a caller can tell which input was wrong without reading a traceback.
The checks return plain Python floats or float64 arrays that the solvers may
read but never write back into the caller's objects.
"""

from __future__ import annotations

import math

import numpy as np

TAU = 2.0 * math.pi


def point(value, name: str) -> tuple[float, float]:
    """Return a finite 2-D point as two floats.

    Parameters
    ----------
    value : array_like, shape (2,)
        The point, in pixels.
    name : str
        The argument's name, used in error messages.
    """
    try:
        x, y = value
        x = float(x)
        y = float(y)
    except (TypeError, ValueError):
        shape = np.shape(value) if _shapeable(value) else type(value).__name__
        raise ValueError(f"{name}: expected a point of shape (2,), got {shape}") from None
    if not (math.isfinite(x) and math.isfinite(y)):
        raise ValueError(f"{name}: must be finite, got ({x}, {y})")
    return x, y


def _shapeable(value) -> bool:
    try:
        np.shape(value)
    except Exception:  # ragged sequences and odd objects
        return False
    return True


def float_array(value, name: str, ndim: int | None = None) -> np.ndarray:
    """Return ``value`` as a finite float64 array (a copy when it had to convert).

    Raises ValueError naming ``name`` for ragged input, wrong rank, or
    non-finite entries.
    """
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{name}: must be numeric and rectangular") from None
    if ndim is not None and arr.ndim != ndim:
        raise ValueError(f"{name}: expected {ndim}-D input, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        bad = np.argwhere(~np.isfinite(arr))[0]
        raise ValueError(f"{name}: must be finite (non-finite value at index {tuple(int(i) for i in bad)})")
    return arr


def float_list(value, name: str) -> list[float]:
    """Return a 1-D sequence of finite numbers as a list of Python floats.

    The fast path for single-chain solver calls: a float64 vector or a list of
    floats costs a fraction of a microsecond; anything else goes through numpy.
    """
    if type(value) is np.ndarray and value.ndim == 1 and value.dtype == np.float64:
        out = value.tolist()
    elif type(value) in (list, tuple) and all(type(v) is float or type(v) is int for v in value):
        out = [float(v) for v in value]
    else:
        return float_array(value, name, ndim=1).tolist()
    total = sum(out)
    if total - total != 0.0:  # an inf or nan somewhere (or a finite overflow: check one by one)
        for i, v in enumerate(out):
            if not math.isfinite(v):
                raise ValueError(f"{name}: must be finite (non-finite value at index ({i},))")
    return out


def lengths_list(value, name: str = "lengths") -> list[float]:
    """Return bone lengths as a list of floats, each finite and > 0."""
    out = float_list(value, name)
    if not out:
        raise ValueError(f"{name}: needs at least one bone")
    if min(out) <= 0:
        i = next(i for i, v in enumerate(out) if v <= 0)
        raise ValueError(f"{name}: every length must be > 0 (got {out[i]} at index {i})")
    return out


def angles_list(value, n: int, name: str = "angles") -> list[float]:
    """Return ``n`` joint angles (radians) wrapped to (-pi, pi] as floats."""
    out = float_list(value, name)
    if len(out) != n:
        raise ValueError(f"{name}: expected {n} angles (one per bone), got {len(out)}")
    pi = math.pi
    return [v if -pi < v <= pi else wrap(v) for v in out]


def limits_list(value, n: int, name: str = "limits") -> list[tuple[float, float]] | None:
    """Return ``n`` (lo, hi) joint limits in radians, or None for no limits.

    Each pair must satisfy ``-pi <= lo <= hi <= pi``.
    """
    if value is None:
        return None
    arr = float_array(value, name, ndim=2)
    if arr.shape != (n, 2):
        raise ValueError(f"{name}: expected shape ({n}, 2) (one (lo, hi) per bone), got {arr.shape}")
    out = []
    eps = 1e-12
    for i, (lo, hi) in enumerate(arr.tolist()):
        if lo > hi:
            raise ValueError(f"{name}: limits[{i}] has lo > hi ({lo} > {hi})")
        if lo < -math.pi - eps or hi > math.pi + eps:
            raise ValueError(f"{name}: limits[{i}] must lie in [-pi, pi], got ({lo}, {hi})")
        out.append((max(lo, -math.pi), min(hi, math.pi)))
    return out


def positive_int(value, name: str) -> int:
    """Return ``value`` as an int >= 1."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{name}: must be an integer >= 1, got {value!r}")
    return int(value)


def non_negative(value, name: str) -> float:
    """Return ``value`` as a finite float >= 0."""
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name}: must be a number, got {value!r}") from None
    if not math.isfinite(v) or v < 0:
        raise ValueError(f"{name}: must be finite and >= 0, got {value!r}")
    return v


def wrap(a: float) -> float:
    """Wrap an angle in radians to (-pi, pi]."""
    w = (a + math.pi) % TAU - math.pi
    return math.pi if w <= -math.pi else w


def wrap_array(a: np.ndarray) -> np.ndarray:
    """Wrap angles in radians to (-pi, pi], element-wise (new array).

    ``a - 2pi * ceil((a - pi) / 2pi)`` costs a fraction of ``np.mod`` (about
    a tenth at 10,000 angles); its rounding is a few ulps of ``a``. The one
    value rounding can leave at -pi is moved to pi.
    """
    w = a - TAU * np.ceil((a - math.pi) / TAU)
    low = w <= -math.pi
    if low.any():
        w[low] += TAU
    return w
