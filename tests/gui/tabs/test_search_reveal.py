"""A value search in Inputs shows where the text is: the first entry that holds it, its match five levels
deep expanded and highlighted, Enter / Shift+Enter through the matches, and their count."""
from __future__ import annotations

import json

from PySide6.QtCore import Qt

from wsi_inspector.gui.window.look import HIGHLIGHT


def write_session(path):
    deep = {"site": {"wing": {"level": {"room": {"label": "North stair", "tag": "north"}}}}}
    path.write_text(json.dumps({"format": "worker-session/1", "session": {"id": "s"}, "store": [
        {"id": "c1", "call": "site.plan.plan", "input": {"name": "south court"}},
        {"id": "c2", "call": "site.plan.plan", "input": deep},
        {"id": "c3", "call": "site.plan.plan", "input": {"east": 1}},
        {"id": "c4", "call": "site.plan.plan", "input": {"notes": ["northern light"]}},
    ]}))
    return path


def current_pointer(inputs):
    node = inputs.tree.current_node()
    return node.pointer if node is not None else None


def test_a_search_shows_expands_and_highlights_the_match_and_enter_steps_through_them(qtbot, window, open_file, tmp_path):
    open_file(window, write_session(tmp_path / "deep.json"))
    window.show_tab("inputs")
    inputs = window.views["inputs"]
    table = inputs.table
    rect = table.visualRect(inputs.model.index(2, 0))  # c3: an entry without the text
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert inputs.shown_entry.id == "c3"
    inputs.search_edit.setFocus()
    qtbot.keyClicks(inputs.search_edit, "north")
    qtbot.waitUntil(lambda: inputs.model.rowCount() == 2, timeout=3000)
    assert inputs.shown_entry.id == "c2"  # not the unrelated entry that was shown
    assert current_pointer(inputs) == "/site/wing/level/room/label"  # five levels down, expanded
    index = inputs.tree.currentIndex()
    assert inputs.tree.isExpanded(index.parent())
    assert inputs.tree.model().data(index.siblingAtColumn(1), Qt.ItemDataRole.BackgroundRole) == HIGHLIGHT
    qtbot.waitUntil(lambda: inputs.match_label.text() == "1 of 3 in 2 entries", timeout=3000)  # one count over all
    qtbot.keyClick(inputs.search_edit, Qt.Key.Key_Return)
    assert current_pointer(inputs) == "/site/wing/level/room/tag" and inputs.match_label.text() == "2 of 3 in 2 entries"
    qtbot.keyClick(inputs.search_edit, Qt.Key.Key_Return)  # on to the next entry that holds it
    assert inputs.shown_entry.id == "c4" and current_pointer(inputs) == "/notes/0"
    assert inputs.match_label.text() == "3 of 3 in 2 entries"
    assert inputs.count_label.text().startswith("2 of 4 entries")  # the entry count, kept apart
    qtbot.keyClick(inputs.search_edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)  # back: c2's last
    assert inputs.shown_entry.id == "c2" and current_pointer(inputs) == "/site/wing/level/room/tag"
    inputs.search_edit.clear()
    qtbot.waitUntil(lambda: inputs.model.rowCount() == 4, timeout=3000)
    assert inputs.match_label.text() == ""


def test_a_deep_key_is_not_cut_by_its_indentation(qtbot, window, open_file, tmp_path):
    open_file(window, write_session(tmp_path / "deep.json"))
    window.show_tab("inputs")
    inputs = window.views["inputs"]
    inputs.search_edit.setFocus()
    qtbot.keyClicks(inputs.search_edit, "north")
    qtbot.waitUntil(lambda: inputs.model.rowCount() == 2, timeout=3000)
    rect = inputs.table.visualRect(inputs.model.index(0, 0))  # c2, the first entry holding it
    qtbot.mouseClick(inputs.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert inputs.shown_entry.id == "c2"
    tree = inputs.tree
    rect = tree.visualRect(tree.currentIndex())  # the "label" key, five levels in
    assert rect.left() + tree.fontMetrics().horizontalAdvance("label") <= tree.columnWidth(0)


def test_moving_the_cursor_before_the_shown_entry_shows_one_of_the_store_there(qtbot, window, open_file):
    from tests.conftest import DEMO

    open_file(window, DEMO)
    inputs = window.views["inputs"]
    assert inputs.shown_entry.id == "c33"  # the newest, at the end of the session
    window.timeline.choose_cursor("b5")
    assert inputs.shown_entry is not None and any(e is inputs.shown_entry for e in window.context.state.store)


def test_a_search_over_a_big_store_runs_off_the_gui_thread_and_enter_waits_for_it(qtbot, window, open_file, tmp_path, monkeypatch):
    import threading

    import wsi_inspector.gui.tabs.inputs.view

    monkeypatch.setattr(wsi_inspector.gui.tabs.inputs.view, "BACKGROUND_QUERY", 0)  # every store counts as big here
    open_file(window, write_session(tmp_path / "deep.json"))
    window.show_tab("inputs")
    inputs = window.views["inputs"]
    threads, rows = [], inputs.context.index.rows

    def rows_seen(*args, **kwargs):
        threads.append(threading.current_thread())
        return rows(*args, **kwargs)

    monkeypatch.setattr(inputs.context.index, "rows", rows_seen)
    rect = inputs.table.visualRect(inputs.model.index(2, 0))  # c3: an entry without the text
    qtbot.mouseClick(inputs.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    inputs.search_edit.setText("north")
    inputs.refresh()  # what the typing delay does
    assert inputs.count_label.text().startswith("searching")
    inputs.step_match(True)  # Enter before the rows landed: done once they do
    qtbot.waitUntil(lambda: inputs.model.rowCount() == 2, timeout=5000)
    assert threads and threading.main_thread() not in threads
    qtbot.waitUntil(lambda: inputs.match_label.text() == "2 of 3 in 2 entries", timeout=3000)
    assert inputs.count_label.text().startswith("2 of 4 entries")
    assert inputs.shown_entry.id == "c2" and current_pointer(inputs) == "/site/wing/level/room/tag"  # the step: match 2


def test_a_search_the_shown_entry_holds_is_revealed_in_place_and_enter_steps_inside_it_first(qtbot, window, open_file, tmp_path):
    # Issue 31.3: with the entry already shown holding the text there was no expansion, no highlight
    # and no count, and the first Enter jumped to another entry.
    open_file(window, write_session(tmp_path / "deep.json"))
    window.show_tab("inputs")
    inputs = window.views["inputs"]
    rect = inputs.table.visualRect(inputs.model.index(1, 0))  # c2: it holds "north" twice, five levels down
    qtbot.mouseClick(inputs.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert inputs.shown_entry.id == "c2"
    inputs.search_edit.setFocus()
    qtbot.keyClicks(inputs.search_edit, "north")
    qtbot.waitUntil(lambda: inputs.model.rowCount() == 2, timeout=3000)
    assert inputs.shown_entry.id == "c2"  # stays
    assert current_pointer(inputs) == "/site/wing/level/room/label"  # revealed in place, expanded
    index = inputs.tree.currentIndex()
    assert inputs.tree.model().data(index.siblingAtColumn(1), Qt.ItemDataRole.BackgroundRole) == HIGHLIGHT
    qtbot.waitUntil(lambda: inputs.match_label.text() == "1 of 3 in 2 entries", timeout=3000)
    qtbot.keyClick(inputs.search_edit, Qt.Key.Key_Return)  # the next match is in this entry, not another
    assert inputs.shown_entry.id == "c2" and current_pointer(inputs) == "/site/wing/level/room/tag"
    assert inputs.match_label.text() == "2 of 3 in 2 entries"
