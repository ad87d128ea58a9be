"""Single-chain solver speed against plain-Python versions of the same algorithms, for three kinds of input.

    python scripts/bench_solvers.py [--seconds S] [--chains N] [--only NAME] [--wall] [--json PATH]
                                    [--skeletons N,N]

Each public single-chain call (``solve_two_bone``, ``solve_ccd``, ``solve_fabrik``, ``solve_dls``,
``follow_snake``) is timed on the same random chains given three ways:

- ``float``: Python floats, points as tuples, angles and lengths as lists;
- ``np scalar``: numpy float64 scalars (what indexing an array gives, ``arr[0]``), points as tuples of
  them, angles and lengths as lists of them;
- ``array``: small float64 arrays, points (2,), angles and lengths (n,), a snake's nodes (n + 1, 2) and
  bend range (2,); the two-bone lengths are numpy float64 scalars.

The plain version (``plain_reference.py``) gets the same objects and converts them once on entry the way
a plain-Python author would (``float(x)`` for a numpy scalar, ``.tolist()`` for an array; Python floats
are passed as they are), then runs on floats and the math module. It returns what the library returns:
numpy arrays for the knee and end, the angles and the snake's nodes (``np.array`` of its lists). The
project's calls also check every argument and report error, iterations and status; the plain ones do
not. One more row times the two-bone plain version returning tuples, as a plain-Python program would
keep them.

Then ``solve_skeleton`` solves 1, 100 and 1,000 (``--skeletons``) target sets on a humanoid-like skeleton
(``HUMANOID``: 17 bones with limits, the hands and ankles as targets, each set from a random pose near the
rest pose), a call each from the rest pose, with both methods: skeletons per second (the median over
rounds) and the share reached. It has no plain version.

Project and plain calls are timed in alternating rounds (so a busy machine slows both alike), by the
process's CPU time (``--wall`` for the wall clock); the figures are the median solves per second over
the rounds and the median of the rounds' ratios (project / plain: above 1 the project is faster).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time

import numpy as np
import plain_reference as plain

from ikplayground.solvers import follow_snake, solve_ccd, solve_dls, solve_fabrik, solve_two_bone

BONES = 10
KINDS = ("float", "np scalar", "array")
BEND = (-math.radians(30), math.radians(30))


def rounds(ours, theirs, cases, seconds: float, clock=time.process_time, least: int = 5):
    """Alternate timed rounds of ``ours(*case)`` and ``theirs(*case)``: ``(ours /s, theirs /s, ratio)`` medians."""
    mine, ref, ratios = [], [], []
    deadline = time.perf_counter() + seconds
    k = 0
    while time.perf_counter() < deadline or len(ratios) < least:
        pair = []
        for fn in (ours, theirs)[:: 1 if k % 2 == 0 else -1]:
            t0 = clock()
            for case in cases:
                fn(*case)
            pair.append(len(cases) / (clock() - t0))
        a, b = pair if k % 2 == 0 else pair[::-1]
        mine.append(a)
        ref.append(b)
        ratios.append(a / b)
        k += 1
    return statistics.median(mine), statistics.median(ref), statistics.median(ratios)


def as_kind(value, kind: str):
    """A float, a point (2-tuple) or a list of floats (or of points) given as ``kind`` (module docstring)."""
    if kind == "float":
        return value
    if kind == "array":  # (a single number as a numpy float64 scalar, as a length read from an array)
        arr = np.array(value, dtype=np.float64)
        return arr[()] if arr.ndim == 0 else arr
    arr = np.array(value, dtype=np.float64)  # np scalar: the numbers as an array would hand them out
    if arr.ndim == 0:
        return arr[()]
    if arr.ndim == 1:
        items = [arr[i] for i in range(len(arr))]
        return tuple(items) if type(value) is tuple else items
    return [tuple(arr[i, j] for j in range(arr.shape[1])) for i in range(arr.shape[0])]


# --- the plain versions on converted inputs, returning what the library returns ------------------------
def floats(v):
    """A plain-Python author's conversion on entry: ``.tolist()`` an array, ``float()`` numpy scalars."""
    if type(v) is np.ndarray:
        return v.tolist()
    if type(v) in (list, tuple):
        return v if _plain(v) else [floats(x) for x in v]
    return v if type(v) is float else float(v)


def _plain(v) -> bool:
    """True for a list or tuple of floats, or of tuples of floats: no conversion needed."""
    first = v[0] if v else 0.0
    return type(first) is float or (type(first) is tuple and type(first[0]) is float)


# The two-bone call is short: its plain versions convert in line, and not at all for Python floats.
def plain_two_bone(kind: str, tuples: bool = False):
    """The plain two-bone call on ``kind`` inputs, knee and end as arrays (or as tuples, ``tuples``)."""
    two, array = plain.two_bone, np.array
    if kind == "float":
        def call(root, target, l1, l2):
            return two(root[0], root[1], target[0], target[1], l1, l2)
    elif kind == "np scalar":
        def call(root, target, l1, l2):
            return two(float(root[0]), float(root[1]), float(target[0]), float(target[1]), float(l1), float(l2))
    else:
        def call(root, target, l1, l2):
            (rx, ry), (tx, ty) = root.tolist(), target.tolist()
            return two(rx, ry, tx, ty, float(l1), float(l2))
    if tuples:
        return call

    def arrays(root, target, l1, l2):
        knee, end = call(root, target, l1, l2)
        return array(knee), array(end)
    return arrays


def plain_iterative(solver, kind: str):
    """The plain CCD, FABRIK or DLS on ``kind`` inputs, the angles as an array."""
    array = np.array
    if kind == "float":
        def solve(root, angles, lengths, target):
            return array(solver(root[0], root[1], angles, lengths, target[0], target[1]))
    else:
        def solve(root, angles, lengths, target):
            (rx, ry), (tx, ty) = floats(root), floats(target)
            return array(solver(rx, ry, floats(angles), floats(lengths), tx, ty))
    return solve


def plain_snake(kind: str):
    """The plain snake on ``kind`` inputs, the nodes as an (n + 1, 2) array."""
    array, snake = np.array, plain.snake
    if kind == "float":
        def follow(points, head, lengths, bend_limits):
            return array(snake(points, head[0], head[1], lengths, bend_limits[0], bend_limits[1]))
    else:
        def follow(points, head, lengths, bend_limits):
            (hx, hy), (lo, hi) = floats(head), floats(bend_limits)
            return array(snake(floats(points), hx, hy, floats(lengths), lo, hi))
    return follow


def make_chains(rng, count):
    lengths = [30.0] * BONES
    chains = []
    for _ in range(count):
        root = (rng.uniform(-200, 200), rng.uniform(-200, 200))
        angles = [rng.uniform(-0.6, 0.6) for _ in range(BONES)]
        r = rng.uniform(40, 0.9 * sum(lengths))
        a = rng.uniform(-math.pi, math.pi)
        chains.append((root, angles, lengths, (root[0] + r * math.cos(a), root[1] + r * math.sin(a))))
    return chains


def make_snakes(rng, count):
    snakes = []
    for _ in range(count):
        pts = [(i * -40.0 + rng.uniform(-5, 5), rng.uniform(-5, 5)) for i in range(BONES + 1)]
        snakes.append((pts, (rng.uniform(0, 8), rng.uniform(-3, 3)), [40.0] * BONES, BEND))
    return snakes


def measure(count: int, seconds: float, only: str = "", clock=time.process_time, seed: int = 7) -> list[dict]:
    """Every solver and kind: ``{"solver", "input", "project_per_s", "plain_per_s", "ratio"}`` rows."""
    rng = random.Random(seed)
    chains = make_chains(rng, count)
    snakes = make_snakes(rng, count)
    two = [(root, target, 120.0, 100.0) for root, _, _, target in chains]
    rows = []

    def row(name, kind, ours, theirs, cases):
        if only not in name:
            return
        cases = [tuple(as_kind(v, kind) for v in case) for case in cases]
        a, b, ratio = rounds(ours, theirs, cases, seconds, clock)
        rows.append({"solver": name, "input": kind, "project_per_s": a, "plain_per_s": b, "ratio": ratio})

    iterative = (("solve_ccd", solve_ccd, plain.ccd), ("solve_fabrik", solve_fabrik, plain.fabrik),
                 ("solve_dls", solve_dls, plain.dls))
    for kind in KINDS:
        row("solve_two_bone", kind, solve_two_bone, plain_two_bone(kind), two)
        row("solve_two_bone vs tuples", kind, solve_two_bone, plain_two_bone(kind, tuples=True), two)
        for name, ours, theirs in iterative:
            row(name, kind, ours, plain_iterative(theirs, kind), chains)
        row("follow_snake", kind, follow_snake, plain_snake(kind), snakes)
    return rows


# A humanoid-like skeleton (pixels, y down, root at the pelvis; an angle of -pi/2 points up): pelvis, spine,
# chest, neck, head, a shoulder and a hip bone each side (so that no limb hangs at +-pi from its parent,
# where a range in [-pi, pi] cannot hold it), upper arms, forearms, thighs and shins. The four targets are
# the hands (forearms' ends) and the ankles (shins' ends).
_UP, _SIDE = -math.pi / 2, math.pi / 2
HUMANOID = (
    # bone          parent  length  rest angle (rad)  limits (rad)
    ("pelvis", -1, 8.0, _UP, (_UP - 0.3, _UP + 0.3)),
    ("spine", 0, 40.0, 0.0, (-0.4, 0.4)),
    ("chest", 1, 35.0, 0.0, (-0.4, 0.4)),
    ("neck", 2, 10.0, 0.0, (-0.5, 0.5)),
    ("head", 3, 20.0, 0.0, (-0.5, 0.5)),
    ("left shoulder", 2, 15.0, -_SIDE, (-_SIDE - 0.3, -_SIDE + 0.3)),
    ("left upper arm", 5, 32.0, -_SIDE + 0.3, (-_SIDE - 1.2, -_SIDE + 1.4)),
    ("left forearm", 6, 30.0, -0.3, (-2.4, 0.0)),
    ("right shoulder", 2, 15.0, _SIDE, (_SIDE - 0.3, _SIDE + 0.3)),
    ("right upper arm", 8, 32.0, _SIDE - 0.3, (_SIDE - 1.4, _SIDE + 1.2)),
    ("right forearm", 9, 30.0, 0.3, (0.0, 2.4)),
    ("left hip", 0, 10.0, -_SIDE, (-_SIDE - 0.2, -_SIDE + 0.2)),
    ("left thigh", 11, 45.0, -_SIDE, (-_SIDE - 1.0, -_SIDE + 0.6)),
    ("left shin", 12, 45.0, 0.1, (0.0, 2.2)),
    ("right hip", 0, 10.0, _SIDE, (_SIDE - 0.2, _SIDE + 0.2)),
    ("right thigh", 14, 45.0, _SIDE, (_SIDE - 0.6, _SIDE + 1.0)),
    ("right shin", 15, 45.0, -0.1, (-2.2, 0.0)),
)
HUMANOID_TARGETS = (7, 10, 13, 16)


def humanoid_targets(rng, count: int) -> list[dict]:
    """``count`` target sets, each the hands' and ankles' places in a random pose near the rest pose (within
    the limits), so every set is reachable."""
    from ikplayground.solvers import skeleton_points

    parents = [b[1] for b in HUMANOID]
    lengths = [b[2] for b in HUMANOID]
    out = []
    for _ in range(count):
        pose = [min(max(b[3] + rng.uniform(-0.5, 0.5), b[4][0]), b[4][1]) for b in HUMANOID]
        ends = skeleton_points(parents, (0.0, 0.0), pose, lengths)
        out.append({b: tuple(ends[b].tolist()) for b in HUMANOID_TARGETS})
    return out


def measure_skeletons(counts, seconds: float, clock=time.process_time, seed: int = 7) -> list[dict]:
    """``solve_skeleton`` on the humanoid, from its rest pose, for ``counts`` target sets (a call each), both
    methods: ``{"method", "skeletons", "per_s", "reached"}`` rows (the median over rounds of ``seconds``)."""
    from ikplayground.solvers import solve_skeleton

    parents = [b[1] for b in HUMANOID]
    lengths = [b[2] for b in HUMANOID]
    rest = [b[3] for b in HUMANOID]
    limits = [b[4] for b in HUMANOID]
    rng = random.Random(seed)
    rows = []
    for count in counts:
        sets = humanoid_targets(rng, count)
        for method in ("fabrik", "dls"):
            rates, reached = [], 0
            deadline = time.perf_counter() + seconds
            while not rates or time.perf_counter() < deadline:
                t0 = clock()
                reached = sum(solve_skeleton(parents, (0.0, 0.0), rest, lengths, t, method=method,
                                             limits=limits).reached for t in sets)
                rates.append(count / (clock() - t0))
            rows.append({"method": method, "skeletons": count, "per_s": statistics.median(rates),
                         "reached": reached / count})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time per measurement (project and plain)")
    parser.add_argument("--chains", type=int, default=200, help="random chains each round cycles through")
    parser.add_argument("--only", default="", help="only the solvers whose name holds this text")
    parser.add_argument("--wall", action="store_true", help="time by the wall clock, not the CPU time")
    parser.add_argument("--json", help="also write the rows to this JSON file")
    parser.add_argument("--skeletons", default="1,100,1000",
                        help="solve_skeleton on this many humanoids (comma-separated counts; empty for none)")
    args = parser.parse_args()
    clock = time.perf_counter if args.wall else time.process_time
    rows = measure(args.chains, args.seconds, args.only, clock)
    print(f"{'solver':<26}{'input':<11}{'project /s':>12}{'plain /s':>12}{'ratio':>7}")
    for r in sorted(rows, key=lambda r: r["solver"]):
        print(f"{r['solver']:<26}{r['input']:<11}{r['project_per_s']:>12,.0f}{r['plain_per_s']:>12,.0f}"
              f"{r['ratio']:>7.2f}")
    counts = [int(c) for c in args.skeletons.split(",") if c.strip()]
    skeletons = measure_skeletons(counts, args.seconds, clock)
    if skeletons:
        print(f"\nsolve_skeleton, a humanoid of {len(HUMANOID)} bones, {len(HUMANOID_TARGETS)} targets, limits, "
              "from the rest pose:")
        print(f"{'method':<8}{'skeletons':>10}{'skeletons /s':>14}{'reached':>9}")
        for r in skeletons:
            print(f"{r['method']:<8}{r['skeletons']:>10,}{r['per_s']:>14,.0f}{r['reached']:>9.0%}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"bones": BONES, "rows": rows, "skeletons": skeletons}, f, indent=1)


if __name__ == "__main__":
    main()
