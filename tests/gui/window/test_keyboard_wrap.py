"""Issue 31.10: F8 / F7 wrap past the last (and Shift past the first), and say so; a session with none says that.

The demo's failed bodies are b5 (a refused keep) and b7; its canvas edits e1, e2, e3.
"""
from __future__ import annotations

import json

from PySide6.QtCore import Qt

from tests.conftest import DEMO


def test_f8_steps_through_the_failed_bodies_and_wraps_round(qtbot, window, open_file):
    open_file(window, DEMO)
    window.timeline.tree.setFocus()
    seen = []
    for _ in range(3):
        qtbot.keyClick(window, Qt.Key.Key_F8)
        seen.append((window.context.cursor, window.status.currentMessage()))
    assert seen == [("b5", "body b5 (wrapped to the first)"), ("b7", "body b7"), ("b5", "body b5 (wrapped to the first)")]
    qtbot.keyClick(window, Qt.Key.Key_F8, Qt.KeyboardModifier.ShiftModifier)  # back from b5: round to the last
    assert window.context.cursor == "b7" and window.status.currentMessage() == "body b7 (wrapped to the last)"


def test_f7_wraps_through_the_canvas_edits(qtbot, window, open_file):
    open_file(window, DEMO)
    shown = []
    for _ in range(4):
        qtbot.keyClick(window, Qt.Key.Key_F7)
        shown.append(window.status.currentMessage())
    assert shown == ["entry e1 (wrapped to the first)", "entry e2", "entry e3", "entry e1 (wrapped to the first)"]


def test_a_session_without_failures_says_there_is_none(qtbot, window, open_file, tmp_path):
    path = tmp_path / "fine.json"
    path.write_text(json.dumps({"format": "worker-session/1", "session": {"id": "s"}, "store": [],
                                "bodies": [{"id": "b1", "code": "return 1;", "result": {"ok": True, "returned": 1}}]}))
    open_file(window, path)
    qtbot.keyClick(window, Qt.Key.Key_F8)
    assert window.context.cursor is None and window.status.currentMessage() == "none in this session"


def test_ctrl_enter_is_in_the_f1_list(qtbot, window):
    sections = dict(window.keyboard.shortcut_sections())
    assert ("Ctrl+Enter (in the Run tab)", "run the body in the editor at the cursor") in sections["In tables and fields"]
