"""Recording a run: every step's joints as rows of a CSV file (docs/recording.md).

Long format, one row per joint per chain per step, columns ``COLUMNS``: the
step, the chain's index (draw order), its solver, the joint, ``angle_deg``, the
joint's end ``x, y`` (stage px, y down), ``target_x, target_y`` and the chain's
``name`` (its number, ``#3``, or the name it was given: ``Chain.tag``). An IK
chain's angles are its shown ones (joint 0 absolute; with jiggle bones on, its shown joints'); a snake's joint j is
segment j, head first (segment 0's direction, then the bends), its target its
head; a rope's the same from its root, then its root, its target its end's
target; a path chain's the same, then its control points 1 to 3, its target
its curve's first control point; a walker's joint ``leg * m + b``, its target
its body's centre; a rig's joints its bones, then its targets (their heading, 0
for none, and point), its target its root; a walker's or rig's then its
appendages (:mod:`.extra_rows`).
Numbers are written as ``repr`` writes them (they read back bit for bit), a group at a
time with one ``%`` of a format made once per layout. The :class:`Recorder`
writes ``<FILE>.part`` and renames it when it closes. It replaces only a
recording: a folder, a special file or a file of other content at the path is
refused at the start, and a file saved there while it records is kept, the
recording taking the next free name.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import numpy as np

from ikplayground.scene.files.atomic_write import free_name
from ikplayground.scene.files.file_errors import shown_name
from ikplayground.scene.record.extra_rows import appendage_shape, entry_appendages, extra_count, extra_values
from ikplayground.scene.step.jiggle_step import jiggling
from ikplayground.solvers import wrap_array

COLUMNS = ("step", "chain", "solver", "joint", "angle_deg", "x", "y", "target_x", "target_y", "name")
HEADER = ",".join(COLUMNS) + "\n"
OLD_HEADER = ",".join(COLUMNS[:-1]) + "\n"  # a recording made before the name column (still read)
BUFFER_BYTES = 1 << 20  # the file's write buffer
_STEP_MARK = "\0"  # stands for the step number in a layout's format string


class RecordingError(ValueError):
    """A recording that cannot be written or read (a ValueError): one line naming the file (and line)."""


def joints_of(group) -> int:
    """The rows a chain of ``group`` gives a step: its bones (a walker: legs times bones a leg; a rig: its bones,
    then its targets), then its extra rows (:mod:`.extra_rows`: a rope's root, a path's control points 1..3, a
    walker's or rig's appendages)."""
    shape = group.fields["lengths"].shape
    if "targets" in group.fields:
        bones = shape[1] + group.fields["targets"].shape[1]
    else:
        bones = shape[1] * shape[2] if group.solver == "walker" else shape[1]
    return bones + extra_count(group)


def joint_angles(points: np.ndarray) -> np.ndarray:
    """The angles (N, n) rad of joints ``points`` (N, n + 1, 2) px: the first bone's absolute, then each turn."""
    seg = np.diff(points, axis=1)
    heading = np.arctan2(seg[..., 1], seg[..., 0])
    return np.concatenate([heading[:, :1], wrap_array(heading[:, 1:] - heading[:, :-1])], axis=1)


def group_values(group) -> tuple[np.ndarray, np.ndarray]:
    """``group``'s rows: angle_deg, x, y (N * joints, 3), chain by chain; each chain's target (N, 2)."""
    f = group.fields
    if group.solver in ("snake", "rope", "path"):  # angles from the joints: the first bone's absolute, then each turn
        points = f["points"]  # (N, n + 1, 2), a snake's head first, a rope's or a path chain's root
        angles = joint_angles(points)
        ends = points[:, 1:]
        target = points[:, 0] if group.solver == "snake" else f["control"][:, 0] if group.solver == "path" else \
            f["target"]
    elif "targets" in f:  # a rig: its bones, then its targets (their headings in degrees, 0 for none)
        angles = np.concatenate([f["angles"], np.nan_to_num(f["headings"])], axis=1)
        ends, target = np.concatenate([f["points"][:, 1:], f["targets"]], axis=1), f["root"]
    elif group.solver == "walker":
        count, legs, m = f["lengths"].shape
        angles = f["angles"].reshape(count, legs * m)
        ends = f["points"].reshape(count, legs, m + 1, 2)[:, :, 1:].reshape(count, legs * m, 2)
        target = f["body"]
    else:
        angles, ends, target = f["angles"], f["points"][:, 1:], f["target"]
        jig = jiggling(f) if "jiggle" in f else ()
        if len(jig):  # shown jiggled: the angles of the joints as shown
            angles = angles.copy()
            angles[jig] = joint_angles(f["points"][jig])
    more_angles, more_ends = extra_values(group, joint_angles)
    count, k = angles.shape
    e = more_angles.shape[1]
    out = np.empty((count, k + e, 3))
    out[:, :k, 0] = np.degrees(angles)
    out[:, :k, 1:] = ends
    out[:, k:, 0] = np.degrees(more_angles)
    out[:, k:, 1:] = more_ends
    k += e
    return out.reshape(count * k, 3), target


def drawn_lengths(group) -> np.ndarray:
    """Each chain's bone lengths (px) as drawn: (N, n), a walker's (N, legs, m); a two-bone arm's stretched."""
    f = group.fields
    if "scale" not in f:  # a snake, a walker, a rig
        return f["lengths"]
    return f["lengths"] * f["scale"]


class Layout:
    """The rows a scene gives a step, in file order (chain, then joint), for its current groups.

    Attributes
    ----------
    chain, joint : ndarray of int, shape (R,)
    solver : list of str, length R
    chains : list of (str, int)
        Each chain's solver and joint count, in draw order.
    names : list of str
        Each chain's name (``Chain.tag``), in draw order.
    """

    def __init__(self, scene):
        self.groups = scene.groups  # the list object: a regroup makes a new one
        self.shapes = [appendage_shape(g.fields) for g in self.groups]  # their appendages' rows
        order = {id(c): i for i, c in enumerate(scene.chains)}
        self.members = []  # per group: its chains' indices (N,) and joint count
        chains, joints = [], []
        for g in self.groups:
            index = np.array([order[id(c)] for c in g.members], dtype=np.int64)
            k = joints_of(g)
            self.members.append((index, k))
            chains.append(np.repeat(index, k))
            joints.append(np.tile(np.arange(k), len(index)))
        chain = np.concatenate(chains) if chains else np.zeros(0, dtype=np.int64)
        joint = np.concatenate(joints) if joints else np.zeros(0, dtype=np.int64)
        self.order = np.argsort(chain, kind="stable")  # group rows -> file rows
        self.chain, self.joint = chain[self.order], joint[self.order]
        self.chains = [(c.solver, 0) for c in scene.chains]
        for g, (index, k) in zip(self.groups, self.members):
            for i in index.tolist():
                self.chains[i] = (g.solver, k)
        self.solver = [self.chains[i][0] for i in self.chain.tolist()]
        self.names = [c.tag for c in scene.chains]
        self._format: str | None = None

    def current(self, scene) -> bool:
        """Whether this is still ``scene``'s layout (its groups, and the appendages' rows they give)."""
        return scene.groups is self.groups and all(appendage_shape(g.fields) == shape
                                                   for g, shape in zip(self.groups, self.shapes))

    @property
    def format(self) -> str:
        """The step's text: ``%r`` each angle and point, ``%s`` each target, ``_STEP_MARK`` the step."""
        if self._format is None:
            names = [name.replace("%", "%%") for name in self.names]  # a name's "%" is no conversion
            self._format = "".join(f"{_STEP_MARK},{c},{s},{j},%r,%r,%r,%s,{names[c]}\n"
                                   for c, s, j in zip(self.chain.tolist(), self.solver, self.joint.tolist()))
        return self._format

    def values(self) -> tuple[np.ndarray, np.ndarray]:
        """This step's angle_deg, x, y (R, 3) in file order, and each chain's target (C, 2) in chain order."""
        if not self.groups:
            return np.zeros((0, 3)), np.zeros((0, 2))
        rows, targets = zip(*(group_values(g) for g in self.groups))
        chain_targets = np.empty((len(self.chains), 2))
        for (index, _), target in zip(self.members, targets):
            chain_targets[index] = target
        return np.concatenate(rows)[self.order], chain_targets

    def text(self, step: int) -> str:
        """Step ``step``'s rows as the file holds them."""
        rows, targets = self.values()
        cells = np.empty((len(rows), 4), dtype=object)
        cells[:, :3] = rows  # Python floats: %r writes each as repr does
        cells[:, 3] = np.array([f"{x!r},{y!r}" for x, y in targets.tolist()] or [""], dtype=object)[self.chain]
        return (self.format % tuple(cells.ravel().tolist())).replace(_STEP_MARK, str(step))


class Recorder:
    """Writes a recording of a scene's steps to ``path`` (:meth:`record` after each step, then :meth:`close`).

    ``steps``: steps recorded so far. ``rig``: ``{(chain index, solver, joints): bone lengths}`` (px, as
    drawn; a walker's (legs, m); a rig's a dict of its ``lengths``, ``parents`` and ``target_bones``; a walker
    with appendages a dict of its ``lengths``; either's appendages' ``appendages`` (A, B) px and
    ``appendage_parents`` (A,), :func:`.extra_rows.entry_appendages`) at each key's first step (bone 0's length
    is not in the CSV).
    RecordingError when the file cannot be opened or written.
    """

    def __init__(self, path):
        self.path = Path(path)
        self.part = self.path.with_name(self.path.name + ".part")
        self.name = shown_name(self.path)
        self.replaced: Path | None = None  # set by close() when the file was changed by another while recording
        self._was = _stamp(self.path, self.name)  # what is at the path now; close() replaces only that
        self.steps = 0
        self.rig: dict[tuple[int, str, int], np.ndarray | dict] = {}
        self._layout: Layout | None = None
        try:
            self._file = open(self.part, "w", encoding="utf-8", newline="\n", buffering=BUFFER_BYTES)
        except (OSError, ValueError) as e:
            raise RecordingError(f"{self.name}: cannot be written ({_reason(e)})") from None
        self._write(HEADER)

    @property
    def open(self) -> bool:
        return self._file is not None

    def record(self, scene) -> None:
        """Write the rows of the step ``scene`` has just taken."""
        layout = self._layout
        if layout is None or not layout.current(scene):
            layout = self._layout = Layout(scene)
            self._take_rig(layout)
        self._write(layout.text(self.steps))
        self.steps += 1

    def _take_rig(self, layout: Layout) -> None:
        for g, (index, k) in zip(layout.groups, layout.members):
            lengths = None
            for row, i in enumerate(index.tolist()):
                key = (i, g.solver, k)
                if key not in self.rig:
                    lengths = drawn_lengths(g) if lengths is None else lengths
                    bones = np.array(lengths[row], dtype=float)
                    more = entry_appendages(g, row)  # a walker's or rig's appendages, if it has any
                    # a rig: its tree and its targets' bones too
                    self.rig[key] = ({"lengths": bones, **more} if more else bones) if "targets" not in g.fields \
                        else {"lengths": bones, "parents": g.fields["parents"][row].astype(int),
                              "target_bones": g.fields["target_bones"][row].astype(int), **more}

    def _write(self, text: str) -> None:
        try:
            self._file.write(text)
        except (OSError, ValueError) as e:
            self.abandon()
            raise RecordingError(f"{self.name}: could not be written ({_reason(e)}); nothing was saved") from None

    def close(self) -> Path:
        """Finish the file and give it its name (``os.replace`` of the ``.part``); returns the path."""
        if self._file is None:
            return self.path
        file, self._file = self._file, None
        try:
            file.close()
            if _stamp(self.path, self.name, check=False) != self._was:  # saved over while it recorded: keep that
                self.replaced, self.path = self.path, free_name(self.path)
            os.replace(self.part, self.path)
        except OSError as e:
            _remove(self.part)
            raise RecordingError(f"{self.name}: could not be saved ({_reason(e)})") from None
        return self.path

    def abandon(self) -> None:
        """Stop without a file: the ``.part`` is removed."""
        file, self._file = self._file, None
        if file is not None:
            try:
                file.close()
            except (OSError, ValueError):
                pass
        _remove(self.part)


def _stamp(path: Path, name: str, check: bool = True) -> tuple | None:
    """What is at ``path`` (device, inode, size, time of change), None when nothing is.

    With ``check``, refuse (:class:`RecordingError`) a path that holds anything but a
    recording: a folder, a special file, or a file whose first line is not ``HEADER``.
    """
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    if check and stat.S_ISDIR(info.st_mode):
        raise RecordingError(f"{name}: is a folder; name a .csv file to record to")
    if check and not stat.S_ISREG(info.st_mode):
        raise RecordingError(f"{name}: is not a regular file; name a .csv file to record to")
    if check and info.st_size:
        try:
            with open(path, "rb") as file:
                head = file.read(len(HEADER))
        except OSError as e:
            raise RecordingError(f"{name}: cannot be written ({_reason(e)})") from None
        if head != HEADER.encode() and not head.startswith(OLD_HEADER.encode()):
            raise RecordingError(f"{name}: holds something that is not a recording; it is left as it is "
                                 "(name another file)")
    return info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns


def _reason(e: Exception) -> str:
    return getattr(e, "strerror", None) or str(e) or type(e).__name__


def _remove(path: Path) -> None:
    try:
        os.remove(path)
    except OSError:
        pass
