"""The Changes tab: what changed between two points, following the cursor, picked by the person."""
from PySide6.QtCore import Qt


def wait_compared(qtbot, view):
    qtbot.waitUntil(lambda: view.document is not None, timeout=5000)
    return view.document


def test_cursor_shows_what_the_previous_body_did(window, open_file, demo_path, qtbot):
    open_file(window, demo_path)
    view = window.views["changes"]
    window.tabs.setCurrentWidget(view)
    window.context.set_cursor("b5")
    document = wait_compared(qtbot, view)
    assert view.from_box.currentText() == "body b4" and view.to_box.currentText() == "body b5"
    assert document["bodies"] == ["b4"]
    ids = [view.store_model.data(view.store_model.index(row, 1)) for row in range(view.store_model.rowCount())]
    assert ids[:2] == ["c14", "c15"] and ids[-3:] == ["e1", "e2", "e3"]
    assert "1 body ran (b4)" in view.summary.text()


def test_picking_from_by_keyboard_keeps_it_while_the_cursor_moves(window, open_file, demo_path, qtbot):
    open_file(window, demo_path)
    view = window.views["changes"]
    window.tabs.setCurrentWidget(view)
    window.context.set_cursor("b3")
    wait_compared(qtbot, view)
    view.from_box.setFocus()
    qtbot.keyClick(view.from_box, Qt.Key.Key_Home)  # body b1
    qtbot.waitUntil(lambda: view.document is not None and view.document["from"] == "b1", timeout=5000)
    window.context.set_cursor(None)
    qtbot.waitUntil(lambda: view.document is not None and view.document["to"] is None, timeout=5000)
    assert view.from_box.currentText() == "body b1"
    kept = {view.kept_model.data(view.kept_model.index(r, 1)) for r in range(view.kept_model.rowCount())}
    assert kept == {"spine", "departmentId", "zoneWidth", "summary"}


def test_choosing_a_kept_change_shows_its_diff(window, open_file, tmp_path, qtbot):
    import json

    path = tmp_path / "s.json"
    path.write_text(json.dumps({"format": "worker-session/1", "session": {"id": "s"}, "store": [], "bodies": [
        {"id": "b1", "code": "", "keep": {"spine": [[0, 0], [10, 0]]}},
        {"id": "b2", "code": "", "keep": {"spine": [[0, 0], [10, 5]]}},
        {"id": "b3", "code": ""}]}))
    open_file(window, path)
    view = window.views["changes"]
    window.tabs.setCurrentWidget(view)
    view.choose_points("b2", "b3")
    document = wait_compared(qtbot, view)
    assert document["kept"]["changed"][0]["name"] == "spine"
    assert view.kept_model.data(view.kept_model.index(0, 2)).startswith("1 change:")
    model = view.detail.json_model
    root = model.node(model.root_index())
    assert root.value == [{"op": "replace", "path": "/1", "from": [10, 0], "to": [10, 5]}]


def test_a_hidden_changes_tab_compares_nothing_until_it_is_shown(window, open_file, demo_path, qtbot):
    open_file(window, demo_path)
    view = window.views["changes"]
    window.show_tab("inputs")
    window.context.set_cursor("b5")
    qtbot.wait(50)
    assert view.document is None and view.store_model.rowCount() == 0
    window.show_tab("changes")
    document = wait_compared(qtbot, view)
    assert document["from"] == "b4" and document["to"] == "b5"


def test_the_shape_column_keeps_room_to_be_read_when_calls_are_long(window, open_file, demo_path, qtbot):
    window.resize(1280, 800)
    window.show()
    open_file(window, demo_path)
    view = window.views["changes"]
    window.tabs.setCurrentWidget(view)
    window.context.set_cursor("b5")
    wait_compared(qtbot, view)
    qtbot.wait(20)
    table = view.store_table
    assert table.columnWidth(3) >= 110, [table.columnWidth(c) for c in range(5)]  # was 65 px: "{de…le}"
    assert table.textElideMode() == Qt.TextElideMode.ElideRight  # shapes end in "…" (issue 31.8)
    from PySide6.QtWidgets import QStyleOptionViewItem

    option = QStyleOptionViewItem()
    table.itemDelegateForColumn(2).initStyleOption(option, view.store_model.index(0, 2))
    assert option.textElideMode == Qt.TextElideMode.ElideMiddle  # a call cut short keeps both ends
    header = table.horizontalHeader()
    assert header.sectionViewportPosition(4) + header.sectionSize(4) <= table.viewport().width()  # bytes in view


def test_a_hidden_changes_tab_follows_the_cursor_only_once_shown(window, open_file, demo_path, qtbot):
    # Issue 18, point 4: finding the cursor's body in the boxes grows with the session (half a
    # millisecond of each cursor move on 20,000 bodies), for a tab no one was looking at.
    open_file(window, demo_path)
    view = window.views["changes"]
    window.show_tab("inputs")
    before = (view.from_box.currentIndex(), view.to_box.currentIndex())
    for cursor in ("b5", "b2", "b5"):
        window.context.set_cursor(cursor)
    assert (view.from_box.currentIndex(), view.to_box.currentIndex()) == before
    window.show_tab("changes")
    assert view.from_box.currentText() == "body b4" and view.to_box.currentText() == "body b5"
    assert wait_compared(qtbot, view)["to"] == "b5"


def test_with_kept_unchanged_the_calls_take_the_empty_panes_room_and_are_whole(window, open_file, demo_path, qtbot):
    # Issue 31.8: at 1024 px "pack.corr…ridorRuns" and shapes "{d…e}" beside an empty "Kept values" pane.
    from PySide6.QtGui import QFontMetrics

    from wsi_inspector.gui.window.look import CELL_MARGIN, monospace

    window.resize(1024, 700)
    open_file(window, demo_path)
    view, tree, model = window.views["changes"], window.timeline.tree, window.timeline.model

    def click_body(key):
        index = model.index(model.row_for_cursor(key), 0)
        tree.scrollTo(index)
        qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=tree.visualRect(index).center())

    tabs = window.tabs.tabBar()
    qtbot.mouseClick(tabs, Qt.MouseButton.LeftButton, pos=tabs.tabRect(window.tabs.indexOf(view)).center())
    click_body("b5")
    document = wait_compared(qtbot, view)
    assert view.summary.text().endswith("kept unchanged") and not view.kept_side.isVisible()
    qtbot.wait(20)
    table, metrics = view.store_table, QFontMetrics(monospace())
    calls = {line["call"] for _sign, line in view.store_model.rows}
    window.grab().save("/tmp/window-rest-changes.png")
    assert table.columnWidth(2) >= max(metrics.horizontalAdvance(call) for call in calls) + CELL_MARGIN  # whole
    assert table.columnWidth(3) >= 110  # the shape readable beside them
    window.grab().save("/tmp/window-rest-changes.png")
    click_body("b4")  # b3 kept two names: the kept pane is back
    qtbot.waitUntil(lambda: view.document is not document and view.document is not None, timeout=5000)
    assert view.kept_model.rows and view.kept_side.isVisible()
