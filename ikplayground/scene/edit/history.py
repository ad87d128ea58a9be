"""Undo and redo: a bounded history of edits, each one able to undo and redo itself.

Two stacks, as in every editor: undo moves the newest entry to the redo side,
redo moves it back, a new edit clears the redo side. At most ``max_entries``
entries are kept, and entries holding chains out of the scene (a ``weight``:
a load, a removed chain) go oldest first while both sides weigh more than
``max_weight``; the newest entry always stays. The scene's edits are in
:mod:`.edits`, the App's in ``app/undo.py``.
"""

from __future__ import annotations

from collections import deque
from typing import Callable

MAX_ENTRIES = 256  # undo steps kept (at least 200, as issue 15 asks)
MAX_WEIGHT = 20_000  # chains held out of the scene by all entries together (one scene's cap, MAX_CHAINS)


class Refused(Exception):
    """An edit that cannot undo or redo itself now: it changed nothing and stays; the message says why."""


class Edit:
    """One undoable edit.

    Parameters
    ----------
    label : str
        What it did, as the status line names it after "Undid: " / "Redid: ".
    undo, redo : callable, optional
        Each returns the chain to select or None (a subclass overrides the methods instead).
    weight : int
        Chains this entry holds that are not in the scene shown.

    Example: ``history.push(Edit("mirror flip on CCD #3", undo=flip, redo=flip))``.
    """

    def __init__(self, label: str, undo: Callable | None = None, redo: Callable | None = None, weight: int = 0):
        self.label = label
        self._undo = undo
        self._redo = redo
        self.weight = weight

    def undo(self):
        return self._undo() if self._undo is not None else None

    def redo(self):
        return self._redo() if self._redo is not None else None

    def absorb(self, newer: Edit) -> bool:
        """Take ``newer`` into this edit (one entry for one slider drag); False when they do not merge."""
        return False

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.label!r})"


class History:
    """The undo and redo stacks, bounded.

    Parameters
    ----------
    max_entries : int
        Entries the undo side keeps (the oldest dropped first); >= 1.
    max_weight : int
        Chains the entries of both sides may hold together; the newest entry stays whatever its weight.
    """

    def __init__(self, max_entries: int = MAX_ENTRIES, max_weight: int = MAX_WEIGHT):
        if max_entries < 1 or max_weight < 0:
            raise ValueError(f"History: max_entries must be >= 1 and max_weight >= 0 "
                             f"(got {max_entries}, {max_weight})")
        self.max_entries = max_entries
        self.max_weight = max_weight
        self._done: deque[Edit] = deque()
        self._undone: list[Edit] = []
        self.weight = 0  # of both sides

    def __len__(self) -> int:
        """Entries that can be undone."""
        return len(self._done)

    @property
    def redoable(self) -> int:
        """Entries that can be redone."""
        return len(self._undone)

    @property
    def top(self) -> Edit | None:
        """The entry the next undo undoes."""
        return self._done[-1] if self._done else None

    def recent(self, k: int) -> tuple[list[str], list[str]]:
        """The labels of the ``k`` entries undo reaches first, and of the ``k`` redo reaches first."""
        done = [self._done[-1 - i].label for i in range(min(k, len(self._done)))]
        undone = [e.label for e in self._undone[::-1][:k]]
        return done, undone

    @property
    def next_redo(self) -> Edit | None:
        """The entry the next redo redoes."""
        return self._undone[-1] if self._undone else None

    def push(self, edit: Edit, merge: bool = False) -> None:
        """Record ``edit``, clearing the redo side (``merge``: the newest entry may absorb it)."""
        self.clear_redo()
        if merge and self._done and self._done[-1].absorb(edit):
            return
        self._done.append(edit)
        self.weight += edit.weight
        self._trim()

    def undo(self) -> tuple[Edit, object] | None:
        """Undo the newest entry: (the entry, the chain to select or None); None when there is none."""
        if not self._done:
            return None
        edit = self._done.pop()
        self._undone.append(edit)  # before it runs: an action that looks at the history sees it gone
        try:
            return edit, edit.undo()
        except Refused:
            self._done.append(self._undone.pop())
            raise

    def redo(self) -> tuple[Edit, object] | None:
        """Redo the entry undone last: (the entry, the chain to select or None); None when there is none."""
        if not self._undone:
            return None
        edit = self._undone.pop()
        self._done.append(edit)
        try:
            return edit, edit.redo()
        except Refused:
            self._undone.append(self._done.pop())
            raise

    def drop(self, edit: Edit) -> bool:
        """Forget ``edit`` if it is the newest entry (an edit that came to nothing); False otherwise."""
        if not self._done or self._done[-1] is not edit:
            return False
        self._done.pop()
        self.weight -= edit.weight
        return True

    def clear_redo(self) -> None:
        self.weight -= sum(e.weight for e in self._undone)
        self._undone.clear()

    def clear(self) -> None:
        self._done.clear()
        self._undone.clear()
        self.weight = 0

    def labels(self) -> list[str]:
        """The undo side's labels, oldest first."""
        return [e.label for e in self._done]

    def _trim(self) -> None:
        while len(self._done) > 1 and (len(self._done) > self.max_entries or self.weight > self.max_weight):
            self.weight -= self._done.popleft().weight
