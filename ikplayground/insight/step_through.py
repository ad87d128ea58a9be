"""Step through one CCD or FABRIK solve of a scene chain: the session behind the App's ``.``, ``,`` and ``/``.

Records come from :func:`~ikplayground.solvers.ccd_steps` / :func:`~ikplayground.solvers.fabrik_steps`
(one joint turn of CCD, the pygame CCD tutorial; one half-pass of FABRIK, Aristidou & Lasenby 2011), which end
where ``solve_ccd`` / ``solve_fabrik`` end; each record with angles is shown on the chain. Pixels, radians.
"""

from __future__ import annotations

import math
from collections import deque

import numpy as np

from ikplayground.insight.step_overlay import ccd_overlay, fabrik_overlay, ghost_overlay
from ikplayground.scene import SOLVER_LABELS, STATUSES, clamped_joints, is_reached, refresh_ik_points
from ikplayground.solvers import ccd_steps, chain_points, fabrik_steps

GHOSTS = 6  # earlier records whose chains the overlay shows, fading
STEPPED = {"ccd": ccd_steps, "fabrik": fabrik_steps}
UNITS = {"ccd": ("sweep", "sweeps"), "fabrik": ("pass", "passes")}
DONE = {"reached": "reached in {}", "stalled": "stalled after {}", "out of reach": "out of reach, stopped after {}",
        "iterations": "out of iterations after {}"}
FABRIK_TEXTS = {
    "forward": "forward (tip first)",
    "backward": "backward (root first)",
    "straight": "straight toward the target out of reach",
    "restart": "stuck, so it starts again from a pose drawn inside the limits",
    "best": "back to the best pose a restart left",
}


class StepThrough:
    """One solve of a CCD or FABRIK scene ``chain`` from its shown angles (its settings as they are, no pole; clear
    of the scene's circle ``obstacles`` (k, 3) px as the step's solve keeps clear of them), taken a record at a
    time; ValueError for another solver. ``records`` counts those taken, ``current`` is the last (a ``CCDStep`` or
    ``FabrikStep``), ``solution`` exactly ``solve_ccd`` / ``solve_fabrik``'s once :attr:`done`."""

    def __init__(self, chain, obstacles=None):
        if chain.solver not in STEPPED:
            raise ValueError(f"solver: only CCD and FABRIK chains can be stepped through, not {chain.solver!r}")
        f = chain.fields
        self.chain = chain
        self.solver = chain.solver
        self.root, self.target = f["root"].copy(), f["target"].copy()
        self.lengths, self.limits = f["lengths"].copy(), f["limits"].copy()
        self.iterations, self.tolerance = chain.iterations, chain.tolerance
        self.obstacles = None if obstacles is None or not len(obstacles) else np.array(obstacles, dtype=float)
        self.start = f["angles"].copy()
        limits = self.limits if clamped_joints(self.limits).any() else None
        self._steps = STEPPED[self.solver](self.root, self.start, self.lengths, self.target,
                                           iterations=self.iterations, tolerance=self.tolerance, limits=limits,
                                           obstacles=self.obstacles)
        self.records = 0
        self.current = None
        self.solution = None
        self._earlier = deque(maxlen=GHOSTS)  # the records before current, newest first
        self._next = None
        self._fetch()  # look one record ahead, so done is known as soon as the last record is taken

    @property
    def done(self) -> bool:
        """True once every record has been taken."""
        return self.solution is not None

    def matches(self, chain, obstacles=None) -> bool:
        """Whether ``chain`` (among ``obstacles``) still poses this session's problem (the same chain, solver,
        settings and circles)."""
        if chain is not self.chain or chain.solver != self.solver:
            return False
        if bool(obstacles is not None and len(obstacles)) != (self.obstacles is not None) or (
                self.obstacles is not None and not np.array_equal(obstacles, self.obstacles)):
            return False
        f = chain.fields
        return (np.array_equal(f["root"], self.root) and np.array_equal(f["target"], self.target)
                and np.array_equal(f["lengths"], self.lengths) and np.array_equal(f["limits"], self.limits)
                and chain.iterations == self.iterations and chain.tolerance == self.tolerance)

    def step(self):
        """Take one record and show it on the chain; None (and nothing changes) once done."""
        record = self._take()
        if record is not None:
            self._show(record)
        return record

    def sweep(self) -> list:
        """Take records to the end of the current CCD sweep or FABRIK pass (or of the solve); returns them."""
        first = self._take()
        if first is None:
            return []
        taken = [first]
        while self._next is not None and _number(self._next) == _number(first):
            taken.append(self._take())
        self._show(taken[-1])
        return taken

    def finish(self) -> int:
        """Take every record left (the chain shows the solve's answer); returns how many."""
        count = 0
        while self._next is not None:
            last = self._take()
            count += 1
        if count:
            self._show(last)
        return count

    def _fetch(self) -> None:
        try:
            self._next = next(self._steps)
        except StopIteration as stop:
            self._next = None
            self.solution = stop.value

    def _take(self):
        record = self._next
        if record is None:
            return None
        if self.current is not None:
            self._earlier.appendleft(self.current)
        self.current = record
        self.records += 1
        self._fetch()
        return record

    def _show(self, record) -> None:
        """Pose the chain at ``record``'s angles (the solution once done) with its joints, error and status."""
        if self.done:
            angles = self.solution.angles
        elif record.angles is not None:
            angles = record.angles
        else:
            return
        f = self.chain.fields  # looked up now: a regroup gives the chain new views
        f["angles"][:] = angles
        f["goal"][:] = angles
        refresh_ik_points(f)
        status = self._status(float(f["error"][0]))
        f["status"][0] = STATUSES.index(status)
        f["reached"][0] = status == "reached"
        f["used"][0] = self.solution.iterations if self.done else _number(record)  # the live numbers' iterations

    def _status(self, error: float) -> str:
        """The chain's status at an error of ``error`` px."""
        if is_reached(error, self.tolerance):
            return "reached"
        if math.dist(self.root, self.target) > float(self.lengths.sum()) + self.tolerance:
            return "out of reach"
        return "stalled" if self.done and self.solution.status == "stalled" else "iterating"

    def describe(self) -> str:
        """The status line's text: what the last record did, or how the solve ended."""
        name = SOLVER_LABELS[self.solver]
        one, many = UNITS[self.solver]
        if self.done:
            s = self.solution
            if s.status == "reached" and s.iterations == 0:  # nothing to step: the chain is on its target
                return f"{name} reached: drag the target, then press . to step"
            count = f"{s.iterations} {one if s.iterations == 1 else many}"
            return f"{name} done: {DONE[s.status].format(count)}, error {s.error:.2f} px"
        r = self.current
        if r is None:
            what = ("one joint", "a sweep") if self.solver == "ccd" else ("one half-pass", "a pass")
            return f"{name} ready: press . for {what[0]}, , for {what[1]}, / for the rest"
        if self.solver == "ccd":
            n = len(self.lengths)
            if r.event != "turn":
                return f"CCD sweep {r.sweep}, {FABRIK_TEXTS[r.event]}"
            return f"CCD sweep {r.sweep}, joint {r.joint + 1} of {n}: turned {math.degrees(r.turn):.1f}°"
        return f"FABRIK pass {r.iteration}, {FABRIK_TEXTS[r.direction]}"

    def overlay(self) -> list:
        """Primitives of the last record and, fading, up to ``GHOSTS`` records before it."""
        r = self.current
        if r is None:
            return []
        out = ghost_overlay(self._points(e) for e in self._earlier)
        if self.solver == "ccd":
            return out + ccd_overlay(r, self.target)
        before = self._points(self._earlier[0]) if self._earlier else self._points(None)
        return out + fabrik_overlay(r, before)

    def _points(self, record) -> np.ndarray:
        """The joints (n + 1, 2) px at ``record`` (None: the start)."""
        if record is not None and self.solver == "fabrik":
            return record.points
        angles = self.start if record is None else record.angles
        return np.array(chain_points(float(self.root[0]), float(self.root[1]), angles.tolist(),
                                     self.lengths.tolist()))


def _number(record) -> int:
    """The sweep (CCD) or pass (FABRIK) a record belongs to."""
    return record.sweep if hasattr(record, "sweep") else record.iteration
