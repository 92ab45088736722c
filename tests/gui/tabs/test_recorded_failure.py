"""Issue 31.2: a failed body's recorded outcome is in view in the Run tab and the Inputs header, and the editor marks its line.

Driven as a person would: Ctrl+5 for the Run tab, a click on body b7's row in the timeline, Ctrl+1 for Inputs.
The demo's b7 failed with "Error: offset distance must be positive …" (recorded without a line) at its
third line, where it calls modules.site.boundary.offset (c30, which got no answer).
"""
from __future__ import annotations

from PySide6.QtCore import Qt

from tests.conftest import DEMO

MESSAGE = "offset distance must be positive (got a negative distance)"


def _click_body(qtbot, window, key: str) -> None:
    tree, model = window.timeline.tree, window.timeline.model
    index = model.index(model.row_for_cursor(key), 0)
    tree.scrollTo(index)
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=tree.visualRect(index).center())
    assert window.context.cursor == key


def test_a_failed_bodys_recorded_error_logs_and_line_are_in_the_run_tab(qtbot, window, open_file):
    open_file(window, DEMO)
    qtbot.keyClick(window, Qt.Key.Key_5, Qt.KeyboardModifier.ControlModifier)
    view = window.views["run"]
    _click_body(qtbot, window, "b7")
    assert "Recorded:" in view.status_label.text() and "failed" in view.status_label.text()
    assert "Not run yet" not in view.status_label.text()
    error = view.error_label.text()
    assert view.error_label.isVisible() and MESSAGE in error and "line 3:" in error and "c30" in error
    kind, message = view.editor.mark_at(3)
    assert kind == "error" and message == f"Error: {MESSAGE}"
    assert view.editor.textCursor().blockNumber() == 2  # the editor went to the line

    _click_body(qtbot, window, "b5")  # a refused keep, recorded with its logs and no line
    assert "InvalidKeepError" in view.error_label.text() and "the record gives no line" in view.error_label.text()
    assert view.logs_text.toPlainText() == "re-run 5 runs; score 0.8072"
    assert view.result_tabs.currentWidget() is view.logs_text
    assert view.editor.mark_at(3) is None  # b7's mark went with b7

    _click_body(qtbot, window, "b2")
    assert "✓ ok" in view.status_label.text() and view.error_label.isHidden()


def test_the_inputs_header_says_the_cursors_body_failed(qtbot, window, open_file):
    open_file(window, DEMO)
    qtbot.keyClick(window, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)
    inputs = window.views["inputs"]
    outcome = inputs.outcome_label
    assert outcome.text().startswith("The end of the session") and not outcome.failed
    _click_body(qtbot, window, "b7")
    assert outcome.isVisible() and outcome.failed
    assert outcome.text().startswith(f"✗ Body b7 failed as recorded: Error: {MESSAGE} · line 3 (of c30")
    assert outcome.toolTip() == outcome.text()  # the whole line, however narrow the tab
    _click_body(qtbot, window, "b2")
    assert outcome.text() == "Body b2 ran ok as recorded." and not outcome.failed
