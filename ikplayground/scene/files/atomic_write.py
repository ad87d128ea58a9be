"""Writing a file atomically: a temporary file beside it, flushed and fsynced, then renamed over it.

A failure leaves the old file byte for byte as it was and no temporary file.
Only a regular file (or a new name) is replaced; a pipe, a device, a socket or
a looping link is refused. Every failure is an ``OSError`` whose ``strerror``
says in plain words what went wrong.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from pathlib import Path

from ikplayground.scene.files.file_errors import name_too_long, shown, shown_name

TEMP_PREFIX = ".ikplayground-"  # temporary files: .ikplayground-XXXXXXXX.tmp (short, whatever the target's name)
_NODE_KINDS = {stat.S_IFIFO: "a named pipe", stat.S_IFCHR: "a character device", stat.S_IFBLK: "a block device",
               stat.S_IFSOCK: "a socket"}


def _error(e: OSError, what: str) -> OSError:
    """``e`` again (same errno, so the same OSError subclass) with a message that says what failed."""
    reason = e.strerror or str(e) or type(e).__name__
    message = f"{what} ({reason})"
    return OSError(e.errno, message) if e.errno is not None else OSError(message)


def _bad_path(path: Path, e: OSError) -> OSError:
    """A clear error for a path the system refused to look up."""
    if e.errno == errno.ENAMETOOLONG:
        return OSError(e.errno, name_too_long(path))
    if e.errno == errno.ELOOP:
        return OSError(e.errno, "is a symbolic link that leads round in a loop; it was left alone")
    return _error(e, "cannot use this path")


def _target(path: Path) -> tuple[Path, os.stat_result | None]:
    """The file a save replaces (a symbolic link's target) and its status, None if it does not exist yet."""
    try:
        info = os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return path, None
    except OSError as e:
        raise _bad_path(path, e) from None
    except ValueError:  # an embedded NUL
        raise OSError(errno.EINVAL, "a file name cannot hold a NUL character") from None
    if not stat.S_ISLNK(info.st_mode):
        return path, info
    try:
        info = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):  # a dangling link: the file it names is created
        return Path(os.path.realpath(path)), None
    except OSError as e:
        raise _bad_path(path, e) from None
    return Path(os.path.realpath(path)), info


def _create_temp(folder: Path) -> tuple[Path, int]:
    """A new empty file in ``folder``, created exclusively (mode 0o666 less the umask)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0) | getattr(os, "O_NOFOLLOW", 0)
    for _ in range(100):
        tmp = folder / f"{TEMP_PREFIX}{secrets.token_hex(4)}.tmp"
        try:
            return tmp, os.open(tmp, flags, 0o666)
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "could not pick a temporary file name")


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def write_atomically(path, data: bytes) -> None:
    """Replace the file ``path`` with ``data`` in one step (temporary file, fsync, rename).

    A symbolic link is written through; an existing file keeps its permission bits.

    Raises
    ------
    OSError
        The name is too long, the folder is missing or not writable, something
        not a regular file is in the way, or the disk fails; ``strerror`` says
        why. The old file is left as it was, and no temporary file is left.
    """
    path = Path(path)
    target, info = _target(path)
    name = shown_name(target)
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise IsADirectoryError(errno.EISDIR, f"a folder named {name} is in the way")
    if info is not None and not stat.S_ISREG(info.st_mode):
        kind = _NODE_KINDS.get(stat.S_IFMT(info.st_mode), "a special file")
        raise OSError(errno.EINVAL, f"is not a regular file ({kind}); it was left alone")
    folder = target.parent
    shown_folder = shown(str(folder), shorten=False)
    try:
        folder_info = os.stat(folder)
    except (FileNotFoundError, NotADirectoryError):
        raise FileNotFoundError(errno.ENOENT, f"the folder {shown_folder} does not exist") from None
    except OSError as e:
        raise _bad_path(folder, e) from None
    if not stat.S_ISDIR(folder_info.st_mode):
        raise NotADirectoryError(errno.ENOTDIR, f"{shown_folder} is not a folder")
    old_mode = stat.S_IMODE(info.st_mode) if info is not None else None
    try:
        tmp, fd = _create_temp(folder)
    except OSError as e:
        raise _error(e, f"cannot create a file in the folder {shown_folder}") from e
    step = "cannot write the new file"
    try:
        try:
            _write_all(fd, data)
            step = "cannot flush the new file to disk"
            os.fsync(fd)
        finally:
            os.close(fd)
        if old_mode is not None:
            try:
                os.chmod(tmp, old_mode)
            except OSError:
                pass
        step = f"cannot replace {name} with the new file"
        os.replace(tmp, target)
    except BaseException as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError):
            kept = f"{name} was not changed" if old_mode is not None else "nothing was saved"
            raise _error(e, f"{step}; {kept}") from e
        raise
    try:  # make the rename itself durable where the platform allows it
        dir_fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)


def nothing_at(path: Path) -> bool:
    """Whether nothing (not even a dangling link) is at ``path``; a name the system refuses counts as free (the
    writer then says what is wrong with it), so a search for a free name always ends."""
    return not os.path.lexists(path)


def free_name(path, usable=nothing_at) -> Path:
    """``path`` if ``usable(path)``, else the first of ``<stem>-2<suffix>``, ``-3``... that is."""
    path = base = Path(path)
    k = 2
    while not usable(path):
        path = base.with_name(f"{base.stem}-{k}{base.suffix}")
        k += 1
    return path
