"""Capturing the run to a GIF (F9, the Keep page's button; ``--gif``) or an MP4 (``--video``).

After each frame is drawn, the main loop only copies it (the window, or the stage alone, scaled if asked) when a
writer's next slot has come; the writers (``draw/gif_writer.py``, ``draw/video_writer.py``) map, crop and compress
it. F9 hands the copies to an encoder in a process of its own (``draw/gif_process.py``: encoding never holds the
App's interpreter lock) through a short queue (a frame that finds it full is skipped, the one before showing
longer, so the frame rate holds and memory stays bounded); the command line writes each frame at once, so that none
is skipped. Stopping says "Encoding GIF: 40/600 frames" until the worker is through; closing the App waits for it,
so quitting never loses the file.

Slots: a fixed-step run's frame ``i`` is at ``i / 60`` s, a real-time run's at its wall-clock time since the
start; a writer at ``fps`` takes the first frame of each slot ``floor(t * fps)``.
"""

from __future__ import annotations

import math
import queue
import threading
from pathlib import Path

import numpy as np
import pygame

from ikplayground.app.draw.gif_process import GifProcess
from ikplayground.app.draw.gif_writer import MAX_FPS, GifWriter
from ikplayground.app.draw.video_writer import VIDEO_FPS, VideoWriter
from ikplayground.scene import STEP, free_name, shown_name

QUEUED = 32  # frames the F9 worker may have waiting (1280x720: 2.7 MB each)
PROCESS = True  # F9 encodes in a process of its own (False: on a thread, sharing the interpreter lock)
F9_FPS = MAX_FPS  # F9 captures the whole window at full size, 50 frames a second


def capture_path(scene_path) -> Path:
    """Where F9 writes: ``<scene file stem>-capture.gif`` beside the scene file (``-2``, ``-3``... when taken)."""
    scene_path = Path(scene_path)
    return free_name(scene_path.with_name(f"{scene_path.stem or 'ikplayground'}-capture.gif"))


def reason_of(e: BaseException) -> str:
    return str(getattr(e, "strerror", None) or e or type(e).__name__)


def toggle(app, value=None) -> None:
    """The ``gif`` command (F9, the Keep page's button): start or stop capturing the window to a GIF."""
    app.capture.toggle()


class Capture:
    """One capture: its writers [(writer, fps)], what it copies (``window`` or the stage), ``scale``, ``size``."""

    def __init__(self, writers, window: bool, scale: float, size: tuple[int, int], source: tuple[int, int],
                 threaded: bool):
        self.writers, self.threaded = writers, threaded  # threaded: F9's (the command line's write at once)
        self.window, self.scale, self.size, self.source = window, scale, size, source
        self.slots = [-1] * len(writers)
        self.taken = self.done = 0
        self.due_last = -1  # the first writer's last slot offered a frame (taken or not)
        self.filled = 0  # the first writer's slots that got a frame
        self.errors: list[str] = []
        self.saved: list[Path] = []
        self.queue: queue.Queue | None = queue.Queue() if threaded else None  # at most QUEUED frames (take)
        self.thread: threading.Thread | None = None
        self.child = writers[0][0] if writers and isinstance(writers[0][0], GifProcess) else None
        if self.child is not None:
            self.queue = None  # the child's own queue
        elif threaded:
            self.thread = threading.Thread(target=self._work, daemon=True, name="ikplayground-capture")
            self.thread.start()

    def due(self, t: float) -> list[int] | None:
        """The writers' slots at ``t`` s, when one of them has a new slot (else None: nothing to copy)."""
        slots = [math.floor(t * fps + 1e-6) for _, fps in self.writers]
        if all(s <= last for s, last in zip(slots, self.slots)):
            return None
        return slots

    @property
    def skipped(self) -> int:
        """The first writer's slots up to the last offered that got no frame (its queue was full, or no frame
        came in the slot's time)."""
        return self.due_last + 1 - self.filled

    def take(self, rgb: np.ndarray, slots: list[int]) -> None:
        """A copied frame: to the worker (skipped when its queue is full: the next frame tries the slot again),
        else written now."""
        self.due_last = max(self.due_last, slots[0])
        if self.child is not None:
            if self.child.backlog >= QUEUED:
                return
            self.child.add(rgb, slots[0])
        elif self.queue is None:
            self._write(rgb, slots)
        elif self.queue.qsize() >= QUEUED:
            return
        else:
            self.queue.put((rgb, slots))
        self.filled += slots[0] > self.slots[0]
        self.slots = slots
        self.taken += 1

    def _write(self, rgb, slots) -> None:
        for i, ((writer, _), slot) in enumerate(zip(self.writers, slots)):
            if writer is None:
                continue
            try:
                writer.add(rgb, slot)
            except (OSError, ValueError, RuntimeError) as e:
                self.errors.append(f"{shown_name(writer.path)} not saved: {reason_of(e)}")
                writer.abort()
                self.writers[i] = (None, self.writers[i][1])
        self.done += 1

    def _work(self) -> None:
        """The worker: write what comes until None, then finish the files."""
        assert self.queue is not None
        while (item := self.queue.get()) is not None:
            self._write(*item)
        self._finish()

    def _finish(self) -> None:
        for writer, _ in self.writers:
            if writer is None:
                continue
            try:
                self.saved.append(writer.close())
            except (OSError, ValueError, RuntimeError) as e:
                self.errors.append(f"{shown_name(writer.path)} not saved: {reason_of(e)}")

    def end(self) -> None:
        """No more frames: the worker finishes the files (in the background), or they are finished now."""
        if self.child is not None:
            self.child.end()
        elif self.queue is None:
            self._finish()
        else:
            self.queue.put(None)

    @property
    def finished(self) -> bool:
        if self.child is not None:
            return self._outcome(0.0)
        return self.thread is None or not self.thread.is_alive()

    def _outcome(self, timeout: float | None) -> bool:
        """The child's file saved or its error kept, once it has ended (waiting up to ``timeout`` s)."""
        assert self.child is not None
        outcome = self.child.outcome(timeout)
        if outcome is None:
            return False
        if not (self.saved or self.errors):
            kind, what = outcome
            self.saved.append(Path(what)) if kind == "saved" else self.errors.append(
                f"{shown_name(self.child.path)} not saved: {what}")
        return True

    @property
    def written(self) -> int:
        """Frames written so far."""
        return self.child.done if self.child is not None else self.done

    def wait(self) -> None:
        """Wait until the files are finished."""
        if self.child is not None:
            self._outcome(None)
        elif self.thread is not None:
            self.thread.join()


class CaptureMode:
    """The App's captures: F9's (encoded in the background) and the command line's (written frame by frame)."""

    def __init__(self, app):
        self.app = app
        self.current: Capture | None = None  # the capture taking frames
        self.encoding: Capture | None = None  # a stopped F9 capture whose worker is still writing
        self._t0 = 0.0

    @property
    def active(self) -> bool:
        return self.current is not None

    def start(self, gif=None, video=None, fps: float = MAX_FPS, scale: float = 1.0, window: bool = True,
              threaded: bool = True) -> str | None:
        """Capture to ``gif`` and/or ``video`` (paths) from this frame on; returns the error said, or None."""
        app = self.app
        source = self._surface(window).get_size()
        size = (max(1, round(source[0] * scale)), max(1, round(source[1] * scale)))
        writers: list = []
        try:
            if gif is not None:
                writers.append((GifProcess(gif, size, fps) if threaded and PROCESS else GifWriter(gif, size, fps),
                                fps))
            if video is not None:
                writers.append((VideoWriter(video, size), VIDEO_FPS))
        except (OSError, ValueError, RuntimeError, ImportError) as e:
            for writer, _ in writers:
                writer.abort()
            message = f"Not capturing: {reason_of(e)}"
            app.say(message, error=True)
            return message
        self.current = Capture(writers, window, scale, size, source, threaded)
        self._t0 = app.time if app.realtime else app.frames * STEP
        app.panel.show_capturing(True)
        names = " and ".join(shown_name(w.path) for w, _ in writers)
        app.say(f"Capturing the {'window' if window else 'stage'} to {names}" + (" (F9 stops)" if threaded else ""))
        return None

    def _surface(self, window: bool) -> pygame.Surface:
        screen = self.app.screen
        return screen if window else screen.subsurface(self.app.stage_rect.clip(screen.get_rect()))

    def toggle(self) -> None:
        """F9: start capturing the window to a GIF beside the scene file, or stop and save it."""
        if self.current is not None:
            self.stop()
        elif self.encoding is not None:
            self.app.say(f"Still encoding the last GIF ({self.progress()}): a moment", error=True)
        else:
            self.start(capture_path(self.app.scene_path), fps=F9_FPS)

    def grab(self) -> None:
        """After the frame is drawn: copy it if a writer's slot has come; say how a finished encoding ended."""
        self.poll()
        capture = self.current
        if capture is None:
            return
        app = self.app
        slots = capture.due((app.time if app.realtime else app.frames * STEP) - self._t0)
        if slots is None:
            return
        surface = self._surface(capture.window)
        if surface.get_size() != capture.source:
            self.stop("the window changed size")
            return
        if capture.size != capture.source:
            surface = pygame.transform.smoothscale(surface, capture.size)
        w, h = capture.size
        rgb = np.frombuffer(pygame.image.tobytes(surface, "RGB"), np.uint8).reshape(h, w, 3)
        capture.take(rgb, slots)
        if (capture.errors and all(writer is None for writer, _ in capture.writers)) or (
                capture.child is not None and not capture.child.alive):
            self.stop()  # (the encoder failed: its error is said)

    def stop(self, why: str = "") -> None:
        """Stop taking frames; the files are finished (F9's in the background, "Encoding GIF: ..." meanwhile)."""
        capture, self.current = self.current, None
        if capture is None:
            return
        self.app.panel.show_capturing(False)
        capture.end()
        self.encoding = capture
        if why:
            self.app.say(f"Capture stopped: {why}; saving what was captured")
        self.poll()

    def progress(self) -> str:
        c = self.encoding
        return "" if c is None else f"{c.written}/{c.taken} frames"

    def poll(self) -> None:
        """Once a frame: when the files are finished, say where they went (or why not)."""
        capture = self.encoding
        if capture is None or not capture.finished:
            return
        self.encoding = None
        capture.wait()
        for error in capture.errors:
            self.app.say(f"Capture: {error}", error=True)
        if capture.saved:
            seconds = (capture.slots[0] + 1) / capture.writers[0][1]
            skipped = f"; {capture.skipped} frames skipped to hold the frame rate" if capture.skipped else ""
            saved = " and ".join(shown_name(path) for path in capture.saved)
            self.app.say(f"Saved {saved}: {capture.taken} frames, {seconds:.1f} s{skipped}")

    def finish(self) -> list[str]:
        """Stop, wait for the files and say how it ended (closing the App, the command line's end); returns the
        errors."""
        self.stop()
        capture = self.encoding
        if capture is None:
            return []
        capture.wait()
        errors = list(capture.errors)
        self.poll()
        return errors

    def status_text(self) -> str:
        """The status line's words: capturing (F9's; the command line's captures keep the picture clean), or
        encoding the frames captured."""
        if self.current is not None:
            return f"Capturing: {self.current.taken} frames" if self.current.threaded else ""
        return f"Encoding GIF: {self.progress()}" if self.encoding is not None else ""
