"""MP4 video through imageio-ffmpeg (the optional ``video`` extra): frames written as they come, under a
temporary name beside the file, which gets its name only when the video is whole."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from ikplayground.app.draw.gif_writer import temp_beside

VIDEO_FPS = 60  # every frame of the run: video has no GIF's centisecond delays
MISSING = 'needs imageio-ffmpeg: pip install "ikplayground[video]" (or .[video] in a checkout)'


def video_missing() -> str | None:
    """Why videos cannot be made here (imageio-ffmpeg is not installed), or None when they can."""
    try:
        import imageio_ffmpeg  # noqa: F401 - light: the binary is only looked for when a video starts
    except ImportError:
        return MISSING
    return None


class VideoWriter:
    """An H.264 MP4 being written to ``path``: frames of ``size`` (w, h) px (cut to even sizes, as yuv420p needs)
    at ``fps`` slots a second, one frame a slot. OSError when ffmpeg cannot start; ImportError without the extra."""

    def __init__(self, path, size: tuple[int, int], fps: float = VIDEO_FPS):
        import imageio_ffmpeg

        self.path = Path(path)
        self.fps = float(fps)
        self.size = (max(int(size[0]) // 2 * 2, 2), max(int(size[1]) // 2 * 2, 2))
        self.frames = 0
        self.tmp = temp_beside(self.path, ".part" + (self.path.suffix or ".mp4"))
        self._last_slot = -1
        self._gen = imageio_ffmpeg.write_frames(str(self.tmp), self.size, fps=self.fps, codec="libx264",
                                                pix_fmt_out="yuv420p", macro_block_size=1, quality=7,
                                                ffmpeg_log_level="error")
        self._gen.send(None)  # starts ffmpeg

    def add(self, rgb: np.ndarray, slot: int) -> None:
        """Add frame ``rgb`` (shape (h, w, 3) uint8) at ``slot``; a slot skipped repeats the frame before."""
        if slot <= self._last_slot:
            return
        w, h = self.size
        frame = np.ascontiguousarray(rgb[:h, :w])
        for _ in range(slot - self._last_slot if self._last_slot >= 0 else 1):
            self._gen.send(frame)
            self.frames += 1
        self._last_slot = slot

    def close(self) -> Path:
        """Finish the video and give it its name; returns the path (OSError, the temporary file removed, on
        failure)."""
        try:
            self._gen.close()
            if self.frames == 0:
                raise ValueError("no frames to write")
            os.replace(self.tmp, self.path)
        except BaseException:
            self.abort()
            raise
        return self.path

    def abort(self) -> None:
        try:
            self._gen.close()
        except Exception:  # noqa: BLE001 - ffmpeg already gone: only the file remains to remove
            pass
        try:
            os.unlink(self.tmp)
        except OSError:
            pass
