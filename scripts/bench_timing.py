"""Timing a call made over and over: each call's wall time after a warm-up, and their median and 99th percentile.

Shared by scripts/bench_record.py (``Recorder.record`` a step) and
scripts/bench_math.py (the App's whole frame). Only the timed call is
measured: what prepares it (a scene step, a target moved) runs untimed.
"""

from __future__ import annotations

import statistics
import time
from typing import Callable


def time_calls(count: int, warmup: int, before: Callable[[int], object], call: Callable[[], object]) -> list[float]:
    """The wall times (s) of ``count`` calls of ``call()``, after ``warmup`` calls left untimed.

    ``before(k)`` runs, untimed, before call ``k`` (0 to ``warmup + count - 1``).
    """
    times = []
    for k in range(warmup + count):
        before(k)
        t0 = time.perf_counter()
        call()
        if k >= warmup:  # the first calls fill caches, make layouts, load fonts
            times.append(time.perf_counter() - t0)
    return times


def median_p99_ms(seconds: list[float]) -> dict[str, float]:
    """``{"median_ms": ..., "p99_ms": ...}`` of the times ``seconds`` (s), in ms; the 99th percentile is the
    sample of rank round(0.99 (n - 1)) from the fastest."""
    ms = sorted(t * 1000.0 for t in seconds)
    return {"median_ms": statistics.median(ms), "p99_ms": ms[min(len(ms) - 1, int(round(0.99 * (len(ms) - 1))))]}
