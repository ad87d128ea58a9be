"""What recording costs a step (ikplayground/scene/recording.py): the default scene and a stress scene.

    python scripts/bench_record.py [--quick] [--chains N] [--read]

Each case steps a scene and times only ``Recorder.record`` (the step's rows
computed, formatted and handed to the file's buffer; the buffer's writes to
the disk included as they fall), over a few hundred steps, and reports the
median and the 99th percentile in ms. The goal: at most 1 ms a step for the
default scene. The cases:

- ``default``: the default scene (two-bone, CCD, FABRIK and DLS chains, a snake);
- ``stress``: the stress scene of ``--chains`` chains (default 1000) on its scripted paths.

With ``--read`` it measures reading instead: the peak memory growth (a fresh
process each, ``ru_maxrss``) of reading the largest step a scene can give
(20,000 chains of 64 joints, short rows) and of a 200 MB file of one step's
rows, which the reader must refuse; the goal is under 10 times the largest
legal step's file size.

scripts/bench.py runs it too (its "record" section).
"""

from __future__ import annotations

import argparse
import subprocess
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


_READ_CHILD = """
import resource, sys
from ikplayground.scene import RecordingError
from ikplayground.scene.record.recording_read import read_steps
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
try:
    outcome = f"{sum(len(s.chain) for s in read_steps(sys.argv[1])):,} rows read"
except RecordingError as e:
    outcome = "refused: " + str(e)[:60]
print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024, outcome, sep="\t")
"""


def bench_read() -> list[dict]:
    """Peak memory growth reading the largest legal step, and a 200 MB step the reader refuses."""
    from ikplayground.scene.record.recording import HEADER

    cases = {"largest legal step": (20_000, lambda c: "".join(f"0,{c},ccd,{j},1.0,2.0,3.0,4.0,5.0,#{c + 1}\n"
                                                               for j in range(64))),
             "200 MB one step": (200_000_000 // 33, lambda c: "0,0,ccd,0,1.0,2.0,3.0,4.0,5.0,#1\n")}
    out = []
    with tempfile.TemporaryDirectory() as folder:
        for case, (count, chain_text) in cases.items():
            path = Path(folder) / "run.csv"
            with open(path, "w") as file:
                file.write(HEADER)
                file.writelines(chain_text(c) for c in range(count))
            size = path.stat().st_size / 1e6
            peak, outcome = subprocess.run([sys.executable, "-c", _READ_CHILD, str(path)], capture_output=True,
                                           text=True, check=True).stdout.strip().split("\t")
            out.append({"case": case, "mb": size, "peak_mb": float(peak), "outcome": outcome})
    legal = out[0]["mb"]
    for row in out:
        row["x_legal_step"] = row["peak_mb"] / legal
    return out


def table(rows: list[dict]) -> str:
    lines = [f"{'case':>10}{'chains':>8}{'median ms':>11}{'p99 ms':>9}{'MB/step':>10}"]
    lines += [f"{r['case']:>10}{r['chains']:>8}{r['median_ms']:>11.3f}{r['p99_ms']:>9.3f}{r['mb_per_step']:>10.3f}"
              for r in rows]
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="What recording costs a step.")
    parser.add_argument("--quick", action="store_true", help="fewer steps")
    parser.add_argument("--chains", type=int, default=1000, metavar="N", help="the stress scene's chains (1000)")
    parser.add_argument("--read", action="store_true", help="measure the reader's peak memory instead")
    args = parser.parse_args(argv)
    if args.read:
        for r in bench_read():
            print(f"{r['case']:>20} {r['mb']:8.1f} MB  peak +{r['peak_mb']:7.1f} MB  "
                  f"{r['x_legal_step']:5.1f} x the largest legal step  {r['outcome']}")
        return 0
    print(table(bench_record(args.quick, args.chains)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
