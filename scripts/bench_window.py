"""Frame times in a real window: the default scene, everything on, the stress test at 1,000-10,000 chains, the crowd.

    python scripts/bench_window.py [--quick] [--frames N] [--big-frames N] [--sizes N,N] [--headless]
                                   [--fixed-step] [--before PYTHON] [--repeat N] [--json PATH]

Each case runs the real App (1280x720) as users run it: in real time, the wall
clock driving the steps (up to what a frame affords, ``scene/step/pacing.py``),
with no 60 FPS cap so that a frame's cost shows; ``--fixed-step`` runs one step
a frame instead, as the tests do. The steps a frame and the simulated time the
loop gave up (slow motion) are reported with the frame times. Each runs
in a process of its own, in a real window: on ``DISPLAY`` when it is set, else
on an X server this script starts (``Xvfb`` on a free display, stopped after
the run) when one is installed, else with SDL's dummy driver, and then every
figure is marked "headless". scripts/bench.py runs it with ``--window`` (its
"window" section). The cases:

- ``plain``: the default scene as it starts;
- ``everything``: the default scene with "Show the math" on, the Math page up,
  the two-bone arm selected and its target circling (bench_math's "two-bone");
- ``stress``: the stress test (``App.stress.start(n)``) at each size;
- ``crowd``: the ``crowd`` preset (5,000 chains), as ``--scene crowd`` opens it.

For a stress case the first frame (the one in which the stress test starts:
building the scene, drawing it) is timed on its own, as a user meets it: once
the compiled kernels have loaded (from numba's disk cache, in the App's first
second; waited for untimed). A second process times it again with the test
started three frames after the App's launch, the kernels maybe still loading
(``first_frame_at_launch_ms``); the plain case's ``app_first_frame_ms`` is the
App's own first frame on the default scene, which issue 25 compares it with.
The other cases too start once the kernels have loaded (the App starts loading
them as it opens; for about a second then its frames share the CPU with that).
Then every case warms
up (60 frames), then times ``frames`` whole frames (``App.frame``: events,
step, drawing, flip) and reports their median, 99th percentile and worst, the
garbage collector's collections per frame (counted by ``gc.callbacks``, per
generation too) and its time per frame, and the resident memory at the end.
Issue 16's goals are stated against these figures.

``--repeat N`` runs this build's cases N times, round by round (the earlier
build's, with ``--before``, once: its figures are far from any goal); every run
is a row of the table and of the JSON (``"run"``), and a summary gives each
case the median of its runs' medians and of their p99s, and the spread of the
p99s. On a shared machine one run of 600 frames (ten seconds) can meet a burst
of another's work; the spread says how much.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from statistics import median

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_timing import median_p99_ms, time_calls  # noqa: E402

SIZES = (1000, 5000, 10000)
WARMUP = 60


class GcWatch:
    """Counts the collections (per generation) and the time spent in them, through ``gc.callbacks``."""

    def __init__(self):
        self.counts = [0, 0, 0]
        self.seconds = 0.0
        self._t0 = None

    def __call__(self, phase: str, info: dict) -> None:
        if phase == "start":
            self.counts[info["generation"]] += 1
            self._t0 = time.perf_counter()
        elif self._t0 is not None:
            self.seconds += time.perf_counter() - self._t0
            self._t0 = None

    def __enter__(self):
        gc.callbacks.append(self)
        return self

    def __exit__(self, *exc):
        gc.callbacks.remove(self)


def rss_mb() -> float:
    """Resident memory of this process in MB (Linux /proc/self/status VmRSS; 0 where unknown)."""
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1000.0
    except (OSError, ValueError):
        pass
    return 0.0


def child(case: str, chains: int, frames: int, realtime: bool = True) -> dict:
    """In a child process: the figures of ``case`` (``chains`` chains for "stress") over ``frames`` frames."""
    if not os.environ.get("DISPLAY"):
        os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
    import numpy as np

    from ikplayground.app.app import App
    from ikplayground.solvers import jit

    scene = None
    if case == "crowd":  # the crowd preset as a user opens it (--scene crowd)
        from ikplayground.scene import load_preset

        scene = load_preset("crowd")
    app = App(size=(1280, 720), realtime=realtime, scene=scene)
    app.fps_cap = 0  # uncapped: a frame takes what it costs
    t0 = time.perf_counter()
    app.frame()  # the App's first frame: in the plain case the default scene's, what issue 25's first-frame goal
    opening_ms = (time.perf_counter() - t0) * 1000.0  # compares the stress test's first frame with
    for _ in range(2):  # the window's first frames (fonts, layouts) are the App's start-up, not the case's
        app.frame()
    out = {"case": case, "chains": len(app.scene.chains), "app_first_frame_ms": opening_ms}
    home = None
    if case in ("stress", "launch"):
        if case == "stress":  # as a user meets it: the kernels load from numba's cache in the App's first second
            jit.kernels(wait=True)
        ready = jit.kernels() is not None
        t0 = time.perf_counter()
        app.stress.start(chains)
        app.frame()
        out.update(first_frame_ms=(time.perf_counter() - t0) * 1000.0, kernels_ready_at_first=ready,
                   chains=len(app.scene.chains))
        if case == "launch":
            app.close()
            return out
        jit.kernels(wait=True)  # the steady state is the compiled one (where numba is installed)
    else:
        jit.kernels(wait=True)  # the steady state: the App loads them on a thread in its first second
    if case == "everything":
        chain = next(c for c in app.scene.chains if c.solver == "two-bone")
        app.scene.select(chain)
        app.selected_changed()
        app.apply("show_math", True)
        app.panel.show_page("math")
        home = chain.fields["target"].copy()

    def before(k):  # everything on: the target circles, so every overlay changes every frame
        if home is not None:
            a = k * 0.05
            app.scene.move_target(chain, home + 40.0 * np.array((math.cos(a), math.sin(a))) - (40.0, 0.0))

    for k in range(WARMUP):
        before(k)
        app.frame()
    steps0, given0 = getattr(app, "steps_taken", 0), getattr(app, "given_up", 0.0)  # (an earlier build may lack them)
    with GcWatch() as watch:
        times = time_calls(frames, 0, lambda k: before(WARMUP + k), app.frame)
    out.update(steps_per_frame=(getattr(app, "steps_taken", 0) - steps0) / len(times),
               given_up_s=getattr(app, "given_up", 0.0) - given0, realtime=realtime)
    out.update(frames=len(times), **median_p99_ms(times), worst_ms=max(times) * 1000.0,
               gc_per_frame=sum(watch.counts) / len(times),
               gc_by_generation=[n / len(times) for n in watch.counts],
               gc_ms_per_frame=watch.seconds * 1000.0 / len(times), rss_mb=rss_mb(),
               window="X11" if os.environ.get("DISPLAY") else "headless")
    app.close()
    return out


# --- the X server -------------------------------------------------------------------
def free_display(start: int = 90) -> int:
    """The first display number from ``start`` with neither a socket nor a lock file."""
    n = start
    while Path(f"/tmp/.X11-unix/X{n}").exists() or Path(f"/tmp/.X{n}-lock").exists():
        n += 1
    return n


def start_xvfb():
    """An Xvfb on a free display, once its socket is up: (process, ":n"), or (None, None) where there is none."""
    exe = shutil.which("Xvfb")
    if not exe:
        return None, None
    n = free_display()
    proc = subprocess.Popen([exe, f":{n}", "-screen", "0", "1600x900x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10.0
    while time.monotonic() < deadline:
        if Path(f"/tmp/.X11-unix/X{n}").exists():
            return proc, f":{n}"
        if proc.poll() is not None:
            break
        time.sleep(0.05)
    proc.kill()
    proc.wait()
    return None, None


def run_case(case: str, chains: int, frames: int, env: dict, realtime: bool = True, python: str | None = None) -> dict:
    """``case`` in a process of its own, run by ``python`` (default: this one) with the ikplayground it imports."""
    done = subprocess.run([python or sys.executable, __file__, "--_case", case, "--_chains", str(chains),
                           "--frames", str(frames), *(() if realtime else ("--fixed-step",))],
                          capture_output=True, text=True, check=True, env=env)
    return json.loads(done.stdout.strip().splitlines()[-1])


def bench_window(quick: bool = False, frames: int | None = None, sizes=SIZES, big_frames: int | None = None,
                 headless: bool = False, say=print, realtime: bool = True, before: str | None = None,
                 repeat: int = 1) -> list[dict]:
    """Every case in a process of its own, in a real window where there can be one (see the module's text).

    ``big_frames`` (default ``frames``) is the frame count of the stress sizes over 1,000;
    ``headless`` runs every case on SDL's dummy driver, whatever display there is. ``before``: the Python of
    another install (an earlier commit's virtual environment), each case run by it too, just before this
    one's (rows marked ``"build": "before"``), so that both are measured in the same run. ``repeat``: this
    build's runs of each case (``"run"`` 0, 1, ...), after the earlier build's one.
    """
    frames = frames or (120 if quick else 600)
    env = dict(os.environ)
    xvfb = None
    if headless:
        env.pop("DISPLAY", None)
    elif not env.get("DISPLAY"):
        xvfb, display = start_xvfb()
        if display:
            env["DISPLAY"] = display
            say(f"(no DISPLAY: started Xvfb on {display} for the run)")
        else:
            say("(no DISPLAY and no Xvfb: SDL's dummy driver, the figures are headless)")
    builds = ([("before", before)] if before else []) + [("now", None)]
    cases = [("plain", 0, frames), ("everything", 0, frames)]
    cases += [("stress", n, frames if n <= 1000 else (big_frames or frames)) for n in sizes]
    cases.append(("crowd", 0, big_frames or frames))
    out = []
    try:
        for run in range(max(1, repeat)):  # round by round: a burst of the machine's other work meets one run
            for case, n, k in cases:
                for build, python in builds:
                    if build == "now" or run == 0:
                        out.append(measure(case, n, k, env, realtime, python, build, run))
    finally:
        if xvfb is not None:
            xvfb.terminate()
            xvfb.wait()
    return out


def measure(case: str, n: int, frames: int, env: dict, realtime: bool, python, build: str, run: int) -> dict:
    """One run of ``case`` (a stress case's launch figure too), its row marked with ``build`` and ``run``."""
    row = run_case(case, n, frames, env, realtime, python)
    if case == "stress":  # the stress test started 3 frames after the App's launch
        launch = run_case("launch", n, 1, env, realtime, python)
        row.update(first_frame_at_launch_ms=launch["first_frame_ms"],
                   kernels_ready_at_launch=launch["kernels_ready_at_first"])
    row.update(build=build, run=run)
    return row


def summary(rows: list[dict]) -> list[dict]:
    """Each (build, case, chains) with more than one run: the median of its runs' medians and of their p99s, and
    the lowest and highest p99, in the order first met."""
    runs: dict[tuple, list[dict]] = {}
    for r in rows:
        runs.setdefault((r.get("build", "now"), r["case"], r["chains"]), []).append(r)

    return [{"build": b, "case": c, "chains": n, "runs": len(rs), "median_ms": median(r["median_ms"] for r in rs),
             "p99_ms": median(r["p99_ms"] for r in rs), "p99_low_ms": min(r["p99_ms"] for r in rs),
             "p99_high_ms": max(r["p99_ms"] for r in rs)} for (b, c, n), rs in runs.items() if len(rs) > 1]


def table(rows: list[dict]) -> str:
    lines = [f"{'build':>7}{'case':>11}{'chains':>8}{'median':>8}{'p99':>8}{'worst':>8}{'steps/f':>8}{'given up':>9}"
             f"{'gc/frame':>10}{'gc ms/f':>9}{'RSS MB':>8}{'frames':>8}  window (frame times in ms)"]
    for r in rows:
        lines.append(f"{r.get('build', 'now'):>7}{r['case']:>11}{r['chains']:>8}{r['median_ms']:>8.2f}"
                     f"{r['p99_ms']:>8.2f}{r['worst_ms']:>8.2f}{r['steps_per_frame']:>8.2f}{r['given_up_s']:>8.2f}s"
                     f"{r['gc_per_frame']:>10.3f}{r['gc_ms_per_frame']:>9.3f}{r['rss_mb']:>8.0f}{r['frames']:>8}"
                     f"  {r['window']}{'' if r['realtime'] else ', fixed step'}")
    several = summary(rows)
    if several:
        lines.append("each case over its runs: the median of their medians and of their p99s (and the lowest and "
                     "highest p99):")
        lines += [f"{s['build']:>7}{s['case']:>11}{s['chains']:>8}{s['median_ms']:>8.2f}{s['p99_ms']:>8.2f}"
                  f"  ({s['runs']} runs, p99 {s['p99_low_ms']:.2f}-{s['p99_high_ms']:.2f})" for s in several]
    opening = [r for r in rows if r["case"] == "plain" and "app_first_frame_ms" in r]
    if opening:
        lines.append("the default scene's first frame: " + ", ".join(
            f"{r.get('build', 'now')} {r['app_first_frame_ms']:.0f} ms" for r in opening))
    first = [r for r in rows if "first_frame_ms" in r]
    if first:
        lines.append("first stress frame: " + ", ".join(
            f"{r.get('build', 'now')} {r['chains']} chains {r['first_frame_ms']:.0f} ms"
            + ("" if r["kernels_ready_at_first"] else " (kernels not ready)") for r in first))
    launch = [r for r in first if "first_frame_at_launch_ms" in r]
    if launch:
        lines.append("started 3 frames after launch: " + ", ".join(
            f"{r.get('build', 'now')} {r['chains']} chains {r['first_frame_at_launch_ms']:.0f} ms"
            + ("" if r["kernels_ready_at_launch"] else " (kernels still loading)") for r in launch))
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Frame times in a real window, up to 10,000 chains.")
    parser.add_argument("--quick", action="store_true", help="fewer frames")
    parser.add_argument("--frames", type=int, default=None, help="timed frames a case (default 600)")
    parser.add_argument("--big-frames", type=int, default=None, help="timed frames of the sizes over 1,000")
    parser.add_argument("--sizes", type=lambda t: [int(v) for v in t.split(",") if v], default=list(SIZES),
                        metavar="N,N", help="stress sizes (default 1000,5000,10000)")
    parser.add_argument("--json", metavar="PATH", help='also write {"machine", "date", "window": [rows]} to PATH')
    parser.add_argument("--headless", action="store_true", help="SDL's dummy driver, no window (the tests)")
    parser.add_argument("--fixed-step", action="store_true", help="one step a frame, not in real time")
    parser.add_argument("--before", metavar="PYTHON", help="also run every case with this Python's install "
                        "(an earlier commit's virtual environment), in the same run")
    parser.add_argument("--repeat", type=int, default=1, metavar="N",
                        help="run this build's cases N times, round by round (default 1)")
    parser.add_argument("--_case", choices=("plain", "everything", "stress", "launch", "crowd"),
                        help=argparse.SUPPRESS)
    parser.add_argument("--_chains", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args._case:
        print(json.dumps(child(args._case, args._chains, args.frames or 120, not args.fixed_step)))
        return 0
    import datetime

    os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
    import bench  # the machine as scripts/bench.py reports it (imported here: bench imports this module)

    report = {"machine": bench.machine(),
              "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")}
    m = report["machine"]
    print(f"machine: {m['cpu']} ({m['cores']} cores), Python {m['python']}, numpy {m['numpy']}, "
          f"pygame-ce {m['pygame_ce']}, numba {m['numba']}; {report['date']}")
    report["window"] = bench_window(args.quick, args.frames, args.sizes, args.big_frames, args.headless,
                                    realtime=not args.fixed_step, before=args.before, repeat=args.repeat)
    print(table(report["window"]))
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
