"""The stage's room: keeping chains on it as its size changes, and finding a free spot for a new chain.

An IK chain's root and target must stay on the stage, a rig's root and
targets, a rope's root and target, a path chain's four control points, a snake's head (its tail may hang
off). Pixels, y down; the stage is ``(width, height)`` from (0, 0).
"""

from __future__ import annotations

import numpy as np

from ikplayground.scene.core.chain import Chain
from ikplayground.scene.core.joint_ranges import move_limit
from ikplayground.scene.step import path_step, rope_step, target_paths
from ikplayground.scene.step.rig_step import measure

FREE_SPOT_SAMPLE = 256  # chains looked at when looking for a free spot on a crowded stage


def clamp_point(pos, stage: tuple[float, float]) -> np.ndarray:
    """``pos`` (2,) px pulled onto the stage: shape (2,)."""
    return np.array((min(max(float(pos[0]), 0.0), stage[0]), min(max(float(pos[1]), 0.0), stage[1])))


def shift_root(chain: Chain, root, clamp=None) -> None:
    """Translate an IK chain so its root is ``root`` (2,) px; target, pole and a motion's centre move along."""
    offset = root - chain.fields["root"]
    chain.fields["motion_centre"] += offset
    chain.fields["points"] += offset
    chain.fields["previous"] += offset  # a jiggling chain carried along, its velocity as it was
    chain.fields["root"][:] = root
    chain.fields["points"][0] = root  # exactly, whatever the rounding of the sum
    for name in ("target", "pole"):
        moved = chain.fields[name] + offset  # a pole of NaN (none) stays NaN
        chain.fields[name][:] = moved if clamp is None or np.isnan(moved[0]) else clamp(moved)


def shift_rig(chain: Chain, root, clamp=None) -> None:
    """Translate a rig so its root is ``root`` (2,) px, its points, targets and feet's steps along (each target
    clamped); its errors measured again. It no longer stands on the ground (``settled`` 0) until it walks there."""
    f = chain.fields
    offset = np.asarray(root, dtype=float) - f["root"]
    f["points"] += offset
    f["step_from"] += offset
    f["step_to"] += offset
    f["settled"][0] = 0.0
    f["root"][:] = root
    f["points"][0] = root  # exactly, whatever the rounding of the sum
    moved = f["targets"] + offset
    f["targets"][:] = moved if clamp is None else [clamp(t) for t in moved]
    measure(f)


def target_index(chain: Chain, part: str) -> int | None:
    """Which of a rig's targets ``part`` names ("target:2"; "target" is target 0), or None for none of them."""
    head, _, index = part.partition(":")
    k = len(chain.fields["targets"])
    if head != "target" or not (index == "" or (index.isdigit() and int(index) < k)) or not k:
        return None
    return int(index or 0)


def heading_index(chain: Chain, part: str) -> int | None:
    """Which of a rig's aimed targets ``part`` names ("heading:2"), or None (not a heading, or target 2 has none)."""
    head, _, index = part.partition(":")
    headings = chain.fields["headings"] if chain.is_rig else ()
    if head != "heading" or not index.isdigit() or int(index) >= len(headings):
        return None
    return int(index) if np.isfinite(headings[int(index)]) else None


def control_index(chain: Chain, part: str) -> int | None:
    """Which of a path chain's control points ``part`` names ("control:2"), or None (not one, or not a path)."""
    head, _, index = part.partition(":")
    if not chain.is_path or head != "control" or not index.isdigit() or int(index) > 3:
        return None
    return int(index)


def move_controls(chain: Chain, control, clamp=None) -> None:
    """Put a path chain's four control points at ``control`` (4, 2) px (each ``clamp``-ed, if given) and lay its
    joints along the curve again."""
    f = chain.fields
    f["control"][:] = control if clamp is None else [clamp(p) for p in np.asarray(control, dtype=float)]
    path_step.settle(f)


def move_target(chain: Chain, pos, part: str = "target") -> bool:
    """Put ``part`` of ``chain`` at ``pos`` (2,) px, on the stage: an IK chain's target (a moving target's curve
    comes along) or pole (if it has one), a rig's target (``"target:2"``), or turn a rig's target's heading
    (``"heading:2"``) to point from the target at ``pos``, or an edge of a joint's range of a rig or an IK chain
    (``"limit_lo:3"``, :func:`~.joint_ranges.move_limit`); whether it had that part."""
    if part.startswith("limit_"):
        return move_limit(chain, pos, part)
    if chain.is_rig and part.startswith("heading:"):
        index = heading_index(chain, part)
        if index is not None:
            d = np.asarray(pos, dtype=float) - chain.fields["targets"][index]
            if d[0] or d[1]:  # on the target itself: no direction, the heading stays
                chain.fields["headings"][index] = np.arctan2(d[1], d[0])
        return index is not None
    if chain.is_rig:
        index = target_index(chain, part)
        if index is not None:
            chain.fields["targets"][index] = pos
            measure(chain.fields)
        return index is not None
    if chain.is_path:  # one of its curve's handles ("control:0" its start)
        index = control_index(chain, part)
        if index is not None:
            chain.fields["control"][index] = pos
            path_step.settle(chain.fields)
        return index is not None
    if chain.is_rope:  # its end's target, held with "Pin end" on (off: it has none to drag)
        if part != "target" or not chain.fields["pin_end"][0] > 0:
            return False
        chain.fields["target"][:] = pos
        return True
    if not chain.is_ik or not (part == "target" or chain.pole is not None):
        return False
    chain.fields[part][:] = pos
    if part == "target":
        target_paths.recentre(chain.fields)
    return True


def move_anchor(chain: Chain, anchor, stage: tuple[float, float]) -> None:
    """Translate an IK chain, a rig (targets along), a rope, a path chain (its curve along) or a snake so its anchor
    is at ``anchor`` (2,) px, kept on ``stage``."""
    def clamp(p):
        return clamp_point(p, stage)

    if chain.is_snake:
        chain.fields["points"] += np.asarray(anchor, dtype=float) - chain.anchor
        keep_on_stage(chain, stage)
    elif chain.is_rig:
        shift_rig(chain, clamp(anchor), clamp)
    elif chain.is_rope:  # the root moves; at the next step the rope follows it, and swings (its velocity kept)
        chain.fields["root"][:] = clamp(anchor)  # (laid out then, once: a replay of its root gives the same)
    elif chain.is_path:  # the whole curve moves, each handle kept on the stage
        control = chain.fields["control"] + (clamp(anchor) - chain.fields["control"][0])
        control[0] = clamp(anchor)  # exactly, whatever the rounding of the sum
        move_controls(chain, control, clamp)
    else:
        shift_root(chain, clamp(anchor), clamp)


def shift_walker(chain: Chain, body) -> None:
    """Put a walker's body at ``body`` (2,) px, feet and joints along; its next step stands it on the ground."""
    f = chain.fields
    offset = np.asarray(body, dtype=float) - f["body"]
    for name in ("points", "foot", "step_from", "step_to"):
        f[name] += offset
    f["body"][:] = body
    f["settled"][0] = 0.0


def keep_on_stage(chain: Chain, stage: tuple[float, float]) -> None:
    """Pull what must stay on the stage back onto it, moving as little as it can."""

    def clamp(p):
        return clamp_point(p, stage)

    if chain.is_walker:  # its body's x on the stage; a move stands it on the ground again
        body = chain.fields["body"]
        x = min(max(float(body[0]), 0.0), stage[0])
        if x != body[0]:
            shift_walker(chain, (x, body[1]))
        return
    if chain.is_rig:
        root = clamp(chain.fields["root"])
        if not np.array_equal(root, chain.fields["root"]):
            shift_rig(chain, root)
        chain.fields["targets"][:] = [clamp(t) for t in chain.fields["targets"]]
        measure(chain.fields)
        return
    if chain.is_path:
        control = np.array([clamp(p) for p in chain.fields["control"]])
        if not np.array_equal(control, chain.fields["control"]):
            move_controls(chain, control)
        return
    if chain.is_rope:
        root, target = clamp(chain.fields["root"]), clamp(chain.fields["target"])
        if not (np.array_equal(root, chain.fields["root"]) and np.array_equal(target, chain.fields["target"])):
            chain.fields["root"][:], chain.fields["target"][:] = root, target
            rope_step.settle(chain.fields)
        return
    if chain.is_snake:
        pts = chain.fields["points"]
        head = clamp(pts[0])
        if not np.array_equal(head, pts[0]):
            pts += head - pts[0]
            pts[0] = head  # exactly, whatever the rounding of the sum
    else:
        root = clamp(chain.fields["root"])
        if not np.array_equal(root, chain.fields["root"]):
            shift_root(chain, root, clamp)
        chain.fields["target"][:] = clamp(chain.fields["target"])
        if chain.pole is not None:
            chain.fields["pole"][:] = clamp(chain.fields["pole"])


def free_spot(chains: list[Chain], stage: tuple[float, float], margin: float = 60.0) -> np.ndarray:
    """A point (2,) px of a grid ``margin`` px inside the stage, as far as possible from every chain's joints."""
    w, h = stage
    xs = np.linspace(min(margin, w / 2), max(w - margin, w / 2), 12)
    ys = np.linspace(min(margin, h / 2), max(h - margin, h / 2), 8)[::-1]
    grid = np.stack(np.meshgrid(xs, ys), axis=-1).reshape(-1, 2)
    if not chains:
        return clamp_point((w / 2, h * 0.75), stage)
    if len(chains) > FREE_SPOT_SAMPLE:  # a crowded stage: a sample of chains is as good and stays fast
        # the newest always (held N asks again right after each add), a spread of the rest
        recent = FREE_SPOT_SAMPLE // 4
        older = chains[:-recent]
        chains = older[:: len(older) // (FREE_SPOT_SAMPLE - recent) + 1] + chains[-recent:]
    pts = np.concatenate([c.fields["points"] for c in chains])
    if len(pts) > 4096:
        pts = pts[:: len(pts) // 4096 + 1]
    # |g - p|^2 = |g|^2 - 2 g.p + |p|^2, as one matrix product (rounding cannot matter here)
    d2 = (np.einsum("ij,ij->i", grid, grid)[:, None] - 2.0 * grid @ pts.T
          + np.einsum("ij,ij->i", pts, pts)[None, :]).min(axis=1)
    return grid[int(np.argmax(d2))]


def spot(chain: Chain) -> tuple:
    """What :func:`keep_on_stage` moves, copied: (root, target, pole), (points,) of a snake, (body,) of a walker,
    (root, targets) of a rig, (control,) of a path chain."""
    if chain.is_walker:
        return (chain.fields["body"].copy(),)
    if chain.is_rig:
        return (chain.fields["root"].copy(), chain.fields["targets"].copy())
    if chain.is_snake:
        return (chain.fields["points"].copy(),)
    if chain.is_rope:
        return (chain.fields["root"].copy(), chain.fields["target"].copy())
    if chain.is_path:
        return (chain.fields["control"].copy(),)
    return (chain.fields["root"].copy(), chain.fields["target"].copy(), chain.fields["pole"].copy())


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return np.array_equal(a, b, equal_nan=True)  # a pole of NaN (none) is where it was


class PushMemory:
    """Chains a smaller stage pushed in: where they were and where they were left (they go back as it grows)."""

    def __init__(self):
        self._records: dict[int, tuple[Chain, tuple, tuple]] = {}  # id -> (chain, home, left)

    def forget(self, chain: Chain) -> None:
        """``chain`` was moved on purpose (where it is now is its home), or left the scene."""
        self._records.pop(id(chain), None)

    def home(self, chain: Chain) -> tuple:
        """Where ``chain`` would be had no stage pushed it: each part's home if untouched since."""
        now = spot(chain)
        record = self._records.get(id(chain))
        if record is None or record[0] is not chain:
            return now
        _, home, left = record
        return tuple(h if _same(n, was) else n for h, n, was in zip(home, now, left))

    def fit(self, chains: list[Chain], stage: tuple[float, float], groups=None) -> None:
        """Put every chain back home, then onto ``stage``; remember the ones it pushed (``groups``: fewer tests)."""
        if groups is not None:
            pushed = {id(record[0]) for record in self._records.values()}
            off = {id(c) for g in groups for c, on in zip(g.members, on_stage_rows(g, stage).tolist()) if not on}
            chains = [c for c in chains if id(c) in pushed or id(c) in off]
        records = {}
        for c in chains:
            home = self.home(c)
            _put(c, home)
            keep_on_stage(c, stage)
            left = spot(c)
            if not all(_same(a, b) for a, b in zip(home, left)):
                records[id(c)] = (c, home, left)
        self._records = records


def on_stage_rows(group, stage: tuple[float, float]) -> np.ndarray:
    """Which members of ``group`` have on ``stage`` all :func:`keep_on_stage` pulls there: (N,) bool."""
    w, h = stage

    def inside(p):
        return (p[:, 0] >= 0.0) & (p[:, 0] <= w) & (p[:, 1] >= 0.0) & (p[:, 1] <= h)

    f = group.fields
    if group.solver == "walker":
        x = f["body"][:, 0]
        return (x >= 0.0) & (x <= w)
    if group.solver == "snake":
        return inside(f["points"][:, 0])
    if "control" in f:  # a path chain: its four control points
        count = len(f["control"])
        return inside(f["control"].reshape(count * 4, 2)).reshape(count, 4).all(axis=1)
    if "pin_end" in f:  # a rope: its root and its end's target
        return inside(f["root"]) & inside(f["target"])
    if "targets" in f:  # a rig: its root and every target
        count, k = f["targets"].shape[:2]
        return inside(f["root"]) & inside(f["targets"].reshape(count * k, 2)).reshape(count, k).all(axis=1)
    return inside(f["root"]) & inside(f["target"]) & (np.isnan(f["pole"][:, 0]) | inside(f["pole"]))


def _put(chain: Chain, home: tuple) -> None:
    """Put ``chain`` at ``home`` (see :func:`spot`) exactly, unclamped (keep_on_stage clamps once, after)."""
    if chain.is_walker:
        if not np.array_equal(chain.fields["body"], home[0]):
            shift_walker(chain, home[0])
        return
    if chain.is_snake:
        chain.fields["points"][:] = home[0]
        return
    if chain.is_path:
        if not np.array_equal(chain.fields["control"], home[0]):
            move_controls(chain, home[0])
        return
    if chain.is_rope:
        if not (np.array_equal(chain.fields["root"], home[0]) and np.array_equal(chain.fields["target"], home[1])):
            chain.fields["root"][:], chain.fields["target"][:] = home
            rope_step.settle(chain.fields)
        return
    if chain.is_rig:
        if not np.array_equal(chain.fields["root"], home[0]):
            shift_rig(chain, home[0])
        chain.fields["targets"][:] = home[1]
        return
    if not np.array_equal(chain.fields["root"], home[0]):
        shift_root(chain, home[0])
    chain.fields["target"][:] = home[1]
    chain.fields["pole"][:] = home[2]

