"""Reading a recording (docs/recording.md) back, one step at a time, checking every line.

The one reader of the recording CSV: the replay (:mod:`.replay`) and the bake
(:mod:`.bake`) both read through :func:`read_steps`. It streams a file written
by :class:`.recording.Recorder`: it holds one step's rows at a time, never the
whole run, so a replay or a bake of a long recording costs little memory. A
file that is not a recording stops it with a
:class:`~.recording.RecordingError` (a ``ValueError``) of one line that names
the file and the line (``run.csv: line 7: angle_deg: not a number (got
'abc')``): a wrong header, a row of the wrong width, a bad number (not one,
not finite, or beyond +-``MAX_NUMBER``), steps out of order, chains or joints
out of order, too many joints, an unknown solver, a chain whose solver or
target changes from row to row.
"""

from __future__ import annotations

import itertools
from typing import Generator, Iterator, NamedTuple, NoReturn

import numpy as np

from ikplayground.scene.core.constants import MAX_BONES, SOLVERS
from ikplayground.scene.files.file_errors import shown_name
from ikplayground.scene.record.recording import COLUMNS, HEADER, RecordingError

_WIDTH = len(COLUMNS)
_SHOWN = 30  # characters of a bad value a message shows
MAX_NUMBER = 1e300  # px or degrees: as the solvers, so that no difference or sum overflows


class RecordedStep(NamedTuple):
    """One step of a recording.

    Attributes
    ----------
    step : int
        Its number: the steps since the recording began, 0 the first (a step of an empty scene
        has no rows, so its number is missing from the file).
    line : int
        The file's line (1-based) of its first row.
    chain, joint : ndarray of int, shape (R,)
        Each row's chain index and joint.
    solver : list of str, length R
        Each row's solver.
    values : ndarray, shape (R, 5)
        Each row's angle_deg, x, y, target_x, target_y (degrees, px).
    """

    step: int
    line: int
    chain: np.ndarray
    joint: np.ndarray
    solver: list
    values: np.ndarray

    def chains(self) -> list[tuple[str, int]]:
        """Each chain's solver and joint count, in chain order."""
        starts = np.flatnonzero(self.joint == 0)
        ends = np.append(starts[1:], len(self.joint))
        return [(self.solver[s], e - s) for s, e in zip(starts.tolist(), ends.tolist())]

    def targets(self) -> np.ndarray:
        """Each chain's target (C, 2) px (a snake's head, a walker's body), in chain order."""
        return self.values[self.joint == 0, 3:5]


def _shown(text: str) -> str:
    """``text`` quoted, cut to ``_SHOWN`` characters."""
    return repr(text if len(text) <= _SHOWN else text[:_SHOWN - 3] + "...")


class _Checker:
    """Parses and checks the rows of one step (lists of strings) for the file ``name``."""

    def __init__(self, name: str):
        self.name = name

    def fail(self, line: int, message: str) -> NoReturn:
        raise RecordingError(f"{self.name}: line {line}: {message}")

    def integers(self, rows: list, column: int, first_line: int) -> np.ndarray:
        texts = [r[column] for r in rows]
        try:
            out = np.fromiter(map(int, texts), np.int64, len(texts))
        except (ValueError, OverflowError):
            out = None
        joined = "".join(texts)  # digits only: int() would take "+1", " 1" and "1_0" too
        if out is not None and (out >= 0).all() and joined.isascii() and joined.isdigit():
            return out
        for i, t in enumerate(texts):
            ok = t.isascii() and t.isdigit() and int(t) < 2**62
            if not ok:
                self.fail(first_line + i, f"{COLUMNS[column]}: must be a whole number >= 0 (got {_shown(t)})")
        return np.array([int(t) for t in texts], dtype=np.int64)

    def numbers(self, rows: list, first_line: int) -> np.ndarray:
        texts = [r[4:] for r in rows]
        try:
            out = np.fromiter(map(float, itertools.chain.from_iterable(texts)), float, 5 * len(rows))
        except ValueError:
            out = None
        if out is not None:
            out = out.reshape(len(rows), 5)
        if (out is not None and np.isfinite(out).all() and (np.abs(out) <= MAX_NUMBER).all()
                and "_" not in "".join(itertools.chain.from_iterable(texts))):  # float() takes "1_0"
            return out
        for i, row in enumerate(texts):
            for j, t in enumerate(row):
                try:
                    v = float(t)
                except ValueError:
                    v = None
                if v is None or "_" in t:
                    self.fail(first_line + i, f"{COLUMNS[4 + j]}: not a number (got {_shown(t)})")
                if not np.isfinite(v):
                    self.fail(first_line + i, f"{COLUMNS[4 + j]}: must be a finite number (got {_shown(t)})")
                if abs(v) > MAX_NUMBER:
                    self.fail(first_line + i, f"{COLUMNS[4 + j]}: must be within +-{MAX_NUMBER:g} (got {_shown(t)})")
        raise AssertionError("unreachable: a number failed the fast check only")  # pragma: no cover

    def step(self, number: int, rows: list, first_line: int) -> RecordedStep:
        """Check one step's rows: chains 0, 1, 2... in order, each one's joints 0, 1, 2... of one solver
        and one target."""
        chain = self.integers(rows, 1, first_line)
        joint = self.integers(rows, 3, first_line)
        solver = [r[2] for r in rows]
        values = self.numbers(rows, first_line)
        prev_chain = np.r_[-1, chain[:-1]]
        prev_joint = np.r_[-1, joint[:-1]]
        new = chain != prev_chain
        ok = np.where(new, (chain == prev_chain + 1) & (joint == 0), joint == prev_joint + 1)
        if not ok.all():
            i = int(np.argmin(ok))
            due: str | int  # the chain due, or the joint number due
            if new[i] and chain[i] != prev_chain[i] + 1:
                due = "chain 0" if i == 0 else (f"chain {prev_chain[i] + 1} or joint {prev_joint[i] + 1} of "
                                                f"chain {prev_chain[i]}")
                self.fail(first_line + i, f"chain {chain[i]} where {due} was due: a step's chains are 0, 1, 2... "
                                          "in order")
            due = 0 if new[i] else prev_joint[i] + 1
            self.fail(first_line + i, f"joint {joint[i]} of chain {chain[i]} where joint {due} was due: a chain's "
                                      "joints are 0, 1, 2... in order")
        known = set(SOLVERS)
        for i, s in enumerate(solver):
            if s not in known:
                self.fail(first_line + i, f"solver: must be one of {', '.join(SOLVERS)} (got {_shown(s)})")
            if not new[i] and s != solver[i - 1]:
                self.fail(first_line + i, f"solver {s} in chain {chain[i]}, whose joint 0 is {solver[i - 1]}")
        starts = np.flatnonzero(new)
        head = starts[np.cumsum(new) - 1]  # each row's chain's first row
        moved = (values[:, 3:5] != values[head, 3:5]).any(axis=1)
        if moved.any():
            i = int(np.argmax(moved))
            here, first = values[i, 3:5].tolist(), values[head[i], 3:5].tolist()
            self.fail(first_line + i, f"target {here[0]!r}, {here[1]!r} in chain {chain[i]}, whose joint 0 has "
                                      f"{first[0]!r}, {first[1]!r}: a chain has one target a step")
        counts = np.diff(np.append(starts, len(rows)))
        for s, k in zip(starts.tolist(), counts.tolist()):
            if (solver[s] == "two-bone" and k != 2) or k > MAX_BONES:
                most = "2" if solver[s] == "two-bone" else f"at most {MAX_BONES}"
                self.fail(first_line + s + k - 1, f"chain {chain[s]} ({solver[s]}) has {k} joints; it may have {most}")
        return RecordedStep(number, first_line, chain, joint, solver, values)


def read_steps(path) -> Generator[RecordedStep, None, None]:
    """The steps of the recording at ``path``, in order, each checked as it is read.

    Raises
    ------
    RecordingError
        The file cannot be read, or is not a recording: one line naming the
        file and, for a bad line, the line. Raised when the bad step is
        reached (the steps before it come first).
    """
    name = shown_name(path)
    try:
        file = open(path, "rb")
    except (OSError, ValueError) as e:
        raise RecordingError(f"{name}: cannot be read ({getattr(e, 'strerror', None) or e})") from None
    with file:
        yield from _steps(file, name)


def _steps(file, name: str) -> Iterator[RecordedStep]:
    checker = _Checker(name)
    lines = iter(_lines(file, name))
    first = next(lines, None)
    if first is None:
        raise RecordingError(f"{name}: line 1: the file is empty; a recording starts with the line {HEADER.strip()}")
    if first[1] != HEADER.strip():
        raise RecordingError(f"{name}: line 1: not a recording: the first line must be {HEADER.strip()} "
                             f"(got {_shown(first[1])})")
    rows: list[list[str]]
    number, rows, start, step_text = -1, [], 0, None
    for line_no, text in lines:
        row = text.split(",")
        if len(row) != _WIDTH:
            checker.fail(line_no, f"{len(row)} columns where the header has {_WIDTH}")
        if row[0] != step_text:
            if rows:
                yield checker.step(number, rows, start)
                rows = []
            got = int(checker.integers([row], 0, line_no)[0])
            if step_text is not None and got <= number:
                checker.fail(line_no, f"step {got} after step {number}: steps must come in order, each once")
            number, step_text, start = got, row[0], line_no
        rows.append(row)
    if rows:
        yield checker.step(number, rows, start)


def _lines(file, name: str):
    """(line number, text without its line end) of each line of the binary ``file``, decoded one at a
    time (a bad byte is named with its line; a leading byte order mark is allowed); an empty last line is
    no line."""
    line_no = 0
    try:
        for line_no, raw in enumerate(file, 1):
            try:
                text = raw.decode("utf-8").rstrip("\r\n")
            except UnicodeDecodeError as e:
                raise RecordingError(f"{name}: line {line_no}: not UTF-8 text (bad byte {raw[e.start:e.start + 1]!r})"
                                     ) from None
            if line_no == 1:
                text = text.removeprefix("\ufeff")
            if not text:
                raise RecordingError(f"{name}: line {line_no}: an empty line; a recording has none")
            yield line_no, text
    except OSError as e:
        raise RecordingError(f"{name}: line {line_no + 1}: could not be read ({e.strerror or e})") from None
