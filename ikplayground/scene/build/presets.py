"""The preset scenes: the built-in default (:func:`default_scene`) and the scene files in ``assets/scenes/``.

A preset is an ordinary scene file made by ``scripts/make_presets.py``, found
through the package; loading one never changes the user's scene file.
"""

from __future__ import annotations

import math

import numpy as np

from ikplayground.resources import asset_path
from ikplayground.scene.build import build
from ikplayground.scene.core.constants import SNAKE_SEGMENT
from ikplayground.scene.core.scene import Scene
from ikplayground.scene.files import scene_file

# name -> what it shows, in the menu's order
PRESETS: dict[str, str] = {
    "default": "the opening scene: one chain of each solver and a snake, targets gently moving",
    "seeds": "the four tutorials side by side, with their own constants",
    "tentacles": "CCD, FABRIK and DLS tentacles under limits, targets on figure-eights",
    "snakes": "several snakes: the selected one is yours, the others wander",
    "spider": "a procedural walker on hills and steps",
    "humanoid": "a standing figure (a rig): drag a hand and the spine and feet hold their targets; arrows walk it",
    "quadruped": "a four-legged animal with a tail (a rig), its paws on the ground; the arrow keys walk it",
    "crowd": "5,000 chains on scripted paths (the stress test as a scene)",
    "springs": "secondary motion: a spider's antennae, a snake's jiggling tail, ropes to drag, a tentacle on a path",
}


def available_presets() -> list[str]:
    """The presets whose files ship with this copy, in the menu's order."""
    out = []
    for name in PRESETS:
        try:
            asset_path(f"scenes/{name}.json")
        except FileNotFoundError:
            continue
        out.append(name)
    return out


def is_preset(name: str) -> bool:
    """Whether ``name`` (a plain name, not a path) names a shipped preset."""
    return name in PRESETS and name in available_presets()


def load_preset(name: str, stage=(980.0, 720.0)) -> Scene:
    """The preset ``name`` as a new scene; :class:`~.files.SceneFileError` if it is not one (or its file is bad)."""
    if not is_preset(name):
        there = ", ".join(available_presets()) or "none"
        raise scene_file.SceneFileError(f"{name}: no such preset (there are {there})")
    return scene_file.load_scene(asset_path(f"scenes/{name}.json"), stage)


def default_scene(stage=(980.0, 720.0)) -> Scene:
    """One chain of each solver; the CCD, FABRIK and DLS ones alike (7 bones, +-45 degrees), side by side."""
    scene = Scene(stage)
    w, h = scene.stage
    arm = build.make_ik_chain("two-bone", (w * 0.13, h * 0.62), (-math.pi / 3, math.pi / 2), (120.0, 100.0),
                              (w * 0.23, h * 0.38))
    up = np.r_[-math.pi / 2, np.zeros(6)]
    tentacles = [build.make_ik_chain(solver, (w * x, h * 0.95), up, np.full(7, 36.0), (w * (x + 0.07), h * 0.64))
                 for solver, x in (("ccd", 0.38), ("fabrik", 0.58), ("dls", 0.78))]
    snake = build.straight_snake((w * 0.60, h * 0.16), 0.0, nodes=10, segment=SNAKE_SEGMENT)
    scene.add_in_turn((arm, *tentacles, snake))
    scene.select(arm)
    return scene
