"""Seen in the issue 31 screenshots: a failed body's Run tab showed an empty tree headed "key value type" under
"Returned", saying nothing. The tab's title says there is none, and its tooltip why."""
from __future__ import annotations

from PySide6.QtCore import Qt

from tests.conftest import DEMO


def test_a_body_that_returned_nothing_says_so_on_its_returned_tab(window, open_file, qtbot):
    open_file(window, DEMO)
    qtbot.keyClick(window, Qt.Key.Key_5, Qt.KeyboardModifier.ControlModifier)  # the Run tab
    run = window.views["run"]
    tabs = run.result_tabs
    returned = tabs.indexOf(run.returned_tree)
    window.context.set_cursor("b6")
    qtbot.keyClick(window, Qt.Key.Key_F8)  # the next failed body: b7, which threw
    qtbot.waitUntil(lambda: window.context.cursor is not None and str(window.context.cursor) == "b7", timeout=3000)
    assert tabs.tabText(returned) == "Returned (none)"
    assert "failed" in tabs.tabToolTip(returned)
    window.context.set_cursor("b8")  # recorded ok, with a returned value
    qtbot.waitUntil(lambda: tabs.tabText(returned) == "Returned", timeout=3000)
    assert run.returned_tree.json_model.rowCount(run.returned_tree.json_model.root_index()) > 0
