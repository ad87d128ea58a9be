"""The solver options of an IK chain that live in its arrays: pole, mix, softness, stretch, auto bend, damping.

Each is a keyword of :func:`~ikplayground.scene.build.make_ik_chain` (and of
:func:`~ikplayground.scene.build_batch.make_ik_chains`) and one field of the
chain (``IK_FIELDS`` in :mod:`.chain`), so a group's step reads them as arrays:

* ``pole`` (2,) px, or NaN when the chain has none: the side it bends toward
  (:mod:`ikplayground.solvers.pole`, and the two-bone solver's ``pole``);
* ``mix`` 0..1: the rest pose (:func:`rest_pose`) blended with the IK pose
  (Spine's mix, Unity's weight);
* ``softness`` px and ``stretch`` (x): the two-bone arm's soft reach and
  largest bone scale (Spine's two-bone softness and stretch);
* ``auto_bend`` 0 or 1: the two-bone knee's side follows the target (the
  raylib demo's autoBend), with hysteresis (:mod:`.motion`);
* ``damping``: the DLS solver's damping factor;
* ``motion``: the animated target (:mod:`.target_motion`), a dict of its
  path, speed and size (and state), or None for none.

The defaults are the settings table's (:mod:`.settings`), where the panel, the
file and the help find them. Pixels (y down), radians.
"""

from __future__ import annotations

import math

import numpy as np

from ikplayground.solvers import limit_headings

from . import target_motion
from .constants import DEFAULT_DAMPING

# keyword -> default (a chain without the keyword gets it)
DEFAULTS = {"pole": None, "mix": 1.0, "softness": 0.0, "stretch": 1.0, "auto_bend": False,
            "damping": DEFAULT_DAMPING, "motion": None}
REST_ANGLE = -math.pi / 2  # the rest pose: straight up from the root (y down)


def fill(f: dict[str, np.ndarray], kws: list[dict]) -> None:
    """Set the option fields of a group's arrays ``f`` (leading axis: one row per chain) from ``kws``."""
    f["pole"][:] = [(math.nan, math.nan) if kw.get("pole") is None else kw["pole"] for kw in kws]
    for name in ("mix", "softness", "stretch", "damping"):
        f[name][:, 0] = [DEFAULTS[name] if kw.get(name) is None else kw[name] for kw in kws]
    f["auto_bend"][:, 0] = [bool(kw.get("auto_bend", False)) for kw in kws]
    f["side"][:, 0] = 1.0
    f["scale"][:, 0] = 1.0
    target_motion.fill(f, [kw.get("motion") for kw in kws])


def read(fields: dict[str, np.ndarray]) -> dict:
    """One chain's options as keywords of ``make_ik_chain`` (what a conversion or a new bone count keeps)."""
    pole = fields["pole"]
    return {"pole": None if math.isnan(pole[0]) else pole.tolist(), "mix": float(fields["mix"][0]),
            "softness": float(fields["softness"][0]), "stretch": float(fields["stretch"][0]),
            "auto_bend": bool(fields["auto_bend"][0]), "damping": float(fields["damping"][0]),
            "motion": target_motion.read(fields)}


def split(options: dict) -> tuple[dict, dict]:
    """``options`` parted into (these options, the rest)."""
    mine = {k: v for k, v in options.items() if k in DEFAULTS}
    return mine, {k: v for k, v in options.items() if k not in DEFAULTS}


def rest_pose(limits: np.ndarray) -> np.ndarray:
    """The rest pose of chains with joint ranges ``limits`` (N, n, 2) rad: straight up from the root,
    each angle put inside its range (joint 0's heading at the bound nearer round the circle, so that
    a mirror-flipped chain rests as the mirror image). Shape (N, n), radians."""
    rest = np.clip(np.zeros(limits.shape[:-1]), limits[..., 0], limits[..., 1])
    rest[:, 0] = limit_headings(np.full(len(rest), REST_ANGLE), limits[:, 0, 0], limits[:, 0, 1])
    return rest


POLE_OFFSET = 0.5  # a new pole stands this share of the chain's reach off the root-target line


def pole_beside(fields: dict[str, np.ndarray]) -> np.ndarray:
    """Where a chain's new pole goes: beside the middle of its root-target line, on the side the chain
    bends now (its inner joints' signed distances summed; a straight chain: its +-y normal's upper side).

    Parameters
    ----------
    fields : dict of str -> ndarray
        One IK chain's fields (``root``, ``target``, ``points``, ``lengths``).

    Returns
    -------
    ndarray, shape (2,)
        px (y down), not yet kept on the stage.
    """
    root, target, pts = fields["root"], fields["target"], fields["points"]
    u = target - root
    dist = float(np.hypot(*u))
    u = u / dist if dist > 0 else np.array((0.0, -1.0))
    normal = np.array((-u[1], u[0]))  # cross(u, normal) = 1: the positive side
    inner = pts[1:-1] - root
    bend = float((u[0] * inner[:, 1] - u[1] * inner[:, 0]).sum())
    side = 1.0 if bend > 0 or (bend == 0 and normal[1] < 0) else -1.0
    reach = float(fields["lengths"].sum())
    return root + u * min(dist, reach) / 2 + side * normal * POLE_OFFSET * reach
