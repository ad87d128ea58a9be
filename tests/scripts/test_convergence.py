"""scripts/convergence.py runs end to end and prints the Markdown table docs/solvers.md quotes.

The rates themselves are asserted in tests/solvers/test_limited_convergence.py.
"""

import subprocess
import sys
from pathlib import Path

from ikplayground import solvers

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "convergence.py"
STATUSES = ("reached", "out of reach", "stalled", "iterations")


def run(*args):
    done = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def table_rows(out):
    lines = [line for line in out.splitlines() if line.startswith("|")]
    head = [c.strip() for c in lines[0].strip("|").split("|")]
    return head, [dict(zip(head, (c.strip() for c in line.strip("|").split("|")))) for line in lines[2:]]


@pytest.mark.slow
def test_one_row_per_solver_and_budget_whose_counts_add_up():
    out = run("--seed", "5", "--count", "20", "--iterations", "30", "--tolerance", "1")
    assert "20 limited chains, seed 5, tolerance 1 px" in out
    head, rows = table_rows(out)
    assert head == ["solver", "iterations", "share reached", "mean used"] + [f'"{s}"' for s in STATUSES]
    names = [n for n in ("solve_ccd", "solve_fabrik", "solve_dls") if hasattr(solvers, n)]
    assert [(r["solver"], r["iterations"]) for r in rows] == [(n, b) for n in names for b in ("10", "30")]
    for r in rows:
        counts = [int(r[f'"{s}"']) for s in STATUSES]
        assert sum(counts) == 20 and counts[1] == 0  # every target is reachable
        assert r["share reached"] == f"{100 * counts[0] / 20:.1f}%"
        assert 0 <= float(r["mean used"]) <= int(r["iterations"])


@pytest.mark.slow
def test_the_same_seed_prints_the_same_table():
    assert run("--count", "15") == run("--count", "15", "--seed", "2011")
    assert run("--count", "15", "--seed", "1") != run("--count", "15", "--seed", "2")
