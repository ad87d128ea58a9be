"""The per-chain settings, in one table: what the panel shows, what an edit sets, what the file keeps.

Each :class:`Setting` row gives a setting's name, label, unit, range, default,
solvers, how to read and set it (:mod:`.setting_puts`) and its scene-file
field; the panel, :meth:`~ikplayground.scene.core.scene.Scene.set_setting`,
the file and the F1 help all come from it. Adding a setting is one row here
plus the code that uses its value. A *kept* setting (no ``get`` / ``put``) is
an attribute of its name on the chain (``chain.show_limits``).
"""

from __future__ import annotations

import math

from ikplayground.scene.core.constants import (APPENDAGE_DAMPING, APPENDAGE_STIFFNESS, DEFAULT_DAMPING,
                                               DEFAULT_ITERATIONS, DEFAULT_JOINT_LIMIT_DEG, DEFAULT_RATE_DEG,
                                               DEFAULT_TOLERANCE, JIGGLE_DAMPING, JIGGLE_OFF, MAX_BONES, MAX_COORD,
                                               MAX_RATE_DEG, MAX_SLIDE, MAX_STRETCH, MAX_WALKER_LEGS, RIG_METHODS,
                                               ROPE_DAMPING, ROPE_GRAVITY, SNAKE_BEND_DEG, SNAKE_MAX_SPEED,
                                               SNAKE_TURN_DEG, SOLVERS, WALKER_LEGS, WALKER_SPEED, WALKER_STEP_HEIGHT,
                                               WALKER_THRESHOLD)
from ikplayground.scene.core.setting_puts import (bone_setter, current_bone, elbow_limited, field_setting, said_elbow,
                                                  set_bend_range, set_bone_length, set_current_bone_length,
                                                  set_elbow_limit, set_iterations, set_jiggle, set_joint_limit,
                                                  set_max_speed, set_method, set_mirror, set_motion, set_motion_speed,
                                                  set_path_start,
                                                  set_pole_on, set_rate, set_rate_on, set_target_aim, set_tolerance,
                                                  set_turn_rate, target_aimed, target_setter, target_value)
from ikplayground.scene.core.setting_row import Setting
from ikplayground.scene.core.solver_kinds import on_change
from ikplayground.scene.files import file_fields as ff
from ikplayground.scene.files import file_list_fields as fl
from ikplayground.scene.files.file_list_fields import Motion
from ikplayground.scene.step import target_paths as tm

RATED = ("ik", "rig", "snake", "walker")  # the kinds with a per-step rate limit (docs/design.md, "Time and ...")
RATE_OFF = ("snake", "walker")  # the kinds whose rate limit is off on a new chain and in a file without one
IK_SKINS = ("sprite", "capsules", "lines")  # how an IK chain's bones are drawn (the first: a new chain's)
SNAKE_SKINS = ("blocks", "body", "lines")  # how a snake is drawn
JIGGLED = ("ik", "snake")  # the kinds with jiggle bones as a setting (scene/step/jiggle_step.py)


SETTINGS: tuple[Setting, ...] = (
    Setting("rate_on", "Rate limit on", RATED, "flag", default=True, defaults=tuple((k, False) for k in RATE_OFF),
            help="cap how far any joint turns in one step (a snake's or walker's: off on a new one)",
            get=lambda c: c.rate_limit is not None, put=set_rate_on),  # in the file: rate_limit null is off
    Setting("rate", "Rate limit", RATED, lo=0.0, hi=MAX_RATE_DEG, positive=True, unit="°/step",
            default=DEFAULT_RATE_DEG, slider=(0.5, 30.0), needs="rate_on",
            help="how far any joint may turn in one step",
            get=lambda c: c.rate_deg, put=set_rate, file=ff.RateLimit(off=RATE_OFF)),
    Setting("mirror", "Mirror bend", ("two-bone",), "flag", default=False,
            help="bend the two-bone knee to the other side (M)",
            get=lambda c: c.mirror, put=set_mirror, file=ff.Flag("mirror")),
    Setting("auto_bend", "Auto bend", ("two-bone",), "flag", default=False,
            help="keep the knee on top as the target crosses the root (Mirror flips it)",
            field="auto_bend", field_type=bool),
    Setting("softness", "Softness", ("two-bone",), lo=0.0, hi=MAX_COORD, unit="px", slider=(0.0, 100.0), digits=0,
            default=0.0, help="ease the last pixels of reach instead of snapping straight",
            file=ff.Number("softness"), field="softness"),
    Setting("stretch", "Stretch", ("two-bone",), lo=1.0, hi=MAX_STRETCH, unit="×", slider=(1.0, 3.0), digits=2,
            default=1.0, help="the most the bones may lengthen to reach past full reach", field="stretch"),
    Setting("joint_limit", "Joint limit ±", ("iterative",), lo=0.0, hi=180.0, unit="°", digits=0,
            default=DEFAULT_JOINT_LIMIT_DEG, help="the range of every joint after the first, all at once",
            get=lambda c: c.joint_limit, put=set_joint_limit, file=fl.JointLimits()),
    Setting("elbow_limit", "Elbow limit", ("two-bone",), "flag", default=False,
            help="bend the elbow one way only, as a knee (drag its wedge's edges while the arm is selected)",
            get=elbow_limited, put=set_elbow_limit, file=fl.ElbowLimit(), says=said_elbow),
    Setting("bend_range", "Bend range ±", ("snake",), lo=0.0, hi=180.0, unit="°", digits=0,
            default=SNAKE_BEND_DEG, help="how far the snake bends at every joint",
            get=lambda c: math.degrees(float(abs(c.fields["bend_limits"]).max())), put=set_bend_range,
            file=fl.BendLimits()),
    Setting("bones", "Bones", ("iterative", "snake", "rope", "path"), "whole", lo=1, hi=MAX_BONES,
            help="the number of bones (a snake's segments)",
            get=lambda c: c.bones, put=lambda scene, chain, n: scene.with_bone_count(chain, n)),
    Setting("bone_length", "Bone length", ("all",), lo=1.0, hi=MAX_COORD, unit="px", digits=0,
            slider=(5.0, 200.0), help="the bones' mean length: setting it scales every bone, keeping their ratios",
            get=lambda c: float(c.fields["lengths"].mean()), put=set_bone_length),
    Setting("upper_length", "Upper length", ("two-bone",), lo=1.0, hi=MAX_COORD, unit="px", digits=0,
            slider=(5.0, 200.0), help="the upper bone's length (root to knee)",
            get=lambda c: float(c.fields["lengths"][0]), put=bone_setter(0)),
    Setting("lower_length", "Lower length", ("two-bone",), lo=1.0, hi=MAX_COORD, unit="px", digits=0,
            slider=(5.0, 200.0), help="the lower bone's length (knee to tip)",
            get=lambda c: float(c.fields["lengths"][1]), put=bone_setter(1)),
    Setting("method", "Method", ("rig",), "choice", choices=RIG_METHODS, default=RIG_METHODS[0],
            help="how the rig is solved: FABRIK with sub-bases where branches meet, or damped least squares",
            get=lambda c: RIG_METHODS[int(c.fields["method"][0])], put=set_method, file=ff.Choice("method")),
    Setting("iterations", "Iterations", ("iterative", "rig"), "whole", lo=1, hi=1000, slider=(1, 100),
            default=DEFAULT_ITERATIONS, help="CCD sweeps / FABRIK passes / DLS steps per step",
            get=lambda c: c.iterations, put=set_iterations, file=ff.Whole("iterations")),
    Setting("tolerance", "Tolerance", ("iterative", "rig"), lo=0.0, hi=MAX_COORD, unit="px", slider=(0.1, 10.0),
            default=DEFAULT_TOLERANCE, help="the distance from the target that counts as reached",
            get=lambda c: c.tolerance, put=set_tolerance, file=ff.Number("tolerance", digits=4)),
    Setting("damping", "Damping", ("dls",), lo=0.0, hi=100.0, slider=(0.0, 2.0), digits=2,
            default=DEFAULT_DAMPING, help="DLS: the damping is this times the error (more: steadier, slower)",
            field="damping"),
    Setting("mix", "Mix", ("ik",), lo=0.0, hi=1.0, digits=2, default=1.0,
            help="blend the rest pose (0: straight up) with the IK pose (1)", field="mix"),
    Setting("pole_on", "Pole", ("ik",), "flag", default=False,
            help="a handle that chooses the side the chain bends toward (drag the diamond)",
            get=lambda c: c.pole is not None, put=set_pole_on, file=fl.Pole()),
    Setting("motion", "Motion", ("ik",), "choice", choices=tm.PATHS, default=tm.PATHS[0],
            help="move the target by itself: bouncing off the stage's edges, or round a curve (drag it to take over)",
            get=lambda c: tm.PATHS[int(c.fields["motion"][0])], put=set_motion, file=Motion()),
    Setting("motion_speed", "Path speed", ("ik",), lo=0.0, hi=tm.MAX_SPEED, positive=True, unit="px/step",
            slider=(0.1, 10.0), default=tm.DEFAULT_SPEED, help="how fast the moving target goes along its path",
            get=lambda c: float(c.fields["motion_speed"][0]), put=set_motion_speed),
    Setting("motion_size", "Path size", ("ik",), lo=tm.MIN_SIZE, hi=tm.MAX_SIZE, unit="px",
            slider=(10.0, 300.0), digits=0, default=tm.DEFAULT_SIZE,
            help="the circle's radius, the figure-eight's half-width",
            **field_setting("motion_size")),  # the target path's (target_paths.py), not an option
    Setting("jiggle", "Jiggle stiffness", JIGGLED, digits=2, default=JIGGLE_OFF, field="jiggle",
            get=lambda c: float(c.fields["jiggle"][0]), put=set_jiggle,
            file=ff.Number("jiggle", digits=4, omit_default=True),
            help="jiggle bones' stiffness: how much of the way back to the solved pose each joint springs a step "
                 "(1: off, the pose as solved; lower: the bones lag, swing and settle)"),
    Setting("jiggle_damping", "Jiggle damping", JIGGLED, digits=2, default=JIGGLE_DAMPING, field="jiggle_damping",
            file=ff.Number("jiggle_damping", digits=4, omit_default=True),
            help="the share of each jiggling joint's speed lost a step (1: no swing)"),
    Setting("jiggle_gravity", "Jiggle gravity", JIGGLED, lo=-1e4, hi=1e4, unit="px/s²", slider=(-3000.0, 3000.0),
            digits=0, default=0.0, field="jiggle_gravity",
            file=ff.Number("jiggle_gravity", digits=4, omit_default=True),
            help="the pull down the screen on each jiggling joint (negative: up)"),
    Setting("max_speed", "Top speed", ("snake",), lo=0.0, hi=1000.0, unit="px/step", slider=(1.0, 30.0),
            default=SNAKE_MAX_SPEED, help="the snake's top speed (Up accelerates)",
            get=lambda c: float(c.fields["max_speed"][0]), put=set_max_speed, file=ff.Number("max_speed")),
    Setting("turn_rate", "Turn rate", ("snake",), lo=0.0, hi=180.0, unit="°/step", slider=(1.0, 20.0),
            default=SNAKE_TURN_DEG, help="how fast Left / Right turn the snake",
            get=lambda c: math.degrees(float(c.fields["turn_rate"][0])), put=set_turn_rate,
            file=ff.Number("turn_rate", kw="turn_deg", digits=4)),
    Setting("wander", "Wander", ("snake",), "flag", default=False,
            help="the snake steers itself around the stage (the arrow keys still drive the selected one)",
            field="wander", field_type=bool),
    Setting("pin_end", "Pin end", ("rope",), "flag", default=False, field="pin_end", field_type=bool,
            help="tie the rope's last joint to a target you can drag (off: it hangs free)"),
    Setting("gravity", "Gravity", ("rope",), lo=-1e4, hi=1e4, unit="px/s²", slider=(-3000.0, 3000.0), digits=0,
            default=ROPE_GRAVITY, help="the pull down the screen on every joint (negative: up)", field="gravity"),
    Setting("rope_damping", "Damping", ("rope",), digits=2, default=ROPE_DAMPING, field="damping", help="the share of "
            "each joint's speed lost a step (1: no swing)", file=ff.Number("damping", kw="damping", digits=4)),
    Setting("path_start", "Start", ("path",), lo=-MAX_COORD, hi=MAX_COORD, unit="px", slider=(-200.0, 800.0),
            digits=0, default=0.0, field="start", file=ff.Number("start", kw="start", digits=4),
            get=lambda c: float(c.fields["start"][0]), put=set_path_start,
            help="how far along the curve the chain's root sits (past either end: on along the end's tangent)"),
    Setting("slide", "Slide", ("path",), lo=-MAX_SLIDE, hi=MAX_SLIDE, unit="px/s", slider=(-200.0, 200.0), digits=0,
            default=0.0, field="slide", help="move Start by this much a second: the chain crawls along its curve"),
    Setting("legs", "Legs", ("walker",), "whole", lo=2, hi=MAX_WALKER_LEGS, default=WALKER_LEGS,
            help="the walker's legs (in two gait groups, alternate legs)",
            get=lambda c: c.bones, put=lambda scene, chain, n: scene.with_bone_count(chain, n),
            file=ff.Whole("legs")),
    Setting("leg_bones", "Leg bones", ("walker",), "whole", lo=2, hi=3, default=2,
            help="each leg's bones: two (the two-bone formula) or three (CCD, an insect's leg)",
            get=lambda c: c.fields["lengths"].shape[1], put=lambda scene, chain, m: scene.with_leg_bones(chain, m),
            file=ff.Whole("leg_bones", omit_default=True)),
    Setting("step_threshold", "Step threshold", ("walker",), lo=1.0, hi=1000.0, unit="px", slider=(8.0, 120.0),
            digits=0, default=WALKER_THRESHOLD, help="a planted foot this far from its rest spot steps",
            file=ff.Number("step_threshold", kw="threshold"), field="threshold"),
    Setting("step_height", "Step height", ("walker",), lo=0.0, hi=1000.0, unit="px", slider=(0.0, 100.0),
            digits=0, default=WALKER_STEP_HEIGHT, help="how high a stepping foot lifts",
            file=ff.Number("step_height"), field="step_height"),
    Setting("rig_step_threshold", "Step threshold", ("rig",), lo=1.0, hi=1000.0, unit="px", slider=(4.0, 120.0),
            digits=0, help="a planted foot this far from its rest spot steps (a new rig: 0.12 of its legs' length)",
            file=ff.Number("step_threshold", kw="threshold"), field="threshold"),
    Setting("rig_step_height", "Step height", ("rig",), lo=0.0, hi=1000.0, unit="px", slider=(0.0, 100.0),
            digits=0, help="how high a stepping foot lifts (a new rig: 0.11 of its legs' length)",
            file=ff.Number("step_height", kw="step_height"), field="step_height"),
    Setting("walk_speed", "Speed", ("walker", "rig"), lo=0.0, hi=100.0, unit="px/step", slider=(0.0, 8.0), digits=1,
            default=WALKER_SPEED, help="the walking speed (Left / Right walk, Up runs)",
            file=ff.Number("walk_speed", kw="speed"), field="speed"),
    Setting("auto_walk", "Auto walk", ("walker",), "flag", default=True,
            help="walk back and forth on its own when no arrow key drives it",
            file=ff.Flag("auto_walk", kw="auto"), field="auto", field_type=bool),
    Setting("rig_walk", "Auto walk", ("rig",), "flag", default=False,
            help="walk back and forth on its own, its feet stepping on the ground, when no arrow key drives it",
            file=ff.Flag("auto_walk", kw="auto", omit_default=True), field="auto", field_type=bool),
    Setting("appendages", "Appendages", ("walker", "rig"), "flag", default=True, field="app_on",
            field_type=bool, help="its tails, antennae and ears jiggle as it moves (off: not shown)"),
    Setting("app_stiffness", "Jiggle stiffness", ("walker", "rig"), digits=2, default=APPENDAGE_STIFFNESS,
            field="app_stiffness", needs="appendages",
            help="the share of the way back to their rest pose its appendages spring a step (1: rigid)"),
    Setting("app_damping", "Jiggle damping", ("walker", "rig"), digits=2, default=APPENDAGE_DAMPING,
            field="app_damping", needs="appendages",
            help="the share of its appendages' joints' speed lost a step (1: no swing)"),
    Setting("show_limits", "Show limits", ("iterative", "snake", "rig"), "flag", default=False,
            help="keep this chain's limit wedges drawn, with knobs on their edges to drag (a free joint's: one knob)",
            file=ff.Flag("show_limits", omit_default=True)),
    Setting("skin", "Skin", ("ik", "rig"), "choice", choices=IK_SKINS, default=IK_SKINS[0],
            help="how the bones look: the tutorial's bone sprite, capsules or plain lines",
            file=ff.Choice("skin")),
    Setting("target_weight", "Target weight", ("rig",), lo=0.0, hi=1000.0, positive=True, slider=(0.1, 5.0),
            digits=2, default=1.0, help="the last grabbed target's weight where targets conflict",
            get=target_value("weights", 1.0), put=target_setter("weights")),
    Setting("target_mix", "Target mix", ("rig",), lo=0.0, hi=1.0, digits=2, default=1.0,
            help="the last grabbed target's pull: 0 leaves its bone in the rest pose, 1 on the target",
            get=target_value("mix", 1.0), put=target_setter("mix")),
    Setting("target_aim", "Aim target", ("rig",), "flag", default=False,
            help="hold the last grabbed target's bone at a heading (drag the arrow to turn it)",
            get=target_aimed, put=set_target_aim),
    Setting("current_bone_length", "Bone (clicked)", ("rig",), lo=1.0, hi=MAX_COORD, unit="px", digits=0,
            slider=(2.0, 200.0), help="the length of the rig's bone clicked last",
            get=lambda c: float(c.fields["lengths"][current_bone(c)]), put=set_current_bone_length),
    Setting("snake_skin", "Skin", ("snake",), "choice", choices=SNAKE_SKINS, default=SNAKE_SKINS[0],
            help="how the snake looks: a block per node, a smooth body, or plain lines",
            file=ff.Choice("skin")),
)
BY_NAME: dict[str, Setting] = {s.name: s for s in SETTINGS}
KEPT_DEFAULTS: dict[str, object] = {s.name: s.default for s in SETTINGS if s.kept}
# per solver, the settings the file keeps, in a chain's line's order (made again on a registry change)
FILE_SETTINGS: dict[str, tuple[Setting, ...]] = {}


def _file_settings() -> None:
    FILE_SETTINGS.clear()
    FILE_SETTINGS.update({solver: tuple(s for s in SETTINGS if s.file is not None and s.applies(solver))
                          for solver in SOLVERS})


_file_settings()
on_change(_file_settings)


def field_settings(solver: str) -> tuple[Setting, ...]:
    """The rows of ``solver``'s chains held as they are in a one-number ``field`` of the chain."""
    return tuple(s for s in SETTINGS if s.field is not None and s.applies(solver))


def fill_fields(f: dict, rows: tuple[Setting, ...], col) -> None:
    """Set ``rows``' fields in a group's arrays ``f`` from ``col(field, None)``: the field's value for every row or
    a list of one a row (None: the default), a whole column at once where one value serves."""
    for s in rows:
        v = col(s.field)
        f[s.field][:, 0] = ([s.default if x is None else s.field_type(x) for x in v] if isinstance(v, list)
                            else s.default if v is None else s.field_type(v))


def setting(name: str) -> Setting:
    """The entry called ``name``; a ValueError naming the settings there are for any other name."""
    try:
        return BY_NAME[name]
    except (KeyError, TypeError):
        raise ValueError(f"setting: must be one of {', '.join(BY_NAME)} (got {name!r})") from None
