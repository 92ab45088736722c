"""Issue 31, the window's second pass at 1024×700 after a replay: a read entry's call was cut beside its ● mark
(drawn in the call's own cell), the entry pane's tabs read "in… | out… | ot…", and prose was cut in the middle
where `fit_column` had set the whole view's elide mode (the Edits change list, the Reads table).
Acted as a person would (keys and clicks); widths compared with font metrics measured here, at any font or DPI."""
from __future__ import annotations

import shutil

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QFontMetrics, QStandardItemModel
from PySide6.QtWidgets import QApplication, QStyleOptionViewItem, QTableView

from tests.conftest import DEMO
from tests.helpers.window_sizes import SMALL, settle, shown_whole
from wsi_inspector.gui.tabs.run.reads_panel import PATHS_KEEP
from wsi_inspector.gui.window.look import fit_column, monospace

MIDDLE, END = Qt.TextElideMode.ElideMiddle, Qt.TextElideMode.ElideRight


@pytest.fixture(params=[None, 12.0], ids=["system-font", "12pt-font"])
def app_font(request):
    """The application's font as the system gives it, or a bigger one (a person's desktop setting): the tabs'
    words grow with it, the ids' monospace does not. Restored after."""
    app = QApplication.instance()
    before = QFont(app.font())
    if request.param is not None:
        bigger = QFont(before)
        bigger.setPointSizeF(request.param)
        app.setFont(bigger)
    yield request.param
    app.setFont(before)


def elide_mode(view, index) -> Qt.TextElideMode:
    """Where `view` cuts the text of the cell at `index` if it must: its column's delegate's say, else the view's."""
    delegate = view.itemDelegateForColumn(index.column())
    option = QStyleOptionViewItem()
    option.textElideMode = view.textElideMode()  # as the view hands it to its delegate
    if delegate is None:
        return option.textElideMode
    delegate.initStyleOption(option, index)
    return option.textElideMode


def _row_of(view, entry_id):
    return next(r for r in range(view.model.rowCount()) if str(view.model.entry_at_row(r).id) == entry_id)


def _replayed_inputs(window, open_file, qtbot, path=DEMO):
    """The demo at 1024×700 after Replay all, the cursor at b5 (it read e2), on the Inputs tab."""
    if window.context.session is None:
        open_file(window, path)
    settle(qtbot, window, SMALL)
    run = window.views["run"]
    qtbot.keyClick(window, Qt.Key.Key_5, Qt.KeyboardModifier.ControlModifier)  # the Run tab
    with qtbot.waitSignal(run.bridge.replay_done, timeout=60_000):
        qtbot.mouseClick(run.replay_button, Qt.MouseButton.LeftButton)
    window.context.set_cursor("b5")
    qtbot.keyClick(window, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)  # the Inputs tab
    view = window.views["inputs"]
    qtbot.waitUntil(lambda: view.isVisible(), timeout=3000)
    return view


def _calls_whole_or_pane_kept(view, calls) -> bool:
    return shown_whole(view.table, 1, calls) or view.splitter.sizes()[1] <= view.detail_keeps() + 1


def test_a_read_entrys_call_is_whole_its_read_mark_in_a_narrow_column_of_its_own_beside_the_edit_mark(app_font, window, open_file, qtbot, tmp_path):
    # At 1024 px after a replay "e2 pack.corridorR…s.corridorRuns ●": the mark took the call's room in its cell.
    from wsi_inspector.gui.tabs.inputs.models import APPLIED
    from wsi_inspector.gui.window.look import READ_MARK

    path = tmp_path / "demo.json"  # a file of its own: no replay of another test is known for it (body_reads' cache)
    shutil.copyfile(DEMO, path)
    open_file(window, path)
    window.context.set_cursor("b5")
    window.show_tab("inputs")
    view = window.views["inputs"]
    model, table, header = view.model, view.table, view.table.horizontalHeader()
    read = model.READ_COLUMN
    assert table.isColumnHidden(read), "no replay yet: nothing is known read, the column gives its room away"
    view = _replayed_inputs(window, open_file, qtbot)
    assert not table.isColumnHidden(read)
    assert header.visualIndex(read) == header.visualIndex(APPLIED) + 1  # beside the ✎ mark
    marked = {str(model.entry_at_row(r).id) for r in range(model.rowCount()) if model.data(model.index(r, read))}
    assert marked == {"e2"}
    e2 = _row_of(view, "e2")
    assert model.data(model.index(e2, read)) == READ_MARK
    assert "b5" in model.data(model.index(e2, read), Qt.ItemDataRole.ToolTipRole)  # the words, in its tooltip
    assert "read" in model.headerData(read, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
    # The mark's column holds its glyph and its header whole, and is no wider than a mark needs.
    glyph = max(QFontMetrics(table.font()).horizontalAdvance(READ_MARK),
                header.fontMetrics().horizontalAdvance(model.headerData(read, Qt.Orientation.Horizontal)))
    assert glyph < header.sectionSize(read) < header.fontMetrics().horizontalAdvance("read by b5")
    # The call is an id: whole, its cell holding the call alone (ids are never elided).
    calls = {e.call for e in window.context.session.entries}
    qtbot.waitUntil(lambda: _calls_whole_or_pane_kept(view, calls), timeout=3000)
    assert _calls_whole_or_pane_kept(view, calls)
    call = model.index(e2, 1)
    assert model.data(call) == "pack.corridorRuns.corridorRuns"
    assert elide_mode(table, call) == MIDDLE  # if ever no room can be had: both ends read
    # The bytes stay in view beside the new column: no sideways scroll.
    assert header.sectionViewportPosition(5) + header.sectionSize(5) <= table.viewport().width()
    window.grab().save("/tmp/narrow-inputs-read-mark.png")


def test_the_entry_panes_tabs_are_whole_at_1024_beside_whole_calls(app_font, window, open_file, qtbot):
    # "in… | out… | ot…" once the read mark's room was taken for whole calls.
    view = _replayed_inputs(window, open_file, qtbot)
    tabs, bar = view.detail_tabs, view.detail_tabs.tabBar()
    calls = {e.call for e in window.context.session.entries}
    qtbot.waitUntil(lambda: view.shown_entry is not None, timeout=3000)  # the newest entry at the cursor, e3

    def tabs_whole() -> None:
        qtbot.waitUntil(lambda: _calls_whole_or_pane_kept(view, calls), timeout=3000)
        qtbot.waitUntil(lambda: all(bar.tabRect(t).width() >= bar.tabSizeHint(t).width() for t in range(bar.count())),
                        timeout=3000)
        for tab in range(bar.count()):
            text = tabs.tabText(tab)
            assert bar.tabRect(tab).width() >= bar.tabSizeHint(tab).width(), f"tab {text!r} is elided"
            assert bar.tabRect(tab).width() > bar.fontMetrics().horizontalAdvance(text)
            assert bar.geometry().left() + bar.tabRect(tab).right() <= tabs.width()  # in view, not behind the edge
            assert tabs.tabToolTip(tab).startswith(text), "the whole title is the tooltip of a shortened one"
        assert tabs.tabText(0) == "input"

    tabs_whole()
    qtbot.mouseClick(view.table.viewport(), Qt.MouseButton.LeftButton,  # another entry: other titles, the same room
                     pos=view.table.visualRect(view.model.index(_row_of(view, "e2"), 0)).center())
    qtbot.waitUntil(lambda: str(view.shown_entry.id) == "e2", timeout=3000)
    tabs_whole()


def test_fit_column_sizes_a_column_and_leaves_the_views_elide_mode_alone(qtbot):
    # It set the whole view to ElideMiddle: five callers set it back, and two views cut their prose in the middle.
    table = QTableView()
    qtbot.addWidget(table)
    model = QStandardItemModel(1, 2)
    model.setHorizontalHeaderLabels(["call", "shape"])
    table.setModel(model)
    width = fit_column(table, 0, ["pack.corridorRuns.corridorRuns"])
    assert table.textElideMode() == END
    assert width >= QFontMetrics(monospace()).horizontalAdvance("pack.corridorRuns.corridorRuns")


def test_the_edits_change_list_cuts_values_at_their_end_and_ids_in_the_middle_notes_or_none(window, open_file, qtbot, tmp_path):
    path = tmp_path / "demo.json"
    shutil.copyfile(DEMO, path)
    open_file(window, path)
    qtbot.keyClick(window, Qt.Key.Key_3, Qt.KeyboardModifier.ControlModifier)  # the Edits tab
    view = window.views["edits"]
    qtbot.waitUntil(lambda: view.ready, timeout=20_000)
    assert view.select_edit("e1")
    qtbot.waitUntil(lambda: view.changes_model.rowCount() > 0, timeout=20_000)
    changes, edits = view.changes_table, view.edits_table

    def modes():
        change = [elide_mode(changes, view.changes_model.index(0, c)) for c in range(4)]
        return change, elide_mode(edits, view.edits_model.index(0, 0))

    # op and the values before/after are prose, cut at their end; the path (a JSON Pointer) and the edit's id are ids.
    assert modes() == ([END, MIDDLE, END, END], MIDDLE)
    keeper = window.notes_keeper
    keeper.ask_text = lambda _prompt: "the corridor moved"
    assert keeper.add(("entry", "e1", None)) is not None  # a note on e1: the id columns paint its marks now
    assert edits.itemDelegateForColumn(0) in keeper.marks
    assert modes() == ([END, MIDDLE, END, END], MIDDLE), "a note's mark keeps the column's elide mode"


def test_the_reads_table_cuts_its_paths_at_their_end_and_the_read_and_its_entry_in_the_middle(window, open_file, qtbot):
    view = _replayed_inputs(window, open_file, qtbot)
    del view
    run = window.views["run"]
    qtbot.keyClick(window, Qt.Key.Key_5, Qt.KeyboardModifier.ControlModifier)
    run.result_tabs.setCurrentWidget(run.reads_panel)
    panel = run.reads_panel
    qtbot.waitUntil(lambda: panel.model.rowCount() > 0, timeout=20_000)
    table = panel.table
    assert [elide_mode(table, panel.model.index(0, c)) for c in range(4)] == [END, MIDDLE, MIDDLE, END]
    # The read is an id, whole at 1024 px (it read `inputs.last(…rridorRuns")`) beside paths that had the room.
    reads = [panel.model.data(panel.model.index(row, 1)) for row in range(panel.model.rowCount())]
    assert 'inputs.last("pack.corridorRuns.corridorRuns")' in reads
    entries = [panel.model.data(panel.model.index(row, 2)) for row in range(panel.model.rowCount())]
    keep = QFontMetrics(monospace()).horizontalAdvance("0" * PATHS_KEEP)

    def fitted() -> bool:  # no sideways scroll; the read whole, or all the room but what the paths keep
        header = table.horizontalHeader()
        return (header.length() <= table.viewport().width() and shown_whole(table, 2, entries)
                and (shown_whole(table, 1, reads) or table.columnWidth(3) <= keep + 1))

    # At 1024 px the results are under the code (the tab is narrow): the read whole there too.
    qtbot.waitUntil(lambda: fitted() and shown_whole(table, 1, reads), timeout=3000)

    qtbot.waitUntil(fitted, timeout=3000)
    window.grab().save("/tmp/narrow-reads-1024.png")
    settle(qtbot, window, (1920, 1080))  # room enough: the read whole
    qtbot.waitUntil(lambda: fitted() and shown_whole(table, 1, reads), timeout=3000)


def test_a_narrow_run_tab_puts_the_results_under_the_code_and_a_wide_one_beside_it(window, open_file, qtbot):
    # At 1024 px the result tabs (titles whole) left the code 200 px, some 25 characters of a line.
    open_file(window, DEMO)
    settle(qtbot, window, SMALL)
    qtbot.keyClick(window, Qt.Key.Key_5, Qt.KeyboardModifier.ControlModifier)  # the Run tab
    run = window.views["run"]
    qtbot.waitUntil(lambda: run.isVisible(), timeout=3000)
    window.context.set_cursor("b5")
    chars = QFontMetrics(monospace()).horizontalAdvance("0")
    longest = max(len(line) for line in run.editor.toPlainText().splitlines())
    qtbot.waitUntil(lambda: run.splitter.orientation() == Qt.Orientation.Vertical, timeout=3000)
    assert run.editor.viewport().width() >= chars * longest, "b5's longest line whole"
    assert run.result_tabs.width() >= run.editor.width() - 2  # the results take the tab's whole width too
    settle(qtbot, window, (1920, 1080))
    qtbot.waitUntil(lambda: run.splitter.orientation() == Qt.Orientation.Horizontal, timeout=3000)
    assert run.editor.viewport().width() >= chars * longest
    window.grab().save("/tmp/narrow-run-1920.png")
