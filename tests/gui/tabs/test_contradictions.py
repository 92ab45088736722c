"""Issue 31.11: what the window says does not contradict itself: counts in the singular, a body failing as
recorded is not a green "= same", and the Run tab's words agree with its status."""
from __future__ import annotations

import json

from PySide6.QtCore import Qt

from tests.conftest import DEMO


def test_one_body_and_one_entry_are_said_in_the_singular(qtbot, window, open_file, tmp_path):
    path = tmp_path / "one.json"
    path.write_text(json.dumps({"format": "worker-session/1", "session": {"id": "s"},
                                "store": [{"id": "c1", "call": "site.plan.plan", "input": {"a": 1}, "seq": 1}],
                                "bodies": [{"id": "b1", "code": "return inputs.at('c1').a;", "seq": 5,
                                            "result": {"ok": True, "returned": 1}}]}))
    open_file(window, path)
    assert window.timeline.summary.text().startswith("1 body · 1 entry · ")
    assert window.views["inputs"].count_label.text() == "1 of 1 entry at the end of the session"
    run = window.views["run"]
    qtbot.keyClick(window, Qt.Key.Key_5, Qt.KeyboardModifier.ControlModifier)
    with qtbot.waitSignal(run.bridge.replay_done, timeout=60_000):
        qtbot.mouseClick(run.replay_button, Qt.MouseButton.LeftButton)
    assert " of 1 body the same" in run.status_label.text()  # never "1 bodies"
    window.timeline.choose_cursor("b1")
    assert "over 1 entry," in run.scope_label.text()


def test_a_body_failing_as_recorded_replays_as_same_but_not_as_a_plain_same(qtbot, window, open_file):
    open_file(window, DEMO)
    run = window.views["run"]
    with qtbot.waitSignal(run.bridge.replay_done, timeout=60_000):
        qtbot.mouseClick(run.replay_button, Qt.MouseButton.LeftButton)
    model = window.timeline.model
    b7 = model.index(model.row_for_cursor("b7"), 1)
    b2 = model.index(model.row_for_cursor("b2"), 1)
    assert model.data(b2) == "same" and model.data(b7) == "same ✗"
    assert model.data(b7, Qt.ItemDataRole.ToolTipRole) == "replay: replays as recorded, and fails as recorded (the same error)"


def test_an_empty_recorded_calls_column_gives_its_room_to_the_first_difference(qtbot, window, open_file, tmp_path):
    # Issue 31.8: Replay's "first difference" was cut to "call 1: recorded …" beside an empty "recorded calls".
    document = json.loads(DEMO.read_text())
    document["bodies"][1]["code"] = "return 1;"  # b2 makes none of its recorded calls: differs, answered by no record
    path = tmp_path / "differs.json"
    path.write_text(json.dumps(document))
    open_file(window, path)
    run = window.views["run"]
    with qtbot.waitSignal(run.bridge.replay_done, timeout=60_000):
        qtbot.mouseClick(run.replay_button, Qt.MouseButton.LeftButton)
    table, verdicts = run.replay_page.table, run.replay_page.verdicts
    assert any(not v["same"] for v in verdicts)
    assert not any(v.get("recordedCalls") for v in verdicts) and table.isColumnHidden(2)
    assert table.columnWidth(3) > 150  # the first difference takes the room
    assert table.textElideMode() == Qt.TextElideMode.ElideRight  # and, prose, is cut at its end if ever (issue 31.8)


def test_kept_names_added_are_said_added_not_changed():
    from wsi_inspector.gui.tabs.changes.view import summary_words

    document = {"bodies": ["b1"], "bytes": {"from": 0, "to": 10, "delta": 10}, "added": [], "removed": [],
                "kept": {"added": ["spine", "zone"], "removed": [], "changed": []}}
    assert summary_words(document).endswith("kept: 2 names added")
    document["kept"] = {"added": ["spine"], "removed": [], "changed": ["zone"]}
    assert summary_words(document).endswith("kept: 1 name added, 1 name changed")
    document["kept"] = {"added": [], "removed": [], "changed": []}
    assert summary_words(document).endswith("kept unchanged")


def test_the_copy_confirmation_goes_when_another_edit_is_chosen(qtbot, window, open_file):
    open_file(window, DEMO)
    qtbot.keyClick(window, Qt.Key.Key_3, Qt.KeyboardModifier.ControlModifier)
    edits = window.views["edits"]
    qtbot.waitUntil(lambda: edits.ready, timeout=20_000)
    assert edits.select_edit("e1")
    qtbot.waitUntil(lambda: edits.current_detail() is not None, timeout=20_000)
    before = edits.summary.text()
    qtbot.mouseClick(edits.copy_button, Qt.MouseButton.LeftButton)
    assert edits.summary.text().startswith("Copied a body that rebuilds e1")
    table = edits.edits_table
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=table.visualRect(table.model().index(1, 0)).center())
    assert edits.summary.text() == before


def test_a_status_icon_keeps_its_colour_when_its_row_is_selected(qapp):
    from PySide6.QtCore import QSize
    from PySide6.QtGui import QIcon

    from wsi_inspector.gui.window.look import status_icon

    icon = status_icon("failed")
    normal = icon.pixmap(QSize(32, 32), QIcon.Mode.Normal).toImage()
    selected = icon.pixmap(QSize(32, 32), QIcon.Mode.Selected).toImage()
    assert normal.pixelColor(16, 4) == selected.pixelColor(16, 4)  # the red ring, not tinted purple


def test_long_edit_ids_are_whole_in_the_edits_table(qtbot, window, open_file, tmp_path):
    # Issue 31.8: edit ids were "…" on big sessions.
    from PySide6.QtGui import QFontMetrics

    from wsi_inspector.gui.window.look import monospace

    store = [{"id": "c-0001", "call": "pack.rooms.room", "unit": "mm", "input": {"width": 1}}]
    store += [{"id": f"edit-{n:06d}-of-the-long-room", "call": "pack.rooms.room", "unit": "mm", "applied": True,
               "editOf": "c-0001", "input": {"width": n}} for n in range(1, 4)]
    path = tmp_path / "ids.json"
    path.write_text(json.dumps({"format": "worker-session/1", "session": {"id": "s"}, "store": store}))
    open_file(window, path)
    qtbot.keyClick(window, Qt.Key.Key_3, Qt.KeyboardModifier.ControlModifier)
    edits = window.views["edits"]
    qtbot.waitUntil(lambda: edits.ready, timeout=20_000)
    needed = QFontMetrics(monospace()).horizontalAdvance("edit-000003-of-the-long-room")
    assert edits.edits_table.columnWidth(0) >= needed + 24


def test_a_body_recorded_ok_whose_replay_diverged_shows_no_green_tick_beside_the_not_equal(qtbot, window, open_file, tmp_path):
    # Issue 31.11: a ✓ beside a ≠ diverged badge in the timeline.
    from wsi_inspector.gui.window.look import STATUS_COLOURS

    document = json.loads(DEMO.read_text())
    document["bodies"][1]["code"] = "return 1;"  # b2 was recorded ok; replayed now it returns something else
    path = tmp_path / "diverges.json"
    path.write_text(json.dumps(document))
    open_file(window, path)
    run = window.views["run"]
    window.show_tab("run")
    with qtbot.waitSignal(run.bridge.replay_done, timeout=60_000):
        qtbot.mouseClick(run.replay_button, Qt.MouseButton.LeftButton)
    model = window.timeline.model
    b2, b3 = model.row_for_cursor("b2"), model.row_for_cursor("b3")
    assert model.data(model.index(b2, 1)) == "diverged"

    def mark_colour(row):  # the colour of the round mark's middle: its fill
        image = model.data(model.index(row, 0), Qt.ItemDataRole.DecorationRole).pixmap(32, 32).toImage()
        return image.pixelColor(4, 16).name()

    assert mark_colour(b2) == STATUS_COLOURS["recorded-ok"] != STATUS_COLOURS["ok"]  # grey, not green
    assert "its replay does not come out the same" in model.data(model.index(b2, 0), Qt.ItemDataRole.ToolTipRole)
    assert model.data(model.index(b3, 1)) == "same" and mark_colour(b3) == STATUS_COLOURS["ok"]  # a same replay keeps its ✓
    window.timeline.tree.scrollTo(model.index(b2, 0))
    window.timeline.grab().save("/tmp/window-rest-diverged.png")
