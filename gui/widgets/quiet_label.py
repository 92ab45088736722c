"""A label whose text changes repaint only itself, not the whole window.

A QLabel's setText always asks its parent layouts to lay out again, up to the main window, and a
QMainWindow laying out repaints every widget in it (measured: 20–40 ms on the 100,000-entry
session, offscreen). Counts that change on every line a followed file appends (the timeline's
summary, the Inputs count, the status bar) made every append repaint the whole window. Here the
QLabel sits in a parent without a layout, where its requests stop; this widget asks its layout
for room again only when the text does not fit (wider than the label, or another number of
lines), or would leave more than a fifth of the label's width empty: a count whose digits differ
in width by a pixel or two does not lay the window out.
"""
from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

SLACK = 0.8  # of its width a one-line label may leave empty before it gives the room back


class QuietLabel(QWidget):
    """A label (`text`, `setText`, word-wrapped if `wrap`) that relays out its parents only when its size changes."""

    def __init__(self, parent: QWidget | None = None, wrap: bool = False):
        super().__init__(parent)
        self.label = QLabel(self)
        self.label.setWordWrap(wrap)
        policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        policy.setHeightForWidth(wrap)
        self.setSizePolicy(policy)
        self._keeps_widest = False
        self._yields = False  # keep_widest(yielding=True): the widest is wanted, not required; less room elides
        self._widest = 0
        self._keeps_tallest = False
        self._tallest = (0, 0)  # keep_tallest: (width, height) of the tallest text shown at that width
        self._full = ""  # the text; the label shows it elided at its end when it yields room

    def keep_widest(self, yielding: bool = False) -> None:
        """From now on grow to the widest text shown and never give the room back (one line): for
        figures that change on every cursor move ("36 of 36 entries at the end of the session", then
        "at body b2"), where each width given back laid the window out.

        `yielding`: the widest is the width wanted, not a minimum: a narrow window gets less, and the
        text ends in "…" (the whole of it in the tooltip). The status bar's labels: their minimums
        summed made a 1024 px window 1,088 px wide, its right side off screen, when the Trim tab's cap showed.
        """
        self._keeps_widest, self._yields = True, yielding

    def keep_tallest(self) -> None:
        """From now on (a word-wrapped label) keep the height of the tallest text shown at this width, its text at
        the top: the Inputs entry's title, one line for one entry and two for the next in a narrow pane or a wide
        font, moved the tree under it up and down on cursor moves (and repainted it). Another width measures afresh."""
        self._keeps_tallest = True
        self.label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)

    def text(self) -> str:
        """The text (whole, though the label may show it cut)."""
        return self._full

    def setText(self, text: str) -> None:  # noqa: N802 — QLabel's name: callers need not know the difference
        """Show `text`; the layouts above hear of it only when it needs another size."""
        if text == self._full:
            return
        self._full = text
        self._show()
        self._ask_for_room()

    def _show(self) -> None:
        """The text as it fits: whole, or (a yielding label given less than its width) cut at its end."""
        text, room = self._full, self.contentsRect().width()
        metrics = self.label.fontMetrics()
        cut = self._yields and 0 < room < metrics.horizontalAdvance(text)
        self.label.setText(metrics.elidedText(text, Qt.TextElideMode.ElideRight, room) if cut else text)
        tip = "\n".join(filter(None, (text, self.toolTip()))) if cut else ""
        if tip != self.label.toolTip():  # each setToolTip sends an event, and most texts are whole: no tooltip, again
            self.label.setToolTip(tip)

    def _ask_for_room(self) -> None:
        """Ask the layouts above for another size only when the text needs it (see the module's docstring)."""
        if self._keeps_widest and self._yields:
            wanted = self._text_size().width()
            if wanted > self._widest:
                self._widest = wanted
                self.updateGeometry()  # once per new widest
        elif self._keeps_widest:
            wanted = self.sizeHint().width()
            if wanted > self.minimumWidth():
                self.setMinimumWidth(wanted)  # asks the layouts above for room, once per new widest
        elif not self._fits():
            self.updateGeometry()

    def _text_size(self) -> QSize:
        """The whole text's size, though the label shows it cut."""
        if self.label.text() == self._full:  # shown whole: the label's own measure, to the pixel
            return self.label.sizeHint().grownBy(self.contentsMargins())
        metrics = self.label.fontMetrics()
        return QSize(metrics.horizontalAdvance(self._full) + 2, self.label.sizeHint().height()).grownBy(self.contentsMargins())

    def setStyleSheet(self, sheet: str) -> None:  # noqa: N802 — QWidget's name
        """Style the text, unless that style is set: on the inner label, whose re-polish stops here
        (on this widget it asked the layouts above for room, up to the main window, at each change)."""
        if sheet != self.label.styleSheet():
            self.label.setStyleSheet(sheet)
            self.label.ensurePolished()  # its font as the sheet sets it, measured now
            self._show()
            self._ask_for_room()  # a bold text is wider

    def styleSheet(self) -> str:  # noqa: N802 — QWidget's name
        return self.label.styleSheet()

    def _fits(self) -> bool:
        """The text fits the room the layout gave, without much to spare."""
        room = self.contentsRect()
        if self.label.wordWrap():
            return self._text_height(room.width()) == room.height()
        wanted = self.label.sizeHint().width()
        return SLACK * room.width() <= wanted <= room.width()

    def hasHeightForWidth(self) -> bool:  # noqa: N802 — Qt's hook
        return self.label.wordWrap()

    def heightForWidth(self, width: int) -> int:  # noqa: N802 — Qt's hook
        margins = self.contentsMargins()
        return self._text_height(width - margins.left() - margins.right()) + margins.top() + margins.bottom()

    def _text_height(self, width: int) -> int:
        """The height the text wants at `width` inside the margins; no less than the tallest kept there (keep_tallest)."""
        wanted = self.label.heightForWidth(width)
        kept_width, kept = self._tallest
        return max(wanted, kept) if self._keeps_tallest and width == kept_width else wanted

    def sizeHint(self) -> QSize:  # noqa: N802 — Qt's hook
        if self._yields:
            size = self._text_size()
            return QSize(max(size.width(), self._widest), size.height())
        return self.label.sizeHint().grownBy(self.contentsMargins())

    def minimumSizeHint(self) -> QSize:  # noqa: N802 — Qt's hook
        if self._yields:  # a short figure whole, a long one a dozen characters and "…": the rest is in the tooltip
            # Not the text's own width (a layout keeps the minimum it read, and this label does not ask again at
            # each text) but the widest yet, which asks when it grows: "22 entries" kept 120 px for 77.
            margins = self.contentsMargins()
            width = min(self.label.fontMetrics().horizontalAdvance("0" * 12 + "…"), self._widest - margins.left() - margins.right())
            return QSize(max(width, 0), self.label.sizeHint().height()).grownBy(margins)
        return self.label.minimumSizeHint().grownBy(self.contentsMargins())

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 — Qt's hook
        super().resizeEvent(event)
        room = self.contentsRect()
        self.label.setGeometry(room)
        if self._keeps_tallest:
            self._tallest = (room.width(), room.height())  # what the layout gave for the tallest asked (_text_height)
        if self._yields:
            self._show()


def restyle(widget: QWidget, sheet: str) -> None:
    """Set `widget`'s style sheet unless it is the one set: setting it re-polishes it, which lays the window out."""
    if sheet != widget.styleSheet():
        widget.setStyleSheet(sheet)
