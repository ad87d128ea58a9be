"""The solver options of an IK chain that live in its arrays: pole, mix, softness, stretch, auto bend, damping.

Each is a keyword of :func:`~ikplayground.scene.build.build.make_ik_chain` and
a field of ``IK_FIELDS``. The one-number options are the IK rows of the
settings table with a ``field`` (:data:`OPTION_SETTINGS`); the others are the
``pole`` (2,) px, NaN for none (:mod:`ikplayground.solvers.pole`) and the
``motion`` of :mod:`ikplayground.scene.step.target_paths` (a dict, or None).
Sources: Spine's mix, softness and stretch, the raylib demo's autoBend.
Pixels (y down), radians.
"""

from __future__ import annotations

import math
from typing import cast

import numpy as np

from ikplayground.scene.core.constants import IK_SOLVERS
from ikplayground.scene.core.settings import SETTINGS, fill_fields
from ikplayground.scene.step import target_paths
from ikplayground.solvers import limit_headings

# the one-number options: the settings of IK solvers kept as they are in a field of the chain
OPTION_SETTINGS = tuple(s for s in SETTINGS if s.field is not None and any(s.applies(k) for k in IK_SOLVERS))
# keyword -> default (a chain without the keyword gets it)
DEFAULTS = {"pole": None, **{s.field: s.default for s in OPTION_SETTINGS}, "motion": None}
REST_ANGLE = -math.pi / 2  # the rest pose: straight up from the root (y down)


def fill(f: dict[str, np.ndarray], col) -> None:
    """Set the option fields of a group's arrays ``f`` (leading axis: one row per chain) from ``col(keyword,
    default)``: the keyword's one value for every row, or a list of a value a row (None: not given)."""
    pole = col("pole")
    f["pole"][:] = ([(math.nan, math.nan) if p is None else p for p in pole] if isinstance(pole, list)
                    else (math.nan, math.nan) if pole is None else pole)
    fill_fields(f, OPTION_SETTINGS, col)
    f["side"][:, 0] = 1.0
    f["scale"][:, 0] = 1.0
    motion = col("motion")
    target_paths.fill(f, motion if isinstance(motion, list) else [] if motion is None else [motion] * len(f["pole"]))


def read(fields: dict[str, np.ndarray]) -> dict:
    """One chain's options as keywords of ``make_ik_chain`` (what a conversion or a new bone count keeps)."""
    pole = fields["pole"]
    return {"pole": None if math.isnan(pole[0]) else pole.tolist(),
            **{s.field: s.field_type(fields[cast(str, s.field)][0]) for s in OPTION_SETTINGS},
            "motion": target_paths.read(fields)}


def split(options: dict) -> tuple[dict, dict]:
    """``options`` parted into (these options, the rest)."""
    mine = {k: v for k, v in options.items() if k in DEFAULTS}
    return mine, {k: v for k, v in options.items() if k not in DEFAULTS}


def rest_pose(limits: np.ndarray) -> np.ndarray:
    """The rest pose (N, n) rad for ranges ``limits`` (N, n, 2): straight up from the root, inside each range."""
    rest = np.clip(np.zeros(limits.shape[:-1]), limits[..., 0], limits[..., 1])
    rest[:, 0] = limit_headings(np.full(len(rest), REST_ANGLE), limits[:, 0, 0], limits[:, 0, 1])
    return rest
