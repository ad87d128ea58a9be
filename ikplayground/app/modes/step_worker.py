"""Stepping a crowd on a second core: the scene's next steps run on a worker thread while the main thread draws
the last finished step (the two-buffer pipeline of game engines' render threads).

The worker never writes what the main thread reads. It copies the groups' arrays into buffers of its own while
the main thread draws from the scene's, steps the copies (the stress test's script too), and writes them back only
once the drawing is done (:meth:`StepWorker.painted`); the main thread waits for it (:meth:`StepWorker.join`)
before it next touches the scene. Every step is the serial step's, operation for operation.
"""

from __future__ import annotations

import threading
import time
from types import SimpleNamespace

import numpy as np

from ikplayground.app.draw.render import DETAIL_LIMIT
from ikplayground.scene import drive_stress, smoothed, step_groups
from ikplayground.solvers import jit


class StepWorker:
    """One worker thread, started on the first job; ``join`` returns what the last job did."""

    def __init__(self):
        self._jobs: list = []
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None
        self._job: dict | None = None
        self._buffers: dict[int, tuple] = {}
        self.launched = 0  # jobs started

    @property
    def busy(self) -> bool:
        return self._job is not None

    def launch(self, scene, steps: int, stress: bool) -> None:
        """Start ``steps`` steps of ``scene`` (the stress test's script before each when ``stress``)."""
        self.join()
        groups = list(scene.groups)  # (regrouped here, on the main thread, if the scene changed)
        job = {"scene": scene, "groups": groups, "steps": steps, "stress": stress, "painted": threading.Event(),
               "done": threading.Event(), "error": None, "ms": 0.0, "costs": None}
        self._job = job
        self.launched += 1
        with self._wake:
            self._jobs.append(job)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="ikplayground-steps", daemon=True)
                self._thread.start()
            self._wake.notify()

    def painted(self) -> None:
        """The main thread has drawn the frame: the worker may write its steps back into the scene."""
        if self._job is not None:
            self._job["painted"].set()

    def join(self) -> dict | None:
        """Wait for the last job to finish and be written back; its ``steps`` and ``ms`` (None if there was none).

        An exception the steps raised is raised here, on the main thread.
        """
        job = self._job
        if job is None:
            return None
        job["painted"].set()  # (a frame that drew nothing: write back now)
        job["done"].wait()
        self._job = None
        if job["error"] is not None:
            raise job["error"]
        scene = job["scene"]
        scene.steps += job["steps"]
        scene.solver_ms = job["costs"]
        return job

    def _run(self) -> None:
        alone = False  # the kernels on this thread alone, once loaded: the drawing has the other core
        while True:
            with self._wake:
                while not self._jobs:
                    self._wake.wait()
                job = self._jobs.pop(0)
            try:
                alone = alone or jit.one_thread_here()
                self._work(job)
            except BaseException as exc:  # handed to the main thread by join
                job["error"] = exc
            finally:
                job["done"].set()

    def _work(self, job: dict) -> None:
        scene, groups = job["scene"], job["groups"]
        t0 = time.perf_counter()
        kept, self._buffers = self._buffers, {}  # buffers for this job's groups only
        shadows = [SimpleNamespace(solver=g.solver, members=g.members, fields=self._copy_of(g, kept)) for g in groups]
        costs = None
        for k in range(job["steps"]):
            if job["stress"]:
                drive_stress(scene, scene.steps + k, shadows)
            costs = step_groups(shadows, scene.stage, scene.seed, scene.terrain)
        job["costs"] = costs if costs is not None else scene.solver_ms
        job["ms"] = (time.perf_counter() - t0) * 1000.0
        job["painted"].wait()
        for g, s in zip(groups, shadows):
            for name, live in g.fields.items():
                np.copyto(live, s.fields[name])

    def _copy_of(self, group, kept: dict) -> dict:
        """``group``'s arrays copied into buffers for it: the last job's (``kept``) when the shapes are the same."""
        owner, copies = kept.get(id(group), (None, {}))
        if owner is not group or copies.keys() != group.fields.keys() or any(
                copies[k].shape != v.shape for k, v in group.fields.items()):
            copies = {k: np.empty_like(v) for k, v in group.fields.items()}
        self._buffers[id(group)] = (group, copies)
        for name, live in group.fields.items():
            np.copyto(copies[name], live)
        return copies


class Pipeline:
    """The App's side of the worker: whether a frame's steps go to it, and what to do when they come back.

    A crowd (past the renderer's ``DETAIL_LIMIT``) in real time steps on the worker unless a race, a replay or a
    recording needs each step's state on the main thread; otherwise the App steps in its own loop.
    """

    def __init__(self, app):
        self.app = app
        self.worker = StepWorker()
        self.mode = "auto"  # "auto": crowds in real time; "on": crowds at a fixed step too (tests); "off"

    def takes(self) -> bool:
        """Whether this frame's steps go to the worker."""
        app = self.app
        return (self.mode == "on" or self.mode == "auto" and app.realtime) and len(app.scene.chains) > DETAIL_LIMIT \
            and not (app.race.on or app.replay.active or app.record.active)

    def launch(self, steps: int) -> None:
        """Hand ``steps`` steps to the worker (the arrow keys' steering set first, as the App's loop sets it)."""
        app = self.app
        if steps:
            if not app.stress.on:
                app.steer()
            self.worker.launch(app.scene, steps, app.stress.on)

    def finish(self) -> None:
        """Wait for the worker's steps and take them in: the step's cost, the Math page's numbers."""
        job = self.worker.join()
        if job is not None and job["steps"]:
            self.app.step_ms = smoothed(self.app.step_ms, job["ms"] / job["steps"])
            self.app.math.after_step()  # the selected chain's numbers once a frame (each step's on the main loop)
