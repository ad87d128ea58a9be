"""A small recorder for the bake tests, written from the CSV format's description (not the App's recorder).

``RecordingWriter(path)`` writes the header; ``write(scene, step)`` appends one
row per joint per chain of ``scene`` in draw order, and keeps the rig (each
(chain, solver, joints) key's bone lengths at its first step), as the
recorder hands them over.
"""

from __future__ import annotations

import csv
import math

import numpy as np

HEADER = ["step", "chain", "solver", "joint", "angle_deg", "x", "y", "target_x", "target_y"]  # a recording's without
NAMED_HEADER = [*HEADER, "name"]  # the name column (docs/recording.md), which the writer writes


def _wrapped(a):
    return (np.asarray(a, dtype=float) + math.pi) % (2 * math.pi) - math.pi


def chain_rows(chain) -> tuple[list[float], np.ndarray, np.ndarray, np.ndarray]:
    """(angles in degrees, joint end points (J, 2), target (2,), lengths) of one chain as the format says."""
    f = chain.fields
    if chain.solver == "snake":
        p = f["points"]
        d = np.diff(p, axis=0)
        heading = np.arctan2(d[:, 1], d[:, 0])
        angles = np.r_[heading[0], _wrapped(np.diff(heading))]
        return [math.degrees(a) for a in angles], p[1:], p[0], f["lengths"]
    if chain.solver == "walker":
        legs, m = f["lengths"].shape
        ends = f["points"].reshape(legs, m + 1, 2)[:, 1:].reshape(-1, 2)
        return [math.degrees(a) for a in f["angles"].ravel()], ends, f["body"], f["lengths"]
    return [math.degrees(a) for a in f["angles"]], f["points"][1:], f["target"], f["lengths"]


class RecordingWriter:
    def __init__(self, path):
        self.handle = open(path, "w", encoding="utf-8", newline="")
        self.out = csv.writer(self.handle)
        self.out.writerow(NAMED_HEADER)
        self.rig: dict[tuple[int, str, int], np.ndarray] = {}

    def write(self, scene, step: int) -> None:
        for i, chain in enumerate(scene.chains):
            angles, ends, target, lengths = chain_rows(chain)
            self.rig.setdefault((i, chain.solver, len(angles)), np.array(lengths, dtype=float))
            for j, (a, (x, y)) in enumerate(zip(angles, ends)):
                self.out.writerow([step, i, chain.solver, j, repr(a), repr(float(x)), repr(float(y)),
                                   repr(float(target[0])), repr(float(target[1])), chain.name or f"#{chain.number}"])

    def close(self) -> None:
        self.handle.close()


def record(scene, path, steps: int, change=None) -> dict:
    """Step ``scene`` ``steps`` times, writing each step's rows after it ran; ``change(scene, k)`` runs
    before step k. Returns the rig."""
    writer = RecordingWriter(path)
    try:
        for k in range(steps):
            if change is not None:
                change(scene, k)
            scene.step()
            writer.write(scene, k)
    finally:
        writer.close()
    return writer.rig
