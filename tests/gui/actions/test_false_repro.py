"""Issue 31.1 / 29.2, the false repro: open the Run tab, click a call row in the timeline, Reduce….

Before, the tab read "Body: b1" and "Runs at body b6" at once, and Reduce… reduced b6 with b1's code
("0 of N entries were needed … fails the same way"), and the reduced window showed b6's recorded code.
Now the Run tab shows the cursor's body, Reduce… reduces the code shown, and the reduced window's editor
holds the code that was reduced. Driven by keys and clicks on a real window, with real V8.
"""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from wsi_inspector.gui.actions.reduce_panel import ReducePanel
from tests.helpers.reduce_sessions import FAILING_BODY, failing_session

REDUCE_TIMEOUT_MS = 60_000


@pytest.fixture
def long_session(tmp_path):
    return failing_session(tmp_path / "long.json")


def _click_the_call_before(qtbot, window, body_key: str) -> None:
    """Click (with the mouse) the call row just above body `body_key` in the timeline: it stands for that body's state."""
    tree, model = window.timeline.tree, window.timeline.model
    call = model.index(model.row_for_cursor(body_key) - 1, 0)
    row, _ = model.item(call)
    assert row.kind == "entry", f"the row above {body_key} is a {row.kind}"
    tree.scrollTo(call)
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=tree.visualRect(call).center())


def _open_run_tab_and_click_a_call(qtbot, window, open_file, path):
    open_file(window, path)
    qtbot.keyClick(window, Qt.Key.Key_5, Qt.KeyboardModifier.ControlModifier)  # View ▸ Run tab
    view = window.views["run"]
    assert window.tabs.currentWidget() is view
    assert view.body_combo.currentData() == "b1"  # at the end of the session the tab starts on the first body
    _click_the_call_before(qtbot, window, "b6")  # a module call handed to b6: the cursor moves to b6
    assert window.context.cursor == "b6"
    return view


def test_clicking_a_call_row_puts_the_cursors_body_in_the_run_tab(qtbot, window, open_file, long_session):
    view = _open_run_tab_and_click_a_call(qtbot, window, open_file, long_session)
    assert view.body_combo.currentData() == "b6"
    assert view.editor.toPlainText() == FAILING_BODY
    assert "Body <b>b6</b> runs at its own point" in view.scope_label.text()


def test_choosing_a_new_body_says_plainly_where_it_runs(qtbot, window, open_file, long_session):
    view = _open_run_tab_and_click_a_call(qtbot, window, open_file, long_session)
    view.body_combo.setFocus()
    qtbot.keyClick(view.body_combo, Qt.Key.Key_Home)  # the first line of the chooser: (new body)
    assert view.body_combo.currentData() is None
    assert "A new body runs at body b6" in view.scope_label.text()
    assert view.reduce_body() is None  # nothing recorded to reduce: said, not guessed
    assert "holds a new body" in view.status_label.text()


def test_reduce_after_a_timeline_click_reduces_the_code_shown_and_the_reduced_window_shows_it(qtbot, window, open_file, long_session):
    view = _open_run_tab_and_click_a_call(qtbot, window, open_file, long_session)
    view.editor.setFocus()
    qtbot.keyClick(view.editor, Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(view.editor, "// reduced as edited")
    shown = view.editor.toPlainText()
    assert shown == FAILING_BODY + "// reduced as edited"
    qtbot.mouseClick(view.reduce_button, Qt.MouseButton.LeftButton)
    panels = view.findChildren(ReducePanel)
    assert len(panels) == 1
    panel = panels[0]
    assert panel.body.key == "b6" and panel._job[0] == shown  # b6, with the code in view
    with qtbot.waitSignal(panel.done, timeout=REDUCE_TIMEOUT_MS) as done:
        pass
    reduced = done.args[0]
    assert reduced is not None
    qtbot.addWidget(reduced)
    qtbot.waitUntil(lambda: reduced.context.session is not None and reduced.context.cursor == "b6", timeout=20_000)
    qtbot.waitUntil(reduced.notice.isVisible, timeout=5_000)
    assert "2 of 152 entries were needed" in reduced.notice.label.text()
    reduced_view = reduced.views["run"]
    assert reduced_view.body_combo.currentData() == "b6"
    assert reduced_view.editor.toPlainText() == shown  # the code that was reduced, not the record's
    assert reduced_view.revert_button.isEnabled()  # Revert shows the record
    qtbot.mouseClick(reduced_view.revert_button, Qt.MouseButton.LeftButton)
    assert reduced_view.editor.toPlainText() == FAILING_BODY
