"""What the App did in each fuzzed frame, seen through its command table's observer hook.

The :class:`Recorder` registers with ``app.commands.observe``, so it sees every
command (a key's, a button's, a panel widget's, a chain setting) with its value
just before it runs, whatever App method carries it out; the rest (drags,
resizes, chains added or removed, scenes swapped) it reads off the App's state
between commands and at the end of each frame.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

FILE_COMMANDS = ("save", "load", "screenshot")  # commands that write or read beside the scene file


class SandboxEscape(AssertionError):
    """A save or load was about to touch a file outside the fuzz run's folder (raised before it does)."""


class Recorder:
    """Watches an App to tell what each frame did.

    Per frame (from :meth:`begin_frame` to :meth:`end_frame`): ``commands``
    lists the commands run; ``touched`` holds the ids of the chains they may
    have acted on (the selected chain as each ran, and at the frame's end, if
    any ran); ``resized`` is True when the window's size changed;
    ``scene_swapped`` when a command put another scene in (load, stress test).
    ``stats`` counts over the whole run: ``command:<name>`` for each command,
    and the effects (``chains_added``, ``chains_removed``, ``scene_replaced``,
    ``solver_switched``, ``resized``, ``grab_target`` / ``grab_root`` for each
    new drag, ``drag_target`` / ``drag_root`` for each frame one is held).

    Every save and load must stay inside ``sandbox`` (the fuzz gives the App a
    relative scene path in a working folder that is the sandbox, and can type
    no "/"): one that would not raises :class:`SandboxEscape` before it runs.
    """

    def __init__(self, app, sandbox: Path | None = None):
        self.app = app
        self.sandbox = Path(sandbox).resolve() if sandbox is not None else None
        self.stats: Counter = Counter()
        self.touched: set[int] = set()
        self.commands: list[str] = []
        self.resized = False
        self.scene_swapped = False
        self._size = app.screen.get_size()
        self._drag = app.drag
        self._last = None  # the command whose effects are not yet counted
        self._mark()
        self.stop = app.commands.observe(self.saw)

    # --- the observer --------------------------------------------------------------------
    def saw(self, name: str, value) -> None:
        """Called by the App just before it runs command ``name``."""
        self._settle()
        self._touch()
        self.commands.append(name)
        self.stats[f"command:{name}"] += 1
        if name in FILE_COMMANDS:
            self._check_sandbox(name, value)
        self._last = name

    # --- frames --------------------------------------------------------------------------
    def begin_frame(self) -> None:
        self.touched = set()
        self.commands = []
        self.resized = False
        self.scene_swapped = False
        self._settle()

    def end_frame(self) -> None:
        """Count what the frame did (call after it ran)."""
        app = self.app
        self._settle()
        if self.commands:
            self._touch()  # the selected chain after the last command
        if "screenshot" in self.commands and self.sandbox is not None:  # a long soak would fill the disk
            for png in self.sandbox.glob("ikplayground-*.png"):
                png.unlink()
        size = app.screen.get_size()
        if size != self._size:
            self.resized = True
            self.stats["resized"] += 1
            self._size = size
        drag = app.drag
        if drag is not None:
            if self._drag is None or drag.offset is not self._drag.offset:  # a new press, not the same hold
                self.stats[f"grab_{drag.part}"] += 1
            self.stats[f"drag_{drag.part}"] += 1
        self._drag = drag

    # --- effects -------------------------------------------------------------------------
    def _selected(self):
        return self.app.scene.selected

    def _touch(self) -> None:
        sel = self._selected()
        if sel is not None:
            self.touched.add(sel.id)

    def _mark(self) -> None:
        sel = self._selected()
        self._scene = self.app.scene
        self._count = len(self.app.scene.chains)
        self._solver = None if sel is None else sel.solver

    def _settle(self) -> None:
        """Count what changed since the last mark (what the last command did), then mark again."""
        app = self.app
        if app.scene is not self._scene:
            self.scene_swapped = True
            self.stats["scene_replaced"] += 1
        elif len(app.scene.chains) > self._count:
            self.stats["chains_added"] += len(app.scene.chains) - self._count
        elif len(app.scene.chains) < self._count:
            self.stats["chains_removed"] += self._count - len(app.scene.chains)
        sel = self._selected()
        if self._last == "solver" and sel is not None and self._solver is not None and sel.solver != self._solver:
            self.stats["solver_switched"] += 1
        self._last = None
        self._mark()

    def _check_sandbox(self, name: str, value) -> None:
        if self.sandbox is None:
            return
        path = Path(value) if value else Path(self.app.scene_path)
        try:  # the folder a save writes in (".." is a folder in the way: refused, nothing written)
            folder = (path if path.is_absolute() else Path.cwd() / path).parent.resolve()
        except (OSError, RuntimeError, ValueError):
            return  # a path the system cannot even look up: the App refuses it, nothing is written
        if folder != self.sandbox and self.sandbox not in folder.parents:
            raise SandboxEscape(f"{name} {str(path)!r} would use the folder {folder}, outside the fuzz folder "
                                f"{self.sandbox}")
