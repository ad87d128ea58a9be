"""A chain in the scene: its solver, geometry, parameters and per-step state.

A chain keeps every number the step needs in small numpy arrays (``fields``).
When the scene groups chains of one solver and bone count for a batched step,
those arrays become views into the group's big arrays, so a chain and its group
always agree without copying back and forth. Everything is in pixels (y down)
and radians; degrees appear only in :mod:`ikplayground.scene.files` and the UI.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

SOLVERS = ("two-bone", "ccd", "fabrik", "snake")
IK_SOLVERS = ("two-bone", "ccd", "fabrik")
SOLVER_LABELS = {"two-bone": "two-bone", "ccd": "CCD", "fabrik": "FABRIK", "snake": "snake"}

FULL = (-math.pi, math.pi)
DEFAULT_RATE_DEG = 3.0  # the pygame CCD tutorial: +-3 degrees per frame
DEFAULT_JOINT_LIMIT_DEG = 45.0
SNAKE_SEGMENT = 40.0  # the Flash snake tutorial
SNAKE_BEND_DEG = 30.0  # the Flash snake tutorial
SNAKE_MAX_SPEED = 10.0  # the Flash snake tutorial: px per step
SNAKE_TURN_DEG = 5.0  # the Flash snake tutorial: degrees per step
SNAKE_ACCEL = 1.0  # the Flash snake tutorial: px per step per step
SNAKE_DECAY = 0.8  # the Flash snake tutorial: speed factor per step without throttle
MAX_BONES = 64

# Per-kind array fields: name -> shape, with "n" the bone count.
IK_FIELDS = {
    "root": (2,), "target": (2,), "lengths": ("n",), "angles": ("n",), "limits": ("n", 2),
    "rate": (1,), "bend": (1,), "iterations": (1,), "tolerance": (1,),
    "points": ("n+1", 2), "error": (1,), "reached": (1,),
    # the solver's own last answer: the next solve starts from it, and the shown
    # angles (rate-limited) move toward it
    "goal": ("n",),
}
SNAKE_FIELDS = {
    "points": ("n+1", 2), "lengths": ("n",), "heading": (1,), "speed": (1,),
    "bend_limits": (2,), "max_speed": (1,), "turn_rate": (1,), "throttle": (1,), "turn": (1,),
}

_ids = itertools.count(1)


def field_shapes(kind: str, n: int) -> dict[str, tuple[int, ...]]:
    """Concrete array shapes of a chain's fields for ``n`` bones."""
    spec = SNAKE_FIELDS if kind == "snake" else IK_FIELDS
    size = {"n": n, "n+1": n + 1}
    return {name: tuple(size.get(d, d) for d in shape) for name, shape in spec.items()}


class Chain:
    """One chain of the playground.

    Parameters
    ----------
    kind : {"two-bone", "ccd", "fabrik", "snake"}
        The solver that drives it.
    fields : dict of str -> ndarray
        Its arrays (see ``IK_FIELDS`` / ``SNAKE_FIELDS``).
    colour : int
        Index into the renderer's palette.
    rate_deg : float
        The rate-limit slider's value in degrees per step, kept while the
        limit is off so that turning it on again restores it.
    """

    def __init__(self, kind: str, fields: dict[str, np.ndarray], colour: int = 0, rate_deg: float = DEFAULT_RATE_DEG):
        if kind not in SOLVERS:
            raise ValueError(f"solver: must be one of {', '.join(SOLVERS)}, got {kind!r}")
        self.id = next(_ids)
        self.kind = kind
        self.fields = fields
        self.colour = colour
        self.rate_deg = rate_deg

    # --- shape -----------------------------------------------------------------
    @property
    def bones(self) -> int:
        return self.fields["lengths"].shape[0]

    @property
    def is_snake(self) -> bool:
        return self.kind == "snake"

    @property
    def group_key(self) -> tuple[str, int]:
        return self.kind, self.bones

    # --- arrays (views; write in place with [...] to keep the group link) -----
    def __getattr__(self, name):
        fields = self.__dict__.get("fields")
        if fields is not None and name in fields:
            return fields[name]
        raise AttributeError(name)

    @property
    def anchor(self) -> np.ndarray:
        """The fixed point: the root of an IK chain, the tail of a snake."""
        return self.fields["root"] if not self.is_snake else self.fields["points"][-1]

    @property
    def tip(self) -> np.ndarray:
        """The end effector of an IK chain, the head of a snake."""
        return self.fields["points"][-1] if not self.is_snake else self.fields["points"][0]

    # --- scalar parameters -----------------------------------------------------
    def _scalar(self, name: str) -> float:
        return float(self.fields[name][0])

    @property
    def mirror(self) -> bool:
        """Two-bone only: the knee bends to the other side (bend = -1)."""
        return not self.is_snake and self._scalar("bend") < 0

    @mirror.setter
    def mirror(self, value: bool) -> None:
        self.fields["bend"][0] = -1.0 if value else 1.0

    @property
    def rate_limit(self) -> float | None:
        """Degrees per step, or None when the rate limit is off."""
        if self.is_snake:
            return None
        r = self._scalar("rate")
        return None if math.isinf(r) else math.degrees(r)

    @rate_limit.setter
    def rate_limit(self, degrees: float | None) -> None:
        if degrees is None:
            self.fields["rate"][0] = math.inf
        else:
            self.rate_deg = float(degrees)
            self.fields["rate"][0] = math.radians(degrees)

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
        self.fields["tolerance"][0] = float(value)

    @property
    def error(self) -> float:
        """End effector to target distance (px); 0 for a snake."""
        return 0.0 if self.is_snake else self._scalar("error")

    def set_joint_limit(self, degrees: float) -> None:
        """Limit every joint but the first to +-``degrees`` (CCD and FABRIK)."""
        r = math.radians(degrees)
        lim = self.fields["limits"]
        lim[1:, 0] = -r
        lim[1:, 1] = r
        for name in ("angles", "goal"):
            a = self.fields[name]
            a[1:] = np.clip(a[1:], -r, r)

    @property
    def joint_limit(self) -> float:
        """The +-range of joints 1..n-1 in degrees (the widest one)."""
        lim = self.fields["limits"]
        if lim.shape[0] < 2:
            return 180.0
        return math.degrees(float(np.max(lim[1:, 1])))

    def set_bend_range(self, degrees: float) -> None:
        """Snake only: bend range +-``degrees`` at every inner node."""
        r = math.radians(degrees)
        self.fields["bend_limits"][:] = (-r, r)
