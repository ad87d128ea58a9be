"""The arrow keys' input: which snake, walker or rig they drive, written into the groups' arrays.

The driven chain is the selected walker or rig, else the selected or only
snake, else the only walker, else the only rig; a snake's input is its
``throttle``, ``turn`` and ``steered`` (the Flash snake tutorial's Up and Left
/ Right), a walker's or rig's its ``drive`` and ``run``. Every other one gets none.
"""

from __future__ import annotations

import numpy as np

from ikplayground.scene.core.chain import Chain
from ikplayground.scene.step import walker


def driven(groups, selected: Chain | None, solver: str = "snake") -> Chain | None:
    """The ``solver`` chain ("snake", "walker" or "rig") the arrow keys drive: ``selected``, else the only one of the
    scene's ``groups``, or None (counted by group: a crowd's thousands are not looked at one by one)."""
    if selected is not None and selected.solver == solver:
        return selected
    found = [g.members for g in groups if g.solver == solver]
    return found[0][0] if len(found) == 1 and len(found[0]) == 1 else None


def steer(groups, selected: Chain | None, throttle: bool, turn: int) -> Chain | None:
    """Set the arrow keys' input on the driven snake, walker or rig, none on the others; returns it (or None)."""
    strider: Chain | None = None
    if selected is not None and (selected.is_walker or selected.is_rig):
        snake, strider = None, selected
    else:
        snake = driven(groups, selected)
        strider = None if snake is not None else driven(groups, None, "walker")
        if snake is None and strider is None:
            strider = driven(groups, None, "rig")
    walker.steer(groups, strider, turn, throttle)
    for g in groups:  # one array write per group of snakes, not a loop over chains
        if g.solver == "snake":
            for name in ("throttle", "turn", "steered"):
                g.fields[name][:] = 0.0
    if snake is not None:
        snake.fields["throttle"][0] = 1.0 if throttle else 0.0
        snake.fields["turn"][0] = float(np.sign(turn))
        snake.fields["steered"][0] = float(bool(throttle or turn))
    return snake if snake is not None else strider
