"""What a crowd (:mod:`.crowd_draw`) shows of each group: the joints that get dots, the targets, and its walkers'
appendages (antennae) as strokes, drawn (numpy or compiled, the same pixels) as an arm's bones are, 3 px wide in
their walker's colour. A crowd's rigs are drawn one by one, their tails and ears with them (``rig_draw``). Px, y
down."""

from __future__ import annotations

import numpy as np


def shown_targets(f: dict) -> np.ndarray:
    """The targets (k, 2) px a group's fields ``f`` show: every chain's, a rope group's pinned ones only, a path
    group's first control points (where its curves start)."""
    if "control" in f:
        return f["control"][:, 0]
    return f["target"] if "pin_end" not in f else f["target"][f["pin_end"][:, 0] > 0]


def joints(group) -> np.ndarray:
    """The points (N, J, 2) px that get a joint dot: a snake's head, an IK chain's joints past its root."""
    pts = group.fields["points"]
    return pts[:, :1] if group.solver == "snake" else pts[:, 1:]


def split(groups, colours) -> tuple[list, list]:
    """The groups of ``groups`` the crowd layer draws (neither walkers nor rigs, not empty) and the strokes of
    :func:`appendage_strokes`."""
    drawn = [g for g in groups if g.solver not in ("walker", "rig") and len(g.members)]
    return drawn, appendage_strokes(groups, colours)


def appendage_strokes(groups, colours) -> list[tuple[np.ndarray, np.ndarray]]:
    """The shown appendages of the walker groups of ``groups`` (their fields as the screen shows them), a group at a
    time: ``[(points (M, K, 2) px, palette indices (M,))]``, M appendages with "Appendages" on and a first bone,
    joints up to the last bone any of them has; ``colours(group)``: its members' palette indices (N,)."""
    out = []
    for g in groups:
        if g.solver != "walker":
            continue
        f = g.fields
        if "app_lengths" not in f:
            continue
        lengths = f["app_lengths"]
        used = (lengths[:, :, 0] > 0.0) & (f["app_on"][:, :1] > 0.0)
        if not used.any():
            continue
        rows, _ = np.nonzero(used)
        k = int(np.flatnonzero((lengths[used] > 0.0).any(axis=0))[-1]) + 1  # bones past it are 0 px long
        points = np.ascontiguousarray(f["app_points"][used][:, :k + 1], np.float64)
        out.append((points, np.ascontiguousarray(colours(g)[rows], np.int64)))
    return out
