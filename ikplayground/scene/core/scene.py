"""The scene: the chains, which one is selected, and the fixed step.

Chains of one solver and bone count form a group whose numbers live in shared
arrays (each chain's fields are views into them): one batched call a group a step.
"""

from __future__ import annotations

import numpy as np

from ikplayground.scene.build import build, placement, walker_build
from ikplayground.scene.core import settings
from ikplayground.scene.core.chain import Chain, checked_name
from ikplayground.scene.core.constants import ITERATIVE, PALETTE_SIZE, SOLVERS
from ikplayground.scene.core.group import Group, grouped
from ikplayground.scene.core.hit_test import chain_at, rig_target_at, target_at
from ikplayground.scene.core.mirror import flip_chain
from ikplayground.scene.core.obstacles import ObstacleEdits
from ikplayground.scene.core.stage import PushMemory, clamp_point, free_spot, keep_on_stage, move_anchor, move_target
from ikplayground.scene.step import steering
from ikplayground.scene.step.scene_step import step_groups
from ikplayground.scene.step.terrain import Terrain, generated

STEP = 1.0 / 60.0
MAX_CHAINS = 20_000
SPACING_SHARE = 0.2  # a new IK chain's root and target keep this share of its reach from others'
MAX_SEED = 2**32 - 1  # the largest scene seed (a file's "seed")
TERRAIN_SEED = 7  # the generated ground's seed for scene seed 0


class Scene(ObstacleEdits):
    """All chains of the playground and its obstacles (:class:`.obstacles.ObstacleEdits`), without a window.

    Parameters
    ----------
    stage : (float, float)
        Width and height in pixels; targets, roots, snake heads and obstacles' centres are kept inside it.
    terrain : terrain.Terrain or None
        The walkers' ground (None: generated for the stage and the seed, again when the stage resizes).
    seed : int
        0 to ``MAX_SEED`` (the file's ``seed``): the wandering snakes' rule, the generated ground
        (``TERRAIN_SEED + seed``) and the stress scene take it.

    ``view`` is where a window last looked at it, ``{"origin": [x, y], "zoom": z}`` (a file's optional
    "view"), or None for the home view; the App's camera reads it after a load and writes it before a save.
    """

    def __init__(self, stage=(980.0, 720.0), terrain: Terrain | None = None, seed: int = 0):
        self.stage = (float(stage[0]), float(stage[1]))
        self.seed = int(seed)
        self.terrain = self.generated_terrain() if terrain is None else terrain
        self.chains: list[Chain] = []
        self.selected: Chain | None = None
        self.steps = 0
        self.solver_ms: dict[str, float] = dict.fromkeys(SOLVERS, 0.0)
        self._groups: list[Group] = []
        self._dirty = True
        self._shown: list[Chain] | None = None  # limits_shown, kept until the chains or a setting change
        self._next_colour = 0
        self._pushed = PushMemory()  # chains a shrinking stage pushed in
        self.view: dict | None = None
        self._numbers: set[int] = set()  # the chains' numbers (each chain's ``number``, unique in the scene)
        self.next_number = 1  # a new chain's number: one past the highest the scene has given or taken

    def add(self, chain: Chain, select: bool = True) -> Chain:
        """Add a chain (it is drawn on top) and, by default, select it."""
        return self.insert(len(self.chains), chain, select)

    def insert(self, index: int, chain: Chain, select: bool = True) -> Chain:
        """Put ``chain`` at ``index`` of the draw order (undoing its removal) and, by default, select it."""
        if len(self.chains) >= MAX_CHAINS:
            raise SceneFull(f"the scene holds at most {MAX_CHAINS} chains")
        self._number(chain)
        self.chains.insert(index, chain)
        self._dirty = True
        if select:
            self.selected = chain
        return chain

    def _number(self, chain: Chain) -> None:
        """Keep ``chain``'s number if it has one no other chain here has (undo putting it back, a file's),
        else give it ``next_number``; numbers only grow, so none is given twice while its chain is here."""
        if chain.number < 1 or chain.number in self._numbers:
            chain.number = self.next_number
        self._numbers.add(chain.number)
        self.next_number = max(self.next_number, chain.number + 1)

    def _take_colour(self) -> int:
        """The next palette index, in turn."""
        palette_index = self._next_colour
        self._next_colour = (palette_index + 1) % PALETTE_SIZE
        return palette_index

    def add_in_turn(self, chains) -> None:
        """Add ``chains`` bottom to top, unselected, each with the next palette colour in turn."""
        for c in chains:
            c.palette_index = self._take_colour()
            self.add(c, select=False)

    def add_grouped(self, chains: list[Chain], groups: list[Group]) -> None:
        """Fill an empty scene with ``chains``, taking ``groups`` uncopied if they are the ones it would make."""
        if self.chains:
            raise ValueError("add_grouped: the scene must be empty")
        if len(chains) > MAX_CHAINS:
            raise SceneFull(f"the scene holds at most {MAX_CHAINS} chains")
        if all(c.number < 1 for c in chains):  # none numbered yet: each gets the next number, in turn
            first = self.next_number
            for number, c in enumerate(chains, first):
                c.number = number
            self._numbers.update(range(first, first + len(chains)))
            self.next_number = first + len(chains)
        else:
            for c in chains:
                self._number(c)
        self.chains = list(chains)
        by_key = grouped(self.chains)
        self._dirty = [(g.solver, g.members) for g in groups] != [(k[0], m) for k, m in by_key.items()]
        if not self._dirty:
            self._set_groups(list(groups))

    def new_chain(self, solver: str, at=None) -> Chain:
        """Add a chain of solver ``solver`` with its root at ``at`` (or a free spot)."""
        if solver not in SOLVERS:
            raise ValueError(f"solver: must be one of {', '.join(SOLVERS)}, got {solver!r}")
        x, y = self.free_spot() if at is None else self.clamp(at)
        chain = build.new_chain(solver, (x, y), self.stage, self.terrain, self._take_colour())
        return self.add(chain)

    def place_chain(self, solver: str, near, box=None, spacing: float = 28.0) -> Chain:
        """Add a chain of ``solver`` at a clear spot near ``near`` inside ``box`` (x0, y0, x1, y1) px and the
        stage, an IK chain's target within its reach (:mod:`..build.placement`); ``spacing`` px apart."""
        if solver not in SOLVERS:
            raise ValueError(f"solver: must be one of {', '.join(SOLVERS)}, got {solver!r}")
        w, h = self.stage
        x0, y0, x1, y1 = box if box is not None else (0.0, 0.0, w, h)
        x0, y0, x1, y1 = max(x0, 0.0), max(y0, 0.0), min(x1, w), min(y1, h)
        if x1 < x0 or y1 < y0:  # the box shows none of the stage
            x0, y0, x1, y1 = 0.0, 0.0, w, h
        probe = build.new_chain(solver, self.clamp(near), self.stage, self.terrain)
        reach = float(probe.fields["lengths"].sum()) if probe.is_ik else None
        spacing = max(spacing, SPACING_SHARE * reach) if reach else spacing  # long chains further apart
        root, target = placement.place(near, reach, (x0, y0, x1, y1), placement.taken(self.chains), spacing)
        chain = build.new_chain(solver, root, self.stage, self.terrain, self._take_colour())
        if target is not None:
            chain.fields["target"][:] = target
        return self.add(chain)

    def remove(self, chain: Chain) -> None:
        self.chains.remove(chain)
        self._numbers.discard(chain.number)
        self._pushed.forget(chain)
        self._dirty = True
        if self.selected is chain:
            self.selected = self.chains[-1] if self.chains else None

    def remove_last(self) -> Chain | None:
        """Remove the chain added last (Backspace in the raylib multi-chain demo); None when empty."""
        if not self.chains:
            return None
        chain = self.chains[-1]
        self.remove(chain)
        return chain

    def clear(self) -> None:
        self.chains = []
        self.selected = None
        self._numbers.clear()
        self._pushed = PushMemory()
        self._dirty = True

    def replace(self, old: Chain, new: Chain) -> Chain:
        """Put ``new`` in ``old``'s place (same draw order, same selection, same number and name)."""
        i = self.chains.index(old)
        new.number, new.name = old.number, old.name
        self.chains[i] = new
        self._pushed.forget(old)
        if self.selected is old:
            self.selected = new
        self._dirty = True
        return new

    def rename(self, chain: Chain, name: str) -> None:
        """Give ``chain`` the name ``name`` (``""``: it goes by its number again); ValueError, nothing changed,
        for a name a chain cannot have (:func:`.chain.checked_name`). A recording's next rows carry it."""
        chain.name = checked_name(name)
        self._dirty = True  # the groups (and a recorder's layout of them) are made again

    def select(self, chain: Chain | None) -> None:
        self.selected = chain

    def select_next(self) -> Chain | None:
        if not self.chains:
            self.selected = None
        elif self.selected not in self.chains:
            self.selected = self.chains[0]
        else:
            self.selected = self.chains[(self.chains.index(self.selected) + 1) % len(self.chains)]
        return self.selected

    def driven_snake(self, solver: str = "snake") -> Chain | None:
        """The snake (or ``solver="walker"``: walker) the arrow keys drive: the selected one, else the only one."""
        return steering.driven(self.groups, self.selected, solver)

    def set_solver(self, chain: Chain, solver: str) -> Chain:
        """Switch a chain's solver, keeping it where it is on screen."""
        if solver not in SOLVERS:
            raise ValueError(f"solver: must be one of {', '.join(SOLVERS)}, got {solver!r}")
        if solver == chain.solver:
            return chain
        if solver in ITERATIVE and chain.solver in ITERATIVE:
            chain.solver = solver
            self._dirty = True
            return chain
        return self._rebuilt(chain, build.converted(chain, solver))  # its tail or tip may be off stage

    def set_setting(self, chain: Chain, name: str, value) -> Chain:
        """Set the per-chain setting ``name`` of ``chain``, checked and clamped; returns the chain now in its place.

        TypeError or ValueError change nothing; a setting the chain's solver lacks is ignored.
        """
        entry = settings.setting(name)
        value = entry.checked(value)
        if not entry.applies(chain.solver):
            return chain
        new, self._shown = entry.put_value(self, chain, value), None
        return chain if new is None else new

    def with_bone_count(self, chain: Chain, n: int) -> Chain:
        """``chain`` rebuilt with ``n`` bones in its place, kept on the stage (unchecked: see :meth:`set_setting`)."""
        return chain if n == chain.bones else self._rebuilt(chain, build.with_bone_count(chain, n))

    def with_leg_bones(self, chain: Chain, m: int) -> Chain:
        """A walker rebuilt with legs of ``m`` bones in its place, kept on the stage (unchecked)."""
        if m == chain.fields["lengths"].shape[1]:
            return chain
        return self._rebuilt(chain, walker_build.with_leg_bones(chain, m))

    def _rebuilt(self, old: Chain, new: Chain) -> Chain:
        """``new`` in ``old``'s place, pulled onto the stage (what was off it may have to be on it now)."""
        self.replace(old, new)
        self.keep_on_stage(new)
        return new

    def flip(self, chain: Chain) -> None:
        """Mirror ``chain`` (:func:`.mirror.flip_chain`); ValueError, nothing changed, if it would leave the stage."""
        flip_chain(chain, self.stage)
        self._pushed.forget(chain)  # the user's move: where it is now is its home

    def lay_out(self, chain: Chain) -> None:
        """After an edit of a chain's lengths or limits, lay its joints out again (:func:`.build.lay_out`)."""
        build.lay_out(chain)

    def move_target(self, chain: Chain, pos, part: str = "target") -> None:
        """Put an IK chain's target (or ``part="pole"``: its pole, if any), or a rig's target ``part``
        ("target:2"), at ``pos``, kept on the stage (:func:`.stage.move_target`)."""
        if move_target(chain, self.clamp(pos), part):
            self._pushed.forget(chain)

    def move_chain(self, chain: Chain, anchor) -> None:
        """Translate the chain (and its targets) so its anchor lands on ``anchor``, kept on the stage (the user's
        move; :func:`.stage.move_anchor`)."""
        self._pushed.forget(chain)
        if chain.is_walker:  # picked up and put down: its next step stands it on the ground there
            chain.fields["body"][:] = self.clamp(anchor)
            walker_build.lay_out(chain.fields)
            return
        move_anchor(chain, anchor, self.stage)

    def steer(self, throttle: bool, turn: int) -> Chain | None:
        """Set the arrow-key input of the driven snake or walker (:mod:`~.steering`); returns it (or None)."""
        return steering.steer(self.groups, self.selected, throttle, turn)

    def resize(self, stage) -> None:
        """Change the stage size and pull roots, targets, snakes and obstacles' centres inside it; what a smaller
        stage pushed in goes back once it grows again, unless it was moved meanwhile."""
        self.stage = (float(stage[0]), float(stage[1]))
        self._pushed.fit(self.chains, self.stage, self.groups)  # by group: a chain on the stage is passed over
        self.fit_obstacles()
        if self.terrain.generated_for is not None and self.terrain.generated_for != self.stage:
            self.set_terrain(self.generated_terrain())

    def generated_terrain(self) -> Terrain:
        """The default ground for the stage and the scene's seed."""
        return generated(self.stage, TERRAIN_SEED + self.seed)

    def set_terrain(self, terrain: Terrain) -> None:
        """Put the walkers on new ground: each one's next step stands it on ``terrain``."""
        self.terrain = terrain
        for c in self.chains:
            if c.is_walker:
                c.fields["settled"][0] = 0.0

    def keep_on_stage(self, chain: Chain) -> None:
        """Pull an IK chain's root and target, or a snake's head, back onto the stage, moving as little as it can."""
        keep_on_stage(chain, self.stage)

    def free_spot(self, margin: float = 60.0) -> np.ndarray:
        """A point of the stage as far as possible from every chain's joints (see :func:`.stage.free_spot`)."""
        return free_spot(self.chains, self.stage, margin)

    def clamp(self, pos) -> np.ndarray:
        """``pos`` pulled onto the stage (px, shape (2,))."""
        return clamp_point(pos, self.stage)

    def target_at(self, pos, radius: float) -> Chain | None:
        """The topmost IK chain whose target lies within ``radius`` of ``pos`` (one array test per group)."""
        groups = self.groups  # first: it makes the draw order when the groups are made again
        return target_at(groups, self._order, pos, radius)

    def rig_target_at(self, pos, radius: float) -> tuple[Chain, str] | None:
        """The topmost rig with a target within ``radius`` of ``pos``, and which (``"target:2"``), or None."""
        return rig_target_at(self.groups, self._order, pos, radius)  # (the groups first: they make the order)

    def chain_at(self, pos, radius: float) -> tuple[Chain, str] | None:
        """The topmost chain with a bone or joint within ``radius`` of ``pos`` (see :func:`.hit_test.chain_at`)."""
        return chain_at(self.chains, pos, radius)

    @property
    def groups(self) -> list[Group]:
        if self._dirty:
            self._regroup()
        return self._groups

    def _regroup(self) -> None:
        self._set_groups([Group(key[0], members) for key, members in grouped(self.chains).items()])

    def _set_groups(self, groups: list[Group]) -> None:
        self._groups = groups
        self._order = {id(c): i for i, c in enumerate(self.chains)}  # draw order, for "topmost"
        self._dirty, self._shown = False, None

    @property
    def limits_shown(self) -> list[Chain]:
        """The chains whose Show limits is on, in draw order (found again after a regroup or a set_setting)."""
        if self._dirty or self._shown is None:
            self._shown = [c for c in self.chains if c.show_limits]
        return self._shown

    def step(self) -> None:
        """Advance every chain by one fixed step of 1/60 s; ``solver_ms``: each solver's cost in it (ms)."""
        self.solver_ms = step_groups(self.groups, self.stage, self.seed, self.terrain, self.obstacles)
        self.steps += 1

    def counts(self) -> dict[str, int]:
        """How many chains each solver drives."""
        return {solver: sum(c.solver == solver for c in self.chains) for solver in SOLVERS}


class SceneFull(Exception):
    """Raised when adding a chain would pass the scene's cap."""
