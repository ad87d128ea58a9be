"""The solver lists (the registry's, :mod:`.solver_kinds`) and the numbers the settings, builders and file share.

Nothing else of the scene is imported, so that every module can use them.
Sources: the pygame CCD tutorial (the rate limit), the Flash snake tutorial
(the snake's numbers); docs/sources.md.
"""

from __future__ import annotations

from ikplayground.scene.core.solver_kinds import IK_SOLVERS, ITERATIVE, SOLVER_LABELS, SOLVERS  # noqa: F401
from ikplayground.solvers import DEFAULT_DAMPING  # noqa: F401 (the DLS damping a new chain gets)

DEFAULT_RATE_DEG = 3.0  # the pygame CCD tutorial: +-3 degrees per frame
MAX_RATE_DEG = 180.0  # a larger rate limit is no limit (and the scene file refuses it)
DEFAULT_JOINT_LIMIT_DEG = 45.0
DEFAULT_ITERATIONS = 10  # CCD sweeps / FABRIK passes / DLS steps per step
MAX_STRETCH = 10.0  # two-bone: the largest bone scale a chain may have
DEFAULT_TOLERANCE = 0.5  # px: the tip this close to the target is reached
SNAKE_SEGMENT = 40.0  # the Flash snake tutorial
SNAKE_BEND_DEG = 30.0  # the Flash snake tutorial
SNAKE_MAX_SPEED = 10.0  # the Flash snake tutorial: px per step
SNAKE_TURN_DEG = 5.0  # the Flash snake tutorial: degrees per step
SNAKE_ACCEL = 1.0  # the Flash snake tutorial: px per step per step
SNAKE_DECAY = 0.8  # the Flash snake tutorial: speed factor per step without throttle
MAX_BONES = 64
DEFAULT_IK_BONES = 7  # a new CCD or FABRIK chain, and one made from a two-bone arm
MAX_COORD = 1_000_000.0  # |position|, length and |angle| limit of a scene file (pixels / degrees)
VIEW_ZOOM = (0.05, 8.0)  # the view's zoom range (screen px per scene px): the App's camera and a file's "view"
PALETTE_SIZE = 8  # chain colours: Chain.palette_index is an index into the renderer's palette of this many
WALKER_LEGS = 6  # a new walker's legs (its "bones"); 2..8
MAX_WALKER_LEGS = 8
WALKER_THRESHOLD = 36.0  # px: a planted foot this far from its rest spot steps
WALKER_STEP_HEIGHT = 28.0  # px: how high a stepping foot lifts
WALKER_SPEED = 2.0  # px per step: walking speed
WALKER_LEG = (70.0, 80.0)  # px: a new walker's thigh and shin
RIG_METHODS = ("fabrik", "dls")  # a rig's solve: its "method" field is the index
MAX_RIG_TARGETS = 16  # a rig's targets at most
BONE_NAME_PATTERN = "^[A-Za-z0-9_.-]{1,24}$"  # a rig's bone's name: 1 to 24 letters, digits, "_", "." or "-"
ROPE_BONES = 12  # a new rope's bones
ROPE_SEGMENT = 20.0  # px: a new rope's bone length
ROPE_GRAVITY = 900.0  # px/s^2 down the screen (issue 28's hanging test)
ROPE_DAMPING = 0.05  # the share of each joint's velocity removed a step (issue 28's hanging test)
ROPE_PASSES = 8  # a pinned rope's FABRIK-style length passes a step (Jakobsen 2001: a few relaxation sweeps)
APPENDAGE_SLOTS = 3  # a walker's or rig's jiggling appendages (tails, antennae, ears) at most
APPENDAGE_BONES = 6  # bones an appendage at most (a shorter one's last lengths are 0)
APPENDAGE_STIFFNESS = 0.12  # a new walker's or rig's appendages' jiggle stiffness (the share pulled to rest a step)
APPENDAGE_DAMPING = 0.1  # and damping (the share of each joint's speed lost a step)
PATH_BONES = 10  # a new path chain's bones
PATH_SEGMENT = 24.0  # px: a new path chain's bone length (its arc along the curve)
MAX_SLIDE = 1000.0  # px/s: a path chain's slide along its curve at most, either way
JIGGLE_OFF = 1.0  # a chain's "Jiggle" stiffness at which it does not jiggle: its pose exactly as solved
JIGGLE_DAMPING = 0.15  # a new chain's jiggle damping: the share of each joint's velocity removed a step
