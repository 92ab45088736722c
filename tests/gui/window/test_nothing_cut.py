"""Issue 31, point 8: at 1024×700 ids are never elided, prose elides at its end, and empty columns give
their room away (docs/window.md, "Nothing cut off"). Widths are compared with font metrics measured here."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics

from tests.conftest import DEMO
from tests.helpers.window_sizes import SMALL, demo_at, settle, shown_whole
from wsi_inspector.gui.window.look import monospace


def test_inputs_at_1024_calls_are_whole_the_shape_header_whole_and_the_applied_column_a_mark(window, open_file, qtbot):
    from wsi_inspector.gui.tabs.inputs.view import DETAIL_KEEPS

    session = demo_at(window, open_file, qtbot, "b5", "inputs")  # what `wsi` opens with no file
    view = window.views["inputs"]
    table, header, model = view.table, view.table.horizontalHeader(), view.model
    calls = {e.call for e in session.entries}
    # What the entry's pane keeps: 24 monospace characters, and never less than its three tabs whole (its minimum).
    keep = max(QFontMetrics(monospace()).horizontalAdvance("0" * DETAIL_KEEPS), view.detail_pane.minimumWidth())
    # Calls are ids: whole (the lead saw `pack.cor…idorRuns`), the room taken from the entry's pane beside the
    # table; only when that pane is down to what it keeps may a call be cut (a far bigger font than this test's).
    qtbot.waitUntil(lambda: shown_whole(table, 1, calls) or view.splitter.sizes()[1] <= keep + 1, timeout=3000)
    assert shown_whole(table, 1, calls) or view.splitter.sizes()[1] <= keep + 1
    assert shown_whole(table, 0, [str(e.id) for e in session.entries])
    # The shape's header is whole (it read "ıap") and its prose ends in "…", not cut in the middle.
    assert header.sectionSize(4) >= header.fontMetrics().horizontalAdvance(model.headerData(4, Qt.Orientation.Horizontal))
    assert table.textElideMode() == Qt.TextElideMode.ElideRight
    # "applied" is a mark as narrow as its header, the words in the tooltips (it took 81 px for "✎ person").
    mark = model.headerData(3, Qt.Orientation.Horizontal)
    assert header.sectionSize(3) < header.fontMetrics().horizontalAdvance("applied")
    assert "applied" in model.headerData(3, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
    edited = next(row for row in range(model.rowCount()) if model.data(model.index(row, 0)) == "e1")
    assert model.data(model.index(edited, 3)) == mark
    assert "person" in model.data(model.index(edited, 3), Qt.ItemDataRole.ToolTipRole)
    # The bytes stay in view: no sideways scroll.
    assert header.sectionViewportPosition(5) + header.sectionSize(5) <= table.viewport().width()
    # The entry's pane kept its share: its JSON keys are whole too (its type column gave them the room).
    tree = view.tree
    qtbot.waitUntil(lambda: tree.columnWidth(0) >= tree.sizeHintForColumn(0), timeout=3000)


def test_a_call_is_cut_in_the_middle_only_when_no_room_can_be_had(window, open_file, qtbot):
    # The fallback, stated: a call's delegate elides in the middle (both ends of an id read), whatever the table's mode.
    from PySide6.QtWidgets import QStyleOptionViewItem

    open_file(window, DEMO)
    window.show_tab("inputs")
    view = window.views["inputs"]
    option = QStyleOptionViewItem()
    option.textElideMode = view.table.textElideMode()  # as the view hands it: the end, for its prose
    view.table.itemDelegateForColumn(1).initStyleOption(option, view.model.index(0, 1))
    assert option.textElideMode == Qt.TextElideMode.ElideMiddle


def test_changes_at_1024_calls_and_kept_names_are_whole_and_the_shape_header_too(window, open_file, qtbot):
    # The lead saw `pack.corr…ridorRuns` and a shape header "hap" beside a kept-values pane of room.
    from wsi_inspector.gui.tabs.changes.view import KEPT_KEEPS

    demo_at(window, open_file, qtbot, "b5", "changes")
    view = window.views["changes"]
    view.choose_points("b1", None)  # four kept names added: the kept values' pane shows
    qtbot.waitUntil(lambda: view.document is not None, timeout=10_000)
    store, header = view.store_table, view.store_table.horizontalHeader()
    lines = [line for _sign, line in view.store_model.rows]
    keep = QFontMetrics(monospace()).horizontalAdvance("0" * KEPT_KEEPS)  # what the kept values keep (their title ends in "…")
    qtbot.waitUntil(lambda: shown_whole(store, 2, {line["call"] for line in lines})
                    or view.splitter.sizes()[1] <= keep + 1, timeout=3000)
    assert shown_whole(store, 1, [str(line["id"]) for line in lines])
    assert header.sectionSize(3) >= header.fontMetrics().horizontalAdvance("shape")
    assert header.sectionViewportPosition(4) + header.sectionSize(4) <= store.viewport().width()  # bytes in view
    assert store.textElideMode() == Qt.TextElideMode.ElideRight  # shapes end in "…"
    names = [line["name"] for _sign, line in view.kept_model.rows]
    assert names and shown_whole(view.kept_table, 1, names)


def test_kept_names_are_whole_and_no_wider_so_the_shape_has_the_room(window, open_file, qtbot):
    # The name column was 140 px whatever the names; the shape beside it read "{bandD…".
    demo_at(window, open_file, qtbot, None, "kept")
    view = window.views["kept"]
    metrics = QFontMetrics(monospace())
    names = [row.name for row in view.model.rows]
    widest = max(metrics.horizontalAdvance(name) for name in names)
    header = view.table.horizontalHeader()
    assert shown_whole(view.table, 0, names)
    assert view.table.columnWidth(0) <= max(widest, header.fontMetrics().horizontalAdvance("name")) + 2 * 18
    tree = view.tree  # the chosen value's key (kept.departmentId) whole: an id
    qtbot.waitUntil(lambda: tree.columnWidth(0) >= tree.sizeHintForColumn(0), timeout=3000)


def test_the_run_tabs_calls_are_whole_at_1024(window, open_file, qtbot):
    # "mep.ri…risers" in a column held to 30 % of the Calls table; the outcome (JSON, prose) was cut in the middle.
    open_file(window, DEMO)
    window.context.set_cursor("b6")  # eight mep.risers.risers calls, in parallel
    qtbot.keyClick(window, Qt.Key.Key_5, Qt.KeyboardModifier.ControlModifier)
    settle(qtbot, window, SMALL)
    view = window.views["run"]
    with qtbot.waitSignal(view.bridge.finished, timeout=20_000):
        qtbot.mouseClick(view.run_button, Qt.MouseButton.LeftButton)
    view.result_tabs.setCurrentWidget(view.calls_table)
    table, model = view.calls_table, view.calls_model
    qtbot.waitUntil(lambda: model.rowCount() == 8, timeout=3000)
    assert shown_whole(table, 1, {model.data(model.index(row, 1)) for row in range(model.rowCount())})
    assert table.textElideMode() == Qt.TextElideMode.ElideRight  # the outcome is prose
    header = table.horizontalHeader()
    assert header.sectionViewportPosition(4) + 60 <= table.viewport().width()  # and in view
    for column in range(4):  # the titles whole ("output from" read "ɔutput fron")
        title = model.headerData(column, Qt.Orientation.Horizontal)
        assert header.sectionSize(column) >= header.fontMetrics().horizontalAdvance(title) + 8, title


def test_the_edits_calls_take_the_change_lists_spare_room_at_1920(window, open_file, qtbot):
    # At 1920 px "pack.corridor…corridorRuns" beside a change list whose last column was mostly empty.
    view = edits_at_1920(window, open_file, qtbot)
    calls = {view.edits_model.data(view.edits_model.index(row, 4)) for row in range(view.edits_model.rowCount())}
    qtbot.waitUntil(lambda: shown_whole(view.edits_table, 4, calls), timeout=3000)
    changes = view.changes_table
    header = changes.horizontalHeader()
    last = header.count() - 1
    assert header.sectionViewportPosition(last) <= changes.viewport().width()  # the change list's columns stay in view


def test_keys_four_levels_deep_are_whole_in_the_inputs_tree_at_1024(window, open_file, qtbot):
    # A search for "dept" reveals e3's rooms/1/id; its sibling "size" read "s…" beside the whole calls.
    demo_at(window, open_file, qtbot, "b5", "inputs")
    view = window.views["inputs"]
    view.search_edit.setFocus()
    qtbot.keyClicks(view.search_edit, "dept")
    qtbot.keyClick(view.search_edit, Qt.Key.Key_Return)
    tree = view.tree
    qtbot.waitUntil(lambda: view.matches and tree.currentIndex().isValid() and tree.currentIndex().parent().parent().isValid(),
                    timeout=5000)
    qtbot.waitUntil(lambda: tree.columnWidth(0) >= tree.sizeHintForColumn(0), timeout=3000)


def test_timeline_call_rows_are_cut_in_the_middle_and_body_rows_at_their_end(window, open_file, qtbot):
    # At 1024 px the dock cut "c20  pack.corridorRuns.corrido…": the call lost its method.
    from PySide6.QtWidgets import QStyleOptionViewItem

    open_file(window, DEMO)
    settle(qtbot, window, SMALL)
    tree, model = window.timeline.tree, window.timeline.model
    body = model.index(model.row_for_cursor("b5"), 0)
    call = model.index(0, 0, body)
    assert "pack.corridorRuns.corridorRuns" in model.data(call)
    delegate = tree.itemDelegateForColumn(0)
    modes = []
    for index in (call, body):
        option = QStyleOptionViewItem()
        option.textElideMode = tree.textElideMode()
        delegate.initStyleOption(option, index)
        modes.append(option.textElideMode)
    assert modes == [Qt.TextElideMode.ElideMiddle, Qt.TextElideMode.ElideRight]


def test_timeline_call_rows_are_whole_at_1024_before_any_replay(window, open_file, qtbot):
    # At 1024 px the dock cut "c20  pack.corrid…uns.corridorRuns" by 25 px: a call row is now one level of a
    # small indentation in and its id one space from its call, so the demo's longest calls are whole.
    from wsi_inspector.gui.window.main_window import tabs_keep

    open_file(window, DEMO)
    settle(qtbot, window, SMALL)
    tree, model, dock = window.timeline.tree, window.timeline.model, window.timeline_dock
    assert tree.isColumnHidden(1)  # no replay yet
    if window.logicalDpiX() > 96:  # a bigger font (150 %) than 1024 px holds: the tabs keep their ids first, calls cut
        room = dock.width() + window.centralWidget().width() - tabs_keep()  # docs/window.md, "Nothing cut off"
        assert dock.width() >= min(room, window.dock_target()) - 2
        return
    metrics = QFontMetrics(monospace())
    calls = [model.index(c, 0, model.index(n, 0)) for n in range(model.rowCount()) for c in range(model.rowCount(model.index(n, 0)))]
    assert len(calls) == 33
    cut = [model.data(c) for c in calls if metrics.horizontalAdvance(model.data(c)) + 4 > tree.visualRect(c).width()]
    assert cut == []


def edits_at_1920(window, open_file, qtbot):
    """The Edits tab of the demo at 1920×1080, its edits listed."""
    open_file(window, DEMO)
    window.show_tab("edits")
    settle(qtbot, window, (1920, 1080))
    view = window.views["edits"]
    qtbot.waitUntil(lambda: view.ready, timeout=20_000)
    return view


def edits_at_1920_on_e1(window, open_file, qtbot):
    """The Edits tab of the demo at 1920×1080, edit e1 chosen and its detail shown."""
    view = edits_at_1920(window, open_file, qtbot)
    assert view.select_edit("e1")
    qtbot.waitUntil(lambda: view.current_detail() is not None, timeout=20_000)
    return view


def test_the_set_by_title_is_whole_over_short_marks_at_1920(window, open_file, qtbot):
    # The model's tree read "set b" over marks as short as "c4", beside the person's whole "set by".
    view = edits_at_1920_on_e1(window, open_file, qtbot)
    for tree in (view.model_tree, view.person_tree):
        qtbot.waitUntil(lambda tree=tree: tree.header().sectionSize(3) >= tree.header().sectionSizeHint(3),
                        timeout=3000)  # the title and its margins



def test_the_edits_trees_keep_their_type_column_hidden_at_any_width(window, open_file, qtbot):
    # The Edits view gives the type column's room to "set by"; the narrow-tree rule must not bring it back.
    view = edits_at_1920_on_e1(window, open_file, qtbot)
    for tree in (view.model_tree, view.person_tree):
        assert tree.isColumnHidden(2)
        assert tree.columnWidth(1) >= 0.3 * tree.viewport().width() - 1  # the value keeps the room


def test_the_edits_change_list_keeps_delta_in_view_at_1024(window, open_file, qtbot):
    # Δ and the unit were behind a sideways scroll, the path column 130 px for "spine/1".
    open_file(window, DEMO)
    window.show_tab("edits")
    settle(qtbot, window, SMALL)
    view = window.views["edits"]
    qtbot.waitUntil(lambda: view.ready, timeout=20_000)
    assert view.select_edit("e1")
    qtbot.waitUntil(lambda: view.current_detail() is not None, timeout=20_000)
    table, model = view.changes_table, view.changes_model
    header = table.horizontalHeader()
    qtbot.waitUntil(lambda: header.sectionViewportPosition(4) + header.sectionSize(4) <= table.viewport().width(), timeout=3000)
    paths = [model.data(model.index(row, 1)) for row in range(model.rowCount())]
    assert shown_whole(table, 1, paths)
