"""The focus ring: the pane that has the keyboard focus framed in the theme's accent colour.

Fusion marks a focused table or editor with a faint outline that a person could not find after a Tab.
The ring is one small transparent widget laid over the focused pane's frame, moved as the focus
moves (QApplication.focusChanged), so no style sheet is set and no cell paints through Python.
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QRect, Qt
from PySide6.QtGui import QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QAbstractItemView, QAbstractScrollArea, QApplication, QPlainTextEdit, QTextEdit, QWidget

from wsi_inspector.gui.window.theme import colour

RING_WIDTH = 2  # px: seen at a glance beside a table's 1 px grid and frame
FRAMED = (QAbstractItemView, QPlainTextEdit, QTextEdit)  # the panes a person reads and steps through


def framed_pane(widget: QWidget | None) -> QAbstractScrollArea | None:
    """The item view or editor that `widget` is (or whose viewport it is): the pane to frame, else None."""
    while widget is not None and not isinstance(widget, FRAMED):
        parent = widget.parentWidget()
        if not isinstance(parent, QAbstractScrollArea) or widget is not parent.viewport():
            return None
        widget = parent
    return widget


class FocusRing(QWidget):
    """A frame in the accent colour ("focus") over the focused item view or editor of its window."""

    def __init__(self, window: QWidget):
        super().__init__(window)
        self._window = window
        self.pane: QAbstractScrollArea | None = None
        self.setObjectName("focusRing")
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setAttribute(Qt.WidgetAttribute.WA_NoSystemBackground)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.hide()
        app = QApplication.instance()
        assert isinstance(app, QApplication)
        app.focusChanged.connect(self._focus_changed)

    def _focus_changed(self, _old: QWidget | None, new: QWidget | None) -> None:
        pane = framed_pane(new)
        if pane is not None and pane.window() is not self._window:
            pane = None  # another window's pane: that window has its own ring, or none
        if pane is self.pane:
            return
        if self.pane is not None:
            self.pane.removeEventFilter(self)
        self.pane = pane
        if pane is None:
            self.hide()
            self.setParent(self._window)
            return
        self.setParent(pane)  # over the pane's viewport and scroll bars, moved and hidden with it
        pane.installEventFilter(self)
        self._fit()
        self.show()
        self.raise_()

    def _fit(self) -> None:
        if self.pane is not None:
            self.setGeometry(QRect(0, 0, self.pane.width(), self.pane.height()))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 — Qt's hook
        if watched is self.pane and event.type() == QEvent.Type.Resize:
            self._fit()
        return False

    def paintEvent(self, _event: QPaintEvent) -> None:  # noqa: N802 — Qt's hook
        painter = QPainter(self)
        pen = QPen(colour("focus"), RING_WIDTH)
        pen.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
        painter.setPen(pen)
        half = RING_WIDTH / 2
        painter.drawRect(self.rect().toRectF().adjusted(half, half, -half, -half))
        painter.end()
