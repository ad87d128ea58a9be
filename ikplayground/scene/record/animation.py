"""The keyframe file (``"format": "ikplayground-animation"``, docs/animation-format.md): constants and reader.

``bake.bake_recording`` writes it; :func:`load_animation` reads it back as
checked :class:`AnimationTrack` arrays, decoded by msgspec (each track from its
own bytes into a Struct; msgspec refuses ``NaN`` and ``Infinity``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Any, NamedTuple

import msgspec
import numpy as np

FORMAT = "ikplayground-animation"
VERSION = 1
FPS = 60  # the scene's fixed step: a frame is one step of 1/60 s
UNITS = ("lengths and positions in stage pixels, origin top-left, y down; angles in degrees, measured as "
         "atan2(dy, dx) on screen (positive turns clockwise), angles[0] absolute (a walker: each leg's first), "
         "the others relative to the bone before")


class AnimationTrack(NamedTuple):
    """One track, as arrays (F frames; n bones, or a walker's legs x m bones): frame k's bones are
    ``lengths * scales[k]``.

    ``lengths`` (n,) or (legs, m) px (NaN: unknown, then ``roots`` is None); ``angles`` (F, n) or (F, legs, m)
    degrees; ``roots`` (F, 2) or (F, legs, 2) px; ``targets`` (F, 2) px; ``scales`` (F,); ``name`` the chain's
    name (``"#3"``, or the name it was given; None: baked from a recording without names). A rig's: its
    ``parents`` (n,) and ``target_bones`` (k,) ints, ``targets`` (F, k, 2) px and ``headings`` (F, k) degrees
    (0: none); None for any other track.
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
    name: str | None = None
    parents: np.ndarray | None = None
    target_bones: np.ndarray | None = None
    headings: np.ndarray | None = None
    chords: np.ndarray | None = None  # a path chain's (F, n) px: frame k's bones for forward kinematics
    controls: np.ndarray | None = None  # a path chain's curve (F, 4, 2) px
    appendages: Appendages | None = None  # a walker's or rig's


class Appendages(NamedTuple):
    """A walker's or rig's appendages in a track (A of up to B bones, F frames): ``parents`` (A,) the rig bone each
    hangs from (-1: a walker's body), ``lengths`` (A, B) px (0: no bone), ``roots`` (F, A, 2) px and ``angles``
    (F, A, B) degrees (bone 0's absolute, then each turn)."""

    parents: np.ndarray
    lengths: np.ndarray
    roots: np.ndarray
    angles: np.ndarray


class _Track(msgspec.Struct, kw_only=True):
    """One track as the file holds it (msgspec's docs, "Structs"); the shapes are checked after the decode."""

    chain: int
    name: str | None = None
    solver: str
    first_step: int
    frames: Annotated[int, msgspec.Meta(ge=0)]
    lengths: list[Any]  # n bones, or legs x m (null for an unknown bone 0)
    steps: list[Any]
    angles: list[Any]
    roots: list[Any] | None
    targets: list[Any]
    scales: list[Any] | None = None
    note: str = ""
    parents: list[int] | None = None  # a rig's
    target_bones: list[int] | None = None
    headings: list[Any] | None = None
    chords: list[Any] | None = None  # a path chain's
    controls: list[Any] | None = None
    appendages: dict[str, Any] | None = None  # a walker's or rig's


class _Head(msgspec.Struct):
    format: Any = None
    version: Any = None
    tracks: msgspec.Raw = msgspec.field(default_factory=msgspec.Raw)  # each track decoded alone


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


def _track(raw: msgspec.Raw, name: str) -> AnimationTrack:
    try:
        t = msgspec.json.decode(raw, type=_Track)
    except msgspec.ValidationError as e:
        missing = re.fullmatch(r"Object missing required field `(.*)`", str(e))
        raise ValueError(f"{name}: has no {missing[1]!r}" if missing else f"{name}: {e}") from None
    frames = t.frames
    walker = t.solver == "walker"
    try:
        lengths = np.array(t.lengths, dtype=float)  # null: NaN
    except (TypeError, ValueError):
        raise ValueError(f"{name}: lengths must be numbers (null for an unknown bone 0)") from None
    if lengths.ndim != (2 if walker else 1) or lengths.size == 0:
        raise ValueError(f"{name}: lengths must be a list of {'legs, each a list of bones' if walker else 'bones'}")
    if not (np.isfinite(lengths[..., 1:]).all() and (lengths[..., 1:] > 0).all()
            and (np.isnan(lengths[..., 0]) | (lengths[..., 0] > 0)).all()):
        raise ValueError(f"{name}: lengths must be > 0 px (null only for bone 0)")
    steps = _array(t.steps, f"{name}: steps", (frames,))
    angles = _array(t.angles, f"{name}: angles", (frames, *lengths.shape))
    roots: np.ndarray | None = None
    if t.roots is not None:
        roots = _array(t.roots, f"{name}: roots", (frames, *lengths.shape[:-1], 2))
    elif not np.isnan(lengths).any():
        raise ValueError(f"{name}: roots is null but every bone length is known")
    scales = _array(np.ones(frames) if t.scales is None else t.scales, f"{name}: scales", (frames,))
    more = _extras(t, name, lengths.shape[-1])
    if t.solver == "rig":
        return _rig_track(t, name, steps, lengths, angles, roots, scales)._replace(**more)
    targets = _array(t.targets, f"{name}: targets", (frames, 2))
    return AnimationTrack(t.chain, t.solver, t.first_step, steps.astype(int), lengths, angles, roots, targets,
                          scales, t.note, t.name, **more)


def _extras(t, name: str, n: int) -> dict:
    """A track's path ``chords`` and ``controls`` and its ``appendages``, checked (those it has)."""
    out: dict = {}
    if t.chords is not None:
        out["chords"] = _array(t.chords, f"{name}: chords", (t.frames, n))
    if t.controls is not None:
        out["controls"] = _array(t.controls, f"{name}: controls", (t.frames, 4, 2))
    if t.appendages is not None:
        a = t.appendages
        try:
            lengths = np.array(a.get("lengths"), dtype=float)
        except (TypeError, ValueError):
            lengths = np.zeros(0)
        if lengths.ndim != 2 or not lengths.size or not np.isfinite(lengths).all() or (lengths < 0).any():
            raise ValueError(f"{name}: appendages.lengths must be (A, B) lengths >= 0 px")
        count, bones = lengths.shape
        out["appendages"] = Appendages(
            _array(a.get("parents"), f"{name}: appendages.parents", (count,)).astype(int), lengths,
            _array(a.get("roots"), f"{name}: appendages.roots", (t.frames, count, 2)),
            _array(a.get("angles"), f"{name}: appendages.angles", (t.frames, count, bones)))
    return out


def _rig_track(t, name: str, steps, lengths, angles, roots, scales) -> AnimationTrack:
    """A rig's track: its tree in order, its targets' bones among its bones, its targets and headings."""
    n = len(lengths)
    parents = _array(t.parents, f"{name}: parents", (n,))
    if parents[0] != -1 or any(not 0 <= p < i for i, p in enumerate(parents) if i):
        raise ValueError(f"{name}: parents must be -1 and then each a bone before it")
    bones = _array(t.target_bones, f"{name}: target_bones", (np.size(t.target_bones),))
    if not ((bones >= 0) & (bones < n) & (bones == np.round(bones))).all():
        raise ValueError(f"{name}: target_bones must be bones, 0 to {n - 1}")
    targets = _array(t.targets, f"{name}: targets", (t.frames, len(bones), 2))
    headings = _array(t.headings, f"{name}: headings", (t.frames, len(bones)))
    return AnimationTrack(t.chain, t.solver, t.first_step, steps.astype(int), lengths, angles, roots, targets,
                          scales, t.note, t.name, parents.astype(int), bones.astype(int), headings)


def load_animation(path) -> list[AnimationTrack]:
    """The tracks of the keyframe file at ``path``, checked.

    Raises
    ------
    ValueError
        Not JSON, not this format or version, or a bad track; the message names the file and the track.
    OSError
        The file cannot be read.
    """
    path = Path(path)
    name = path.name
    data = path.read_bytes()
    try:
        head = msgspec.json.decode(data, type=_Head)
    except msgspec.DecodeError as e:
        at = re.search(r"\(byte (\d+)\)", str(e))
        for word in ("NaN", "Infinity", "-Infinity"):
            if at and data.startswith(word.encode(), int(at[1])):
                raise ValueError(f"{name}: {word} is not a number JSON allows") from None
        raise ValueError(f"{name}: not a JSON file ({e})") from None
    except msgspec.ValidationError:  # not an object
        head = _Head()
    if head.format != FORMAT:
        raise ValueError(f"{name}: not an {FORMAT} file (its \"format\" must be {FORMAT!r})")
    version = head.version
    if not isinstance(version, int) or isinstance(version, bool) or not 1 <= version <= VERSION:
        raise ValueError(f"{name}: version {version!r} is not one this reader knows (1 to {VERSION})")
    try:
        tracks = msgspec.json.decode(head.tracks, type=list[msgspec.Raw])
    except (msgspec.ValidationError, msgspec.DecodeError):
        raise ValueError(f"{name}: \"tracks\" must be a list") from None
    return [_track(t, f"{name}: track {i}") for i, t in enumerate(tracks)]
