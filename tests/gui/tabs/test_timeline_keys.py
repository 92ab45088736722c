"""Issue 31.10: in the timeline, Down and Up step bodies (top rows), Right goes into a body's calls."""
from __future__ import annotations

from PySide6.QtCore import Qt

from tests.conftest import DEMO


def test_arrows_step_bodies_and_right_goes_into_the_calls(qtbot, window, open_file):
    open_file(window, DEMO)
    tree, model = window.timeline.tree, window.timeline.model
    window.timeline.choose_cursor("b7")
    tree.setFocus()
    qtbot.keyClick(tree, Qt.Key.Key_Down)
    assert window.context.cursor == "b8"  # the next body, not b7's call c30
    qtbot.keyClick(tree, Qt.Key.Key_Up)
    assert window.context.cursor == "b7"
    qtbot.keyClick(tree, Qt.Key.Key_Right)  # into b7's calls (it is open): its first call
    row, call = model.item(tree.currentIndex())
    assert call is not None and call.id == "c30"
    qtbot.keyClick(tree, Qt.Key.Key_Down)  # within the calls the arrows step as usual
    assert tree.currentIndex().isValid()
