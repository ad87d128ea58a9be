"""Soak test: the real App, headless, under hours of random input; memory and frame times.

    python scripts/soak.py --frames 200000 [--seed S] [--report-every N]

Runs the App with SDL's dummy video driver and feeds it the seeded random
input of ``tests/app/fuzz_events.py`` (the same generator as the App fuzz test:
mouse, drags, keys, resizes up to 3840x2160, window events, panel widgets, the
stress test now and then). The scene file, and anything typed into the path
field, stays in a temporary folder.

Prints the resident memory (``/proc/self/statm``) at the start, after the
warm-up (5% of the frames, at least 2000 or half the run), every
``--report-every`` frames and at the end, with frame times (median, 99th
percentile, worst); a frame slower than half a second is printed with the
random input begun in that frame (gestures started earlier go on too), so a
freeze can be traced to its cause. The warm-up and end figures are taken in the
same settled state (window back at its start size, stress test off, not paused
or minimized, 30 quiet frames, garbage collected, the C heap trimmed with
glibc's ``malloc_trim`` so memory the allocator merely keeps after a 4K window
is not counted; the untrimmed figure is printed too), so they compare like with
like. A line splits the change between the two caches that grow up to a cap
(the renderer's bone sprites, pygame_gui's theme-id keys) and the rest. The
last line is the verdict: memory at the end may be at most 10% above the
after-warm-up figure. Exit status: 0 pass, 1 memory grew more than 10%, 2 an
exception escaped the App.
"""

from __future__ import annotations

import argparse
import ctypes
import ctypes.util
import gc
import importlib.metadata
import os
import statistics
import sys
import tempfile
import time
import traceback
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the clone's own ikplayground and tests packages, whatever the current folder

import pygame  # noqa: E402

from ikplayground.app.app import App  # noqa: E402
from tests.app.fuzz_events import EventFuzzer  # noqa: E402

MAX_GROWTH = 0.10
SETTLE_FRAMES = 30
SLOW_MS = 500.0  # a frame this slow is a freeze the user sees: say what caused it
MAX_SLOW_LINES = 50


def rss_mb() -> float:
    """Resident set size of this process in MB (Linux: /proc/self/statm)."""
    with open("/proc/self/statm") as fh:
        pages = int(fh.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / (1024 * 1024)


def trim_heap() -> bool:
    """Hand freed heap pages back to the system (glibc ``malloc_trim``); False where there is none.

    Without it a reading counts memory that is free but kept by the allocator
    after big temporary surfaces (a 4K window, a 1000-chain scene), which
    swings by tens of MB from one reading to the next.
    """
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.malloc_trim(0)
    except (OSError, AttributeError):
        return False
    return True


def percentile(sorted_values, q: float) -> float:
    if not sorted_values:
        return float("nan")
    k = min(len(sorted_values) - 1, max(0, round(q / 100.0 * (len(sorted_values) - 1))))
    return sorted_values[k]


def frame_summary(times_ms) -> str:
    s = sorted(times_ms)
    if not s:
        return "no frames"
    return (f"median {statistics.median(s):6.2f} ms  p99 {percentile(s, 99):7.2f} ms  "
            f"worst {s[-1]:8.2f} ms")


def settle(app: App, size) -> None:
    """Bring the App to the same state for a memory reading: start size, no stress, running, quiet."""
    if app.stress.on:
        app.apply("stress")
    if app.paused:
        app.apply("pause")
    if getattr(app, "minimized", False):
        pygame.event.post(pygame.event.Event(pygame.WINDOWRESTORED, {}))
    if app.screen.get_size() != tuple(size):
        pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, {"size": tuple(size), "w": size[0], "h": size[1]}))
    for _ in range(SETTLE_FRAMES):
        app.run(max_frames=app.frames + 1)
        app.running = True
    gc.collect()


def cache_sizes(app: App) -> dict[str, float]:
    """MB held by the big caches that only grow until a cap (diagnostics, not part of the verdict).

    ``bone_sprites``: the renderer's rotated bone sprites (cleared past 4000);
    ``theme_id_keys``: pygame_gui's theme-id lookup, whose keys are multi-MB
    strings in pygame_gui 0.6.14 (one per distinct widget hierarchy).
    """
    out = {}
    sprites = getattr(getattr(app, "renderer", None), "_sprites", None)
    if isinstance(sprites, dict):
        out["bone_sprites"] = sum(s.get_width() * s.get_height() * s.get_bytesize() for s in sprites.values()) / 2**20
    ids = getattr(app.ui.get_theme(), "unique_theming_ids", None)
    if isinstance(ids, dict):
        out["theme_id_keys"] = sum(len(k) for k in ids) / 2**20
    return out


def caches(app: App) -> str:
    """What the big caches hold, as a line of text."""
    parts = []
    sprites = getattr(getattr(app, "renderer", None), "_sprites", None)
    sizes = cache_sizes(app)
    if isinstance(sprites, dict):
        parts.append(f"bone sprites {len(sprites)} ({sizes['bone_sprites']:.1f} MB)")
    try:
        theme = app.ui.get_theme()
        sc = theme.shape_cache
        parts.append(f"pygame_gui shape cache {len(sc.cache_long_term_lookup)}+{len(sc.cache_short_term_lookup)} "
                     f"shapes on {len(sc.cache_surfaces)} pages")
        parts.append(f"theme ids {len(theme.unique_theming_ids)} ({sizes.get('theme_id_keys', 0.0):.1f} MB of keys)")
    except AttributeError:
        pass
    return ", ".join(parts)


def settled_rss(app: App, size) -> tuple[float, float]:
    """(resident MB as it is, resident MB after the heap is trimmed), in the settled state."""
    settle(app, size)
    # pygame_gui keeps surfaces it drew in the last st_cache_duration seconds (10 s)
    # in a short-term cache, so a reading right after a burst of resizes holds tens
    # of MB that it lets go a few seconds later: let that time pass first
    theme = app.ui.get_theme()
    for _ in range(2):
        app.ui.update(float(getattr(theme, "st_cache_duration", 10.0)) + 1.0)
    raw = rss_mb()
    trim_heap()
    return raw, rss_mb()


def warm_jit() -> str:
    """Compile the optional numba kernels now, so their memory is in every reading."""
    try:
        from ikplayground.solvers import jit
    except ImportError:
        return "no jit module"
    if not (jit.enabled() and jit.available()):
        return "numba off or not installed"
    return "numba kernels ready" if jit.kernels(wait=True) is not None else "numba kernels failed"


def _version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "?"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--frames", type=int, default=200_000, help="frames to run (default 200000)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the random input (default 0)")
    ap.add_argument("--report-every", type=int, default=10_000, help="frames between progress lines")
    ap.add_argument("--size", default="1280x720", help="window size WxH at the start (default 1280x720)")
    ap.add_argument("--warmup", type=int, default=None,
                    help="warm-up frames (default 5%% of --frames, at least min(2000, frames/2))")
    args = ap.parse_args(argv)
    size = tuple(int(v) for v in args.size.lower().split("x"))
    frames = max(args.frames, 2)
    warmup = args.warmup if args.warmup is not None else max(frames * 5 // 100, min(2000, frames // 2))
    warmup = min(max(warmup, 1), frames - 1)
    report_every = max(args.report_every, 1)

    folder = tempfile.TemporaryDirectory(prefix="ikplayground-soak-")
    os.chdir(folder.name)  # a relative path typed into the panel lands in here too
    t_start = time.perf_counter()
    mem_start = rss_mb()
    print(f"soak: {frames} frames, seed {args.seed}, window {size[0]}x{size[1]}, warm-up {warmup} frames, "
          f"pygame-ce {pygame.version.ver}, pygame_gui {_version('pygame_gui')}", flush=True)
    print(f"memory at start (before the App): {mem_start:8.1f} MB", flush=True)
    jit_state = warm_jit()
    app = App(size=size, realtime=False, scene_path="soak.json")  # relative: in the folder, as is all typed
    pygame.event.get()  # (not clear(): pygame-ce keeps a cleared event's dict, and pygame_gui's hold its widgets)
    app.run(max_frames=1)
    print(f"memory with the App up ({jit_state}): {rss_mb():8.1f} MB", flush=True)
    fuzz = EventFuzzer(app, args.seed, sandbox=Path(folder.name))

    times: list[float] = []
    window: list[float] = []
    mem_warm = None
    caches_warm: dict[str, float] = {}
    max_chains = 0
    slow: list[str] = []  # what the input was in frames slower than SLOW_MS
    error = None
    clock = time.perf_counter
    try:
        for i in range(1, frames + 1):
            labels = fuzz.post_frame()
            chains_before = len(app.scene.chains)
            t0 = clock()
            app.run(max_frames=app.frames + 1)
            dt = (clock() - t0) * 1000.0
            fuzz.after_frame()
            if dt > SLOW_MS and len(slow) < MAX_SLOW_LINES:
                slow.append(f"frame {i}: {dt:.0f} ms, {chains_before} -> {len(app.scene.chains)} chains, "
                            f"window {app.screen.get_width()}x{app.screen.get_height()}, "
                            f"stress {'on' if app.stress.on else 'off'}; new input: {', '.join(labels) or 'none'}")
                print(slow[-1], flush=True)
            times.append(dt)
            window.append(dt)
            max_chains = max(max_chains, len(app.scene.chains))
            if i == warmup:
                raw, mem_warm = settled_rss(app, size)
                caches_warm = cache_sizes(app)
                print(f"frame {i:>8}: memory after warm-up {mem_warm:8.1f} MB settled and trimmed "
                      f"({raw:.1f} MB before trimming)  {len(app.scene.chains)} chains; {caches(app)}", flush=True)
            if i % report_every == 0 or i == frames:
                print(f"frame {i:>8}: memory {rss_mb():8.1f} MB  {len(app.scene.chains):5d} chains  "
                      f"last {len(window)} frames: {frame_summary(window)}  "
                      f"({clock() - t_start:7.1f} s)", flush=True)
                window = []
    except Exception:  # noqa: BLE001 - report whatever escaped the App, then fail
        error = traceback.format_exc()
        print(f"EXCEPTION at frame {len(times) + 1}:\n{error}", flush=True)

    raw_end = rss_mb()
    if error is None:
        raw_end, mem_end = settled_rss(app, size)
    else:
        mem_end = raw_end
    held = caches(app)
    caches_end = cache_sizes(app)
    app.close()
    folder.cleanup()
    stats = fuzz.counts + fuzz.recorder.stats
    print(f"memory at the end: {mem_end:8.1f} MB settled and trimmed ({raw_end:.1f} MB before trimming)  "
          f"max chains {max_chains}", flush=True)
    print(f"caches at the end: {held}", flush=True)
    print(f"frame times over {len(times)} frames: {frame_summary(times)}", flush=True)
    if times:
        worst = max(range(len(times)), key=times.__getitem__)
        print(f"worst frame: #{worst + 1}", flush=True)
    print("exercised: " + ", ".join(f"{k} {stats[k]}" for k in (
        "chains_added", "chains_removed", "solver_switched", "resized", "scene_replaced", "command:stress",
        "grab_target", "grab_root", "quit_reset", "unpause") if k in stats), flush=True)
    print(f"run time {time.perf_counter() - t_start:.1f} s", flush=True)

    if error is not None:
        print(f"VERDICT: FAIL - an exception escaped the App at frame {len(times) + 1}", flush=True)
        return 2
    base = mem_warm if mem_warm is not None else mem_start
    growth = (mem_end - base) / base
    if caches_warm:
        deltas = {k: caches_end.get(k, 0.0) - v for k, v in caches_warm.items()}
        rest = (mem_end - base) - sum(deltas.values())
        print(f"memory change after warm-up {mem_end - base:+.1f} MB, of which "
              + ", ".join(f"{k.replace('_', ' ')} {v:+.1f} MB" for k, v in deltas.items())
              + f"; the rest {rest:+.1f} MB", flush=True)
    ok = growth <= MAX_GROWTH
    print(f"VERDICT: {'PASS' if ok else 'FAIL'} - memory {base:.1f} MB after warm-up -> {mem_end:.1f} MB at the end "
          f"({growth * 100:+.1f}%, limit +{MAX_GROWTH * 100:.0f}%), no exceptions", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
