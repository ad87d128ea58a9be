"""The ground the walkers walk on: a polyline across the stage with hills and steps.

Points sorted by x (px, y down); the height at any x is linearly interpolated,
flat beyond the ends. :func:`generated` makes the default one from a seed; a
scene file may hold one (docs/scene-format.md, ``"terrain"``).
"""

from __future__ import annotations

import math

import numpy as np

MAX_TERRAIN_POINTS = 4096  # a scene file's terrain holds at most this many points
STEP_RISE = 0.035  # a step's rise, as a share of the stage's height


class Terrain:
    """The ground: a polyline ``points`` (m, 2) px, m >= 2, sorted by x here (stable); ``generated_for``:
    the stage size a generated terrain was made for (None: a file's, kept as the stage changes).
    """

    def __init__(self, points, generated_for=None):
        pts = np.asarray(points, dtype=float).reshape(-1, 2)
        if len(pts) < 2:
            raise ValueError(f"terrain: needs at least 2 points (got {len(pts)})")
        if not np.isfinite(pts).all():
            raise ValueError("terrain: points must be finite numbers")
        self.points = pts[np.argsort(pts[:, 0], kind="stable")]
        self.generated_for = generated_for
        self._x = np.ascontiguousarray(self.points[:, 0])
        self._y = np.ascontiguousarray(self.points[:, 1])

    def height_at(self, x) -> np.ndarray:
        """The ground's y (px, y down) at ``x`` (any shape): the polyline's, flat past its ends."""
        return np.interp(x, self._x, self._y)

    def __eq__(self, other) -> bool:
        return isinstance(other, Terrain) and np.array_equal(self.points, other.points)

    __hash__ = None  # type: ignore[assignment]  # unhashable: __eq__ compares the points


def generated(stage=(980.0, 720.0), seed: int = 7) -> Terrain:
    """The default terrain for a stage ``(width, height)`` from ``seed``: about 80 % down, hills of
    ~7 % of the height, four steps of ``STEP_RISE``.
    """
    w, h = float(stage[0]), float(stage[1])
    rng = np.random.default_rng(seed)
    count = max(16, min(int(w / 12), MAX_TERRAIN_POINTS // 2))
    x = np.linspace(0.0, w, count)
    u = x / max(w, 1.0)
    phase = rng.uniform(0, 2 * math.pi, 3)
    hills = (0.045 * np.sin(2 * math.pi * 1.0 * u + phase[0]) + 0.025 * np.sin(2 * math.pi * 2.3 * u + phase[1])
             + 0.010 * np.sin(2 * math.pi * 4.1 * u + phase[2]))
    y = h * (0.80 + hills)
    # steps: at each, the ground beyond moves by a rise (up or down), the offsets summing to ~0
    places = np.sort(rng.uniform(0.15, 0.85, 4)) * w
    signs = np.array((-1.0, 1.0, -1.0, 1.0))[rng.permutation(4)]
    offset = np.zeros_like(x)
    for p, s in zip(places, signs):
        offset += np.where(x > p + 1.0, s * STEP_RISE * h, 0.0)
    edges_x = np.concatenate([places - 1.0, places + 1.0])
    edges_off = np.array([np.sum(signs[places < e - 0.5]) * STEP_RISE * h for e in edges_x])
    edges_y = h * (0.80 + np.interp(edges_x / max(w, 1.0), u, hills)) + edges_off
    keep = np.all(np.abs(x[:, None] - places[None, :]) > 1.5, axis=1)
    pts = np.concatenate([np.stack([x[keep], y[keep] + offset[keep]], axis=1),
                          np.stack([edges_x, edges_y], axis=1)])
    pts[:, 1] = np.clip(pts[:, 1], h * 0.55, h * 0.97)
    return Terrain(pts, generated_for=(w, h))
