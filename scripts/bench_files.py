"""What loading a scene file costs: seconds and peak memory for the hard cases of a load.

    python scripts/bench_files.py [--quick] [--baseline DIR] [--file-mb MB] [--file-chains N]

``scripts/bench.py`` runs this as its ``files`` section. Each case is a file
written once into a temporary folder, then loaded by ``load_scene`` in a
fresh process of its own, which reports the load's wall time and its peak
memory (the growth of the peak resident set over what the process held just
before the load: Linux's VmHWM, reset before the load, else ``ru_maxrss``)
and what came of it. With ``--baseline DIR`` each
case is loaded a second time with the package from ``DIR`` first on the path
(another checkout, the code before a change, say): both figures in one run.

The cases: garbage a hostile file could hold (deep empty lists in an unknown
field; millions of empty chains), 20,000 hand-made snakes that must be laid
out again, and 20,000 chains of 64 bones as the playground writes them.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
HEAD = '{"format": "ikplayground-scene", "version": 1,\n "chains": ['
MB = 1024 * 1024


# --- the cases -------------------------------------------------------------------
def deep_lists(mb: float) -> str:
    unit = "[" * 30 + "]" * 30
    count = int(mb * MB - 100) // (len(unit) + 1)
    return HEAD + '], "x": [' + ",".join([unit] * count) + "]}"


def empty_chains(mb: float) -> str:
    return HEAD + ",".join(["[]"] * int(mb * 1e6 / 3)) + "]}"


def hand_made_snakes(chains: int) -> str:
    import numpy as np

    rng = np.random.default_rng(7)
    lines = []
    for _ in range(min(chains, 500)):
        pts = np.cumsum(rng.integers(1, 30, (65, 2)), axis=0).tolist()
        lines.append(json.dumps({"solver": "snake", "points": pts}, separators=(",", ":")))
    return HEAD + ",".join(lines[i % len(lines)] for i in range(chains)) + "]}"


def saved_chains(solver: str, chains: int) -> str:
    """``chains`` chains of 64 bones as the writer writes them (500 different ones, repeated)."""
    import numpy as np

    from ikplayground.scene import chain_to_dict, make_ik_chain, straight_snake

    rng = np.random.default_rng(11)
    lines = []
    for _ in range(min(chains, 500)):
        if solver == "snake":
            c = straight_snake(rng.uniform(0, 900, 2), rng.uniform(-3, 3), nodes=65,
                                     segment=7.3 + rng.uniform(0, 1))
        else:
            c = make_ik_chain(solver, rng.uniform(0, 900, 2), rng.uniform(-0.7, 0.7, 64),
                                    rng.uniform(5, 15, 64), rng.uniform(0, 900, 2))
        lines.append(json.dumps(chain_to_dict(c)))
    return HEAD + "\n  " + ",\n  ".join(lines[i % len(lines)] for i in range(chains)) + "\n ]}\n"


def cases(mb: float, chains: int) -> list[tuple[str, object]]:
    return [
        (f"deep empty lists in an unknown field ({mb:g} MB)", lambda: deep_lists(mb)),
        (f"{int(mb * 1e6 / 3):,} empty chains []", lambda: empty_chains(mb)),
        (f"{chains:,} hand-made snakes of 65 points", lambda: hand_made_snakes(chains)),
        (f"{chains:,} CCD chains of 64 bones, as saved", lambda: saved_chains("ccd", chains)),
        (f"{chains:,} snakes of 65 points, as saved", lambda: saved_chains("snake", chains)),
    ]


# --- one load in its own process ---------------------------------------------------
def rss_bytes() -> int:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def reset_peak() -> bool:
    """Make the kernel's peak resident set (VmHWM) start again from now (Linux); False where it cannot."""
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
        return True
    except OSError:
        return False


def peak_bytes(reset: bool) -> int:
    """The peak resident set: since :func:`reset_peak` if ``reset``, else since the process began."""
    if reset:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def case_child(path: str) -> dict:
    """Run in a child process: load ``path`` once; seconds, peak memory growth and the outcome."""
    from ikplayground.scene import SceneFileError, load_scene

    before = rss_bytes()
    reset = reset_peak()  # else the peak may be the imports'
    start = time.perf_counter()
    try:
        outcome = f"loaded {len(load_scene(path).chains):,} chains"
    except SceneFileError as e:
        outcome = "refused: " + str(e).split(": ", 1)[-1]
    seconds = time.perf_counter() - start
    peak = peak_bytes(reset) - before
    return {"seconds": seconds, "peak_mb": max(peak, 0) / 1e6, "outcome": outcome}


def run_case(path: Path, runs: int, code: str | None = None) -> dict:
    env = dict(os.environ)
    if code:
        env["PYTHONPATH"] = os.pathsep.join([code, env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    results = []
    for _ in range(runs):
        done = subprocess.run([sys.executable, __file__, "--_case", str(path)], capture_output=True, text=True,
                              env=env, check=True, timeout=600)
        results.append(json.loads(done.stdout.strip().splitlines()[-1]))
    return {"seconds": statistics.median(r["seconds"] for r in results),
            "peak_mb": max(r["peak_mb"] for r in results), "outcome": results[-1]["outcome"]}


def bench_files(quick: bool, mb: float = 20.0, chains: int = 20_000, baseline: str | None = None) -> list[dict]:
    """Every case, loaded in its own process (once with ``quick``, else the median of three)."""
    rows = []
    with tempfile.TemporaryDirectory(prefix="ikplayground-bench-") as folder:
        for name, make in cases(mb, chains):
            path = Path(folder) / "case.json"
            path.write_text(make(), encoding="utf-8")
            row = {"case": name, "mb": path.stat().st_size / 1e6}
            row.update(run_case(path, 1 if quick else 3))
            row["x_file"] = row["peak_mb"] / row["mb"]
            if baseline:
                row["before"] = run_case(path, 1, baseline)
            rows.append(row)
            path.unlink()
    return rows


def table(rows: list[dict]) -> str:
    before = any("before" in r for r in rows)
    head = f"{'file':<46}{'MB':>7}{'load s':>8}{'peak MB':>9}{'x file':>8}"
    head += f"{'before s':>10}{'before MB':>11}" if before else ""
    lines = [head + "   outcome"]
    for r in rows:
        line = f"{r['case']:<46}{r['mb']:>7.1f}{r['seconds']:>8.2f}{r['peak_mb']:>9.0f}{r['x_file']:>8.1f}"
        if before:
            b = r["before"]
            line += f"{b['seconds']:>10.2f}{b['peak_mb']:>11.0f}"
        outcome = r["outcome"] if len(r["outcome"]) <= 70 else r["outcome"][:67] + "..."
        lines.append(line + "   " + outcome)
        if before and r["before"]["outcome"] != r["outcome"]:
            lines.append(f"{'':<46}{'before:':>7} " + r["before"]["outcome"][:90])
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Measure what loading scene files costs.")
    parser.add_argument("--quick", action="store_true", help="one load a case, not the median of three")
    parser.add_argument("--baseline", metavar="DIR", help="also load each case with the package in DIR")
    parser.add_argument("--file-mb", type=float, default=20.0, metavar="MB", help="size of the garbage cases")
    parser.add_argument("--file-chains", type=int, default=20_000, metavar="N", help="chains of the valid cases")
    parser.add_argument("--_case", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args._case:
        print(json.dumps(case_child(args._case)))
        return 0
    print(table(bench_files(args.quick, args.file_mb, args.file_chains, args.baseline)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
