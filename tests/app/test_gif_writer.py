"""The GIF writer alone: frames written one by one, read back by Pillow as they went in; delays in centiseconds
that add up; the file appears only when whole."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from ikplayground.app.draw.gif_writer import GifWriter, delays_cs

COLOURS = np.array([[20, 24, 32], [230, 160, 60], [80, 150, 230], [240, 240, 240]], np.uint8)


def picture(k: int, size=(64, 48)) -> np.ndarray:
    """Frame ``k``: a dark ground, a fixed bar, and a square that moves 3 px right a frame. Shape (h, w, 3)."""
    w, h = size
    index = np.zeros((h, w), np.intp)
    index[4:8, :] = 3
    index[0, :4] = np.arange(4)  # every colour in every frame: the first frame's palette has them exactly
    index[20:30, 3 * k: 3 * k + 10] = 1 + k % 2
    return COLOURS[index]


def frames_of(path) -> list[np.ndarray]:
    with Image.open(path) as im:
        out = []
        for i in range(im.n_frames):
            im.seek(i)
            out.append(np.asarray(im.convert("RGB")))
        return out


def test_frames_read_back_as_written_each_cropped_to_what_changed(tmp_path):
    out = tmp_path / "a.gif"
    writer = GifWriter(out, (64, 48), fps=50)
    for k in range(8):
        writer.add(picture(k), k)
    assert writer.close() == out
    read = frames_of(out)
    assert len(read) == 8
    for k, frame in enumerate(read):
        np.testing.assert_array_equal(frame, picture(k))
    with Image.open(out) as im:
        assert im.size == (64, 48) and im.info["loop"] == 0
        im.seek(3)
        assert im.tile[0][1][:2] == (6, 20)  # only the moving square's box was written: from x = 3*2 on
    assert [p.name for p in tmp_path.iterdir()] == ["a.gif"]  # no temporary file left


def test_a_frame_of_the_same_slot_is_dropped_and_a_skipped_slot_shows_the_frame_longer(tmp_path):
    out = tmp_path / "b.gif"
    writer = GifWriter(out, (64, 48), fps=25)
    for k, slot in enumerate([0, 0, 1, 3, 3, 4]):
        writer.add(picture(k), slot)
    writer.close()
    durations = []
    with Image.open(out) as im:
        for i in range(im.n_frames):
            im.seek(i)
            durations.append(im.info["duration"])
    assert durations == [40, 80, 40, 40]  # ms: slots 0, 1 (to 3), 3, 4 at 25 frames a second


def test_a_colour_the_first_frame_lacks_gets_a_near_one_and_black_is_never_transparent(tmp_path):
    out = tmp_path / "n.gif"
    writer = GifWriter(out, (16, 8))
    first = np.full((8, 16, 3), 255, np.uint8)
    second = first.copy()
    second[:, :8] = (200, 30, 40)  # a red the first frame has not
    second[:, 8:] = 0  # black
    writer.add(first, 0)
    writer.add(second, 1)
    writer.close()
    read = frames_of(out)[1].astype(int)
    assert np.abs(read[:, :8] - (200, 30, 40)).max() <= 45
    np.testing.assert_array_equal(read[:, 8:], 0)


def test_delays_are_whole_centiseconds_rounded_cumulatively():
    assert delays_cs([0, 1, 2], 60) == [2, 1, 2]
    assert delays_cs(list(range(50)), 50) == [2] * 50
    assert sum(delays_cs(list(range(600)), 60)) == 1000  # 600 frames at 60 a second: 10 s exactly
    assert delays_cs([0, 2, 3], 30) == [7, 3, 3]


def test_nothing_is_left_when_no_frame_came_or_the_writer_is_dropped(tmp_path):
    writer = GifWriter(tmp_path / "c.gif", (10, 10))
    with pytest.raises(ValueError):
        writer.close()
    other = GifWriter(tmp_path / "d.gif", (64, 48))
    other.add(picture(0), 0)
    other.abort()
    assert list(tmp_path.iterdir()) == []


def test_a_frame_of_another_size_is_refused(tmp_path):
    writer = GifWriter(tmp_path / "e.gif", (64, 48))
    with pytest.raises(ValueError, match="frame of 32x48 px in a GIF of 64x48 px"):
        writer.add(picture(0)[:, :32], 0)
    writer.abort()
    with pytest.raises(FileNotFoundError):
        GifWriter(tmp_path / "missing" / "f.gif", (4, 4))
