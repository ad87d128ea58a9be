"""The solvers a chain can have: one registry, one entry a solver.

An entry names the solver, its kind (IK, snake, walker, rig), whether it iterates
over many bones with joint limits, its label, hint and race colour and, for an
iterative solver, the batched engine a group's step calls. ``SOLVERS``,
``IK_SOLVERS``, ``ITERATIVE`` and ``SOLVER_LABELS`` are kept from it, and the
settings table gives settings by kind or trait, so a solver registered here
needs no other change. Sources: ``docs/sources.md``; adding one:
``docs/design.md``, "Recipes".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ikplayground.solvers import ccd_batch, fabrik_batch, jacobian_batch

# engine(root (N,2), goal (N,n) rad, lengths (N,n) px, target (N,2), iterations (N,) int64,
#        tolerance (N,) px, limits (N,n,2) rad, fields[, obstacles=(k,3) px])
#   -> (angles (N,n) rad, error (N,) px, iterations used (N,));
# fields["pole"] (N,2) px (NaN rows: none) are the engine's to follow; obstacles, the scene's circles (x, y, r),
# only to a solver that avoids them, and only when there are some
Engine = Callable[..., tuple[np.ndarray, np.ndarray, np.ndarray]]
KINDS = ("ik", "snake", "walker", "rig", "rope", "path")


@dataclass(frozen=True)
class SolverKind:
    """One solver of the playground.

    Parameters
    ----------
    name, label : str
        Its name (scene, files, commands, settings) and what menus and the race call it.
    kind : {"ik", "snake", "walker", "rig", "rope", "path"}
    hint : str
        The panel's one line about it.
    iterative : bool
        Many bones, joint limits: then ``engine`` (an ``Engine``, arrays with a leading chain axis) is its
        batched solve, from ``goal`` to the tolerance, the iterations or the stall rule.
    colour : int
        Its race lane's palette index.
    avoids : bool
        Its ``engine`` takes ``obstacles=`` and keeps the chains' bones clear of them (docs/design.md,
        "Obstacles").
    rule : str
        Its update rule in one line, for the Math page ("" for none).
    short : str
        Its name in the race table's narrow column ("": its label).
    """

    name: str
    label: str
    kind: str
    hint: str
    iterative: bool = False
    engine: Engine | None = None
    colour: int = 0
    avoids: bool = False
    rule: str = ""
    short: str = ""
    traits: frozenset = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"kind: must be one of {', '.join(KINDS)} (got {self.kind!r})")
        if self.iterative and (self.kind != "ik" or self.engine is None):
            raise ValueError(f"{self.name}: an iterative solver is an IK solver with an engine")
        traits = {self.name, self.kind, "all"} | ({"iterative"} if self.iterative else set())
        object.__setattr__(self, "traits", frozenset(traits))
        if not self.short:
            object.__setattr__(self, "short", self.label)


def _poles(f) -> np.ndarray | None:
    """The group's poles (N, 2) px, NaN rows for none; None when no chain has one."""
    poles = f["pole"]
    return None if np.isnan(poles[:, 0]).all() else poles


def _ccd(root, goal, lengths, target, iterations, tolerance, limits, f, obstacles=None):
    return ccd_batch(root, goal, lengths, target, iterations, tolerance, limits, _poles(f), obstacles)


def _fabrik(root, goal, lengths, target, iterations, tolerance, limits, f, obstacles=None):
    return fabrik_batch(root, goal, lengths, target, iterations, tolerance, limits, _poles(f), obstacles)


def _dls(root, goal, lengths, target, iterations, tolerance, limits, f, obstacles=None):
    return jacobian_batch(root, goal, lengths, target, iterations, tolerance, limits, "dls",
                          damping=f["damping"][:, 0], poles=_poles(f), obstacles=obstacles)


def _jacobian(method: str) -> Engine:
    """The engine of the Jacobian family's ``method`` (``ikplayground.solvers.METHODS``)."""
    def engine(root, goal, lengths, target, iterations, tolerance, limits, f, obstacles=None):
        return jacobian_batch(root, goal, lengths, target, iterations, tolerance, limits, method, poles=_poles(f),
                              obstacles=obstacles)
    return engine


SOLVER_TABLE: list[SolverKind] = [
    SolverKind("two-bone", "two-bone", "ik", "Two-bone: exact law-of-cosines solve, 2 bones.", colour=0,
               rule="θ2 = ±(π − γ), θ1 = φ − (±ψ): the law of cosines"),
    SolverKind("ccd", "CCD", "ik", "CCD: turns each joint toward the target, tip first.", True, _ccd, colour=1,
               avoids=True, rule="each joint, tip first, turns to aim the tip at the target"),
    SolverKind("fabrik", "FABRIK", "ik", "FABRIK: drags the joints to the target and back.", True, _fabrik, colour=2,
               avoids=True, rule="joints pulled tip-first onto the target, then root-first back"),
    SolverKind("dls", "DLS", "ik", "DLS: damped least squares steps on the Jacobian.", True, _dls, colour=3,
               avoids=True, rule="Δθ = Jᵀ(JJᵀ + λ²I)⁻¹ e, λ = damping·μ·|e|"),
    SolverKind("transpose", "Transpose", "ik", "Transpose: gradient steps Δθ = αJᵀe on the error.", True,
               _jacobian("transpose"), colour=7, avoids=True, rule="Δθ = α Jᵀe, α = ⟨e, JJᵀe⟩ / |JJᵀe|²", short="Jᵀ"),
    SolverKind("pseudo-inverse", "Pseudo-inverse", "ik", "Pseudo-inverse: Δθ = J⁺e, the least turn that fits.", True,
               _jacobian("pseudo-inverse"), colour=5, avoids=True, rule="Δθ = J⁺e = Jᵀ(JJᵀ)⁻¹ e", short="J⁺"),
    SolverKind("sdls", "SDLS", "ik", "SDLS: J⁺e damped in each singular direction.", True, _jacobian("sdls"),
               colour=4, avoids=True, rule="Δθ = Σᵢ clamp(σᵢ⁻¹ (uᵢ·e) vᵢ, γᵢ), Buss & Kim"),
    SolverKind("snake", "snake", "snake", "Snake: arrow keys steer it; no target to drag.", colour=4),
    SolverKind("walker", "Walker", "walker", "Walker: IK legs step over the ground; arrows walk.", colour=5),
    SolverKind("rig", "Rig", "rig", "Rig: a skeleton of named bones, several targets solved at once.", colour=6),
    SolverKind("rope", "Rope", "rope", "Rope: hangs from its root under gravity; Pin end ties its end to a target.",
               colour=3, rule="Verlet step, then bone lengths restored root to tip (Jakobsen 2001)"),
    SolverKind("path", "Path", "path", "Path: its joints lie along a Bezier curve; drag its four handles.",
               colour=2, rule="joint i at arc length start + Σ lengths[:i] along a cubic Bezier"),
]
SOLVER_KINDS: dict[str, SolverKind] = {}
# kept from the table by _sync, always the same objects (an importer sees a solver registered later)
SOLVERS: list[str] = []
IK_SOLVERS: list[str] = []
ITERATIVE: list[str] = []  # many bones, with joint limits and iterations
SOLVER_LABELS: dict[str, str] = {}
_listeners: list[Callable[[], None]] = []


def _sync() -> None:
    SOLVER_KINDS.clear()
    SOLVER_KINDS.update((s.name, s) for s in SOLVER_TABLE)
    SOLVERS[:] = [s.name for s in SOLVER_TABLE]
    IK_SOLVERS[:] = [s.name for s in SOLVER_TABLE if s.kind == "ik"]
    ITERATIVE[:] = [s.name for s in SOLVER_TABLE if s.iterative]
    SOLVER_LABELS.clear()
    SOLVER_LABELS.update((s.name, s.label) for s in SOLVER_TABLE)
    for listener in _listeners:
        listener()


def on_change(listener: Callable[[], None]) -> None:
    """Call ``listener()`` whenever a solver is registered or removed (a cache made from the registry)."""
    _listeners.append(listener)


def register(kind: SolverKind) -> SolverKind:
    """Add a solver (its ``name`` must be new); it is last in menus and lists. Returns it."""
    if kind.name in SOLVER_KINDS:
        raise ValueError(f"solver {kind.name!r} is already registered")
    SOLVER_TABLE.append(kind)
    _sync()
    return kind


def unregister(name: str) -> None:
    """Remove the solver ``name`` (a ValueError for one that is not registered)."""
    if name not in SOLVER_KINDS:
        raise ValueError(f"solver: no solver {name!r} is registered")
    SOLVER_TABLE.remove(SOLVER_KINDS[name])
    _sync()


def has_trait(solver: str, traits) -> bool:
    """Whether ``solver`` is named in ``traits`` or has one of them (its kind, ``"iterative"``, ``"all"``)."""
    kind = SOLVER_KINDS.get(solver)
    return kind is not None and not kind.traits.isdisjoint(traits)


_sync()
