"""How often each iterative solver reaches reachable targets, how a pole keeps warm-started solves smooth, and how
the solvers that keep clear of circle obstacles reach round them.

    python scripts/convergence.py [--seed S] [--count N] [--iterations K] [--tolerance PX]
                                  [--sets free,symmetric,one-sided] [--walks W]
                                  [--obstacles obstacles,obstacles-limited] [--no-family]

Prints five Markdown tables. The first, for every iterative solver of
:mod:`ikplayground.solvers` (``SOLVERS``: those the package has) and every set
of ``SETS``: the share of targets reached, the mean sweeps, passes or steps
used and how many solves ended with each status, at ``--iterations`` and at
10. The second, for the solvers of ``POLE_SOLVERS``: the pole walks
(:func:`pole_walks`), counting the frames where a joint turned more than
``JUMP`` rad and the share of frames, with the pole at least 30 degrees off
the root-target line, whose inner joints lie on its side. The third, for every
solver of ``SOLVERS`` and method of ``solve_jacobian`` that takes ``obstacles=`` and every set of
``OBSTACLE_SETS``: the share reached with the circles, and the share that
kept every bone clear of them (it must be all); then, solved without them, the
share that reached with every bone clear and the share that ended with a bone
inside a circle (:func:`obstacle_table`). Then the Jacobian family's
(``solve_jacobian``'s ``METHODS``, ``--iterations``): each method on the free
and one-sided sets, with how many solves ended farther from the target than
they started (:func:`family_table`), and how often a solve given a rest pose
ends nearer it than the same solve without one, of the free chains both reach
(:func:`rest_table`, :func:`rest_cases`). docs/solvers.md quotes the tables;
tests import the sets, :func:`measure` and :func:`walk_pole` from here. The
tables are lists of rows: a solver or a set is added by adding a name (a name
of ``METHODS`` is ``solve_jacobian`` with that method).

The sets (seeded; every target the end effector of a random pose inside the
limits, so reachable; bones U(20, 80) px):

- "free": 3..10 bones, no limits, a straight start.
- "symmetric" (:func:`limited_chains`): 3..10 bones, joint 0 free, joints
  1..n-1 within +-U(20, 90) degrees, a straight start.
- "one-sided" (:func:`one_sided_chains`, knee-like): 4..10 bones, joint 0
  free, joints 1..n-1 each within [0, a] or [-a, 0] (either side alike),
  a = U(20, 150) degrees, a straight start (on every joint's bound).
- "obstacles" (:func:`obstacle_chains`): 4..10 free bones, a straight start,
  1..3 circles beside it (radius U(0.05, 0.2) of the chain's length, centred
  U(0.15, 0.95) of it along the start, U(0.005, 0.1) of it off its side), the
  target the end of a random pose clear of them; "obstacles-limited" the
  same with the symmetric set's limits, the pose drawn inside them.
"""

from __future__ import annotations

import argparse
import inspect
import math
from functools import partial
from typing import NamedTuple

import numpy as np

from ikplayground import solvers
from ikplayground.solvers import STATUSES, forward_kinematics, segment_gaps

SOLVERS = ("solve_ccd", "solve_fabrik", "solve_dls")  # those the package has are measured
# those whose pole steps rather than mirrors (a name of METHODS: solve_jacobian with that method)
POLE_SOLVERS = ("solve_ccd", "solve_fabrik", "solve_dls", "transpose", "pseudo-inverse", "sdls")
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


class ObstacleChain(NamedTuple):
    """One case of an obstacle set: a :class:`LimitedChain`'s fields and its circles (k, 3) rows ``(x, y, r)`` px."""

    root: np.ndarray
    angles: np.ndarray
    lengths: np.ndarray
    target: np.ndarray
    limits: np.ndarray | None
    obstacles: np.ndarray


class Rates(NamedTuple):
    """One solver at one budget over a set."""

    reached: float
    mean_used: float
    statuses: dict


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


def _symmetric(rng, n: int) -> np.ndarray:
    limits = np.zeros((n, 2))
    limits[0] = (-math.pi, math.pi)
    for i in range(1, n):
        half = math.radians(rng.uniform(20.0, 90.0))
        limits[i] = (-half, half)
    return limits


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


def limited_chains(seed: int, count: int = 300) -> list[LimitedChain]:
    """The "symmetric" set of the module docstring."""
    return _chains(seed, count, (3, 10), _symmetric)


def one_sided_chains(seed: int, count: int = 1000) -> list[LimitedChain]:
    """The "one-sided" (knee-like) set of the module docstring."""
    return _chains(seed, count, (4, 10), _one_sided)


SETS = {"free": free_chains, "symmetric": limited_chains, "one-sided": one_sided_chains}


def obstacle_chains(seed: int, count: int = 1000, limited: bool = False) -> list[ObstacleChain]:
    """The "obstacles" set of the module docstring (``limited``: "obstacles-limited")."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        n = int(rng.integers(4, 11))
        lengths = rng.uniform(20.0, 80.0, n)
        reach = float(lengths.sum())
        limits = _symmetric(rng, n) if limited else None
        root = rng.uniform(-200.0, 200.0, 2)
        rows = []
        for _ in range(int(rng.integers(1, 4))):
            r = rng.uniform(0.05, 0.2) * reach
            side = 1.0 if rng.random() < 0.5 else -1.0
            rows.append((root[0] + rng.uniform(0.15, 0.95) * reach,
                         root[1] + side * (r + rng.uniform(0.005, 0.1) * reach), r))
        circles = np.array(rows)
        for _ in range(200):  # a pose clear of them (else other circles)
            pose = rng.uniform(-math.pi, math.pi, n) if limits is None else rng.uniform(limits[:, 0], limits[:, 1])
            points = forward_kinematics(root, pose, lengths)
            if segment_gaps(points, circles).min() >= 0.0:
                out.append(ObstacleChain(root, np.zeros(n), lengths, points[-1], limits, circles))
                break
    return out


OBSTACLE_SETS = {"obstacles": obstacle_chains, "obstacles-limited": partial(obstacle_chains, limited=True)}


def available_solvers(names=SOLVERS) -> dict:
    """``{name: function}`` for the ``names`` the package exports (a method of ``solve_jacobian`` by its name)."""
    found = {name: getattr(solvers, name, None) or method_solver(name) for name in names}
    return {name: fn for name, fn in found.items() if fn is not None}


def method_solver(method: str):
    """``solve_jacobian`` with ``method`` (called as the other solvers are), or None where there is none."""
    if method not in getattr(solvers, "METHODS", ()):
        return None
    return partial(solvers.solve_jacobian, method=method)


def measure(solver, chains, iterations: int, tolerance: float, obstacles: bool = False) -> tuple[Rates, list]:
    """Run ``solver`` on every chain (among its circles when ``obstacles``); returns the summary and the solutions."""
    sols = [solver(c.root, c.angles, c.lengths, c.target, iterations=iterations, tolerance=tolerance,
                   limits=c.limits, **({"obstacles": c.obstacles} if obstacles else {})) for c in chains]
    statuses = {s: 0 for s in STATUSES}
    for sol in sols:
        statuses[sol.status] = statuses.get(sol.status, 0) + 1
    count = max(len(sols), 1)
    rates = Rates(sum(bool(s.reached) for s in sols) / count, sum(s.iterations for s in sols) / count, statuses)
    return rates, sols


def table(sets: dict, iterations: int, tolerance: float) -> str:
    """The Markdown table of every available solver on every set (``{name: chains}``) at ``iterations`` and at 10."""
    budgets = sorted({SHORT_BUDGET, iterations})
    head = ["solver", "set", "iterations", "share reached", "mean used"] + [f'"{s}"' for s in STATUSES]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join(["---"] * 3 + ["---:"] * (len(head) - 3)) + "|"]
    for name, fn in available_solvers().items():
        for set_name, chains in sets.items():
            for budget in budgets:
                r, _ = measure(fn, chains, budget, tolerance)
                cells = [name, set_name, str(budget), f"{100 * r.reached:.1f}%", f"{r.mean_used:.1f}"]
                cells += [str(r.statuses[s]) for s in STATUSES]
                lines.append("| " + " | ".join(cells) + " |")
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
    """The Markdown table of the pole walks for every solver of ``POLE_SOLVERS``."""
    lines = ["| solver | walks | frames | jumps over 0.3 rad | on the pole's side (pole 30 degrees or more off) "
             "| reached |", "|---|---:|---:|---:|---:|---:|"]
    for name, fn in available_solvers(POLE_SOLVERS).items():
        runs = [walk_pole(fn, w) for w in walks]
        frames = sum(r.frames for r in runs)
        clear = sum(r.clear for r in runs)
        lines.append(f"| {name} | {len(runs)} | {frames} | {sum(r.jumps for r in runs)} | "
                     f"{100 * sum(r.on_side for r in runs) / max(clear, 1):.1f}% of {clear} | "
                     f"{100 * sum(r.reached for r in runs) / max(frames, 1):.1f}% |")
    return "\n".join(lines)


def ends_clear(chain: ObstacleChain, angles) -> bool:
    """Whether the pose ``angles`` (rad) keeps every bone of ``chain`` clear of its circles (touching: clear)."""
    return bool(segment_gaps(forward_kinematics(chain.root, angles, chain.lengths), chain.obstacles).min() >= -1e-9)


def obstacle_table(sets: dict, iterations: int, tolerance: float, with_family: bool = True) -> str:
    """The Markdown table of every available solver taking ``obstacles=`` on every set of circles (``{name:
    chains}``), at ``iterations`` and at 10: with the circles, and without them (``with_family``: the Jacobian
    family's other methods too)."""
    budgets = sorted({SHORT_BUDGET, iterations})
    lines = ["| solver | set | iterations | share reached | mean used | kept clear | without: reached, clear "
             "| without: a bone inside |", "|---|---|---|---:|---:|---:|---:|---:|"]
    family = tuple(m for m in getattr(solvers, "METHODS", ()) if m != "dls" and with_family)  # ("dls": solve_dls)
    for name, fn in available_solvers(SOLVERS + family).items():
        if "obstacles" not in inspect.signature(fn).parameters:
            continue
        for set_name, chains in sets.items():
            count = max(len(chains), 1)
            for budget in budgets:
                r, sols = measure(fn, chains, budget, tolerance, obstacles=True)
                kept = sum(ends_clear(c, sol.angles) for c, sol in zip(chains, sols))
                _, plain = measure(fn, chains, budget, tolerance)
                clear = [ends_clear(c, sol.angles) for c, sol in zip(chains, plain)]
                both = sum(bool(sol.reached) and ok for sol, ok in zip(plain, clear))
                lines.append(f"| {name} | {set_name} | {budget} | {100 * r.reached:.1f}% | {r.mean_used:.1f} | "
                             f"{100 * kept / count:.1f}% | {100 * both / count:.1f}% | "
                             f"{100 * (count - sum(clear)) / count:.1f}% |")
    return "\n".join(lines)


def start_error(c: LimitedChain) -> float:
    """The end effector's distance from the target at the start (px), the start clamped into the limits."""
    p = solvers.chain_problem(c.root, c.angles, c.lengths, c.target, 1, 0.5, c.limits)
    return float(math.dist(forward_kinematics(c.root, p.angles, c.lengths)[-1], c.target))


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


def rest_table(cases, iterations: int = 100, tolerance: float = 0.5) -> str:
    """For every method: of the rest cases both solves reach, the share ending nearer the rest pose with it."""
    lines = ["| method | both reached | nearer the rest pose with it |", "|---|---:|---:|"]
    for method in solvers.METHODS:
        nearer, both = rest_nearer(method, cases, iterations, tolerance)
        lines.append(f"| {method} | {both} | {100 * nearer / max(both, 1):.1f}% |")
    return "\n".join(lines)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2011, help="seed of the chain sets and the pole walks")
    parser.add_argument("--count", type=int, default=None, help="chains a set (default: each set's own)")
    parser.add_argument("--iterations", type=int, default=100, help="sweeps / passes per solve")
    parser.add_argument("--tolerance", type=float, default=0.5, help="px that count as reached")
    parser.add_argument("--sets", default=",".join(SETS), help="comma-separated names of SETS")
    parser.add_argument("--walks", type=int, default=6, help="pole walks (0: none)")
    parser.add_argument("--obstacles", default=",".join(OBSTACLE_SETS),
                        help="comma-separated names of OBSTACLE_SETS (empty: none)")
    parser.add_argument("--no-family", dest="family", action="store_false", help="leave out the Jacobian family")
    args = parser.parse_args(argv)
    sets = {name: SETS[name](args.seed) if args.count is None else SETS[name](args.seed, args.count)
            for name in args.sets.split(",") if name}
    sizes = ", ".join(f"{len(c)} {name}" for name, c in sets.items())
    print(f"Chains: {sizes}; seed {args.seed}, tolerance {args.tolerance:g} px\n")
    print(table(sets, args.iterations, args.tolerance))
    if args.walks:
        print(f"\n{args.walks} pole walks, seed {args.seed}, the target {STEP:g} px a frame\n")
        print(pole_table(pole_walks(args.seed, args.walks)))
    made = {name: OBSTACLE_SETS[name] for name in args.obstacles.split(",") if name}
    circles = {name: make(args.seed) if args.count is None else make(args.seed, args.count)
               for name, make in made.items()}
    if circles:
        sizes = ", ".join(f"{len(c)} {name}" for name, c in circles.items())
        print(f"\nAmong circles: {sizes}; seed {args.seed}, tolerance {args.tolerance:g} px\n")
        print(obstacle_table(circles, args.iterations, args.tolerance, args.family))
    if hasattr(solvers, "solve_jacobian") and args.family:
        family = {name: c for name, c in sets.items() if name in ("free", "one-sided")}
        print(f"\nThe Jacobian family on {', '.join(f'{len(c)} {n}' for n, c in family.items())} chains\n")
        print(family_table(family, args.iterations, args.tolerance))
        cases = rest_cases(args.seed, len(sets.get("free", ())) or 300)
        print(f"\nA rest pose (U(-1, 1) rad a joint) on {len(cases)} free chains\n")
        print(rest_table(cases, args.iterations, args.tolerance))


if __name__ == "__main__":
    main()
