"""scripts/convergence.py runs end to end and prints the Markdown tables docs/solvers.md quotes.

The rates themselves are asserted in tests/solvers/test_limited_convergence.py, test_one_sided_limits.py,
test_poles.py and test_jacobian.py.
"""

import subprocess
import sys
from pathlib import Path

from ikplayground import solvers

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "convergence.py"
STATUSES = ("reached", "out of reach", "stalled", "iterations")
SETS = ("free", "symmetric", "one-sided")


def run(*args):
    done = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout


def tables(out):
    """Each Markdown table of ``out`` (in order) as ``(head, rows)``, each row a dict of the head's cells."""
    found, lines = [], []
    for line in out.splitlines() + [""]:
        if line.startswith("|"):
            lines.append(line)
        elif lines:
            head = [c.strip() for c in lines[0].strip("|").split("|")]
            found.append((head, [dict(zip(head, (c.strip() for c in x.strip("|").split("|")))) for x in lines[2:]]))
            lines = []
    return found


def counts_add_up(rows, count):
    for r in rows:
        counts = [int(r[f'"{s}"']) for s in STATUSES]
        assert sum(counts) == count and counts[1] == 0  # every target is reachable
        assert r["share reached"] == f"{100 * counts[0] / count:.1f}%"
        assert 0 <= float(r["mean used"]) <= int(r["iterations"])


@pytest.mark.slow
def test_one_row_per_solver_set_and_budget_whose_counts_add_up():
    out = run("--seed", "5", "--count", "20", "--iterations", "30", "--tolerance", "1", "--walks", "1")
    assert "Chains: 20 free, 20 symmetric, 20 one-sided; seed 5, tolerance 1 px" in out
    (head, rows), (pole_head, pole_rows), (family_head, family_rows), (rest_head, rest_rows) = tables(out)
    assert head == ["solver", "set", "iterations", "share reached", "mean used"] + [f'"{s}"' for s in STATUSES]
    names = [n for n in ("solve_ccd", "solve_fabrik", "solve_dls") if hasattr(solvers, n)]
    assert [(r["solver"], r["set"], r["iterations"]) for r in rows] == [(n, s, b) for n in names for s in SETS
                                                                          for b in ("10", "30")]
    counts_add_up(rows, 20)
    assert [r["solver"] for r in pole_rows] == ["solve_ccd", "solve_fabrik", "solve_dls", "transpose",
                                                "pseudo-inverse", "sdls"]
    assert all(r["jumps over 0.3 rad"] == "0" for r in pole_rows)
    assert family_head[-1] == "ended farther"
    assert [(r["method"], r["set"]) for r in family_rows] == [(m, s) for m in solvers.METHODS
                                                              for s in ("free", "one-sided")]
    counts_add_up(family_rows, 20)
    assert all(r["ended farther"] == "0" for r in family_rows)
    assert rest_head == ["method", "both reached", "nearer the rest pose with it"]
    assert [r["method"] for r in rest_rows] == list(solvers.METHODS)
    assert all(0 < int(r["both reached"]) <= 20 for r in rest_rows)


@pytest.mark.slow
def test_the_same_seed_prints_the_same_tables():
    args = ("--count", "15", "--walks", "0")
    assert run(*args) == run(*args, "--seed", "2011")
    assert run(*args, "--seed", "1") != run(*args, "--seed", "2")
