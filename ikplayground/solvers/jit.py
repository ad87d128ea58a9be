"""Optional numba kernels for the batched CCD (pygame CCD tutorial), FABRIK (Aristidou & Lasenby 2011) and DLS.

DLS is the Jacobian family's loop (Wampler 1986, Buss 2004). :mod:`._jit_kernels`, :mod:`._jit_fabrik`, :mod:`._jit_dls`
(numba: a default dependency where it has wheels). Without numba, or with ``IKPLAYGROUND_JIT=0``,
:func:`kernels` returns None and numpy runs; :func:`warm_up` compiles on a background thread, in another
process first (a compile holds the interpreter's lock: the window would freeze), then loads numba's disk cache.
A :class:`Loader` does that for any set of kernels (the app's crowd drawing has one of its own).
``OMP_WAIT_POLICY`` is set to ``passive`` (unless set) before the first kernel runs, so idle OpenMP
threads sleep instead of taking the CPU.
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
import threading
from typing import Any, Callable

COMPILE_TIMEOUT = 900  # s: the other process's compile, at most (a slow machine's first run takes about a minute)


def enabled() -> bool:
    """True unless ``IKPLAYGROUND_JIT=0`` (or ``off`` / ``false``) is set."""
    return os.environ.get("IKPLAYGROUND_JIT", "1").strip().lower() not in ("0", "off", "false", "no")


def available() -> bool:
    """True when numba can be imported (without importing it)."""
    import importlib.util

    return importlib.util.find_spec("numba") is not None


class Loader:
    """Kernels made by ``build()`` (which imports numba, compiles or loads them from numba's disk cache and
    runs each once) on a background thread named ``name``; :meth:`kernels` is None until they are ready.

    The thread first has another process run ``build`` (``where``: ``"module:attribute"`` of this loader), so
    that a compile (the first run after an install: tens of seconds, holding its interpreter's lock all along)
    happens there and fills numba's disk cache; this process then only loads from it.
    """

    def __init__(self, build: Callable[[], Any], name: str, where: str | None = None):
        self.build = build
        self.name = name
        self.where = where
        self.lock = threading.Lock()  # held by the compile, start to end
        self._starting = threading.Lock()  # held only while the compile's thread is being started
        self.state: dict[str, Any] = {"kernels": None, "failed": False, "thread": None}

    def kernels(self, wait: bool = False):
        """The kernels, or None (no numba, disabled, failed, or not compiled yet unless ``wait``)."""
        if not enabled():
            return None
        state = self.state
        if state["kernels"] is not None or state["failed"]:
            return state["kernels"]
        if wait:
            thread = state["thread"]
            if thread is not None:
                thread.join()
            else:
                self.compile()
        return state["kernels"]

    def warm_up(self, after: Loader | None = None) -> bool:
        """Start compiling on a background thread (once ``after``'s has finished, if it is running: two loads at
        once would share the CPU with the window); False when there is nothing to do. Never waits."""
        state = self.state
        if state["kernels"] is not None or state["failed"] or not enabled() or not available():
            return False
        if state["thread"] is not None:  # started already: never wait here for the compile (it holds the lock)
            return True
        with self._starting:
            if state["thread"] is None:
                thread = state["thread"] = threading.Thread(target=self._compile_after, args=(after,),
                                                            name=self.name, daemon=True)
                thread.start()
        return True

    def _compile_after(self, after: Loader | None) -> None:
        thread = after.state["thread"] if after is not None else None
        if thread is not None:
            thread.join()
        self.compile(True)

    def compile_elsewhere(self) -> bool:
        """Run ``build`` in another Python process (waiting on it holds no lock of this one); False if it failed."""
        if self.where is None:
            return False
        module, attribute = self.where.split(":")
        code = f"import importlib; importlib.import_module({module!r}).{attribute}.build()"
        try:
            done = subprocess.run([sys.executable, "-c", code], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL, timeout=COMPILE_TIMEOUT, check=False)
        except (OSError, subprocess.SubprocessError):
            return False
        return done.returncode == 0

    def compile(self, elsewhere: bool = False) -> None:
        """Make the kernels (first in another process when ``elsewhere``), or mark them failed."""
        if elsewhere:
            self.compile_elsewhere()  # if it fails, this process compiles as it loads
        with self.lock:
            if self.state["kernels"] is not None or self.state["failed"]:
                return
            try:
                os.environ.setdefault("OMP_WAIT_POLICY", "passive")  # read when the OpenMP runtime loads
                self.state["kernels"] = self.build()
            except Exception:  # no numba, or it could not compile here: the numpy path stays
                self.state["failed"] = True


def _build_solvers():
    import numpy as np

    from . import _jit_kernels
    from .results import ROUNDING, STALL_GAIN, STALL_SWEEPS

    k = _jit_kernels.build()
    # one tiny call of each compiles (or loads from numba's cache) now, not mid-frame
    z = np.zeros((1, 2))
    lim = np.array([[[-math.pi, math.pi]]])
    args = (z, np.zeros((1, 1)), np.ones((1, 1)), z + 1.0, np.ones(1, dtype=np.int64), np.full(1, 0.5), lim,
            np.zeros(1), np.zeros(1, dtype=np.int64), STALL_SWEEPS, STALL_GAIN)
    poles = np.full((1, 2), np.nan)
    for obstacles in (np.zeros((0, 3)), np.array([[5.0, 5.0, 1.0]])):  # (none, and some: both paths compiled)
        k.ccd(*args[:9], poles, obstacles, *args[9:], ROUNDING)
        k.fabrik(*args[:9], poles, obstacles, *args[9:], ROUNDING)
    k.dls(*args[:9], np.full(1, 0.5), STALL_SWEEPS, STALL_GAIN, ROUNDING, 2, False, args[1], np.zeros(1), poles)
    k.settle(args[1], args[1], args[7], lim, z, args[2], z, np.zeros((1, 2, 2)), np.zeros(1))
    k.tip_error(z, args[1], args[2], z, np.zeros(1))
    k.snake(np.zeros((1, 2, 2)), z, args[2], args[7], args[7], np.zeros((1, 2, 2)))
    k.clear_moves(z, args[1], args[1] + 1.0, args[2], lim, np.array([[5.0, 5.0, 1.0]]), np.zeros((1, 1)),
                  np.zeros(1, dtype=np.bool_))
    two = np.zeros((1, 2, 2))
    for jiggle, pin in ((k.jiggle, k.pin_ends), (k.jiggle_few, k.pin_ends_few)):
        jiggle(two, two, args[2], z, np.zeros(1), args[1], np.zeros(1), np.zeros(1), z, 1.0 / 60.0, lim, True,
               np.zeros((1, 2, 2)))
        pin(np.zeros((1, 2, 2)), z, z, args[2], 1, 0.01)
    return k


SOLVERS = Loader(_build_solvers, "ikplayground-jit", "ikplayground.solvers.jit:SOLVERS")


def kernels(wait: bool = False):
    """The batched solvers' compiled kernels, or None (see :meth:`Loader.kernels`)."""
    return SOLVERS.kernels(wait)


def warm_up() -> bool:
    """Start compiling the batched solvers' kernels on a background thread; False when there is nothing to do."""
    return SOLVERS.warm_up()
