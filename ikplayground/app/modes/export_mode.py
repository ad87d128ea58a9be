"""Export animation: the Keep page's button bakes the last recording (stopped first if running) into a JSON file
of keyframes (:func:`ikplayground.scene.bake_recording`, docs/animation-format.md), of every chain or the
selected one, on a worker thread; :meth:`ExportMode.poll`, once a frame, says how it ended. Its Spine button
exports the last recording as a Spine skeleton JSON (:func:`ikplayground.scene.export_spine`,
docs/spine-export.md) the same way."""

from __future__ import annotations

import threading
from pathlib import Path

from ikplayground.scene import ANIMATION_FORMAT, bake_recording, export_spine, free_name, nothing_at, shown_name

_EXPORT_HEAD = ('{\n  "format": "' + ANIMATION_FORMAT + '",').encode()  # how bake_recording's files begin
_SPINE_HEAD = b'{\n "skeleton": {\n  "hash": "",\n  "spine": "'  # how export_spine's files begin


def animation_path(csv_path, chain: int | None = None) -> Path:
    """Where the keyframes of ``csv_path`` go: ``<stem>-animation.json`` beside it
    (``<stem>-chain<k>-animation.json`` for chain ``k`` alone), replacing only an earlier export: where
    something else is there, the first of ``-2``, ``-3``... that is free or an earlier export."""
    csv_path = Path(csv_path)
    tail = "-animation.json" if chain is None else f"-chain{chain}-animation.json"
    return free_name(csv_path.with_name(csv_path.stem + tail), _replaceable)


def spine_path(csv_path) -> Path:
    """Where the Spine export of ``csv_path`` goes: ``<stem>-spine.json`` beside it, replacing only an earlier
    Spine export (else ``-2``, ``-3``...)."""
    csv_path = Path(csv_path)
    return free_name(csv_path.with_name(csv_path.stem + "-spine.json"), lambda path: _replaceable(path, _SPINE_HEAD))


def _replaceable(path: Path, head: bytes = _EXPORT_HEAD) -> bool:
    """Whether nothing is at ``path``, or a file that begins as an export does (``head``)."""
    try:
        if nothing_at(path):
            return True
        with open(path, "rb") as file:
            return file.read(len(head)) == head
    except (OSError, ValueError):  # a folder, an unreadable file: not ours to replace
        return False


class ExportMode:
    """The App's Export animation button and its "Selected chain only" box."""

    def __init__(self, app):
        self.app = app
        self.selected_only = False
        self._thread: threading.Thread | None = None
        self._outcome: tuple[str, bool] | None = None  # (status line, is an error) of the bake just done

    @property
    def busy(self) -> bool:
        return self._thread is not None

    def set_selected_only(self, on=None) -> None:
        """The box: bake only the selected chain (``on``; None flips it)."""
        self.selected_only = (not self.selected_only) if on is None else bool(on)
        self.app.panel.box_states["export_selected_box"] = self.selected_only

    def export(self) -> None:
        """Bake the current or last recording on a worker thread."""
        app = self.app
        csv_path = self._recording("Export animation")
        if csv_path is None:
            return
        chain = None
        if self.selected_only:
            selected = app.scene.selected
            if selected is None or selected not in app.scene.chains:
                app.say("Not exported: no chain is selected (untick 'Selected chain only' to export all)",
                        error=True)
                return
            chain = app.scene.chains.index(selected)
        out = animation_path(csv_path, chain)
        self._start(self._bake, (csv_path, dict(app.record.rig), out, chain))
        app.say(f"Exporting {shown_name(csv_path)} to {shown_name(out)}...")

    def _recording(self, button: str):
        """The recording to export (a running one stopped and saved first), or None, said why."""
        app = self.app
        if self.busy:
            app.say("Still exporting the last animation: a moment", error=True)
            return None
        if app.record.active:
            app.record.stop()
        if app.record.path is None:
            app.say(f"Nothing to export yet: record a run first (Ctrl+R), then {button}", error=True)
        return app.record.path

    def _start(self, job, args) -> None:
        self._outcome = None
        self._thread = threading.Thread(target=job, args=args, daemon=True, name="ikplayground-export")
        self._thread.start()

    def export_spine(self) -> None:
        """Export the current or last recording as a Spine skeleton JSON beside it, on a worker thread."""
        app = self.app
        csv_path = self._recording("Export to Spine")
        if csv_path is None:
            return
        out = spine_path(csv_path)
        self._start(self._spine, (csv_path, dict(app.record.rig), out))
        app.say(f"Exporting {shown_name(csv_path)} to {shown_name(out)} (Spine)...")

    def _spine(self, csv_path, rig, out) -> None:
        """On the worker thread: the Spine export, and the status line's words."""
        try:
            done = export_spine(csv_path, rig, out)
        except (ValueError, OSError) as e:
            self._outcome = (f"Spine export failed: {getattr(e, 'strerror', None) or e}", True)
            return
        except Exception as e:  # noqa: BLE001 - a worker's surprise must reach the status line, not vanish
            self._outcome = (f"Spine export failed: {type(e).__name__}: {e}", True)
            return
        self._outcome = (f"Exported to Spine JSON {shown_name(done.path)}: {done.bones} bones, {done.keys} keys, "
                         f"{done.frames} frames", False)

    def _bake(self, csv_path, rig, out, chain) -> None:
        """On the worker thread: bake, and keep the status line's words."""
        try:
            baked = bake_recording(csv_path, rig, out, chain=chain)
        except (ValueError, OSError) as e:
            reason = getattr(e, "strerror", None) or e
            self._outcome = (f"Animation not exported: {reason}", True)
            return
        except Exception as e:  # noqa: BLE001 - a worker's surprise must reach the status line, not vanish
            self._outcome = (f"Animation not exported: {type(e).__name__}: {e}", True)
            return
        self._outcome = (f"Exported {baked.tracks} track{'s' * (baked.tracks != 1)} ({baked.frames} keyframes) "
                         f"to {shown_name(baked.path)}", False)

    def poll(self) -> None:
        """Once a frame: when the bake has ended, say how."""
        thread = self._thread
        if thread is None or thread.is_alive():
            return
        thread.join()
        self._thread = None
        if self._outcome is not None:
            self.app.say(*self._outcome)

    def wait(self, timeout: float | None = None) -> None:
        """Wait for a bake under way to end (closing the App; tests), then say how it ended."""
        if self._thread is not None:
            self._thread.join(timeout)
            self.poll()
