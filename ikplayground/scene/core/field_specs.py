"""The arrays of a chain of each kind: field name -> shape, and the concrete shapes for a size.

An IK chain's, a snake's, a walker's, a rig's, a rope's and a path chain's fields (docs/design.md,
"The scene", "The walker", "The rig", "The rope", "The path", "Appendages"). Pixels (y down) and radians.
"""

from __future__ import annotations

from typing import cast

from ikplayground.scene.core import ik_options
from ikplayground.scene.core.constants import APPENDAGE_BONES, APPENDAGE_SLOTS
from ikplayground.scene.core.settings import field_settings

# Per-solver array fields: name -> shape, with "n" the bone count. Every row of the settings table with a
# ``field`` adds a one-number field to the chains of its solvers (settings.field_settings).
FieldSpec = dict[str, tuple[int | str, ...]]
IK_FIELDS: FieldSpec = {
    "root": (2,), "target": (2,), "lengths": ("n",), "angles": ("n",), "limits": ("n", 2),
    "rate": (1,), "bend": (1,), "iterations": (1,), "tolerance": (1,),
    "points": ("n+1", 2), "error": (1,), "reached": (1,),
    # the solver's own last answer: the next solve starts from it, the shown angles (rate-limited) move toward it
    "goal": ("n",),
    # the shown joints a step ago (px): a jiggling chain's velocity (scene/step/jiggle_step.py)
    "previous": ("n+1", 2),
    # the solver options (ik_options.py): a pole (NaN: none), and the settings' fields
    "pole": (2,), **{cast(str, s.field): (1,) for s in ik_options.OPTION_SETTINGS},
    # per-step state: the auto-bend side (+-1), the two-bone bone scale, the status code (STATUSES), the
    # iterations the last solve used, and the microseconds its solver call took (never saved)
    "side": (1,), "scale": (1,), "status": (1,), "used": (1,), "solve_us": (1,),
    # the animated target (target_paths.py): path code (PATHS), speed (px/step), size (px), a curve's centre
    # (px), phase (rad) and way round (1: backward), a bounce's velocity (px/step); held: 1 while dragged
    "motion": (1,), "motion_speed": (1,), "motion_size": (1,), "motion_centre": (2,), "motion_phase": (1,),
    "motion_reverse": (1,), "motion_velocity": (2,), "held": (1,),
}
SNAKE_FIELDS: FieldSpec = {
    "points": ("n+1", 2), "lengths": ("n",), "heading": (1,), "speed": (1,),
    "bend_limits": (2,), "max_speed": (1,), "turn_rate": (1,), "throttle": (1,), "turn": (1,),
    # where its wander rule is (rad), whether the rule is seen in a mirror (1: after a mirror flip), whether
    # the arrow keys drive it this step; a replay's head for the coming step (px), used where "replayed" is 1
    "wander_phase": (1,), "wander_mirror": (1,), "steered": (1,), "replay_head": (2,), "replayed": (1,),
    "rate": (1,),  # the rate limit (rad/step, inf: off) on the angles from the head (group_step.rate_limit_snakes)
    # jiggle (scene/step/jiggle_step.py): the shown nodes a step ago, and the un-jiggled body the next step follows
    # the leader from (px; used while "jiggle" is on)
    "previous": ("n+1", 2), "rest_points": ("n+1", 2),
    **{cast(str, s.field): (1,) for s in field_settings("snake")},
}
# a walker (scene/step/walker.py), n legs of m bones each: the body (centre px, velocity px/step, facing +-1,
# tilt rad); per leg its hip (body frame, px), its foot's rest spot ("home": px ahead of the centre), bones
# (px), angles (the first absolute, rad), "points" (hip, knee[, ankle], foot of each leg), the foot and its
# step (state 0 planted / 1 stepping, start, end, progress 0..1), its gait group (0 or 1); the arrow keys'
# input; a replay's body centre for the coming step (px, used where "replayed" is 1); the rate limit
WALKER_FIELDS: FieldSpec = {
    "body": (2,), "velocity": (1,), "facing": (1,), "tilt": (1,),
    "hips": ("n", 2), "home": ("n",), "lengths": ("n", "m"), "angles": ("n", "m"), "points": ("(m+1)n", 2),
    "foot": ("n", 2), "state": ("n",), "step_from": ("n", 2), "step_to": ("n", 2), "progress": ("n",),
    "gait": ("n",), "drive": (1,), "run": (1,), "settled": (1,), "replay_body": (2,), "replayed": (1,),
    "rate": (1,),  # the rate limit on the legs' angles, rad/step (inf: off)
    **{cast(str, s.field): (1,) for s in field_settings("walker")},
}
# a rig (scene/step/rig_step.py, made by scene/build/rig_build.py): a tree of n bones (skeleton_tree's
# parents, whole numbers; bone 0 starts at the root) and k targets. Per bone its parent, length (px), the
# shown angles, the solver's last answer ("goal") and the rest pose the FK/IK mix blends toward (rad: bone
# 0's absolute, the others relative to their parent), its joint range (rad); "points" the root, then each
# bone's end (px). Per target its point (px), its bone, heading (rad; NaN: none), weight (> 0), FK/IK mix
# (0..1) and error (px). The method (0 FABRIK, 1 DLS), the rate limit (rad/step, inf: off), iterations and
# tolerance (px); per step the worst error (px), reached, the status code (STATUSES), iterations used and
# the microseconds of its solve (never saved). Its walk (scene/step/rig_walk.py): per target its gait group
# ("gait": 0 or 1 for a foot, -1 for any other target), its step as a walker's foot's (state 0 planted / 1
# stepping, start, end, progress 0..1) and "held" (1 while the mouse holds it); the way it faces and walks on its
# own (+-1), its velocity (px/step), the arrow keys' input, whether its feet stand on the ground, and a replay's
# shown angles for the coming step (rad, used where "replayed" is 1).
RIG_FIELDS: FieldSpec = {
    "parents": ("n",), "root": (2,), "lengths": ("n",), "angles": ("n",), "goal": ("n",), "rest": ("n",),
    "limits": ("n", 2), "points": ("n+1", 2),
    "targets": ("k", 2), "target_bones": ("k",), "headings": ("k",), "weights": ("k",), "mix": ("k",),
    "errors": ("k",),
    "method": (1,), "rate": (1,), "iterations": (1,), "tolerance": (1,),
    "error": (1,), "reached": (1,), "status": (1,), "used": (1,), "solve_us": (1,),
    "gait": ("k",), "state": ("k",), "step_from": ("k", 2), "step_to": ("k", 2), "progress": ("k",),
    "held": ("k",), "facing": (1,), "velocity": (1,), "drive": (1,), "run": (1,), "settled": (1,),
    "replay_angles": ("n",), "replayed": (1,),
    **{cast(str, s.field): (1,) for s in field_settings("rig")},
}
# a rope (scene/step/rope_step.py): its root (px), the target its end is tied to with "Pin end" on (px), bones
# (px), joints now and one step ago (Verlet, px), whether the mouse holds the target (1) and the settings' fields
ROPE_FIELDS: FieldSpec = {
    "root": (2,), "target": (2,), "lengths": ("n",), "points": ("n+1", 2), "previous": ("n+1", 2), "held": (1,),
    **{cast(str, s.field): (1,) for s in field_settings("rope")},
}
# a walker's or rig's appendages (scene/step/appendages.py), APPENDAGE_SLOTS of APPENDAGE_BONES bones at most: per
# appendage the rig bone it hangs from (a walker's: its body), where on it (px along it from its start, across it:
# + to its clockwise side), its rest direction from the parent's (rad), bone lengths (px, 0: no bone; all 0: no
# appendage), relative rest angles (rad), gravity (px/s^2 down the screen), and its joints now and a step ago (px)
APPENDAGE_FIELDS: FieldSpec = {
    "app_bone": (APPENDAGE_SLOTS,), "app_at": (APPENDAGE_SLOTS, 2), "app_angle": (APPENDAGE_SLOTS,),
    "app_lengths": (APPENDAGE_SLOTS, APPENDAGE_BONES), "app_rest": (APPENDAGE_SLOTS, APPENDAGE_BONES),
    "app_gravity": (APPENDAGE_SLOTS,), "app_points": (APPENDAGE_SLOTS, APPENDAGE_BONES + 1, 2),
    "app_previous": (APPENDAGE_SLOTS, APPENDAGE_BONES + 1, 2),
}
WALKER_FIELDS.update(APPENDAGE_FIELDS)
RIG_FIELDS.update(APPENDAGE_FIELDS)
# a path chain (scene/step/path_step.py): the four control points of its cubic Bezier curve (px), its root (px:
# control point 0, kept with it), bones (px of arc), joints (px) and the settings' fields ("start" px, "slide" px/s)
PATH_FIELDS: FieldSpec = {
    "control": (4, 2), "root": (2,), "lengths": ("n",), "points": ("n+1", 2),
    **{cast(str, s.field): (1,) for s in field_settings("path")},
}
SPECS: dict[str, FieldSpec] = {"snake": SNAKE_FIELDS, "walker": WALKER_FIELDS, "rig": RIG_FIELDS,
                               "rope": ROPE_FIELDS, "path": PATH_FIELDS}


def field_shapes(solver: str, n: int, m: int = 2) -> dict[str, tuple[int, ...]]:
    """Concrete array shapes of a chain's fields for ``n`` bones (a walker: ``n`` legs of ``m`` bones; a rig:
    ``n`` bones and ``m`` targets)."""
    spec = SPECS.get(solver, IK_FIELDS)
    size: dict[int | str, int] = {"n": n, "n+1": n + 1, "m": m, "k": m, "(m+1)n": (m + 1) * n}
    # every name in a shape is one of size's: the result holds only ints
    return {name: tuple(cast(int, size.get(d, d)) for d in shape) for name, shape in spec.items()}
