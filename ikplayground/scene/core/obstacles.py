"""The scene's circle obstacles: one float64 ``(k, 3)`` array of rows ``(x, y, r)`` px (y down), edited whole.

An obstacle is a circle the chains are to keep their bones out of (issue 27; how far a bone keeps from a centre
is :mod:`ikplayground.solvers.obstacles`'s geometry, after Ericson, *Real-Time Collision Detection*, 2005,
sec. 5.1.2). :class:`ObstacleEdits` gives :class:`~.scene.Scene` its obstacle edits: add (at a point, else at the
spot of a grid farthest from the chains and the other circles, as :func:`.stage.free_spot` finds one for a
chain), move, resize, remove, put back a whole array (an undo, a load), and keep the centres on the stage as it
changes size (a shrink pushes them in; as it grows again they go back, unless edited meanwhile). An edit never
writes into the array: it puts a new one, read-only, in its place, so an undo entry may keep the one it saw.
Centres and radii are kept to 0.001 px, as the scene file writes them, so a saved file loads them back exactly.
"""

from __future__ import annotations

import math

import numpy as np

from ikplayground.scene.core.constants import MAX_COORD
from ikplayground.solvers import obstacle_rows

MIN_RADIUS = 8.0  # px: an obstacle's radius is kept in [MIN_RADIUS, MAX_RADIUS]
MAX_RADIUS = 300.0
DEFAULT_RADIUS = 40.0  # px: a new obstacle's
MAX_OBSTACLES = 64  # a scene holds at most this many (a file too)
DIGITS = 3  # decimals kept of a centre and a radius (px): the file's
SPOT_CHAINS = 256  # the newest chains looked at when looking for a free spot
ROOM = 1.5  # radii: a free spot keeps a new circle this far from everything else, if it can


def frozen(rows: np.ndarray) -> np.ndarray:
    """``rows`` (k, 3) rounded to ``DIGITS`` decimals, as a new read-only float64 array."""
    out = np.round(np.asarray(rows, dtype=float).reshape(-1, 3), DIGITS)
    out.flags.writeable = False
    return out


NO_OBSTACLES = frozen(np.zeros((0, 3)))


def checked_obstacles(rows, name: str = "obstacles") -> np.ndarray:
    """``rows`` as a float64 ``(k, 3)`` array a scene may hold (None: none).

    Raises
    ------
    ValueError
        Naming ``name`` and the row: not rows of three real numbers, not finite, a radius <= 0
        (:func:`~ikplayground.solvers.obstacle_rows`), more than ``MAX_OBSTACLES`` rows, a centre past
        ``+-MAX_COORD`` px or a radius outside ``[MIN_RADIUS, MAX_RADIUS]`` px.
    """
    rows = obstacle_rows(rows, name)
    if len(rows) > MAX_OBSTACLES:
        raise ValueError(f"{name}: a scene holds at most {MAX_OBSTACLES} obstacles (got {len(rows)})")
    far = np.flatnonzero(np.any(np.abs(rows[:, :2]) > MAX_COORD, axis=1))
    if far.size:
        raise ValueError(f"{name}[{far[0]}]: the centre must lie within +-{MAX_COORD:,.0f} px")
    odd = np.flatnonzero((rows[:, 2] < MIN_RADIUS) | (rows[:, 2] > MAX_RADIUS))
    if odd.size:
        raise ValueError(f"{name}[{odd[0]}]: the radius must be {MIN_RADIUS:g} to {MAX_RADIUS:g} px, "
                         f"got {rows[odd[0], 2]:g}")
    return rows


def radius_kept(radius) -> float:
    """``radius`` px clamped into ``[MIN_RADIUS, MAX_RADIUS]`` (NaN: the default)."""
    r = float(radius)
    return DEFAULT_RADIUS if math.isnan(r) else min(max(r, MIN_RADIUS), MAX_RADIUS)


def on_stage(points, stage: tuple[float, float]) -> np.ndarray:
    """``points`` (..., 2) px rounded to ``DIGITS`` decimals and pulled onto the stage (never past its edge by the
    rounding)."""
    top = np.floor(np.array(stage, dtype=float) * 10**DIGITS) / 10**DIGITS
    return np.clip(np.round(np.asarray(points, dtype=float), DIGITS), 0.0, top)


def clear_spot(chains, obstacles: np.ndarray, stage: tuple[float, float], radius: float,
               margin: float = 60.0) -> np.ndarray:
    """A centre (2,) px for a circle of ``radius`` px: of a grid ``margin`` px inside the stage, the point nearest
    the stage's middle whose circle keeps ``ROOM`` radii (or, where no point does, the most it can) from the joints
    and targets of ``chains`` (the newest ``SPOT_CHAINS``) and from the other ``obstacles`` (k, 3)."""
    w, h = stage
    xs = np.linspace(min(margin, w / 2), max(w - margin, w / 2), 12)
    ys = np.linspace(min(margin, h / 2), max(h - margin, h / 2), 8)
    grid = np.stack(np.meshgrid(xs, ys), axis=-1).reshape(-1, 2)
    points = [c.fields["points"].reshape(-1, 2) for c in chains[-SPOT_CHAINS:]]
    points += [c.fields["target"].reshape(-1, 2) for c in chains[-SPOT_CHAINS:] if c.is_ik]
    room = np.full(len(grid), np.inf)
    if points:
        pts = np.concatenate(points)
        room = np.hypot(*(grid[:, None, :] - pts[None, :, :]).transpose(2, 0, 1)).min(axis=1) - radius
    if len(obstacles):
        gaps = np.hypot(*(grid[:, None, :] - obstacles[None, :, :2]).transpose(2, 0, 1)) - obstacles[:, 2] - radius
        room = np.minimum(room, gaps.min(axis=1))
    room = np.minimum(room, ROOM * radius)  # room enough: then the nearer the middle, the better
    middle = np.hypot(grid[:, 0] - w / 2, grid[:, 1] - h / 2)
    return grid[int(np.lexsort((middle, -room))[0])]


class ObstacleEdits:
    """The obstacle edits of :class:`~.scene.Scene` (whose ``stage`` and ``chains`` they read).

    ``obstacles`` is the scene's read-only float64 ``(k, 3)`` array of rows ``(x, y, r)`` px, drawn and picked
    in order (the last on top); every edit replaces it. Edits name an obstacle by its row.
    """

    obstacles: np.ndarray = NO_OBSTACLES
    _obstacle_push: tuple[np.ndarray, np.ndarray] | None = None  # (where they were, where a shrink left them)
    stage: tuple[float, float]
    chains: list

    def _put_obstacles(self, rows: np.ndarray) -> None:
        self.obstacles = frozen(rows)
        self._obstacle_push = None  # an edit: where they are now is where they belong

    def set_obstacles(self, rows) -> None:
        """Put ``rows`` (k, 3) px in place of every obstacle (None: none), as they are (a load, an undo).

        ValueError (:func:`checked_obstacles`), and nothing changed, for rows a scene cannot hold.
        """
        self._put_obstacles(checked_obstacles(rows))

    def add_obstacle(self, at=None, radius: float = DEFAULT_RADIUS) -> int:
        """Add an obstacle of ``radius`` px (clamped) centred at ``at`` (2,) px pulled onto the stage, or with
        ``at=None`` at a free spot (:func:`clear_spot`); its row. ValueError, nothing added, when the scene holds
        ``MAX_OBSTACLES``."""
        if len(self.obstacles) >= MAX_OBSTACLES:
            raise ValueError(f"the scene holds at most {MAX_OBSTACLES} obstacles")
        r = radius_kept(radius)
        centre = clear_spot(self.chains, self.obstacles, self.stage, r) if at is None else at
        self._put_obstacles(np.vstack([self.obstacles, [[*on_stage(centre, self.stage), r]]]))
        return len(self.obstacles) - 1

    def move_obstacle(self, index: int, centre) -> None:
        """Put obstacle ``index``'s centre at ``centre`` (2,) px, pulled onto the stage."""
        rows = self.obstacles.copy()
        rows[index, :2] = on_stage(centre, self.stage)
        self._put_obstacles(rows)

    def resize_obstacle(self, index: int, radius: float) -> None:
        """Give obstacle ``index`` the radius ``radius`` px, clamped into ``[MIN_RADIUS, MAX_RADIUS]``."""
        rows = self.obstacles.copy()
        rows[index, 2] = radius_kept(radius)
        self._put_obstacles(rows)

    def remove_obstacle(self, index: int) -> np.ndarray:
        """Remove obstacle ``index``; its row (3,) px."""
        row = self.obstacles[index].copy()
        self._put_obstacles(np.delete(self.obstacles, index, axis=0))
        return row

    def obstacle_at(self, pos, rim: float) -> tuple[int, str] | None:
        """The topmost obstacle at ``pos`` (2,) px and where: ``"rim"`` within ``rim`` px of its edge (to resize
        it), ``"inside"`` within it (to move it); None when there is none."""
        rows = self.obstacles
        if not len(rows):
            return None
        d = np.hypot(rows[:, 0] - float(pos[0]), rows[:, 1] - float(pos[1]))
        for i in range(len(rows) - 1, -1, -1):
            if abs(d[i] - rows[i, 2]) <= rim:
                return i, "rim"
            if d[i] < rows[i, 2]:
                return i, "inside"
        return None

    def fit_obstacles(self) -> None:
        """Pull every centre onto the stage; ones a smaller stage pushed in go back toward where they were, unless
        edited since."""
        push = self._obstacle_push
        home = push[0] if push is not None and np.array_equal(push[1], self.obstacles) else self.obstacles
        fitted = home.copy()
        fitted[:, :2] = on_stage(home[:, :2], self.stage)
        self.obstacles = frozen(fitted)
        self._obstacle_push = None if np.array_equal(fitted, home) else (home, self.obstacles)
