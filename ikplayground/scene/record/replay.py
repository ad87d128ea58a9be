"""Replaying a recording: a scene's targets, snake heads, walker bodies and rigs driven from the file.

Before each step the :class:`Replay` puts each chain's recorded target where
the recording has it: an IK chain's ``target`` (``held``, so its motion
waits), a rope's root and its end's target, a path chain's four control points, a snake's ``replay_head``, a
walker's ``replay_body``, a rig's root and targets (and its recorded pose, which says where a walking rig
turned). A walker's or rig's appendages are not driven: they follow their parents. The rest of the
step is the scene's own, so replaying from the scene the recording started
from gives the same numbers again. A first step that does not match the scene
refuses the replay, a later one stops it (:class:`~.recording.RecordingError`).
"""

from __future__ import annotations

import numpy as np

from ikplayground.scene.files.file_errors import shown_name
from ikplayground.scene.record.extra_rows import PATH_EXTRA
from ikplayground.scene.record.recording import Layout, RecordingError
from ikplayground.scene.record.recording_read import RecordedStep, read_steps
from ikplayground.scene.step import path_step, target_paths


def _chain_text(solver: str, joints: int) -> str:
    return f"a {solver} chain of {joints} joints"


def first_mismatch(recorded: list[tuple[str, int]], scene: list[tuple[str, int]]) -> str | None:
    """The first difference between recorded and scene chains ((solver, joints) lists), in words, or None."""
    for i, (rec, now) in enumerate(zip(recorded, scene)):
        if rec != now:
            return f"chain {i} is {_chain_text(*rec)} in the recording and {_chain_text(*now)} in the scene"
    if len(recorded) > len(scene):
        i = len(scene)
        return f"chain {i} ({_chain_text(*recorded[i])}) is in the recording but not in the scene"
    if len(scene) > len(recorded):
        i = len(recorded)
        return f"chain {i} ({_chain_text(*scene[i])}) is in the scene but not in the recording"
    return None


class Replay:
    """Drives ``scene`` from the recording at ``path``, a step at a time (:meth:`drive` before each step).

    Raises
    ------
    RecordingError
        The file is no recording, holds no steps, or its first step does not match ``scene``.
    """

    def __init__(self, path, scene):
        self.name = shown_name(path)
        self.steps = 0  # steps driven so far
        self._reader = read_steps(path)
        self._held: dict = {}  # id -> the IK chains whose targets it holds, let go at the end
        self._layout: Layout | None = None
        try:
            self._next = next(self._reader, None)
            if self._next is None:
                raise RecordingError(f"{self.name}: holds no steps")
            self._check(self._next, scene, "does not match the scene")
        except RecordingError:
            self._reader.close()
            raise
        self._expected = self._next.step

    def _check(self, rec: RecordedStep, scene, what: str) -> Layout:
        layout = self._layout
        if layout is None or not layout.current(scene):
            layout = self._layout = Layout(scene)
            self._held.update((id(c), c) for g in layout.groups if "target" in g.fields and g.solver != "rope"
                              for c in g.members)
        if (len(rec.chain) == len(layout.chain) and np.array_equal(rec.chain, layout.chain)
                and np.array_equal(rec.joint, layout.joint) and rec.solver == layout.solver):
            return layout
        mismatch = first_mismatch(rec.chains(), layout.chains) or "the rows differ"
        raise RecordingError(f"{self.name}: line {rec.line}: step {rec.step} {what}: {mismatch}")

    def drive(self, scene) -> bool:
        """Put the recorded targets of the coming step on ``scene``; False when the recording has ended.
        RecordingError (the scene let go) where the step does not match or the file goes bad.
        """
        try:
            rec = self._next if self._next is not None else next(self._reader, None)
            self._next = None
            if rec is None:
                self.close(scene)
                return False
            if rec.step != self._expected:  # the recorded scene was empty in between: this one is not
                raise RecordingError(f"{self.name}: line {rec.line}: step {rec.step} where step {self._expected} "
                                     "was due: the recording has no chains in between")
            layout = self._check(rec, scene, "no longer matches the scene")
        except RecordingError:
            self.close(scene)
            raise
        targets = rec.targets()
        first = np.flatnonzero(rec.joint == 0)  # each chain's first row
        for g, (index, _) in zip(layout.groups, layout.members):
            f = g.fields
            if "targets" in f:  # a rig: its root, and its targets from the rows after its bones
                n, k = f["lengths"].shape[1], f["targets"].shape[1]
                f["root"][:] = targets[index]
                f["targets"][:] = rec.values[first[index][:, None] + n + np.arange(k), 1:3]
                f["replay_angles"][:] = np.radians(rec.values[first[index][:, None] + np.arange(n), 0])
                f["replayed"][:] = 1.0  # its walk is the recording's: it turns where the recorded pose does
            elif g.solver == "snake":
                f["replay_head"][:] = targets[index]
                f["replayed"][:] = 1.0
            elif g.solver == "walker":
                f["replay_body"][:] = targets[index]
                f["replayed"][:] = 1.0
            elif g.solver == "path":  # its curve: control point 0 its target, 1..3 its last rows
                n = f["lengths"].shape[1]
                rows = first[index][:, None] + n + np.arange(1, PATH_EXTRA)  # after its bones and its joint 0
                control = np.concatenate([targets[index][:, None], rec.values[rows, 1:3]], axis=1)
                moved = np.flatnonzero((control != f["control"]).any(axis=(1, 2)))
                if len(moved):  # laid along its curve again, as a drag of a handle does
                    f["control"][moved] = control[moved]
                    path_step.lay_rows(f, moved)
            elif g.solver == "rope":  # its end's target, and its root: the row after its bones (the step lays the
                f["target"][:] = targets[index]  # rope out from there, as after a drag)
                f["root"][:] = rec.values[first[index] + f["lengths"].shape[1], 1:3]
            else:
                f["target"][:] = targets[index]
                f["held"][:] = 1.0
        self._expected += 1
        self.steps += 1
        return True

    def close(self, scene=None) -> None:
        """Close the file and let go the targets it held in ``scene`` (as after a drag). Safe to call twice."""
        self._reader.close()
        held, self._held = self._held, {}
        if scene is None:
            return
        for chain in scene.chains:
            if id(chain) in held and chain.is_ik:
                chain.fields["held"][0] = 0.0
                target_paths.recentre(chain.fields)
