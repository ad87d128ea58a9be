"""Making chains: constructors for each solver and conversions between solvers.

A conversion keeps the chain where it is on screen: the new chain's joints lie
along the old one's polyline (same anchor, tip side and reach). The one-chain
constructors are :mod:`.build_batch`'s (re-exported here) with one entry.
"""

from __future__ import annotations

import math

import numpy as np

from ikplayground.scene.build import path_build, rig_build, rope_build, walker_build
from ikplayground.scene.build.build_batch import (default_limits, empty_fields, ik_group, make_ik_chains,  # noqa: F401
                                                  make_snakes, refresh_ik_points, straight_points, wander_phase)
from ikplayground.scene.core.chain import Chain
from ikplayground.scene.core.constants import (DEFAULT_IK_BONES, DEFAULT_RATE_DEG, PATH_BONES, PATH_SEGMENT,
                                               ROPE_BONES, SNAKE_BEND_DEG, SNAKE_SEGMENT)
from ikplayground.scene.core.stage import clamp_point, keep_on_stage
from ikplayground.scene.step import path_step, rig_step, rope_step
from ikplayground.solvers import wrap_array
from ikplayground.solvers import snake_batch


def make_ik_chain(solver, root, angles, lengths, target, *, rate_limit=DEFAULT_RATE_DEG, **kw) -> Chain:
    """A two-bone, CCD, FABRIK or DLS chain: :func:`~.build_batch.make_ik_chains` of one.

    ``root``, ``target`` (2,) px; ``angles`` (n,) rad, relative; ``lengths`` (n,) px; ``rate_limit`` degrees
    per step (> 0, <= 180, else ValueError) or None (off). ``kw``: ``limits`` ((n, 2) rad; None: +-``joint_limit``
    past the root), ``mirror``, ``iterations``, ``tolerance`` (px), ``palette_index``, ``rate_deg``,
    ``joint_limit`` (degrees), ``preferred_bones``, the options of :mod:`~.ik_options` and the kept settings.
    """
    kw.update(solver=solver, root=root, angles=angles, lengths=lengths, target=target, rate_limit=rate_limit)
    return ik_group(solver, len(lengths), [kw])[1][0]


def make_snake(points, **kw) -> Chain:
    """A snake from its nodes (``points[0]`` the head): :func:`~.build_batch.make_snakes` of one.

    ``lengths`` default to the nodes' distances, ``heading`` (rad) to node 1 -> head; ``bend_limits`` (rad)
    overrides ``bend_deg``; also ``max_speed``, ``turn_deg``, ``wander``, ``rate_limit`` (degrees per step, or
    None: off, the default), ``rate_deg``, ``palette_index``, kept settings.
    """
    return make_snakes([dict(kw, points=points)])[0]


def relay_snake(f: dict[str, np.ndarray]) -> None:
    """Drag a snake's body after its head again, in place (its lengths and bend range as they are now)."""
    pts = f["points"]
    lim = f["bend_limits"]
    pts[:] = snake_batch(pts[None], pts[None, 0], f["lengths"][None], lim[None, 0], lim[None, 1])[0]
    f["previous"][:] = f["rest_points"][:] = pts  # a jiggling snake at rest on its body


def lay_out(chain: Chain) -> None:
    """After an edit of a chain's lengths or limits, lay its joints out again, in place (a snake after its head, a
    rope from its root)."""
    if chain.is_snake:
        relay_snake(chain.fields)
    elif chain.is_walker:
        walker_build.lay_out(chain.fields)
    elif chain.is_rig:
        rig_step.lay_out(chain.fields)
    elif chain.is_rope:
        rope_step.settle(chain.fields)
    elif chain.is_path:
        path_step.settle(chain.fields)
    else:
        refresh_ik_points(chain.fields)


def straight_snake(head, heading, nodes=10, segment=SNAKE_SEGMENT, **kw) -> Chain:
    """A straight snake of ``nodes`` nodes whose head is at ``head`` facing ``heading``."""
    pts = straight_points([head], [heading], nodes, [segment])[0]
    return make_snake(pts, lengths=np.full(nodes - 1, segment), heading=heading, **kw)


def resample(polyline: np.ndarray, count: int) -> np.ndarray:
    """``count + 1`` points evenly spaced by arc length along a polyline (ends kept)."""
    seg = np.linalg.norm(np.diff(polyline, axis=0), axis=1)
    s = np.concatenate([[0.0], np.cumsum(seg)])
    if s[-1] <= 0:
        return np.repeat(polyline[:1], count + 1, axis=0)
    u = np.linspace(0.0, s[-1], count + 1)
    return np.stack([np.interp(u, s, polyline[:, 0]), np.interp(u, s, polyline[:, 1])], axis=1)


def angles_of(points: np.ndarray, fallback: float = -math.pi / 2) -> np.ndarray:
    """Relative joint angles (radians) of the polyline ``points`` (shape (n+1, 2))."""
    d = np.diff(points, axis=0)
    absolute = np.arctan2(d[:, 1], d[:, 0])
    zero = (d[:, 0] == 0) & (d[:, 1] == 0)
    if zero.any():
        absolute = np.where(zero, fallback, absolute)
    rel = np.diff(absolute, prepend=0.0)
    return wrap_array(rel)


def polyline(chain: Chain) -> np.ndarray:
    """The chain's joints from anchor to tip (a snake is read tail to head; a walker: its body, straight up; a rig:
    from its root out to its first target's bone)."""
    if chain.is_walker:
        return walker_build.walker_line(chain)
    if chain.is_rig:
        return rig_build.rig_line(chain)
    pts = chain.fields["points"]
    if chain.is_path and not np.array_equal(pts[0], chain.anchor):  # from its anchor, the curve's start, too
        return np.vstack([chain.anchor, pts])
    return pts[::-1].copy() if chain.is_snake else pts.copy()


def converted(chain: Chain, solver: str, bones: int | None = None) -> Chain:
    """A chain of ``solver`` lying where ``chain`` lies on screen, its settings kept (``bones``: a CCD/FABRIK count)."""
    common = {"palette_index": chain.palette_index, **chain.settings()}
    if solver == "walker":  # a default walker where the chain is anchored
        return walker_build.walker_from(chain.anchor, chain.palette_index, chain.settings())
    if solver == "rig":  # a default rig (a humanoid) with its hips at the anchor, the kept settings kept
        return rig_build.rig_from(chain.anchor, chain.palette_index, {**chain.options, "rate_deg": chain.rate_deg})
    line = polyline(chain)
    if solver == "rope":
        return rope_build.rope_from(line, bones or (chain.bones if chain.is_rope else ROPE_BONES), **common)
    if solver == "path":
        return path_build.path_from(line, bones or (chain.bones if chain.is_path else PATH_BONES), **common)
    reach = float(np.sum(np.linalg.norm(np.diff(line, axis=0), axis=1))) or 1.0
    if solver == "snake":
        n = max(1, min(63, round(reach / SNAKE_SEGMENT))) if bones is None else bones
        lengths = np.full(n, reach / n)
        r = math.radians(SNAKE_BEND_DEG)
        # unbent into the (symmetric) bend range from the anchor: the tail stays put
        along = resample(line, n)
        along = snake_batch(along[None], along[None, 0], lengths[None], np.array([-r]), np.array([r]))[0]
        return make_snake(along[::-1], lengths=lengths, **common)
    target = chain.fields["target"].copy() if chain.is_ik else chain.tip.copy() if chain.is_rig else line[-1].copy()
    rate = chain.rate_limit if chain.has_targets else chain.rate_deg
    extra = {"rate_limit": rate, **chain.ik_options()}
    if chain.has_targets:
        extra.update(iterations=chain.iterations, tolerance=chain.tolerance, mirror=chain.mirror)
    if solver == "two-bone":
        n = 2
        pts = resample(line, 2)
        # the knee goes where the old chain's midpoint was, so the tip stays put
        pts[1] = _knee_for(line[0], line[-1], reach / 2, pts[1])
    else:
        n = bones if bones is not None else chain.preferred_bones
        common["preferred_bones"] = n
        pts = resample(line, n)
    lengths = np.full(n, reach / n)
    return make_ik_chain(solver, line[0], angles_of(pts), lengths, target, **extra, **common)


def _knee_for(root, tip, half, hint):
    """Knee of two equal bones of length ``half`` from root to tip, on ``hint``'s side."""
    d = tip - root
    dist = float(np.hypot(*d))
    if dist <= 0:
        return root + np.array((0.0, -half))
    dist_c = min(dist, 2 * half)
    mid = root + d / dist * dist_c / 2
    h = math.sqrt(max(half * half - (dist_c / 2) ** 2, 0.0))
    normal = np.array((-d[1], d[0])) / dist
    side = 1.0 if np.dot(hint - mid, normal) >= 0 else -1.0
    return mid + side * h * normal


def with_bone_count(chain: Chain, n: int) -> Chain:
    """The same chain with ``n`` bones (the first kept, new ones straight on); ``n`` becomes its preferred count."""
    settings = {**chain.settings(), "preferred_bones": n}
    if chain.is_walker:
        return walker_build.make_walker(chain.fields["body"].copy(), legs=walker_build.leg_count(n),
                                        **walker_build.walker_kw(chain), **chain.settings())
    if chain.is_rope:
        return rope_build.with_bones(chain, n, settings)
    if chain.is_path:
        return path_build.with_bones(chain, n, settings)
    if chain.is_snake:
        pts = chain.fields["points"]
        seg = float(chain.fields["lengths"][-1])
        if n < chain.bones:
            new = pts[: n + 1].copy()
        else:
            d = pts[-1] - pts[-2]
            u = d / (np.hypot(*d) or 1.0)
            extra = pts[-1] + np.arange(1, n - chain.bones + 1)[:, None] * seg * u
            new = np.concatenate([pts, extra])
        lim = chain.fields["bend_limits"].copy()
        return make_snake(new, heading=float(chain.fields["heading"][0]), bend_limits=lim,
                          rate_limit=chain.rate_limit, max_speed=float(chain.fields["max_speed"][0]),
                          turn_deg=math.degrees(float(chain.fields["turn_rate"][0])), palette_index=chain.palette_index,
                          **settings)
    f = chain.fields
    keep = min(n, chain.bones)
    angles = np.zeros(n)
    angles[:keep] = f["angles"][:keep]
    lengths = np.full(n, float(f["lengths"][-1]))
    lengths[:keep] = f["lengths"][:keep]
    limits = default_limits(chain.solver, n, chain.joint_limit)
    limits[:keep] = f["limits"][:keep]
    return make_ik_chain(chain.solver, f["root"], angles, lengths, f["target"], limits=limits,
                         mirror=chain.mirror, rate_limit=chain.rate_limit, iterations=chain.iterations,
                         tolerance=chain.tolerance, palette_index=chain.palette_index, **chain.ik_options(),
                         **settings)


def new_chain(solver: str, at, stage, terrain, palette_index: int = 0) -> Chain:
    """A new chain of the playground's defaults for ``solver``, anchored at ``at`` (2,) px on ``stage``."""
    x, y = float(at[0]), float(at[1])
    if solver == "snake":
        w, h = stage
        heading = math.atan2(y - h / 2, x - w / 2) if (x, y) != (w / 2, h / 2) else 0.0
        return straight_snake((x, y), heading, palette_index=palette_index)
    if solver == "rope":  # hanging from there at rest, its end's target on the stage
        chain = rope_build.new_rope((x, y), palette_index=palette_index)
        chain.fields["target"][:] = clamp_point(chain.fields["target"], stage)
        return chain
    if solver == "path":  # its curve toward the side with room for it, its control points on the stage
        facing = -1.0 if x + PATH_BONES * PATH_SEGMENT > stage[0] and x > stage[0] / 2 else 1.0
        chain = path_build.new_path((x, y), palette_index=palette_index, facing=facing)
        keep_on_stage(chain, stage)
        return chain
    if solver == "walker":  # its first step stands it on the ground
        return walker_build.make_walker((x, float(terrain.height_at(x)) - 70.0), palette_index=palette_index)
    if solver == "rig":  # a humanoid with its hips there, its feet where they hang (on the stage)
        chain = rig_build.humanoid_rig((x, y), height=min(rig_build.HUMANOID_HEIGHT, 0.6 * stage[1]),
                                       palette_index=palette_index)
        keep_on_stage(chain, stage)
        return chain
    n = 2 if solver == "two-bone" else DEFAULT_IK_BONES
    lengths = [110.0, 90.0] if solver == "two-bone" else [36.0] * n
    angles = np.zeros(n)
    angles[0] = -math.pi / 2
    if solver == "two-bone":
        angles[:] = (-math.pi / 3, math.pi / 2)
    chain = make_ik_chain(solver, (x, y), angles, lengths, (0, 0), palette_index=palette_index)
    chain.fields["target"][:] = clamp_point(chain.fields["points"][-1] + (40.0, -20.0), stage)
    refresh_ik_points(chain.fields)
    return chain
