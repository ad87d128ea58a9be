"""Baking a rig's rows of a recording into a keyframe track (docs/animation-format.md, "Rigs").

A rig's rows are its n bones (bone 0's angle absolute, the others relative to
their parent's; each bone's end) and then its k targets (heading, point); its
target columns hold its root. The recorder's *rig* entry for it gives what the
CSV cannot: ``{"lengths": (n,), "parents": (n,), "target_bones": (k,)}``. Every
bone's start is in the CSV (the root, or its parent's end), so every length is
checked against it, and a change of lengths starts a new track measured from
the recording. Pixels, y down; degrees, as the CSV.
"""

from __future__ import annotations

import numpy as np

LENGTH_TOLERANCE = 1e-6  # as bake.py's: a bone is unchanged within this share of its length (or px)


def rig_shape(rig, frame) -> dict:
    """The recorder's entry for the rig of ``frame``, checked: lengths, parents and target bones (ValueError)."""
    key = (frame.chain, frame.solver, len(frame.angles))
    entry = rig.get(key)
    if entry is None:
        raise ValueError(f"the rig has no bones for chain {frame.chain} (rig, {len(frame.angles)} joints) from "
                         f"step {frame.step}; without them its rows cannot be split into bones and targets")
    try:
        lengths = np.array(entry["lengths"], dtype=float).reshape(-1)
        parents = np.array(entry["parents"], dtype=float).reshape(-1)
        bones = np.array(entry["target_bones"], dtype=float).reshape(-1)
    except (TypeError, ValueError, KeyError, IndexError):
        raise ValueError(f"rig[{key!r}]: must be a dict of lengths, parents and target_bones") from None
    n = len(lengths)
    tree = len(parents) == n and n >= 1 and parents[0] == -1 and all(0 <= p < i for i, p in enumerate(parents) if i)
    if (not tree or n + len(bones) != key[2] or not np.isfinite(lengths).all() or (lengths <= 0).any()
            or (bones != np.round(bones)).any() or not ((bones >= 0) & (bones < n)).all()):
        raise ValueError(f"rig[{key!r}]: must give {key[2]} joints as n bone lengths > 0 px, n parents in tree "
                         "order and the bones of the targets after them")
    return {"lengths": lengths, "parents": parents.astype(int), "target_bones": bones.astype(int)}


def measured(shape: dict, frame) -> np.ndarray:
    """The bones' lengths (n,) px the frame shows: each bone's end less its start (the root, or its parent's end)."""
    n = len(shape["lengths"])
    ends = frame.points[:n]
    starts = np.vstack([frame.target[None], ends])[shape["parents"] + 1]
    return np.hypot(*(ends - starts).T)


def _fits(lengths: np.ndarray, shown: np.ndarray) -> bool:
    return bool(np.all(np.abs(shown - lengths) <= LENGTH_TOLERANCE * np.maximum(lengths, 1.0)))


class RigTrack:
    """One rig's track gathered from consecutive frames of one name and shape, its bones of one length."""

    def __init__(self, frame, shape: dict, before: RigTrack | None = None):
        self.chain, self.solver, self.first_step, self.line = frame.chain, frame.solver, frame.step, frame.line
        self.name, self.joints, self.shape = frame.name, len(frame.angles), shape
        self.last_step: int = frame.step - 1
        shown = measured(shape, frame)
        self.lengths, self.note = shape["lengths"], ""
        if not _fits(self.lengths, shown):
            self.lengths = shown
            going_on = before is not None and before.name == frame.name and before.last_step == frame.step - 1
            why = f"bone lengths changed at step {frame.step}" if going_on else "bone lengths differ from the rig's"
            self.note = f"{why}: lengths measured from the recording"
        self.angles: list[np.ndarray] = []
        self.roots: list[np.ndarray] = []
        self.targets: list[np.ndarray] = []
        self.headings: list[np.ndarray] = []

    def takes(self, frame) -> bool:
        """Whether ``frame`` goes on with this track: the same name, solver, joints and bones, the next step."""
        return (frame.name == self.name and frame.solver == self.solver and len(frame.angles) == self.joints
                and frame.step == self.last_step + 1 and _fits(self.lengths, measured(self.shape, frame)))

    def add(self, frame) -> None:
        n = len(self.lengths)
        self.last_step = frame.step
        self.angles.append(frame.angles[:n])
        self.roots.append(frame.target)
        self.targets.append(frame.points[n:])
        self.headings.append(frame.angles[n:])

    def as_json(self) -> dict:
        track = {"chain": self.chain, **({} if self.name is None else {"name": self.name}), "solver": self.solver,
                 "first_step": self.first_step, "frames": len(self.angles), "lengths": self.lengths.tolist(),
                 "parents": self.shape["parents"].tolist(), "target_bones": self.shape["target_bones"].tolist(),
                 "steps": list(range(self.first_step, self.last_step + 1)),
                 "angles": np.array(self.angles).tolist(), "roots": np.array(self.roots).tolist(),
                 "targets": np.array(self.targets).reshape(len(self.angles), -1, 2).tolist(),
                 "headings": np.array(self.headings).reshape(len(self.angles), -1).tolist()}
        if self.note:
            track["note"] = self.note
        return track
