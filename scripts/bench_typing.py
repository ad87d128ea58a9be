"""The scene file box and the window under heavy input, measured in a headless App.

    python scripts/bench_typing.py [--quick] [--baseline DIR] [--json PATH]

Figures (milliseconds of the frame that handles the input; the scene is paused,
so the frame is the box's and the panel's work):

* ``keystroke_ms[n]``: one typed character with ``n`` characters already in the
  box (pygame_gui lays out and draws the whole line again for each change, so
  this grows with ``n``; the box holds at most 4095 bytes, Linux's PATH_MAX);
* ``burst_ms``: 2000 one-character TEXTINPUT events in one frame (a typing tool,
  or a key held while frames are slow);
* ``paste_ms``: Ctrl+V of 4000 characters (taken) and of 10000 (refused: too long for a path);
* ``resize_ms`` and ``rss_mb``: a VIDEORESIZE to 20000x20000, and the memory after it.

Each run is a process of its own (SDL's dummy video driver). ``--baseline DIR``
runs the same in the package found in DIR too (the code before a change, say).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
CAP = 4095  # what the box holds (ikplayground.app.size_caps.PATH_MAX_BYTES; the baseline may lack it)
LENGTHS = (256, 1024, CAP - 100)


def rss_mb() -> float:
    try:
        with open("/proc/self/statm") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1e6
    except (OSError, ValueError):
        return 0.0


def child(quick: bool) -> dict:
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
    import pygame

    from ikplayground.app.app import App

    app = App(size=(1280, 720), realtime=False, scene_path=os.devnull)
    app.paused = True
    pygame.event.get()  # (not clear(): pygame-ce keeps a cleared event's dict, and pygame_gui's hold its widgets)
    app.run(max_frames=2)
    entry = app.panel.path_entry

    def frame() -> float:
        t0 = time.perf_counter()
        app.run(max_frames=app.frames + 1)
        return (time.perf_counter() - t0) * 1000.0

    def fresh(text: str) -> None:
        entry.set_text(text)
        app.ui.set_focus_set(entry)
        frame()

    out: dict = {"keystroke_ms": {}}
    for n in LENGTHS:
        fresh("a" * n)
        samples = []
        for _ in range(5 if quick else 15):
            pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="b"))
            samples.append(frame())
            entry.set_text("a" * n)  # back to n characters (cursor at the end)
            frame()
        out["keystroke_ms"][str(n)] = statistics.median(samples)
    fresh("")
    for _ in range(2000):
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="c"))
    out["burst_ms"] = frame()
    out["burst_kept"] = len(entry.get_text())
    out["paste_ms"] = {}
    for n in (4000, 10_000):
        fresh("")
        pygame.scrap.put_text("d" * n)
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_v, mod=pygame.KMOD_CTRL, unicode="",
                                             scancode=0))
        out["paste_ms"][str(n)] = frame()
        out[f"paste_{n}_kept"] = len(entry.get_text())
    app.ui.set_focus_set(None)
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=(20000, 20000), w=20000, h=20000))
    out["resize_ms"] = frame()
    out["window"] = "x".join(map(str, app.screen.get_size()))
    out["rss_mb"] = rss_mb()
    app.close()
    return out


def run(quick: bool, package_dir: str | None = None) -> dict:
    env = dict(os.environ)
    if package_dir:
        env["PYTHONPATH"] = str(Path(package_dir).resolve())
    cmd = [sys.executable, __file__, "--_child"] + (["--quick"] if quick else [])
    done = subprocess.run(cmd, capture_output=True, text=True, check=True, env=env,
                          cwd=package_dir or HERE.parent)
    return json.loads(done.stdout.strip().splitlines()[-1])


def table(rows: dict[str, dict]) -> str:
    lines = [f"{'code':>10}" + "".join(f"{'key@' + str(n):>10}" for n in LENGTHS)
             + f"{'burst2000':>11}{'paste4000':>11}{'paste10k':>10}{'resize':>9}{'window':>12}{'RSS MB':>8}"]
    for name, r in rows.items():
        lines.append(f"{name:>10}" + "".join(f"{r['keystroke_ms'][str(n)]:>10.1f}" for n in LENGTHS)
                     + f"{r['burst_ms']:>11.0f}{r['paste_ms']['4000']:>11.0f}{r['paste_ms']['10000']:>10.0f}"
                     + f"{r['resize_ms']:>9.0f}{r['window']:>12}{r['rss_mb']:>8.0f}")
    lines.append("(ms of the frame that handles it; burst: 2000 typed characters in one frame)")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Measure typing into the scene file box and a huge resize.")
    parser.add_argument("--quick", action="store_true", help="fewer samples")
    parser.add_argument("--baseline", metavar="DIR", help="also measure the package in DIR")
    parser.add_argument("--json", metavar="PATH", help="also write the figures as JSON to PATH")
    parser.add_argument("--_child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args._child:
        print(json.dumps(child(args.quick)))
        return 0
    rows = {"this": run(args.quick)}
    if args.baseline:
        rows["baseline"] = run(args.quick, args.baseline)
    print(table(rows))
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
