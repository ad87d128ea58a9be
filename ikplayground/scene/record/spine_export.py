"""Exporting a recording (the recorder's CSV) as a Spine 4.x skeleton with one animation (docs/spine-export.md).

Follows Esoteric Software's "Spine JSON export format" (Spine 4.x): ``skeleton``, ``bones`` parents first, ``slots``
(none) and ``animations.run.bones.<bone>`` with ``rotate`` keys ``{time, value}`` (added to the setup rotation) and
``translate`` keys ``{time, x, y}`` (added to the setup x, y), linear between keys, times in seconds (a step 1/60 s).
The tracks are the bake's (:func:`.bake.baked_tracks`: lengths, angles per step, roots), so the joints come back as
the bake's do. Spine's y points up and its angles turn counter-clockwise in degrees: a playground point (x, y) px,
y down, is (x, -y), and an angle a (rad, clockwise on screen) is -degrees(a).

Bones: ``root``, then per track ``chain-<name>/bone-<i>`` (bone 0 at the chain's root, each other bone at its
parent's end: the bone before it, a rig's by its tree) and a zero-length ``chain-<name>/tip`` (a rig: ``tip-<i>``
per leaf bone) at the last end, so every joint is a bone's origin. A walker's legs ``leg-<l>/bone-<i>`` hang from a
``body`` bone at its centre, appendages ``app-<a>/bone-<b>`` from their parent bone (or the body). A bone whose
length changes (a two-bone arm's stretch, a path chain's chords) moves its children by translate keys along it;
no bone is scaled. Left out: targets, a path chain's control points, and tracks without roots (an IK chain with no
rig entry), each with a note. A later track of one name is ``chain-<name>~<k>``.

Keys: one per frame, less the interior keys that linear interpolation between the kept ones gives back within a
tolerance (at most 0.01 degrees and 0.001 px), tightened per bone so that every joint stays within
``JOINT_TOLERANCE`` px; angles are unwrapped, so no key jumps 360 degrees.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

import numpy as np

from ikplayground.scene.files.atomic_write import write_atomically
from ikplayground.scene.record.animation import FPS
from ikplayground.scene.record.bake import baked_tracks
from ikplayground.scene.record.recording import RecordingError

SPINE_VERSION = "4.2.00"
ANIMATION = "run"
ROTATE_TOLERANCE = 0.01  # degrees: a dropped rotate key is within this of the line between the kept ones
TRANSLATE_TOLERANCE = 0.001  # px: ... a dropped translate key
JOINT_TOLERANCE = 0.005  # px: every joint within this of the recording, all dropped keys together
MOVES = 1e-9  # px: a bone whose position changes by more has translate keys
DIGITS = 9  # decimals written


class Exported(NamedTuple):
    """What :func:`export_spine` wrote: the file, its bones (``root`` included), keys and frames, and notes."""

    path: Path
    bones: int
    keys: int
    frames: int
    notes: tuple[str, ...]


class _Bone:
    """One Spine bone: its parent (an index, -1 for ``root``) and per frame (F,) its local x, y px and rotation deg."""

    def __init__(self, name: str, parent: int, x, y, rot, length, first: int):
        self.name, self.parent, self.first = name, parent, first
        self.x, self.y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
        self.rot = np.unwrap(np.asarray(rot, dtype=float), period=360.0)
        self.length = float(np.asarray(length, dtype=float).reshape(-1)[0])


def _chain(bones: list, base: str, parent: int, x, y, rot_deg, ells, first: int, tip: str = "tip") -> None:
    """A chain's bones from a (F,) origin x, y in ``parent``'s frame: rotations (F, n) deg, lengths (F, n) px."""
    for i in range(rot_deg.shape[1]):
        bx, by = (x, y) if i == 0 else (ells[:, i - 1], np.zeros(len(ells)))
        bones.append(_Bone(f"{base}/bone-{i}", parent if i == 0 else len(bones) - 1, bx, by, rot_deg[:, i],
                           ells[:, i], first))
    bones.append(_Bone(f"{base}/{tip}", len(bones) - 1, ells[:, -1], np.zeros(len(ells)), np.zeros(len(ells)), 0.0,
                       first))


def _local(points, frame_at, frame_deg):
    """Points (F, 2) px y down as (x, y) px y up in a frame at ``frame_at`` (F, 2) y down turned ``frame_deg`` (F,)."""
    dx, dy = points[:, 0] - frame_at[:, 0], frame_at[:, 1] - points[:, 1]
    t = np.radians(frame_deg)
    return np.cos(t) * dx + np.sin(t) * dy, np.cos(t) * dy - np.sin(t) * dx


def _rig_world(track: dict):
    """A rig's bones' world origins (F, n, 2) px y down and directions (F, n) deg, Spine's way (counter-clockwise)."""
    parents, lengths = track["parents"], np.asarray(track["lengths"])
    angles, roots = np.radians(np.asarray(track["angles"])), np.asarray(track["roots"])
    heading = np.zeros_like(angles)
    origin = np.zeros(angles.shape + (2,))
    for i, p in enumerate(parents):
        heading[:, i] = angles[:, i] + (heading[:, p] if p >= 0 else 0.0)
        origin[:, i] = roots if p < 0 else origin[:, p] + lengths[p] * np.stack(
            [np.cos(heading[:, p]), np.sin(heading[:, p])], axis=-1)
    return origin, -np.degrees(heading)


def _track_bones(bones: list, track: dict, base: str, first: int) -> str | None:
    """Append ``track``'s bones (parented to ``root``, index 0); returns a note when part of it is left out."""
    solver, angles = track["solver"], np.asarray(track["angles"], dtype=float)
    frames = len(angles)
    if track["roots"] is None:
        return f"{base}: left out: bone 0's length and so its roots are not known ({track.get('note', '')})"
    roots = np.asarray(track["roots"], dtype=float)
    if solver == "walker":
        body = np.asarray(track["targets"], dtype=float)
        zero = np.zeros(frames)
        bones.append(_Bone(f"{base}/body", 0, body[:, 0], -body[:, 1], zero, 0.0, first))
        at = len(bones) - 1
        for leg, lengths in enumerate(np.asarray(track["lengths"], dtype=float)):
            _chain(bones, f"{base}/leg-{leg}", at, roots[:, leg, 0] - body[:, 0], body[:, 1] - roots[:, leg, 1],
                   -angles[:, leg], np.tile(lengths, (frames, 1)), first)
        frame_of = {-1: (at, body, zero)}
    elif solver == "rig":
        lengths, parents = np.asarray(track["lengths"], dtype=float), track["parents"]
        start = len(bones)
        for i, p in enumerate(parents):
            bx, by = (roots[:, 0], -roots[:, 1]) if p < 0 else (np.full(frames, lengths[p]), np.zeros(frames))
            bones.append(_Bone(f"{base}/bone-{i}", 0 if p < 0 else start + p, bx, by, -angles[:, i], lengths[i],
                               first))
        for i in sorted(set(range(len(parents))) - set(parents)):
            bones.append(_Bone(f"{base}/tip-{i}", start + i, np.full(frames, lengths[i]), np.zeros(frames),
                               np.zeros(frames), 0.0, first))
        origin, heading = _rig_world(track)
        frame_of = {i: (start + i, origin[:, i], heading[:, i]) for i in range(len(parents))}
        frame_of[-1] = (0, np.zeros((frames, 2)), np.zeros(frames))
    else:  # an IK chain, snake, rope or path chain: a chain from its root
        ells = np.asarray(track["chords"], dtype=float) if solver == "path" else \
            np.outer(track.get("scales", np.ones(frames)), np.asarray(track["lengths"], dtype=float))
        _chain(bones, base, 0, roots[:, 0], -roots[:, 1], -angles, ells, first)
        frame_of = {}
    left = ""
    for a, parent in enumerate((track.get("appendages") or {}).get("parents", [])):
        app = track["appendages"]
        if parent not in frame_of:
            left = f", appendage {a} (its parent {parent} is no bone of the export)"
            continue
        at, frame_at, frame_deg = frame_of[parent]
        x, y = _local(np.asarray(app["roots"], dtype=float)[:, a], frame_at, frame_deg)
        turns = -np.asarray(app["angles"], dtype=float)[:, a]
        turns[:, 0] -= frame_deg
        _chain(bones, f"{base}/app-{a}", at, x, y, turns, np.tile(app["lengths"][a], (frames, 1)), first)
    return "{}: targets{}{} not exported (no bones)".format(base, " and control points" if solver == "path" else "",
                                                            left)


def _world(bones: list):
    """Every bone's world origin (B, F, 2) px y up and direction (B, F) deg, by Spine's rules with unit scales."""
    pos = np.zeros((len(bones),) + bones[0].x.shape + (2,))
    ang = np.zeros((len(bones),) + bones[0].x.shape)
    for i, b in enumerate(bones):
        if b.parent < 0:
            pos[i] = np.stack([b.x, b.y], axis=-1)
            ang[i] = b.rot
            continue
        t = np.radians(ang[b.parent])
        pos[i] = pos[b.parent] + np.stack([np.cos(t) * b.x - np.sin(t) * b.y, np.sin(t) * b.x + np.cos(t) * b.y],
                                          axis=-1)
        ang[i] = ang[b.parent] + b.rot
    return pos, ang


def _tolerances(bones: list, pos: np.ndarray):
    """Per bone the rotate (deg) and translate (px) tolerance that keeps every joint within ``JOINT_TOLERANCE``:
    a joint's error is at most the sum over the bones from ``root`` to it of translate tolerance plus rotate
    tolerance (rad) times the reach (px) to that joint."""
    n = len(bones)
    depth = np.zeros(n, dtype=int)
    for i, b in enumerate(bones):
        depth[i] = depth[b.parent] + 1 if b.parent >= 0 else 0
    reach, deepest = np.zeros(n), depth.copy()
    for d in range(n):
        a = bones[d].parent
        while a >= 0:
            reach[a] = max(reach[a], float(np.hypot(*(pos[d] - pos[a]).T).max()))
            deepest[a] = max(deepest[a], depth[d])
            a = bones[a].parent
    share = JOINT_TOLERANCE / (2 * np.maximum(deepest, 1))
    rotate = np.minimum(ROTATE_TOLERANCE, np.degrees(share / np.maximum(reach, 1e-9)))
    return rotate, np.minimum(TRANSLATE_TOLERANCE, share)


def kept_keys(values: np.ndarray, tolerance) -> np.ndarray:
    """Which frames to key, (F, B) bools, so that linear interpolation between the kept ones gives ``values`` (F, B)
    or (F, B, c) back within ``tolerance`` (scalar or (B,)) at every frame: the first and last always, the others
    greedily (from each kept key, the farthest next key whose line passes within the tolerance of every frame
    between). Each bone keeps the slopes from its last key that pass within the tolerance of the frames so far (a
    cone), so every bone is done at once, one frame at a time."""
    v = values.reshape(values.shape[0], values.shape[1], -1)
    count, bones = v.shape[:2]
    tol = np.broadcast_to(np.asarray(tolerance, dtype=float), (bones,))[:, None]
    keep = np.zeros((count, bones), dtype=bool)
    keep[0] = keep[-1] = True
    anchor = np.zeros(bones, dtype=int)
    lo, hi = np.full(v.shape[1:], -np.inf), np.full(v.shape[1:], np.inf)
    cols = np.arange(bones)
    for k in range(1, count):
        slope = (v[k] - v[anchor, cols]) / (k - anchor)[:, None]
        broken = ~np.all((slope >= lo) & (slope <= hi), axis=1)
        keep[k - 1, broken] = True
        anchor[broken] = k - 1
        lo[broken], hi[broken] = -np.inf, np.inf
        gap = (k - anchor)[:, None]
        lo = np.maximum(lo, (v[k] - tol - v[anchor, cols]) / gap)
        hi = np.minimum(hi, (v[k] + tol - v[anchor, cols]) / gap)
    return keep


def _timelines(bones: list, rotate_tol: np.ndarray, move_tol: np.ndarray) -> dict:
    """The bone timelines of one track's ``bones`` (their frames alike): a bone's rotate keys (every bone but
    a tip or body that never turns), translate keys (a bone that moves)."""
    rot = np.stack([b.rot - b.rot[0] for b in bones], axis=1)  # (F, B) deg
    move = np.stack([np.stack([b.x - b.x[0], b.y - b.y[0]], axis=-1) for b in bones], axis=1)  # (F, B, 2) px
    turns = [b.name.split("/")[-1].startswith("bone") or bool(np.ptp(b.rot) > 0) for b in bones]
    moves = np.abs(move).max(axis=(0, 2)) > MOVES
    times = np.round((bones[0].first + np.arange(len(rot))) / FPS, DIGITS).tolist()
    rot_keep, move_keep = kept_keys(rot, rotate_tol), kept_keys(move, move_tol)
    rot, move = np.round(rot, DIGITS).tolist(), np.round(move, DIGITS).tolist()
    out = {}
    for i, b in enumerate(bones):
        lines = {}
        if turns[i]:
            lines["rotate"] = [{"time": times[k], "value": rot[k][i]} for k in np.flatnonzero(rot_keep[:, i])]
        if moves[i]:
            lines["translate"] = [{"time": times[k], "x": move[k][i][0], "y": move[k][i][1]}
                                  for k in np.flatnonzero(move_keep[:, i])]
        if lines:
            out[b.name] = lines
    return out


def spine_skeleton(tracks: list[dict]) -> tuple[dict, int, tuple[str, ...]]:
    """The Spine JSON of the bake's ``tracks`` (:func:`.bake.baked_tracks`), its key count and its notes."""
    if not tracks:
        raise ValueError("nothing to export: the recording has no chains")
    start = min(t["first_step"] for t in tracks)
    frames = max(t["first_step"] + t["frames"] for t in tracks) - start
    root = _Bone("root", -1, np.zeros(frames), np.zeros(frames), np.zeros(frames), 0.0, 0)
    data, bones, notes, seen = [], [root], [], {}  # type: list, list, list, dict[str, int]
    for t in tracks:
        label = t.get("name") or f"index{t['chain']}"
        seen[label] = seen.get(label, 0) + 1
        base = f"chain-{label}" + (f"~{seen[label]}" if seen[label] > 1 else "")
        mine = [root]
        note = _track_bones(mine, t, base, t["first_step"] - start)
        if note:
            notes.append(note)
        pos, _ = _world(mine)
        tol = _tolerances(mine, pos)
        lines = _timelines(mine[1:], tol[0][1:], tol[1][1:])
        offset = len(bones) - 1
        for b in mine[1:]:
            b.parent = b.parent + offset if b.parent > 0 else b.parent
        bones += mine[1:]
        data.append((lines, pos[1:]))
    points = np.concatenate([p.reshape(-1, 2) for _, p in data if p.size] or [np.zeros((1, 2))])
    lo, hi = points.min(axis=0), points.max(axis=0)
    animation = {k: v for lines, _ in data for k, v in lines.items()}
    skeleton = {"skeleton": {"hash": "", "spine": SPINE_VERSION, "x": round(float(lo[0]), 3),
                             "y": round(float(lo[1]), 3), "width": round(float(hi[0] - lo[0]), 3),
                             "height": round(float(hi[1] - lo[1]), 3), "fps": FPS, "images": "", "audio": ""},
                "bones": [_bone_json(b, bones) for b in bones], "slots": [],
                "animations": {ANIMATION: {"bones": animation}}}
    keys = sum(len(v) for line in animation.values() for v in line.values())
    return skeleton, keys, tuple(notes)


def _bone_json(b: _Bone, bones: list) -> dict:
    """A bone's entry: its setup pose (its first frame), unit scale, inherit "normal"."""
    out: dict = {"name": b.name}
    if b.parent >= 0:
        out["parent"] = bones[b.parent].name
    out.update({"length": round(b.length, DIGITS), "x": round(float(b.x[0]), DIGITS),
                "y": round(float(b.y[0]), DIGITS), "rotation": round(float(b.rot[0]), DIGITS), "inherit": "normal"})
    return out


def export_spine(csv_path, rig, out_path) -> Exported:
    """Export the recording CSV at ``csv_path`` as a Spine 4.x skeleton JSON at ``out_path`` (atomically).

    Parameters
    ----------
    csv_path, out_path : str or Path
        The recorder's CSV (docs/recording.md) and the file to write.
    rig : dict or None
        The recorder's rig, as :func:`.bake.bake_recording` takes it.

    Returns
    -------
    Exported
        The path written, its bones, keys and frames, and notes on what was left out.

    Raises
    ------
    RecordingError
        A bad CSV, rig or an empty recording, in one line; nothing is written.
    OSError
        The file cannot be written; what was at ``out_path`` is left as it was.
    """
    csv_path, out_path = Path(csv_path), Path(out_path)
    if rig is not None and not isinstance(rig, Mapping):
        raise RecordingError(f"rig: must be a dict of (chain, solver, joints) -> bone lengths, or None "
                             f"(got a {type(rig).__name__})")
    try:
        tracks = baked_tracks(csv_path, rig)
        skeleton, keys, notes = spine_skeleton(tracks)
    except RecordingError:
        raise
    except ValueError as e:
        raise RecordingError(f"{csv_path.name}: {e}" if csv_path.name not in str(e) else str(e)) from None
    text = json.dumps(skeleton, indent=1, allow_nan=False)
    write_atomically(out_path, (text + "\n").encode("utf-8"))
    frames = max(t["first_step"] + t["frames"] for t in tracks) - min(t["first_step"] for t in tracks)
    return Exported(out_path, len(skeleton["bones"]), keys, frames, notes)
