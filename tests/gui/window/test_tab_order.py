"""Issue 31.10: Tab goes through the Inputs tab in reading order: filter, search, resolver, table, the input."""
from __future__ import annotations

import pytest
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


# Each tab's panes as they read (left to right, top to bottom); a pane Qt skips (hidden, disabled) is left out.
READING = {
    "kept": ("table", "tree", "refused_table"),
    "edits": ("edits_table", "step_combo", "copy_button", "filter_edit", "unit_box", "changes_table",
              "model_tree", "person_tree", "plot"),
    "trim": ("slider", "cap_field", "unit_box", "session_cap_button", "compare_field", "warnings", "plot", "table"),
    "run": ("body_combo", "lang_combo", "revert_button", "timeout_box", "run_button", "stop_button",
            "replay_button", "reduce_button", "deterministic_box", "editor"),
    "changes": ("from_box", "to_box", "store_table", "kept_table", "detail"),
    "problems": ("table", "tree", "text"),
}


def _reachable(widget):
    return widget.isVisible() and widget.isEnabled() and bool(widget.focusPolicy() & Qt.FocusPolicy.TabFocus)


@pytest.mark.parametrize("name", sorted(READING))
def test_tab_reads_every_other_tab_in_order(qtbot, window, open_file, name):
    """A person clicks the tab, clicks its first pane and presses Tab: focus goes through the panes as they read."""
    open_file(window, DEMO)
    window.activateWindow()
    view = window.views[name]
    qtbot.mouseClick(window.tabs.tabBar(), Qt.MouseButton.LeftButton,
                     pos=window.tabs.tabBar().tabRect(window.tabs.indexOf(view)).center())
    assert window.tabs.currentWidget() is view
    panes = [getattr(view, attribute) for attribute in READING[name]]
    expected = [pane for pane in panes if _reachable(pane)]
    assert len(expected) >= 2  # the demo leaves panes to go through (Problems shows its tree or its text)
    expected[0].setFocus(Qt.FocusReason.MouseFocusReason)
    seen = [QApplication.focusWidget()]
    for _ in expected[1:]:
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        focused = QApplication.focusWidget()
        seen.append(next((pane for pane in panes if pane is focused or pane.isAncestorOf(focused)), focused))
    assert seen == expected
