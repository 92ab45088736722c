"""Issues 29.2 and 31.11: the cap tried in the Trim tab is held by the context, and the status bar shows it beside the session's.

Before, the status bar said "cap 5.6 KiB: nothing falls" while the Trim tab was at 2.5 KiB, as if one figure.
"""
from __future__ import annotations

from PySide6.QtCore import Qt

from wsi_inspector.gui.actions.export import export_for
from tests.conftest import DEMO


def test_a_cap_typed_in_the_trim_tab_is_the_contexts_and_the_status_bar_says_it_apart(qtbot, window, open_file):
    open_file(window, DEMO)
    qtbot.keyClick(window, Qt.Key.Key_4, Qt.KeyboardModifier.ControlModifier)  # the Trim tab
    trim = window.views["trim"]
    assert window.context.trim_cap is None and not window.status.trim_label.isVisible()
    trim.cap_field.setFocus()
    trim.cap_field.selectAll()
    qtbot.keyClicks(trim.cap_field, "2.5KiB")
    qtbot.keyClick(trim.cap_field, Qt.Key.Key_Return)
    assert window.context.trim_cap == 2560
    label = window.status.trim_label
    assert label.isVisible() and label.text().startswith("Trim tab tries 2.5 KiB: ") and "would fall" in label.text()
    assert ", cap 5.6 KiB: " in window.status.store_label.text()  # the session's own cap, unchanged
    export = export_for(window.context, window.services)
    assert not isinstance(export, str) and "--cap 2560" in export.command
    qtbot.mouseClick(trim.session_cap_button, Qt.MouseButton.LeftButton)
    assert window.context.trim_cap is None and not label.isVisible()
