"""BodyBox: a body chooser narrower than its choice ends it in "…", the whole in the tooltip."""
import pytest
from PySide6.QtCore import QEvent
from PySide6.QtGui import QFontMetrics, QHelpEvent
from PySide6.QtWidgets import QApplication, QToolTip

from tests.gui.conftest import OFFSCREEN_NOISE
from wsi_inspector.gui.widgets.body_choices import BodyBox

LONG = "the end of the session, and a good deal more than a narrow box holds"


def _box(qtbot, width: int) -> BodyBox:
    box = BodyBox()
    qtbot.addWidget(box)
    box.addItems(["body b1", LONG])
    box.setCurrentIndex(1)
    box.setFixedWidth(width)
    box.show()
    qtbot.waitExposed(box)
    return box


def test_a_choice_wider_than_the_box_ends_in_an_ellipsis_and_fits(qtbot):
    # Qt's own box drew "the end of the sess": cut through a letter, as if that were the text.
    box = _box(qtbot, box_width := 12 * QFontMetrics(QApplication.font()).horizontalAdvance("0"))
    shown = box.shown_text()
    assert shown.endswith("\u2026") and LONG.startswith(shown[:-1]) and len(shown) > 1
    assert box.fontMetrics().horizontalAdvance(shown) < box_width
    box.grab()  # paints through the fitted text without error


def test_a_choice_that_fits_is_whole_and_has_no_tooltip_of_its_own(qtbot):
    box = _box(qtbot, 2 * QFontMetrics(QApplication.font()).horizontalAdvance(LONG) + 60)
    assert box.shown_text() == LONG
    box.setCurrentIndex(0)
    assert box.shown_text() == "body b1"


# The tooltip is shown: the offscreen platform has no stacking to raise it in.
@pytest.mark.qt_log_ignore(OFFSCREEN_NOISE, r"^This plugin does not support raise\(\)$")
def test_the_tooltip_of_a_cut_choice_is_the_whole(qtbot):
    box = _box(qtbot, 12 * QFontMetrics(QApplication.font()).horizontalAdvance("0"))
    center = box.rect().center()
    QApplication.sendEvent(box, QHelpEvent(QEvent.Type.ToolTip, center, box.mapToGlobal(center)))
    qtbot.waitUntil(lambda: QToolTip.isVisible() and QToolTip.text() == LONG, timeout=3000)
    QToolTip.hideText()
