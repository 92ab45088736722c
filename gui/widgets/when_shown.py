"""`WhenShown`: the work a view owes while it is hidden, done once when it is shown.

A tab behind another follows the session and the cursor only when a person looks: remaking its table, diffing,
indexing or replaying on every move of a big session was work no one saw (a quarter of a millisecond of each paused
move for the Kept tab, a second of indexing for Trim, a replay for the Run tab's reads). Each view says what a change
asks of it; while it is hidden only the most a change asked for is kept, and done when the view is shown.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget


class WhenShown:
    """What a hidden view owes: one piece of work, the highest-ranked one asked for since it was last done.

    `owe(work, rank)` does `work` at once when `is_shown()`, else keeps it unless work of a higher rank is kept
    already (a new session, whose showing covers the cursor's, outranks a cursor move); `catch_up()` does what is
    kept (from the view's showEvent, or whenever the view must be current); `forget()` drops it (it was done another
    way, or is no longer wanted).
    """

    def __init__(self, is_shown: Callable[[], bool]):
        self.is_shown = is_shown
        self._work: Callable[[], object] | None = None
        self._rank = 0

    @property
    def owes(self) -> bool:
        """Whether work is kept for when the view is shown."""
        return self._work is not None

    def owe(self, work: Callable[[], object], rank: int = 0) -> bool:
        """Do `work` now if the view is shown (True), else keep it for `catch_up` (False)."""
        if self.is_shown():
            self.catch_up()
            work()
            return True
        if self._work is None or rank >= self._rank:
            self._work, self._rank = work, rank
        return False

    def catch_up(self) -> None:
        """Do the work kept, if any, once."""
        work, self._work = self._work, None
        if work is not None:
            work()

    def forget(self) -> None:
        """Drop the work kept."""
        self._work = None


def in_front(view: QWidget) -> Callable[[], bool]:
    """`is_shown` for a view read at once when its window is not shown either (tests, headless use)."""
    return lambda: view.isVisible() or not view.window().isVisible()
