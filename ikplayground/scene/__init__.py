"""The scene: the model of the playground, with no window (no pygame); this is its front door.

Subpackages: ``core`` (chains, groups, settings, the scene, stage, hit tests,
mirror), ``step`` (one 1/60 s step), ``build`` (chains, groups, stress scene,
presets), ``edit`` (undo), ``files`` (the scene file), ``record`` (recording,
replay, baking). Pixels with y down and radians below the UI (docs/design.md).
"""

from ikplayground.scene.build.build import default_limits, make_ik_chain, refresh_ik_points, straight_snake
from ikplayground.scene.build.presets import PRESETS, available_presets, is_preset, load_preset
from ikplayground.scene.build.rig_build import humanoid_rig, make_rig, quadruped_rig
from ikplayground.scene.build.stress import drive_stress, stress_scene
from ikplayground.scene.core.chain import STATUSES, Chain, clamped_joints, is_reached
from ikplayground.scene.core.hit_test import bone_distances
from ikplayground.scene.core.joint_ranges import limit_edge, range_text, settable, tree_parents
from ikplayground.scene.step.appendages import roots as appendage_roots
from ikplayground.scene.step.rig_step import bone_starts
from ikplayground.scene.step.rope_step import shown_points as rope_points
from ikplayground.scene.core.setting_puts import current_bone, current_target
from ikplayground.scene.core.constants import (DEFAULT_ITERATIONS, DEFAULT_RATE_DEG, DEFAULT_TOLERANCE, IK_SOLVERS,
                                               MAX_COORD, PALETTE_SIZE, RIG_METHODS, SOLVER_LABELS, SOLVERS,
                                               VIEW_ZOOM)
from ikplayground.scene.core.mirror import axis_name
from ikplayground.scene.core.obstacles import (DEFAULT_RADIUS, MAX_OBSTACLES, MAX_RADIUS, MIN_RADIUS,
                                                  checked_obstacles)
from ikplayground.scene.build.presets import default_scene
from ikplayground.scene.core.scene import MAX_CHAINS, STEP, Scene, SceneFull
from ikplayground.scene.core.settings import BY_NAME as SETTINGS_BY_NAME
from ikplayground.scene.core.settings import SETTINGS, Setting, setting
from ikplayground.scene.core.solver_kinds import SOLVER_KINDS, SOLVER_TABLE, SolverKind, register, unregister
from ikplayground.scene.edit.moves import pose, record_move, record_pose
from ikplayground.scene.edit.history import Edit, History, Refused
from ikplayground.scene.edit.obstacle_edits import ObstaclesEdited, record_obstacles
from ikplayground.scene.files.atomic_write import free_name, nothing_at
from ikplayground.scene.files.file_errors import shown, shown_name
from ikplayground.scene.files.scene_file import SceneFileError, chain_to_dict, load_scene, save_scene
from ikplayground.scene.record.animation import FORMAT as ANIMATION_FORMAT
from ikplayground.scene.step.terrain import Terrain
from ikplayground.scene.step.pacing import MAX_STEPS_PER_FRAME, due_steps, smoothed, steps_allowed
from ikplayground.scene.step.rig_walk import on_terrain
from ikplayground.scene.record.bake import bake_recording, load_animation
from ikplayground.scene.record.recording import Recorder, RecordingError
from ikplayground.scene.record.replay import Replay
from ikplayground.scene.record.timeline_frames import STEPS_PER_SECOND, ChainLine, Frames, load_frames
from ikplayground.scene.record.spine_export import Exported as SpineExported
from ikplayground.scene.record.spine_export import export_spine

__all__ = [
    "ANIMATION_FORMAT", "Chain", "DEFAULT_ITERATIONS", "DEFAULT_RATE_DEG", "DEFAULT_TOLERANCE", "Edit", "History",
    "IK_SOLVERS", "MAX_CHAINS", "MAX_COORD", "MAX_STEPS_PER_FRAME", "PALETTE_SIZE", "PRESETS", "RIG_METHODS",
    "Recorder", "RecordingError", "Refused", "Replay", "SETTINGS", "SETTINGS_BY_NAME", "SOLVERS", "SOLVER_KINDS",
    "SOLVER_LABELS", "SOLVER_TABLE", "STATUSES", "STEP", "Scene", "SceneFileError", "SceneFull", "Setting",
    "SolverKind", "Terrain", "VIEW_ZOOM", "available_presets", "axis_name", "bake_recording", "bone_distances",
    "bone_starts", "chain_to_dict", "clamped_joints", "current_bone", "current_target", "default_limits",
    "default_scene", "drive_stress", "due_steps", "free_name", "humanoid_rig", "is_preset", "is_reached",
    "limit_edge", "load_animation", "load_preset", "load_scene", "make_ik_chain", "make_rig", "nothing_at",
    "on_terrain", "pose", "quadruped_rig", "range_text", "record_move", "record_pose", "refresh_ik_points",
    "register", "rope_points", "save_scene", "setting", "settable", "shown", "shown_name", "smoothed", "steps_allowed",
    "straight_snake", "stress_scene", "tree_parents", "unregister",
    # circle obstacles (x, y, r) px: the scene's Scene.obstacles, their bounds and checks, their undo entry
    "DEFAULT_RADIUS", "MAX_OBSTACLES", "MAX_RADIUS", "MIN_RADIUS", "ObstaclesEdited", "checked_obstacles",
    "record_obstacles",
    # where a walker's or rig's appendages are pinned and the direction their rest poses hang from (the Math page's)
    "appendage_roots",
    # a recording read whole for the timeline (the Keep page): its poses by step
    "ChainLine", "Frames", "STEPS_PER_SECOND", "load_frames",
    # a recording as a Spine 4.x skeleton JSON (docs/spine-export.md)
    "SpineExported", "export_spine",
]
