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
        self._plans: dict[tuple, tuple] = {}  # (layout, first bones) -> _plan's answer

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
        points, starts, joined = self.polylines(i, first_bones)
        return [ChainLine(c, solver, points[a:b], bool(j)) for c, ((solver, _), a, b, j)
                in enumerate(zip(self.chains(i), starts[:-1].tolist(), starts[1:].tolist(), joined))]

    def polylines(self, i: int, first_bones: dict[int, float] | None = None
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Frame ``i``'s chains at once, as :meth:`lines` gives them: their points (P, 2) px chain by chain, chain
        c's ``points[starts[c]:starts[c + 1]]`` ((C + 1,) starts) and whether it is joined (C,) bool. The order is
        worked out once per layout (and ``first_bones``), so a frame costs a few numpy passes."""
        rows = slice(self.row_start[i], self.row_start[i + 1])
        xy, angles = self.xy[rows], self.angles[rows]
        targets = self.targets[self.chain_start[i]:self.chain_start[i + 1]]
        bones = first_bones or {}
        key = (int(self.layout_of[i]), tuple(sorted(bones.items())))
        plan = self._plans.get(key)
        if plan is None:
            plan = self._plans[key] = _plan(self.chains(i), bones)
        order, starts, joined, ik_rows, ik_lengths = plan
        a = np.radians(angles[ik_rows])
        roots = xy[ik_rows] - ik_lengths[:, None] * np.stack([np.cos(a), np.sin(a)], axis=1)
        return np.concatenate([xy, targets, roots])[order], starts, joined


def _plan(chains: list[tuple[str, int]], bones: dict[int, float]):
    """How a layout's frame becomes polylines: indices into (rows, targets, roots) in drawing order, each chain's
    start (C + 1,), joined (C,), the IK rows whose roots are worked out and their bone 0 lengths."""
    rows, count = sum(k for _, k in chains), len(chains)
    order: list[int] = []
    starts, ik_rows, joined, ik_lengths = [0], [], [], []  # type: tuple[list[int], list[int], list[bool], list[float]]
    row = 0
    for c, (solver, k) in enumerate(chains):
        here = list(range(row, row + k))
        if solver in IK_SOLVERS:
            if c in bones:
                order.append(rows + count + len(ik_rows))
                ik_rows.append(row)
                ik_lengths.append(bones[c])
            order += here
        elif solver in ("rope", "path"):
            n = k - 1 if solver == "rope" else k - PATH_EXTRA
            order += [row + n] + here[:n]
        else:  # a snake from its head; a walker's or rig's joints after its body or root
            order += [rows + c] + here
        joined.append(solver not in ("walker", "rig"))
        starts.append(len(order))
        row += k
    return (np.array(order, dtype=np.int64), np.array(starts, dtype=np.int64), np.array(joined, dtype=bool),
            np.array(ik_rows, dtype=np.int64), np.array(ik_lengths, dtype=float))


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
