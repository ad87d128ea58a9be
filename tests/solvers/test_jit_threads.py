"""The compiled kernels' thread pool sleeps between loops instead of spinning on the CPU the App needs."""

from __future__ import annotations

import os

import pytest

from ikplayground.solvers import jit


def test_the_openmp_threads_wait_passively_once_the_kernels_are_loaded():
    pytest.importorskip("numba")
    if os.environ.get("OMP_WAIT_POLICY", "passive") != "passive":
        pytest.skip("the environment sets its own OMP_WAIT_POLICY, which is kept")
    assert jit.kernels(wait=True) is not None
    assert os.environ["OMP_WAIT_POLICY"] == "passive"


def test_asking_for_the_kernels_while_they_compile_never_waits(monkeypatch):
    """The batched solvers call warm_up() on every big batch until the kernels are there; the first stress frame
    once waited in it for the whole compile (about 300 ms), as it took the lock the compile holds."""
    import threading

    started, release = threading.Event(), threading.Event()

    def slow_build():
        started.set()
        release.wait()
        return None

    loader = jit.Loader(slow_build, "test-jit")
    monkeypatch.setattr(jit, "enabled", lambda: True)
    monkeypatch.setattr(jit, "available", lambda: True)
    try:
        assert loader.warm_up() is True
        assert started.wait(30)
        second = threading.Thread(target=loader.warm_up, daemon=True)
        second.start()
        second.join(30)  # it returns at once; blocked, it would wait for the release below
        assert not second.is_alive()
        assert loader.kernels() is None  # not ready, and the caller goes on with numpy
    finally:
        release.set()
        loader.state["thread"].join(30)


@pytest.mark.slow
def test_the_compile_runs_in_another_process_first():
    """A compile holds the interpreter's lock for tens of seconds (the first run after an install): the loader's
    thread has another process do it, which fills numba's disk cache, and this one only loads from it."""
    pytest.importorskip("numba")
    assert jit.SOLVERS.compile_elsewhere() is True
    broken = jit.Loader(lambda: None, "test-jit", "ikplayground.solvers.jit:NO_SUCH_LOADER")
    assert broken.compile_elsewhere() is False  # the other process failed: this one will compile as it loads
    assert jit.Loader(lambda: None, "test-jit").compile_elsewhere() is False  # nowhere given


def test_the_thread_compiles_elsewhere_before_it_loads(monkeypatch):
    calls = []
    loader = jit.Loader(lambda: calls.append("load") or "kernels", "test-jit", "m:a")
    monkeypatch.setattr(loader, "compile_elsewhere", lambda: calls.append("elsewhere") or True)
    monkeypatch.setattr(jit, "enabled", lambda: True)
    monkeypatch.setattr(jit, "available", lambda: True)
    assert loader.warm_up() is True
    loader.state["thread"].join(30)
    assert calls == ["elsewhere", "load"] and loader.kernels() == "kernels"
    waited = jit.Loader(lambda: calls.append("load") or "kernels", "test-jit", "m:a")
    monkeypatch.setattr(waited, "compile_elsewhere", lambda: calls.append("elsewhere") or True)
    calls.clear()
    assert waited.kernels(wait=True) == "kernels" and calls == ["load"]  # a caller that waits compiles here


def test_a_loader_started_after_another_waits_for_it_first(monkeypatch):
    """The solvers' and the crowd drawing's kernels load one after the other beside the window, not at once."""
    import threading

    calls, release = [], threading.Event()

    def first_build():
        calls.append("first")
        release.wait()
        calls.append("first done")
        return "first kernels"

    first = jit.Loader(first_build, "test-jit-first")
    second = jit.Loader(lambda: calls.append("second") or "second kernels", "test-jit-second")
    monkeypatch.setattr(jit, "enabled", lambda: True)
    monkeypatch.setattr(jit, "available", lambda: True)
    for loader in (first, second):
        monkeypatch.setattr(loader, "compile_elsewhere", lambda: True)
    try:
        assert first.warm_up() and second.warm_up(after=first)
        second.state["thread"].join(0.5)
        assert calls == ["first"] and second.kernels() is None  # the second waits while the first loads
    finally:
        release.set()
    second.state["thread"].join(30)
    assert calls == ["first", "first done", "second"] and second.kernels() == "second kernels"
