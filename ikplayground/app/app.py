"""The App: the window, the fixed-step loop, input -> commands, drawing.

Each frame: events go to pygame_gui first (``process_events`` is True when the
UI used the event), the rest are mapped to commands through the keymap and the
mouse; then the scene advances by as many 1/60 s steps as have accrued (one a
frame when not in real time, so headless runs are exact); then the stage, the
panel and the overlays are drawn and the display flipped.
"""

from __future__ import annotations

import math
import time
from pathlib import Path

import numpy as np
import pygame
import pygame_gui

from ikplayground.resources import asset_path
from ikplayground.scene import files
from ikplayground.scene.chain import MAX_BONES, SOLVER_LABELS
from ikplayground.scene.scene import STEP, Scene, SceneFull, default_scene
from ikplayground.scene.stress import drive_stress, stress_scene

from . import keymap, theme_ids
from .limits import capped_size, size_limit_text
from .overlay import STATUS_HEIGHT, Fonts, draw_error, draw_help, draw_status
from .panel import Panel, panel_width
from .render import TARGET_RADIUS, SceneRenderer

MIN_SIZE = (320, 240)
PICK_RADIUS = 10
MAX_STEPS_PER_FRAME = 5
MESSAGE_SECONDS = 4.0
ERROR_SECONDS = 8.0
KEY_REPEAT = (400, 60)  # ms before a held key repeats, ms between repeats
ERROR_MIN_WIDTH = 420  # px: an error box narrower than this spans the whole window
REPEATING = frozenset({"add_chain", "remove_last", "remove_selected", "select_next"})
CHAIN_CAP = 2000  # chains N may add (files and the stress test may hold more)
DEFAULT_SCENE_PATH = "ikplayground-scene.json"


def _is_file(path: Path) -> bool:
    """Whether ``path`` is a regular file; False when it cannot even be looked up (a name too long, say)."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


class App:
    """The playground window.

    Parameters
    ----------
    size : (int, int)
        Window size in pixels.
    scene : Scene, optional
        The scene to show; the default scene (one chain of each solver) if None.
    scene_path : str or Path
        The file Ctrl+S writes and Ctrl+O reads.
    realtime : bool
        True: step the scene by the wall clock at 60 steps/s and cap the frame
        rate at 60. False: exactly one step a frame, as fast as it can (tests
        and headless runs).
    """

    def __init__(self, size=(1280, 720), scene: Scene | None = None, scene_path=DEFAULT_SCENE_PATH,
                 realtime: bool = True):
        pygame.display.init()
        pygame.font.init()
        pygame.key.set_repeat(*KEY_REPEAT)
        asked = (max(int(size[0]), MIN_SIZE[0]), max(int(size[1]), MIN_SIZE[1]))
        size = capped_size(asked)
        self.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        pygame.display.set_caption("ikplayground")
        self.clock = pygame.time.Clock()
        self.realtime = realtime
        self.ui = pygame_gui.UIManager(size, str(asset_path("theme.json")), enable_live_theme_updates=False)
        theme_ids.install(self.ui.get_theme())
        self.scene = scene if scene is not None else default_scene(self.stage_size(size))
        self.scene.resize(self.stage_size(size))
        self.scene_path = Path(scene_path)
        self.renderer = SceneRenderer()
        self.fonts = Fonts()
        self.panel = Panel(self.ui, size, scene_path=str(self.scene_path))
        self.panel.sync(self.scene.selected)
        self.running = True
        self.paused = False
        self.show_help = False
        self.frames = 0
        self.accumulator = 0.0
        self.mouse: tuple[int, int] | None = None
        self.drag = None  # (chain, "target" | "root", offset)
        self.held: set[str] = set()
        self.keys_down: set[int] = set()  # to tell a key's auto-repeat from a new press
        self.key_repeat = False  # True while the action of an auto-repeated key runs
        self.minimized = False
        self.message_is_error = False
        self.message = ""
        self.message_until = 0.0
        self.time = 0.0
        if size != asked:
            self.say(f"Window capped at {size[0]}x{size[1]}: {size_limit_text()}")
        self.step_ms = 0.0
        self.render_ms = 0.0
        self.stress_count = 0  # chains in the stress scene while stress is on
        self._scene_before_stress: Scene | None = None
        self.actions = {
            "add_chain": self.add_chain,
            "remove_last": self.remove_last,
            "remove_selected": self.remove_selected,
            "select_next": self.select_next,
            "mirror": self.toggle_mirror,
            "pause": self.toggle_pause,
            "help": self.toggle_help,
            "escape": self.escape,
            "panel": self.toggle_panel,
            "save": self.save,
            "load": self.load,
        }

    # --- geometry ------------------------------------------------------------
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

    # --- loop ----------------------------------------------------------------
    def run(self, max_frames: int | None = None) -> None:
        """Run until the window closes, Esc, or ``max_frames`` frames have been drawn."""
        while self.running and (max_frames is None or self.frames < max_frames):
            self.frame()

    def frame(self) -> None:
        dt = self.clock.tick(60) / 1000.0 if self.realtime else STEP
        self.time += dt
        events = pygame.event.get()
        last_resize = next((e for e in reversed(events) if e.type == pygame.VIDEORESIZE), None)
        for event in events:
            if event.type == pygame.VIDEORESIZE and event is not last_resize:
                continue  # dragging a window edge sends many: lay out only the last (each costs a panel rebuild)
            self.handle_event(event)
        self.ui.update(dt)
        self.advance(dt)
        if not self.minimized:  # nothing to show: keep stepping, skip drawing
            self.draw()
            pygame.display.flip()
        self.frames += 1

    def advance(self, dt: float) -> None:
        """Step the scene by the 1/60 s steps that ``dt`` adds up to."""
        if self.paused:
            self.accumulator = 0.0
            return
        self.accumulator = min(self.accumulator + dt, MAX_STEPS_PER_FRAME * STEP)
        t0 = time.perf_counter()
        steps = 0
        while self.accumulator >= STEP - 1e-9:
            self.accumulator -= STEP
            if self.stress_count:
                drive_stress(self.scene, self.scene.steps)
            else:
                self.scene.steer("throttle" in self.held, ("right" in self.held) - ("left" in self.held))
            self.scene.step()
            steps += 1
        if steps:
            self.step_ms = (time.perf_counter() - t0) * 1000.0 / steps

    # --- input ---------------------------------------------------------------
    def handle_event(self, event) -> None:
        if event.type == pygame.QUIT:
            self.running = False
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
        consumed = self.ui.process_events(event)
        command = self.panel.process(event)
        if command is not None:
            self.apply(*command)
            return
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
            if self.drag is not None:
                if getattr(event, "buttons", (1,))[0]:
                    self.drag_to(event.pos)
                else:  # released outside the window: no MOUSEBUTTONUP came
                    self.drag = None
            return
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self.drag = None
            return
        if consumed:
            return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.press(event.pos)
        elif event.type == pygame.KEYDOWN:
            repeat = event.key in self.keys_down
            self.keys_down.add(event.key)
            if self.panel.typing():
                return
            steer = keymap.STEER_KEYS.get(event.key)
            if steer is not None:
                self.held.add(steer)
                return
            action = keymap.action_for(event.key, getattr(event, "mod", 0))
            if action is not None and (not repeat or action in REPEATING):
                self.key_repeat = repeat
                try:
                    self.actions[action]()
                finally:
                    self.key_repeat = False
        elif event.type == pygame.KEYUP:
            self.keys_down.discard(event.key)
            steer = keymap.STEER_KEYS.get(event.key)
            if steer is not None:
                self.held.discard(steer)

    def press(self, pos) -> None:
        """Left button down on the stage: grab a target, a root, or select a chain."""
        if not self.on_stage(pos):
            return
        chain = self.scene.target_at(pos, TARGET_RADIUS + 2)
        if chain is not None:
            self.scene.select(chain)
            self.drag = (chain, "target", np.asarray(chain.fields["target"]) - pos)
            self.panel.sync(chain)
            return
        hit = self.scene.chain_at(pos, PICK_RADIUS)
        if hit is None:
            return
        chain, part = hit
        self.scene.select(chain)
        self.panel.sync(chain)
        if part == "anchor":
            self.drag = (chain, "root", chain.anchor - pos)

    def drag_to(self, pos) -> None:
        chain, what, offset = self.drag
        if chain not in self.scene.chains:
            self.drag = None
            return
        goal = np.asarray(pos, dtype=float) + offset
        if what == "target":
            self.scene.move_target(chain, goal)
        else:
            self.scene.move_chain(chain, goal)

    def hot_target(self):
        """The target under the mouse (or being dragged), drawn highlighted."""
        if self.drag is not None and self.drag[1] == "target":
            return self.drag[0]
        if self.mouse is None or not self.on_stage(self.mouse):
            return None
        return self.scene.target_at(self.mouse, TARGET_RADIUS + 2)

    # --- commands ------------------------------------------------------------
    def say(self, text: str, error: bool = False) -> None:
        """Show ``text`` on the status line (an error: in red, wrapped, for longer)."""
        self.message = text
        self.message_is_error = error
        self.message_until = self.time + (ERROR_SECONDS if error else MESSAGE_SECONDS)

    def selected_changed(self) -> None:
        self.panel.sync(self.scene.selected)

    def add_chain(self) -> None:
        """N: a chain under the mouse; while N is held, each further one at the freest spot."""
        on_stage = self.mouse is not None and self.on_stage(self.mouse)
        at = self.mouse if on_stage and not self.key_repeat else None
        if len(self.scene.chains) >= CHAIN_CAP:
            self.say(f"Not added: N adds up to {CHAIN_CAP} chains (remove some, or try the stress test)", error=True)
            return
        try:
            chain = self.scene.new_chain(self.panel.new_kind, at)
        except SceneFull as e:
            self.say(f"Not added: {e}", error=True)
            return
        self.say(f"Added a {SOLVER_LABELS[chain.kind]} chain (#{chain.id})")
        self.selected_changed()

    def remove_last(self) -> None:
        chain = self.scene.remove_last()
        self.say("Nothing to remove" if chain is None else f"Removed {SOLVER_LABELS[chain.kind]} chain #{chain.id}")
        self.selected_changed()

    def remove_selected(self) -> None:
        chain = self.scene.selected
        if chain is None:
            self.say("Nothing selected to remove" if self.scene.chains else "Nothing to remove")
            return
        self.scene.remove(chain)
        self.say(f"Removed {SOLVER_LABELS[chain.kind]} chain #{chain.id}")
        self.selected_changed()

    def select_next(self) -> None:
        self.scene.select_next()
        self.selected_changed()

    def toggle_mirror(self) -> None:
        chain = self.scene.selected
        if chain is None or chain.kind != "two-bone":
            self.say("Mirror bends two-bone chains: select one first")
            return
        chain.mirror = not chain.mirror
        self.selected_changed()

    def toggle_pause(self) -> None:
        self.paused = not self.paused
        self.say("Paused (Space resumes)" if self.paused else "Running")

    def toggle_help(self) -> None:
        self.show_help = not self.show_help

    def toggle_panel(self) -> None:
        size = self.screen.get_size()
        self.panel.set_visible(not self.panel.visible, size)
        self.scene.resize(self.stage_size(size))
        self.selected_changed()

    def escape(self) -> None:
        if self.show_help:
            self.show_help = False
        else:
            self.running = False

    def start_stress(self, count: int) -> None:
        """Swap in a stress scene of ``count`` chains on scripted motion (the scene is kept)."""
        if not self.stress_count:
            self._scene_before_stress = self.scene
        self.scene = stress_scene(count, self.scene.stage)
        self.stress_count = count
        self.drag = None
        self.panel.show_stress(True)
        self.selected_changed()
        self.say(f"Stress: {count} chains on scripted paths (the button again restores your scene)")

    def stop_stress(self) -> None:
        """Put back the scene that was there before the stress test."""
        if not self.stress_count:
            return
        self.scene = self._scene_before_stress or default_scene(self.scene.stage)
        self.scene.resize(self.stage_size(self.screen.get_size()))
        self._forget_stress()
        self.drag = None
        self.selected_changed()
        self.say("Stress off: your scene is back")

    def _forget_stress(self) -> None:
        """Leave stress mode without touching the scene shown."""
        self.stress_count = 0
        self._scene_before_stress = None
        self.panel.show_stress(False)

    def toggle_stress(self, count: int = 1000) -> None:
        if self.stress_count:
            self.stop_stress()
        else:
            self.start_stress(count)

    def save(self, path=None) -> None:
        """Save the scene to ``path`` (the scene file's path by default); every failure is one status line."""
        path = Path(path) if path else self.scene_path
        name = files.shown_name(path)
        if self.stress_count:  # what shows is the scripted stress scene, not the user's
            self.say(f"Not saved: the stress test is on, and {name} would get its {self.stress_count} "
                     "scripted chains. Press \"Stop the stress test\" for your scene, then save.", error=True)
            return
        try:
            files.save_scene(self.scene, path)
        except (OSError, ValueError) as e:  # ValueError: a value the file could not load again (nothing is written)
            reason = getattr(e, "strerror", None) or e
            self.say(f"Not saved: {name}: {reason}. Nothing was lost: the scene is still here"
                     + (" and the file on disk is as it was" if _is_file(path) else ""), error=True)
            return
        self.scene_path = path
        self.say(f"Saved {len(self.scene.chains)} chains to {name}")

    def load(self, path=None) -> None:
        """Replace the scene with the file at ``path`` (the scene file's path by default), or say why not."""
        path = Path(path) if path else self.scene_path
        try:
            scene = files.load_scene(path, self.scene.stage)
        except files.SceneFileError as e:
            self.say(f"Not loaded: {e}. Your scene is unchanged.", error=True)
            return
        self._forget_stress()  # the file is now the user's scene: a stress test ends
        self.scene = scene
        self.scene.resize(self.stage_size(self.screen.get_size()))
        self.scene_path = path
        self.drag = None
        self.selected_changed()
        self.say(f"Loaded {len(scene.chains)} chains from {files.shown_name(path)}")

    def apply(self, action: str, value) -> None:
        """Carry out a panel command on the selected chain or the scene."""
        if action in self.actions and value is None:
            self.actions[action]()
            return
        if action in ("save", "load"):
            self.actions[action](value)
            return
        if action == "new_kind":
            self.say(f"N now adds {SOLVER_LABELS[value]} chains")
            return
        if action == "stress":
            self.toggle_stress()
            return
        if action == "skin":
            self.renderer.skin = value
            return
        if action == "scene_path":
            self.scene_path = Path(value) if value else Path(DEFAULT_SCENE_PATH)
            return
        if action == "notice":  # the path box refused or left out some text
            self.say(value, error=True)
            return
        chain = self.scene.selected
        if chain is None:
            return
        if action == "solver":
            new = self.scene.set_solver(chain, value)
            if self.drag is not None and self.drag[0] is chain:
                self.drag = (new, *self.drag[1:]) if not new.is_snake else None
            self.selected_changed()
        elif action == "set_mirror":
            if chain.kind == "two-bone":
                chain.mirror = bool(value)
        elif action == "rate_on":
            if chain.is_snake:
                return
            chain.rate_limit = chain.rate_deg if value else None
            self.selected_changed()
        elif action == "rate":
            if not chain.is_snake:
                chain.rate_limit = float(value)
        elif action == "joint_limit":
            self.scene.set_joint_limit(chain, float(value))
        elif action == "bend_range":
            self.scene.set_bend_range(chain, float(value))
        elif action == "bones":
            new = self.scene.set_bone_count(chain, int(min(max(value, 1), MAX_BONES)))
            if self.drag is not None and self.drag[0] is chain:
                self.drag = (new, *self.drag[1:])
            if new is not chain:
                self.selected_changed()
        elif action == "bone_length":
            self.scene.set_bone_length(chain, float(value))
        elif action == "iterations":
            if chain.kind in ("ccd", "fabrik"):
                chain.iterations = int(value)
        elif action == "tolerance":
            if chain.kind in ("ccd", "fabrik"):
                chain.tolerance = float(value)
        elif action == "max_speed":
            if chain.is_snake:
                chain.fields["max_speed"][0] = float(value)
        elif action == "turn_rate":
            if chain.is_snake:
                chain.fields["turn_rate"][0] = math.radians(float(value))

    def resize(self, size) -> None:
        """The window was resized to ``size``: lay out for it, within MIN_SIZE and the caps of
        limits.py (a bigger window is set back to the cap, and the status line says so)."""
        asked = (max(int(size[0]), MIN_SIZE[0]), max(int(size[1]), MIN_SIZE[1]))
        size = capped_size(asked)
        old = tuple(self.ui.window_resolution)  # the size everything is laid out for
        try:
            current = self.screen.get_size()
        except pygame.error:  # SDL could not give the resized window a surface (too big): make one
            current = None
        if current != size or size != asked:  # capped: the window itself is bigger, shrink it back
            try:
                self.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
            except pygame.error as e:  # no memory for it, say: keep the old size
                self.screen = pygame.display.set_mode(old, pygame.RESIZABLE)
                self.say(f"The window could not be made {size[0]}x{size[1]} ({e}); it stays {old[0]}x{old[1]}",
                         error=True)
                size = old
            else:
                if size != asked:
                    self.say(f"Window capped at {size[0]}x{size[1]}: {size_limit_text()}")
        self.ui.set_window_resolution(size)
        self.panel.rebuild(size)  # first: the stage is what the panel leaves
        self.scene.resize(self.stage_size(size))

    # --- drawing ---------------------------------------------------------------
    def status_facts(self) -> str:
        fps = self.clock.get_fps() if self.realtime else 0.0
        parts = [f"{fps:4.0f} FPS" if self.realtime else "fixed step", f"{len(self.scene.chains)} chains"]
        chain = self.scene.selected
        if chain is not None:
            part = f"{SOLVER_LABELS[chain.kind]} #{chain.id}"
            if not chain.is_snake:
                part += f"  error {chain.error:.1f} px"
            parts.append(part)
        parts.append(f"step {self.step_ms:.1f} ms  draw {self.render_ms:.1f} ms")
        if self.stress_count:
            costs = self.scene.step_ms
            parts.append("  ".join(f"{SOLVER_LABELS[k]} {v:.1f}" for k, v in costs.items()) + " ms")
        if self.paused:
            parts.append("PAUSED")
        return "   ·   ".join(parts)

    def draw(self) -> None:
        t0 = time.perf_counter()
        stage = self.stage_rect
        self.renderer.draw(self.screen, self.scene, hot_target=self.hot_target(), stage_size=stage.size)
        w, h = self.screen.get_size()
        status = pygame.Rect(0, stage.bottom, w - self.panel.width, h - stage.bottom)
        message = self.message if self.time < self.message_until else ""
        error = message if self.message_is_error else ""
        draw_status(self.screen, status, self.status_facts(), "" if error else message, self.fonts)
        if self.show_help:
            draw_help(self.screen, stage, self.fonts)
        self.ui.draw_ui(self.screen)
        if error:  # over everything, and across the panel when the stage is too narrow to read it
            wide = status if status.width >= ERROR_MIN_WIDTH else pygame.Rect(0, status.y, w, status.height)
            draw_error(self.screen, wide, error, self.fonts)
        self.render_ms = (time.perf_counter() - t0) * 1000.0

    def save_screenshot(self, path) -> None:
        pygame.image.save(self.screen, str(path))

    def close(self) -> None:
        pygame.display.quit()
