"""Screenshots (F12): the window saved as ``ikplayground-YYYY-MM-DD-HHMMSS.png`` in the scene file's folder.

Written to a temporary ``.png`` beside it, fsynced, then named by a hard link (``os.replace`` without links):
the file appears whole or not at all, and a taken name gets ``-2``, ``-3``... instead of being replaced.
"""

from __future__ import annotations

import errno
import os
import secrets
from datetime import datetime
from pathlib import Path

import pygame

from ikplayground.scene import shown

PREFIX = "ikplayground-"
MAX_TRIES = 1000  # names tried (-2, -3, ...) before giving up


def screenshot_name(when: datetime, n: int = 1) -> str:
    """The file name of the ``n``-th screenshot taken in the second ``when``."""
    return f"{PREFIX}{when:%Y-%m-%d-%H%M%S}" + (f"-{n}" if n > 1 else "") + ".png"


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _give_name(tmp: Path, target: Path) -> bool:
    """Give ``tmp`` the name ``target`` unless it is taken; False when it is."""
    try:
        os.link(tmp, target)
    except FileExistsError:
        return False
    except OSError as e:  # no hard links here (FAT, some network shares): rename, checking first
        if e.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK):
            raise
        if os.path.lexists(target):
            return False
        os.replace(tmp, target)
        return True
    os.unlink(tmp)
    return True


def save_screenshot(surface: pygame.Surface, folder, when: datetime | None = None) -> Path:
    """Save ``surface`` as a new PNG in ``folder``, named by ``when`` (now); returns its path. OSError when the
    folder is missing or not writable or the image cannot be saved; nothing is left behind."""
    folder = Path(folder)
    when = when or datetime.now()
    if not folder.is_dir():
        what = "does not exist" if not folder.exists() else "is not a folder"
        raise OSError(errno.ENOENT, f"the folder {shown(str(folder), shorten=False)} {what}")
    tmp = folder / f".{PREFIX}{secrets.token_hex(4)}.png"
    try:
        try:
            pygame.image.save(surface, str(tmp))
        except pygame.error as e:
            raise OSError(errno.EIO, f"cannot write the image in {shown(str(folder), shorten=False)} ({e})") from e
        _fsync(tmp)
        for n in range(1, MAX_TRIES + 1):
            target = folder / screenshot_name(when, n)
            if _give_name(tmp, target):
                return target
        raise OSError(errno.EEXIST, f"{MAX_TRIES} screenshots of this second are already there")
    finally:
        try:
            os.unlink(tmp)
        except OSError:
            pass
