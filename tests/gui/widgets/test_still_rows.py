"""StillRowsTable: rows that come or go below those shown repaint nothing; any other change repaints as Qt does.

Issue 28.3: a cursor move adds or removes the store's rows at the end of the Inputs table, and Qt
repainted the whole screenful shown (the same cells) on each. Counted in paint events, not timed.
"""
from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QStandardItem, QStandardItemModel

from wsi_inspector.gui.widgets.still_rows import StillRowsTable

ROWS = 200


@pytest.fixture
def table(qtbot, paints):
    model = QStandardItemModel(0, 2)
    for row in range(ROWS):
        model.appendRow([QStandardItem(f"c{row}"), QStandardItem("pack.corridorRuns")])
    view = StillRowsTable()
    view.setModel(model)
    view.verticalHeader().hide()  # as the Inputs table's: row numbers of another width would move the rows
    view.resize(320, 240)  # a screenful of about ten rows: the rest are below
    qtbot.addWidget(view)
    view.show()
    qtbot.waitExposed(view)
    # Ten rows and a half shown, whatever the font: with a last row shown whole, the rows kept by a removal below it
    # fit, the scroll bar goes and the viewport widens (a repaint, rightly); a wider font made it so after other tests.
    view.resize(320, view.height() - view.viewport().height() + view.rowHeight(0) * 21 // 2)
    # Until the viewport has painted nothing for 100 ms (at most 3 s): on a busy machine the first paints land late,
    # inside a test's count (one was counted under a parallel load).
    first = paints(view.viewport())
    for _ in range(30):
        first.clear()
        qtbot.wait(100)
        if not first:
            break
    return view


def rows(count: int) -> list[list[QStandardItem]]:
    return [[QStandardItem("new"), QStandardItem("x")] for _ in range(count)]


def changed(qtbot, view, paints, change) -> list:
    painted = paints(view.viewport())
    change(view.model())
    qtbot.wait(30)  # the view lays itself out on a zero timer, then paints
    return painted


def test_rows_appended_or_removed_below_the_screenful_repaint_nothing(qtbot, table, paints):
    shown = table.rowAt(table.viewport().height() - 1)
    assert 0 < shown < ROWS - 20
    painted = changed(qtbot, table, paints, lambda model: model.insertRows(ROWS, 50))
    assert painted == [] and table.held_layouts == 1
    assert table.verticalScrollBar().maximum() > 0 and table.model().rowCount() == ROWS + 50
    painted = changed(qtbot, table, paints, lambda model: model.removeRows(shown + 1, ROWS + 50 - shown - 1))
    assert painted == [] and table.held_layouts == 2
    assert table.model().rowCount() == shown + 1 and table.rowAt(table.viewport().height() - 1) == shown


def test_a_row_inserted_or_removed_among_those_shown_repaints(qtbot, table, paints):
    assert changed(qtbot, table, paints, lambda model: model.insertRow(0, rows(1)[0])) != []
    assert changed(qtbot, table, paints, lambda model: model.removeRows(1, 1)) != []
    assert table.held_layouts == 0


def test_rows_appended_where_there_is_room_below_the_rows_repaint(qtbot, table, paints):
    table.model().removeRows(3, ROWS - 3)  # three rows, room below them
    qtbot.wait(30)
    assert table.rowAt(table.viewport().height() - 1) == -1
    assert changed(qtbot, table, paints, lambda model: model.appendRow(rows(1)[0])) != []
    assert table.held_layouts == 0


def test_rows_removed_below_a_table_scrolled_to_its_end_repaint_when_the_offset_moves(qtbot, table, paints):
    table.scrollToBottom()
    qtbot.wait(30)
    last = table.rowAt(table.viewport().height() - 1)
    assert last == ROWS - 1
    # Removing the last rows is not below the last row shown: the rows shown move up.
    assert changed(qtbot, table, paints, lambda model: model.removeRows(ROWS - 5, 5)) != []
    assert table.held_layouts == 0


def test_a_change_in_place_repaints_the_rows_shown_that_changed_and_no_others(qtbot, table, paints):
    # Qt repainted the whole viewport for a range of many rows, shown or not (the rows that start to fall at
    # the cap, far below those shown, on every move of a million-entry session).
    model = table.model()
    assert changed(qtbot, table, paints, lambda m: m.dataChanged.emit(m.index(100, 0), m.index(190, 1))) == []
    painted = []

    class Rects(QObject):
        def eventFilter(self, watched, event):  # noqa: N802 — Qt's hook
            if event.type() == QEvent.Type.Paint:
                painted.append(event.region().boundingRect())
            return False

    spy = Rects()
    table.viewport().installEventFilter(spy)
    model.dataChanged.emit(model.index(2, 0), model.index(190, 1))  # from a row shown to far below
    qtbot.wait(30)
    shown = table.rowAt(table.viewport().height() - 1)
    assert painted and all(rect.top() >= table.rowViewportPosition(2) for rect in painted)
    assert all(rect.bottom() <= table.rowViewportPosition(shown) + table.rowHeight(shown) for rect in painted)


def test_a_row_shown_that_changes_while_the_layout_is_pending_is_repainted(qtbot, table, paints):
    # Qt leaves the repaint of a change to the pending layout, so a layout held for the rows appended
    # below would have left the changed row as it was.
    def append_then_change(model):
        model.insertRows(ROWS, 10)
        model.dataChanged.emit(model.index(1, 0), model.index(3, 1))
    assert changed(qtbot, table, paints, append_then_change) != []
    assert table.held_layouts == 0


@pytest.mark.parametrize("then", ["reset", "sorted"])
def test_rows_appended_below_then_reset_or_sorted_before_the_layout_repaint(qtbot, table, paints, then):
    def append_then(model):
        model.insertRows(ROWS, 10)
        if then == "reset":
            model.beginResetModel()
            model.endResetModel()
        else:
            model.sort(0, Qt.SortOrder.DescendingOrder)  # a layout change: every row may have moved
    assert changed(qtbot, table, paints, append_then) != []
    assert table.held_layouts == 0
