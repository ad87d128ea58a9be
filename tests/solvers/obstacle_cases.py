"""Shared strategies and checks for the solvers' circle obstacles (docs/design.md, "Obstacles").

Written apart from ``ikplayground.solvers``: a bone's gap to a circle is worked out here by the
closest point on the segment in complex numbers, so the tests compare the solvers against a second
implementation. A solver is any single-chain call of the solver API taking ``obstacles=`` (CCD and
FABRIK here; the Jacobian family's methods join with theirs). Pixels (y down), radians.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import strategies as st

from .solver_cases import reference_fk

CLEAR = 1e-9  # px: touching counts as clear, to rounding (the solvers' CLEAR_SLACK)


def reference_gaps(points, circles) -> np.ndarray:
    """(n, k): how far each bone of ``points`` (n + 1, 2) keeps outside each circle ``(x, y, r)``, px."""
    z = np.asarray(points, dtype=float) @ np.array([1.0, 1j])
    out = np.empty((len(z) - 1, len(circles)))
    for j in range(len(z) - 1):
        a, b = z[j], z[j + 1]
        for k, (cx, cy, r) in enumerate(np.asarray(circles, dtype=float)):
            c = complex(cx, cy)
            t = ((c - a) / (b - a)).real if b != a else 0.0
            out[j, k] = abs(c - (a + min(max(t, 0.0), 1.0) * (b - a))) - r
    return out


def kept_clear_failures(root, start, end, lengths, circles) -> list:
    """The pairs (bone, circle) clear at the pose ``start`` (rad) that ``end`` has inside, as strings."""
    before = reference_gaps(reference_fk(root, start, lengths), circles)
    after = reference_gaps(reference_fk(root, end, lengths), circles)
    bad = np.argwhere((before >= 0.0) & (after < -CLEAR))
    return [f"bone {j} in circle {k}: gap {before[j, k]:.4g} -> {after[j, k]:.4g} px" for j, k in bad]


@st.composite
def chains_among_circles(draw, max_bones: int = 8, limited=None):
    """A chain, a target, 1..4 circles about it and a solve's options: a dict of ``solve_*`` keyword arguments
    plus ``root``, ``angles``, ``lengths``, ``target`` (the start inside any limits, so no clamp moves it).

    Half the circles are placed beside the start pose's bones (touching or not), the rest anywhere near;
    ``limited`` True or False forces limits on or off (None: either).
    """
    n = draw(st.integers(1, max_bones))
    lengths = np.array(draw(st.lists(st.floats(10.0, 80.0), min_size=n, max_size=n)))
    root = np.array(draw(st.tuples(st.floats(-300, 300), st.floats(-300, 300))))
    with_limits = draw(st.booleans()) if limited is None else limited
    if with_limits:
        lo = np.array(draw(st.lists(st.floats(-math.pi, 0.0), min_size=n, max_size=n)))
        width = np.array(draw(st.lists(st.floats(0.0, 2.0 * math.pi), min_size=n, max_size=n)))
        limits = np.stack([lo, np.minimum(lo + width, math.pi)], axis=1)
        share = np.array(draw(st.lists(st.floats(0.01, 0.99), min_size=n, max_size=n)))
        angles = limits[:, 0] + share * (limits[:, 1] - limits[:, 0])
    else:
        limits = None
        angles = np.array(draw(st.lists(st.floats(-3.1, 3.1), min_size=n, max_size=n)))
    pts = reference_fk(root, angles, lengths)
    reach = float(lengths.sum())
    circles = []
    for _ in range(draw(st.integers(1, 4))):
        r = draw(st.floats(3.0, 0.4 * reach + 3.0))
        if draw(st.booleans()):  # beside a bone of the start: its gap from -r/2 (inside) to 0.3 of the reach
            j = draw(st.integers(0, n - 1))
            t = draw(st.floats(0.0, 1.0))
            a, b = pts[j], pts[j + 1]
            normal = np.array([-(b - a)[1], (b - a)[0]]) / max(float(np.hypot(*(b - a))), 1e-12)
            off = r + draw(st.floats(-0.5 * r, 0.3 * reach)) * draw(st.sampled_from([-1.0, 1.0]))
            centre = a + t * (b - a) + off * normal
        else:
            centre = root + np.array(draw(st.tuples(st.floats(-1.2, 1.2), st.floats(-1.2, 1.2)))) * reach
        circles.append((float(centre[0]), float(centre[1]), r))
    target = root + np.array(draw(st.tuples(st.floats(-1.3, 1.3), st.floats(-1.3, 1.3)))) * reach
    out = dict(root=root, angles=angles, lengths=lengths, target=target, limits=limits,
               obstacles=np.array(circles), iterations=draw(st.integers(1, 60)),
               tolerance=draw(st.sampled_from([0.0, 0.5, 2.0])))
    if draw(st.booleans()):
        out["pole"] = root + np.array(draw(st.tuples(st.floats(-2, 2), st.floats(-2, 2)))) * reach
    return out
