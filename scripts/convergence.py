"""How often each iterative solver reaches a reachable target under joint limits.

    python scripts/convergence.py [--seed S] [--count N] [--iterations K] [--tolerance PX]

Builds a seeded set of limited chains (:func:`limited_chains`) and prints, as
a Markdown table, for every iterative solver of :mod:`ikplayground.solvers`
(``solve_ccd``, ``solve_fabrik`` and ``solve_dls`` when the package has it),
the share of targets reached, the mean sweeps or passes used and how many
solves ended with each status, at ``--iterations`` and at 10 iterations. The
docs/solvers.md quotes the table; tests import :func:`limited_chains` and
:func:`measure` from here.

The set: 3..10 bones of U(20, 80) px; joint 0 free (-pi, pi), joints
1..n-1 limited to +-U(20, 90) degrees; the target is the end effector of a
random pose inside the limits (reachable by construction); the start pose is
straight (all angles 0).
"""

from __future__ import annotations

import argparse
import math
from typing import NamedTuple

import numpy as np

from ikplayground import solvers
from ikplayground.solvers import forward_kinematics
from ikplayground.solvers import STATUSES

SOLVERS = ("solve_ccd", "solve_fabrik", "solve_dls")  # those the package has are measured
SHORT_BUDGET = 10


class LimitedChain(NamedTuple):
    """One case of the set: pixels (y down) and radians, arrays of shape (2,), (n,) or (n, 2)."""

    root: np.ndarray
    angles: np.ndarray
    lengths: np.ndarray
    target: np.ndarray
    limits: np.ndarray


class Rates(NamedTuple):
    """One solver at one budget over the set."""

    reached: float
    mean_used: float
    statuses: dict


def limited_chains(seed: int, count: int = 300) -> list[LimitedChain]:
    """The seeded set described in the module docstring (``count`` chains)."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        n = int(rng.integers(3, 11))
        lengths = rng.uniform(20.0, 80.0, n)
        limits = np.zeros((n, 2))
        limits[0] = (-math.pi, math.pi)
        for i in range(1, n):
            half = math.radians(rng.uniform(20.0, 90.0))
            limits[i] = (-half, half)
        pose = rng.uniform(limits[:, 0], limits[:, 1])
        root = rng.uniform(-200.0, 200.0, 2)
        target = forward_kinematics(root, pose, lengths)[-1]
        out.append(LimitedChain(root, np.zeros(n), lengths, target, limits))
    return out


def available_solvers() -> dict:
    """``{name: function}`` for the names of :data:`SOLVERS` the package exports."""
    found = {name: getattr(solvers, name, None) for name in SOLVERS}
    return {name: fn for name, fn in found.items() if fn is not None}


def measure(solver, chains, iterations: int, tolerance: float) -> tuple[Rates, list]:
    """Run ``solver`` on every chain; returns the summary and the solutions."""
    sols = [solver(c.root, c.angles, c.lengths, c.target, iterations=iterations, tolerance=tolerance,
                   limits=c.limits) for c in chains]
    statuses = {s: 0 for s in STATUSES}
    for sol in sols:
        statuses[sol.status] = statuses.get(sol.status, 0) + 1
    count = max(len(sols), 1)
    rates = Rates(sum(bool(s.reached) for s in sols) / count, sum(s.iterations for s in sols) / count, statuses)
    return rates, sols


def table(chains, iterations: int, tolerance: float) -> str:
    """The Markdown table of every available solver at ``iterations`` and at 10."""
    budgets = sorted({SHORT_BUDGET, iterations})
    head = ["solver", "iterations", "share reached", "mean used"] + [f'"{s}"' for s in STATUSES]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join(["---"] * 2 + ["---:"] * (len(head) - 2)) + "|"]
    for name, fn in available_solvers().items():
        for budget in budgets:
            r, _ = measure(fn, chains, budget, tolerance)
            cells = [name, str(budget), f"{100 * r.reached:.1f}%", f"{r.mean_used:.1f}"]
            cells += [str(r.statuses[s]) for s in STATUSES]
            lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2011, help="seed of the chain set")
    parser.add_argument("--count", type=int, default=300, help="chains in the set")
    parser.add_argument("--iterations", type=int, default=100, help="sweeps / passes per solve")
    parser.add_argument("--tolerance", type=float, default=0.5, help="px that count as reached")
    args = parser.parse_args(argv)
    chains = limited_chains(args.seed, args.count)
    print(f"{args.count} limited chains, seed {args.seed}, tolerance {args.tolerance:g} px\n")
    print(table(chains, args.iterations, args.tolerance))


if __name__ == "__main__":
    main()
