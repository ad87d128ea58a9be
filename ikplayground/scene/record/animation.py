"""The keyframe file (``"format": "ikplayground-animation"``): its constants and its reader.

``bake.bake_recording`` writes it; :func:`load_animation` reads it back as
:class:`AnimationTrack` records of numpy arrays, checked, ready for forward
kinematics (``ikplayground.solvers.forward_kinematics(root,
np.radians(angles), lengths * scale)``). docs/animation-format.md gives
every key.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import NamedTuple

import numpy as np

FORMAT = "ikplayground-animation"
VERSION = 1
FPS = 60  # the scene's fixed step: a frame is one step of 1/60 s
UNITS = ("lengths and positions in stage pixels, origin top-left, y down; angles in degrees, measured as "
         "atan2(dy, dx) on screen (positive turns clockwise), angles[0] absolute (a walker: each leg's first), "
         "the others relative to the bone before")


class AnimationTrack(NamedTuple):
    """One track of a keyframe file, as arrays (F frames; n bones, or a walker's legs x m bones).

    ``lengths`` (n,) or (legs, m) px, NaN where unknown (bone 0, then
    ``roots`` is None); ``angles`` (F, n) or (F, legs, m) degrees; ``roots``
    (F, 2) or (F, legs, 2) px; ``targets`` (F, 2) px; ``scales`` (F,) the bones'
    stretch (a two-bone arm's; 1 for every other chain). Frame k's bones are
    ``lengths * scales[k]``.
    """

    chain: int
    solver: str
    first_step: int
    steps: np.ndarray
    lengths: np.ndarray
    angles: np.ndarray
    roots: np.ndarray | None
    targets: np.ndarray
    scales: np.ndarray
    note: str


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not a number JSON allows")


def _array(value, what: str, shape: tuple[int, ...], finite: bool = True) -> np.ndarray:
    try:
        a = np.array(value, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{what} must be numbers") from None
    if a.shape != shape:
        raise ValueError(f"{what} must have the shape {shape} (got {a.shape})")
    if finite and not np.isfinite(a).all():
        raise ValueError(f"{what} must be finite numbers")
    return a


def _track(t, name: str) -> AnimationTrack:
    if not isinstance(t, dict):
        raise ValueError(f"{name}: must be an object")
    for key in ("chain", "solver", "first_step", "frames", "lengths", "steps", "angles", "roots", "targets"):
        if key not in t:
            raise ValueError(f"{name}: has no {key!r}")
    frames = t["frames"]
    if not isinstance(frames, int) or isinstance(frames, bool) or frames < 0:
        raise ValueError(f"{name}: frames must be a whole number >= 0")
    walker = t["solver"] == "walker"
    try:
        lengths = np.array(t["lengths"], dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name}: lengths must be numbers (null for an unknown bone 0)") from None
    if lengths.ndim != (2 if walker else 1) or lengths.size == 0:
        raise ValueError(f"{name}: lengths must be a list of {'legs, each a list of bones' if walker else 'bones'}")
    if not (np.isfinite(lengths[..., 1:]).all() and (lengths[..., 1:] > 0).all()
            and (np.isnan(lengths[..., 0]) | (lengths[..., 0] > 0)).all()):
        raise ValueError(f"{name}: lengths must be > 0 px (null only for bone 0)")
    steps = _array(t["steps"], f"{name}: steps", (frames,))
    angles = _array(t["angles"], f"{name}: angles", (frames, *lengths.shape))
    roots = t["roots"]
    if roots is not None:
        roots = _array(roots, f"{name}: roots", (frames, *lengths.shape[:-1], 2))
    elif not np.isnan(lengths).any():
        raise ValueError(f"{name}: roots is null but every bone length is known")
    targets = _array(t["targets"], f"{name}: targets", (frames, 2))
    scales = _array(t.get("scales", np.ones(frames)), f"{name}: scales", (frames,))
    note = t.get("note", "")
    if not isinstance(note, str):
        raise ValueError(f"{name}: note must be text")
    return AnimationTrack(int(t["chain"]), str(t["solver"]), int(t["first_step"]), steps.astype(int), lengths,
                          angles, roots, targets, scales, note)


def load_animation(path) -> list[AnimationTrack]:
    """The tracks of the keyframe file at ``path``, checked.

    Raises
    ------
    ValueError
        Not JSON, not this format, a newer version, or a track whose keys or
        shapes are wrong; the message names the file and the track.
    OSError
        The file cannot be read.
    """
    path = Path(path)
    name = path.name
    try:
        data = json.loads(path.read_text(encoding="utf-8"), parse_constant=_refuse_constant)
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError(f"{name}: not a JSON file ({e})") from None
    except ValueError as e:
        raise ValueError(f"{name}: {e}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"{name}: not an {FORMAT} file (its \"format\" must be {FORMAT!r})")
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or not 1 <= version <= VERSION:
        raise ValueError(f"{name}: version {version!r} is not one this reader knows (1 to {VERSION})")
    tracks = data.get("tracks")
    if not isinstance(tracks, list):
        raise ValueError(f"{name}: \"tracks\" must be a list")
    return [_track(t, f"{name}: track {i}") for i, t in enumerate(tracks)]
