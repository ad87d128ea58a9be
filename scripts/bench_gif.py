"""GIF capture: how long a long GIF takes and how big it is, and whether F9 holds a real window's frame rate.

    python scripts/bench_gif.py [--frames N] [--rounds N] [--skip-encode] [--skip-window]

- ``encode``: ``python -m ikplayground --headless --frames 720 --gif-window --gif OUT`` (the default
  scene; 720 frames at 60 a second make 600 GIF frames at 50 a second, each 1280x720), timed as a whole
  (the App's start and run too), with the file's size. Issue 29's goal: under a minute, under 20 MB.
- ``window``: the real App in a real window (on ``DISPLAY``, else an Xvfb that scripts/bench_window.py
  starts), in real time, the default scene, at the 60 FPS cap as users run it and uncapped; each case with
  and without an F9 capture (the whole window at 50 frames a second, on its worker thread), in processes of
  their own, interleaved round by round. Reported: the median and 99th percentile frame (``App.frame``,
  the cap's wait included), and the frames the capture skipped. Issue 29's goal: the median within 10% of
  not capturing.
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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_timing import median_p99_ms, time_calls  # noqa: E402
from bench_window import start_xvfb  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
WARMUP = 60


def bench_encode(frames: int = 720) -> dict:
    """The command line's GIF of ``frames`` frames of the whole 1280x720 window: seconds, MB, GIF frames."""
    from PIL import Image

    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "run.gif"
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "ikplayground", "--headless", "--frames", str(frames), "--gif-window",
                        "--gif", str(out), "--scene", "default"], check=True, env=env, cwd=folder)
        seconds = time.perf_counter() - t0
        with Image.open(out) as im:
            n, size = im.n_frames, im.size
        return {"case": "encode", "run_frames": frames, "gif_frames": n, "size": list(size), "seconds": seconds,
                "mb": out.stat().st_size / 1e6}


def child(cap: int, capture: bool, frames: int) -> dict:
    """In a child process: ``frames`` timed frames of the real App at FPS cap ``cap`` (0: none), F9 on or off."""
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
    from ikplayground.app.app import App
    from ikplayground.solvers import jit

    folder = tempfile.mkdtemp()
    app = App(size=(1280, 720), realtime=True, scene_path=Path(folder) / "s.json")
    app.fps_cap = cap
    for _ in range(3):
        app.frame()
    jit.kernels(wait=True)
    for _ in range(WARMUP):
        app.frame()
    if capture:
        app.capture.toggle()  # F9
    times = time_calls(frames, 0, lambda k: None, app.frame)
    out = {"cap": cap, "capture": capture, **median_p99_ms(times)}
    if capture:
        current = app.capture.current
        out.update(taken=current.taken, skipped=current.skipped)
        t0 = time.perf_counter()
        app.capture.finish()
        out["finish_s"] = time.perf_counter() - t0
    app.close()
    return out


def bench_window(frames: int = 600, rounds: int = 3, say=print) -> list[dict]:
    """Every (cap, capture) case ``rounds`` times, interleaved; the medians of each case's medians and p99s."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    xvfb = None
    if not env.get("DISPLAY"):
        xvfb, display = start_xvfb()
        if display is None:
            say("no DISPLAY and no Xvfb: the window case needs a real window")
            return []
        env["DISPLAY"] = display
    results: dict[tuple[int, bool], list[dict]] = {}
    try:
        for r in range(rounds):
            for cap in (60, 0):
                for capture in ((False, True) if r % 2 == 0 else (True, False)):
                    done = subprocess.run([sys.executable, __file__, "--_child", f"{cap},{int(capture)}",
                                           "--frames", str(frames)], capture_output=True, text=True, check=True,
                                          env=env)
                    row = json.loads(done.stdout.strip().splitlines()[-1])
                    results.setdefault((cap, capture), []).append(row)
                    say(f"  round {r + 1}: {row}")
    finally:
        if xvfb is not None:
            xvfb.kill()
            xvfb.wait()
    rows = []
    for (cap, capture), runs in sorted(results.items(), key=lambda kv: (-kv[0][0], kv[0][1])):
        rows.append({"cap": cap, "capture": capture, "median_ms": statistics.median(r["median_ms"] for r in runs),
                     "p99_ms": statistics.median(r["p99_ms"] for r in runs),
                     "skipped": sum(r.get("skipped", 0) for r in runs), "taken": sum(r.get("taken", 0) for r in runs)})
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="GIF capture: encoding a long GIF, F9's cost in a real window.")
    parser.add_argument("--frames", type=int, default=600, help="timed frames of a window case (default 600)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the interleaved window cases (default 3)")
    parser.add_argument("--skip-encode", action="store_true")
    parser.add_argument("--skip-window", action="store_true")
    parser.add_argument("--_child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args._child:
        cap, capture = args._child.split(",")
        print(json.dumps(child(int(cap), capture == "1", args.frames)))
        return 0
    if not args.skip_encode:
        row = bench_encode()
        print(f"encode: {row['gif_frames']} GIF frames of {row['size'][0]}x{row['size'][1]} from "
              f"{row['run_frames']} run frames in {row['seconds']:.1f} s, {row['mb']:.1f} MB")
    if not args.skip_window:
        rows = bench_window(args.frames, args.rounds)
        print("| FPS cap | F9 capture | median frame | p99 frame | frames skipped / captured |")
        print("| --- | --- | --- | --- | --- |")
        for r in rows:
            skipped = f"{r['skipped']} / {r['taken']}" if r["capture"] else ""
            print(f"| {r['cap'] or 'none'} | {'on' if r['capture'] else 'off'} | {r['median_ms']:.2f} ms | "
                  f"{r['p99_ms']:.2f} ms | {skipped} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
