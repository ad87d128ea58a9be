"""A recording's poses in memory, every step at once, for the timeline's random access (scrub, step back).

:func:`load_frames` reads a recording through the one reader (:func:`.recording_read.read_steps`, so a bad file is
its one-line :class:`~.recording.RecordingError`) into flat arrays, refusing in one line a recording whose joints
would take more than ``MAX_BYTES``. :meth:`Frames.lines` gives a frame's chains as polylines (stage px, y down).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ikplayground.scene.core.solver_kinds import IK_SOLVERS
from ikplayground.scene.files.file_errors import shown_name
from ikplayground.scene.record.recording import RecordingError
from ikplayground.scene.record.recording_read import read_steps

MAX_BYTES = 256 << 20  # the most the timeline holds of a recording's joints (24 bytes a row)
_ROW_BYTES = 24  # x, y, angle_deg: three float64
PATH_EXTRA = 4  # a path chain's rows after its bones: its joint 0, control points 1..3
STEPS_PER_SECOND = 60


class ChainLine(NamedTuple):
    """One chain of a frame: its index in the recorded scene, solver, the points to draw (k, 2) px and whether
    they are joined (False: a walker's or rig's joints, drawn as dots: the file does not say which joins which)."""

    chain: int
    solver: str
    points: np.ndarray
    joined: bool


class Frames:
    """Every step of a recording: ``steps`` (S,) their numbers; step ``i``'s rows are ``xy[row_start[i]:
    row_start[i + 1]]`` (R, 2) px and ``angles`` (R,) degrees; its chains ``layouts[layout_of[i]]`` ((solver,
    joints) each, in chain order) and ``targets[chain_start[i]:chain_start[i + 1]]`` (C, 2) px."""

    def __init__(self, name: str, steps, row_start, xy, angles, chain_start, targets, layout_of, layouts):
        self.name = name
        self.steps, self.row_start, self.xy, self.angles = steps, row_start, xy, angles
        self.chain_start, self.targets, self.layout_of, self.layouts = chain_start, targets, layout_of, layouts

    def __len__(self) -> int:
        return len(self.steps)

    def chains(self, i: int) -> list[tuple[str, int]]:
        """Frame ``i``'s chains: (solver, joints) each, in chain order."""
        return self.layouts[int(self.layout_of[i])]

    def joints(self, i: int) -> np.ndarray:
        """Frame ``i``'s rows' x, y (R, 2) px, as the file has them."""
        return self.xy[self.row_start[i]:self.row_start[i + 1]]

    def lines(self, i: int, first_bones: dict[int, float] | None = None) -> list[ChainLine]:
        """Frame ``i``'s chains as polylines (stage px). ``first_bones``: an IK chain's bone 0 length (px) by its
        index, which puts its root (not in the file) before its joints; without it an IK chain starts at bone 0's
        end. A snake starts at its head, a rope or path chain at its root; a walker's or rig's rows are dots."""
        xy, angles = self.joints(i), self.angles[self.row_start[i]:self.row_start[i + 1]]
        targets = self.targets[self.chain_start[i]:self.chain_start[i + 1]]
        out, row = [], 0
        for c, (solver, k) in enumerate(self.chains(i)):
            ends = xy[row:row + k]
            if solver in IK_SOLVERS:
                length = (first_bones or {}).get(c)
                if length is not None:
                    a = np.radians(angles[row])
                    ends = np.vstack([ends[0] - length * np.array([np.cos(a), np.sin(a)]), ends])
                out.append(ChainLine(c, solver, ends, True))
            elif solver == "snake":
                out.append(ChainLine(c, solver, np.vstack([targets[c], ends]), True))
            elif solver in ("rope", "path"):
                n = k - 1 if solver == "rope" else k - PATH_EXTRA
                out.append(ChainLine(c, solver, np.vstack([ends[n], ends[:n]]), True))
            else:
                out.append(ChainLine(c, solver, np.vstack([targets[c], ends]), False))
            row += k
        return out


def load_frames(path, max_bytes: int = MAX_BYTES) -> Frames:
    """The recording at ``path`` read whole into a :class:`Frames`.

    Raises
    ------
    RecordingError
        The reader's one line for a bad file; a file with no steps; one whose joints pass ``max_bytes``.
    """
    name = shown_name(path)
    steps, counts, xys, angle_parts, chain_counts, target_parts, layout_of = [], [], [], [], [], [], []
    layouts: list[list[tuple[str, int]]] = []
    index: dict[tuple, int] = {}
    used = 0
    reader = read_steps(path)
    try:
        for rec in reader:
            used += len(rec.values) * _ROW_BYTES
            if used > max_bytes:
                raise RecordingError(f"{name}: too long for the timeline: its joints pass {max_bytes >> 20} MB "
                                     f"at step {rec.step} (line {rec.line}); replay it with --replay instead")
            chains = rec.chains()
            key = tuple(chains)
            layout_of.append(index.setdefault(key, len(index)))
            if layout_of[-1] == len(layouts):
                layouts.append(chains)
            steps.append(rec.step)
            counts.append(len(rec.values))
            xys.append(rec.values[:, 1:3])
            angle_parts.append(rec.values[:, 0])
            target_parts.append(rec.targets())
            chain_counts.append(len(chains))
    finally:
        reader.close()
    if not steps:
        raise RecordingError(f"{name}: holds no steps")
    return Frames(name, np.array(steps, dtype=np.int64), np.concatenate([[0], np.cumsum(counts)]),
                  np.concatenate(xys), np.concatenate(angle_parts), np.concatenate([[0], np.cumsum(chain_counts)]),
                  np.concatenate(target_parts), np.array(layout_of, dtype=np.int64), layouts)
