"""Checking one value of a parsed scene document: numbers, whole numbers, lists, points, pairs, flags, fields.

:class:`ValueChecks` holds the checks the scene file's reader
(:class:`.file_reader.Reader`) and its fields (:mod:`.file_fields`) use; each
returns the value as the scene keeps it, or raises a
:class:`~.file_errors.SceneFileError` whose one line names the file and the
place (``scene.json: chains[2].lengths[1]: must be > 0 (got -5)``). A list of
numbers is checked with one numpy pass; only when that pass finds a problem are
its items looked at one by one, to name the first bad one. :func:`show_value`
is how every message shows a value: short, one line.
"""

from __future__ import annotations

import itertools
import json
import math

import numpy as np

from ikplayground.scene.core.constants import MAX_COORD
from ikplayground.scene.files.file_errors import SceneFileError
from ikplayground.scene.files.strict_json import BadNumber

_NUMBER_TYPES = {float, int}


def show_value(value) -> str:
    """``value`` as messages show it: short, one line."""
    if hasattr(value, "shown"):  # a BadNumber, or a value too long to parse
        return value.shown()
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**36:
        return f"{str(value)[:12]}...({len(str(abs(value)))} digits)"
    if isinstance(value, (list, tuple)) and len(value) <= 4 and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
        text = "[" + ", ".join(show_value(v) for v in value) + "]"
    elif isinstance(value, (str, bool, type(None), int, float)):
        text = json.dumps(value)
    else:
        text = {"list": "a list", "dict": "an object"}.get(type(value).__name__, type(value).__name__)
    return text if len(text) <= 40 else text[:37] + "..."


def plain_numbers(items: list) -> np.ndarray | None:
    """``items`` as floats when every one is a plain int or float that a float holds, else None."""
    if not set(map(type, items)) <= _NUMBER_TYPES:
        return None
    try:
        return np.array(items, dtype=float)
    except OverflowError:
        return None


class ValueChecks:
    """The checks of single values, for the file ``name`` (empty: the messages start with the place)."""

    def __init__(self, name: str):
        self.name = name

    def fail(self, where: str, message: str):
        text = f"{where}: {message}" if where else message
        raise SceneFileError(f"{self.name}: {text}" if self.name else text)

    def number(self, where, value, *, positive=False, lo=-MAX_COORD, hi=MAX_COORD) -> float:
        if isinstance(value, BadNumber):
            self.fail(where, f"must be a finite number (got {value.shown()})")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.fail(where, f"must be a number (got {show_value(value)})")
        try:
            v = float(value)
        except OverflowError:
            v = math.inf if value > 0 else -math.inf  # copysign would overflow too
        if not math.isfinite(v):
            self.fail(where, f"must be a finite number (got {show_value(value)})")
        if positive and v <= 0:
            self.fail(where, f"must be > 0 (got {show_value(value)})")
        if lo is not None and v < lo:
            self.fail(where, f"must be >= {show_value(lo)} (got {show_value(value)})")
        if hi is not None and v > hi:
            self.fail(where, f"must be <= {show_value(hi)} (got {show_value(value)})")
        return v

    def integer(self, where, value, lo, hi) -> int:
        if isinstance(value, BadNumber):
            self.fail(where, f"must be between {lo} and {hi} (got {value.shown()})")
        if isinstance(value, bool) or not isinstance(value, int):
            if isinstance(value, float) and value.is_integer():
                value = int(value)
            else:
                self.fail(where, f"must be a whole number (got {show_value(value)})")
        if not lo <= value <= hi:
            self.fail(where, f"must be between {lo} and {hi} (got {show_value(value)})")
        return value

    def array(self, where, value, count=None, *, min_count=0, max_count=None) -> list:
        if not isinstance(value, list):
            self.fail(where, f"must be a list (got {show_value(value)})")
        if count is not None and len(value) != count:
            self.fail(where, f"must have {count} entries (got {len(value)})")
        if len(value) < min_count:
            self.fail(where, f"must have at least {min_count} {'entry' if min_count == 1 else 'entries'} (got {len(value)})")
        if max_count is not None and len(value) > max_count:
            self.fail(where, f"must have at most {max_count} entries (got {len(value)})")
        return value

    def numbers(self, where, value, count=None, *, min_count=0, max_count=None, positive=False,
                lo=-MAX_COORD, hi=MAX_COORD) -> np.ndarray:
        """A list of numbers in ``[lo, hi]`` (and > 0 if ``positive``), as floats."""
        items = self.array(where, value, count, min_count=min_count, max_count=max_count)
        out = plain_numbers(items)
        if out is not None:
            ok = (out >= lo) & (out <= hi)
            if positive:
                ok &= out > 0
            if ok.all():
                return out
        for i, v in enumerate(items):  # name the first bad one
            self.number(f"{where}[{i}]", v, positive=positive, lo=lo, hi=hi)
        raise AssertionError("unreachable: a number failed the fast check only")  # pragma: no cover

    def point(self, where, value) -> np.ndarray:
        return self.numbers(where, value, 2)

    def pairs(self, where, value, count=None, *, min_count=0, max_count=None, lo=-MAX_COORD, hi=MAX_COORD,
              ordered=False) -> np.ndarray:
        """A list of ``[a, b]`` pairs of numbers in ``[lo, hi]`` (with ``a <= b`` if ``ordered``), shape (n, 2)."""
        items = self.array(where, value, count, min_count=min_count, max_count=max_count)
        if set(map(type, items)) <= {list} and set(map(len, items)) <= {2}:
            out = plain_numbers(list(itertools.chain.from_iterable(items)))
            if out is not None:
                out = out.reshape(len(items), 2)
                ok = (out >= lo) & (out <= hi)
                if ok.all() and (not ordered or np.all(out[:, 0] <= out[:, 1])):
                    return out
        for i, p in enumerate(items):  # name the first bad one
            if ordered:
                self.pair(f"{where}[{i}]", p)
            else:
                self.numbers(f"{where}[{i}]", p, 2, lo=lo, hi=hi)
        raise AssertionError("unreachable: a pair failed the fast check only")  # pragma: no cover

    def pair(self, where, value) -> tuple[float, float]:
        """A [lo, hi] pair of degrees inside [-180, 180] with lo <= hi."""
        lo, hi = self.numbers(where, value, 2, lo=-180.0, hi=180.0).tolist()
        if lo > hi:
            self.fail(where, f"lo must be <= hi (got [{show_value(lo)}, {show_value(hi)}])")
        return lo, hi

    @staticmethod
    def optional(d: dict, key: str, default):
        """An optional field: missing and null both mean ``default``."""
        value = d.get(key)
        return default if value is None else value

    def flag(self, where, value) -> bool:
        if not isinstance(value, bool):
            self.fail(where, f"must be true or false (got {show_value(value)})")
        return value

    def require(self, where, d, keys):
        for k in keys:
            if k not in d:
                self.fail(where, f"missing field {k!r}")
