"""The scene file's fields of the per-chain settings: how each is written, and the type it is read as.

Each entry of :data:`ikplayground.scene.core.settings.SETTINGS` that the file keeps
names one of these fields (docs/scene-format.md, "Chains", gives every key). A
field writes a whole group of chains of one solver and bone count at once
(:meth:`Field.write`); for reading it gives its key(s) and msgspec type(s)
(:meth:`Field.types`), from which :mod:`.file_schema` makes one msgspec Struct
per solver (msgspec's docs, "Structs" and "Constraints": the bounds are
``Meta(ge=..., le=...)``, checked in C while decoding), and turns the decoded
value into keyword arguments of the chain's constructor (:meth:`Field.kwargs`,
:class:`Refused` for what a type cannot say, such as a whole number).
:meth:`Field.widest` gives the longest value the writer can write, from which
the format's size bounds are derived (:mod:`~ikplayground.scene.files.file_format`).

The number-writing helpers (rounding as the documentation says) are here too:
the chains' positions and angles use them as well. The fields whose values are
lists or objects (joint limits, a snake's bend range, a pole, a motion) are in
:mod:`.file_list_fields`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Callable, ClassVar, Literal

import numpy as np
from msgspec import UNSET, Meta, UnsetType

from ikplayground.scene.files.file_errors import show_value
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


# --- the file's types (msgspec) ---------------------------------------------------------
def bounded(lo: float, hi: float, positive: bool = False):
    """A number in ``[lo, hi]`` (``(lo, hi]`` if ``positive``), as a msgspec type with its bounds
    (msgspec's docs, "Constraints": ``Meta(ge=..., le=...)``, checked in C while decoding)."""
    return Annotated[float, Meta(gt=lo, le=hi) if positive else Meta(ge=lo, le=hi)]


class Refused(Exception):
    """A value the types let through but the format does not (a check across fields, a whole number).

    ``args``: the place inside the chain (``"limits[2]"``, ``""`` for the chain) and the message.
    """


def whole(value: float, key: str) -> int:
    """``value`` (a float the types have bounded) as an int; :class:`Refused` if it is not whole."""
    if not float(value).is_integer():
        raise Refused(key, f"must be a whole number (got {show_value(value)})")
    return int(value)


# --- the fields --------------------------------------------------------------------------
class Field:
    """A setting's field(s) in a chain's line. ``setting`` is the table entry that owns it,
    ``n`` the chain's bone count."""

    key: str
    kw: str | None  # the constructor's argument, for the fields that have one (None: the setting's name)

    def write(self, setting, chains: list) -> list[tuple[str, list]]:
        """``(key, column)`` pairs: the value of each of ``chains`` (of one solver and bone
        count), in order; :data:`OMIT` leaves the key out of that chain's line."""
        raise NotImplementedError

    def types(self, setting) -> list[tuple]:
        """The ``(key, type, default)`` fields of the chain's msgspec Struct (``msgspec.defstruct``'s)."""
        return [(self.key, self.kind(setting) | None, None)]

    def kind(self, setting):
        """The type of the value (missing or null: the default)."""
        raise NotImplementedError

    def kwargs(self, setting, value, n: int) -> dict:
        """The constructor's keyword arguments from the decoded ``value`` (None: missing or null);
        :class:`Refused` for what the types cannot check."""
        return {self.kw or setting.name: setting.default if value is None else value}

    def widest(self, setting, n: int) -> dict:
        """The key(s) with the longest value(s) the writer can write for a chain of ``n`` bones."""
        raise NotImplementedError


@dataclass(frozen=True)
class _Plain(Field):
    """One plain value, written as ``cast`` makes the setting's value; optional (missing or null: the
    setting's default). With ``omit_default``, written only when it is not the default (older files stay
    as they were)."""

    key: str
    kw: str | None = None  # the constructor's argument (None: the setting's name)
    omit_default: bool = False
    cast: ClassVar[Callable[[Any], Any]] = staticmethod(bool)

    def write(self, setting, chains):
        column = [self.cast(setting.read(c)) for c in chains]
        return [(self.key, [OMIT if v == setting.default else v for v in column] if self.omit_default else column)]


@dataclass(frozen=True)
class Flag(_Plain):
    """``true`` / ``false``."""

    def kind(self, setting):
        return bool

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

    def kind(self, setting):
        return bounded(setting.lo, setting.hi, setting.positive)

    def kwargs(self, setting, value, n):
        return {self.kw or setting.name: float(setting.default) if value is None else value}

    def widest(self, setting, n):
        return {self.key: widest_number(setting.lo, setting.hi, self.digits, setting.positive)}


@dataclass(frozen=True)
class Whole(_Plain):
    """A whole number in the setting's range (``10`` or ``10.0``)."""

    cast = staticmethod(int)

    def kind(self, setting):
        return bounded(setting.lo, setting.hi)

    def kwargs(self, setting, value, n):
        return {self.kw or setting.name: setting.default if value is None else whole(value, self.key)}

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

    def types(self, setting):
        rate = bounded(setting.lo, setting.hi, positive=True)
        return [(self.key, rate | None | UnsetType, UNSET),  # here null means "off", not "default"
                (self.setting_key, rate | None, None)]  # used while the limit is off

    def kwargs(self, setting, value, n):
        rate, kept = value
        rate = setting.default if rate is UNSET else rate
        return {"rate_limit": rate, "rate_deg": kept if rate is None else rate}

    def widest(self, setting, n):
        widest = widest_number(setting.lo, setting.hi, 4, positive=True)
        return {self.key: widest, self.setting_key: widest}


@dataclass(frozen=True)
class Choice(_Plain):
    """One of the setting's ``choices``, as a string; written only when it is not the default."""

    omit_default: bool = True
    cast = staticmethod(str)

    def kind(self, setting):
        return Literal[setting.choices]

    def widest(self, setting, n):
        return {self.key: max(setting.choices, key=len)}
