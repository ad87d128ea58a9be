"""The performance goals, measured: stress scenes, batched solvers, a plain loop, start-up, scene files.

    python scripts/bench.py [--quick] [--json PATH] [--files-baseline DIR] [--window]

Prints a table and, with ``--json``, writes::

    {"machine": {...}, "date": "...",
     "stress": [{"chains": 1000, "frame_ms": m, "step_ms": m, "render_ms": m, "rss_mb": m}, ...],
     "solvers": [{"solver": "ccd", "bones": 10, "batch": 10000, "per_s": r}, ...],
     "baseline": {"chains": 1000, "project_step_ms": m, "plain_loop_step_ms": m, "speedup": x},
     "startup": {"first_frame_s": s, "imports_s": s, "ratio": x},
     "files": [{"case": "...", "mb": m, "seconds": s, "peak_mb": m, "x_file": x, "outcome": "..."}, ...],
     "math": [{"case": "plain", "median_ms": m, "p99_ms": m, "frames": n, "window": "X11"}, ...],
     "record": [{"case": "default", "chains": 5, "steps": n, "median_ms": m, "p99_ms": m, "mb_per_step": m}, ...],
     "window": [{"case": "stress", "chains": 1000, "median_ms": m, "p99_ms": m, "worst_ms": m, "first_frame_ms": m,
                 "gc_per_frame": x, "gc_by_generation": [x, x, x], "gc_ms_per_frame": m, "rss_mb": m, ...}, ...]}

The "window" section (``--window``, scripts/bench_window.py) is there only when
asked for: the App in a real window (on ``DISPLAY``, or an Xvfb it starts),
the default scene, everything on, and the stress test at 1,000-10,000 chains.

Every figure is a median of several runs. Each stress size runs in its own
headless process (SDL's dummy video driver) so its resident memory is its
own: the real App draws the scene (stage, panel, status line) every frame.
The files section (scripts/bench_files.py) loads hard scene files, each in a
process of its own; ``--files-baseline DIR`` loads them with another
checkout's package too (the code before a change, say).
``--quick`` takes fewer samples and finishes in well under a minute.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_files  # noqa: E402
import bench_math  # noqa: E402
import bench_record  # noqa: E402
import bench_window  # noqa: E402
import numpy as np  # noqa: E402
import plain_reference as plain  # noqa: E402

BONES = 10
SOLVERS = ("two-bone", "ccd", "fabrik", "dls", "snake")


# --- helpers -------------------------------------------------------------------
def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000.0


def rss_mb() -> float:
    """Resident memory of this process in MB (Linux /proc; 0 where unknown)."""
    try:
        with open("/proc/self/statm") as fh:
            pages = int(fh.read().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE") / 1e6
    except (OSError, ValueError):
        return 0.0


def machine() -> dict:
    cpu = platform.processor() or ""
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    import pygame  # noqa: F401  (version only)

    from ikplayground.solvers import jit

    compiled = jit.kernels(wait=True) is not None
    numba_version = sys.modules["numba"].__version__ if compiled else None
    return {"cpu": cpu, "cores": os.cpu_count(), "system": platform.platform(), "python": platform.python_version(),
            "numpy": np.__version__, "pygame_ce": sys.modules["pygame"].version.ver,
            "numba": numba_version, "compiled_kernels": compiled}


# --- stress: one size in its own process ----------------------------------------
def stress_child(chains: int, frames: int, with_frames: bool) -> dict:
    """Run in a child process: time steps (and whole frames) of a stress scene."""
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
    from ikplayground.scene import drive_stress, stress_scene
    from ikplayground.solvers import jit

    jit.kernels(wait=True)  # compiled kernels if numba is installed (loaded before timing)

    out = {"chains": chains}
    if with_frames:
        from ikplayground.app.app import App

        app = App(size=(1280, 720), realtime=False)
        app.stress.start(chains)
        for _ in range(10):  # warm up: caches, first solves
            app.frame()
        frame, step, render = [], [], []
        for _ in range(frames):
            t0 = time.perf_counter()
            app.frame()
            frame.append(time.perf_counter() - t0)
            step.append(app.step_ms / 1000.0)
            render.append(app.render_ms / 1000.0)
        out.update(frame_ms=median_ms(frame), step_ms=median_ms(step), render_ms=median_ms(render))
        costs = app.scene.solver_ms
        app.close()
    else:
        scene = stress_scene(chains, (980.0, 694.0))
        for k in range(10):
            drive_stress(scene, k)
            scene.step()
        step = []
        for k in range(10, 10 + frames):
            drive_stress(scene, k)
            t0 = time.perf_counter()
            scene.step()
            step.append(time.perf_counter() - t0)
        out.update(step_ms=median_ms(step))
        costs = scene.solver_ms
    out["rss_mb"] = rss_mb()
    out["solver_ms"] = {k: round(v, 3) for k, v in costs.items()}
    return out


def run_stress(chains: int, frames: int, with_frames: bool) -> dict:
    cmd = [sys.executable, __file__, "--_stress", str(chains), "--_frames", str(frames)]
    if not with_frames:
        cmd.append("--_step-only")
    done = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


# --- batched solvers --------------------------------------------------------------
def solver_cases(rng, batch: int):
    """Random 10-bone chains with reachable targets, 2-bone arms, 10-segment snakes."""
    lengths = rng.uniform(20, 40, (batch, BONES))
    roots = rng.uniform(0, 1000, (batch, 2))
    limits = np.empty((batch, BONES, 2))
    limits[:] = (-math.pi, math.pi)
    limits[:, 1:] = np.radians((-60.0, 60.0))
    start = rng.uniform(limits[..., 0], limits[..., 1]) * 0.5
    goal = rng.uniform(limits[..., 0], limits[..., 1])
    from ikplayground.solvers import chain_points_batch

    targets = chain_points_batch(roots, goal, lengths)[:, -1]
    return roots, start, lengths, targets, limits


def time_call(fn, seconds: float, min_runs: int = 5) -> float:
    """Median seconds per call of ``fn()``."""
    samples = []
    deadline = time.perf_counter() + seconds
    while len(samples) < min_runs or time.perf_counter() < deadline:
        t0 = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples)


def bench_solvers(batches, seconds: float) -> list[dict]:
    from ikplayground.solvers import follow_snake, jit, solve_ccd, solve_dls, solve_fabrik, solve_two_bone
    from ikplayground.solvers import ccd_batch, fabrik_batch, snake_batch
    from ikplayground.solvers import dls_batch
    from ikplayground.solvers import two_bone_arrays

    jit.kernels(wait=True)
    rng = np.random.default_rng(11)
    rows = []
    for batch in batches:
        roots, start, lengths, targets, limits = solver_cases(rng, batch)
        iters = np.full(batch, 10, dtype=np.int64)
        tol = np.full(batch, 0.5)
        l1, l2 = lengths[:, 0] * 3, lengths[:, 1] * 3
        bend = np.ones(batch)
        snake_pts = np.concatenate([roots[:, None], roots[:, None] - np.arange(1, BONES + 1)[None, :, None]
                                    * np.array((30.0, 0.0))], axis=1)
        heads = roots + rng.uniform(-8, 8, (batch, 2))
        seg = np.full((batch, BONES), 30.0)
        half = np.full(batch, math.radians(30))
        if batch == 1:  # the public single-chain calls
            r, a, ln, t, lim = roots[0], start[0], lengths[0], targets[0], limits[0]
            calls = {
                "two-bone": (2, lambda: solve_two_bone(r, t, float(l1[0]), float(l2[0]))),
                "ccd": (BONES, lambda: solve_ccd(r, a, ln, t, limits=lim)),
                "fabrik": (BONES, lambda: solve_fabrik(r, a, ln, t, limits=lim)),
                "dls": (BONES, lambda: solve_dls(r, a, ln, t, limits=lim)),
                "snake": (BONES, lambda: follow_snake(snake_pts[0], heads[0], seg[0], (-half[0], half[0]))),
            }
        else:
            calls = {
                "two-bone": (2, lambda: two_bone_arrays(roots, targets, l1, l2, bend)),
                "ccd": (BONES, lambda: ccd_batch(roots, start, lengths, targets, iters, tol, limits)),
                "fabrik": (BONES, lambda: fabrik_batch(roots, start, lengths, targets, iters, tol, limits)),
                "dls": (BONES, lambda: dls_batch(roots, start, lengths, targets, iters, tol, limits)),
                "snake": (BONES, lambda: snake_batch(snake_pts, heads, seg, -half, half)),
            }
        for name, (bones, fn) in calls.items():
            rows.append({"solver": name, "bones": bones, "batch": batch,
                         "per_s": batch / time_call(fn, seconds)})
    return rows


# --- the plain per-chain loop -------------------------------------------------------
def plain_state(scene) -> list[dict]:
    """The stress scene's chains as plain Python lists (what a plain loop would keep)."""
    out = []
    for c in scene.chains:
        f = c.fields
        if c.is_snake:
            out.append({"solver": "snake", "points": [tuple(p) for p in f["points"].tolist()],
                        "lengths": f["lengths"].tolist(), "heading": float(f["heading"][0]), "speed": 0.0,
                        "lo": float(f["bend_limits"][0]), "hi": float(f["bend_limits"][1]),
                        "max_speed": float(f["max_speed"][0]), "turn_rate": float(f["turn_rate"][0])})
        else:
            out.append({"solver": c.solver, "root": tuple(f["root"].tolist()), "angles": f["angles"].tolist(),
                        "lengths": f["lengths"].tolist(), "target": list(f["target"].tolist()),
                        "rate": float(f["rate"][0])})
    return out


def plain_step(chains: list[dict], step: int, stage) -> None:
    """One stress step by a plain loop over the chains: script, solve, rate-limit, FK."""
    t = step / 60.0
    index = {"two-bone": 0, "ccd": 0, "fabrik": 0, "dls": 0, "snake": 0}
    for c in chains:
        k = index[c["solver"]]
        index[c["solver"]] += 1
        if c["solver"] == "snake":
            throttle = (step // 45 + k) % 4 != 0
            turn = math.copysign(1.0, math.sin(t * 1.3 + k * 0.7))
            c["heading"] += turn * c["turn_rate"]
            c["speed"] = min(c["speed"] + 1.0, c["max_speed"]) if throttle else c["speed"] * 0.8
            hx = min(max(c["points"][0][0] + c["speed"] * math.cos(c["heading"]), 0.0), stage[0])
            hy = min(max(c["points"][0][1] + c["speed"] * math.sin(c["heading"]), 0.0), stage[1])
            c["points"] = plain.snake(c["points"], hx, hy, c["lengths"], c["lo"], c["hi"])
            continue
        rx, ry = c["root"]
        reach = sum(c["lengths"])
        phase = k * 0.37
        r = reach * 0.55
        tx = rx + r * math.sin(t * 1.1 + phase)
        ty = ry - r * (0.6 + 0.4 * math.cos(t * 1.7 + phase))
        if c["solver"] == "two-bone":
            (kx, ky), _ = plain.two_bone(rx, ry, tx, ty, c["lengths"][0], c["lengths"][1])
            t1 = math.atan2(ky - ry, kx - rx)
            want = [t1, math.atan2(ty - ky, tx - kx) - t1]
        elif c["solver"] == "ccd":
            want = plain.ccd(rx, ry, c["angles"], c["lengths"], tx, ty)
        elif c["solver"] == "dls":
            want = plain.dls(rx, ry, c["angles"], c["lengths"], tx, ty)
        else:
            want = plain.fabrik(rx, ry, c["angles"], c["lengths"], tx, ty)
        rate = c["rate"]
        new = []
        for old, goal in zip(c["angles"], want):
            d = (goal - old + math.pi) % (2 * math.pi) - math.pi
            new.append(old + min(max(d, -rate), rate))
        c["angles"] = new
        c["points"] = plain.fk(rx, ry, new, c["lengths"])


def bench_baseline(chains: int, steps: int) -> dict:
    from ikplayground.scene import drive_stress, stress_scene
    from ikplayground.solvers import jit

    jit.kernels(wait=True)
    scene = stress_scene(chains, (980.0, 694.0))
    for k in range(10):
        drive_stress(scene, k)
        scene.step()
    state = plain_state(scene)
    ours, theirs = [], []
    for k in range(10, 10 + steps):  # interleaved, so both see the same machine load
        drive_stress(scene, k)
        t0 = time.perf_counter()
        scene.step()
        ours.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        plain_step(state, k, scene.stage)
        theirs.append(time.perf_counter() - t0)
    a, b = median_ms(ours), median_ms(theirs)
    return {"chains": chains, "project_step_ms": a, "plain_loop_step_ms": b, "speedup": b / a}


# --- start-up ---------------------------------------------------------------------------
def wall(cmd: list[str], runs: int) -> float:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    samples = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, env=env, capture_output=True, cwd=HERE.parent)
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples)


def bench_startup(runs: int) -> dict:
    first = wall([sys.executable, "-m", "ikplayground", "--headless", "--frames", "1",
                  "--scene", str(Path(tempfile.gettempdir()) / "ikplayground-bench-unsaved.json")], runs)
    imports = wall([sys.executable, "-c", "import pygame, pygame_gui, numpy"], runs)
    return {"first_frame_s": first, "imports_s": imports, "ratio": first / imports}


# --- main -------------------------------------------------------------------------------
def parse_sizes(text: str) -> list[int]:
    return [int(v) for v in text.split(",") if v]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Measure ikplayground against its performance goals.")
    parser.add_argument("--quick", action="store_true", help="fewer samples (under a minute)")
    parser.add_argument("--json", metavar="PATH", help="also write the figures as JSON to PATH")
    parser.add_argument("--stress-sizes", type=parse_sizes, default=[100, 1000, 10000], metavar="N,N",
                        help="stress scene sizes (default 100,1000,10000)")
    parser.add_argument("--batches", type=parse_sizes, default=[1, 100, 1000, 10000], metavar="N,N",
                        help="solver batch sizes (default 1,100,1000,10000)")
    parser.add_argument("--baseline-chains", type=int, default=1000, metavar="N")
    parser.add_argument("--file-mb", type=float, default=20.0, metavar="MB",
                        help="size of the hostile scene files (default 20)")
    parser.add_argument("--file-chains", type=int, default=20_000, metavar="N",
                        help="chains of the valid scene files (default 20000)")
    parser.add_argument("--record-chains", type=int, default=1000, metavar="N",
                        help="chains of the stress scene whose recording is timed (default 1000)")
    parser.add_argument("--files-baseline", metavar="DIR",
                        help="also load the scene files with the package in DIR (before/after in one run)")
    parser.add_argument("--window", action="store_true",
                        help="also frame times in a real window, up to 10,000 chains (scripts/bench_window.py)")
    parser.add_argument("--window-frames", type=int, default=None, metavar="N",
                        help="timed frames a window case (default 600, 120 with --quick)")
    parser.add_argument("--window-sizes", type=parse_sizes, default=list(bench_window.SIZES), metavar="N,N",
                        help="stress sizes in the window (default 1000,5000,10000)")
    parser.add_argument("--_stress", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--_frames", type=int, default=60, help=argparse.SUPPRESS)
    parser.add_argument("--_step-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args._stress is not None:
        print(json.dumps(stress_child(args._stress, args._frames, not args._step_only)))
        return 0

    frames = 30 if args.quick else 120
    seconds = 0.15 if args.quick else 1.0
    report = {"machine": machine(), "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")}
    report["stress"] = [run_stress(n, frames if n <= 1000 else max(10, frames // 4), with_frames=n <= 1000)
                        for n in args.stress_sizes]
    report["solvers"] = bench_solvers(args.batches, seconds)
    report["baseline"] = bench_baseline(args.baseline_chains, 10 if args.quick else 40)
    report["startup"] = bench_startup(3 if args.quick else 7)
    report["files"] = bench_files.bench_files(args.quick, args.file_mb, args.file_chains, args.files_baseline)
    report["math"] = bench_math.bench_math(args.quick)
    report["record"] = bench_record.bench_record(args.quick, args.record_chains)
    if args.window:
        report["window"] = bench_window.bench_window(args.quick, args.window_frames, args.window_sizes)

    m = report["machine"]
    print(f"machine: {m['cpu']} ({m['cores']} cores), Python {m['python']}, numpy {m['numpy']}, "
          + (f"numba {m['numba']} (compiled CCD/FABRIK kernels)" if m["compiled_kernels"] else "no numba (numpy path)"))
    print(f"\n{'chains':>8}{'frame ms':>10}{'step ms':>10}{'render ms':>11}{'RSS MB':>9}   step ms by solver")
    for s in report["stress"]:
        per = "  ".join(f"{k} {v:.2f}" for k, v in s["solver_ms"].items())
        frame = f"{s['frame_ms']:.2f}" if "frame_ms" in s else "-"
        render = f"{s['render_ms']:.2f}" if "render_ms" in s else "-"
        print(f"{s['chains']:>8}{frame:>10}{s['step_ms']:>10.2f}{render:>11}{s['rss_mb']:>9.0f}   {per}")
    columns = "".join(f"{'batch ' + str(b):>16}" for b in args.batches)
    print(f"\n{'solver':>10}{'bones':>7}" + columns + "   (per second)")
    for name in SOLVERS:
        rows = [r for r in report["solvers"] if r["solver"] == name]
        print(f"{name:>10}{rows[0]['bones']:>7}" + "".join(f"{r['per_s']:>16,.0f}" for r in rows))
    b = report["baseline"]
    print(f"\nbaseline, {b['chains']} chains: project step {b['project_step_ms']:.2f} ms, "
          f"plain loop {b['plain_loop_step_ms']:.2f} ms, speed-up x{b['speedup']:.1f}")
    s = report["startup"]
    print(f"start-up: first frame {s['first_frame_s']:.2f} s, imports {s['imports_s']:.2f} s, ratio {s['ratio']:.2f}")
    print("\nscene files (a fresh process each; peak: memory growth during the load)")
    print(bench_files.table(report["files"]))
    print("\nthe default scene with the math shown (scripts/bench_math.py; a real window when DISPLAY is set)")
    print(bench_math.table(report["math"]))
    print("\nrecording a step (scripts/bench_record.py; the goal: at most 1 ms for the default scene)")
    print(bench_record.table(report["record"]))
    if args.window:
        print("\nframe times in a real window (scripts/bench_window.py; median, p99, worst over the timed frames)")
        print(bench_window.table(report["window"]))
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
