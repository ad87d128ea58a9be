"""Frame times of the default scene with the math shown: overlays, the Math page, the race, the step-through.

    python scripts/bench_math.py [--quick] [--frames N]

Each case runs the real App in a process of its own, in a real window when
``DISPLAY`` is set (run it under an X server such as Xvfb for the figures that
count) and with SDL's dummy driver otherwise, one scene step a frame and no
frame cap, and reports the median and the 99th percentile of the whole
frame's wall time (events, step, drawing, panel, flip). scripts/bench.py runs
it too (its "math" section). The cases:

- ``plain``: the default scene as it starts, nothing of the math on;
- ``two-bone``: "Show the math" on, the Math page up (live numbers, error plot,
  joint-space map), the two-bone arm selected, its target circling;
- ``ccd``: the same with the CCD chain selected (limit arcs, error line, ghost);
- ``race``: the race on its moving target, the math and the Math page on;
- ``step``: paused, the CCD chain stepped through one record a frame.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys

from bench_timing import median_p99_ms, time_calls

CASES = ("plain", "two-bone", "ccd", "race", "step")


def child(case: str, frames: int) -> dict:
    """In a child process: run ``case`` for ``frames`` frames; the frame times' median and p99 in ms."""
    if not os.environ.get("DISPLAY"):
        os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
    import numpy as np

    from ikplayground.app.app import App

    app = App(size=(1280, 720), realtime=False)
    solver = {"two-bone": "two-bone", "race": "ccd"}.get(case, "ccd")
    app.scene.select(next(c for c in app.scene.chains if c.solver == solver))
    app.selected_changed()
    if case != "plain":
        app.apply("show_math", True)
        app.panel.show_page("math")
    if case == "race":
        app.apply("moving_target", True)
        app.apply("race")
    chain = app.scene.selected
    home = chain.fields["target"].copy()

    def before(k):
        if case in ("two-bone", "ccd"):  # the target circles, so every overlay changes every frame
            a = k * 0.05
            app.scene.move_target(chain, home + 40.0 * np.array((math.cos(a), math.sin(a))) - (40.0, 0.0))
        if case == "step":
            if k % 40 == 0:  # a new solve now and then: the target moves, and the next record starts it
                app.scene.move_target(chain, home + (-120.0 + 60.0 * (k // 40 % 2), -60.0))
            app.apply("step")

    times = time_calls(frames, 20, before, app.frame)  # 20 frames' warm-up: caches, first solves, fonts
    app.close()
    return {"case": case, "frames": len(times), **median_p99_ms(times),
            "window": "X11" if os.environ.get("DISPLAY") else "dummy"}


def bench_math(quick: bool = False, frames: int | None = None) -> list[dict]:
    """Every case in a process of its own."""
    frames = frames or (150 if quick else 600)
    out = []
    for case in CASES:
        done = subprocess.run([sys.executable, __file__, "--_case", case, "--frames", str(frames)],
                              capture_output=True, text=True, check=True)
        out.append(json.loads(done.stdout.strip().splitlines()[-1]))
    return out


def table(rows: list[dict]) -> str:
    lines = [f"{'case':>10}{'median ms':>11}{'p99 ms':>9}{'frames':>8}  window"]
    lines += [f"{r['case']:>10}{r['median_ms']:>11.2f}{r['p99_ms']:>9.2f}{r['frames']:>8}  {r['window']}"
              for r in rows]
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Frame times with the math shown.")
    parser.add_argument("--quick", action="store_true", help="fewer frames")
    parser.add_argument("--frames", type=int, default=None)
    parser.add_argument("--_case", choices=CASES, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args._case:
        print(json.dumps(child(args._case, args.frames or 150)))
        return 0
    print(table(bench_math(args.quick, args.frames)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
