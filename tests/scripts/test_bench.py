"""scripts/bench.py runs end to end at tiny sizes and writes the JSON the issue specifies.

No time is asserted here (the machines are shared): only the file's shape and sense.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "bench.py"


@pytest.mark.slow
def test_quick_json_has_every_section(tmp_path):
    out = tmp_path / "bench.json"
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--quick", "--json", str(out), "--stress-sizes", "8,12",
         "--batches", "1,9", "--baseline-chains", "8", "--file-mb", "0.2", "--file-chains", "30",
         "--record-chains", "20"],
        capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(out.read_text())
    assert set(report) == {"machine", "date", "stress", "solvers", "baseline", "startup", "files", "math", "record"}
    assert report["machine"]["cores"] >= 1
    assert [s["chains"] for s in report["stress"]] == [8, 12]
    for s in report["stress"]:
        assert {"frame_ms", "step_ms", "render_ms", "rss_mb"} <= set(s)
        assert s["step_ms"] > 0 and s["frame_ms"] >= s["render_ms"] > 0 and s["rss_mb"] > 10
    got = {(r["solver"], r["batch"]) for r in report["solvers"]}
    assert got == {(name, b) for name in ("two-bone", "ccd", "fabrik", "dls", "snake") for b in (1, 9)}
    assert all(r["per_s"] > 0 and r["bones"] in (2, 10) for r in report["solvers"])
    b = report["baseline"]
    assert b["chains"] == 8 and b["speedup"] == b["plain_loop_step_ms"] / b["project_step_ms"]
    s = report["startup"]
    assert s["first_frame_s"] > 0 and s["imports_s"] > 0 and s["ratio"] == s["first_frame_s"] / s["imports_s"]
    assert "baseline, 8 chains" in done.stdout
    outcomes = [f["outcome"] for f in report["files"]]
    assert len(outcomes) == 5 and all(f["seconds"] > 0 and f["mb"] > 0 and f["peak_mb"] >= 0 for f in report["files"])
    assert outcomes[1] == "refused: chains: must have at most 20000 entries (got 66666)"
    assert outcomes[2:] == ["loaded 30 chains"] * 3
    assert "hand-made snakes" in done.stdout
    assert [m["case"] for m in report["math"]] == ["plain", "two-bone", "ccd", "race", "step"]
    assert all(m["p99_ms"] >= m["median_ms"] > 0 and m["frames"] > 0 for m in report["math"])
    assert [(r["case"], r["chains"]) for r in report["record"]] == [("default", 5), ("stress", 20)]
    assert all(r["p99_ms"] >= r["median_ms"] > 0 and r["steps"] > 0 and r["mb_per_step"] > 0
               for r in report["record"])
    assert "recording a step" in done.stdout
