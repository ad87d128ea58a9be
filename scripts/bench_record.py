"""What recording costs a step (ikplayground/scene/recording.py): the default scene and a stress scene.

    python scripts/bench_record.py [--quick] [--chains N]

Each case steps a scene and times only ``Recorder.record`` (the step's rows
computed, formatted and handed to the file's buffer; the buffer's writes to
the disk included as they fall), over a few hundred steps, and reports the
median and the 99th percentile in ms. The goal: at most 1 ms a step for the
default scene. The cases:

- ``default``: the default scene (two-bone, CCD, FABRIK and DLS chains, a snake);
- ``stress``: the stress scene of ``--chains`` chains (default 1000) on its scripted paths.

scripts/bench.py runs it too (its "record" section).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from bench_timing import median_p99_ms, time_calls


def measure(case: str, chains: int, steps: int) -> dict:
    """Time ``Recorder.record`` over ``steps`` steps of ``case``; the median and p99 in ms."""
    from ikplayground.scene import Recorder, default_scene, drive_stress, stress_scene

    scene = default_scene() if case == "default" else stress_scene(chains, (980.0, 694.0))
    drive = (lambda k: None) if case == "default" else (lambda k: drive_stress(scene, k))
    def before(k):
        drive(k)
        scene.step()

    with tempfile.TemporaryDirectory() as folder:
        recorder = Recorder(Path(folder) / f"{case}.csv")
        times = time_calls(steps, 10, before, lambda: recorder.record(scene))  # 10: the layout and the rig
        recorder.close()
        size = (Path(folder) / f"{case}.csv").stat().st_size
    return {"case": case, "chains": len(scene.chains), "steps": steps, **median_p99_ms(times),
            "mb_per_step": size / (steps + 10) / 1e6}


def bench_record(quick: bool, chains: int = 1000) -> list[dict]:
    """Both cases: a few hundred steps of the default scene, fewer of the stress scene."""
    return [measure("default", chains, 200 if quick else 1000),
            measure("stress", chains, 20 if quick else 120)]


def table(rows: list[dict]) -> str:
    lines = [f"{'case':>10}{'chains':>8}{'median ms':>11}{'p99 ms':>9}{'MB/step':>10}"]
    lines += [f"{r['case']:>10}{r['chains']:>8}{r['median_ms']:>11.3f}{r['p99_ms']:>9.3f}{r['mb_per_step']:>10.3f}"
              for r in rows]
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="What recording costs a step.")
    parser.add_argument("--quick", action="store_true", help="fewer steps")
    parser.add_argument("--chains", type=int, default=1000, metavar="N", help="the stress scene's chains (1000)")
    args = parser.parse_args(argv)
    print(table(bench_record(args.quick, args.chains)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
