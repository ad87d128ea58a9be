"""scripts/bench_window.py runs end to end, headless, at a tiny size and writes the figures issue 16 asks for.

No time is asserted (the machines are shared): only the JSON's shape and sense.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "bench_window.py"


@pytest.mark.slow
def test_headless_run_reports_every_case_and_figure(tmp_path):
    out = tmp_path / "window.json"
    done = subprocess.run([sys.executable, str(SCRIPT), "--headless", "--frames", "4", "--sizes", "15,25",
                           "--before", sys.executable, "--json", str(out)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    report = json.loads(out.read_text())
    assert set(report) == {"machine", "date", "window"} and report["machine"]["cores"] >= 1
    rows = report["window"]
    cases = [("plain", 5), ("everything", 5), ("stress", 15), ("stress", 25), ("crowd", 5000)]
    assert [(r["case"], r["chains"], r["build"]) for r in rows] == [  # each case by the earlier install, then this
        (case, n, build) for case, n in cases for build in ("before", "now")]
    for r in rows:
        assert r["frames"] == 4 and r["window"] == "headless"
        assert r["worst_ms"] >= r["p99_ms"] >= r["median_ms"] > 0
        assert len(r["gc_by_generation"]) == 3 and all(n >= 0 for n in r["gc_by_generation"])
        assert r["gc_per_frame"] == pytest.approx(sum(r["gc_by_generation"])) and r["gc_ms_per_frame"] >= 0
        assert r["rss_mb"] > 10
        assert r["realtime"] and 0 <= r["steps_per_frame"] <= 5 and r["given_up_s"] >= 0  # as users run it
        assert ("first_frame_ms" in r) == (r["case"] == "stress") and r["app_first_frame_ms"] > 0
    stress = [r for r in rows if r["case"] == "stress"]
    assert all(r["first_frame_ms"] > 0 and isinstance(r["kernels_ready_at_first"], bool) for r in stress)
    assert all(r["first_frame_at_launch_ms"] > 0 and isinstance(r["kernels_ready_at_launch"], bool) for r in stress)
    assert "first stress frame: before 15 chains" in done.stdout and "headless" in done.stdout
    assert "the default scene's first frame: before " in done.stdout
    assert "started 3 frames after launch: before 15 chains" in done.stdout and "now 25 chains" in done.stdout


@pytest.mark.slow
def test_gc_watch_counts_collections_by_generation():
    sys.path.insert(0, str(SCRIPT.parent))
    import gc

    import bench_window

    gc.disable()  # only the collections asked for below: no automatic one in between
    try:
        with bench_window.GcWatch() as watch:
            gc.collect(0)
            gc.collect(2)
            gc.collect(2)
    finally:
        gc.enable()
    assert watch.counts == [1, 0, 2] and watch.seconds > 0
    assert watch not in gc.callbacks


@pytest.mark.slow
def test_repeat_runs_this_build_round_by_round_and_sums_up_each_case(tmp_path):
    out = tmp_path / "window.json"
    done = subprocess.run([sys.executable, str(SCRIPT), "--headless", "--frames", "3", "--sizes", "15",
                           "--before", sys.executable, "--repeat", "2", "--json", str(out)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    rows = json.loads(out.read_text())["window"]
    cases = [("plain", 5), ("everything", 5), ("stress", 15), ("crowd", 5000)]
    first = [(case, build, 0) for case, _ in cases for build in ("before", "now")]
    assert [(r["case"], r["build"], r["run"]) for r in rows] == (  # the earlier build once, this one twice
        first + [(case, "now", 1) for case, _ in cases])
    sys.path.insert(0, str(SCRIPT.parent))
    import bench_window

    summed = bench_window.summary(rows)
    assert [(s["build"], s["case"], s["runs"]) for s in summed] == [("now", case, 2) for case, _ in cases]
    for s in summed:
        runs = [r for r in rows if (r["build"], r["case"]) == ("now", s["case"])]
        assert s["median_ms"] == pytest.approx(sum(r["median_ms"] for r in runs) / 2)
        assert s["p99_low_ms"] == min(r["p99_ms"] for r in runs) and s["p99_high_ms"] == max(r["p99_ms"] for r in runs)
    assert "each case over its runs: the median of their medians" in done.stdout and "(2 runs, p99 " in done.stdout


def test_summary_takes_the_middle_run_of_an_odd_count():
    sys.path.insert(0, str(SCRIPT.parent))
    import bench_window

    rows = [{"build": "now", "case": "plain", "chains": 5, "median_ms": m, "p99_ms": p}
            for m, p in ((3.0, 9.0), (5.0, 6.0), (4.0, 7.5))]
    rows.append({"build": "before", "case": "plain", "chains": 5, "median_ms": 8.0, "p99_ms": 12.0})
    (only,) = bench_window.summary(rows)  # a build of one run has no summary
    assert only == {"build": "now", "case": "plain", "chains": 5, "runs": 3, "median_ms": 4.0, "p99_ms": 7.5,
                    "p99_low_ms": 6.0, "p99_high_ms": 9.0}
