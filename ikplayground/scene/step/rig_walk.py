"""A rig's walk: its root carried along x over the terrain, its feet stepping as a walker's, its other targets along.

The walker's rules, one implementation (:mod:`.walker`, the procedural walk of
game animation): the root walks along x as a walker's body does
(:func:`~.walker.walk_x`: the arrow keys, or "Auto walk" back and forth,
turning inside the stage's edges); the feet, the targets with a gait group
(``gait`` 0 or 1, saved with the rig), step as a walker's feet
(:func:`~.walker.gait`: a planted foot steps once it is ``threshold`` px from
its rest spot, one group at a time, on an eased arc ``step_height`` px high,
landing on the ground), a planted foot standing on the ground; the root's
height eases toward a line through them (:func:`~.walker.support_height`),
``CROUCH`` lower than in the rest pose so the legs reach ahead and behind. A
foot's rest spot is where its bone ends in the rest pose, from the root. Every
other target keeps its place relative to the root (it swings along), unless
the mouse holds it (:func:`~.target_paths.hold`). A turn mirrors the rig about its root
(:func:`~ikplayground.scene.core.mirror.rig_turned`), as a sprite is flipped:
its limits say which way its knees and elbows bend. The rig's own solve
(:mod:`.rig_step`) then reaches for the targets. Arrays with a leading axis of N
rigs (``RIG_FIELDS``); pixels, y down, radians.
"""

from __future__ import annotations

import numpy as np

from ikplayground.scene.core.mirror import appendages, rig_pose, rig_turned
from ikplayground.scene.step.rig_step import bone_ends
from ikplayground.scene.step.walker import EASE, gait, support_height, walk_x
from ikplayground.solvers import wrap_array

CROUCH = 0.1  # a walking rig's root rides this share of its rest height lower over its feet
STEP = (0.12, 0.11)  # a new rig's step threshold and step height, shares of its legs' length (:func:`leg_length`)
CLEARANCE = 0.6  # and at least this share of its riding height above the ground right under it
# the fields of a walker's foot that a rig's foot target has too (:func:`~.walker.gait` steps them)
_STEP = ("state", "progress", "step_from", "step_to", "gait")


def walking(f) -> np.ndarray:
    """Which rigs (N,) walk this step: walking on their own, driven, still moving, or a foot still stepping."""
    stepping = ((f["state"] > 0.5) & (f["gait"] >= 0)).any(axis=1)
    return (f["auto"][:, 0] > 0) | (f["drive"][:, 0] != 0) | (f["velocity"][:, 0] != 0) | stepping


def on_terrain(group) -> bool:
    """Whether any chain of ``group`` can walk on the terrain, so that the ground is drawn: any walker, any rig with
    feet (targets in a gait group), any rig that walks or has walked."""
    if group.solver == "walker":
        return True
    f = group.fields
    return "targets" in f and bool((walking(f) | (f["settled"][:, 0] > 0) | (f["gait"] >= 0).any(axis=1)).any())


def walk_rigs(f, stage, terrain) -> None:
    """Walk the rigs of a group that walk this step (``RIG_FIELDS`` with a leading axis N, in place), before their
    solve; a replayed one turns where its recording does (:func:`replay_turn`). ``stage`` (width, height) px."""
    replayed = f["replayed"][:, 0] > 0
    for row in np.flatnonzero(replayed):
        replay_turn({name: a[row] for name, a in f.items()})
    f["replayed"][replayed] = 0.0
    for row in np.flatnonzero(walking(f) & ~replayed):
        walk({name: a[row] for name, a in f.items()}, stage, terrain)


def leg_starts(parents: np.ndarray, bones: np.ndarray) -> np.ndarray:
    """Where the leg of each foot bone ``bones`` (m,) starts: the end of its nearest ancestor bone with another of
    the feet below it (the hips; a quadruped's pelvis or chest), or -1 for the root. ``parents`` (n,) ints."""
    below = np.zeros(len(parents), dtype=int)  # how many of the feet's bones each bone has at or below it
    for b in bones:
        while b >= 0:
            below[b] += 1
            b = parents[b]
    out = np.empty(len(bones), dtype=int)
    for i, b in enumerate(bones):
        hip = parents[b]
        while hip >= 0 and below[hip] < 2:
            hip = parents[hip]
        out[i] = hip
    return out


def leg_length(parents, lengths, bones) -> float:
    """The mean length (px) of the legs of foot bones ``bones`` (m,): their bones from where the leg starts
    (:func:`leg_starts`) to the foot's end; 0 for no feet."""
    parents = np.asarray(parents).astype(int)
    bones = np.asarray(bones).astype(int)
    total = 0.0
    for b, hip in zip(bones.tolist(), leg_starts(parents, bones).tolist()):
        while b != hip:
            total += float(lengths[b])
            b = parents[b]
    return total / len(bones) if len(bones) else 0.0


def rest_spots(r, feet: np.ndarray) -> np.ndarray:
    """Where one rig's feet ``feet`` (m,) target indices rest (m, 2) px from its root: their height as in its rest
    pose, along x under the start of their leg (:func:`leg_starts`), each foot bone reaching as far ahead of that
    as it does in the rest pose."""
    parents = r["parents"].astype(int)
    bones = r["target_bones"][feet].astype(int)
    ends = bone_ends(r, r["rest"])
    starts = np.vstack([r["root"][None], ends])[parents + 1]
    hips = leg_starts(parents, bones)
    legs = np.where(hips[:, None] < 0, r["root"], ends[hips])
    out = ends[bones] - r["root"]
    out[:, 0] = legs[:, 0] + ends[bones, 0] - starts[bones, 0] - r["root"][0]
    return out


def margin(r) -> float:
    """How far (px) one rig reaches to either side of its root, bones and targets: its walk keeps that far
    inside the stage's edges, so a turn's mirror image stays on the stage."""
    x0 = r["root"][0]
    return float(max(np.abs(r["points"][:, 0] - x0).max(), np.abs(r["targets"][:, 0] - x0).max(initial=0.0)))


def walk(r, stage, terrain) -> None:
    """One walking step of one rig (its fields ``r``, in place): the root along, a turn, the feet, the height."""
    reach = margin(r)
    if 2.0 * reach >= stage[0]:  # its mirror image would not fit beside it: it cannot walk back and forth here
        r["velocity"][0] = 0.0
        return
    start = r["root"].copy()
    facing = float(r["facing"][0])
    move = walk_x(r["root"][:1], r["velocity"], r["facing"], r["drive"], r["run"], r["auto"], r["speed"],
                  np.array([reach]), stage)
    free = r["held"] < 0.5
    others = free & (r["gait"] < 0)
    r["targets"][others, 0] += r["root"][0] - start[0]
    if r["facing"][0] != facing:
        turn(r)
    feet = np.flatnonzero(free & (r["gait"] >= 0))
    if len(feet):
        step_feet(r, feet, move, terrain)
    r["targets"][others, 1] += r["root"][1] - start[1]
    r["targets"][others] = np.clip(r["targets"][others], 0.0, stage)  # carried along, but never off the stage
    r["settled"][0] = 1.0


def turn(r) -> None:
    """Mirror one rig about its root, its facing kept (the walk's); a rig that cannot be mirrored walks on as it
    is (bone 0's range across 0, :func:`~ikplayground.scene.core.mirror.mirror_limits`)."""
    try:
        new = rig_turned(r, float(r["root"][0]))
    except ValueError:
        return
    for name, value in new.items():
        r[name][...] = value


def step_feet(r, feet: np.ndarray, move: np.ndarray, terrain) -> None:
    """Step one rig's feet ``feet`` (m,) target indices as a walker's (planted ones on the ground), then ease its
    root's height toward their line."""
    rest = rest_spots(r, feet)
    g = {name: r[name][feet][None] for name in _STEP}
    g["foot"] = r["targets"][feet][None]
    planted = g["state"] < 0.5
    g["foot"][..., 1] = np.where(planted, terrain.height_at(g["foot"][..., 0]), g["foot"][..., 1])
    g["home"] = rest[None, :, 0]
    g["body"] = r["root"][None]
    g["threshold"], g["step_height"] = r["threshold"][None], r["step_height"][None]
    gait(g, move, terrain)
    for name in _STEP:
        r[name][feet] = g[name][0]
    r["targets"][feet] = g["foot"][0]
    ride = (1.0 - CROUCH) * max(float(rest[:, 1].min()), 0.0)
    x = r["root"][:1]
    height, _ = support_height(g, x, np.array([ride]), np.array([CLEARANCE * ride]), terrain)
    r["root"][1] += (height[0] - r["root"][1]) * EASE


def replay_turn(r) -> None:
    """A replayed rig (its root and targets the recording's) turns where its recording turned: when the recorded
    pose (``replay_angles``) is nearer the mirror image of its shown pose than that pose itself."""
    try:
        new = rig_pose(r)
    except ValueError:
        return
    new.update(appendages(r, float(r["root"][0]), walker=False))  # about the root, as its walk turned
    seen = r["replay_angles"]
    if np.abs(wrap_array(seen - new["angles"])).max() < np.abs(wrap_array(seen - r["angles"])).max():
        for name, value in new.items():
            r[name][...] = value
        r["facing"][0] = -r["facing"][0]
