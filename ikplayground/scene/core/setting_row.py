"""One row of the settings table (:mod:`.settings`): what a per-chain setting is and how it is read, checked and set.

The panel, :meth:`~ikplayground.scene.core.scene.Scene.set_setting`, the file and the F1 help read these fields; a
field-backed row (``field=``) gets its ``get``, ``put`` and file field made from the field's name.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Callable

import numpy as np

from ikplayground.scene.core.constants import SOLVERS
from ikplayground.scene.core.setting_puts import field_setting
from ikplayground.scene.core.solver_kinds import has_trait
from ikplayground.scene.files import file_fields as ff

@dataclass(frozen=True)
class Setting:
    """One per-chain setting.

    Parameters
    ----------
    name, label : str
        ``Scene.set_setting``'s name (the panel's command, a kept setting's attribute); what the panel calls it.
    solvers : tuple of str
        The solvers it applies to, by name or trait (``"ik"``, ``"iterative"``, ``"snake"``, ``"walker"``,
        ``"rig"``, ``"all"``).
    kind : {"number", "whole", "flag", "choice"}
    lo, hi, positive
        The range a chain may hold (clamped; the file refuses values outside it); ``positive``: > ``lo``.
    unit, default, slider, step, digits
        The unit shown; a new chain's value (None: its shape decides); the slider's span (None: [lo, hi]),
        a click's step (None: a fiftieth of it; 1 for whole numbers), the value label's decimals.
    help, needs
        The tool tip and F1 help; the flag that must be on for the control to be enabled.
    get, put : callable or None
        ``get(chain)`` in the setting's unit; ``put(scene, chain, value)`` with a checked value, returning the
        chain that replaces ``chain`` or None. None: a kept setting.
    file : file_fields.Field or None
        Its field in the scene file (None: another row's field or the chain's shape carries it).
    field, field_type
        The chain's one-number field holding the value as it is (``float`` or ``bool``): ``get``, ``put``, the
        file's field (unless ``file``), and for an IK, snake or walker row the chain's field, keyword and default.
    choices : tuple of str
        A choice's values, in the menu's order.
    """

    name: str
    label: str
    solvers: tuple[str, ...]
    kind: str = "number"
    lo: float = 0.0
    hi: float = 1.0
    unit: str = ""
    default: object = None
    slider: tuple[float, float] | None = None
    step: float | None = None
    digits: int = 1
    help: str = ""
    needs: str | None = None
    positive: bool = False
    get: Callable | None = None
    put: Callable | None = None
    file: ff.Field | None = None
    choices: tuple[str, ...] = ()
    field: str | None = None
    field_type: type = float
    defaults: tuple[tuple[str, object], ...] = ()
    says: Callable | None = None

    def __post_init__(self):  # a field's get and put, and its file field under its name unless given
        if self.field is not None and self.get is None:
            for key, fn in field_setting(self.field, self.field_type).items():
                object.__setattr__(self, key, fn)
        if self.field is not None and self.file is None:
            kw = None if self.field == self.name else self.field
            file = ff.Flag(self.name, kw=kw, omit_default=True) if self.field_type is bool else \
                ff.Number(self.name, kw=kw, digits=4)
            object.__setattr__(self, "file", file)

    @property
    def kept(self) -> bool:
        """Stored on the chain itself, as an attribute of the setting's name (``chain.show_limits``)."""
        return self.get is None

    @property
    def span(self) -> tuple[float, float]:
        """The slider's (lo, hi)."""
        return self.slider if self.slider is not None else (self.lo, self.hi)

    @property
    def click_step(self) -> float:
        if self.step is not None:
            return self.step
        lo, hi = self.span
        return 1 if self.kind == "whole" else (hi - lo) / 50

    @property
    def solver_names(self) -> tuple[str, ...]:
        """The registered solvers it applies to, in the registry's order."""
        return tuple(name for name in SOLVERS if self.applies(name))

    def default_for(self, solver: str):
        """A new ``solver`` chain's value: the first of :attr:`defaults` whose kind or trait it has, else
        :attr:`default`."""
        return next((value for trait, value in self.defaults if has_trait(solver, (trait,))), self.default)

    def applies(self, solver: str) -> bool:
        """Whether chains of solver ``solver`` have this setting (named, or of a trait it names)."""
        return has_trait(solver, self.solvers)

    def read(self, chain):
        """The setting's value on ``chain`` (whatever its solver: see :meth:`applies`)."""
        return getattr(chain, self.name) if self.kept else self.get(chain)

    def checked(self, value):
        """``value`` as this setting holds it: a bool, one of ``choices``, or a number clamped to [lo, hi].

        Raises
        ------
        TypeError
            Not of the setting's kind.
        ValueError
            Not finite, not > ``lo`` for a ``positive`` setting, or not one of ``choices``.
        """
        if self.kind == "choice":
            if not isinstance(value, str):
                raise TypeError(f"{self.name}: must be one of {', '.join(self.choices)} (got {value!r})")
            if value not in self.choices:
                raise ValueError(f"{self.name}: must be one of {', '.join(self.choices)} (got {value!r})")
            return value
        if self.kind == "flag":
            if not isinstance(value, (bool, np.bool_)):
                raise TypeError(f"{self.name}: must be true or false (got {value!r})")
            return bool(value)
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise TypeError(f"{self.name}: must be a number (got {value!r})")
        v = float(value)
        if not math.isfinite(v):
            raise ValueError(f"{self.name}: must be a finite number (got {value!r})")
        if self.positive and not v > self.lo:
            raise ValueError(f"{self.name}: must be > {self.lo:g} (got {value!r})")
        v = min(max(v, self.lo), self.hi)
        return int(v) if self.kind == "whole" else v

    def put_value(self, scene, chain, value):
        """Set ``value`` (already :meth:`checked`) on ``chain``; the chain that replaces it, or None."""
        if self.kept:
            setattr(chain, self.name, value)
            return None
        return self.put(scene, chain, value)
