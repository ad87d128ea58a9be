"""The scene file's fields of the per-chain settings: how each is written, and the type it is read as.

Each row of :data:`ikplayground.scene.core.settings.SETTINGS` the file keeps
names a :class:`Field` (docs/scene-format.md, "Chains"): it writes a group of
chains at once, gives its msgspec types (msgspec's docs, "Structs",
"Constraints"), turns the decoded value into the constructor's keywords, and
gives the widest value the writer writes (the format's size bounds). The
number-writing helpers are here too; list- and object-valued fields are in
:mod:`.file_list_fields`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Callable, ClassVar, Literal

import numpy as np
from msgspec import UNSET, Meta, UnsetType

from ikplayground.scene.core.solver_kinds import has_trait
from ikplayground.scene.files.file_errors import show_value
OMIT = object()  # a column's value for a chain whose field is left out (an optional field at its default)
WIDEST_FLOAT = -2.2250738585072014e-308  # the longest text of a float: 24 characters
_TINY_POSITIVE = 1.234e-300  # the longest text a positive number that rounds to 0 keeps (4 significant digits)


def round_number(x: float, nd: int = 3) -> float:
    """``x`` rounded to ``nd`` decimals."""
    return round(float(x), nd)


def round_positive(x: float, nd: int = 3) -> float:
    """``x`` rounded like :func:`round_number`, but a positive number never rounds to 0 (it must load again)."""
    r = round_number(x, nd)
    return r if r > 0 or not float(x) > 0 else float(f"{float(x):.4g}")


def round_array(a, nd: int = 3) -> list:
    """The numbers of ``a`` rounded to ``nd`` decimals, as (nested) lists of floats (one numpy call)."""
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
    """The value in ``[lo, hi]`` whose text is longest once rounded to ``digits`` decimals."""
    step = 10.0 ** -digits
    candidates = [round(v, digits) for v in (lo, hi, lo + step, hi - step)]
    if positive:
        candidates.append(_TINY_POSITIVE)
    return max(candidates, key=lambda v: len(repr(v)))


def bounded(lo: float, hi: float, positive: bool = False):
    """A number in ``[lo, hi]`` (``(lo, hi]`` if ``positive``) as a msgspec type with its bounds."""
    return Annotated[float, Meta(gt=lo, le=hi) if positive else Meta(ge=lo, le=hi)]


class Refused(Exception):
    """A value the types let through but the format does not: ``args`` are the place in the chain and the message."""


def whole(value: float, key: str) -> int:
    """``value`` (a float the types have bounded) as an int; :class:`Refused` if it is not whole."""
    if not float(value).is_integer():
        raise Refused(key, f"must be a whole number (got {show_value(value)})")
    return int(value)


class Field:
    """A setting's field(s) in a chain's line; ``setting`` is the row that owns it, ``n`` the chain's bones."""

    key: str
    kw: str | None  # the constructor's argument, for the fields that have one (None: the setting's name)

    def write(self, setting, chains: list) -> list[tuple[str, list]]:
        """``(key, column)`` pairs: each of ``chains``' value, :data:`OMIT` to leave the key out of its line."""
        raise NotImplementedError

    def types(self, setting) -> list[tuple]:
        """The ``(key, type, default)`` fields of the chain's msgspec Struct (``msgspec.defstruct``'s)."""
        return [(self.key, self.kind(setting) | None, None)]

    def kind(self, setting):
        """The type of the value (missing or null: the default)."""
        raise NotImplementedError

    def kwargs(self, setting, value, n: int) -> dict:
        """The constructor's keywords from the decoded ``value`` (None: missing or null); :class:`Refused`."""
        return {self.kw or setting.name: setting.default if value is None else value}

    def chain_kwargs(self, setting, value, n: int, solver: str) -> dict:
        """:meth:`kwargs` for a chain of ``solver`` (a field whose default differs by solver overrides it)."""
        return self.kwargs(setting, value, n)

    def widest(self, setting, n: int) -> dict:
        """The key(s) with the longest value(s) the writer can write for a chain of ``n`` bones."""
        raise NotImplementedError


@dataclass(frozen=True)
class _Plain(Field):
    """One optional value written as ``cast`` makes it (``omit_default``: only when not the default)."""

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
    """A number in the setting's range (> ``lo`` if ``positive``) to ``digits`` decimals; optional."""

    key: str
    kw: str | None = None
    digits: int = 3
    omit_default: bool = False  # written only when not the setting's default

    def write(self, setting, chains):
        rounded = round_positive if setting.positive else round_number
        values = [setting.read(c) for c in chains]
        return [(self.key, [OMIT if self.omit_default and v == setting.default else rounded(v, self.digits)
                            for v in values])]

    def kind(self, setting):
        return bounded(setting.lo, setting.hi, setting.positive)

    def kwargs(self, setting, value, n):
        default = None if setting.default is None else float(setting.default)  # None: the chain's shape decides
        return {self.kw or setting.name: default if value is None else value}

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
    """``rate_limit``: degrees per step, null (off) or missing (the default: the setting's, off for the kinds
    ``off``); ``rate_limit_setting``: what turning it on restores (optional). Both in the setting's range, > 0.
    """

    key: str = "rate_limit"
    setting_key: str = "rate_limit_setting"
    off: tuple[str, ...] = ()

    def write(self, setting, chains):
        limits = [c.rate_limit for c in chains]
        # a chain of the kinds ``off`` at its defaults (off, the setting's default) leaves both keys out
        bare = [r is None and c.rate_deg == setting.default and has_trait(c.solver, self.off)
                for r, c in zip(limits, chains)]
        return [(self.key, [OMIT if b else None if r is None else round_positive(r, 4) for r, b in zip(limits, bare)]),
                (self.setting_key, [OMIT if b else round_positive(c.rate_deg, 4) for c, b in zip(chains, bare)])]

    def types(self, setting):
        rate = bounded(setting.lo, setting.hi, positive=True)
        return [(self.key, rate | None | UnsetType, UNSET),  # here null means "off", not "default"
                (self.setting_key, rate | None, None)]  # used while the limit is off

    def kwargs(self, setting, value, n):
        return self.chain_kwargs(setting, value, n, "")

    def chain_kwargs(self, setting, value, n, solver):
        rate, kept = value
        if rate is UNSET:
            rate = None if has_trait(solver, self.off) else setting.default
        kept = kept if rate is None else rate
        return {"rate_limit": rate} if kept is None else {"rate_limit": rate, "rate_deg": kept}

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
