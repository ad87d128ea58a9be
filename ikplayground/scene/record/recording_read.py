"""Reading a recording (docs/recording.md: "The file", "Errors") back, a step at a time, checking every line.

The one reader of the CSV (the replay's and the bake's): one line at a time
(a bad byte named with its line), :func:`csv.reader` without quoting, one
step's rows held at a time. A file that is not a recording stops it with a
one-line :class:`~.recording.RecordingError`
(``run.csv: line 7: angle_deg: not a number (got 'abc')``).
"""

from __future__ import annotations

import csv
import itertools
import math
from typing import IO, Generator, Iterator, NamedTuple, NoReturn

import numpy as np

from ikplayground.scene.core.constants import MAX_BONES, SOLVERS
from ikplayground.scene.files.file_errors import shown_name
from ikplayground.scene.record.recording import COLUMNS, HEADER, RecordingError

MAX_NUMBER = 1e300  # px or degrees: as the solvers, so that no difference or sum overflows
_WHOLE_MAX = 2**62  # a step, chain or joint number is below it
_WIDTH = len(COLUMNS)
_SHOWN = 30  # characters of a bad value a message shows


class RecordedStep(NamedTuple):
    """One step of a recording: ``step`` (since the recording began), ``line`` (1-based, of its first row),
    ``chain``, ``joint`` (R,) int, ``solver`` (R strings), ``values`` (R, 5): angle_deg, x, y, target_x,
    target_y (degrees, px).
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


def read_steps(path) -> Generator[RecordedStep, None, None]:
    """The steps (:class:`RecordedStep`) of the recording at ``path``, in order, each checked as it is read.

    RecordingError (one line naming the file and the line) when a bad step is reached.
    """
    name = shown_name(path)
    try:
        file = open(path, "rb")
    except (OSError, ValueError) as e:
        raise RecordingError(f"{name}: cannot be read ({getattr(e, 'strerror', None) or e})") from None
    with file:
        rows = csv.reader(_lines(file, name), quoting=csv.QUOTE_NONE)
        try:
            header = next(rows, None)
            if header is None:
                _fail(name, 1, f"the file is empty; a recording starts with the line {HEADER.strip()}")
            if tuple(header) != COLUMNS:
                _fail(name, 1, f"not a recording: the first line must be {HEADER.strip()} "
                               f"(got {_shown(','.join(header))})")
            group: list[list[str]] = []  # the rows of one step (one step text)
            start, last = 2, -1  # the group's first line, the step before it
            for row in rows:
                if len(row) != _WIDTH:
                    _fail(name, rows.line_num, f"{len(row)} columns where the header has {_WIDTH}")
                if group and row[0] != group[0][0]:
                    step = _step(name, group, start, last)
                    yield step
                    group, start, last = [], rows.line_num, step.step
                group.append(row)
            if group:
                yield _step(name, group, start, last)
        except csv.Error as e:  # a field beyond csv.field_size_limit(), which bounds a value's size
            _fail(name, rows.line_num, str(e))


def _lines(file: IO[bytes], name: str) -> Iterator[str]:
    """Each line of the binary ``file``, decoded, without its end (a bad byte or empty line refused)."""
    number = 0
    try:
        for number, raw in enumerate(file, 1):
            try:
                text = raw.decode("utf-8").rstrip("\r\n")
            except UnicodeDecodeError as e:
                _fail(name, number, f"not UTF-8 text (bad byte {raw[e.start:e.start + 1]!r})")
            text = text.removeprefix("\ufeff") if number == 1 else text
            if not text:
                _fail(name, number, "an empty line; a recording has none")
            if "\r" in text:  # the csv module would take it for a line end
                _fail(name, number, "a carriage return inside the line")
            yield text
    except OSError as e:
        _fail(name, number + 1, f"could not be read ({e.strerror or e})")


def _fail(name: str, line: int, message: str) -> NoReturn:
    raise RecordingError(f"{name}: line {line}: {message}")


def _shown(text: str) -> str:
    """``text`` quoted, cut to ``_SHOWN`` characters."""
    return repr(text if len(text) <= _SHOWN else text[:_SHOWN - 3] + "...")


def _refusal(column: int, text: str) -> str | None:
    """Why ``text`` is no value of column ``column`` (an index into ``COLUMNS``), or None when it is one."""
    if column == 2:
        return None if text in SOLVERS else f"must be one of {', '.join(SOLVERS)}"
    if column < 4:  # step, chain, joint: plain digits (int() would take "+1", " 1" and "1_0" too)
        digits = text.lstrip("0") or "0"  # int() converts at most 4300 digits
        whole = text.isascii() and text.isdigit() and len(digits) < 20 and int(digits) < _WHOLE_MAX
        return None if whole else "must be a whole number >= 0"
    try:
        value = float(text.replace("_", "?"))  # float() takes "1_0"
    except ValueError:
        return "not a number"
    if not math.isfinite(value):
        return "must be a finite number"
    return None if abs(value) <= MAX_NUMBER else f"must be within +-{MAX_NUMBER:g}"


def _step(name: str, rows: list[list[str]], line: int, last: int) -> RecordedStep:
    """One step's rows (from file line ``line``, after step ``last``) checked: number, values, chains, joints."""
    if (why := _refusal(0, rows[0][0])) is not None:
        _fail(name, line, f"step: {why} (got {_shown(rows[0][0])})")
    number = int(rows[0][0])
    if number <= last:
        _fail(name, line, f"step {number} after step {last}: steps must come in order, each once")
    columns = list(zip(*rows))
    digits, numbers = "".join(columns[1] + columns[3]), list(itertools.chain.from_iterable(columns[4:]))
    try:
        chain, joint = (np.fromiter(map(int, columns[c]), np.int64, len(rows)) for c in (1, 3))
        values = np.fromiter(map(float, numbers), float, len(numbers)).reshape(5, -1).T.copy()
        ok = (digits.isascii() and digits.isdigit() and max(chain.max(), joint.max()) < _WHOLE_MAX
              and bool((np.abs(values) <= MAX_NUMBER).all()) and "_" not in "".join(numbers)
              and set(columns[2]) <= set(SOLVERS))
    except (ValueError, OverflowError):
        ok = False
    if not ok:
        for i, row in enumerate(rows):
            for c, text in enumerate(row):
                if (why := _refusal(c, text)) is not None:
                    _fail(name, line + i, f"{COLUMNS[c]}: {why} (got {_shown(text)})")
        raise AssertionError("unreachable: a value failed the check of all at once only")  # pragma: no cover
    solver = list(columns[2])
    prev_chain, prev_joint = (np.concatenate(([-1], a[:-1])) for a in (chain, joint))
    new = chain != prev_chain
    in_order = np.where(new, (chain == prev_chain + 1) & (joint == 0), joint == prev_joint + 1)
    if not in_order.all():
        i = int(np.argmin(in_order))
        if new[i] and chain[i] != prev_chain[i] + 1:
            due = f"chain {prev_chain[i] + 1} or joint {prev_joint[i] + 1} of chain {prev_chain[i]}" if i else "chain 0"
            _fail(name, line + i, f"chain {chain[i]} where {due} was due: a step's chains are 0, 1, 2... in order")
        _fail(name, line + i, f"joint {joint[i]} of chain {chain[i]} where joint {0 if new[i] else prev_joint[i] + 1} "
                              "was due: a chain's joints are 0, 1, 2... in order")
    for i in (i for i in range(1, len(rows)) if solver[i] != solver[i - 1] and not new[i]):
        _fail(name, line + i, f"solver {solver[i]} in chain {chain[i]}, whose joint 0 is {solver[i - 1]}")
    starts = np.flatnonzero(new)
    head = starts[np.cumsum(new) - 1]  # each row's chain's first row
    moved = (values[:, 3:5] != values[head, 3:5]).any(axis=1)
    if moved.any():
        i = int(np.argmax(moved))
        (x, y), (x0, y0) = values[i, 3:5].tolist(), values[head[i], 3:5].tolist()
        _fail(name, line + i, f"target {x!r}, {y!r} in chain {chain[i]}, whose joint 0 has {x0!r}, {y0!r}: "
                              "a chain has one target a step")
    for s, k in zip(starts.tolist(), np.diff(np.append(starts, len(rows))).tolist()):
        if (solver[s] == "two-bone" and k != 2) or k > MAX_BONES:
            most = "2" if solver[s] == "two-bone" else f"at most {MAX_BONES}"
            _fail(name, line + s + k - 1, f"chain {chain[s]} ({solver[s]}) has {k} joints; it may have {most}")
    return RecordedStep(number, line, chain, joint, solver, values)
