"""Reading a regular file whole, but never more than a size limit, without blocking on a named pipe."""

from __future__ import annotations

import errno
import os
import stat

from ikplayground.scene.files.file_errors import SceneFileError, name_too_long

_MB = 1024 * 1024
_READ_CHUNK = 1 << 20  # bytes asked for by one read


def size_text(size: int) -> str:
    """``size`` bytes in MB, with the exact count: ``21.0 MB (22,020,096 bytes)``."""
    return f"{size / _MB:.1f} MB ({size:,} bytes)"


def limit_text(limit: int) -> str:
    """How messages name the size limit: ``the 20 MB limit for scene files`` (whole MB, rounded up)."""
    return f"the {-(-limit // _MB)} MB limit for scene files"


def _read_at_most(fd: int, limit: int) -> bytes:
    """Up to ``limit`` bytes from ``fd`` (fewer at the end of the file)."""
    chunks, left = [], limit
    while left > 0:
        chunk = os.read(fd, min(left, _READ_CHUNK))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def open_regular(path, name: str, what: str = "scene file", error: type[Exception] = SceneFileError) -> int:
    """A read-only descriptor of the regular file ``path``, opened without blocking.

    Parameters
    ----------
    path : str or os.PathLike
        The file.
    name : str
        How messages name it (see :func:`~ikplayground.scene.files.file_errors.shown_name`).
    what : str
        What the file should be, for the message about a folder ("scene file", "recording").
    error : type of Exception
        The exception raised, with a one-line message starting with ``name``.

    Raises
    ------
    error
        The file is missing or unreadable, or is not a regular file (a folder, a
        named pipe, a device such as ``/dev/zero``), which is refused before any read.
    """
    flags = os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0)  # a FIFO must not block
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise error(f"{name}: no such file") from None
    except OSError as e:
        if os.path.isdir(path):
            raise error(f"{name}: is a directory, not a {what}") from None
        if e.errno == errno.ENAMETOOLONG:
            raise error(f"{name}: {name_too_long(path)}") from None
        raise error(f"{name}: cannot read it ({e.strerror or e})") from None
    except ValueError as e:  # an embedded NUL byte in the name, say
        raise error(f"{name}: cannot read it ({e})") from None
    try:
        mode = os.fstat(fd).st_mode
    except OSError as e:
        os.close(fd)
        raise error(f"{name}: cannot read it ({e.strerror or e})") from None
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise error(f"{name}: is a directory, not a {what}" if stat.S_ISDIR(mode) else f"{name}: is not a regular file")
    return fd


def read_capped(path, name: str, limit: int) -> bytes:
    """The bytes of the regular file ``path``, refused when there are more than ``limit``.

    ``name`` names it in messages. SceneFileError: missing, unreadable, not a regular file
    (:func:`open_regular`), or over ``limit`` (by its size before it is read, or as it grew while read).
    """
    over = limit_text(limit)
    fd = open_regular(path, name)
    try:
        size = os.fstat(fd).st_size
        if size > limit:
            raise SceneFileError(f"{name}: {size_text(size)} is over {over}")
        data = _read_at_most(fd, limit + 1)
    except OSError as e:
        raise SceneFileError(f"{name}: cannot read it ({e.strerror or e})") from None
    finally:
        os.close(fd)
    if len(data) > limit:  # it grew after fstat
        raise SceneFileError(f"{name}: more than {limit:,} bytes is over {over}")
    return data
