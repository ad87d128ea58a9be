"""Optional numba kernels for the batched CCD (pygame CCD tutorial), FABRIK (Aristidou & Lasenby 2011) and DLS.

DLS is damped least squares (Wampler 1986, Buss 2004). The ``fast`` extra (:mod:`._jit_kernels`,
:mod:`._jit_dls`). Without numba, or with ``IKPLAYGROUND_JIT=0``, :func:`kernels` returns None and
numpy runs; :func:`warm_up` compiles on a background thread.
``OMP_WAIT_POLICY`` is set to ``passive`` (unless set) before the first kernel runs, so idle OpenMP
threads sleep instead of taking the CPU.
"""

from __future__ import annotations

import math
import os
import threading
from typing import Any

_lock = threading.Lock()  # held by the compile, start to end
_starting = threading.Lock()  # held only while the compile's thread is being started
_state: dict[str, Any] = {"kernels": None, "failed": False, "thread": None}


def enabled() -> bool:
    """True unless ``IKPLAYGROUND_JIT=0`` (or ``off`` / ``false``) is set."""
    return os.environ.get("IKPLAYGROUND_JIT", "1").strip().lower() not in ("0", "off", "false", "no")


def available() -> bool:
    """True when numba can be imported (without importing it)."""
    import importlib.util

    return importlib.util.find_spec("numba") is not None


def kernels(wait: bool = False):
    """The compiled kernels, or None (no numba, disabled, failed, or not compiled yet unless ``wait``)."""
    if not enabled():
        return None
    if _state["kernels"] is not None or _state["failed"]:
        return _state["kernels"]
    if wait:
        thread = _state["thread"]
        if thread is not None:
            thread.join()
        else:
            _compile()
    return _state["kernels"]


def warm_up() -> bool:
    """Start compiling the kernels on a background thread; False when there is nothing to do."""
    if _state["kernels"] is not None or _state["failed"] or not enabled() or not available():
        return False
    if _state["thread"] is not None:  # started already: never wait here for the compile (it holds _lock)
        return True
    with _starting:
        if _state["thread"] is None:
            thread = _state["thread"] = threading.Thread(target=_compile, name="ikplayground-jit", daemon=True)
            thread.start()
    return True


def _compile() -> None:
    with _lock:
        if _state["kernels"] is not None or _state["failed"]:
            return
        try:
            os.environ.setdefault("OMP_WAIT_POLICY", "passive")  # read when the OpenMP runtime loads
            import numpy as np

            from . import _jit_kernels
            from .results import ROUNDING, STALL_ESCAPES, STALL_GAIN, STALL_SWEEPS

            k = _jit_kernels.build()
            # one tiny call of each compiles (or loads from numba's cache) now, not mid-frame
            z = np.zeros((1, 2))
            lim = np.array([[[-math.pi, math.pi]]])
            args = (z, np.zeros((1, 1)), np.ones((1, 1)), z + 1.0, np.ones(1, dtype=np.int64), np.full(1, 0.5), lim,
                    np.zeros(1), np.zeros(1, dtype=np.int64), STALL_SWEEPS, STALL_GAIN)
            k.ccd(*args)
            k.fabrik(*args, STALL_ESCAPES, ROUNDING)
            k.dls(*args[:9], np.full(1, 0.5), STALL_SWEEPS, STALL_GAIN, ROUNDING)
            k.settle(args[1], args[1], args[7], lim, z, args[2], z, np.zeros((1, 2, 2)), np.zeros(1))
            k.tip_error(z, args[1], args[2], z, np.zeros(1))
            k.snake(np.zeros((1, 2, 2)), z, args[2], args[7], args[7], np.zeros((1, 2, 2)))
            _state["kernels"] = k
        except Exception:  # no numba, or it could not compile here: the numpy path stays
            _state["failed"] = True
