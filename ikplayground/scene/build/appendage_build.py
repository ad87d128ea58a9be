"""A rig's appendages (tails, ears, a ponytail) from a recipe, checked: what :func:`.rig_build.make_rig` takes.

An appendage (:mod:`ikplayground.scene.step.appendages`) hangs from a point on one of the rig's bones: a chain
of jiggle bones as Godot's jiggle bones and Spine 4.2's physics constraints have. Pixels, y down, radians.
"""

from __future__ import annotations

import numpy as np

from ikplayground.scene.core.constants import APPENDAGE_BONES, APPENDAGE_SLOTS, MAX_COORD

MIN_BONES = 1
KEYS = ("bone", "at", "angle", "lengths", "rest", "gravity")


def checked(appendages, n: int) -> list[dict]:
    """``appendages`` (None or up to ``APPENDAGE_SLOTS`` dicts: ``bone`` 0..n-1, ``at`` (along, across) px,
    ``angle`` rad from the bone's direction, ``lengths`` 1..``APPENDAGE_BONES`` px > 0, optional ``rest`` (one
    relative angle a bone, rad; bone 0's 0 is ``angle``) and ``gravity`` px/s^2 down) as dicts of float arrays;
    ValueError naming what is wrong."""
    if appendages is None:
        return []
    items = list(appendages)
    if len(items) > APPENDAGE_SLOTS:
        raise ValueError(f"appendages: at most {APPENDAGE_SLOTS} (got {len(items)})")
    out = []
    for j, a in enumerate(items):
        where = f"appendages[{j}]"
        if not isinstance(a, dict) or not set(a) <= set(KEYS):
            raise ValueError(f"{where}: must be a dict of {', '.join(KEYS)} (got {a!r:.60})")
        bone = a.get("bone")
        if isinstance(bone, bool) or not isinstance(bone, (int, np.integer)) or not 0 <= int(bone) < n:
            raise ValueError(f"{where}.bone: must be a bone, 0 to {n - 1} (got {bone!r})")
        lengths = _numbers(a.get("lengths"), f"{where}.lengths")
        if not MIN_BONES <= len(lengths) <= APPENDAGE_BONES or not (lengths > 0).all():
            raise ValueError(f"{where}.lengths: must be {MIN_BONES} to {APPENDAGE_BONES} lengths > 0 px")
        rest = np.zeros(len(lengths)) if a.get("rest") is None else _numbers(a["rest"], f"{where}.rest")
        if len(rest) != len(lengths):
            raise ValueError(f"{where}.rest: must have {len(lengths)} angles, one a bone (got {len(rest)})")
        at = _numbers(a.get("at", (0.0, 0.0)), f"{where}.at")
        if at.shape != (2,):
            raise ValueError(f"{where}.at: must be (along, across) px")
        out.append({"bone": int(bone), "at": at, "angle": float(_numbers([a.get("angle", 0.0)], f"{where}.angle")[0]),
                    "lengths": lengths, "rest": rest,
                    "gravity": float(_numbers([a.get("gravity", 0.0)], f"{where}.gravity")[0])})
    return out


def _numbers(value, name: str) -> np.ndarray:
    try:
        arr = np.array(value, dtype=float).reshape(-1)
    except (TypeError, ValueError):
        raise ValueError(f"{name}: must be numbers (got {value!r:.60})") from None
    if not np.isfinite(arr).all() or (np.abs(arr) > MAX_COORD).any():
        raise ValueError(f"{name}: must be finite numbers within +-{MAX_COORD:g}")
    return arr


def put(f: dict[str, np.ndarray], appendages: list[dict]) -> None:
    """One rig's appendage fields from :func:`checked`'s dicts, in place (the slots after them empty)."""
    for slot, a in enumerate(appendages):
        k = len(a["lengths"])
        f["app_bone"][slot] = a["bone"]
        f["app_at"][slot] = a["at"]
        f["app_angle"][slot] = a["angle"]
        f["app_lengths"][slot, :k] = a["lengths"]
        f["app_rest"][slot, :k] = a["rest"]
        f["app_gravity"][slot] = a["gravity"]


def taken(f: dict[str, np.ndarray]) -> list[dict]:
    """One rig's appendages as :func:`checked` takes them (its fields ``f``), rest angle 0 of bone 0 left out."""
    out = []
    for slot in np.flatnonzero(f["app_lengths"][:, 0] > 0.0).tolist():
        k = int((f["app_lengths"][slot] > 0.0).sum())
        out.append({"bone": int(f["app_bone"][slot]), "at": f["app_at"][slot].copy(),
                    "angle": float(f["app_angle"][slot]), "lengths": f["app_lengths"][slot, :k].copy(),
                    "rest": f["app_rest"][slot, :k].copy(), "gravity": float(f["app_gravity"][slot])})
    return out


def tapered(count: int, first: float, last: float) -> np.ndarray:
    """``count`` bone lengths (px) from ``first`` to ``last``, evenly."""
    return np.linspace(first, last, count)


def ponytail(head: int, head_length: float) -> list[dict]:
    """A humanoid's ponytail: four bones from the back of the top of its head (bone ``head``), hanging back and
    down under gravity."""
    return [{"bone": head, "at": (0.85 * head_length, -0.35 * head_length), "angle": -2.3,
             "lengths": tapered(4, 0.45 * head_length, 0.3 * head_length), "rest": (0.0, -0.25, -0.2, -0.15),
             "gravity": 700.0}]


def ears_and_tail(head: int, head_length: float, tail: int, tail_length: float) -> list[dict]:
    """A quadruped's two ears (two bones each, up and back from the top of its head, bone ``head``) and a tuft of
    four bones swinging on the end of its tail (bone ``tail``), a little gravity on it."""
    ear = tapered(2, 0.3 * head_length, 0.22 * head_length)
    return [{"bone": head, "at": (0.15 * head_length, -0.28 * head_length), "angle": -1.9 - 0.25 * side,
             "lengths": ear, "rest": (0.0, 0.3), "gravity": 0.0} for side in (0, 1)] + [
        {"bone": tail, "at": (tail_length, 0.0), "angle": 0.25, "lengths": tapered(4, 0.6, 0.35) * tail_length,
         "rest": (0.0, 0.15, 0.15, 0.15), "gravity": 400.0}]

