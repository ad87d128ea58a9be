"""F9's GIF encoder in a process of its own, so that encoding never holds the App's interpreter lock.

The App sends each frame's RGB bytes (shape (h, w, 3) uint8 as bytes) and slot through a queue; the child
(started with "spawn": no copy of the App's window or threads) writes them with :class:`GifWriter` and counts
them in a shared value, which the status line shows ("Encoding GIF: 40/600 frames").
"""

from __future__ import annotations

import multiprocessing
from pathlib import Path

import numpy as np

from ikplayground.app.draw.gif_writer import GifWriter


def encode(path: str, size: tuple[int, int], fps: float, frames, done, result) -> None:
    """In the child: write the frames that come until None, then finish the GIF; ``result`` gets
    ``("saved", path)`` or ``("error", reason)``."""
    w, h = size
    writer = None
    try:
        writer = GifWriter(path, size, fps)
        while (item := frames.get()) is not None:
            data, slot = item
            writer.add(np.frombuffer(data, np.uint8).reshape(h, w, 3), slot)
            with done.get_lock():
                done.value += 1
        result.put(("saved", str(writer.close())))
    except (OSError, ValueError) as e:
        if writer is not None:
            writer.abort()
        result.put(("error", str(getattr(e, "strerror", None) or e)))


class GifProcess:
    """A GIF written to ``path`` by a child process: frames of ``size`` (w, h) px at ``fps`` slots a second."""

    def __init__(self, path, size: tuple[int, int], fps: float):
        self.path = Path(path)
        self.size = (int(size[0]), int(size[1]))
        ctx = multiprocessing.get_context("spawn")
        self._frames, self._result = ctx.Queue(), ctx.Queue()
        self._done = ctx.Value("l", 0)
        self.sent = 0
        self._outcome: tuple[str, str] | None = None
        self._process = ctx.Process(target=encode, args=(str(self.path), self.size, fps, self._frames, self._done,
                                                         self._result), daemon=True, name="ikplayground-gif")
        self._process.start()

    @property
    def done(self) -> int:
        """Frames the child has written."""
        return int(self._done.value)

    @property
    def backlog(self) -> int:
        """Frames sent and not yet written."""
        return self.sent - self.done

    @property
    def alive(self) -> bool:
        return self._process.is_alive()

    def add(self, rgb: np.ndarray, slot: int) -> None:
        """Send frame ``rgb`` (shape (h, w, 3) uint8) at ``slot``: queued at once, written by the child."""
        self._frames.put((np.ascontiguousarray(rgb).tobytes(), slot))
        self.sent += 1

    def end(self) -> None:
        """No more frames: the child finishes the file."""
        self._frames.put(None)

    def outcome(self, timeout: float | None = None) -> tuple[str, str] | None:
        """("saved", path) or ("error", reason) once the child has ended (waiting up to ``timeout`` s), else None."""
        if self._outcome is None:
            self._process.join(timeout)
            if self._process.is_alive():
                return None
            try:
                self._outcome = self._result.get(timeout=1.0)
            except Exception:  # noqa: BLE001 - the child died without a word (killed, out of memory)
                self._outcome = ("error", f"the encoder stopped (exit status {self._process.exitcode})")
            for q in (self._frames, self._result):
                q.close()
                q.join_thread()
        return self._outcome
