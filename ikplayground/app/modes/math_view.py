"""The App's side of the math (:mod:`ikplayground.insight`): whether "Show the math" is on, the selected
chain's metrics, the step-through session, and the painter of the overlays."""

from __future__ import annotations

from ikplayground.app.draw.math_draw import MathPainter
from ikplayground.app.draw.view import screen_primitives
from ikplayground.insight.chain_view import math_overlay
from ikplayground.insight.rig_view import rig_overlay
from ikplayground.insight.joint_map import apply_pose
from ikplayground.insight.metrics import ChainMetrics
from ikplayground.insight.motion_view import StepMemory
from ikplayground.insight.step_through import StepThrough
from ikplayground.scene import SOLVER_LABELS

STEPPED = ("ccd", "fabrik")  # the solvers the step-through knows
STEP_KINDS = {"record": "step", "sweep": "sweep", "finish": "finish"}  # command -> StepThrough method


class MathView:
    """The App's math overlays, metrics and step-through."""

    def __init__(self, app):
        self.app = app
        self.shown = False
        self.metrics = ChainMetrics()
        self.session: StepThrough | None = None
        self.painter = MathPainter()
        self.memory = StepMemory()  # a path chain's joints a step ago: its velocity arrows

    def set_shown(self, on=None) -> None:
        """"Show the math" on, off, or (``None``: the key) switched."""
        self.shown = (not self.shown) if on is None else bool(on)
        self.app.panel.show_math(self.shown)
        chain = self.app.scene.selected
        if self.shown and chain is None:
            self.app.say("Show the math: select a chain (click it, or Tab) to see its geometry")

    def step(self, kind: str) -> None:
        """Pause, then step the selected chain's solve: one record, one sweep or pass, or the rest; a new
        session starts whenever the last one no longer matches the chain or is over."""
        app = self.app
        chain = app.scene.selected
        if chain is None or chain.solver not in STEPPED:
            what = "nothing is selected" if chain is None else f"this is a {SOLVER_LABELS[chain.solver]} chain"
            app.say(f"Step-through works on CCD and FABRIK chains ({what}): select one (click it, or Tab)")
            return
        if not app.paused:
            app.paused = True
        s = self.session
        obstacles = app.scene.obstacles
        if s is None or not s.matches(chain, obstacles) or (s.done and kind != "finish"):
            s = self.session = StepThrough(chain, obstacles)
        getattr(s, STEP_KINDS[kind])()  # the status line shows where it is (status_text)
        self.metrics.record(chain)  # the Math page's live numbers follow the steps

    @property
    def stepping(self) -> bool:
        """Whether a step-through is on: paused on the chain it steps, which still poses its problem."""
        s = self.session
        return s is not None and self.app.paused and s.matches(self.app.scene.selected, self.app.scene.obstacles)

    def set_pose(self, angles) -> None:
        """The joint-space map was clicked: pose the selected two-bone arm at ``angles`` rad."""
        chain = self.app.scene.selected
        if chain is None or chain.solver != "two-bone":
            return
        note = apply_pose(self.app.scene, chain, float(angles[0]), float(angles[1]))
        self.app.selected_changed()  # the pose picked its elbow's side: the Mirror box shows it
        if note:
            self.app.say(note)

    def after_step(self) -> None:
        """Record the selected chain's numbers of the step just taken."""
        chain = self.app.scene.selected
        if chain is not None and chain.is_ik:
            self.metrics.record(chain)
        elif chain is not None and chain.is_path:
            self.memory.record(chain)

    def status_text(self) -> str:
        """Where the step-through is, while it is on (else "")."""
        s = self.session
        if s is None:
            return ""
        if not self.app.paused or not s.matches(self.app.scene.selected, self.app.scene.obstacles):
            # running again, another chain, or the target, root or a setting moved: the stepped solve is over
            self.session = None
            return ""
        return s.describe()

    def draw(self, surface) -> None:
        """The selected chain's overlays (when shown) and the step-through's (while on)."""
        chain = self.app.scene.selected
        if chain is None:
            return
        clip = surface.get_clip()
        surface.set_clip(self.app.stage_rect)
        try:
            camera = self.app.view.camera  # the overlays are in scene px
            if self.shown:
                overlay = rig_overlay(chain) if chain.is_rig else math_overlay(chain, self.memory.previous(chain))
                self.painter.draw(surface, screen_primitives(overlay, camera), self.app.renderer.notes)
            s = self.session
            # not once the target, a setting or an obstacle moved
            if s is not None and self.app.paused and s.matches(chain, self.app.scene.obstacles):
                self.painter.draw(surface, screen_primitives(s.overlay(), camera), self.app.renderer.notes)
        finally:
            surface.set_clip(clip)
