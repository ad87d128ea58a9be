"""What the mouse holds: a chain's target, pole or root, or an obstacle (moved, or resized by its rim), grabbed at an
offset. Pixels, y down."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ikplayground.app.draw.badges import POLE_RADIUS
from ikplayground.app.draw.render import TARGET_RADIUS, WEDGE_RADIUS
from ikplayground.app.draw.rig_draw import HEADING_ARROW, HEADING_PICK
from ikplayground.app.draw.shapes import knobs, limit_edge_at
from ikplayground.scene import Chain, Scene, bone_distances, limit_edge, range_text
from ikplayground.scene.step import target_paths

PICK_RADIUS = 10  # px from a bone or joint that picks its chain
RIM_PICK = 6  # px either side of an obstacle's rim that pick the rim (to resize it) rather than its inside
HOVER_CHAINS = 200  # a lit obstacle is checked for a chain over it (a loop over the chains) up to this many


class Drag(NamedTuple):
    """A chain's part held by the mouse."""

    chain: Chain
    # "target", "pole", "root"; a rig's target "target:2", its heading "heading:2"; a range's edge "limit_lo:3";
    # a path chain's control point "control:1"
    part: str
    offset: np.ndarray  # (2,) px from the mouse to the grabbed point

    @property
    def said(self) -> str | None:
        """What the status line says while it is held: a joint's range (an edge of it held), else None."""
        edge = limit_edge(self.chain, self.part)
        return None if edge is None else range_text(self.chain, edge[0])

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
        if self.part != "root":
            scene.move_target(self.chain, goal, self.part)
        else:
            scene.move_chain(self.chain, goal)
        return True


class ObstacleDrag(NamedTuple):
    """An obstacle held by the mouse: its ``row``, ``part`` "obstacle" (held inside: moved) or "obstacle_rim" (held by
    its rim: resized), and ``offset``: (2,) px from the mouse to its centre, or (1,) px its radius exceeds the
    mouse's distance from the centre. It holds no chain."""

    row: int
    part: str
    offset: np.ndarray
    chain: None = None
    said: None = None  # nothing for the status line while held (a chain's :attr:`Drag.said`)

    def onto(self, new: Chain) -> ObstacleDrag:
        return self

    def move(self, scene: Scene, pos) -> bool:
        """Move or resize the held obstacle for the mouse at ``pos``; False when it has left the scene."""
        if self.row >= len(scene.obstacles):
            return False
        pos = np.asarray(pos, dtype=float)
        if self.part == "obstacle":
            scene.move_obstacle(self.row, pos + self.offset)
        else:
            centre = scene.obstacles[self.row, :2]
            scene.resize_obstacle(self.row, float(np.hypot(*(pos - centre))) + float(self.offset[0]))
        return True


Hold = Drag | ObstacleDrag  # what App.drag holds


def obstacle_grab(scene: Scene, pos, rim: float) -> ObstacleDrag | None:
    """The hold a press at ``pos`` (scene px) takes of the topmost obstacle there (``rim`` px: its rim's band)."""
    hit = scene.obstacle_at(pos, rim)
    if hit is None:
        return None
    index, where = hit
    x, y, r = scene.obstacles[index].tolist()
    if where == "rim":
        return ObstacleDrag(index, "obstacle_rim", np.array([r - float(np.hypot(pos[0] - x, pos[1] - y))]))
    return ObstacleDrag(index, "obstacle", np.array([x, y]) - pos)


def pole_at(scene: Scene, pos, radius: float) -> Chain | None:
    """The topmost chain whose pole lies within ``radius`` px of ``pos``."""
    for chain in reversed(scene.chains):
        pole = chain.pole
        if pole is not None and np.hypot(*(pole - pos)) <= radius:
            return chain
    return None


def grab(scene: Scene, pos, target_radius: float, scale: float = 1.0) -> tuple[Chain | None, Drag | None]:
    """What a left press at ``pos`` (scene px) takes: (the chain to select or None, the drag or None); the topmost
    rig heading's arrow tip, else target, else knob on an edge of a joint's range (:func:`knob_at`), else pole
    handle, else root (a snake: any node). ``scale``: screen px per scene px (the pick radii are screen px)."""
    hit = heading_at(scene, pos, HEADING_ARROW / scale, (HEADING_PICK + 2) / scale)
    if hit is not None:  # a heading's arrow tip: turned about its target, held where the mouse is
        return hit[0], Drag(hit[0], hit[1], np.zeros(2))
    chain, part = target_hit(scene, pos, target_radius)
    if chain is not None:
        return chain, Drag(chain, part, target_point(chain, part) - pos)
    hit = knob_at(scene, pos, WEDGE_RADIUS / scale, (HEADING_PICK + 2) / scale)
    if hit is not None:  # an edge of a joint's range: turned about the joint
        return hit[0], Drag(hit[0], hit[1], np.zeros(2))
    chain = pole_at(scene, pos, (POLE_RADIUS + 4) / scale)
    if chain is not None:
        return chain, Drag(chain, "pole", chain.pole - pos)
    hit = scene.chain_at(pos, PICK_RADIUS / scale)
    if hit is None:
        return None, None
    chain, part = hit
    return chain, (Drag(chain, "root", chain.anchor - pos) if part == "anchor" else None)


def knob_at(scene: Scene, pos, radius: float, pick: float) -> tuple[Chain, str] | None:
    """The topmost chain with a knob on its wedges (``shapes.knobs``: "Show limits" on, or the selected rig or
    two-bone arm) within ``pick`` px of ``pos``, and which edge (``"limit_lo:3"``), or None."""
    selected = scene.selected
    for chain in reversed(scene.chains):
        if chain.show_limits or chain is selected:
            edge = limit_edge_at(knobs(chain, chain is selected), pos, radius, pick)
            if edge is not None:
                return chain, edge
    return None


def target_hit(scene: Scene, pos, radius: float) -> tuple[Chain | None, str]:
    """The topmost chain or rig with a target (or path chain with a control point) within ``radius`` px of ``pos``,
    and which ("target", a rig's "target:2", a path chain's "control:1"); ``(None, "target")`` when there is none."""
    chain, rig = scene.target_at(pos, radius), scene.rig_target_at(pos, radius)
    if rig is not None and (chain is None or scene.chains.index(rig[0]) > scene.chains.index(chain)):
        return rig
    return chain, "target"


def heading_at(scene: Scene, pos, length: float, radius: float) -> tuple[Chain, str] | None:
    """The topmost rig with a heading arrow's tip (``length`` px from its target along the heading) within
    ``radius`` px of ``pos``, and which (``"heading:2"``), or None."""
    for chain in reversed(scene.chains):
        if not chain.is_rig:
            continue
        f = chain.fields
        h = f["headings"]
        tips = f["targets"] + length * np.stack([np.cos(h), np.sin(h)], axis=1)  # NaN where none: never near
        near = np.flatnonzero(np.hypot(*(tips - pos).T) <= radius)
        if len(near):
            return chain, f"heading:{int(near[-1])}"
    return None


def target_point(chain: Chain, part: str) -> np.ndarray:
    """Where ``chain``'s target ``part`` is (px): its target, a rig's target ``"target:2"`` or a path chain's control
    point ``"control:1"``."""
    if part.startswith("target:"):
        return np.asarray(chain.fields["targets"][int(part[7:])])
    if part.startswith("control:"):
        return np.asarray(chain.fields["control"][int(part[8:])])
    return np.asarray(chain.fields[part])


def handed_over(old: Hold | None, new: Hold | None) -> Hold | None:
    """``new`` in place of ``old``: ``old``'s target is let go (its motion resumes), ``new``'s held (a rig's
    ``"target:2"`` too: a walking rig leaves it where the mouse puts it)."""
    if isinstance(old, Drag) and old.part.partition(":")[0] == "target":
        target_paths.hold(old.chain.fields, False, int(old.part.partition(":")[2] or 0))
    if isinstance(new, Drag) and new.part.partition(":")[0] == "target":
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
    hold: Hold | None = drag
    if chain is None and drag is None:  # the obstacles lie under every chain
        hold = obstacle_grab(app.scene, app.world(pos), RIM_PICK / zoom)
    app.drag = app.replay.allowed(hold)
    if chain is not None:
        if chain.is_rig or chain.is_ik:
            take_part(chain, drag, app.world(pos))
        app.scene.select(chain)
        app.panel.sync(chain)
        if app.drag is not None and app.drag.said is not None:
            app.say(app.drag.said)


def take_part(chain: Chain, drag: Drag | None, pos) -> None:
    """What a press on a rig or an IK chain makes current for the panel's rows: a rig's target grabbed (or whose
    heading is), and the joint whose range's edge is grabbed, else the bone nearest ``pos`` (scene px)."""
    if drag is not None and drag.part.startswith(("target:", "heading:")):
        chain.current_target = int(drag.part.partition(":")[2])
    edge = None if drag is None else limit_edge(chain, drag.part)
    chain.current_bone = int(np.argmin(bone_distances(chain, pos))) if edge is None else edge[0]


def hot_target(app) -> tuple[Chain | None, str]:
    """The target under ``app``'s mouse (or dragged), drawn highlighted: (its chain or None, which target)."""
    if app.drag is not None and app.drag.part.startswith(("target", "control:")):
        return app.drag.chain, app.drag.part
    on_stage = app.mouse is not None and app.on_stage(app.mouse)
    if not on_stage:
        return None, "target"
    return target_hit(app.scene, app.world(app.mouse), (TARGET_RADIUS + 2) / app.view.camera.zoom)


def obstacle_under(app) -> tuple[int, str] | None:
    """The topmost obstacle under ``app``'s mouse and where ("inside" or "rim"), or None (the mouse off the stage)."""
    if app.mouse is None or not app.on_stage(app.mouse):
        return None
    return app.scene.obstacle_at(app.world(app.mouse), RIM_PICK / app.view.camera.zoom)


def hot_obstacle(app) -> tuple[int, str] | None:
    """The obstacle held, or under the mouse where a press would take it (no chain there), drawn lit: (its row,
    "inside" or "rim"), or None."""
    if isinstance(app.drag, ObstacleDrag):
        return app.drag.row, "inside" if app.drag.part == "obstacle" else "rim"
    if app.drag is not None:
        return None
    hit = obstacle_under(app)
    if hit is not None and len(app.scene.chains) <= HOVER_CHAINS and \
            app.scene.chain_at(app.world(app.mouse), PICK_RADIUS / app.view.camera.zoom) is not None:
        return None  # a press there takes the chain over it
    return hit
