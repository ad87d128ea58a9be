"""Saving scene files atomically: a temporary file beside the target, fsync, os.replace.

Whatever fails (the disk, the rename, a directory in the way, a missing
folder) the file that was there stays byte for byte as it was, no temporary
file is left behind, and the OSError says why in plain words. At every moment
of a save the target is either the whole old file or the whole new one.
"""

from __future__ import annotations

import errno
import os
import stat

import pytest

from ikplayground.scene.build.presets import default_scene
from ikplayground.scene.core.scene import Scene
from ikplayground.scene.files import scene_file
from ikplayground.scene.files.scene_file import load_scene, save_scene, scene_to_text


def listing(folder):
    return sorted(os.listdir(folder))


def small_scene() -> Scene:
    scene = Scene()
    scene.new_chain("snake", (100.0, 100.0))
    scene.new_chain("ccd", (400.0, 600.0))
    return scene


@pytest.fixture
def existing(tmp_path):
    """A saved default scene: (its path, its bytes)."""
    path = tmp_path / "scene.json"
    save_scene(default_scene(), path)
    return path, path.read_bytes()


def assert_untouched(path, old_bytes):
    assert path.read_bytes() == old_bytes
    assert listing(path.parent) == [path.name], "a temporary file was left behind"


# --- success ------------------------------------------------------------------------
def test_a_save_leaves_only_the_file_and_it_loads_back_equal(tmp_path):
    scene = default_scene()
    scene.new_chain("fabrik", (300.0, 700.0)).rate_limit = None
    path = tmp_path / "scene.json"
    save_scene(scene, path)
    assert listing(tmp_path) == ["scene.json"]
    data = path.read_bytes()
    assert data == (scene_to_text(scene) + "\n").encode("utf-8")
    loaded = load_scene(path)
    assert scene_to_text(loaded) == scene_to_text(scene)
    assert [c.solver for c in loaded.chains] == [c.solver for c in scene.chains]


def test_saving_over_a_file_replaces_it_whole(existing):
    path, _ = existing
    save_scene(small_scene(), path)
    assert listing(path.parent) == ["scene.json"]
    assert [c.solver for c in load_scene(path).chains] == ["snake", "ccd"]


def test_a_new_file_gets_the_usual_permissions_and_an_old_file_keeps_its_own(tmp_path):
    umask = os.umask(0o022)
    os.umask(umask)
    path = tmp_path / "scene.json"
    save_scene(default_scene(), path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask  # not mkstemp's 0o600
    path.chmod(0o640)
    save_scene(small_scene(), path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_saving_through_a_symlink_replaces_the_file_it_points_to(tmp_path):
    real = tmp_path / "real.json"
    save_scene(default_scene(), real)
    link = tmp_path / "link.json"
    link.symlink_to("real.json")
    save_scene(small_scene(), link)
    assert link.is_symlink(), "the link was replaced by a plain file"
    assert [c.solver for c in load_scene(real).chains] == ["snake", "ccd"]
    assert listing(tmp_path) == ["link.json", "real.json"]


# --- failures keep the old file -----------------------------------------------------
def broken(err=errno.ENOSPC, text="No space left on device"):
    def fail(*args, **kwargs):
        raise OSError(err, text)
    return fail


def test_a_failing_rename_keeps_the_old_file_and_cleans_up(existing, monkeypatch):
    path, old = existing
    monkeypatch.setattr(scene_file.os, "replace", broken(errno.EACCES, "Permission denied"))
    with pytest.raises(PermissionError) as info:
        save_scene(small_scene(), path)
    monkeypatch.undo()
    assert_untouched(path, old)
    assert info.value.strerror == ("cannot replace scene.json with the new file; scene.json was not changed "
                                   "(Permission denied)")


def test_a_failing_fsync_keeps_the_old_file_and_cleans_up(existing, monkeypatch):
    path, old = existing
    monkeypatch.setattr(scene_file.os, "fsync", broken())
    with pytest.raises(OSError) as info:
        save_scene(small_scene(), path)
    monkeypatch.undo()
    assert_untouched(path, old)
    assert info.value.errno == errno.ENOSPC
    assert "flush" in info.value.strerror and "No space left on device" in info.value.strerror
    assert "scene.json was not changed" in info.value.strerror


def test_a_write_that_fails_half_way_keeps_the_old_file_and_cleans_up(existing, monkeypatch):
    path, old = existing
    real_write = os.write
    calls = []

    def half_then_fail(fd, data):
        calls.append(len(data))
        if len(calls) == 1:
            return real_write(fd, bytes(data[: len(data) // 2]))  # a short write: the loop must go on
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(scene_file.os, "write", half_then_fail)
    with pytest.raises(OSError, match="cannot write the new file") as info:
        save_scene(small_scene(), path)
    monkeypatch.undo()
    assert len(calls) == 2
    assert info.value.errno == errno.ENOSPC
    assert_untouched(path, old)


def test_short_writes_are_finished(tmp_path, monkeypatch):
    real_write = os.write
    monkeypatch.setattr(scene_file.os, "write", lambda fd, data: real_write(fd, bytes(data[:100])))
    path = tmp_path / "scene.json"
    save_scene(default_scene(), path)
    monkeypatch.undo()
    assert path.read_bytes() == (scene_to_text(default_scene()) + "\n").encode()


def test_an_interrupt_during_the_save_keeps_the_old_file_and_is_not_swallowed(existing, monkeypatch):
    path, old = existing

    def interrupted(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(scene_file.os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        save_scene(small_scene(), path)
    monkeypatch.undo()
    assert_untouched(path, old)


def test_a_folder_that_cannot_be_written_says_so(existing, monkeypatch):
    """We run as root, so a read-only folder is simulated: creating the temporary file fails."""
    path, old = existing
    real_open = os.open

    def read_only(p, flags, *args, **kwargs):
        if flags & os.O_CREAT:
            raise PermissionError(errno.EACCES, "Permission denied")
        return real_open(p, flags, *args, **kwargs)

    monkeypatch.setattr(scene_file.os, "open", read_only)
    with pytest.raises(PermissionError) as info:
        save_scene(small_scene(), path)
    monkeypatch.undo()
    assert info.value.strerror == f"cannot create a file in the folder {path.parent} (Permission denied)"
    assert_untouched(path, old)


def test_a_scene_that_cannot_be_written_as_json_changes_nothing(existing):
    path, old = existing
    scene = small_scene()
    scene.chains[1].fields["root"][0] = float("nan")
    with pytest.raises(ValueError):
        save_scene(scene, path)
    assert_untouched(path, old)


# --- nothing to replace -------------------------------------------------------------
def test_a_directory_in_the_way_is_left_alone(tmp_path):
    folder = tmp_path / "scene.json"
    folder.mkdir()
    (folder / "inside.txt").write_text("keep", encoding="utf-8")
    (tmp_path / "other.txt").write_text("keep", encoding="utf-8")
    with pytest.raises(IsADirectoryError) as info:
        save_scene(default_scene(), folder)
    assert info.value.strerror == "a folder named scene.json is in the way"
    assert listing(tmp_path) == ["other.txt", "scene.json"]
    assert listing(folder) == ["inside.txt"]
    assert (folder / "inside.txt").read_text(encoding="utf-8") == "keep"


def test_a_directory_that_appears_during_the_save_is_left_alone(tmp_path, monkeypatch):
    """The check before the save passed; the rename then meets a directory (a race)."""
    path = tmp_path / "scene.json"
    real_replace = os.replace

    def racing(src, dst):
        os.mkdir(dst)
        real_replace(src, dst)

    monkeypatch.setattr(scene_file.os, "replace", racing)
    with pytest.raises(OSError, match="cannot replace scene.json with the new file; nothing was saved"):
        save_scene(default_scene(), path)
    monkeypatch.undo()
    assert path.is_dir() and listing(path) == []
    assert listing(tmp_path) == ["scene.json"]


def test_a_missing_folder_is_reported_and_not_created(tmp_path):
    with pytest.raises(FileNotFoundError) as info:
        save_scene(default_scene(), tmp_path / "missing" / "scene.json")
    assert info.value.strerror == f"the folder {tmp_path / 'missing'} does not exist"
    assert listing(tmp_path) == []


def test_a_file_where_the_folder_should_be_is_reported(tmp_path):
    (tmp_path / "notes").write_text("keep", encoding="utf-8")
    with pytest.raises(NotADirectoryError, match="is not a folder"):
        save_scene(default_scene(), tmp_path / "notes" / "scene.json")
    assert listing(tmp_path) == ["notes"]
    assert (tmp_path / "notes").read_text(encoding="utf-8") == "keep"


# --- a crash at any moment ----------------------------------------------------------
def test_at_every_step_of_a_save_the_target_is_the_old_file_or_the_new_one(existing, monkeypatch):
    """A crash can stop a save between any two system calls: check the target at each of them.

    Also: each step up to the rename, failing, leaves the old file (the same
    save with an error injected at the k-th call, for every k).
    """
    path, old = existing
    new_scene = small_scene()
    new = (scene_to_text(new_scene) + "\n").encode()
    names = ("open", "write", "fsync", "close", "chmod", "replace", "unlink")
    real = {n: getattr(os, n) for n in names}
    seen = []

    def checked(name, fail_at=None):
        def call(*args, **kwargs):
            assert path.read_bytes() in (old, new), f"half a file before os.{name}"
            seen.append(name)
            if fail_at is not None and len(seen) == fail_at:
                raise OSError(errno.EIO, "Input/output error")
            result = real[name](*args, **kwargs)
            assert path.read_bytes() in (old, new), f"half a file after os.{name}"
            return result
        return call

    for n in names:
        monkeypatch.setattr(scene_file.os, n, checked(n))
    save_scene(new_scene, path)
    monkeypatch.undo()
    assert path.read_bytes() == new
    steps = list(seen)
    assert {"write", "fsync", "replace"} <= set(steps), steps
    assert steps.index("fsync") < steps.index("replace")

    # the same save failing at each step in turn: the old file survives each time
    for k in range(1, steps.index("replace") + 2):
        path.write_bytes(old)
        seen.clear()
        for n in names:
            monkeypatch.setattr(scene_file.os, n, checked(n, fail_at=k))
        if steps[k - 1] == "chmod":  # copying the old file's mode is best effort: the save goes on
            save_scene(new_scene, path)
            monkeypatch.undo()
            assert path.read_bytes() == new
            continue
        with pytest.raises(OSError):
            save_scene(new_scene, path)
        monkeypatch.undo()
        assert path.read_bytes() == old, f"failing at step {k} ({steps[k - 1]}) changed the file"
        assert listing(path.parent) == ["scene.json"], f"failing at step {k} ({steps[k - 1]}) left a file"
