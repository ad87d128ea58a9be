"""Undoable obstacle edits: an add, a move, a resize or a removal of the scene's circles, as one entry.

The scene's obstacles are one read-only ``(k, 3)`` array of rows ``(x, y, r)`` px that every edit replaces
(:mod:`ikplayground.scene.core.obstacles`), so an entry keeps the arrays before and after and puts one back
whole: the same as the command pattern's snapshot (memento) of an editor's undo.
"""

from __future__ import annotations

import numpy as np

from ikplayground.scene.core.scene import Scene
from ikplayground.scene.edit.history import Edit


class ObstaclesEdited(Edit):
    """The scene's obstacles went from ``before`` to ``after`` (k, 3) px; undo and redo put either back (onto
    the stage as it is now) and select nothing."""

    def __init__(self, scene: Scene, label: str, before: np.ndarray, after: np.ndarray):
        super().__init__(label)
        self.scene, self.before, self.after = scene, before, after

    def _put(self, rows: np.ndarray) -> None:
        self.scene.set_obstacles(rows)
        self.scene.fit_obstacles()  # the stage may have shrunk since
        return None

    def undo(self):
        return self._put(self.before)

    def redo(self):
        return self._put(self.after)


def record_obstacles(scene: Scene, label: str, before: np.ndarray) -> ObstaclesEdited | None:
    """The edit ``label`` that took ``scene``'s obstacles from ``before`` to what they are now; None if nothing
    changed."""
    after = scene.obstacles
    if np.array_equal(before, after):
        return None
    return ObstaclesEdited(scene, label, before, after)
