"""The window opens inside the screen: a first open within the available geometry, a saved one only if it fits.

Under a 1280×1024 screen the inspector opened 1400 wide, its right side off screen; a geometry saved
on a larger monitor came back the same way. `fit_to_screen` runs once the window has its saved
geometry (if any) and before it shows.
"""
from __future__ import annotations

from PySide6.QtCore import QRect
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget

MARGIN = 0.04  # of the available size, left free around a window that had to shrink


def fitted(window: QRect, available: QRect) -> QRect:
    """`window` when it lies inside `available`; else as large as it was up to the available size less a margin, centred."""
    if available.contains(window):
        return QRect(window)
    width = min(window.width(), round(available.width() * (1 - MARGIN)))
    height = min(window.height(), round(available.height() * (1 - MARGIN)))
    left = available.left() + (available.width() - width) // 2
    top = available.top() + (available.height() - height) // 2
    return QRect(left, top, width, height)


def fit_to_screen(window: QWidget, available: QRect | None = None) -> None:
    """Move and shrink `window` into `available`: by default the available geometry of the screen it is on (else the primary)."""
    if available is None:
        screen = QGuiApplication.screenAt(window.frameGeometry().center()) or window.screen() or QGuiApplication.primaryScreen()
        if screen is None:
            return
        available = screen.availableGeometry()
    frame = window.frameGeometry()
    inner = window.geometry()
    extra_w, extra_h = frame.width() - inner.width(), frame.height() - inner.height()  # the title bar and borders
    target = fitted(frame, available)
    if target != frame:
        window.resize(max(1, target.width() - extra_w), max(1, target.height() - extra_h))
        window.move(target.topLeft())
