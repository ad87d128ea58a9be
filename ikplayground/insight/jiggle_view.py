"""What "Show the math" draws over a chain with jiggle bones on: each joint's velocity and the rest pose.

Verlet integration (Jakobsen, "Advanced Character Physics", GDC 2001) keeps a joint's velocity implicit: where
it is less where it was a step ago, px a step. The rest pose is the pose the chain's step gave it (an IK chain's
solved, rate-limited angles; a snake's body after its head), which the jiggle springs toward
(:mod:`ikplayground.scene.step.jiggle_step`). Pixels, y down; radians.
"""

from __future__ import annotations

import math

import numpy as np

from ikplayground.insight.primitives import Label, Polyline, Primitive
from ikplayground.solvers import chain_points_batch

ARROW_STEPS = 4.0  # a velocity arrow is this many steps of its joint's velocity long
ARROW_MIN = 0.05  # px/step: a slower joint has no arrow
HEAD_PX = 5.0  # px: an arrowhead's sides
HEAD_TURN = math.radians(150.0)  # rad: an arrowhead's side from the arrow's direction
REST_FADE = 0.45  # the rest pose's ghost
LABEL_GAP = 12.0  # px: the fastest joint's speed label beyond its arrow


def jiggling(chain) -> bool:
    """Whether ``chain`` has jiggle bones on (an IK chain or a snake with "Jiggle" below 1)."""
    f = chain.fields
    return "jiggle" in f and bool(f["jiggle"][0] < 1.0)


def rest_pose_points(chain) -> np.ndarray:
    """The joints (n + 1, 2) px of the pose ``chain``'s jiggle springs toward: a snake's un-jiggled body, an IK
    chain's forward kinematics of its ``angles`` (bones scaled by ``scale``)."""
    f = chain.fields
    if chain.is_snake:
        return np.array(f["rest_points"], dtype=float)
    lengths = f["lengths"] * f["scale"][0]
    return chain_points_batch(f["root"][None], f["angles"][None], lengths[None])[0]


def velocity_arrows(points: np.ndarray, previous: np.ndarray) -> list:
    """An arrow (role "velocity") from each joint of ``points`` (n + 1, 2) px along its velocity ``points -
    previous`` (px/step, ``ARROW_STEPS`` steps of it long), and the fastest one's speed as a label."""
    v = points - previous
    speed = np.hypot(v[:, 0], v[:, 1])
    out: list[Primitive] = []
    for p, d, s in zip(points, v, speed.tolist()):
        if s < ARROW_MIN:
            continue
        tip = p + ARROW_STEPS * d
        heading = math.atan2(d[1], d[0])
        sides = [tip + HEAD_PX * np.array((math.cos(heading + t), math.sin(heading + t))) for t in (HEAD_TURN,
                                                                                                  -HEAD_TURN)]
        out.append(Polyline(np.stack([p, tip]), "velocity", width=2))
        out.append(Polyline(np.stack([sides[0], tip, sides[1]]), "velocity", width=2))
    if out:
        k = int(np.argmax(speed))
        d = v[k] / speed[k]
        at = points[k] + ARROW_STEPS * v[k] + LABEL_GAP * d
        out.append(Label(at, f"{speed[k]:.1f} px/step", "velocity"))
    return out


def jiggle_view(chain) -> list:
    """The rest pose as a dashed faint polyline (role "ghost") and each joint's velocity arrow; [] without jiggle."""
    if not jiggling(chain):
        return []
    f = chain.fields
    rest = rest_pose_points(chain)
    return [Polyline(rest, "ghost", width=2, dashed=True, fade=REST_FADE),
            *velocity_arrows(np.array(f["points"], dtype=float), np.array(f["previous"], dtype=float))]
