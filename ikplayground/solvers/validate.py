"""Argument checks shared by the solvers (this project's rules: docs/design.md, "The solver API").

Messages start with the argument's name. Numbers are reals ``float()`` takes exactly (``int``,
``float``, numpy reals, ``Fraction``, ``Decimal``; never booleans, complex, strings or ints beyond
float range), and every point a chain can reach lies within ``+-BOUND`` px, so every sum stays finite.
"""

from __future__ import annotations

import math
import numbers
from decimal import Decimal

import numpy as np

TAU = 2.0 * math.pi
# A joint range (hi - lo, rad) at least this wide is the full circle: never clamped (the one rule everywhere).
FULL_CIRCLE = TAU - 1e-9
BOUND = 1e300  # px: the largest coordinate magnitude accepted (see the module docstring)
SLACK = 1e-12  # rad: how far past +-pi a joint limit may lie (rounding) and be taken as +-pi
_FLOAT64 = np.dtype(np.float64)
_FAST = (float, int, np.float64)  # plain numbers the fast paths take as they are (bool is none of them)


def real(value, name: str) -> float:
    """One real number (module docstring) as a float, not checked for finiteness."""
    if type(value) is float:
        return value
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Real, Decimal, np.ndarray)):
        raise ValueError(f"{name}: must be a real number, got {_describe(value)}")
    if isinstance(value, np.ndarray) and (value.ndim != 0 or value.dtype.kind not in "fiu"):
        raise ValueError(f"{name}: must be a real number, got {_describe(value)}")
    try:
        return float(value)
    except OverflowError:
        raise ValueError(f"{name}: {_describe(value)} is beyond float range") from None
    except (TypeError, ValueError):  # a signalling Decimal NaN
        raise ValueError(f"{name}: must be a finite real number, got {_describe(value)}") from None


def _describe(value) -> str:
    """A short description of a refused value for an error message."""
    if isinstance(value, (bool, np.bool_)):
        return f"a boolean ({value!r})"
    if isinstance(value, (str, bytes)):
        return f"a string ({value[:20]!r})"
    if isinstance(value, np.ndarray):
        return f"an array of dtype {value.dtype} and shape {value.shape}"
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:20]}...({len(text)} characters)"


def _holds_bool(value) -> bool:
    """True when a (nested) list or tuple holds a boolean anywhere."""
    t = type(value)
    if t is list or t is tuple:
        fast = _FAST
        return any(type(v) not in fast and _holds_bool(v) for v in value)
    if isinstance(value, np.ndarray):
        return value.dtype.kind == "b"
    return isinstance(value, (bool, np.bool_))


def to_float64(value, name: str) -> np.ndarray:
    """``value`` as a float64 array, refusing what is not a real number (not yet checked for finiteness)."""
    if isinstance(value, (str, bytes)):
        raise ValueError(f"{name}: must be real numbers, got {_describe(value)}")
    if _holds_bool(value):
        raise ValueError(f"{name}: must be real numbers, not booleans (got {_describe(value)})")
    try:
        raw = np.asarray(value)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"{name}: must be numeric and rectangular") from None
    kind = raw.dtype.kind
    if kind in "fiu":
        return raw.astype(np.float64)
    if kind != "O":  # booleans, complex numbers, strings, dates
        raise ValueError(f"{name}: must be real numbers, got {_describe(raw)}")
    out = np.empty(raw.shape)
    for index, item in np.ndenumerate(raw):
        out[index] = real(item, name)
    return out


def chain_extent(x: float, y: float, total: float, name: str = "lengths") -> None:
    """Refuse a chain rooted at (x, y) of ``total`` length that could reach past ``+-BOUND`` px."""
    if not max(abs(x), abs(y)) + total <= BOUND:
        raise ValueError(f"{name}: the chain could reach past +-{BOUND:g} px "
                         f"(total length {total:g} from ({x:g}, {y:g}))")


def point(value, name: str) -> tuple[float, float]:
    """A finite point within ``+-BOUND`` as two floats (px); ``value`` array_like of shape (2,), ``name`` for errors."""
    t = type(value)
    xy = None
    if (t is tuple or t is list) and len(value) == 2 and type(value[0]) in _FAST and type(value[1]) in _FAST:
        try:
            xy = (float(value[0]), float(value[1]))
        except OverflowError:  # a huge int: the general path names it
            xy = None
    elif t is np.ndarray and value.dtype == np.float64 and value.shape == (2,):
        xy = value.tolist()
    if xy is None:
        arr = to_float64(value, name)
        if arr.shape != (2,):
            raise ValueError(f"{name}: expected a point of shape (2,), got {arr.shape}")
        xy = arr.tolist()
    x, y = xy
    if not (math.isfinite(x) and math.isfinite(y)):
        raise ValueError(f"{name}: must be finite, got ({x}, {y})")
    if not (-BOUND <= x <= BOUND and -BOUND <= y <= BOUND):
        raise ValueError(f"{name}: coordinates must lie within +-{BOUND:g} px, got ({x:g}, {y:g})")
    return x, y


def float_array(value, name: str, ndim: int | None = None) -> np.ndarray:
    """``value`` as a finite float64 array (of ``ndim`` dimensions), a copy when converted; errors name ``name``."""
    if type(value) is np.ndarray and value.dtype == np.float64:
        arr = value
    else:
        arr = to_float64(value, name)
    if ndim is not None and arr.ndim != ndim:
        raise ValueError(f"{name}: expected {ndim}-D input, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        bad = np.argwhere(~np.isfinite(arr))[0]
        raise ValueError(f"{name}: must be finite (non-finite value at index {tuple(int(i) for i in bad)})")
    return arr


def float_list(value, name: str) -> list[float]:
    """A 1-D sequence of finite numbers as a list of floats (fast for a float64 vector or a list of floats)."""
    if type(value) is np.ndarray and value.ndim == 1 and value.dtype == np.float64:
        out = value.tolist()
    elif type(value) in (list, tuple) and all(type(v) in _FAST for v in value):
        try:
            out = [float(v) for v in value]
        except OverflowError:  # a huge int: the general path names it
            return float_array(value, name, ndim=1).tolist()
    else:
        return float_array(value, name, ndim=1).tolist()
    total = sum(out)
    if total - total != 0.0:  # an inf or nan somewhere (or a finite overflow: check one by one)
        for i, v in enumerate(out):
            if not math.isfinite(v):
                raise ValueError(f"{name}: must be finite (non-finite value at index ({i},))")
    return out


# Real numbers whose float() is the float64 numpy reads them as (exactly, or rounded alike): the fast paths take
# these, converted once, and leave everything else (booleans, Decimal, Fraction, ...) to the checked path.
REALS = frozenset((float, int, np.float64, np.float32, np.float16, np.int64, np.int32, np.int16, np.int8,
                   np.uint64, np.uint32, np.uint16, np.uint8))
_PAIR = (2,)
FLOATS = (_FLOAT64, np.dtype(np.float32))  # the dtypes of arrays whose tolist() gives Python floats


def plain_float(value) -> float | None:
    """A number of a type in ``REALS`` (or a 0-d float array) as a float, unchecked (inf, nan pass); else None."""
    if type(value) is float:
        return value
    if type(value) in REALS:
        try:
            return float(value)
        except OverflowError:  # a huge int: the checked path names it
            return None
    if type(value) is np.ndarray and value.shape == () and value.dtype in FLOATS:  # a 0-d array
        return float(value)
    return None


def plain_list(value) -> list | None:
    """A 1-D float array, or a list/tuple of numbers in ``REALS``, as a new list of floats, unchecked (inf, nan
    pass); None for anything else."""
    t = type(value)
    if t is np.ndarray:
        return value.tolist() if value.ndim == 1 and value.dtype in FLOATS else None
    if t is list or t is tuple:
        for v in value:
            if type(v) is not float:
                break
        else:
            return list(value)
        out = []
        for v in value:
            v = plain_float(v)
            if v is None:
                return None
            out.append(v)
        return out
    return None


def plain_point(value) -> list | tuple | None:
    """A (2,) float array, or a 2-list/2-tuple of numbers in ``REALS``, as two floats, unchecked; else None."""
    t = type(value)
    if t is np.ndarray:
        return value.tolist() if value.shape == _PAIR and value.dtype in FLOATS else None
    if t is not tuple and t is not list or len(value) != 2:
        return None
    x, y = value
    if type(x) is float and type(y) is float:
        return value
    if type(x) in REALS and type(y) in REALS:  # (numpy scalars: the common case, without two calls)
        try:
            return float(x), float(y)
        except OverflowError:  # a huge int: the checked path names it
            return None
    x = plain_float(x)
    y = plain_float(y)
    return None if x is None or y is None else (x, y)


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
    """``n`` joint limits ``(lo, hi)`` rad, ``-pi <= lo <= hi <= pi``, as a list of float pairs; None for None."""
    if value is None:
        return None
    arr = float_array(value, name, ndim=2)
    if arr.shape != (n, 2):
        raise ValueError(f"{name}: expected shape ({n}, 2) (one (lo, hi) per bone), got {arr.shape}")
    out = []
    for i, (lo, hi) in enumerate(arr.tolist()):
        if lo > hi:
            raise ValueError(f"{name}: limits[{i}] has lo > hi ({lo} > {hi})")
        if lo < -math.pi - SLACK or hi > math.pi + SLACK:
            raise ValueError(f"{name}: limits[{i}] must lie in [-pi, pi], got ({lo}, {hi})")
        out.append((max(lo, -math.pi), min(hi, math.pi)))
    return out


MAX_COUNT = 2**31 - 1  # the most iterations (or any count) a call takes: an int32, so no array of them wraps


def positive_int(value, name: str) -> int:
    """Return ``value`` as an int in ``[1, MAX_COUNT]``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 1 <= value <= MAX_COUNT:
        raise ValueError(f"{name}: must be an integer from 1 to {MAX_COUNT:,}, got {value!r}")
    return int(value)


def non_negative(value, name: str) -> float:
    """Return a real number (module docstring) as a finite float >= 0."""
    v = real(value, name)
    if not math.isfinite(v) or v < 0:
        raise ValueError(f"{name}: must be finite and >= 0, got {value!r}")
    return v


def finite_real(value, name: str) -> float:
    """Return a real number (module docstring) as a finite float: not a boolean, string, array or NaN."""
    v = real(value, name)
    if not math.isfinite(v):
        raise ValueError(f"{name}: must be finite, got {value!r}")
    return v


def wrap(a: float) -> float:
    """Wrap an angle in radians to (-pi, pi]."""
    w = (a + math.pi) % TAU - math.pi
    return math.pi if w <= -math.pi else w


def wrap_array(a: np.ndarray) -> np.ndarray:
    """Angles (rad) wrapped to (-pi, pi], element-wise (a new array); rounding to -pi or past pi gives pi."""
    w = np.minimum(a - TAU * np.ceil((a - math.pi) / TAU), math.pi)
    low = w <= -math.pi
    if low.any():
        w[low] += TAU
    return w


def clamp_angle(value: float, lo: float, hi: float) -> float:
    """A relative angle clamped to ``[lo, hi]`` (rad), pi rather than -pi where allowed; a full circle only wraps."""
    if hi - lo >= FULL_CIRCLE:  # (kept inside a range a hair short of the circle)
        w = value if -math.pi < value <= math.pi else wrap(value)  # in range: as given, as the batched calls keep it
        return lo if w < lo else hi if w > hi else w
    v = lo if value < lo else hi if value > hi else value
    if v <= -math.pi and hi >= math.pi:
        return math.pi
    return v


def clamp_heading(value: float, lo: float, hi: float) -> float:
    """Joint 0's angle (a heading) clamped to ``[lo, hi]``: from outside, to the bound nearer round the circle.

    So a chain's mirror image is clamped to the mirrored bound (docs/design.md, "Mirror flip").
    """
    if hi - lo >= FULL_CIRCLE:
        return clamp_angle(value, lo, hi)
    if lo <= value <= hi:
        return value
    w = value if -math.pi < value <= math.pi else wrap(value)
    if lo <= w <= hi:
        return w
    return lo if (lo - w) % TAU < (w - hi) % TAU else hi
