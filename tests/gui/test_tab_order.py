"""Issue 31.10: Tab goes through the Inputs tab in reading order: filter, search, resolver, table, the input."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tests.conftest import DEMO


def test_tab_reads_the_inputs_tab_in_order(qtbot, window, open_file):
    open_file(window, DEMO)
    window.activateWindow()
    inputs = window.views["inputs"]
    qtbot.keyClick(window, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)  # Ctrl+F: the search field
    assert QApplication.focusWidget() is inputs.search_edit
    seen = []
    for _ in range(3):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        seen.append(QApplication.focusWidget())
    assert seen == [inputs.resolver_edit, inputs.table, inputs.tree]
