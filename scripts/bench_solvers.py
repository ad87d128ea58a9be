"""Single-chain solver speed against plain-Python versions of the same algorithms.

    python scripts/bench_solvers.py [--seconds S]

Prints solves per second (median of several timed rounds) for each public
solver called on one chain the way a game would call it, next to the
straightforward plain-Python version in ``plain_reference.py``. The inputs are
the same random reachable targets for both.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

import numpy as np
import plain_reference as plain

from ikplayground.solvers import follow_snake, solve_ccd, solve_fabrik, solve_two_bone

BONES = 10


def rate(fn, cases, seconds):
    """Median calls per second of ``fn(*case)`` cycling through ``cases``."""
    rounds = []
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline or len(rounds) < 5:
        t0 = time.perf_counter()
        for case in cases:
            fn(*case)
        rounds.append(len(cases) / (time.perf_counter() - t0))
    return statistics.median(rounds)


def make_cases(rng, count):
    lengths = [30.0] * BONES
    chains = []
    for _ in range(count):
        angles = [rng.uniform(-0.6, 0.6) for _ in range(BONES)]
        r = rng.uniform(40, 0.9 * sum(lengths))
        a = rng.uniform(-math.pi, math.pi)
        chains.append((angles, lengths, (r * math.cos(a), r * math.sin(a))))
    return chains


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time per measurement")
    args = parser.parse_args()
    rng = random.Random(7)
    chains = make_cases(rng, 200)
    root = np.zeros(2)
    rows = []

    two = [((0.0, 0.0), t, 120.0, 100.0) for _, _, t in chains]
    rows.append(("two_bone", rate(solve_two_bone, two, args.seconds),
                 rate(lambda r, t, a, b: plain.two_bone(r[0], r[1], t[0], t[1], a, b), two, args.seconds)))
    rows.append(("two_bone vs ndarray out", rows[-1][1],
                 rate(lambda r, t, a, b: plain.two_bone_arrays_out(r[0], r[1], t[0], t[1], a, b), two, args.seconds)))

    iter_cases = [(root, np.array(a), np.array(ls), np.array(t)) for a, ls, t in chains]
    plain_cases = [(0.0, 0.0, a, ls, t[0], t[1]) for a, ls, t in chains]
    rows.append(("ccd (10 bones)", rate(solve_ccd, iter_cases, args.seconds),
                 rate(plain.ccd, plain_cases, args.seconds)))
    rows.append(("fabrik (10 bones)", rate(solve_fabrik, iter_cases, args.seconds),
                 rate(plain.fabrik, plain_cases, args.seconds)))

    snakes = []
    for a, ls, _ in chains:
        pts = np.array([(i * -40.0 + rng.uniform(-5, 5), rng.uniform(-5, 5)) for i in range(BONES + 1)])
        snakes.append((pts, np.array((rng.uniform(0, 8), rng.uniform(-3, 3))), np.full(BONES, 40.0)))
    lim = (-math.radians(30), math.radians(30))
    rows.append(("follow_snake (10 segs)", rate(lambda p, h, ls: follow_snake(p, h, ls, lim), snakes, args.seconds),
                 rate(lambda p, h, ls: plain.snake(p.tolist(), h[0], h[1], ls.tolist(), *lim), snakes, args.seconds)))

    print(f"{'solver':<24}{'project /s':>14}{'plain Python /s':>18}{'ratio':>8}")
    for name, ours, ref in rows:
        print(f"{name:<24}{ours:>14,.0f}{ref:>18,.0f}{ours / ref:>8.2f}")


if __name__ == "__main__":
    main()
