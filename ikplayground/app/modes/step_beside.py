"""Stepping beside the drawing: a crowd's steps run on a worker thread while the main thread draws and shows
the last finished step, so that a frame costs about the longer of the two, not their sum (two cores).

This is the render-thread split of game engines, and works here because the compiled kernels (``nogil``) and
numpy's loops release the interpreter's lock. The order in a frame keeps it safe: the events are handled first
(the scene is edited only then), the groups are made and the crowd's arrays copied as the screen shows them
(:meth:`.SceneRenderer.hold`), the worker starts the frame's steps, the frame is drawn from the copies, and the
frame waits for the worker before it ends, so nothing outside a frame ever sees a step half done. The few chains
drawn in detail over a crowd (the selected one, rigs) are read as they are; a race, a replay, the Math overlays,
the timeline and a paused scene keep every step on the main thread.
"""

from __future__ import annotations

import threading

from ikplayground.app.draw.render import DETAIL_LIMIT


class StepBeside:
    """Whether and how a frame's steps run on a worker thread; ``enabled`` False keeps them all on the main one."""

    def __init__(self, app):
        self.app = app
        self.enabled = True
        self.frames = 0  # frames whose steps ran beside their drawing
        self._worker: threading.Thread | None = None
        self._error: BaseException | None = None

    def wanted(self) -> bool:
        """A crowd that runs, with nothing else that reads the scene while it is drawn."""
        app = self.app
        return (self.enabled and not app.paused and not app.minimized and len(app.scene.chains) > DETAIL_LIMIT
                and not app.race.on and not app.replay.active and not app.math.shown
                and app.math.session is None and not app.timeline.open)

    def start(self, dt: float) -> bool:
        """Copy what the frame draws and start its steps (``App.advance(dt)``) on the worker; False (nothing
        started) when :meth:`wanted` says no: the caller steps on the main thread."""
        if not self.wanted():
            return False
        app = self.app
        app.scene.groups  # made here, never on two threads at once
        app.renderer.hold(app.scene, app.view.camera)
        self._error = None
        self._worker = threading.Thread(target=self._run, args=(dt,), name="ikplayground-step", daemon=True)
        self._worker.start()
        self.frames += 1
        return True

    def _run(self, dt: float) -> None:
        try:
            self.app.advance(dt)
        except BaseException as e:  # raised again on the main thread by finish()
            self._error = e

    def finish(self) -> None:
        """Wait for the frame's steps (if they ran beside); an error in them is raised here."""
        worker, self._worker = self._worker, None
        if worker is None:
            return
        worker.join()
        error, self._error = self._error, None
        if error is not None:
            raise error
