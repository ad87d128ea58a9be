"""Reading a recording (docs/recording.md: "The file", "Errors") back, a step at a time, checking every line.

The one reader of the CSV (the replay's and the bake's). Only a regular file is
opened, without blocking; each line is decoded (a bad byte named with its line)
and split at commas with no quoting, no longer than the csv module's field limit
allows; one step's lines are held at a time, no more than a scene can give
(``MAX_ROWS``). A file that is not a recording stops it with a one-line
:class:`~.recording.RecordingError` (``run.csv: line 7: angle_deg: not a number (got 'abc')``).
"""

from __future__ import annotations

import csv
import itertools
import math
import os
from typing import IO, Generator, Iterator, NamedTuple, NoReturn

import numpy as np

from ikplayground.scene.core.constants import MAX_BONES, SOLVERS
from ikplayground.scene.core.scene import MAX_CHAINS
from ikplayground.scene.files.capped_read import open_regular
from ikplayground.scene.files.file_errors import shown_name
from ikplayground.scene.core.chain import NAME_BANNED, NAME_MOST
from ikplayground.scene.record.recording import COLUMNS, HEADER, OLD_HEADER, RecordingError

MAX_NUMBER = 1e300  # px or degrees: as the solvers, so that no difference or sum overflows
_WHOLE_MAX = 2**62  # a step, chain or joint number is below it
_WIDTH = len(COLUMNS)
_NAME = COLUMNS.index("name")
_SHOWN = 30  # characters of a bad value a message shows
MAX_ROWS = MAX_CHAINS * MAX_BONES  # the most rows a step of a scene can give
_CHUNK = 1 << 14  # rows parsed at once: a step's parsed copy is made a chunk at a time
_SOLVER_SET = {s: s for s in SOLVERS}  # each row's solver is one of these strings, not a copy


class RecordedStep(NamedTuple):
    """One step of a recording.

    ``step`` its number (0 the first; an empty scene's step has no rows), ``line`` the file's line of
    its first row, ``chain``, ``joint`` (R,) int, ``solver`` (R strings), ``values`` (R, 5): angle_deg,
    x, y, target_x, target_y (degrees, px); ``names`` each chain's name in chain order (None: a recording
    made before the name column).
    """

    step: int
    line: int
    chain: np.ndarray
    joint: np.ndarray
    solver: list
    values: np.ndarray
    names: list | None = None

    def chains(self) -> list[tuple[str, int]]:
        """Each chain's solver and joint count, in chain order."""
        starts = np.flatnonzero(self.joint == 0)
        ends = np.append(starts[1:], len(self.joint))
        return [(self.solver[s], e - s) for s, e in zip(starts.tolist(), ends.tolist())]

    def targets(self) -> np.ndarray:
        """Each chain's target (C, 2) px (a snake's head, a walker's body), in chain order."""
        return self.values[self.joint == 0, 3:5]


def read_steps(path) -> Generator[RecordedStep, None, None]:
    """The steps of the recording at ``path``, in order, each checked as it is read.

    RecordingError (one line naming the file and the line) when a bad step is reached, or a step
    runs over ``MAX_ROWS`` rows; a folder, a named pipe or a device is refused before any read.
    """
    name = shown_name(path)
    with os.fdopen(open_regular(path, name, "recording", RecordingError), "rb") as file:
        width = [_WIDTH]  # the header's columns (an old recording's: no name), set once it is read
        lines = _lines(file, name, width)
        header = next(lines, None)
        if header is None:
            _fail(name, 1, f"the file is empty; a recording starts with the line {HEADER.strip()}")
        if header not in (HEADER.strip(), OLD_HEADER.strip()):
            _fail(name, 1, f"not a recording: the first line must be {HEADER.strip()} (got {_shown(header)})")
        width[0] = header.count(",") + 1
        group: list[str] = []  # the lines of one step, as read: one string a row holds least memory
        start, last, key = 2, -1, ""  # the group's first line, the step before it, the group's step text
        for number, text in enumerate(lines, 2):
            step_text = text.partition(",")[0]
            if group and step_text != key:
                step = _step(name, group, start, last, width[0])
                yield step
                group, start, last = [], number, step.step
            if len(group) == MAX_ROWS:
                _fail(name, start, f"step {_shown(key)} has more than {MAX_ROWS:,} rows: a scene has at most "
                                   f"{MAX_CHAINS:,} chains of at most {MAX_BONES} joints")
            key = step_text
            group.append(text)
        if group:
            yield _step(name, group, start, last, width[0])


def _lines(file: IO[bytes], name: str, width: list[int]) -> Iterator[str]:
    """Each line of the binary ``file``, decoded, without its end: a bad byte, an empty line, a field over
    ``csv.field_size_limit()`` (read no further) or a count of fields other than ``width[0]`` refused."""
    number, field_cap = 0, csv.field_size_limit()
    line_cap = _WIDTH * (field_cap + 1) + 2
    try:
        while raw := file.readline(line_cap):
            number += 1
            try:
                text = raw.decode("utf-8").rstrip("\r\n")
            except UnicodeDecodeError as e:
                _fail(name, number, f"not UTF-8 text (bad byte {raw[e.start:e.start + 1]!r})")
            text = text.removeprefix("\ufeff") if number == 1 else text
            if not text:
                _fail(name, number, "an empty line; a recording has none")
            if "\r" in text:  # a csv reader would take it for a line end
                _fail(name, number, "a carriage return inside the line")
            fields = text.split(",")
            if len(raw) == line_cap or max(map(len, fields)) > field_cap:
                _fail(name, number, f"field larger than field limit ({field_cap})")
            if number > 1 and len(fields) != width[0]:
                _fail(name, number, f"{len(fields)} columns where the header has {width[0]}")
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
    if column == _NAME:
        return None if _is_name(text) else (f"must be # and a number, or 1 to {NAME_MOST} printable characters "
                                             f"without a space at either end, a double quote or a #")
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


def _is_name(text: str) -> bool:
    """Whether ``text`` is a chain's name as the recorder writes it: ``#3``, or a name a chain may have."""
    if text[:1] == "#":
        return text[1:].isascii() and text[1:].isdigit()
    return (0 < len(text) <= NAME_MOST and text == text.strip() and text.isprintable()
            and not any(ch in NAME_BANNED for ch in text))


def _parsed(name: str, lines: list[str], line: int) -> tuple[np.ndarray, np.ndarray, list[str], np.ndarray, tuple]:
    """Some of a step's lines (the first at file line ``line``) as chain (R,), joint (R,), solver (R),
    values (R, 5) and names (R, or () without the column), every value checked (all at once, then row by
    row to name the first bad one)."""
    rows = [text.split(",") for text in lines]
    columns = list(zip(*rows))
    names = columns[_NAME] if len(columns) > _NAME else ()
    digits, numbers = "".join(columns[1] + columns[3]), list(itertools.chain.from_iterable(columns[4:_NAME]))
    try:
        chain, joint = (np.fromiter(map(int, columns[c]), np.int64, len(rows)) for c in (1, 3))
        values = np.fromiter(map(float, numbers), float, len(numbers)).reshape(5, -1).T.copy()
        ok = (digits.isascii() and digits.isdigit() and max(chain.max(), joint.max()) < _WHOLE_MAX
              and bool((np.abs(values) <= MAX_NUMBER).all()) and "_" not in "".join(numbers)
              and set(columns[2]) <= _SOLVER_SET.keys() and all(map(_is_name, set(names))))
    except (ValueError, OverflowError):
        ok = False
    if not ok:
        for i, row in enumerate(rows):
            for c, text in enumerate(row):
                if (why := _refusal(c, text)) is not None:
                    _fail(name, line + i, f"{COLUMNS[c]}: {why} (got {_shown(text)})")
        raise AssertionError("unreachable: a value failed the check of all at once only")  # pragma: no cover
    return chain, joint, [_SOLVER_SET[s] for s in columns[2]], values, names


def _step(name: str, lines: list[str], line: int, last: int, width: int = _WIDTH) -> RecordedStep:
    """One step's lines (from file line ``line``, after step ``last``; ``width`` columns) checked: number,
    values, chains, joints, names; ``lines`` is emptied."""
    if (why := _refusal(0, lines[0].partition(",")[0])) is not None:
        _fail(name, line, f"step: {why} (got {_shown(lines[0].partition(',')[0])})")
    number = int(lines[0].partition(",")[0])
    if number <= last:
        _fail(name, line, f"step {number} after step {last}: steps must come in order, each once")
    parts = [_parsed(name, lines[i:i + _CHUNK], line + i) for i in range(0, len(lines), _CHUNK)]
    count = len(lines)
    lines.clear()  # the text is parsed: let it go before the arrays are joined
    chain, joint, values = (np.concatenate([part[k] for part in parts]) for k in (0, 1, 3))
    solver = list(itertools.chain.from_iterable(part[2] for part in parts))
    row_names = list(itertools.chain.from_iterable(part[4] for part in parts)) if width > _NAME else None
    del parts
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
    for i in (i for i in range(1, count) if solver[i] != solver[i - 1] and not new[i]):
        _fail(name, line + i, f"solver {solver[i]} in chain {chain[i]}, whose joint 0 is {solver[i - 1]}")
    if row_names is not None:
        for i in (i for i in range(1, count) if row_names[i] != row_names[i - 1] and not new[i]):
            _fail(name, line + i, f"name {row_names[i]} in chain {chain[i]}, whose joint 0 is {row_names[i - 1]}: "
                                  "a chain has one name a step")
    starts = np.flatnonzero(new)
    head = starts[np.cumsum(new) - 1]  # each row's chain's first row
    moved = (values[:, 3:5] != values[head, 3:5]).any(axis=1)
    if moved.any():
        i = int(np.argmax(moved))
        (x, y), (x0, y0) = values[i, 3:5].tolist(), values[head[i], 3:5].tolist()
        _fail(name, line + i, f"target {x!r}, {y!r} in chain {chain[i]}, whose joint 0 has {x0!r}, {y0!r}: "
                              "a chain has one target a step")
    for s, k in zip(starts.tolist(), np.diff(np.append(starts, count)).tolist()):
        if (solver[s] == "two-bone" and k != 2) or k > MAX_BONES:
            most = "2" if solver[s] == "two-bone" else f"at most {MAX_BONES}"
            _fail(name, line + s + k - 1, f"chain {chain[s]} ({solver[s]}) has {k} joints; it may have {most}")
    names = None if row_names is None else [row_names[s] for s in starts.tolist()]
    return RecordedStep(number, line, chain, joint, solver, values, names)
