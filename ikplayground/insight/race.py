"""The solver race: one chain of each IK solver, alike, in lanes side by side, chasing one shared target offset.

A rig races itself: two copies of it, solved by FABRIK and by damped least squares, its first target the shared
one, its other targets held where they are from its root.

The offset stands still (a dragged target sets it for all) or runs a figure-eight (a Lissajous curve
x = A sin(w t), y = B sin(2 w t)); :meth:`Race.table` compares each chain's :class:`ChainMetrics`. The App shows
the race's scene in place of the user's and calls :meth:`Race.drive` before each step, :meth:`Race.record` after.
The solvers' sources: docs/sources.md.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ikplayground.insight.metrics import ChainMetrics
from ikplayground.scene import (DEFAULT_ITERATIONS, DEFAULT_RATE_DEG, DEFAULT_TOLERANCE, PALETTE_SIZE, SOLVER_KINDS,
                                RIG_METHODS, SOLVER_LABELS, SOLVER_TABLE, STEP, Chain, Scene, default_limits,
                                make_ik_chain, make_rig)

RIG_RACERS = {m: f"{SOLVER_LABELS[m]} rig" for m in RIG_METHODS}  # a rig's racers, as the race table names them

DEFAULT_BONES = 7  # the default template: scene.default_scene's tentacles
DEFAULT_LENGTH = 36.0  # px
DEFAULT_JOINT_DEG = 45.0  # +- at joints 1..n-1
ROOT_MARGIN = 40.0  # px: the roots stand this far above the stage's bottom edge
START_SHARE = 0.6  # the first target: this share of the reach from the root ...
START_ANGLE = math.radians(60.0)  # ... this far right of straight up
FIGURE_PERIOD = 6.0  # s: one loop of the figure-eight
FIGURE_CENTRE = 0.55  # the figure-eight's centre: this share of the reach straight above the root
FIGURE_SIZE = (0.4, 0.2)  # its half-width and half-height, shares of the reach (farthest point: 0.85 reach)
LANE_MARGIN = 0.6  # the outer lanes' roots stand this share of the reach in from the stage's sides
SAME_PX = 1e-6  # px: a target this close to root + offset is where the race put it
WINDOW_SECONDS = 5.0  # the metrics' window


class RaceRow(NamedTuple):
    """One chain's line of the race table."""

    solver: str
    label: str  # SOLVER_LABELS
    error_px: float  # the latest error, px
    iterations: float  # mean iterations used over the window
    solve_us: float  # mean solver time over the window, microseconds
    jitter_deg: float  # mean over the window of the mean joint turn per step, degrees
    reached_share: float  # 0..1: the share of the window's steps on the target


def race_solvers(bones: int) -> tuple[str, ...]:
    """Every iterative IK solver of the registry, and two-bone for two bones."""
    return tuple(s.name for s in SOLVER_TABLE if s.iterative or (s.name == "two-bone" and bones == 2))


def lane_xs(width: float, lanes: int, reach: float) -> np.ndarray:
    """The lanes' roots' x (px): evenly spread over the stage's ``width`` less a margin each side of
    ``LANE_MARGIN`` of the ``reach`` (px; at most a quarter of the width), so that the shared target, as far to the
    side as the start or the figure-eight put it, stays on the stage."""
    margin = min(LANE_MARGIN * reach, width / 4.0)
    return margin + (np.arange(lanes) + 0.5) * (width - 2.0 * margin) / max(lanes, 1)


def figure_eight(t: float, centre, size) -> np.ndarray:
    """The figure-eight's point (2,) px at ``t`` s: ``centre + (A sin(w t), B sin(2 w t))``, ``size`` ``(A, B)`` px,
    ``w = 2 pi / FIGURE_PERIOD``."""
    w = 2.0 * math.pi / FIGURE_PERIOD
    c = np.asarray(centre, dtype=float)
    return np.array((c[0] + size[0] * math.sin(w * t), c[1] + size[1] * math.sin(2.0 * w * t)))


def racer(chain: Chain) -> str:
    """A racer's solver: its own, or a rig's method (``RIG_METHODS``: "fabrik" or "dls")."""
    return RIG_METHODS[int(chain.fields["method"][0])] if chain.is_rig else chain.solver


def racer_label(chain: Chain) -> str:
    """How the race table and the name tags call a racer: its solver's label, or a rig's method's."""
    return RIG_RACERS[racer(chain)] if chain.is_rig else SOLVER_LABELS[chain.solver]


def shared_target(chain: Chain) -> np.ndarray:
    """The racer's target the race moves (a view, px): an IK chain's, a rig's first."""
    return chain.fields["targets"][0] if chain.is_rig else chain.fields["target"]


def rig_racers(template: Chain, stage) -> list[Chain]:
    """Two copies of rig ``template``, one a method, in lanes across ``stage``, at the template's height, their
    targets where the template's are from its root."""
    f = template.fields
    w = float(stage[0])
    out = []
    for i, method in enumerate(RIG_RACERS):
        root = np.array(((i + 0.5) * w / len(RIG_RACERS), float(f["root"][1])))
        out.append(make_rig(root, f["parents"].astype(int), f["angles"].copy(), f["lengths"].copy(),
                            f["target_bones"].astype(int), f["targets"] - f["root"] + root, limits=f["limits"].copy(),
                            headings=f["headings"].copy(), weights=f["weights"].copy(), mix=f["mix"].copy(),
                            names=template.bone_names, method=method, rate_limit=template.rate_limit,
                            iterations=template.iterations, tolerance=template.tolerance, skin=template.skin))
    return out


def _template_parts(template: Chain | None) -> dict:
    """The lengths, limits, iterations, tolerance and rate limit to copy (defaults without an IK template)."""
    if template is None or not template.is_ik:
        return {"lengths": np.full(DEFAULT_BONES, DEFAULT_LENGTH),
                "limits": default_limits("ccd", DEFAULT_BONES, DEFAULT_JOINT_DEG),
                "iterations": DEFAULT_ITERATIONS, "tolerance": DEFAULT_TOLERANCE, "rate_limit": DEFAULT_RATE_DEG}
    return {"lengths": template.fields["lengths"].copy(), "limits": template.fields["limits"].copy(),
            "iterations": template.iterations, "tolerance": template.tolerance, "rate_limit": template.rate_limit}


def _foot_of(chain: Chain) -> np.ndarray:
    """Where a racer's name tag points (2,) px: its root; under a rig (its root is its hips), its lowest point."""
    root = chain.fields["root"].copy()
    if chain.is_rig:
        root[1] = max(float(chain.fields["points"][:, 1].max()), root[1])
    return root


class Race:
    """A scene (``scene``) of one chain per IK solver (``solvers``) in lanes across ``stage`` (w, h) px.

    Every chain copies ``template``'s bones, limits, iterations, tolerance and rate limit (None or a snake:
    ``scene.default_scene``'s tentacles); ``reach`` is its reach in px, ``offset`` (2,) the shared target, px from
    each root, and ``moving`` whether it runs the figure-eight.
    """

    def __init__(self, stage, template: Chain | None = None):
        if template is not None and template.is_rig and len(template.fields["targets"]):
            self._rig_race(stage, template)
            return
        parts = _template_parts(template)
        lengths, limits = parts["lengths"], parts["limits"]
        n = lengths.shape[0]
        self.scene = Scene(stage)
        self.solvers = race_solvers(n)
        self.reach = float(lengths.sum())
        self.moving = False
        self._t = 0.0  # s along the figure-eight
        self.offset = self.reach * START_SHARE * np.array((math.sin(START_ANGLE), -math.cos(START_ANGLE)))
        w, h = self.scene.stage
        y = max(h - ROOT_MARGIN, 0.0)
        up = np.zeros(n)
        up[0] = -math.pi / 2
        chains = []
        for solver, x in zip(self.solvers, lane_xs(w, len(self.solvers), self.reach)):
            root = np.array((x, y))
            chains.append(make_ik_chain(solver, root, up, lengths, self.scene.clamp(root + self.offset),
                                              limits=limits.copy(), rate_limit=parts["rate_limit"],
                                              iterations=parts["iterations"], tolerance=parts["tolerance"]))
        self.scene.add_in_turn(chains)
        for c in chains:  # each solver races in its own colour
            c.palette_index = SOLVER_KINDS[c.solver].colour % PALETTE_SIZE
        self.scene.select(chains[0])
        self._metrics: dict[Chain, ChainMetrics] = {}
        self._placed: dict[Chain, np.ndarray] = {}  # where the race last put each target
        self._place(chains)

    def _rig_race(self, stage, template: Chain) -> None:
        """The race of rig ``template`` against itself: one copy a method (``RIG_RACERS``)."""
        self.scene = Scene(stage)
        chains = rig_racers(template, self.scene.stage)
        self.solvers = tuple(RIG_RACERS)
        f = template.fields
        self.reach = float(np.hypot(*(f["targets"][0] - f["root"]))) / START_SHARE  # the figure-eight's scale
        self.moving = False
        self._t = 0.0
        self.offset = f["targets"][0] - f["root"]
        self.scene.add_in_turn(chains)
        for c in chains:
            c.palette_index = SOLVER_KINDS[racer(c)].colour % PALETTE_SIZE
        self.scene.select(chains[0])
        self._metrics = {}
        self._placed = {}
        self._place(chains)

    @property
    def chains(self) -> list[Chain]:
        """The race's chains (IK chains, or rigs), in the scene's order."""
        return [c for c in self.scene.chains if c.has_targets]

    def set_moving(self, on: bool) -> None:
        """Start (True) or stop the figure-eight; a stopped target stays where it is."""
        self.moving = bool(on)

    def set_offset(self, offset) -> None:
        """Put the shared target at ``offset`` (2,) px from every root, at once."""
        self.offset = np.array(offset, dtype=float)
        self._place(self.chains)

    def _place(self, chains: list[Chain]) -> None:
        """Each chain's target at its root + the offset, kept on the stage; remember where."""
        for c in chains:
            self.scene.move_target(c, c.fields["root"] + self.offset)  # (a rig's "target" is its first)
        self._placed = {c: shared_target(c).copy() for c in chains}

    def _dragged(self, chains: list[Chain]) -> Chain | None:
        """The chain whose target the user moved (the selected one first), or None."""
        def moved(c: Chain) -> bool:
            target, placed = shared_target(c), self._placed.get(c)
            return (placed is not None and np.abs(target - placed).max() > SAME_PX
                    and np.abs(target - self.scene.clamp(c.fields["root"] + self.offset)).max() > SAME_PX)

        candidates = [c for c in chains if moved(c)]
        if not candidates:
            return None
        return self.scene.selected if self.scene.selected in candidates else candidates[0]

    def drive(self) -> None:
        """Place every lane's target for the coming step (call before each scene step): along the figure-eight,
        or at the offset a dragged target set; roots the user moved take their targets along."""
        chains = self.chains
        if self.moving:
            self._t += STEP
            centre = (0.0, -FIGURE_CENTRE * self.reach)
            size = (FIGURE_SIZE[0] * self.reach, FIGURE_SIZE[1] * self.reach)
            self.offset = figure_eight(self._t, centre, size)
        else:
            dragged = self._dragged(chains)
            if dragged is not None:
                self.offset = shared_target(dragged) - dragged.fields["root"]
        self._place(chains)

    def record(self) -> None:
        """Record every race chain's step (call after each scene step)."""
        chains = self.chains
        kept = {c: self._metrics.get(c) or ChainMetrics(WINDOW_SECONDS, STEP) for c in chains}
        for c, m in kept.items():
            m.record(c)
        self._metrics = kept

    def metrics(self, chain: Chain) -> ChainMetrics | None:
        """The metrics kept for ``chain`` (None for a chain not recorded yet)."""
        return self._metrics.get(chain)

    def name_tags(self) -> list[tuple[Chain, str, np.ndarray]]:
        """Each race chain's name tag: (chain, its name as the race table has it, where the tag points: its root,
        a rig's lowest point under its root (2,) px), in the scene's order."""
        return [(c, racer_label(c), _foot_of(c)) for c in self.chains]

    def table(self) -> list[RaceRow]:
        """One row per race chain, in the scene's order."""
        rows = []
        for c in self.chains:
            m = self._metrics.get(c)
            latest = None if m is None else m.latest()
            if m is None or latest is None:  # (latest is None whenever m is)
                rows.append(RaceRow(racer(c), racer_label(c), c.error, 0.0, 0.0, 0.0, 0.0))
                continue
            rows.append(RaceRow(racer(c), racer_label(c), latest.error_px, m.mean_iterations(),
                                m.mean_solve_us(), m.jitter_deg(), m.reached_share()))
        return rows
