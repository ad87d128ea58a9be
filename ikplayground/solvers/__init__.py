"""Pure 2-D inverse kinematics on numpy arrays: no pygame, no state, no printing.

Pixels (y down), radians, relative joint angles (docs/design.md). The solver API (the first part of
``__all__``) validates its inputs (``ValueError`` naming the argument) and never mutates them; the
rest serves the playground's own packages: the unvalidated batch engines (float64 arrays of the
documented shapes), their helpers and constants. Importing starts no thread and compiles nothing.

>>> from ikplayground.solvers import solve_two_bone
>>> sol = solve_two_bone((0, 0), (150, 0), 100, 100)
>>> bool(sol.reached)
True
"""

from . import jit
from ._batch_parts import SMALL_BATCH, limit_headings
from .batch_api import follow_snake_batch, solve_ccd_batch, solve_dls_batch, solve_fabrik_batch, solve_jacobian_batch
from .batched import JIT_MIN_BATCH, ccd_batch, fabrik_batch, snake_batch
from .ccd import ccd_steps, solve_ccd
from .dls import DEFAULT_DAMPING, MAX_STEP, escape, joint_bounds
from .dls_batch import dls_batch, jacobian_batch
from .fabrik import fabrik_steps, solve_fabrik
from .jacobian import solve_dls, solve_jacobian
from .jacobian_steps import METHODS
from .jiggle import jiggle_rows, jiggle_step
from .rope import lay_out, pin_ends
from .kinematics import chain_points, chain_points_batch, forward_kinematics
from .look_at import look_at
from .obstacles import obstacle_rows, segment_gaps
from .pole import ON_LINE, mirrored_toward_batch
from .reshape import RESTARTS
from .results import (DIRECTIONS, HEADING_TOLERANCE, STALL_GAIN, STALL_SWEEPS, STATUSES, CCDStep,
                      FabrikStep, IKSolution, TwoBoneSolution, chain_problem)
from .settle import clear_moves, rate_limited, settle_batch, tip_error
from .skeleton_solve import solve_skeleton
from .skeleton_tree import SkeletonSolution, absolute_angles, skeleton_points
from .snake import follow_snake
from .spline_path import along_path, path_rows
from .two_bone import pole_bend, soft_reach, solve_two_bone
from .two_bone_arrays import two_bone_arrays
from .validate import FULL_CIRCLE, clamp_angle, wrap, wrap_array

__all__ = [
    # the solver API (docs/design.md, "The solver API"): validated, stable
    "forward_kinematics", "solve_two_bone", "solve_ccd", "solve_fabrik", "solve_dls", "solve_jacobian", "follow_snake",
    "solve_ccd_batch", "solve_fabrik_batch", "solve_dls_batch", "solve_jacobian_batch", "follow_snake_batch",
    "ccd_steps", "fabrik_steps", "METHODS",
    "CCDStep", "FabrikStep", "clamp_angle", "FULL_CIRCLE", "TwoBoneSolution", "IKSolution",
    "solve_skeleton", "skeleton_points", "SkeletonSolution", "look_at", "HEADING_TOLERANCE",
    "jiggle_step", "along_path",
    # what the playground's scene, insight views, scripts and tests build on: the unvalidated batch engines
    # (float64 arrays of the documented shapes, px and rad), their helpers and the solvers' constants
    "ccd_batch", "fabrik_batch", "dls_batch", "jacobian_batch", "snake_batch", "two_bone_arrays", "chain_points",
    "chain_points_batch",
    "mirrored_toward_batch", "limit_headings", "pole_bend", "soft_reach", "chain_problem", "escape", "joint_bounds",
    "wrap", "wrap_array", "jit", "DEFAULT_DAMPING", "MAX_STEP", "ON_LINE", "STATUSES", "DIRECTIONS", "STALL_SWEEPS",
    "STALL_GAIN", "RESTARTS", "SMALL_BATCH", "JIT_MIN_BATCH", "rate_limited", "settle_batch", "tip_error",
    "absolute_angles",
    # circle obstacles (x, y, r) px: their rows checked, a bone's gap to each, a frame's move held clear of them
    "obstacle_rows", "segment_gaps", "clear_moves",
    # secondary motion's engines (checked float64 arrays with a leading N axis)
    "jiggle_rows", "path_rows", "pin_ends", "lay_out",
]
