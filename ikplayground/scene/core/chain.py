"""A chain in the scene: its solver, geometry, parameters and per-step state.

Its numbers live in small numpy arrays (``fields``), which become views into a
group's arrays when the scene steps chains of one solver and size together.
Pixels (y down) and radians; degrees only in the scene file and the UI.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Sequence

import numpy as np

from ikplayground.scene.core import ik_options
from ikplayground.scene.core.constants import (DEFAULT_IK_BONES, DEFAULT_JOINT_LIMIT_DEG, DEFAULT_RATE_DEG, IK_SOLVERS,
                                               MAX_BONES, MAX_RATE_DEG, SOLVER_LABELS, SOLVERS)
from ikplayground.scene.core.field_specs import (IK_FIELDS, RIG_FIELDS, SNAKE_FIELDS, SPECS,  # noqa: F401
                                                WALKER_FIELDS, field_shapes)
from ikplayground.scene.core.settings import KEPT_DEFAULTS
from ikplayground.solvers import FULL_CIRCLE

FULL = (-math.pi, math.pi)
REACH_SLACK = 1e-9  # px: the solvers compare their own error with the tolerance, rounded another way

# what fields["status"] holds, by code: why the shown tip is not on the target (0: it is)
STATUSES = ("reached", "out of reach", "stalled", "iterating", "mixed", "eased")
_ids = itertools.count(1)
NAME_MOST = 32  # characters of a chain's name
MAX_NUMBER = 10**9  # the highest chain number a scene file holds
NAME_BANNED = ',"#'  # a name holds none of these (a CSV cell without quoting; "#" starts a number's name)


def clamped_joints(limits) -> np.ndarray:
    """Which joints the solvers clamp, rather than wrap: ranges ``limits`` (..., 2) rad narrower than
    ``FULL_CIRCLE``; (...) bool.
    """
    limits = np.asarray(limits, dtype=float)
    return (limits[..., 1] - limits[..., 0]) < FULL_CIRCLE


def is_reached(error, tolerance):
    """Whether an end effector ``error`` px from its target is within ``tolerance`` px of it (arrays broadcast)."""
    return error <= tolerance + REACH_SLACK


def checked_rate(degrees, name: str = "rate_limit") -> float:
    """``degrees`` per step as a float if a usable rate limit (finite, > 0, <= ``MAX_RATE_DEG``), else ValueError."""
    try:
        value = float(degrees)
    except (TypeError, ValueError):
        raise ValueError(f"{name}: must be a number of degrees per step (got {degrees!r})") from None
    if not math.isfinite(value) or not 0.0 < value <= MAX_RATE_DEG:
        raise ValueError(f"{name}: must be > 0 and <= {MAX_RATE_DEG:g} degrees per step (got {degrees!r})")
    return value


def checked_name(name) -> str:
    """``name`` as a chain's name (``""``: none, the chain goes by its number), else ValueError saying why.

    A name is 1 to ``NAME_MOST`` printable characters, no space at either end, none of ``NAME_BANNED``.
    """
    if not isinstance(name, str):
        raise ValueError(f"must be a string (got {name!r})")
    if name and (len(name) > NAME_MOST or name != name.strip() or not name.isprintable()
                 or any(ch in NAME_BANNED for ch in name)):
        raise ValueError(f"must be 1 to {NAME_MOST} printable characters without a space at either end, "
                         f"a comma, a double quote or a # (got {name[:40]!r})")
    return name


class Chain:
    """One chain of the playground.

    Parameters
    ----------
    solver : {"two-bone", "ccd", "fabrik", "dls", "snake", "walker", "rig", "rope", "path"}
    fields : dict of str -> ndarray
        Its arrays (``IK_FIELDS`` / ``SNAKE_FIELDS`` / ``WALKER_FIELDS`` / ``RIG_FIELDS`` / ``ROPE_FIELDS`` /
        ``PATH_FIELDS``).
    palette_index : int
    rate_deg, joint_limit : float
        The rate limit's setting (degrees per step, kept while it is off) and the joint limit's (+-degrees).
    preferred_bones : int or None
        The bone count it gets back as a CCD or FABRIK chain (None: its own; a two-bone arm's or a rig's:
        ``DEFAULT_IK_BONES``).
    **options
        The kept settings of :mod:`.settings` by name (missing: the default), plain attributes.
    """

    # the kept settings (settings.KEPT_DEFAULTS), set by name in __init__: declared here for the type checker
    show_limits: bool
    skin: str
    snake_skin: str
    # a rig's target and bone the panel's rig rows act on (the last grabbed, the last clicked): not saved
    current_target: int = 0
    current_bone: int = 0

    def __init__(self, solver: str, fields: dict[str, np.ndarray], palette_index: int = 0,
                 rate_deg: float = DEFAULT_RATE_DEG, joint_limit: float = DEFAULT_JOINT_LIMIT_DEG,
                 preferred_bones: int | None = None, **options):
        if solver not in SOLVERS:
            raise ValueError(f"solver: must be one of {', '.join(SOLVERS)}, got {solver!r}")
        if not options.keys() <= KEPT_DEFAULTS.keys():
            raise TypeError(f"Chain: unknown settings {', '.join(sorted(options.keys() - KEPT_DEFAULTS.keys()))}")
        self.id = next(_ids)  # unique in the process (tests' and caches' key); not shown
        self.number = 0  # the chain's number in its scene, from 1 (0: not numbered yet; Scene.insert numbers it)
        self.name = ""  # the user's name for it ("": none, it goes by its number)
        self.solver = solver
        self.fields = fields
        self.palette_index = palette_index
        for name, default in KEPT_DEFAULTS.items():
            setattr(self, name, options.get(name, default))
        self.rate_deg = rate_deg
        self._joint_limit = min(max(float(joint_limit), 0.0), 180.0)
        if preferred_bones is None:
            preferred_bones = DEFAULT_IK_BONES if solver in ("two-bone", "rig") else self.bones
        self.preferred_bones = int(min(max(preferred_bones, 1), MAX_BONES))
        # (the state before the last mirror flip, the state it made): flipping back restores the first exactly
        self.flip_memo: tuple[dict, dict] | None = None
        self.bone_names: tuple[str, ...] = ()  # a rig's bones' names, in bone order (saved); () for any other

    @classmethod
    def of_rows(cls, solver: str, arrays: dict[str, np.ndarray], rows: Sequence[int], palette_indices: Sequence[int],
                **settings) -> list[Chain]:
        """One chain per row ``rows[i]`` of a group's arrays ``arrays`` (N, ...), as
        ``Chain(solver, {name: row views}, palette_indices[i], **settings)`` each, the arguments checked once.

        A chain's ``fields`` (views of its row, writes land in ``arrays``) are made when first read.
        """
        if not len(rows):
            return []
        proto = cls(solver, {name: a[rows[0]] for name, a in arrays.items()}, 0, **settings)
        rate, at = arrays.get("rate"), np.asarray(rows)
        if rate is not None:  # what the rate_deg setter writes into a chain whose limit is on, every row at once
            rate[at[~np.isinf(rate[at, 0])], 0] = math.radians(proto.rate_deg)
        state = {k: v for k, v in proto.__dict__.items() if k != "fields"}
        made = [object.__new__(cls) for _ in rows]
        for chain, row, palette_index in zip(made, rows, palette_indices):
            chain.__dict__.update(state, id=next(_ids), palette_index=palette_index, _row=(arrays, row))
        return made

    @functools.cached_property
    def fields(self) -> dict[str, np.ndarray]:
        """Its arrays by name (a chain of :meth:`of_rows`: views of its row, made on first use)."""
        arrays, row = self.__dict__.pop("_row")
        return {name: a[row] for name, a in arrays.items()}

    @property
    def tag(self) -> str:
        """Its stable name: the user's name, else ``"#"`` and its number (``"#3"``); kept across solvers."""
        return self.name or f"#{self.number}"

    @property
    def label(self) -> str:
        """How the panel title, the status line and the messages name it: ``"CCD #3"``, ``"two-bone arm"``."""
        return f"{SOLVER_LABELS[self.solver]} {self.tag}"

    @property
    def options(self) -> dict:
        """The kept settings, by name (see the constructor)."""
        return {name: getattr(self, name) for name in KEPT_DEFAULTS}

    def ik_options(self) -> dict:
        """An IK chain's solver options (:mod:`.ik_options`) as keywords of ``make_ik_chain``; {} otherwise."""
        return {} if not self.is_ik else ik_options.read(self.fields)

    @property
    def status(self) -> str:
        """Why the shown tip (a rig: a target's bone) is not on the target, one of ``STATUSES`` ("reached" for a
        snake or walker)."""
        return "reached" if not self.has_targets else STATUSES[int(self.fields["status"][0])]

    @property
    def pole(self):
        """The pole (2,) px, or None (an IK chain without one, a snake, a walker)."""
        if not self.is_ik or math.isnan(self.fields["pole"][0]):
            return None
        return self.fields["pole"]

    def settings(self) -> dict:
        """What the chain remembers across solvers and bone counts (keyword arguments of the constructor)."""
        return {"rate_deg": self.rate_deg, "joint_limit": self._joint_limit, "preferred_bones": self.preferred_bones,
                **self.options}

    def _lengths_shape(self) -> tuple[int, ...]:
        """The shape of ``fields["lengths"]``, without making the fields of a chain of :meth:`of_rows`."""
        lazy = self.__dict__.get("_row") if "fields" not in self.__dict__ else None
        return self.fields["lengths"].shape if lazy is None else lazy[0]["lengths"].shape[1:]

    @property
    def bones(self) -> int:
        return self._lengths_shape()[0]

    @property
    def is_snake(self) -> bool:
        return self.solver == "snake"

    @property
    def is_walker(self) -> bool:
        return self.solver == "walker"

    @property
    def is_rig(self) -> bool:
        """A skeleton of named bones with several targets (:mod:`ikplayground.scene.step.rig_step`)."""
        return self.solver == "rig"

    @property
    def is_rope(self) -> bool:
        """A chain pinned at its root that hangs and swings (:mod:`ikplayground.scene.step.rope_step`)."""
        return self.solver == "rope"

    @property
    def is_path(self) -> bool:
        """A chain whose joints lie along a cubic Bezier curve (:mod:`ikplayground.scene.step.path_step`)."""
        return self.solver == "path"

    @property
    def has_targets(self) -> bool:
        """Solved toward targets, with a rate limit, tolerance and status: an IK chain or a rig."""
        return self.is_ik or self.solver == "rig"

    @property
    def is_ik(self) -> bool:
        """Driven by an IK solver toward a target (not a snake or a walker)."""
        return self.solver in IK_SOLVERS

    @property
    def group_key(self) -> tuple:
        """What chains stepped as one group share: the solver and the shape of the lengths (a rig: and its
        targets)."""
        key = (self.solver,) + self._lengths_shape()
        return key + self.fields["targets"].shape[:1] if self.solver == "rig" else key

    # chain.fields[name] are views: write in place with [...] to keep the group link
    @property
    def anchor(self) -> np.ndarray:
        """The fixed point: the root of an IK chain or a rig, the tail of a snake, a walker's body."""
        if self.is_walker:
            return self.fields["body"]
        return self.fields["root"] if not self.is_snake else self.fields["points"][-1]

    @property
    def tip(self) -> np.ndarray:
        """The end effector of an IK chain, the head of a snake, a walker's body, a rig's first target's bone's end
        (its root without targets)."""
        if self.is_walker:
            return self.fields["body"]
        if self.is_rig:
            bones = self.fields["target_bones"]
            return self.fields["points"][int(bones[0]) + 1] if len(bones) else self.fields["root"]
        return self.fields["points"][-1] if not self.is_snake else self.fields["points"][0]

    def _scalar(self, name: str) -> float:
        return float(self.fields[name][0])

    @property
    def mirror(self) -> bool:
        """Two-bone only: the knee bends to the other side (bend = -1)."""
        return self.is_ik and self._scalar("bend") < 0

    @mirror.setter
    def mirror(self, value: bool) -> None:
        self.fields["bend"][0] = -1.0 if value else 1.0

    @property
    def rate_limit(self) -> float | None:
        """Degrees per step (:attr:`rate_deg`), or None when the rate limit is off."""
        rate = self.fields.get("rate")
        if rate is None or math.isinf(rate[0]):
            return None
        return self._rate_deg

    @rate_limit.setter
    def rate_limit(self, degrees: float | None) -> None:
        """None turns the limit off; a number turns it on at that setting (ValueError: nothing changes)."""
        if degrees is None:
            self.fields["rate"][0] = math.inf
        else:
            self._rate_deg = checked_rate(degrees, "rate_limit")
            self.fields["rate"][0] = math.radians(self._rate_deg)

    @property
    def rate_deg(self) -> float:
        """The rate limit's setting, degrees per step (kept while off; ``fields["rate"]`` follows it)."""
        return self._rate_deg

    @rate_deg.setter
    def rate_deg(self, degrees: float) -> None:
        self._rate_deg = checked_rate(degrees, "rate_deg")
        rate = self.fields.get("rate")
        if rate is not None and not math.isinf(rate[0]):
            rate[0] = math.radians(self._rate_deg)

    @property
    def iterations(self) -> int:
        return int(self.fields["iterations"][0])

    @iterations.setter
    def iterations(self, value: int) -> None:
        self.fields["iterations"][0] = int(value)

    @property
    def tolerance(self) -> float:
        return self._scalar("tolerance")

    @tolerance.setter
    def tolerance(self, value: float) -> None:
        """Set the tolerance (px); ``reached`` follows at once (within the new tolerance)."""
        self.fields["tolerance"][0] = float(value)
        if self.has_targets:
            self.fields["reached"][0] = float(is_reached(self.fields["error"][0], self.fields["tolerance"][0]))

    @property
    def error(self) -> float:
        """End effector to target distance (px; a rig: its worst target's); 0 for a snake or a walker."""
        return 0.0 if not self.has_targets else self._scalar("error")

    def set_joint_limit(self, degrees: float) -> None:
        """Limit every joint but the first to +-``degrees`` (CCD and FABRIK), and keep that setting."""
        self._joint_limit = float(degrees)
        r = math.radians(degrees)
        lim = self.fields["limits"]
        lim[1:, 0] = -r
        lim[1:, 1] = r
        for name in ("angles", "goal"):
            a = self.fields[name]
            a[1:] = np.clip(a[1:], -r, r)

    @property
    def joint_limit(self) -> float:
        """The joint-limit setting in degrees: the +-range joints 1..n-1 get (also while there are none)."""
        return self._joint_limit
