"""The obstacles' side of the App: O and the "Add obstacle" button add one, Delete over one removes it.

A press inside an obstacle moves it and one on its rim resizes it (``drag.py``'s :class:`~..drag.ObstacleDrag`,
recorded by ``undo.py`` as one entry a hold); the adds and removals here are one undo entry each too. The scene
keeps them (:class:`ikplayground.scene.core.obstacles.ObstacleEdits`); docs/design.md, "Obstacles".
"""

from __future__ import annotations

from ikplayground.app.drag import obstacle_under
from ikplayground.scene import record_obstacles


def record(app, label: str, before) -> None:
    """Record the obstacle edit ``label`` from ``before`` (k, 3) to the scene's obstacles now, for undo."""
    if app.undo.recording:
        app.undo.record(record_obstacles(app.scene, label, before))


def add(app, value=None) -> None:
    """O (or the button): an obstacle of the default radius at the mouse on the stage, else at a free spot."""
    on_stage = app.mouse is not None and app.on_stage(app.mouse)
    before = app.scene.obstacles
    try:
        index = app.scene.add_obstacle(app.world(app.mouse) if on_stage else None)
    except ValueError as e:  # the scene holds as many as it may
        app.say(f"Not added: {e}", error=True)
        return
    record(app, f"obstacle {index + 1} added", before)
    x, y, r = app.scene.obstacles[index].tolist()
    app.say(f"Added obstacle {index + 1} at ({x:.0f}, {y:.0f}), radius {r:.0f} px: drag it to move it, its rim to "
            "resize it; Delete over it removes it")


def obstacle_first(remove):
    """The command ``remove`` (Delete's), first removing the obstacle under the mouse if there is one."""
    def run(app, value=None):
        hit = obstacle_under(app)
        if hit is None:
            return remove(app, value)
        app.drag = None  # a hold ends first (its edit is recorded before this one)
        before = app.scene.obstacles
        app.scene.remove_obstacle(hit[0])
        record(app, f"obstacle {hit[0] + 1} removed", before)
        app.say(f"Removed obstacle {hit[0] + 1} (Ctrl+Z puts it back)")
        return None
    return run
