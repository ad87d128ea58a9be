"""The scene file's fields of the per-chain settings: how each is written, read and quickly checked.

Each entry of :data:`ikplayground.scene.core.settings.SETTINGS` that the file keeps
names one of these fields (docs/scene-format.md gives every key). A field
writes a whole group of chains of one solver and bone count at once
(:meth:`Field.write`), reads one chain with a message that names the place
(:meth:`Field.read`, through :class:`~ikplayground.scene.files.file_reader.Reader`),
and checks one chain quickly for :mod:`~ikplayground.scene.files.group_check`
(:meth:`Field.quick`, raising :class:`Doubt` for anything it does not
accept, and :meth:`Field.quick_group` for a list checked over the group in
one numpy pass). What a field reads is keyword arguments of the chain's
constructor (:func:`~ikplayground.scene.build.build.make_ik_chain`,
:func:`~ikplayground.scene.build.build.make_snake`); both checks give the same.
:meth:`Field.widest` gives the longest value the writer can write, from which
the format's size bounds are derived (:mod:`~ikplayground.scene.files.file_format`).

The number-writing helpers (rounding as the documentation says) are here too:
the chains' positions and angles use them as well. The fields whose values are
lists (joint limits, a snake's bend range, a pole) are in :mod:`.file_list_fields`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import chain as _concat

import numpy as np

_NUMBER_TYPES = {float, int}
OMIT = object()  # a column's value for a chain whose field is left out (an optional field at its default)
WIDEST_FLOAT = -2.2250738585072014e-308  # the longest text of a float: 24 characters
_TINY_POSITIVE = 1.234e-300  # the longest text a positive number that rounds to 0 keeps (4 significant digits)


# --- writing numbers -------------------------------------------------------------------
def round_number(x: float, nd: int = 3) -> float:
    """``x`` rounded to ``nd`` decimals."""
    return round(float(x), nd)


def round_positive(x: float, nd: int = 3) -> float:
    """``x`` rounded like :func:`round_number`, but a positive number never rounds to 0 (it must load again)."""
    r = round_number(x, nd)
    return r if r > 0 or not float(x) > 0 else float(f"{float(x):.4g}")


def round_array(a, nd: int = 3) -> list:
    """The numbers of ``a`` rounded to ``nd`` decimals, as (nested) lists of floats.

    One numpy call for the whole array (a scene of 20,000 chains of 64 bones
    saves in seconds, not tens of seconds). A rounded number is the double
    nearest a decimal of at most ``nd`` places, so it is written that short.
    """
    a = np.asarray(a, dtype=float)
    return np.where(np.abs(a) < 1e15, np.round(a, nd), a).tolist()  # larger: nothing to round (and no overflow)


def round_positive_array(a, nd: int = 3) -> list:
    """:func:`round_array`, but a positive number never rounds to 0 (like :func:`round_positive`)."""
    a = np.asarray(a, dtype=float)
    out = np.where(np.abs(a) < 1e15, np.round(a, nd), a)
    lost = (out <= 0) & (a > 0)
    if lost.any():
        out[lost] = [float(f"{x:.4g}") for x in a[lost].tolist()]
    return out.tolist()


def degrees_array(a) -> list:
    """Radians ``a`` as degrees rounded to 4 decimals, as (nested) lists."""
    return round_array(np.degrees(a), 4)


def widest_number(lo: float, hi: float, digits: int, positive: bool = False) -> float:
    """The value in ``[lo, hi]`` whose text is longest once rounded to ``digits`` decimals
    (with ``positive``, by :func:`round_positive`, which keeps a tiny positive number's digits)."""
    step = 10.0 ** -digits
    candidates = [round(v, digits) for v in (lo, hi, lo + step, hi - step)]
    if positive:
        candidates.append(_TINY_POSITIVE)
    return max(candidates, key=lambda v: len(repr(v)))


# --- quick checks (for group_check) ------------------------------------------------------
class Doubt(Exception):
    """Something the quick check does not accept: the chain is left to the one-at-a-time check."""


def quick_number(value, lo: float, hi: float, positive: bool = False) -> float:
    """``value`` as a float if it is a plain int or float in ``[lo, hi]`` (and > 0 if ``positive``), else Doubt."""
    if type(value) not in _NUMBER_TYPES:
        raise Doubt
    try:
        v = float(value)
    except OverflowError:
        raise Doubt from None
    if not lo <= v <= hi or (positive and not v > 0):  # NaN fails both
        raise Doubt
    return v


def quick_list(value, count: int | None = None) -> list:
    """``value`` if it is a list (of ``count`` items), else Doubt."""
    if type(value) is not list or (count is not None and len(value) != count):
        raise Doubt
    return value


def stack_numbers(lists: list, shape: tuple) -> np.ndarray:
    """``lists`` (of lists of numbers, or of ``[a, b]`` pairs if ``shape`` has 3 axes) as floats, else Doubt."""
    if len(shape) == 3:  # lists of pairs
        pairs = list(_concat.from_iterable(lists))
        if set(map(type, pairs)) != {list} or set(map(len, pairs)) != {2}:
            raise Doubt
        lists = pairs
    flat = list(_concat.from_iterable(lists))
    if len(flat) != math.prod(shape) or not set(map(type, flat)) <= _NUMBER_TYPES:
        raise Doubt
    try:
        return np.array(flat, dtype=float).reshape(shape)
    except OverflowError:
        raise Doubt from None


def rows_within(a: np.ndarray, lo: float, hi: float) -> np.ndarray:
    """Per row of ``a``: every value in ``[lo, hi]`` (NaN is not)."""
    return ((a >= lo) & (a <= hi)).reshape(len(a), -1).all(axis=1)


# --- the fields --------------------------------------------------------------------------
class Field:
    """A setting's field(s) in a chain's line. ``setting`` is the table entry that owns it,
    ``n`` the chain's bone count; ``reader`` a :class:`~ikplayground.scene.files.file_reader.Reader`."""

    key: str

    def write(self, setting, chains: list) -> list[tuple[str, list]]:
        """``(key, column)`` pairs: the value of each of ``chains`` (of one solver and bone
        count), in order; :data:`OMIT` leaves the key out of that chain's line."""
        raise NotImplementedError

    def read(self, setting, reader, where: str, d: dict, n: int) -> dict:
        """The constructor's keyword arguments from chain ``d``, checked (``reader.fail`` otherwise)."""
        raise NotImplementedError

    def quick(self, setting, d: dict, n: int) -> dict:
        """What :meth:`read` gives for a valid ``d``; :class:`Doubt` for anything else."""
        raise NotImplementedError

    def quick_group(self, setting, ds: list, kws: list, n: int) -> np.ndarray | None:
        """For a list checked over a whole group: which of ``ds`` pass (filling their ``kws``); None: nothing to do."""
        return None

    def widest(self, setting, n: int) -> dict:
        """The key(s) with the longest value(s) the writer can write for a chain of ``n`` bones."""
        raise NotImplementedError


@dataclass(frozen=True)
class Flag(Field):
    """``true`` / ``false``; optional (missing or null: the setting's default). With
    ``omit_default``, written only when it is not the default (older files stay as they were)."""

    key: str
    kw: str | None = None  # the constructor's argument (None: the setting's name)
    omit_default: bool = False

    def write(self, setting, chains):
        column = [bool(setting.read(c)) for c in chains]
        if self.omit_default:
            column = [OMIT if v == setting.default else v for v in column]
        return [(self.key, column)]

    def read(self, setting, reader, where, d, n):
        value = reader.optional(d, self.key, setting.default)
        return {self.kw or setting.name: reader.flag(f"{where}.{self.key}", value)}

    def quick(self, setting, d, n):
        value = d.get(self.key)
        value = setting.default if value is None else value
        if type(value) is not bool:
            raise Doubt
        return {self.kw or setting.name: value}

    def widest(self, setting, n):
        return {self.key: False}


@dataclass(frozen=True)
class Number(Field):
    """A number in the setting's range (> its low end if the setting is ``positive``), in the
    setting's unit, written to ``digits`` decimals; optional (missing or null: the default)."""

    key: str
    kw: str | None = None
    digits: int = 3

    def write(self, setting, chains):
        rounded = round_positive if setting.positive else round_number
        return [(self.key, [rounded(setting.read(c), self.digits) for c in chains])]

    def read(self, setting, reader, where, d, n):
        value = reader.optional(d, self.key, setting.default)
        return {self.kw or setting.name: reader.number(f"{where}.{self.key}", value, lo=setting.lo, hi=setting.hi,
                                                       positive=setting.positive)}

    def quick(self, setting, d, n):
        value = d.get(self.key)
        value = float(setting.default) if value is None else quick_number(value, setting.lo, setting.hi,
                                                                             setting.positive)
        return {self.kw or setting.name: value}

    def widest(self, setting, n):
        return {self.key: widest_number(setting.lo, setting.hi, self.digits, setting.positive)}


@dataclass(frozen=True)
class Whole(Field):
    """A whole number in the setting's range (``10`` or ``10.0``); optional (missing or null: the default).
    With ``omit_default``, written only when it is not the default (older files stay as they were)."""

    key: str
    kw: str | None = None
    omit_default: bool = False

    def write(self, setting, chains):
        column = [int(setting.read(c)) for c in chains]
        if self.omit_default:
            column = [OMIT if v == setting.default else v for v in column]
        return [(self.key, column)]

    def read(self, setting, reader, where, d, n):
        value = reader.optional(d, self.key, setting.default)
        return {self.kw or setting.name: reader.integer(f"{where}.{self.key}", value, int(setting.lo),
                                                        int(setting.hi))}

    def quick(self, setting, d, n):
        value = d.get(self.key)
        value = setting.default if value is None else value
        if type(value) is float and value.is_integer():
            value = int(value)
        if type(value) is not int or not setting.lo <= value <= setting.hi:
            raise Doubt
        return {self.kw or setting.name: value}

    def widest(self, setting, n):
        return {self.key: int(setting.hi)}


@dataclass(frozen=True)
class RateLimit(Field):
    """The rate limit: ``rate_limit``, degrees per step or null (off; missing: the default), and
    ``rate_limit_setting``, what turning an off limit on restores (optional; a number in
    ``rate_limit`` is the setting too). Both in the setting's range, > 0."""

    key: str = "rate_limit"
    setting_key: str = "rate_limit_setting"

    def write(self, setting, chains):
        limits = [c.rate_limit for c in chains]
        return [(self.key, [None if r is None else round_positive(r, 4) for r in limits]),
                (self.setting_key, [round_positive(c.rate_deg, 4) for c in chains])]

    def _kw(self, rate, kept):
        return {"rate_limit": rate, "rate_deg": kept if rate is None else rate}

    def read(self, setting, reader, where, d, n):
        rate = d.get(self.key, setting.default)  # here null means "off", not "default"
        if rate is not None:
            rate = reader.number(f"{where}.{self.key}", rate, positive=True, lo=setting.lo, hi=setting.hi)
        kept = d.get(self.setting_key)  # optional (files before it have none); used while the limit is off
        if kept is not None:
            kept = reader.number(f"{where}.{self.setting_key}", kept, positive=True, lo=setting.lo, hi=setting.hi)
        return self._kw(rate, kept)

    def quick(self, setting, d, n):
        rate = d.get(self.key, setting.default)
        if rate is not None:
            rate = quick_number(rate, setting.lo, setting.hi, positive=True)
        kept = d.get(self.setting_key)
        if kept is not None:
            kept = quick_number(kept, setting.lo, setting.hi, positive=True)
        return self._kw(rate, kept)

    def widest(self, setting, n):
        widest = widest_number(setting.lo, setting.hi, 4, positive=True)
        return {self.key: widest, self.setting_key: widest}


@dataclass(frozen=True)
class Choice(Field):
    """One of the setting's ``choices``, as a string; optional (missing or null: the default). With
    ``omit_default``, written only when it is not the default (older files stay as they were)."""

    key: str
    kw: str | None = None
    omit_default: bool = True

    def write(self, setting, chains):
        column = [str(setting.read(c)) for c in chains]
        if self.omit_default:
            column = [OMIT if v == setting.default else v for v in column]
        return [(self.key, column)]

    def read(self, setting, reader, where, d, n):
        value = reader.optional(d, self.key, setting.default)
        if type(value) is not str or value not in setting.choices:
            reader.fail(f"{where}.{self.key}", f"must be one of {', '.join(setting.choices)} (got {value!r:.40})")
        return {self.kw or setting.name: value}

    def quick(self, setting, d, n):
        value = d.get(self.key)
        value = setting.default if value is None else value
        if type(value) is not str or value not in setting.choices:
            raise Doubt
        return {self.kw or setting.name: value}

    def widest(self, setting, n):
        return {self.key: max(setting.choices, key=len)}
