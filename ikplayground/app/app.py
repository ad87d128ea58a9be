"""The App: the window, the fixed-step loop, input -> commands, drawing.

Each frame: events go to pygame_gui, then the panel (widgets -> commands), the keymap (``key_events.py``) and
the stage (drags, ``drag.py``); every command runs through ``commands.py``'s table (:meth:`App.apply`). Then
the scene takes the 1/60 s steps that have accrued (one a frame when not in real time, so headless runs are
exact), and the stage, panel and overlays are drawn.
"""

from __future__ import annotations

import time
from pathlib import Path

import pygame
import pygame_gui
from pygame_gui.core.utility import get_default_manager, set_default_manager

from ikplayground.app import commands
from ikplayground.app.commands import DEFAULT_SCENE_PATH
from ikplayground.app.drag import Hold, handed_over, hot_obstacle, hot_target, press
from ikplayground.app.draw.chrome import draw_chrome
from ikplayground.app.draw.help_view import Pane, pane_event
from ikplayground.app.draw.overlay import STATUS_HEIGHT, Fonts
from ikplayground.app.draw.render import SceneRenderer, chain_colour
from ikplayground.app.draw.view import draw_marker
from ikplayground.app.gc_freeze import hold, settle
from ikplayground.app.key_events import key_down, key_up
from ikplayground.app.modes.capture_mode import CaptureMode
from ikplayground.app.modes.export_mode import ExportMode
from ikplayground.app.modes.math_view import MathView
from ikplayground.app.modes.quit_mode import QuitMode
from ikplayground.app.modes.race_mode import RaceMode
from ikplayground.app.modes.record_mode import RecordMode
from ikplayground.app.modes.replay_mode import ReplayMode
from ikplayground.app.modes.stress_mode import StressMode
from ikplayground.app.modes.timeline_mode import TimelineMode
from ikplayground.app.modes.view_mode import ViewControl
from ikplayground.app.panel import lean_update, theme_ids
from ikplayground.app.panel.panel import Panel, panel_width
from ikplayground.app.status_line import StatusLine, status_facts
from ikplayground.app.undo import Undo
from ikplayground.app.window import open_window, prefer_x11_framebuffer, resized_window
from ikplayground.resources import asset_path
from ikplayground.scene import SETTINGS_BY_NAME as SETTINGS
from ikplayground.scene import (MAX_STEPS_PER_FRAME, STEP, History, Scene, default_scene, due_steps, smoothed,
                               steps_allowed)
from ikplayground.solvers import jit

KEY_REPEAT = (400, 60)  # ms before a held key repeats, ms between repeats


class App:
    """The playground window of ``size`` (w, h) px showing ``scene`` (None: the default one), saving to
    ``scene_path``. ``realtime``: step by the wall clock at 60 steps/s; else one step a frame, as fast as it can
    (tests, headless runs)."""

    def __init__(self, size=(1280, 720), scene: Scene | None = None, scene_path=DEFAULT_SCENE_PATH,
                 realtime: bool = True):
        pygame.display.init()
        prefer_x11_framebuffer()
        pygame.font.init()
        pygame.key.set_repeat(*KEY_REPEAT)
        self.screen, size, capped = open_window(size)
        pygame.display.set_caption("ikplayground")
        self.clock = pygame.time.Clock()
        self.realtime = realtime
        self.ui = pygame_gui.UIManager(size, str(asset_path("theme.json")), enable_live_theme_updates=False)
        theme_ids.install(self.ui.get_theme())
        lean_update.install(self.ui)  # hidden widgets (the pages not up) are not updated each frame
        self.scene = scene if scene is not None else default_scene(self.stage_size(size))
        self.scene.resize(self.stage_size(size))
        self.scene_path = Path(scene_path)
        self.renderer = SceneRenderer()
        self.fonts = Fonts()
        self.panel = Panel(self.ui, size, scene_path=str(self.scene_path))
        self.panel.sync(self.scene.selected)
        self.running, self.paused, self.show_help = True, False, False
        self.help_pane, self.log_pane = Pane(), Pane()  # the F1 help's scroll; the message log's (Ctrl+L)
        # s of simulated time the real-time loop gave up rather than drop frames, and the scene steps since the start
        self.given_up, self.steps_taken, self.slow_until = 0.0, 0, -1.0  # (a benchmark's steps a frame)
        self.fps_cap = 60  # frames a second at most in real time (0: uncapped, as benchmarks time it)
        self.mouse: tuple[int, int] | None = None
        self._drag: Hold | None = None
        self.held: set[str] = set()
        self.keys_down: set[int] = set()  # to tell a key's auto-repeat from a new press
        self.key_repeat = False  # True while the command of an auto-repeated key runs
        self.minimized, self.time, self.frames, self.accumulator, self.shown_at = False, 0.0, 0, 0.0, -2
        self.status, self.history = StatusLine(), History()  # the undo and redo stacks (Ctrl+Z, Ctrl+Shift+Z)
        self.undo = Undo(self)  # what is recorded into it, and when (undo.py)
        self.stress = StressMode(self)
        self.race = RaceMode(self)  # the solver race (R), shown in place of the scene as the stress test is
        self.math = MathView(self)  # "Show the math", the live numbers, the step-through
        self.record = RecordMode(self)  # Ctrl+R: every step to a CSV file, after the step
        self.export = ExportMode(self)  # Export animation: the last recording baked to keyframes
        self.replay = ReplayMode(self)  # --replay: a recording drives the targets, before the step
        self.timeline = TimelineMode(self)  # the Keep page's timeline: while open, the scene waits
        self.quit = QuitMode(self)  # the close button and Ctrl+Q: Save / Discard / Cancel with unsaved changes
        self.capture = CaptureMode(self)  # F9, --gif, --video: the frames drawn, to a GIF or a video
        self._poked = False  # a click or a key this frame: the tool tips go
        self.view = ViewControl(self)  # the camera: zoom, pan, fit, home, edge markers (view_mode.py)
        self.view.load(self.scene)
        self.commands = commands.CommandRunner(self)  # .observe(fn) sees every command
        if capped:
            self.say(capped)
        self.step_ms = self.render_ms = 0.0
        self.settle = True  # a new scene: after its first frame, gc_freeze.py moves it out of the collector's way

    def stage_size(self, window_size) -> tuple[float, float]:
        """The stage: the window left of the panel, above the status line."""
        w, h = window_size
        panel = self.panel.width if hasattr(self, "panel") else panel_width(w)
        return float(max(w - panel, 1)), float(max(h - STATUS_HEIGHT, 1))

    @property
    def stage_rect(self) -> pygame.Rect:
        sw, sh = self.scene.stage
        return pygame.Rect(0, 0, int(sw), int(sh))

    def on_stage(self, pos) -> bool:
        return self.stage_rect.collidepoint(pos)

    def run(self, max_frames: int | None = None) -> None:
        """Run until the window closes (asking first if there are unsaved changes) or ``max_frames`` frames pass."""
        while self.running and (max_frames is None or self.frames < max_frames):
            self.frame()

    def frame(self) -> None:
        dt = self.clock.tick(self.fps_cap) / 1000.0 if self.realtime else STEP
        if self.realtime and self.frames <= self.shown_at + 1:  # a new scene is first shown as made, then its clock
            dt = 0.0 if self.frames <= self.shown_at else min(dt, STEP)  # starts: its making is not caught up
        self.time += dt
        events = pygame.event.get()
        last_resize = next((e for e in reversed(events) if e.type == pygame.VIDEORESIZE), None)
        for event in events:
            if event.type == pygame.VIDEORESIZE and event is not last_resize:
                continue  # dragging a window edge sends many: lay out only the last (each costs a panel rebuild)
            self.handle_event(event)
        self.ui.update(dt)
        self.panel.hide_tips(self._poked or self.mouse is None)
        self._poked = False
        self.export.poll()
        self.advance(dt)
        if not self.minimized:  # nothing to show: keep stepping, skip drawing
            self.draw()
            pygame.display.flip()
            self.capture.grab()  # a copy of the frame, when a capture's next slot has come
        if self.settle:
            self.settle = False
            settle(len(self.scene.chains))
        if self.frames == 0 and self.realtime:  # the window is up: the compiled kernels (numba, if there) load
            jit.warm_up()  # on a thread, for a crowd later (a fixed-step run loads them when a batch first asks)
            self.renderer.warm_up()  # the crowd drawing's, likewise (or when a crowd is first drawn)
        self.frames += 1

    def advance(self, dt: float) -> None:
        """Step the scene by the 1/60 s steps that ``dt`` adds up to."""
        if self.timeline.hold(dt) or self.paused:  # the timeline plays the recording while the scene waits
            self.accumulator = 0.0
            return
        allowed = steps_allowed(self.step_ms, self.render_ms) if self.realtime else MAX_STEPS_PER_FRAME
        due, self.accumulator, given_up = due_steps(self.accumulator + dt, allowed)
        if given_up:  # the frame cannot afford them: simulated time is given up, never the frame rate
            self.given_up += given_up
            self.slow_until = self.time + 1.0  # s the status line says "slow motion"
        self.steps_taken += due
        t0 = time.perf_counter()
        for _ in range(due):
            if not self.stress.drive():  # else the arrow keys (or a replay's) drive the selected snake, walker or rig
                keys = self.replay.held_keys(self.held)
                self.scene.steer("throttle" in keys, ("right" in keys) - ("left" in keys))
            self.race.drive()
            self.replay.drive()
            self.scene.step()
            self.race.record()
            self.record.after_step()
            self.math.after_step()
        if due:
            self.step_ms = smoothed(self.step_ms, (time.perf_counter() - t0) * 1000.0 / due)

    def handle_event(self, event) -> None:
        self.undo.see(event)  # which left press is down: a slider's or the map's drag is one undo entry
        if event.type == pygame.QUIT:
            self.quit.request()  # asks first when the scene has unsaved changes
            return
        if event.type == pygame.VIDEORESIZE:
            self.resize(event.size)
            return
        if event.type == pygame.WINDOWMINIMIZED:
            self.minimized = True
        elif event.type in (pygame.WINDOWRESTORED, pygame.WINDOWEXPOSED, pygame.WINDOWSHOWN):
            self.minimized = False
        if event.type in (pygame.WINDOWLEAVE, pygame.WINDOWFOCUSLOST, pygame.WINDOWMINIMIZED):
            self.mouse = None
        if event.type in (pygame.WINDOWFOCUSLOST, pygame.WINDOWMINIMIZED):
            self.held.clear()  # a key released elsewhere sends us no KEYUP
            self.keys_down.clear()
            self.drag = None
            self.view.forget_keys()
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.KEYDOWN):
            self._poked = True
        consumed = self.ui.process_events(event)
        if self.quit.process(event):  # the quit prompt is up: it answers first
            return
        if event.type in (pygame.MOUSEBUTTONUP, pygame_gui.UI_DROP_DOWN_MENU_CHANGED):
            self.panel.release_keys()  # a click in the panel leaves the keys to the stage
        command = self.panel.process(event)
        if command is not None:
            self.apply(*command)
            return
        if pane_event(self, event):  # the open help's or message log's scrolling (help_view.py)
            return
        if (event.type == pygame.MOUSEMOTION or not consumed) and self.view.handle(event):
            return  # the wheel, a pan, a click on an edge marker
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
            if self.drag is not None:
                held = getattr(event, "buttons", (1,))[0]  # else released outside the window: no MOUSEBUTTONUP came
                if not (held and self.drag.move(self.scene, self.world(event.pos))):
                    self.drag = None
                elif self.drag.said is not None:  # an edge of a joint's range: the status line gives the range
                    self.say(self.drag.said)
            return
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self.drag = None
            return
        if consumed and not (event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE):
            return  # (Esc always reaches its command: it closes what a widget has open)
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and not self.timeline.open:
            press(self, event.pos)  # (the stage is the timeline's while open: no drags)
        elif event.type == pygame.KEYDOWN:
            key_down(self, event)  # a steering key held, or the key's command run (key_events.py)
        elif event.type == pygame.KEYUP:
            key_up(self, event)

    @property
    def drag(self) -> Hold | None:
        """What the mouse holds; when a hold ends its target is let go and its move is one undo entry."""
        return self._drag

    @drag.setter
    def drag(self, new: Hold | None) -> None:
        old, self._drag = self._drag, handed_over(self._drag, new)
        self.undo.hold(old, self._drag)

    @property
    def status_rect(self) -> pygame.Rect:
        """The status line: under the stage, left of the panel."""
        stage = self.stage_rect
        w, h = self.screen.get_size()
        return pygame.Rect(0, stage.bottom, w - self.panel.width, h - stage.bottom)

    def world(self, pos):
        """The scene point (px) under the screen point ``pos`` of the stage: shape (2,)."""
        return self.view.camera.to_world(pos)

    def say(self, text: str, error: bool = False) -> None:
        """Show ``text`` on the status line (an error: in red, wrapped, for longer)."""
        self.status.say(text, error, self.time)

    @property
    def message(self) -> str:
        return self.status.message

    @property
    def message_is_error(self) -> bool:
        return self.status.is_error

    def selected_changed(self) -> None:
        self.panel.sync(self.scene.selected)

    def show_scene(self, scene: Scene) -> None:
        """Show ``scene`` in place of the current one, fitted to the stage, as it was last looked at."""
        self.replay.stop()
        self.view.store(self.scene)  # the scene going keeps its view (undo, the race's end give it back)
        self.view.load(scene)
        self.scene = scene
        self.scene.resize(self.stage_size(self.screen.get_size()))
        self.drag, self.shown_at, self.accumulator, self.step_ms = None, self.frames, 0.0, 0.0  # (its steps' cost: new)
        self.selected_changed()
        hold(len(scene.chains))  # a big scene: its first frame's collections walk only what is new (gc_freeze.py)
        self.settle = True

    def chain_replaced(self, old, new) -> None:
        """``new`` replaced ``old`` (a solver or bone count change): a hold on ``old`` moves to it."""
        if self.drag is not None and self.drag.chain is old:
            self.drag = self.drag.onto(new)

    def apply(self, action: str, value=None) -> None:
        """Run a command of the table (its observers see it), else set a setting of the selected chain, for undo."""
        if self.commands.run(action, value):
            return
        chain = self.scene.selected
        if chain is None or not (action == "solver" or action in SETTINGS):
            return
        # the table of settings checks, clamps, skips what the solver lacks
        new = self.undo.setting(chain, action, value)
        if new is not chain or action == "solver" or SETTINGS[action].kind == "flag":  # a flag may enable others
            self.selected_changed()
        says = SETTINGS[action].says if action in SETTINGS else None
        if says is not None and SETTINGS[action].applies(new.solver):
            self.say(says(new))

    def resize(self, size) -> None:
        """Lay out for a window resized to ``size``, within the window's limits (``window.py``)."""
        self.screen, size, message, error = resized_window(self.screen, size, tuple(self.ui.window_resolution))
        if message:
            self.say(message, error=error)
        self.ui.set_window_resolution(size)
        old = self.stage_rect.size
        self.panel.rebuild(size)  # first: the stage is what the panel leaves
        self.scene.resize(self.stage_size(size))
        self.view.resized(old, self.stage_rect.size)  # the view grows about its centre

    def draw(self) -> None:
        t0 = time.perf_counter()
        stage = self.stage_rect
        clip = self.screen.get_clip()
        self.screen.set_clip(stage)  # nothing of the scene is drawn under the panel or the status line
        hot, part = hot_target(self)
        self.renderer.draw(self.screen, self.scene, hot_target=hot, hot_part=part, stage_size=stage.size,
                           camera=self.view.camera, hot_obstacle=None if hot is not None else hot_obstacle(self))
        self.math.draw(self.screen)
        self.race.annotate(self.renderer.notes)
        self.renderer.notes.draw(self.screen, stage)  # badges, the math's labels, name tags: placed clear of each other
        for chain, marker in self.view.update_markers():  # what is wholly out of view: an arrow at the edge
            draw_marker(self.screen, marker, chain_colour(chain))
        self.timeline.draw(self.screen, stage)  # a recording's pose over the dimmed scene, while open
        self.screen.set_clip(clip)
        fps = self.clock.get_fps() if self.realtime else None
        facts = self.timeline.status_text() or status_facts(  # (while open, the timeline's facts: the scene waits)
            self.scene, fps, self.step_ms, self.render_ms, self.stress.on, self.paused, self.math.status_text(),
            (self.replay.status_text(), self.record.status_text(), self.capture.status_text(),
             "slow motion" * (self.time < self.slow_until)))
        draw_chrome(self, stage, facts)  # the status line, the help or the message log, the panel, an error
        self.render_ms = smoothed(self.render_ms, (time.perf_counter() - t0) * 1000.0)

    def save_screenshot(self, path) -> None:
        pygame.image.save(self.screen, str(path))

    def close(self) -> None:
        """Finish a recording and a replay, drop the queued events (they hold the UI) and close the window."""
        self.replay.stop()
        self.record.stop()
        self.export.wait()
        self.capture.finish()  # an F9 capture being encoded is finished, never lost
        pygame.event.get()
        if get_default_manager() is self.ui:  # pygame_gui keeps the first manager made as its default
            set_default_manager(None)
        pygame.display.quit()
