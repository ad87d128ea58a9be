"""What "Show the math" draws over secondary motion besides jiggle bones (:mod:`.jiggle_view`): ropes, path
chains and a walker's or rig's appendages, each joint's velocity and the pose it would rest in as a ghost.

A rope and an appendage are Verlet chains (Jakobsen, GDC 2001): a joint's velocity is where it is less where it
was a step ago (``previous``). A free rope comes to rest straight along its gravity from its root; one tied at both
ends is shown the catenary through them, an ideal rope's rest shape (this rope's position-based steps settle near
it, not on it: a few px off for a gentle sag, more for a steep one);
an appendage springs toward its rest angles. A path chain has no velocity of its own: its joints are laid on its
curve each step, so theirs is what one step moved them (:class:`StepMemory`). Pixels, y down; radians.
"""

from __future__ import annotations

import math
import weakref

import numpy as np

from ikplayground.insight.jiggle_view import LABEL_GAP, REST_FADE, velocity_arrows
from ikplayground.insight.primitives import Label, Polyline, Primitive
from ikplayground.scene import appendage_roots
from ikplayground.solvers import chain_points_batch

TAUT = 1e-6  # px: a rope no longer than the distance between its ends by more than this is pulled straight
SAG_SEARCH = 200  # bisection steps for a catenary's shape


def catenary_points(a: np.ndarray, b: np.ndarray, lengths: np.ndarray, down: float = 1.0) -> np.ndarray:
    """The joints (n + 1, 2) px of a chain of bones ``lengths`` (n,) px laid along the catenary from ``a`` (2,) to
    ``b`` (2,) px that sags toward ``down`` (+1: down the screen, -1: up) and is as long as the chain; on the
    straight line from ``a`` to ``b`` when the chain is no longer than it (taut, its end short of ``b``)."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    s = np.concatenate([[0.0], np.cumsum(lengths)])
    total = float(s[-1])
    span = float(np.hypot(*(b - a)))
    if total <= span + TAUT:
        d = (b - a) / span if span > 0.0 else np.zeros(2)
        return a + s[:, None] * d
    side = 1.0 if b[0] >= a[0] else -1.0
    h = max(abs(float(b[0] - a[0])), 1e-9)
    v = -down * float(b[1] - a[1])  # b's height above a, in a frame where the rope sags down
    ratio = math.sqrt(total * total - v * v) / h  # sinh(k) / k = ratio, k = h / (2 c)
    lo, hi = 1e-12, 1.0
    while math.sinh(hi) / hi < ratio:
        hi *= 2.0
    for _ in range(SAG_SEARCH):
        mid = 0.5 * (lo + hi)
        if math.sinh(mid) / mid < ratio:
            lo = mid
        else:
            hi = mid
    c = h / (2.0 * hi)  # the catenary's parameter, px
    vertex = h / 2.0 - c * math.atanh(v / total)  # its lowest point's x, from a
    s0 = c * math.sinh(-vertex / c)  # a's signed arc length from the vertex
    x = vertex + c * np.arcsinh((s0 + s) / c)
    y = c * (np.cosh((x - vertex) / c) - math.cosh(vertex / c))  # height above a
    return np.stack([a[0] + side * x, a[1] - down * y], axis=1)


def rope_rest(chain) -> tuple[np.ndarray | None, str]:
    """The pose (n + 1, 2) px a rope would hang still in, or None, and what it is, in words: straight along its
    gravity from its root, or (tied at both ends) the catenary through its root and target, an ideal rope's; None
    without gravity, where every shape is at rest once its swing is damped away."""
    f = chain.fields
    g = float(f["gravity"][0])
    lengths = np.array(f["lengths"], dtype=float)
    root = np.array(f["root"], dtype=float)
    if g == 0.0:
        return None, "no gravity: it rests in any shape"
    down = 1.0 if g > 0.0 else -1.0
    if f["pin_end"][0] > 0:
        return catenary_points(root, f["target"], lengths, down), "catenary: an ideal rope's rest"
    s = np.concatenate([[0.0], np.cumsum(lengths)])
    return root + s[:, None] * np.array((0.0, down)), "rest: hanging straight " + ("down" if down > 0 else "up")


def rest_label(points: np.ndarray, words: str) -> Label:
    """``words`` under the lowest of ``points`` (k, 2) px (role "ghost")."""
    low = points[int(np.argmax(points[:, 1]))]
    return Label(low + (0.0, 1.5 * LABEL_GAP), words, "ghost", fade=0.8)


def rope_view(chain) -> list:
    """A rope's rest pose as a dashed ghost with its words, and each joint's velocity arrow."""
    f = chain.fields
    rest, words = rope_rest(chain)
    points = np.array(f["points"], dtype=float)
    out: list[Primitive] = []
    if rest is not None:
        out.append(Polyline(rest, "ghost", width=2, dashed=True, fade=REST_FADE))
    out.append(rest_label(points if rest is None else np.vstack([rest, points]), words))
    return out + velocity_arrows(points, np.array(f["previous"], dtype=float))


def path_view(chain, previous) -> list:
    """A path chain's joints' velocity arrows: ``previous`` (n + 1, 2) px where its joints were a step ago (None:
    not known, no arrows). Its rest pose is where it lies: on its curve."""
    if previous is None:
        return []
    return velocity_arrows(np.array(chain.fields["points"], dtype=float), np.asarray(previous, dtype=float))


def appendage_rest(f) -> list:
    """Each appendage's rest pose (k + 1, 2) px for a walker's or rig's fields ``f``, its k bones of length > 0:
    from where it is pinned on its parent, along its rest angles (bone 0's from the parent's direction turned by
    ``app_angle``)."""
    root, heading = (v[0] for v in appendage_roots({k: np.asarray(v)[None] for k, v in f.items()}))
    out = []
    for r, h, lengths, rest in zip(root, heading, f["app_lengths"], f["app_rest"]):
        k = int((lengths > 0.0).sum())
        if k == 0:
            continue
        angles = np.array(rest[:k], dtype=float)
        angles[0] += h
        out.append(chain_points_batch(r[None], angles[None], np.asarray(lengths[:k], float)[None])[0])
    return out


def appendage_view(chain) -> list:
    """A walker's or rig's appendages (shown: "Appendages" on): each one's rest pose as a dashed ghost and its
    joints' velocity arrows, the fastest one's speed labelled. [] without appendages or with them off."""
    f = chain.fields
    if "app_lengths" not in f or not f["app_on"][0] > 0:
        return []
    used = f["app_lengths"][:, 0] > 0.0
    if not used.any():
        return []
    out: list[Primitive] = [Polyline(r, "ghost", width=2, dashed=True, fade=REST_FADE) for r in appendage_rest(f)]
    points = np.array(f["app_points"][used], dtype=float).reshape(-1, 2)
    return out + velocity_arrows(points, np.array(f["app_previous"][used], dtype=float).reshape(-1, 2))


def motion_words(chain) -> str:
    """The rule that moves ``chain``'s secondary motion and its settings, in one sentence ("" for none)."""
    f = chain.fields
    if chain.is_rope:
        ends = "Tied at both ends" if f["pin_end"][0] > 0 else "Hanging from its root"
        return (f"{ends}: gravity {float(f['gravity'][0]):.0f} px/s², damping {float(f['damping'][0]):.2f} a step; "
                "arrows: each joint's Verlet velocity, now less a step ago.")
    if chain.is_path:
        return f"Sliding {float(f['slide'][0]):.0f} px/s along it; arrows: how far a step moved each joint."
    if "jiggle" in f and f["jiggle"][0] < 1.0:
        return (f"Jiggle bones (Verlet): stiffness {float(f['jiggle'][0]):.2f}, damping "
                f"{float(f['jiggle_damping'][0]):.2f}, gravity {float(f['jiggle_gravity'][0]):.0f} px/s²; "
                "ghost: the pose they spring toward.")
    if "app_lengths" in f and bool((f["app_lengths"][:, 0] > 0.0).any()):
        if not f["app_on"][0] > 0:
            return "Appendages off: held in their rest pose, not drawn."
        return (f"Appendages jiggle (Verlet): stiffness {float(f['app_stiffness'][0]):.2f}, damping "
                f"{float(f['app_damping'][0]):.2f}; ghost: their rest pose.")
    return ""


class StepMemory:
    """The selected chain's joints one step ago, for a kind that keeps no ``previous`` (a path chain): call
    :meth:`record` after each step."""

    def __init__(self):
        self._chain = None  # a weak reference to the chain recorded
        self._before: np.ndarray | None = None  # its points a step before the last step
        self._now: np.ndarray | None = None  # and after it

    def record(self, chain) -> None:
        """Remember ``chain``'s points after a step (and those after the step before, if it is the same chain)."""
        points = np.array(chain.fields["points"], dtype=float)
        same = self._chain is not None and self._chain() is chain and self._now is not None \
            and self._now.shape == points.shape
        self._before = self._now if same else None
        self._now = points
        self._chain = weakref.ref(chain)

    def previous(self, chain) -> np.ndarray | None:
        """``chain``'s points a step ago, or None: another chain, not yet two steps, or moved since the last step
        (an edit while paused)."""
        if self._chain is None or self._chain() is not chain or self._before is None or self._now is None:
            return None
        if not np.array_equal(self._now, chain.fields["points"]):
            return None
        return self._before
