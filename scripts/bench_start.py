"""How long the stress test takes to start, against the default scene's first frame (issue 25).

    python scripts/bench_start.py [--sizes N,N] [--rounds R] [--cases loaded,launch,cold] [--json PATH]

Each measurement runs in a fresh process (the App headless, 1280x720, on SDL's
dummy driver), which reports the default scene's first frame (``App()`` then
``App.frame()``) and, in the same process, the stress test's start
(``App.stress.start(n)``) and its first frame. The cases:

- ``loaded``: the stress test started once the compiled kernels have loaded
  (waited for untimed);
- ``launch``: started three frames after the App's launch, the kernels maybe
  still loading on their thread;
- ``cold``: as ``launch`` on the very first run after an install: numba's cache
  (``NUMBA_CACHE_DIR``) and Python's bytecode cache (``PYTHONPYCACHEPREFIX``)
  in empty temporary folders. It also reports the 60 frames after the start.

The rounds run the cases in turn (the machine's load shifts over a run); the
medians over the rounds are printed. Issue 25's goal: stress start plus its first
frame at most the default first frame plus 100 ms, at every size, in every case.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

SIZES = (1000, 5000, 10000)
CASES = ("loaded", "launch", "cold")
AFTER = 60  # frames timed after the start in the cold case


def child(case: str, chains: int) -> dict:
    """In a fresh process: the figures of ``case`` at ``chains`` chains, ms."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
    t0 = time.perf_counter()
    from ikplayground.app.app import App
    from ikplayground.solvers import jit

    app = App(size=(1280, 720))
    t1 = time.perf_counter()
    app.frame()
    t2 = time.perf_counter()
    for _ in range(2):
        app.frame()
    if case == "loaded":
        jit.kernels(wait=True)
    ready = jit.kernels() is not None
    t3 = time.perf_counter()
    app.stress.start(chains)
    t4 = time.perf_counter()
    app.frame()
    t5 = time.perf_counter()
    out = {"case": case, "chains": chains, "launch_ms": (t1 - t0) * 1000.0, "default_first_ms": (t2 - t1) * 1000.0,
           "start_ms": (t4 - t3) * 1000.0, "first_ms": (t5 - t4) * 1000.0, "stress_ms": (t5 - t3) * 1000.0,
           "kernels_ready": ready}
    if case == "cold":
        times = []
        for _ in range(AFTER):
            a = time.perf_counter()
            app.frame()
            times.append((time.perf_counter() - a) * 1000.0)
        out.update(after_median_ms=statistics.median(times), after_worst_ms=max(times),
                   kernels_ready_after=jit.kernels() is not None)
    app.close()
    return out


def run(case: str, chains: int) -> dict:
    env = dict(os.environ)
    with tempfile.TemporaryDirectory() as empty:
        if case == "cold":
            env["NUMBA_CACHE_DIR"] = os.path.join(empty, "numba")
            env["PYTHONPYCACHEPREFIX"] = os.path.join(empty, "pycache")
        done = subprocess.run([sys.executable, __file__, "--_case", case, "--_chains", str(chains)],
                              capture_output=True, text=True, check=True, env=env)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="The stress test's start against the default first frame.")
    parser.add_argument("--sizes", type=lambda t: [int(v) for v in t.split(",") if v], default=list(SIZES),
                        metavar="N,N", help="stress sizes (default 1000,5000,10000)")
    parser.add_argument("--cases", type=lambda t: [v for v in t.split(",") if v], default=list(CASES),
                        metavar="C,C", help="of loaded, launch, cold (default all)")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each case and size, in turn (default 3)")
    parser.add_argument("--json", metavar="PATH", help="also write every run's figures to PATH")
    parser.add_argument("--_case", choices=CASES, help=argparse.SUPPRESS)
    parser.add_argument("--_chains", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args._case:
        print(json.dumps(child(args._case, args._chains)))
        return 0
    rows = [run(case, n) for _ in range(args.rounds) for case in args.cases for n in args.sizes]
    print(f"{'case':>7}{'chains':>8}{'default':>9}{'start':>8}{'first':>8}{'stress':>8}{'over':>7}  (medians, ms)")
    for case in args.cases:
        for n in args.sizes:
            mine = [r for r in rows if r["case"] == case and r["chains"] == n]

            def med(key):
                return statistics.median(r[key] for r in mine)

            over = statistics.median(r["stress_ms"] - r["default_first_ms"] for r in mine)
            extra = (f"  then {med('after_median_ms'):.0f} ms a frame, worst {med('after_worst_ms'):.0f}"
                     if case == "cold" else "")
            ready = sum(r["kernels_ready"] for r in mine)
            print(f"{case:>7}{n:>8}{med('default_first_ms'):>9.0f}{med('start_ms'):>8.0f}{med('first_ms'):>8.0f}"
                  f"{med('stress_ms'):>8.0f}{over:>+7.0f}  kernels ready {ready}/{len(mine)}{extra}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(rows, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
