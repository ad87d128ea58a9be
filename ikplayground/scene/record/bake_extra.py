"""Baking the rows a chain gives after its bones (:mod:`.extra_rows`): a rope's root, a path chain's control points
1 to 3, a walker's or rig's appendages (docs/animation-format.md, "Ropes, paths and appendages").

The recorder's *rig* entry says how a chain's rows split: a rope's and a path chain's (n,) bone lengths (its rows
are n bones and then 1 or 4), a walker's or rig's ``appendages`` (A, B) (the last A * (B + 1) rows). The bake
takes the rows before as the chain's own (:func:`split`, with :func:`core_rig` the rig for those) and keeps the
rest per frame: a rope's roots, a path chain's roots, chords (its bones are arcs of its curve: the straight
distance between its joints is less) and control points, the appendages' roots and angles, their bone
lengths measured from the recording (every appendage joint and its root are in the CSV). Pixels, y down, degrees.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ikplayground.scene.record.extra_rows import PATH_EXTRA, ROPE_EXTRA
from ikplayground.scene.record.recording import RecordingError

LENGTH_TOLERANCE = 1e-6  # as bake.py's: an appendage bone is unchanged within this share of its length (or px)
_FIXED = {"rope": (ROPE_EXTRA, "its root"), "path": (PATH_EXTRA, "its joint 0 and control points 1 to 3")}


def _appendage_shape(entry) -> tuple[int, int] | None:
    """An entry's appendages' (A, B), or None when it has none."""
    if not isinstance(entry, Mapping) or entry.get("appendages") is None:
        return None
    shape = np.shape(entry["appendages"])
    if len(shape) != 2 or 0 in shape:
        raise ValueError(f"appendages: must be (A, B) bone lengths px (got shape {shape})")
    return int(shape[0]), int(shape[1])


def core_rig(rig: Mapping) -> dict:
    """The rig for the chains' own rows: each entry of a chain with extra rows under the key of its rows before
    them (a walker's lengths alone, a rig's dict without its appendages); the others as they are."""
    out: dict = {}
    for key, entry in rig.items():
        try:
            chain, solver, joints = key
        except (TypeError, ValueError):
            out[key] = entry
            continue
        if solver in _FIXED:
            out.setdefault((chain, solver, joints - _FIXED[solver][0]), entry)
            continue
        try:
            shape = _appendage_shape(entry)
        except ValueError:
            shape = None
        if shape is None:
            out.setdefault(key, entry["lengths"] if solver == "walker" and isinstance(entry, Mapping) else entry)
            continue
        own = entry["lengths"] if solver == "walker" else {k: v for k, v in entry.items()
                                                             if k not in ("appendages", "appendage_parents")}
        out.setdefault((chain, solver, joints - shape[0] * (shape[1] + 1)), own)
    return out


def split(rig: Mapping, frame, line_name: str):
    """``frame`` as the chain's own rows and its extra rows' data: (frame, None) for a chain without extra rows, else
    (frame of its own rows, dict). RecordingError (one line) for a rope or path chain whose rows do not split as the
    rig says: a recording made before they recorded their root or control points, or no rig entry."""
    joints = len(frame.angles)
    entry = rig.get((frame.chain, frame.solver, joints))
    if frame.solver in _FIXED:
        extra, what = _FIXED[frame.solver]
        n = joints - extra
        if entry is None or isinstance(entry, Mapping) or np.size(entry) != n or n < 1:
            raise RecordingError(f"{line_name}: chain {frame.chain} ({frame.solver}, {joints} joints) at step "
                                 f"{frame.step}: the rig has no {max(n, 0)} bone lengths for it; a {frame.solver}'s "
                                 f"rows are its bones, then {what} (a recording made without them cannot be "
                                 "baked)")
        own = frame._replace(angles=frame.angles[:n], points=frame.points[:n])
        if frame.solver == "rope":
            return own, {"root": frame.points[n].copy()}
        laid = np.vstack([frame.points[n:n + 1], own.points])  # its joint 0, then its bones' ends
        return own, {"root": frame.points[n].copy(), "chords": np.hypot(*np.diff(laid, axis=0).T),
                     "controls": np.vstack([frame.target[None], frame.points[n + 1:]])}
    try:
        shape = _appendage_shape(entry)
    except ValueError as e:
        raise ValueError(f"rig[{(frame.chain, frame.solver, joints)!r}]: {e}") from None
    if shape is None:
        return frame, None
    a, b = shape
    n = joints - a * (b + 1)
    if n < 1:
        raise RecordingError(f"{line_name}: chain {frame.chain} ({frame.solver}, {joints} joints) at step "
                             f"{frame.step}: fewer rows than its {a} appendages of {b} bones need")
    rows = frame.points[n:].reshape(a, b + 1, 2)
    given = entry.get("appendage_parents") if isinstance(entry, Mapping) else None
    parents = np.full(a, -1, dtype=np.int64) if given is None else np.array(given, dtype=np.int64).reshape(-1)
    if len(parents) != a:
        raise ValueError(f"rig[{(frame.chain, frame.solver, joints)!r}]: appendage_parents: must be {a} bones")
    own = frame._replace(angles=frame.angles[:n], points=frame.points[:n])
    return own, {"app_roots": rows[:, 0].copy(), "app_angles": frame.angles[n:].reshape(a, b + 1)[:, 1:].copy(),
                 "app_lengths": np.hypot(*np.moveaxis(np.diff(rows, axis=1), -1, 0)), "app_parents": parents}


def fits(track, extra) -> bool:
    """Whether ``extra`` goes on with ``track``'s extra rows: the same kind, and appendage bones of one length."""
    kept = getattr(track, "extras", [])
    if not kept or extra is None:
        return not kept and extra is None
    first = kept[0]
    if first.keys() != extra.keys():
        return False
    if "app_lengths" not in extra:
        return True
    old, new = first["app_lengths"], extra["app_lengths"]
    return old.shape == new.shape and bool(np.all(np.abs(new - old) <= LENGTH_TOLERANCE * np.maximum(old, 1.0)))


def keep(track, extra) -> None:
    """Keep a frame's extra rows' data on ``track`` (after the track took the frame)."""
    if extra is None:
        return
    if not hasattr(track, "extras"):
        track.extras = []
    track.extras.append(extra)
    if "root" in extra:  # a rope's root, a path chain's joint 0, is in the recording: taken as it is
        track.roots[-1] = extra["root"]


def extra_json(track, data: dict) -> dict:
    """``data`` (a track's JSON) with its extra rows: a path chain's ``chords`` and ``controls``, the
    ``appendages``."""
    extras = getattr(track, "extras", [])
    if not extras:
        return data
    if "controls" in extras[0]:
        data["chords"] = np.array([e["chords"] for e in extras]).tolist()
        data["controls"] = np.array([e["controls"] for e in extras]).tolist()
    if "app_roots" in extras[0]:
        data["appendages"] = {"parents": extras[0]["app_parents"].tolist(),
                              "lengths": extras[0]["app_lengths"].tolist(),
                              "roots": np.array([e["app_roots"] for e in extras]).tolist(),
                              "angles": np.array([e["app_angles"] for e in extras]).tolist()}
    return data
