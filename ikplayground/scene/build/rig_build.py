"""Making rigs: skeletons of named bones with targets on chosen bones, and the humanoid and quadruped.

A rig's bones form a tree given by their parents (bone 0 starts at the root,
every other bone at the end of a bone before it), each bone's angle relative to
its parent's and bone 0's absolute: the skeletons of Spine and Godot
(docs/sources.md). The humanoid and the quadruped are drawn side on, facing
+x: elbows bend forward only, knees backward, as a body's; their feet carry
targets on the ground and the humanoid's hands targets free to drag.
Pixels, y down (an angle of pi/2 points down), radians.
"""

from __future__ import annotations

import math
import re
from typing import cast

import numpy as np

from ikplayground.scene.build import appendage_build
from ikplayground.scene.build.build_batch import empty_fields
from ikplayground.scene.core.chain import FULL, Chain, checked_rate
from ikplayground.scene.core.constants import (BONE_NAME_PATTERN, DEFAULT_ITERATIONS, DEFAULT_RATE_DEG,
                                               DEFAULT_TOLERANCE, MAX_BONES, MAX_COORD, MAX_RIG_TARGETS, RIG_METHODS)
from ikplayground.scene.core.joint_ranges import clamped
from ikplayground.scene.core.settings import field_settings
from ikplayground.scene.step.appendages import rest_pose
from ikplayground.scene.step.rig_step import bone_ends, lay_out
from ikplayground.scene.step.rig_walk import STEP, leg_length
from ikplayground.solvers import wrap_array

PI = math.pi
HUMANOID_HEIGHT = 300.0  # px: a new humanoid's height, hips to the top of its head plus its legs
QUADRUPED_LENGTH = 180.0  # px: a new quadruped's body, hips to shoulders


def _array(value, shape: tuple, name: str) -> np.ndarray:
    """``value`` as a finite float array of ``shape`` (NaN allowed nowhere), else ValueError naming it."""
    try:
        a = np.array(value, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name}: must be numbers of shape {shape} (got {value!r:.60})") from None
    if a.shape != shape:
        raise ValueError(f"{name}: must have shape {shape} (got {a.shape})")
    if not np.isfinite(a).all() or (np.abs(a) > MAX_COORD).any():
        raise ValueError(f"{name}: must be finite numbers within +-{MAX_COORD:g}")
    return a


def checked_limits(limits, n: int) -> np.ndarray:
    """Joint ranges (n, 2) rad, ``-pi <= lo <= hi <= pi`` (None: every joint free), else ValueError."""
    if limits is None:
        return np.tile(FULL, (n, 1))
    lim = _array(limits, (n, 2), "limits")
    if (lim[:, 0] > lim[:, 1]).any() or (lim < -PI).any() or (lim > PI).any():
        raise ValueError("limits: each (lo, hi) must have -pi <= lo <= hi <= pi rad")
    return lim


def make_rig(root, parents, angles, lengths, target_bones=(), targets=None, *, limits=None, headings=None,
             weights=None, mix=None, gait=None, names=None, rest=None, facing: float = 1.0, method: str = "fabrik",
             appendages=None,
             rate_limit: float | None = DEFAULT_RATE_DEG, rate_deg: float | None = None,
             iterations: int = DEFAULT_ITERATIONS, tolerance: float = DEFAULT_TOLERANCE, palette_index: int = 0,
             **settings) -> Chain:
    """A rig: ``n`` bones in a tree with ``k`` targets.

    Parameters
    ----------
    root : (2,) px
        Where bone 0 starts.
    parents : (n,) ints
        ``parents[0] == -1``, ``0 <= parents[i] < i`` (bone i starts at the end of bone ``parents[i]``).
    angles, lengths : (n,)
        Bone 0's absolute angle and the others' relative to their parent's, rad (wrapped, and put inside
        ``limits``); the bones' lengths, px > 0.
    target_bones : (k,) ints
        The bone each target pulls the end of (distinct); ``targets`` (k, 2) px (None: each bone's end).
    limits : (n, 2) rad or None
        Each angle's range (bone 0's on its absolute angle); None: every joint free.
    headings, weights, mix : (k,) or None
        A target's heading (rad, NaN: none; default none), weight (> 0, default 1) and FK/IK mix (0..1, default 1).
    gait : (k,) ints or None
        Which targets are feet, and their gait group: 0 or 1 for a foot, -1 for any other target (default: none
        is a foot). Feet step on the ground when the rig walks (:mod:`~ikplayground.scene.step.rig_walk`).
    names : n strings or None
        The bones' names, distinct, each 1 to 24 letters, digits, ``_``, ``.`` or ``-`` (default ``bone0``...).
    rest : (n,) rad or None
        The rest pose the mix blends toward (None: ``angles``); a walking foot's rest spot is where it ends in it.
    facing : float
        The way the rig faces and walks (> 0: +x, as drawn; else -x: a mirrored rig).
    method : {"fabrik", "dls"}
    appendages : list of dict or None
        Its jiggling tails and ears (:func:`.appendage_build.checked`), laid out in their rest pose.
    rate_limit, rate_deg, iterations, tolerance, palette_index
        As an IK chain's (``rate_limit`` None: off, ``rate_deg`` its setting then).
    **settings
        The walk's settings by field (``threshold``, ``step_height`` px, ``speed`` px/step, ``auto``: missing or
        None, the default) and the kept settings.

    Raises
    ------
    ValueError
        Naming the argument.
    """
    lengths = _array(lengths, (np.size(lengths),), "lengths")
    n = len(lengths)
    bones = np.array(target_bones, dtype=float).reshape(-1)
    k = len(bones)
    if not 1 <= n or n + k > MAX_BONES or k > MAX_RIG_TARGETS:
        raise ValueError(f"a rig has 1 or more bones and at most {MAX_RIG_TARGETS} targets, {MAX_BONES} bones "
                         f"and targets together (got {n} bones, {k} targets)")
    if (bones != np.round(bones)).any() or (bones < 0).any() or (bones >= n).any() or len(set(bones)) < k:
        raise ValueError(f"target_bones: must be distinct bones 0..{n - 1} (got {bones.tolist()})")
    if method not in RIG_METHODS:
        raise ValueError(f"method: must be one of {', '.join(RIG_METHODS)} (got {method!r})")
    lim = checked_limits(limits, n)
    pose = clamped(_array(angles, (n,), "angles"), lim)
    ends = np.asarray(bone_ends({"parents": np.asarray(parents), "root": _array(root, (2,), "root"),
                                 "lengths": lengths}, pose))  # checks parents and the reach (ValueError)
    names = tuple(f"bone{i}" for i in range(n)) if names is None else tuple(names)
    if len(names) != n or len(set(names)) != n:
        raise ValueError(f"names: must be {n} distinct names (got {len(names)})")
    for name in names:
        if not isinstance(name, str) or not re.match(BONE_NAME_PATTERN, name):
            raise ValueError(f"names: a bone's name is 1 to 24 letters, digits, _, . or - (got {name!r:.40})")
    hanging = appendage_build.checked(appendages, n)
    f = empty_fields("rig", n, k)
    appendage_build.put(f, hanging)
    f["parents"][:] = parents
    f["root"][:] = root
    f["lengths"][:] = lengths
    f["angles"][:] = pose
    f["goal"][:] = pose
    f["rest"][:] = pose if rest is None else clamped(_array(rest, (n,), "rest"), lim)
    f["limits"][:] = lim
    f["target_bones"][:] = bones
    f["targets"][:] = ends[bones.astype(int)] if targets is None else _array(targets, (k, 2), "targets")
    f["headings"][:] = np.nan if headings is None else np.array(headings, dtype=float).reshape(k)
    if np.isinf(f["headings"]).any() or (np.abs(np.nan_to_num(f["headings"])) > MAX_COORD).any():
        raise ValueError("headings: must be finite numbers of radians, or NaN for none")
    f["weights"][:] = 1.0 if weights is None else _array(weights, (k,), "weights")
    f["mix"][:] = 1.0 if mix is None else _array(mix, (k,), "mix")
    if (f["weights"] <= 0).any() or (f["mix"] < 0).any() or (f["mix"] > 1).any():
        raise ValueError("weights: must be > 0, and mix between 0 and 1")
    f["gait"][:] = -1.0 if gait is None else _array(gait, (k,), "gait")
    if not np.isin(f["gait"], (-1.0, 0.0, 1.0)).all():
        raise ValueError(f"gait: each must be 0 or 1 (a foot's gait group) or -1 (got {f['gait'].tolist()})")
    f["facing"][0] = 1.0 if facing > 0 else -1.0
    leg = leg_length(f["parents"], f["lengths"], f["target_bones"][f["gait"] >= 0])
    for s in field_settings("rig"):  # the walk's; a step's size by default a share of the legs' length
        field = cast(str, s.field)
        value = settings.pop(field, None)
        default = s.default if s.default is not None else max(STEP[field == "step_height"] * leg, s.lo)
        f[field][0] = default if value is None else s.field_type(value)
    f["method"][0] = RIG_METHODS.index(method)
    f["rate"][0] = math.inf if rate_limit is None else math.radians(checked_rate(rate_limit))
    f["iterations"][0] = int(iterations)
    f["tolerance"][0] = float(tolerance)
    lay_out(f)
    rest_pose({name: a[None] for name, a in f.items()})
    kept = rate_limit if rate_limit is not None else rate_deg if rate_deg is not None else DEFAULT_RATE_DEG
    chain = Chain("rig", f, palette_index=palette_index, rate_deg=kept, **settings)
    chain.bone_names = names
    return chain


def skeleton(table, scale: float) -> dict:
    """A bone table's rig arguments: rows ``(name, parent name or None, absolute angle, length share, range)``
    (range: bone 0's on its heading, the others' relative; None free), in tree order, lengths times ``scale``."""
    index = {row[0]: i for i, row in enumerate(table)}
    parents = [-1 if row[1] is None else index[row[1]] for row in table]
    heading = np.array([row[2] for row in table])
    angles = heading - np.array([0.0 if p < 0 else heading[p] for p in parents])
    return {"parents": parents, "angles": wrap_array(angles), "lengths": np.array([row[3] for row in table]) * scale,
            "limits": np.array([FULL if row[4] is None else row[4] for row in table], dtype=float),
            "names": tuple(index)}


DOWN, UP = PI / 2, -PI / 2
# side on, facing +x; shares of the height
HUMANOID = (
    ("hips", None, UP, 0.06, (UP - 0.35, UP + 0.35)),
    ("spine", "hips", UP + 0.04, 0.26, (-0.35, 0.35)),
    ("neck", "spine", UP + 0.1, 0.06, (-0.45, 0.45)),
    ("head", "neck", UP + 0.1, 0.1, (-0.5, 0.5)),
    ("upper_arm_l", "spine", DOWN + 0.25, 0.16, None),
    ("forearm_l", "upper_arm_l", DOWN - 0.2, 0.15, (-2.6, 0.0)),
    ("hand_l", "forearm_l", DOWN - 0.3, 0.06, (-0.9, 0.9)),
    ("upper_arm_r", "spine", DOWN - 0.1, 0.16, None),
    ("forearm_r", "upper_arm_r", DOWN - 0.6, 0.15, (-2.6, 0.0)),
    ("hand_r", "forearm_r", DOWN - 0.7, 0.06, (-0.9, 0.9)),
    ("thigh_l", "hips", DOWN + 0.05, 0.24, None),
    ("shin_l", "thigh_l", DOWN + 0.25, 0.23, (0.0, 2.5)),
    ("foot_l", "shin_l", 0.0, 0.08, (-2.4, -0.9)),
    ("thigh_r", "hips", DOWN - 0.3, 0.24, None),
    ("shin_r", "thigh_r", DOWN - 0.05, 0.23, (0.0, 2.5)),
    ("foot_r", "shin_r", 0.0, 0.08, (-2.4, -0.9)),
)
HUMANOID_HANDS, HUMANOID_FEET = ("hand_l", "hand_r"), ("foot_l", "foot_r")
# side on, facing +x; shares of the body's length (hips to shoulders)
_LEGS = tuple(row for side, lean in (("l", 0.0), ("r", 0.3)) for row in (
    (f"thigh_{side}", "pelvis", DOWN - 0.35 - lean, 0.38, (-1.0, 0.6)),
    (f"shin_{side}", f"thigh_{side}", DOWN + 0.45 - lean, 0.36, (0.1, 2.2)),
    (f"hind_paw_{side}", f"shin_{side}", DOWN - 0.1 - lean, 0.14, (-1.6, 0.0)),
    (f"upper_leg_{side}", "chest", DOWN + 0.15 + lean, 0.38, (PI / 2 - 0.8, PI / 2 + 0.8)),
    (f"foreleg_{side}", f"upper_leg_{side}", DOWN - 0.15 + lean, 0.36, (-2.2, 0.0)),
    (f"fore_paw_{side}", f"foreleg_{side}", DOWN + lean, 0.12, (-0.3, 1.2))))
QUADRUPED = (
    ("pelvis", None, DOWN, 0.12, (DOWN - 0.4, DOWN + 0.4)),
    ("spine", "pelvis", 0.0, 0.5, (-PI / 2 - 0.3, -PI / 2 + 0.3)),
    ("chest", "spine", 0.0, 0.5, (-0.25, 0.25)),
    ("neck", "chest", -0.9, 0.35, (-1.5, -0.3)),
    ("head", "neck", 0.2, 0.3, (0.4, 1.8)),
    *_LEGS,
    ("tail", "pelvis", -PI + 0.5, 0.25, (PI / 2 - 0.2, PI / 2 + 1.2)),
    ("tail_mid", "tail", -PI + 0.7, 0.22, (-0.6, 0.6)),
    ("tail_tip", "tail_mid", -PI + 0.9, 0.2, (-0.6, 0.6)),
)
QUADRUPED_FEET = ("hind_paw_l", "fore_paw_l", "hind_paw_r", "fore_paw_r")
QUADRUPED_GAIT = (0, 1, 1, 0)  # a trot: each hind paw steps with the fore paw of the other side
QUADRUPED_ITERATIONS = 50  # its walk moves four paws and the chest at once: from its last answer, 10 passes are few


def _standing(table, scale: float, feet, hands, root, standing_on, headings, gait, **kw) -> Chain:
    """A rig of ``table`` with targets on ``feet`` (in gait groups ``gait``) and ``hands``: its root at ``root``,
    or placed so that its lowest foot stands on ``standing_on`` (x under the root, ground y) with every foot
    target on that ground."""
    args = skeleton(table, scale)
    names = args["names"]
    bones = [names.index(b) for b in (*hands, *feet)]
    ends = skeleton_ends(args)
    foot = [names.index(b) for b in feet]
    if standing_on is not None:
        x, ground = float(standing_on[0]), float(standing_on[1])
        root = (x, ground - float(ends[foot, 1].max()))
    root = np.asarray(root, dtype=float)
    targets = ends[bones] + root
    if standing_on is not None:
        targets[len(hands):, 1] = ground
    heading = [math.nan] * len(hands) + [h for h in headings]
    return make_rig(root, targets=targets, target_bones=bones, headings=heading, gait=[-1] * len(hands) + list(gait),
                    **args, **kw)


def skeleton_ends(args: dict) -> np.ndarray:
    """The bone ends (n, 2) px of a skeleton's arguments (:func:`skeleton`) posed as given, from a root at 0."""
    return bone_ends({"parents": np.asarray(args["parents"]), "root": np.zeros(2), "lengths": args["lengths"]},
                     args["angles"])


def humanoid_rig(root=(0.0, 0.0), *, standing_on=None, height: float = HUMANOID_HEIGHT, **kw) -> Chain:
    """A standing figure side on (``HUMANOID``: hips as bone 0 at ``root``, spine, neck, head, two arms of upper
    arm, forearm and hand, two legs of thigh, shin and foot), ``height`` px tall; targets on both hands (free)
    and both feet (flat: heading 0; the feet in gait groups 0 and 1), a jiggling ponytail. ``standing_on``
    (x, ground y) px puts its feet on that ground instead. ``kw``: :func:`make_rig`'s settings."""
    head = [row[0] for row in HUMANOID].index("head")
    kw.setdefault("appendages", appendage_build.ponytail(head, HUMANOID[head][3] * height))
    return _standing(HUMANOID, height, HUMANOID_FEET, HUMANOID_HANDS, root, standing_on, (0.0, 0.0), (0, 1), **kw)


def quadruped_rig(root=(0.0, 0.0), *, standing_on=None, length: float = QUADRUPED_LENGTH, **kw) -> Chain:
    """A four-legged animal side on (``QUADRUPED``: pelvis as bone 0 at ``root``, spine and chest, neck and head,
    four legs of three bones, a tail of three; jiggling ears and a tuft on the tail), its body ``length`` px; a
    target on each paw, heading as the paw does standing (so a paw keeps its pose as it walks), in a trot's gait
    groups (:data:`QUADRUPED_GAIT`).
    ``standing_on`` (x, ground y) px puts its paws on that ground instead. ``kw``: :func:`make_rig`'s settings
    (``iterations`` :data:`QUADRUPED_ITERATIONS` unless given)."""
    kw.setdefault("iterations", QUADRUPED_ITERATIONS)
    names = [row[0] for row in QUADRUPED]
    head, tail = names.index("head"), names.index("tail_tip")
    kw.setdefault("appendages", appendage_build.ears_and_tail(head, QUADRUPED[head][3] * length, tail,
                                                              QUADRUPED[tail][3] * length))
    paws = tuple(row[2] for foot in QUADRUPED_FEET for row in QUADRUPED if row[0] == foot)
    return _standing(QUADRUPED, length, QUADRUPED_FEET, (), root, standing_on, paws, QUADRUPED_GAIT, **kw)


def rig_from(anchor, palette_index: int, settings: dict) -> Chain:
    """A default rig (a humanoid) with its hips at ``anchor`` (another chain converted to a rig)."""
    anchor = np.asarray(anchor, dtype=float)
    if not np.isfinite(anchor).all() or np.abs(anchor).max() > 1e6:
        anchor = np.zeros(2)
    return humanoid_rig(anchor, palette_index=palette_index, **settings)


def rig_line(chain: Chain) -> np.ndarray:
    """What another solver's chain made from a rig lies along (m, 2) px: its root, then the ends of the bones
    from bone 0 out to its first target's bone (the last bone without targets)."""
    f = chain.fields
    parents = f["parents"].astype(int)
    bone = int(f["target_bones"][0]) if len(f["target_bones"]) else len(parents) - 1
    path = [bone]
    while parents[path[-1]] >= 0:
        path.append(int(parents[path[-1]]))
    return np.vstack([f["root"][None], f["points"][np.array(path[::-1]) + 1]])
