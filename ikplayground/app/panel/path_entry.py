"""The scene file box of the panel: a text line that stays fast and safe for any input, scrolled to its end (the
file name) while not typed in."""

from __future__ import annotations

import pygame
import pygame_gui
from pygame_gui.elements import UITextEntryLine

from ikplayground.app.draw.overlay import REPLACEMENT, undrawable
from ikplayground.app.size_caps import PATH_MAX_BYTES

PATH_NOTICE = pygame.event.custom_type()  # the path box's word for the status line: event.text


def utf8_size(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


class PathEntry(UITextEntryLine):
    """The scene file box: pygame_gui's text line, kept fast and safe for any input.

    Typing goes in once a frame and a paste in one piece (pygame_gui lays the line out again per character);
    it holds at most ``PATH_MAX_BYTES`` of UTF-8 (typing stops, a paste too long is refused, a ``PATH_NOTICE``
    says so); what the font cannot draw is left out, or shown as � in a path set by code (``get_text`` gives
    that path exactly until edited); the App's key repeat survives focus changes.
    """

    def __init__(self, relative_rect, manager, container, path: str = "", **kwargs):
        self._pending: list[str] = []  # typed text not yet in the box
        self._path = self._shown = ""  # a path set by code, and how the box shows it
        super().__init__(relative_rect, manager, container, **kwargs)
        self.set_text(path)

    def drawable(self, ch: str) -> bool:
        """True when the box's font draws ``ch`` with some width."""
        if undrawable(ch) or self.font is None:
            return False
        metrics = self.font.get_metrics(ch)
        return bool(metrics) and metrics[0] is not None and metrics[0][4] > 0

    def clean(self, text: str) -> tuple[str, int]:
        """``text`` without what the box cannot draw, and how many characters were left out."""
        kept = "".join(ch for ch in text if self.drawable(ch))
        return kept, len(text) - len(kept)

    def set_text(self, text: str | None) -> None:
        """Show ``text``: what cannot be drawn as �, past the length cap only its end."""
        self._pending.clear()
        path = text or ""
        mark = REPLACEMENT if self.drawable(REPLACEMENT) else "?"
        shown = "".join(ch if self.drawable(ch) else mark for ch in path)
        if utf8_size(shown) > PATH_MAX_BYTES:  # a path no system opens: show its end only
            shown = shown.encode("utf-8")[-(PATH_MAX_BYTES - 3):].decode("utf-8", "ignore")
            shown = "…" + shown
        self._path, self._shown = path, shown
        super().set_text(shown)
        self.show_end()

    def show_end(self) -> None:
        """Scroll the line to its end, where a path's file name is (pygame_gui shows the start)."""
        self.edit_position = len(self.text)
        shape = self.drawable_shape
        if shape is not None and shape.text_box_layout is not None:
            shape.text_box_layout.set_cursor_position(self.edit_position)
            shape.apply_active_text_changes()
            self.redraw()

    def get_text(self) -> str:
        """The path in the box (the path set by code while the box still shows it)."""
        self._flush()
        return self._path if self.text == self._shown else self.text

    def process_event(self, event) -> bool:
        mine = self.is_enabled and self.is_focused
        if mine and event.type == pygame.TEXTINPUT:
            mods = pygame.key.get_mods()
            if event.text == "v" and mods & (pygame.KMOD_CTRL | pygame.KMOD_META):
                self._flush()  # pygame_gui's case: on a Mac a paste can come as this alone
                self.paste()
            else:
                self._pending.append(event.text)
            return True
        self._flush()  # before anything else reads or moves the text
        if (mine and event.type == pygame.KEYDOWN and event.key == pygame.K_v
                and event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META) and not event.mod & pygame.KMOD_ALT):
            self.paste()
            return True
        return super().process_event(event)

    def update(self, time_delta: float) -> None:
        self._flush()
        super().update(time_delta)

    def focus(self) -> None:
        repeat = pygame.key.get_repeat()
        super().focus()
        pygame.key.set_repeat(*repeat)

    def unfocus(self) -> None:
        self._flush()  # pygame_gui moves the cursor to the start on unfocus
        repeat = pygame.key.get_repeat()
        super().unfocus()
        pygame.key.set_repeat(*repeat)
        self.show_end()

    def paste(self) -> None:
        """Ctrl+V: the clipboard's text in one piece, or nothing and a word why."""
        if not self.ui_manager.paste_text_enabled or not self.paste_text_enabled:
            return
        text = pygame.scrap.get_text() or ""
        if len(text) > 2 * PATH_MAX_BYTES:  # could not fit even with characters left out: no need to look
            self.notice(f"Not pasted: {len(text):,} characters are far more than a path can hold "
                        f"({PATH_MAX_BYTES:,} bytes, Linux's PATH_MAX). The box is unchanged.")
            return
        self.insert(text, whole=True)

    def _flush(self) -> None:
        if self._pending:
            text = "".join(self._pending)
            self._pending.clear()
            self.insert(text, whole=False)

    def insert(self, text: str, whole: bool) -> None:
        """Put ``text`` in for the selection or at the cursor, within the cap (``whole``: a paste, all or nothing)."""
        text, dropped = self.clean(text)
        words = []
        if dropped:
            words.append(f"Left out {dropped} character{'s' if dropped > 1 else ''} the box cannot show "
                         "(control characters, or ones its font has no shape for).")
        if text and self.validate_text_string(text):
            lo, hi = sorted(self.select_range)
            if lo == hi:
                lo = hi = self.edit_position
            before, after = self.text[:lo], self.text[hi:]
            room = PATH_MAX_BYTES - utf8_size(before) - utf8_size(after)
            if utf8_size(text) > room:
                if whole:
                    words.append(f"Not pasted: the path would be {utf8_size(before + text + after):,} bytes, "
                                 f"and a path holds at most {PATH_MAX_BYTES:,} (Linux's PATH_MAX). "
                                 "The box is unchanged.")
                    text = ""
                else:
                    fits = text.encode("utf-8")[:max(room, 0)].decode("utf-8", "ignore")
                    words.append(f"The scene file path is at its limit of {PATH_MAX_BYTES:,} bytes "
                                 f"(Linux's PATH_MAX): {len(text) - len(fits):,} more characters were not added.")
                    text = fits
            if text:
                self._put(before + text + after, text, lo)
                pygame.event.post(pygame.event.Event(pygame_gui.UI_TEXT_ENTRY_CHANGED, text=self.text,
                                                     ui_element=self,
                                                     ui_object_id=self.most_specific_combined_id))
        if words:
            self.notice(" ".join(words))

    def _put(self, final: str, new: str, at: int) -> None:
        """Make the text ``final`` by one insertion of ``new`` at ``at``, as pygame_gui's paste does."""
        shape = self.drawable_shape
        layout = shape.text_box_layout if shape is not None else None
        self.text = final
        if shape is not None and layout is not None:  # (layout is None whenever shape is)
            if self.select_range[0] != self.select_range[1]:
                layout.delete_selected_text()
                shape.apply_active_text_changes()
            shape.insert_text(new, at)
        self.edit_position = at + len(new)
        if shape is not None and layout is not None:
            layout.set_cursor_position(self.edit_position)
            shape.apply_active_text_changes()
        self.select_range = [0, 0]
        self.cursor_has_moved_recently = True

    def notice(self, text: str) -> None:
        pygame.event.post(pygame.event.Event(PATH_NOTICE, text=text, ui_element=self))
