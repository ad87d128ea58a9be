"""File names and special paths: every failure is a one-line message naming the problem.

A name the system takes saves and loads (the temporary file's name is short
whatever the target's); a name too long is refused in plain words; a named
pipe, a device or a looping symbolic link is never replaced by a save (the
loader refuses them too); and a name holding a newline or an escape sequence
is shown escaped, so the message stays one line.
"""

from __future__ import annotations

import errno
import os
import stat

import pytest

from ikplayground.scene.build.presets import default_scene
from ikplayground.scene.files import scene_file
from ikplayground.scene.files.scene_file import SceneFileError, load_scene, save_scene


def listing(folder):
    return sorted(os.listdir(folder))


def load_refused(path) -> str:
    with pytest.raises(SceneFileError) as info:
        load_scene(path)
    return str(info.value)


def save_refused(path, kind=OSError) -> OSError:
    with pytest.raises(kind) as info:
        save_scene(default_scene(), path)
    return info.value


# --- names -------------------------------------------------------------------------
def test_a_name_of_250_bytes_saves_and_loads(tmp_path, monkeypatch):
    """The longest names a folder takes must save: the temporary file's name may not be longer."""
    path = tmp_path / ("s" * 245 + ".json")
    assert len(path.name.encode()) == 250
    temps = []
    real = os.replace
    monkeypatch.setattr(scene_file.os, "replace",
                        lambda src, dst: temps.append(os.path.basename(src)) or real(src, dst))
    save_scene(default_scene(), path)
    monkeypatch.undo()
    assert len(temps) == 1 and temps[0].startswith(".") and len(temps[0]) <= 32
    assert listing(tmp_path) == [path.name]
    assert len(load_scene(path).chains) == len(default_scene().chains)


def test_a_name_too_long_is_refused_in_plain_words(tmp_path):
    path = tmp_path / ("a" * 300 + ".json")
    e = save_refused(path)
    assert e.errno == errno.ENAMETOOLONG
    assert e.strerror == "the file name is too long (305 bytes; a name may have at most 255)"
    assert listing(tmp_path) == []
    assert load_refused(path) == (f"{'a' * 48}...{'a' * 19}.json: "
                                  "the file name is too long (305 bytes; a name may have at most 255)")


@pytest.mark.parametrize(("name", "shown"), [
    ("new\nline.json", "new\\nline.json"),
    ("tab\there.json", "tab\\there.json"),
    ("bell\x07\x1b[31m.json", "bell\\x07\\x1b[31m.json"),
    ("rtl\u202e.json", "rtl\\u202e.json"),
])
def test_names_with_control_characters_are_shown_escaped(tmp_path, name, shown):
    message = load_refused(tmp_path / name)
    assert message == f"{shown}: no such file"
    (tmp_path / name).write_text("{", encoding="utf-8")
    message = load_refused(tmp_path / name)
    assert message.startswith(f"{shown}: line 1 column 2: ") and "\n" not in message
    assert scene_file.shown_name(tmp_path / name) == shown


def test_a_name_that_is_not_utf8_shows_its_bytes(tmp_path):
    path = tmp_path / os.fsdecode(b"caf\xe9.json")  # how Python names a file whose name is no UTF-8
    assert load_refused(path) == "caf\\xe9.json: no such file"


# --- special paths -----------------------------------------------------------------
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_named_pipe_is_not_replaced_by_a_save(tmp_path):
    path = tmp_path / "pipe.json"
    os.mkfifo(path)
    e = save_refused(path)
    assert e.strerror == "is not a regular file (a named pipe); it was left alone"
    assert stat.S_ISFIFO(os.lstat(path).st_mode)
    assert listing(tmp_path) == ["pipe.json"]
    assert load_refused(path) == "pipe.json: is not a regular file"


@pytest.fixture
def device(tmp_path):
    """A character device node like /dev/null, made in the test's own folder (skips where that is not allowed)."""
    path = tmp_path / "dev" / "null"
    path.parent.mkdir()
    try:
        os.mknod(path, stat.S_IFCHR | 0o600, os.makedev(1, 3))
    except (OSError, AttributeError) as e:
        pytest.skip(f"cannot make a device node here ({e})")
    return path


def test_a_device_is_not_replaced_by_a_save(device):
    e = save_refused(device)
    assert e.strerror == "is not a regular file (a character device); it was left alone"
    assert stat.S_ISCHR(os.lstat(device).st_mode)
    assert listing(device.parent) == ["null"]
    assert load_refused(device) == "null: is not a regular file"


def test_a_link_to_a_device_is_not_followed_to_replace_it(tmp_path, device):
    path = tmp_path / "scene.json"
    path.symlink_to(device)
    e = save_refused(path)
    assert e.strerror == "is not a regular file (a character device); it was left alone"
    assert stat.S_ISCHR(os.lstat(device).st_mode)
    assert path.is_symlink() and listing(tmp_path) == ["dev", "scene.json"] and listing(device.parent) == ["null"]


def test_a_symlink_loop_is_not_replaced_by_a_save(tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.symlink_to("b.json")
    b.symlink_to("a.json")
    e = save_refused(a)
    assert e.errno == errno.ELOOP
    assert e.strerror == "is a symbolic link that leads round in a loop; it was left alone"
    assert a.is_symlink() and b.is_symlink() and os.readlink(a) == "b.json"
    assert listing(tmp_path) == ["a.json", "b.json"]
    assert load_refused(a).startswith("a.json: cannot read it (")


def test_a_dangling_link_still_saves_to_the_file_it_names(tmp_path):
    link = tmp_path / "link.json"
    link.symlink_to("real.json")
    save_scene(default_scene(), link)
    assert link.is_symlink() and (tmp_path / "real.json").is_file()
    assert len(load_scene(link).chains) == len(default_scene().chains)
