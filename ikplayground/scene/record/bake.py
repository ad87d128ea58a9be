"""Baking a recording (the recorder's CSV) into a JSON file of keyframes (docs/animation-format.md).

A *track* is one chain index with one name, solver and joint count over
consecutive steps (a change of any, a gap or a change of bone lengths starts a
new one); it carries the chain's name (its number, ``#3``, or its given name).
Per track: the bone lengths; per step the angles (degrees), the root and the
target, so that forward kinematics gives back every joint of the CSV (to 1e-9
px). The CSV holds no root, so bone 0's length comes from the recorder's *rig*
and is checked against what the CSV shows; where it cannot be known it and the
roots are ``null`` and the track's ``note`` says why. A two-bone arm's
``scales`` are its stretch; a rig's track (:mod:`.bake_rig`) holds its tree
and its targets; a rope's roots, a path chain's curve and chords and a walker's
or rig's appendages come from the rows after its bones (:mod:`.bake_extra`). A bad CSV raises the reader's
:class:`~.recording.RecordingError` (a ``ValueError``) and nothing is written;
the file is written atomically.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping
from contextlib import closing
from pathlib import Path
from typing import Iterator, NamedTuple

import numpy as np

from ikplayground.scene.files.atomic_write import write_atomically
from ikplayground.scene.record.animation import FORMAT, FPS, UNITS, VERSION, AnimationTrack, load_animation
from ikplayground.scene.record.bake_extra import core_rig, extra_json, fits, keep, split
from ikplayground.scene.record.bake_rig import RigTrack, rig_shape
from ikplayground.scene.record.recording import RecordingError
from ikplayground.scene.record.recording_read import read_steps

__all__ = ["bake_recording", "load_animation", "AnimationTrack", "Baked"]  # load_animation: from animation.py

LENGTH_TOLERANCE = 1e-6  # a bone is "unchanged" within this share of its length (at least this many px)
SAME_LENGTH = 1e-9  # bones within this share of each other count as one length
UNIT_SCALE = 1e-12  # a two-bone scale within this of 1 is 1 (rounding of the measured lengths)


class Frame(NamedTuple):
    """One chain at one step: ``angles`` (n,) degrees, ``points`` (n, 2) px in joint order, ``target`` (2,) px."""

    line: int  # the line of the chain's first row (the header is line 1)
    step: int
    chain: int
    solver: str
    angles: np.ndarray
    points: np.ndarray
    target: np.ndarray
    name: str | None = None  # the chain's name (None: a recording without the name column)


def read_frames(csv_path) -> Iterator[Frame]:
    """The frames of the recording at ``csv_path``, step by step in chain order (RecordingError)."""
    with closing(read_steps(csv_path)) as steps:
        for rec in steps:
            starts = np.flatnonzero(rec.joint == 0)
            ends = np.append(starts[1:], len(rec.joint))
            for k, (s, e) in enumerate(zip(starts.tolist(), ends.tolist())):
                yield Frame(rec.line + s, rec.step, int(rec.chain[s]), rec.solver[s], rec.values[s:e, 0].copy(),
                            rec.values[s:e, 1:3].copy(), rec.values[s, 3:5].copy(),
                            None if rec.names is None else rec.names[k])


class Baked(NamedTuple):
    """What :func:`bake_recording` wrote: the file, its tracks and frames, the tracks' notes."""

    path: Path
    tracks: int
    frames: int
    notes: tuple[str, ...]


def _rig_lengths(rig, frame: Frame) -> np.ndarray | None:
    """The rig's lengths for the frame's (chain, solver, joints), checked, or None when it has none."""
    key = (frame.chain, frame.solver, len(frame.angles))
    value = rig.get(key)
    if value is None:
        return None
    lengths = np.array(value, dtype=float)
    joints = key[2]
    want = "(legs, bones a leg)" if frame.solver == "walker" else f"({joints},)"
    if (lengths.ndim != (2 if frame.solver == "walker" else 1) or lengths.size != joints
            or not np.isfinite(lengths).all() or (lengths <= 0).any()):
        raise ValueError(f"rig[{key!r}]: must be {joints} bone lengths > 0 px of shape {want}, "
                         f"got shape {lengths.shape}")
    return lengths


def _measured(frame: Frame, shape) -> np.ndarray:
    """Bone lengths the frame itself shows (NaN where the CSV cannot: bone 0 of an IK chain or a leg)."""
    if frame.solver == "path":  # its bones are arcs of its curve, not what the joints show: its chords per frame
        return np.full(shape, np.nan)  # (bake_extra.py)
    if frame.solver == "snake":  # the target is the head: every segment is in the CSV
        return np.hypot(*np.diff(np.vstack([frame.target, frame.points]), axis=0).T)
    points = frame.points.reshape(*shape, 2)
    out = np.full(shape, np.nan)
    out[..., 1:] = np.hypot(*np.moveaxis(np.diff(points, axis=-2), -1, 0))
    return out


def _fits(lengths: np.ndarray, measured: np.ndarray) -> bool:
    shown = ~np.isnan(measured)
    return bool(np.all(np.abs(measured[shown] - lengths[shown]) <= LENGTH_TOLERANCE * np.maximum(lengths[shown], 1.0)))


class _Track:
    """One track being gathered from consecutive frames."""

    def __init__(self, frame: Frame, lengths: np.ndarray, note: str):
        self.chain, self.solver, self.first_step, self.line = frame.chain, frame.solver, frame.step, frame.line
        self.name = frame.name
        self.joints = len(frame.angles)
        self.lengths = lengths  # NaN where unknown (bone 0 of a chain or of each leg)
        self.note = note
        self.last_step = frame.step - 1
        self.angles: list[np.ndarray] = []
        self.roots: list[np.ndarray] = []
        self.targets: list[np.ndarray] = []
        self.scales: list[float] = []

    def scale_of(self, measured: np.ndarray) -> float:
        """A two-bone arm's stretch: bone 1 as the CSV shows it over its length (1 for any other chain)."""
        if self.solver != "two-bone":
            return 1.0
        s = float(measured[1] / self.lengths[1])
        return 1.0 if abs(s - 1.0) <= UNIT_SCALE else s

    def takes(self, frame: Frame, measured: np.ndarray) -> bool:
        """Whether ``frame`` continues this track: the same name, solver and joints, the next step, the same
        bones."""
        return (frame.name == self.name and frame.solver == self.solver and len(frame.angles) == self.joints
                and frame.step == self.last_step + 1 and (self.solver == "two-bone" or _fits(self.lengths, measured)))

    def add(self, frame: Frame, measured: np.ndarray) -> None:
        scale = self.scale_of(measured)
        angles = frame.angles.reshape(self.lengths.shape)
        if self.solver == "snake":
            root = frame.target
        else:
            ends = frame.points.reshape(*self.lengths.shape, 2)[..., 0, :]
            a0 = np.radians(angles[..., 0])
            reach = self.lengths[..., 0] * scale
            root = ends - reach[..., None] * np.stack([np.cos(a0), np.sin(a0)], axis=-1)
        self.last_step = frame.step
        self.angles.append(angles)
        self.roots.append(root)
        self.targets.append(frame.target)
        self.scales.append(scale)

    def as_json(self) -> dict:
        known = not np.isnan(self.lengths).any()
        lengths = [None if math.isnan(v) else v for v in self.lengths.ravel().tolist()]
        if self.lengths.ndim == 2:
            m = self.lengths.shape[1]
            lengths = [lengths[i:i + m] for i in range(0, len(lengths), m)]
        track = {"chain": self.chain, **({} if self.name is None else {"name": self.name}),
                 "solver": self.solver, "first_step": self.first_step,
                 "frames": len(self.angles), "lengths": lengths,
                 "steps": list(range(self.first_step, self.last_step + 1)),
                 "angles": np.array(self.angles).tolist(),
                 "roots": np.array(self.roots).tolist() if known else None,
                 "targets": np.array(self.targets).tolist()}
        if self.solver == "two-bone":
            track["scales"] = self.scales
        if self.note:
            track["note"] = self.note
        return track


def _unknown_bone0(lengths: np.ndarray) -> np.ndarray:
    out = lengths.copy()
    out[..., 0] = np.nan
    return out


def _new_track(frame: Frame, rig, before: _Track | None, measured: np.ndarray) -> _Track:
    """A track starting at ``frame``: the rig's lengths when the CSV agrees with them, else what it shows."""
    lengths = _rig_lengths(rig, frame)  # a walker's is there: _frame_shape checked it
    if frame.solver == "two-bone":  # bone 1's length, as the CSV shows it, is the arm's stretch
        if lengths is not None:
            return _Track(frame, lengths, "")
        return _Track(frame, _unknown_bone0(np.nan_to_num(measured, nan=1.0)),
                      "no rig entry: bone 1 as measured at the first step, bone 0 (not in the CSV) unknown, so "
                      "no roots; scales are relative to that first step")
    if lengths is not None and _fits(lengths, measured):
        return _Track(frame, lengths, "")
    going_on = (before is not None and before.solver == frame.solver and before.joints == len(frame.angles)
                and before.name == frame.name and before.last_step == frame.step - 1)
    if lengths is None:
        why = "no rig entry"
    elif going_on:
        why = f"bone lengths changed at step {frame.step}"
    else:
        why = "bone lengths differ from the rig's"
    if frame.solver == "snake":  # the target is the head: every segment is in the CSV
        return _Track(frame, measured, f"{why}: lengths measured from the recording")
    factor = _one_factor(before.lengths, measured) if going_on and before is not None else None
    if factor is not None and before is not None:
        guessed = measured.copy()
        guessed[..., 0] = before.lengths[..., 0] * factor
        return _Track(frame, guessed, f"{why}: bones measured from the recording, and bone 0 (not in the CSV) "
                                      f"taken to be scaled as the others were (x{factor:.6g}), as the Bone "
                                      "length setting scales every bone alike")
    return _Track(frame, measured, f"{why}: bones after the first measured from the recording; bone 0's length "
                                   "is not in the CSV, so it and the roots are unknown (null)")


def _one_factor(old: np.ndarray, measured: np.ndarray) -> float | None:
    """The one factor the bones after the first (of each leg) changed by from ``old`` to ``measured``, or None
    (no such factor within ``SAME_LENGTH``, or ``old``'s bone 0 unknown)."""
    if np.isnan(old).any() or old.shape != measured.shape or measured[..., 1:].size == 0:
        return None
    ratios = measured[..., 1:] / old[..., 1:]
    return float(ratios.mean()) if np.ptp(ratios) <= SAME_LENGTH * ratios.max() else None


def _frame_shape(rig, frame: Frame) -> tuple[int, ...]:
    """The shape of the frame's bones: (legs, bones a leg) for a walker, from the rig; else (joints,)."""
    if frame.solver != "walker":
        return (len(frame.angles),)
    lengths = _rig_lengths(rig, frame)
    if lengths is None:
        raise ValueError(f"the rig has no bone lengths for chain {frame.chain} (walker, {len(frame.angles)} "
                         f"joints) from step {frame.step}; without them its joints cannot be split into legs")
    return lengths.shape


def _tracks(csv_path: Path, rig, chain: int | None) -> list:
    """Every track of the recording (of chain index ``chain`` only, when given), in order of chain, then step."""
    done: list = []
    open_: dict = {}  # chain -> its open track (a _Track or a RigTrack)
    full_rig, rig = rig, core_rig(rig)  # the rig of every row, and of each chain's own (before its extra rows)
    for whole in read_frames(csv_path):
        if chain is not None and whole.chain != chain:
            continue
        try:
            frame, extra = split(full_rig, whole, f"{csv_path.name}: line {whole.line}")
        except RecordingError:
            raise
        except ValueError as e:
            raise ValueError(f"{csv_path.name} line {whole.line}: {e}") from None
        track = open_.get(frame.chain)
        if track is not None and not fits(track, extra):  # its extra rows changed: a new track
            done.append(open_.pop(frame.chain))
            track = None
        if frame.solver == "rig" or isinstance(track, RigTrack):  # a rig's frame, or the frame after a rig's
            if isinstance(track, RigTrack) and track.takes(frame):
                track.add(frame)
                keep(track, extra)
                continue
            if track is not None:
                done.append(track)
                del open_[frame.chain]
            if frame.solver == "rig":
                try:
                    before = track if isinstance(track, RigTrack) else None
                    track = open_[frame.chain] = RigTrack(frame, rig_shape(rig, frame), before)
                except ValueError as e:
                    raise ValueError(f"{csv_path.name} line {frame.line}: {e}") from None
                track.add(frame)
                keep(track, extra)
                continue
            track = None
        try:
            measured = _measured(frame, _frame_shape(rig, frame))
            if track is None or not track.takes(frame, measured):
                if track is not None:
                    done.append(track)
                track = open_[frame.chain] = _new_track(frame, rig, track, measured)
        except ValueError as e:
            raise ValueError(f"{csv_path.name} line {frame.line}: {e}") from None
        track.add(frame, measured)
        keep(track, extra)
    done.extend(open_.values())
    done.sort(key=lambda t: (t.chain, t.first_step))
    return done


def animation_json(tracks: list[dict]) -> str:
    """The file's text: the header's keys a line each, then one track a line."""
    head = {"format": FORMAT, "version": VERSION, "fps": FPS, "units": UNITS}
    lines = [f"  {json.dumps(k)}: {json.dumps(v)}," for k, v in head.items()]
    body = ",\n".join("    " + json.dumps(t, allow_nan=False) for t in tracks)
    return "{\n" + "\n".join(lines) + '\n  "tracks": [\n' + body + ("\n" if tracks else "") + "  ]\n}\n"


def track_dicts(tracks: list) -> list[dict]:
    """The tracks as the file holds them (plain lists): its ``tracks`` (the Spine export reads these too)."""
    return [extra_json(t, t.as_json()) for t in tracks]


def baked_tracks(csv_path, rig) -> list[dict]:
    """Every track of the recording at ``csv_path`` as the file would hold it, nothing written (ValueError)."""
    return track_dicts(_tracks(Path(csv_path), rig if rig is not None else {}, None))


def bake_recording(csv_path, rig, out_path, chain: int | None = None) -> Baked:
    """Bake the recording CSV at ``csv_path`` into the keyframe file ``out_path`` (JSON, atomically).

    Parameters
    ----------
    csv_path, out_path : str or Path
        The recorder's CSV (docs/recording.md) and the file to write.
    rig : dict or None
        ``{(chain index, solver, joints): bone lengths px}`` at each key's first step: (joints,) for an
        IK chain or snake, (legs, bones a leg) for a walker (required); an IK chain without one has no roots;
        a rig's (required) a dict of its ``lengths``, ``parents`` and ``target_bones``; a rope's or path
        chain's (n,) (required: its rows after its bones are its root, its curve); a walker's or rig's with
        appendages a dict with ``appendages`` (A, B) too (:mod:`.bake_extra`).
    chain : int, optional
        Bake only this chain index (None: every chain).

    Returns
    -------
    Baked
        The path written, the tracks and frames in it, and the tracks' notes.

    Raises
    ------
    ValueError
        A bad CSV (:class:`~.recording.RecordingError`), a rig that is no dict, a bad or missing rig
        entry, or a ``chain`` the recording lacks; nothing is written.
    OSError
        The file cannot be written; what was at ``out_path`` is left as it was.
    """
    csv_path, out_path = Path(csv_path), Path(out_path)
    if chain is not None and (isinstance(chain, bool) or not isinstance(chain, (int, np.integer)) or chain < 0):
        raise ValueError(f"chain: must be a chain index >= 0 or None (got {chain!r})")
    if rig is not None and not isinstance(rig, Mapping):
        raise ValueError(f"rig: must be a dict of (chain, solver, joints) -> bone lengths, or None "
                         f"(got a {type(rig).__name__})")
    if out_path.exists() and csv_path.exists() and os.path.samefile(csv_path, out_path):
        raise ValueError(f"{out_path.name}: the keyframes would replace the recording itself")
    tracks = _tracks(csv_path, rig if rig is not None else {}, None if chain is None else int(chain))
    if chain is not None and not tracks:
        raise ValueError(f"{csv_path.name}: chain {chain} is not in the recording")
    data = track_dicts(tracks)
    write_atomically(out_path, animation_json(data).encode("utf-8"))
    notes = tuple(f"chain {t.chain} from step {t.first_step}: {t.note}" for t in tracks if t.note)
    return Baked(out_path, len(tracks), sum(len(t.angles) for t in tracks), notes)
