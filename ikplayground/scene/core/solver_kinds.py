"""The solvers a chain can have, in one table: one row a solver.

A row names the solver as the scene, its files and the panel know it, says
what kind of chain it drives (an IK chain reaching for a target, a snake, a
walker) and whether it iterates over many bones with joint limits, and gives
the panel its label and one-line hint. The scene's tuples (``SOLVERS``,
``IK_SOLVERS``, ``ITERATIVE``, ``SOLVER_LABELS``, :mod:`.constants`) and the
panel's hint are read from it, so a solver is described here once. The
tutorials each solver comes from are named in ``docs/sources.md``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SolverKind:
    """One solver of the playground.

    Parameters
    ----------
    name : str
        The solver's name in the scene, its files, the commands and the settings table.
    label : str
        What menus, titles and the race table call it.
    kind : {"ik", "snake", "walker"}
        An IK chain (a root, bones and a target), a snake (follow-the-leader, steered) or a walker.
    hint : str
        The panel's one line about it, under the chain's title.
    iterative : bool
        Solves many bones in iterations, with joint limits (CCD, FABRIK, DLS).
    """

    name: str
    label: str
    kind: str
    hint: str
    iterative: bool = False


SOLVER_TABLE = (
    SolverKind("two-bone", "two-bone", "ik", "Two-bone: exact law-of-cosines solve, 2 bones."),
    SolverKind("ccd", "CCD", "ik", "CCD: turns each joint toward the target, tip first.", iterative=True),
    SolverKind("fabrik", "FABRIK", "ik", "FABRIK: drags the joints to the target and back.", iterative=True),
    SolverKind("dls", "DLS", "ik", "DLS: damped least squares steps on the Jacobian.", iterative=True),
    SolverKind("snake", "snake", "snake", "Snake: arrow keys steer; no target, no rate limit."),
    SolverKind("walker", "Walker", "walker", "Walker: IK legs step over the ground; arrows walk."),
)
SOLVER_KINDS = {s.name: s for s in SOLVER_TABLE}
