"""Making walkers (the procedural walk of :mod:`.walker`): the body, the legs' layout, the gait groups.

A walker of ``legs`` legs, each a thigh and a shin (px): hips spread evenly
along the body (a quarter of a leg's reach either side of the centre), the
feet's rest spots spread wider (three quarters of the reach either side), so
the legs splay out as a spider's; alternate legs along the body form the two
gait groups. A new walker is not yet on the ground: its first step plants its
feet on the scene's terrain (``settled`` 0). Pixels, y down, radians.
"""

from __future__ import annotations

import math

import numpy as np

from .chain import Chain, field_shapes
from .constants import (MAX_WALKER_LEGS, WALKER_LEG, WALKER_LEGS, WALKER_SPEED, WALKER_STEP_HEIGHT,
                        WALKER_THRESHOLD)
from .walker import RIDE, solve_legs

MIN_WALKER_LEGS = 2
BODY = 0.2  # hips lie within +- this share of a leg's reach of the body's centre
SPREAD = 0.62  # feet rest within +- this share of the reach of it


def lay_out(f: dict[str, np.ndarray]) -> None:
    """Hips, rest spots and gait groups of one walker's fields from its leg lengths, in place;
    its feet hang below the hips until its first step plants them (``settled`` 0)."""
    n = f["lengths"].shape[0]
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
    solve_legs({k: v[None] for k, v in f.items()})


def make_walker(body, *, legs: int = WALKER_LEGS, lengths=WALKER_LEG, facing: float = 1.0,
                threshold: float = WALKER_THRESHOLD, step_height: float = WALKER_STEP_HEIGHT,
                speed: float = WALKER_SPEED, auto_walk: bool = True, palette_index: int = 0, **settings) -> Chain:
    """A walker whose body's centre is at ``body`` (2,) px.

    Parameters
    ----------
    legs : int
        2 .. ``MAX_WALKER_LEGS`` (else ValueError).
    lengths : (float, float)
        Every leg's thigh and shin, px > 0.
    facing : float
        The way it walks on its own: > 0 right, else left.
    threshold, step_height, speed : float
        px, px, px per step (see :mod:`.walker`).
    auto_walk : bool
        Walk back and forth on its own when no arrow key drives it.
    **settings
        What the chain keeps for a later conversion (see :class:`Chain`).
    """
    legs = int(legs)
    if not MIN_WALKER_LEGS <= legs <= MAX_WALKER_LEGS:
        raise ValueError(f"legs: must be between {MIN_WALKER_LEGS} and {MAX_WALKER_LEGS} (got {legs})")
    pair = np.asarray(lengths, dtype=float).reshape(-1)
    if pair.shape != (2,) or not np.all(pair > 0) or not np.isfinite(pair).all():
        raise ValueError(f"lengths: must be two lengths > 0 px (got {lengths!r})")
    f = {name: np.zeros(shape) for name, shape in field_shapes("walker", legs).items()}
    f["body"][:] = body
    f["lengths"][:] = pair
    f["facing"][0] = 1.0 if facing > 0 else -1.0
    f["threshold"][0] = threshold
    f["step_height"][0] = step_height
    f["speed"][0] = speed
    f["auto"][0] = 1.0 if auto_walk else 0.0
    lay_out(f)
    return Chain("walker", f, palette_index=palette_index, **settings)


def walker_kw(chain: Chain) -> dict:
    """The keyword arguments of :func:`make_walker` that rebuild ``chain`` (a walker) as it is set."""
    f = chain.fields
    return {"lengths": f["lengths"][0].copy(), "facing": float(f["facing"][0]), "threshold": float(f["threshold"][0]),
            "step_height": float(f["step_height"][0]), "speed": float(f["speed"][0]),
            "auto_walk": bool(f["auto"][0] > 0), "palette_index": chain.palette_index}


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
