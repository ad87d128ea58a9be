"""Making walkers (the procedural walk of :mod:`ikplayground.scene.step.walker`): body, legs' layout, gait groups.

A leg has two bones (thigh, shin) or three (and a tarsus: a two-bone leg's
lengths split as ``SPLIT``). Hips spread along the body, the feet's rest spots
wider, as a spider's; alternate legs form the two gait groups; two antennae
jiggle on the front of its head (:mod:`ikplayground.scene.step.appendages`). A new walker's
first step plants its feet on the terrain (``settled`` 0). Pixels, y down, radians.
"""

from __future__ import annotations

import math
from typing import cast

import numpy as np

from ikplayground.scene.build.build_batch import empty_fields
from ikplayground.scene.core.chain import Chain, checked_rate
from ikplayground.scene.core.constants import MAX_WALKER_LEGS, WALKER_LEG, WALKER_LEGS
from ikplayground.scene.core.settings import field_settings
from ikplayground.scene.step.appendages import rest_pose
from ikplayground.scene.step.walker import RIDE, solve_legs

# the settings kept in a one-number field, by field (a keyword of make_walker each)
OPTIONS = {cast(str, s.field): s for s in field_settings("walker")}
MIN_WALKER_LEGS = 2
LEG_BONES = (2, 3)  # a leg's bones: the two-bone formula, or CCD
SPLIT = (0.45, 0.35, 0.3)  # a three-bone leg's bones, as shares of a two-bone leg's thigh + shin
BODY = 0.2  # hips lie within +- this share of a leg's reach of the body's centre
SPREAD = 0.62  # feet rest within +- this share of the reach of it
# its antennae: from the front of its head (shares of the reach ahead of the body's centre, and down), up and ahead
# (rad from the body's direction, facing +x: each antenna's), bones (count, share of the reach each), each joint
# bending forward by ANTENNA_BEND rad
ANTENNA_AT = (0.27, -0.04)
ANTENNA_ANGLES = (-1.05, -0.8)
ANTENNA_BONES = (4, 0.085)
ANTENNA_BEND = 0.14


def lay_out(f: dict[str, np.ndarray]) -> None:
    """Hips, rest spots, gait groups and antennae of one walker's fields, in place; its feet hang until its first
    step."""
    n, m = f["lengths"].shape
    reach = float(f["lengths"].sum(axis=1).mean())
    u = np.linspace(-1.0, 1.0, n)
    f["hips"][:, 0] = u * BODY * reach
    f["hips"][:, 1] = 0.0
    f["home"][:] = u * SPREAD * reach
    f["gait"][:] = np.arange(n) % 2
    body = f["body"]
    f["foot"][:, 0] = body[0] + f["home"]
    f["foot"][:, 1] = body[1] + RIDE * reach
    f["step_from"][:] = f["foot"]
    f["step_to"][:] = f["foot"]
    f["state"][:] = 0.0
    f["progress"][:] = 0.0
    f["settled"][0] = 0.0
    if m == 3:  # CCD starts from a bent leg: thigh up and out, shin down, tarsus on
        out = np.where(f["home"] < 0, -1.0, 1.0)
        f["angles"][:, 0] = np.where(out > 0, -1.0, 1.0 - np.pi)
        f["angles"][:, 1] = 1.9 * out
        f["angles"][:, 2] = 0.5 * out
    group = {k: v[None] for k, v in f.items()}
    solve_legs(group)
    antennae(f)  # sized to its legs as they are now
    rest_pose(group)


def antennae(f: dict[str, np.ndarray]) -> None:
    """One walker's two antennae (its appendages, facing as it does), in place: sizes from its legs' reach."""
    reach = float(f["lengths"].sum(axis=1).mean())
    facing = 1.0 if f["facing"][0] > 0 else -1.0
    bones, share = ANTENNA_BONES
    for slot, angle in enumerate(ANTENNA_ANGLES):
        f["app_at"][slot] = (facing * ANTENNA_AT[0] * reach, ANTENNA_AT[1] * reach)
        f["app_angle"][slot] = angle if facing > 0 else -np.pi - angle  # the mirror's heading
        f["app_lengths"][slot, :bones] = share * reach
        f["app_rest"][slot, 1:bones] = facing * ANTENNA_BEND


def leg_lengths(lengths, leg_bones: int) -> np.ndarray:
    """A leg's ``leg_bones`` lengths (px) from 2 or 3 ``lengths`` (split or joined as ``SPLIT``); else ValueError."""
    pair = np.asarray(lengths, dtype=float).reshape(-1)
    if pair.shape not in ((2,), (3,)) or not np.all(pair > 0) or not np.isfinite(pair).all():
        raise ValueError(f"lengths: must be two or three lengths > 0 px (got {lengths!r})")
    if len(pair) == leg_bones:
        return pair
    if leg_bones == 3:
        return pair.sum() * np.array(SPLIT)
    return pair.sum() / sum(SPLIT) * np.array(WALKER_LEG) / sum(WALKER_LEG)


def make_walker(body, *, legs: int = WALKER_LEGS, lengths=WALKER_LEG, leg_bones: int = 2, facing: float = 1.0,
                palette_index: int = 0, posed: bool = True, rate_limit: float | None = None, **settings) -> Chain:
    """A walker whose body's centre is at ``body`` (2,) px.

    Parameters
    ----------
    legs : int
        2 .. ``MAX_WALKER_LEGS``; ``leg_bones``: 2 or 3 (else ValueError).
    lengths : 2 or 3 floats, px > 0 (see :func:`leg_lengths`)
    facing : float
        The way it walks on its own: > 0 right, else left.
    rate_limit : float or None
        The most a leg's joint turns in a step, degrees (> 0, <= 180, else ValueError); None: off. On, it is
        the rate limit's setting (``rate_deg``) too.
    posed : bool
        Lay the legs out (:func:`lay_out`); False leaves the angles and points 0.
    **settings
        Its settings by field (``threshold``, ``step_height`` px, ``speed`` px/step, ``auto``:
        :data:`OPTIONS`; missing or None: the default), and what the chain keeps (:class:`Chain`).
    """
    legs = int(legs)
    if not MIN_WALKER_LEGS <= legs <= MAX_WALKER_LEGS:
        raise ValueError(f"legs: must be between {MIN_WALKER_LEGS} and {MAX_WALKER_LEGS} (got {legs})")
    if leg_bones not in LEG_BONES:
        raise ValueError(f"leg_bones: must be 2 or 3 (got {leg_bones!r})")
    pair = leg_lengths(lengths, int(leg_bones))
    f = empty_fields("walker", legs, len(pair))
    f["body"][:] = body
    f["lengths"][:] = pair
    f["facing"][0] = 1.0 if facing > 0 else -1.0
    f["rate"][0] = math.inf if rate_limit is None else math.radians(checked_rate(rate_limit))
    if rate_limit is not None:
        settings["rate_deg"] = rate_limit
    for field, s in OPTIONS.items():
        value = settings.pop(field, None)
        f[field][0] = s.default if value is None else s.field_type(value)
    antennae(f)
    if posed:
        lay_out(f)
    return Chain("walker", f, palette_index=palette_index, **settings)


def walker_kw(chain: Chain) -> dict:
    """The keyword arguments of :func:`make_walker` that rebuild ``chain`` (a walker) as it is set."""
    f = chain.fields
    return {"lengths": f["lengths"][0].copy(), "leg_bones": f["lengths"].shape[1], "facing": float(f["facing"][0]),
            "rate_limit": chain.rate_limit,
            **{field: s.field_type(f[field][0]) for field, s in OPTIONS.items()}, "palette_index": chain.palette_index}


def with_leg_bones(chain: Chain, m: int) -> Chain:
    """``chain`` (a walker) rebuilt with legs of ``m`` bones (:func:`leg_lengths`), where it stands, as it is set."""
    kw = walker_kw(chain)
    kw["lengths"] = leg_lengths(kw["lengths"], m)
    kw["leg_bones"] = m
    return make_walker(chain.fields["body"].copy(), legs=chain.bones, **kw, **chain.settings())


def walker_line(chain: Chain) -> np.ndarray:
    """What another solver's chain made from a walker lies along: (2, 2) px, from the body straight up a leg's reach."""
    body = chain.fields["body"]
    reach = float(chain.fields["lengths"].sum(axis=1).mean())
    return np.array([body, (body[0], body[1] - reach)], dtype=float)


def walker_from(anchor, palette_index: int, settings: dict) -> Chain:
    """A default walker with its body at ``anchor`` (another chain converted to a walker)."""
    anchor = np.asarray(anchor, dtype=float)
    if not np.isfinite(anchor).all() or np.abs(anchor).max() > 1e6:
        anchor = np.zeros(2)
    return make_walker(anchor, palette_index=palette_index, **settings)


def leg_count(n) -> int:
    """``n`` legs clamped to the walker's range."""
    return int(min(max(int(n), MIN_WALKER_LEGS), MAX_WALKER_LEGS)) if math.isfinite(n) else WALKER_LEGS
