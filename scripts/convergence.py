"""How often each iterative solver reaches a reachable target under joint limits, and the Jacobian family's figures.

    python scripts/convergence.py [--seed S] [--count N] [--iterations K] [--tolerance PX] [--walks W]

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

Then the Jacobian family's tables (:func:`family_table`, :func:`rest_table`,
:func:`pole_table`): every method of ``solve_jacobian`` on the "free" set
(:func:`free_chains`: 3..10 free bones) and the "one-sided" set
(:func:`one_sided_chains`, knee-like: 4..10 bones, joint 0 free, joints
1..n-1 each within [0, a] or [-a, 0], a = U(20, 150) degrees; 1,000 chains
unless ``--count``), with how many solves ended farther from the target than
they started; how often a solve given a rest pose ends nearer it than without
one (:func:`rest_cases`); and the pole walks (:func:`pole_walks`): a target
going round a circle 2 px a frame past a fixed pole, each frame's solve from
the last one's angles, counting the frames where a joint turned more than 0.3
rad and the share, with the pole 30 degrees or more off the root-target
line, of those bent to its side.
"""

from __future__ import annotations

import argparse
import math
import sys
from functools import partial
from typing import NamedTuple

import numpy as np

from ikplayground import solvers
from ikplayground.solvers import forward_kinematics
from ikplayground.solvers import STATUSES

SOLVERS = ("solve_ccd", "solve_fabrik", "solve_dls")  # those the package has are measured
SHORT_BUDGET = 10
JUMP = 0.3  # rad: a joint turning more than this between two frames is a jump
CLEAR = 0.5  # the pole counts as off the root-target line where the sine of its angle off it is at least this
SETTLE_FRAMES = 60  # frames on the first target before a walk is counted
STEP = 2.0  # px: how far the target moves a frame


class LimitedChain(NamedTuple):
    """One case of a set: pixels (y down) and radians, arrays of shape (2,), (n,) or (n, 2) (limits None: free)."""

    root: np.ndarray
    angles: np.ndarray
    lengths: np.ndarray
    target: np.ndarray
    limits: np.ndarray | None


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


# --- the Jacobian family -----------------------------------------------------------------------------------------
def _chains(seed: int, count: int, bones: tuple, ranges) -> list[LimitedChain]:
    """``count`` chains of ``bones`` (least, most) bones; ``ranges(rng, n)`` gives their limits (n, 2) or None."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        n = int(rng.integers(bones[0], bones[1] + 1))
        lengths = rng.uniform(20.0, 80.0, n)
        limits = ranges(rng, n)
        pose = rng.uniform(-math.pi, math.pi, n) if limits is None else rng.uniform(limits[:, 0], limits[:, 1])
        root = rng.uniform(-200.0, 200.0, 2)
        target = forward_kinematics(root, pose, lengths)[-1]
        out.append(LimitedChain(root, np.zeros(n), lengths, target, limits))
    return out


def _one_sided(rng, n: int) -> np.ndarray:
    limits = np.zeros((n, 2))
    limits[0] = (-math.pi, math.pi)
    for i in range(1, n):
        a = math.radians(rng.uniform(20.0, 150.0))
        limits[i] = (0.0, a) if rng.random() < 0.5 else (-a, 0.0)
    return limits


def free_chains(seed: int, count: int = 300) -> list[LimitedChain]:
    """The "free" set of the module docstring."""
    return _chains(seed, count, (3, 10), lambda rng, n: None)


def one_sided_chains(seed: int, count: int = 1000) -> list[LimitedChain]:
    """The "one-sided" (knee-like) set of the module docstring."""
    return _chains(seed, count, (4, 10), _one_sided)


def method_solver(method: str):
    """``solve_jacobian`` with ``method``, as the other solvers are called."""
    return partial(solvers.solve_jacobian, method=method)


def family_table(sets: dict, iterations: int, tolerance: float) -> str:
    """Every method of ``solve_jacobian`` on every set (``{name: chains}``): the share reached, the mean steps,
    the statuses, and the solves that ended farther from the target than they started."""
    head = ["method", "set", "iterations", "share reached", "mean used"] + [f'"{s}"' for s in STATUSES]
    head.append("ended farther")
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join(["---"] * 3 + ["---:"] * (len(head) - 3)) + "|"]
    for method in solvers.METHODS:
        for set_name, chains in sets.items():
            r, sols = measure(method_solver(method), chains, iterations, tolerance)
            worse = sum(s.error > start_error(c) + 1e-9 * float(np.sum(c.lengths)) for s, c in zip(sols, chains))
            cells = [method, set_name, str(iterations), f"{100 * r.reached:.1f}%", f"{r.mean_used:.1f}"]
            cells += [str(r.statuses[s]) for s in STATUSES] + [str(worse)]
            lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def start_error(c: LimitedChain) -> float:
    """The end effector's distance from the target at the start (px), the start clamped into the limits."""
    p = solvers.chain_problem(c.root, c.angles, c.lengths, c.target, 1, 0.5, c.limits)
    return float(math.dist(forward_kinematics(c.root, p.angles, c.lengths)[-1], c.target))


def rest_cases(seed: int, count: int = 300) -> list[tuple[LimitedChain, np.ndarray]]:
    """Free chains (:func:`free_chains`) each with a rest pose: U(-1, 1) rad a joint."""
    rng = np.random.default_rng(seed + 1)
    return [(c, rng.uniform(-1.0, 1.0, len(c.lengths))) for c in free_chains(seed, count)]


def angle_distance(a, b) -> float:
    """The length of the wrapped differences of two poses (rad)."""
    return float(np.linalg.norm(np.remainder(np.asarray(a) - np.asarray(b) + math.pi, 2.0 * math.pi) - math.pi))


def rest_nearer(method: str, cases, iterations: int = 100, tolerance: float = 0.5) -> tuple[int, int]:
    """``(nearer, both)``: of the cases both solves reach, those whose pose with the rest pose is nearer it."""
    nearer = both = 0
    for c, rest in cases:
        plain = solvers.solve_jacobian(c.root, c.angles, c.lengths, c.target, method=method, iterations=iterations,
                                       tolerance=tolerance)
        rested = solvers.solve_jacobian(c.root, c.angles, c.lengths, c.target, method=method, iterations=iterations,
                                        tolerance=tolerance, rest=rest)
        if plain.reached and rested.reached:
            both += 1
            nearer += angle_distance(rested.angles, rest) < angle_distance(plain.angles, rest)
    return nearer, both


def rest_table(cases) -> str:
    """For every method: of the rest cases both solves reach, the share ending nearer the rest pose with it."""
    lines = ["| method | both reached | nearer the rest pose with it |", "|---|---:|---:|"]
    for method in solvers.METHODS:
        nearer, both = rest_nearer(method, cases)
        lines.append(f"| {method} | {both} | {100 * nearer / max(both, 1):.1f}% |")
    return "\n".join(lines)


class PoleWalk(NamedTuple):
    """A target going round a circle with a fixed pole: px (y down), rad."""

    root: np.ndarray
    lengths: np.ndarray
    centre: np.ndarray
    radius: float
    pole: np.ndarray
    phase: float


class PoleRun(NamedTuple):
    """What :func:`walk_pole` saw: frames counted, jumps, frames with the pole clear of the line and of those
    the ones bent to its side, frames reached."""

    frames: int
    jumps: int
    clear: int
    on_side: int
    reached: int


def pole_walks(seed: int, count: int = 6) -> list[PoleWalk]:
    """``count`` walks: 5..8 free bones of U(20, 80) px; a circle about a point within 0.15 of the chain's length
    from the root, of radius 0.35..0.7 of it (so the target stays 0.2..0.85 of the length away and the
    root-target line sweeps past the pole); a pole 0.3..1.5 of the length from the root, in any direction."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        n = int(rng.integers(5, 9))
        lengths = rng.uniform(20.0, 80.0, n)
        reach = float(lengths.sum())
        root = rng.uniform(200.0, 600.0, 2)
        c = rng.uniform(-math.pi, math.pi)
        centre = root + rng.uniform(0.0, 0.15) * reach * np.array([math.cos(c), math.sin(c)])
        radius = float(rng.uniform(0.35, 0.7) * reach)
        b = rng.uniform(-math.pi, math.pi)
        pole = root + rng.uniform(0.3, 1.5) * reach * np.array([math.cos(b), math.sin(b)])
        out.append(PoleWalk(root, lengths, centre, radius, pole, float(rng.uniform(-math.pi, math.pi))))
    return out


def inner_side(root, angles, lengths, target) -> float:
    """The inner joints' summed signed distances from the root-target line (px; y down, so positive is clockwise of
    the line's direction on screen)."""
    pts = forward_kinematics(root, angles, lengths)[1:-1] - root
    u = (np.asarray(target, dtype=float) - root) / math.hypot(*(np.asarray(target, dtype=float) - root))
    return float(np.sum(u[0] * pts[:, 1] - u[1] * pts[:, 0]))


def walk_pole(solver, walk: PoleWalk, iterations: int = 100, tolerance: float = 0.5) -> PoleRun:
    """Solve ``walk`` frame by frame, each solve from the last one's angles: the target moves ``STEP`` px a frame
    round the circle, at least 400 frames and a whole turn, after ``SETTLE_FRAMES`` on its first point."""
    root, lengths, centre, radius, pole, phase = walk
    turn = STEP / radius
    frames = max(400, int(2.0 * math.pi / turn) + 20)
    a = np.zeros(len(lengths))
    jumps = clear = on_side = reached = 0
    for f in range(-SETTLE_FRAMES, frames):
        th = phase + max(f, 0) * turn
        target = centre + radius * np.array([math.cos(th), math.sin(th)])
        sol = solver(root, a, lengths, target, iterations=iterations, tolerance=tolerance, pole=pole)
        if f >= 0:
            jumps += bool(np.abs(np.remainder(sol.angles - a + math.pi, 2.0 * math.pi) - math.pi).max() > JUMP)
            reached += bool(sol.reached)
            u = target - root
            q = pole - root
            sine = (u[0] * q[1] - u[1] * q[0]) / (math.hypot(*u) * math.hypot(*q))
            if abs(sine) >= CLEAR:
                clear += 1
                on_side += inner_side(root, sol.angles, lengths, target) * sine > 0.0
        a = sol.angles
    return PoleRun(frames, jumps, clear, on_side, reached)


def pole_table(walks) -> str:
    """The pole walks for ``solve_dls`` and every method of ``solve_jacobian``."""
    lines = ["| solver | walks | frames | jumps over 0.3 rad | on the pole's side (pole 30 degrees or more off) "
             "| reached |", "|---|---:|---:|---:|---:|---:|"]
    for name, fn in [("solve_dls", solvers.solve_dls)] + [(m, method_solver(m)) for m in solvers.METHODS]:
        runs = [walk_pole(fn, w) for w in walks]
        frames = sum(r.frames for r in runs)
        clear = sum(r.clear for r in runs)
        lines.append(f"| {name} | {len(runs)} | {frames} | {sum(r.jumps for r in runs)} | "
                     f"{100 * sum(r.on_side for r in runs) / max(clear, 1):.1f}% of {clear} | "
                     f"{100 * sum(r.reached for r in runs) / max(frames, 1):.1f}% |")
    return "\n".join(lines)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2011, help="seed of the chain sets and the pole walks")
    parser.add_argument("--count", type=int, default=300, help="chains in the limited set (and the others: "
                        "1,000 one-sided chains unless given)")
    parser.add_argument("--iterations", type=int, default=100, help="sweeps / passes per solve")
    parser.add_argument("--tolerance", type=float, default=0.5, help="px that count as reached")
    parser.add_argument("--walks", type=int, default=6, help="pole walks (0: none)")
    parser.add_argument("--no-family", action="store_true", help="the limited set's table only")
    args = parser.parse_args(argv)
    chains = limited_chains(args.seed, args.count)
    print(f"{args.count} limited chains, seed {args.seed}, tolerance {args.tolerance:g} px\n")
    print(table(chains, args.iterations, args.tolerance))
    if args.no_family or not hasattr(solvers, "solve_jacobian"):
        return
    given = "--count" in (argv if argv is not None else sys.argv)
    sets = {"free": free_chains(args.seed, args.count), "one-sided": one_sided_chains(args.seed, args.count if given
                                                                                        else 1000)}
    print(f"\nThe Jacobian family: {len(sets['free'])} free and {len(sets['one-sided'])} one-sided chains, "
          f"seed {args.seed}\n")
    print(family_table(sets, args.iterations, args.tolerance))
    cases = rest_cases(args.seed, args.count)
    print(f"\nA rest pose (U(-1, 1) rad a joint) on {len(cases)} free chains, seed {args.seed}\n")
    print(rest_table(cases))
    if args.walks:
        print(f"\n{args.walks} pole walks, seed {args.seed}, the target {STEP:g} px a frame\n")
        print(pole_table(pole_walks(args.seed, args.walks)))


if __name__ == "__main__":
    main()
