"""What a window shows of a widget, read from its backing store: what a partial repaint left, not painted afresh."""
from __future__ import annotations

from PySide6.QtCore import QRect


def on_screen(window, view):
    """`view`'s viewport as the window's backing store holds it (a grab would paint everything afresh, and a cell
    left unpainted that should have changed would not show)."""
    viewport = view.viewport()
    corner = viewport.mapTo(window, viewport.rect().topLeft())
    ratio = window.devicePixelRatioF()
    picture = window.screen().grabWindow(window.winId()).toImage()
    return picture.copy(QRect(int(corner.x() * ratio), int(corner.y() * ratio), int(viewport.width() * ratio), int(viewport.height() * ratio)))
