"""scripts/bench_solvers.py runs end to end at a tiny size: every solver on every input kind, against plain Python.

No time is asserted here (the machines are shared): only the rows' shape and sense.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "bench_solvers.py"


@pytest.mark.slow
def test_every_solver_and_input_kind_is_timed_against_plain_python(tmp_path):
    out = tmp_path / "single.json"
    done = subprocess.run([sys.executable, str(SCRIPT), "--seconds", "0.01", "--chains", "3", "--json", str(out),
                           "--skeletons", "1,3"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    rows = json.loads(out.read_text())["rows"]
    solvers = ("solve_two_bone", "solve_two_bone vs tuples", "solve_ccd", "solve_fabrik", "solve_dls", "follow_snake")
    assert {(r["solver"], r["input"]) for r in rows} == {(s, k) for s in solvers for k in ("float", "np scalar",
                                                                                              "array")}
    assert all(r["project_per_s"] > 0 and r["plain_per_s"] > 0 and r["ratio"] > 0 for r in rows)
    assert "solve_dls" in done.stdout and "np scalar" in done.stdout
    skeletons = json.loads(out.read_text())["skeletons"]  # solve_skeleton on 1 and 3 humanoids, both methods
    assert {(r["method"], r["skeletons"]) for r in skeletons} == {(m, c) for m in ("fabrik", "dls") for c in (1, 3)}
    assert all(r["per_s"] > 0 and 0 <= r["reached"] <= 1 for r in skeletons)
    assert "solve_skeleton" in done.stdout
