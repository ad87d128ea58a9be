"""What the mouse holds: a chain's target, pole or root, grabbed at an offset. Pixels, y down."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ikplayground.app.draw.badges import POLE_RADIUS
from ikplayground.app.draw.render import TARGET_RADIUS
from ikplayground.scene import Chain, Scene
from ikplayground.scene.step import target_paths

PICK_RADIUS = 10  # px from a bone or joint that picks its chain


class Drag(NamedTuple):
    """A chain's part held by the mouse."""

    chain: Chain
    part: str  # "target", "pole" or "root"
    offset: np.ndarray  # (2,) px from the mouse to the grabbed point

    def onto(self, new: Chain) -> Drag | None:
        """The same hold on ``new``, which replaced the held chain (None when an IK chain became a snake)."""
        if not new.is_ik and self.chain.is_ik:
            return None
        return self._replace(chain=new)

    def move(self, scene: Scene, pos) -> bool:
        """Move the held part to keep its offset from ``pos``; False when the chain has left the scene."""
        if self.chain not in scene.chains:
            return False
        goal = np.asarray(pos, dtype=float) + self.offset
        if self.part in ("target", "pole"):
            scene.move_target(self.chain, goal, self.part)
        else:
            scene.move_chain(self.chain, goal)
        return True


def pole_at(scene: Scene, pos, radius: float) -> Chain | None:
    """The topmost chain whose pole lies within ``radius`` px of ``pos``."""
    for chain in reversed(scene.chains):
        pole = chain.pole
        if pole is not None and np.hypot(*(pole - pos)) <= radius:
            return chain
    return None


def grab(scene: Scene, pos, target_radius: float, scale: float = 1.0) -> tuple[Chain | None, Drag | None]:
    """What a left press at ``pos`` (scene px) takes: (the chain to select or None, the drag or None); the topmost
    target, else pole handle, else root (a snake: any node). ``scale``: screen px per scene px (the pole's and
    bones' pick radii are screen px)."""
    chain = scene.target_at(pos, target_radius)
    if chain is not None:
        return chain, Drag(chain, "target", np.asarray(chain.fields["target"]) - pos)
    chain = pole_at(scene, pos, (POLE_RADIUS + 4) / scale)
    if chain is not None:
        return chain, Drag(chain, "pole", chain.pole - pos)
    hit = scene.chain_at(pos, PICK_RADIUS / scale)
    if hit is None:
        return None, None
    chain, part = hit
    return chain, (Drag(chain, "root", chain.anchor - pos) if part == "anchor" else None)


def handed_over(old: Drag | None, new: Drag | None) -> Drag | None:
    """``new`` in place of ``old``: ``old``'s target is let go (its motion resumes), ``new``'s held (a rig's
    ``"target:2"`` too: a walking rig leaves it where the mouse puts it)."""
    if old is not None and old.part.partition(":")[0] == "target":
        target_paths.hold(old.chain.fields, False, int(old.part.partition(":")[2] or 0))
    if new is not None and new.part.partition(":")[0] == "target":
        target_paths.hold(new.chain.fields, True, int(new.part.partition(":")[2] or 0))
    return new


def press(app, pos) -> None:
    """Left button down at ``pos`` (screen px) on ``app``'s stage: grab a target, a pole or a root, or select a
    chain (pick radii in screen px); on the status line: open or close the message log."""
    if app.status_rect.collidepoint(pos):
        app.apply("messages")
        return
    if not app.on_stage(pos):
        return
    zoom = app.view.camera.zoom
    chain, drag = grab(app.scene, app.world(pos), (TARGET_RADIUS + 2) / zoom, scale=zoom)
    app.drag = app.replay.allowed(drag)
    if chain is not None:
        app.scene.select(chain)
        app.panel.sync(chain)


def hot_target(app):
    """The target under ``app``'s mouse (or dragged), drawn highlighted."""
    if app.drag is not None and app.drag.part == "target":
        return app.drag.chain
    on_stage = app.mouse is not None and app.on_stage(app.mouse)
    if not on_stage:
        return None
    return app.scene.target_at(app.world(app.mouse), (TARGET_RADIUS + 2) / app.view.camera.zoom)
