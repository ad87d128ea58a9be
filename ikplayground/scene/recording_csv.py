"""Reading a recording CSV (one row per joint per chain per step) as frames, checking every row.

The recorder writes the CSV with the header ``step,chain,solver,joint,angle_deg,
x,y,target_x,target_y``, one row per joint per chain per step, numbers at full
precision. Its meaning (docs/animation-format.md gives it in full):

- ``step``: the steps since the recording began, from 0, ascending; ``chain``:
  the chain's index in the scene's draw order at that step; ``solver``: one of
  ``SOLVERS``.
- IK chains: ``joint`` j = 0..n-1, ``angle_deg`` bone 0's absolute angle
  (``atan2(dy, dx)`` on screen, y down, degrees), the others relative to the
  bone before; ``x, y`` the end of bone j; ``target_x, target_y`` the target.
- Snakes: ``joint`` j is segment j from the head (same angles); the target is
  the head. Walkers: ``joint`` = leg * m + b (m bones a leg), each leg's first
  angle absolute; the target is the body's centre.

:func:`read_frames` yields one :class:`Frame` per block of rows (one chain at
one step), streaming; every problem is a ``ValueError`` naming the line.
"""

from __future__ import annotations

import csv
import math
import re
from pathlib import Path
from typing import Iterator, NamedTuple

import numpy as np

HEADER = ("step", "chain", "solver", "joint", "angle_deg", "x", "y", "target_x", "target_y")
SOLVERS = ("two-bone", "ccd", "fabrik", "dls", "snake", "walker")
MAX_JOINTS = 10_000  # rows of one chain at one step (the playground's largest chain has 64 bones, a walker 24)
MAX_NUMBER = 1e300  # px or degrees: as the solvers, so that no difference or sum overflows
_WHOLE = re.compile(r"[0-9]{1,15}\Z")


class Frame(NamedTuple):
    """One chain at one step of a recording.

    ``angles`` (n,) degrees and ``points`` (n, 2) px (y down) are the rows'
    ``angle_deg`` and ``x, y`` in joint order; ``target`` (2,) px.
    """

    line: int  # the line of the block's first row (the header is line 1)
    step: int
    chain: int
    solver: str
    angles: np.ndarray
    points: np.ndarray
    target: np.ndarray


def _whole(text: str, what: str, where: str) -> int:
    if not _WHOLE.match(text):
        raise ValueError(f"{where}: {what} must be a whole number >= 0 (got {text!r})")
    return int(text)


def _number(text: str, what: str, where: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{where}: {what} must be a number (got {text!r})") from None
    if not math.isfinite(value) or "_" in text:
        raise ValueError(f"{where}: {what} must be a finite number (got {text!r})")
    if abs(value) > MAX_NUMBER:
        raise ValueError(f"{where}: {what} must be within +-{MAX_NUMBER:g} (got {text!r})")
    return value


class _Block:
    """The rows of one (step, chain) being gathered."""

    def __init__(self, line: int, step: int, chain: int, solver: str, target: tuple[float, float]):
        self.line, self.step, self.chain, self.solver, self.target = line, step, chain, solver, target
        self.angles: list[float] = []
        self.points: list[tuple[float, float]] = []

    def frame(self) -> Frame:
        return Frame(self.line, self.step, self.chain, self.solver, np.array(self.angles, dtype=float),
                     np.array(self.points, dtype=float).reshape(-1, 2), np.array(self.target, dtype=float))


def _rows(handle, name: str) -> Iterator[tuple[int, list[str]]]:
    """(line, fields) of each row after the header, with the reader's and the decoder's errors made
    ValueErrors naming the line."""
    reader = csv.reader(handle, strict=True)
    line = 1
    try:
        for row in reader:
            yield line, row
            line = reader.line_num + 1
    except UnicodeDecodeError:
        raise ValueError(f"{name} line {line}: not UTF-8 text") from None
    except csv.Error as e:
        raise ValueError(f"{name} line {line}: not a CSV row ({e})") from None


def read_frames(path) -> Iterator[Frame]:
    """The frames of the recording CSV at ``path``, in the file's order, each checked.

    Raises
    ------
    ValueError
        A bad header, a row with a wrong field count, a number that is not
        one (or not finite), an unknown solver, a joint out of order, a step
        that goes back, a chain twice in one step, or a block whose solver or
        target changes midway; the message names the file and the line.
    OSError
        The file cannot be read.
    """
    path = Path(path)
    name = path.name
    with open(path, encoding="utf-8-sig", newline="") as handle:
        rows = _rows(handle, name)
        first = next(rows, None)
        if first is None:
            raise ValueError(f"{name} line 1: empty file (expected the header {','.join(HEADER)})")
        if tuple(first[1]) != HEADER:
            raise ValueError(f"{name} line 1: the header must be {','.join(HEADER)} (got {','.join(first[1])[:120]})")
        block: _Block | None = None
        step = -1
        seen: set[int] = set()  # chains already given in this step
        for line, row in rows:
            if not row:  # an empty line
                continue
            where = f"{name} line {line}"
            if len(row) != len(HEADER):
                raise ValueError(f"{where}: {len(row)} fields, expected {len(HEADER)} ({','.join(HEADER)})")
            s = _whole(row[0], "step", where)
            c = _whole(row[1], "chain", where)
            solver = row[2]
            if solver not in SOLVERS:
                raise ValueError(f"{where}: unknown solver {solver[:40]!r} (one of {', '.join(SOLVERS)})")
            j = _whole(row[3], "joint", where)
            angle, x, y, tx, ty = (_number(t, what, where) for t, what in zip(row[4:], HEADER[4:]))
            if block is not None and (s, c) == (block.step, block.chain):
                if solver != block.solver:
                    raise ValueError(f"{where}: chain {c} at step {s} changes solver midway "
                                     f"({block.solver} above, {solver} here)")
                if (tx, ty) != block.target:
                    raise ValueError(f"{where}: chain {c} at step {s} changes target midway")
            else:
                if block is not None:
                    yield block.frame()
                if s < step:
                    raise ValueError(f"{where}: step {s} comes after step {step} (steps must ascend)")
                if s > step:
                    step, seen = s, set()
                if c in seen:
                    raise ValueError(f"{where}: chain {c} appears twice in step {s}")
                seen.add(c)
                block = _Block(line, s, c, solver, (tx, ty))
            if j != len(block.angles):
                raise ValueError(f"{where}: joint {j} of chain {c} at step {s}, expected joint {len(block.angles)} "
                                 "(joints are numbered 0, 1, 2... in order)")
            if j >= MAX_JOINTS:
                raise ValueError(f"{where}: more than {MAX_JOINTS} joints in chain {c} at step {s}")
            block.angles.append(angle)
            block.points.append((x, y))
        if block is not None:
            yield block.frame()
