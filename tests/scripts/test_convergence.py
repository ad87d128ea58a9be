"""scripts/convergence.py runs end to end and prints the Markdown tables docs/solvers.md quotes.

The rates themselves are asserted in tests/solvers/test_limited_convergence.py, test_one_sided_limits.py,
test_obstacle_solvers.py, test_poles.py and test_jacobian.py.
"""

import inspect
import subprocess
import sys
from pathlib import Path

from ikplayground import solvers

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "convergence.py"
STATUSES = ("reached", "out of reach", "stalled", "iterations")
NAMES = [n for n in ("solve_ccd", "solve_fabrik", "solve_dls") if hasattr(solvers, n)]


def run(*args):
    done = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout


def tables(out):
    """Each Markdown table of ``out`` as (head, rows of {column: cell})."""
    found, lines = [], []
    for line in out.splitlines() + [""]:
        if line.startswith("|"):
            lines.append(line)
        elif lines:
            head = [c.strip() for c in lines[0].strip("|").split("|")]
            found.append((head, [dict(zip(head, (c.strip() for c in row.strip("|").split("|")))) for row in lines[2:]]))
            lines = []
    return found


@pytest.mark.slow
def test_one_row_per_solver_set_and_budget_whose_counts_add_up():
    out = run("--seed", "5", "--count", "20", "--iterations", "30", "--tolerance", "1", "--sets", "free,symmetric",
              "--walks", "0", "--obstacles", "obstacles", "--no-family")
    assert "Chains: 20 free, 20 symmetric; seed 5, tolerance 1 px" in out
    assert "Among circles: 20 obstacles; seed 5, tolerance 1 px" in out
    (head, rows), (obstacle_head, obstacle_rows) = tables(out)
    assert head == ["solver", "set", "iterations", "share reached", "mean used"] + [f'"{s}"' for s in STATUSES]
    assert [(r["solver"], r["set"], r["iterations"]) for r in rows] == [
        (n, s, b) for n in NAMES for s in ("free", "symmetric") for b in ("10", "30")]
    for r in rows:
        counts = [int(r[f'"{s}"']) for s in STATUSES]
        assert sum(counts) == 20 and counts[1] == 0  # every target is reachable
        assert r["share reached"] == f"{100 * counts[0] / 20:.1f}%"
        assert 0 <= float(r["mean used"]) <= int(r["iterations"])
    avoiding = [n for n in NAMES if "obstacles" in inspect.signature(getattr(solvers, n)).parameters]
    assert {"solve_ccd", "solve_fabrik"} <= set(avoiding)
    assert obstacle_head[:6] == ["solver", "set", "iterations", "share reached", "mean used", "kept clear"]
    assert [(r["solver"], r["iterations"]) for r in obstacle_rows] == [(n, b) for n in avoiding for b in ("10", "30")]
    assert all(r["kept clear"] == "100.0%" for r in obstacle_rows)


@pytest.mark.slow
def test_the_same_seed_prints_the_same_table():
    few = ("--walks", "0", "--obstacles", "", "--no-family")
    assert run("--count", "15", *few) == run("--count", "15", "--seed", "2011", *few)
    assert run("--count", "15", "--seed", "1", *few) != run("--count", "15", "--seed", "2", *few)


@pytest.mark.slow
def test_the_pole_walks_and_the_jacobian_familys_tables():
    out = run("--seed", "5", "--count", "20", "--tolerance", "1", "--sets", "free,one-sided", "--walks", "1",
              "--obstacles", "")
    _, (pole_head, pole_rows), (family_head, family_rows), (rest_head, rest_rows) = tables(out)
    assert [r["solver"] for r in pole_rows] == ["solve_ccd", "solve_fabrik", "solve_dls", "transpose",
                                                "pseudo-inverse", "sdls"]
    assert all(r["jumps over 0.3 rad"] == "0" for r in pole_rows)
    assert family_head[-1] == "ended farther"
    assert [(r["method"], r["set"]) for r in family_rows] == [(m, s) for m in solvers.METHODS
                                                              for s in ("free", "one-sided")]
    for r in family_rows:
        counts = [int(r[f'"{s}"']) for s in STATUSES]
        assert sum(counts) == 20 and counts[1] == 0 and r["ended farther"] == "0"
        assert r["share reached"] == f"{100 * counts[0] / 20:.1f}%"
    assert rest_head == ["method", "both reached", "nearer the rest pose with it"]
    assert [r["method"] for r in rest_rows] == list(solvers.METHODS)
    assert all(0 < int(r["both reached"]) <= 20 for r in rest_rows)
