"""A scroll bar paints every pixel of itself, so Qt paints nothing beneath it (issue 28.3).

A cursor move scrolls the Inputs table and the timeline; under each bar Qt painted its parents first (the timeline's
dock with its title and frame, the views' frames, the bars' containers). LookStyle draws a bar's groove from a
picture as large as the bar, so the bars are opaque: what the window shows must not change by a pixel.
"""
from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor, QPixmap, QRegion
from PySide6.QtWidgets import QApplication, QScrollBar, QStyleFactory, QWidget

from tests.helpers.window_sizes import demo_at
from wsi_inspector.gui.window.theme import apply_look

OPAQUE = Qt.WidgetAttribute.WA_OpaquePaintEvent


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_window_looks_the_same_with_its_scroll_bars_opaque(window, open_file, qtbot, theme, monkeypatch):
    monkeypatch.setenv("WSI_THEME", theme)
    apply_look(QApplication.instance())  # the application's style, as `wsi gui` makes it
    try:
        demo_at(window, open_file, qtbot, "b5", "inputs")
        window.context.set_cursor(None)  # the whole store: the Inputs table scrolls
        qtbot.wait(50)
        bars = [bar for bar in window.findChildren(QScrollBar) if bar.isVisible()]
        assert {bar.parent().parent().objectName() for bar in bars} >= {"inputsTable", "timelineTree"}
        assert all(bar.testAttribute(OPAQUE) for bar in bars), "every bar LookStyle draws is opaque"
        for bar in bars:
            assert _unpainted(bar) == 0, bar.parent().parent().objectName()
        opaque = window.grab().toImage()
        for bar in bars:
            bar.setAttribute(OPAQUE, False)
        painted_beneath = window.grab().toImage()
        for bar in bars:
            bar.setAttribute(OPAQUE, True)
        assert opaque == painted_beneath
    finally:
        monkeypatch.delenv("WSI_THEME")
        apply_look(QApplication.instance())


def _unpainted(bar: QScrollBar) -> int:
    """The pixels of `bar` it leaves as they were: drawn alone, its own painting only, over a colour it never uses."""
    sentinel = QColor(255, 0, 255)
    picture = QPixmap(bar.size())
    picture.fill(sentinel)
    bar.render(picture, QPoint(), QRegion(), QWidget.RenderFlag.DrawChildren)  # not DrawWindowBackground: no fill first
    image = picture.toImage()
    return sum(image.pixelColor(x, y) == sentinel for x in range(image.width()) for y in range(image.height()))


def test_a_bar_another_style_draws_is_left_as_qt_makes_it(qtbot):
    apply_look(QApplication.instance())
    own = QScrollBar()
    qtbot.addWidget(own)
    own.show()
    assert own.testAttribute(OPAQUE)
    own.setStyle(QStyleFactory.create("Fusion"))  # its groove is not a picture of the bar: pixels may be left to the parent
    assert not own.testAttribute(OPAQUE)
