"""Where a column's text is cut when it must be: ids in the middle, prose at its end (docs/window.md, "Nothing cut off").

A view has one elide mode for all its columns. Its prose (shapes, words) ends in "…" after the view's mode
(`Qt.ElideRight`, which nothing else sets: `look.fit_column` sizes a column and leaves it); a column of ids
is given `IdRowsElided` (`ids_in_the_middle`), so that when no room can be had for one both of its ends read
(`pack.corr…corridorRuns`), its whole text in the tooltip.
"""
from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QAbstractItemView, QLabel, QStyledItemDelegate, QStyleOptionViewItem, QWidget


def every_row(_index: QModelIndex | QPersistentModelIndex) -> bool:
    """A column of ids only: every row's text is an id (IdRowsElided's default)."""
    return True


def no_row(_index: QModelIndex | QPersistentModelIndex) -> bool:
    """A column of prose: no row's text is an id, every one cut at its end (the view's way)."""
    return False


class IdRowsElided(QStyledItemDelegate):
    """Paints a cell as the view does; the rows `is_id` names (every row, by default) cut in the middle, the
    others at their end (the view's way). The one place a delegate says where a column's text is cut: the note
    marks (note_actions.NoteMark) are these too, so a column cuts its ids the same with notes or without."""

    def __init__(self, view: QAbstractItemView, is_id: Callable[[QModelIndex | QPersistentModelIndex], bool] = every_row):
        super().__init__(view)
        self.is_id = is_id

    def initStyleOption(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> None:  # noqa: N802 — Qt's hook
        super().initStyleOption(option, index)
        if self.is_id(index):
            option.textElideMode = Qt.TextElideMode.ElideMiddle


def ids_in_the_middle(view: QAbstractItemView, *columns: int) -> None:
    """Prose in `view` elides at its end; the id `columns` in the middle. Called again, it changes nothing.

    A column already painted by an IdRowsElided of its own (a note mark: note_actions) keeps it; give a column
    its note marks after this, and they cut its ids in the middle too (note_actions.attach)."""
    view.setTextElideMode(Qt.TextElideMode.ElideRight)
    delegate = next((d for d in view.findChildren(IdRowsElided) if type(d) is IdRowsElided and d.is_id is every_row), None)
    for column in columns:
        if not isinstance(view.itemDelegateForColumn(column), IdRowsElided):
            delegate = delegate or IdRowsElided(view)
            view.setItemDelegateForColumn(column, delegate)


class LinesLabel(QLabel):
    """A word-wrapped label of at most `lines` lines, its own height: a longer text ends in "…" (prose
    cuts at its end), the whole of it in the tooltip. The Trim tab's headline: its fixed height (the plot
    under it does not move while the cap is dragged) was two lines of a smaller font than its own, and a
    third line of "at 2.5 KiB 8 of 22 entries fall, …; inputs.last(…) would return nothing …" was cut through."""

    def __init__(self, lines: int, style: str = "", parent: QWidget | None = None):
        super().__init__(parent)
        self.lines = lines
        self._full = ""
        self.setWordWrap(True)
        self.setStyleSheet(style)
        self.ensurePolished()  # the sheet's font, measured now
        self.setFixedHeight(lines * self.fontMetrics().lineSpacing() + 2 * self.margin() + 4)

    def text(self) -> str:
        """The whole text, though the label may show it cut (`shown_text`)."""
        return self._full

    def shown_text(self) -> str:
        """The text as shown: whole, or cut at its end to the label's lines."""
        return super().text()

    def set_full_text(self, text: str) -> None:
        """Show `text`, cut at its end to the label's lines."""
        self._full = text
        self._fit()

    def _fit(self) -> None:
        width = self.contentsRect().width() - 2 * self.margin()
        metrics = self.fontMetrics()
        text = self._full

        def height(shown: str) -> int:
            return metrics.boundingRect(QRect(0, 0, max(width, 1), 1 << 20), Qt.TextFlag.TextWordWrap, shown).height()

        room = self.lines * metrics.lineSpacing()
        if width > 0 and height(text) > room:
            words = text.split(" ")
            low, high = 0, len(words)  # the most words that fit with "…" after them
            while low < high:
                middle = (low + high + 1) // 2
                if height(" ".join(words[:middle]) + " …") <= room:
                    low = middle
                else:
                    high = middle - 1
            text = " ".join(words[:low]).rstrip(",;:") + " …"
        self.setText(text)
        self.setToolTip(self._full if text != self._full else "")

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 — Qt's hook
        super().resizeEvent(event)
        self._fit()
