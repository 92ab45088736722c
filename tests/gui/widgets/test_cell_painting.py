"""The Inputs table's cells painted in one pass (cell_painting) look as Qt's own delegate and style paint them
(issue 28.3): compared pixel for pixel with Qt's painting of the same cells in the same window, in every state a
cell has (falling at the cap, the resolver's answer, a person's edit, read by the cursor's body, selected, focused,
cut in the middle or at its end, a note's mark), in the light and the dark theme."""
from __future__ import annotations

import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from wsi_inspector.gui.window import theme
from wsi_inspector.gui.widgets.cell_painting import CellPainter


def painted(table, one_pass: bool) -> QImage:
    """The table's viewport painted afresh, by the one pass or by Qt."""
    table.one_pass = one_pass
    try:
        return table.viewport().grab().toImage()
    finally:
        table.one_pass = True


def differences(table) -> list[tuple[int, int]]:
    """The pixels where the one pass and Qt's painting differ (a few, to say where)."""
    ours, qts = painted(table, True), painted(table, False)
    assert ours.size() == qts.size()
    if ours == qts:
        return []
    return [(x, y) for y in range(ours.height()) for x in range(ours.width()) if ours.pixel(x, y) != qts.pixel(x, y)][:20]


def inputs_table(window, open_file, demo_path, qtbot, width=1400):
    window.resize(width, 600)
    open_file(window, demo_path)
    window.show_tab("inputs")
    qtbot.wait(50)
    return window.views["inputs"]


def test_the_one_pass_paints_the_table_as_qt_does_at_every_cursor(window, open_file, demo_path, qtbot):
    view = inputs_table(window, open_file, demo_path, qtbot)
    table = view.table
    assert table.cells.can_paint()
    session = window.context.session
    fell = 0
    for body in [*session.bodies, None]:
        window.context.set_cursor(body.id if body is not None else None)
        qtbot.wait(10)
        assert differences(table) == [], body
        table.scrollToTop()  # the oldest entries: those that fall at the cap, greyed, "⤓ falls" beside them
        qtbot.wait(10)
        assert differences(table) == [], body
        fell += view.model.fell > 0 and table.rowAt(0) < view.model.fell
    assert fell, "some cursor shows entries that fall at the cap"


def test_the_one_pass_paints_what_qt_paints_for_every_state_of_a_cell(window, open_file, demo_path, qtbot):
    view = inputs_table(window, open_file, demo_path, qtbot)
    table, model = view.table, view.model
    view.resolver_edit.setText("pack.corridorRuns")  # the resolver's answer highlighted
    qtbot.wait(10)
    assert model.highlighted is not None
    assert any(entry.applied for entry in model.index_data.entries), "the demo has a person's edit"
    assert differences(table) == []
    table.setCurrentIndex(model.index(2, 0))  # a row selected, the view focused: its cells' focus frame
    table.setFocus()
    qtbot.wait(10)
    assert differences(table) == []
    keys = {model.index_data.entries[position].key: "read" for position in list(model.rows)[:3]}
    model.set_reads(keys)  # read marks, in their column
    table.setColumnHidden(model.READ_COLUMN, False)
    qtbot.wait(10)
    assert differences(table) == []


def test_texts_cut_in_the_middle_or_at_their_end_as_qt_cuts_them(window, open_file, demo_path, qtbot):
    view = inputs_table(window, open_file, demo_path, qtbot)
    table = view.table
    for column, width in ((0, 30), (1, 60), (4, 40), (5, 20)):
        table.horizontalHeader().setSectionResizeMode(column, table.horizontalHeader().ResizeMode.Interactive)
        table.setColumnWidth(column, width)
    qtbot.wait(10)
    assert differences(table) == []


@pytest.mark.parametrize("dark", [False, True])
def test_the_one_pass_paints_as_qt_in_either_theme(window, open_file, demo_path, qtbot, dark):
    app = QApplication.instance()
    before = app.palette()
    app.setPalette(theme.application_palette(app.style().standardPalette(), dark))
    try:
        view = inputs_table(window, open_file, demo_path, qtbot)
        qtbot.wait(10)
        assert differences(view.table) == []
    finally:
        app.setPalette(before)


def test_a_table_without_row_looks_is_painted_by_qt(qtbot):
    from PySide6.QtGui import QStandardItemModel

    from wsi_inspector.gui.widgets.still_rows import StillRowsTable

    table = StillRowsTable()
    qtbot.addWidget(table)
    table.setModel(QStandardItemModel(3, 2))
    assert isinstance(table.cells, CellPainter) and not table.cells.can_paint()


def test_a_note_marks_its_row_as_qt_painted_it(window, open_file, demo_path, qtbot, tmp_path):
    import shutil

    from wsi_inspector.gui.actions.note_actions import MARK_COLOUR

    path = tmp_path / "demo.json"
    shutil.copyfile(demo_path, path)
    view = inputs_table(window, open_file, path, qtbot)
    window.notes_keeper.ask_text = lambda _prompt: "the first corridor call"
    mark = window.note_marks[1]
    assert window.notes_keeper.add(mark.target_of(view.model.index(1, 0))) is not None
    view.table.scrollToTop()  # its row in view
    qtbot.wait(10)
    assert view.table.itemDelegateForColumn(0) is mark, "the column's marks paint while a note is kept"
    image = painted(view.table, True)
    column = round(view.table.columnWidth(0) * image.devicePixelRatio())  # the image's pixels are the device's
    assert any(image.pixelColor(x, y) == MARK_COLOUR for x in range(column) for y in range(image.height()))
    assert differences(view.table) == []


def test_a_region_of_a_few_cells_is_painted_as_qt_paints_it(window, open_file, demo_path, qtbot):
    # A move repaints the cells that changed (StillRowsTable._repaint_changed): a region of scattered rectangles.
    from PySide6.QtCore import QRect
    from PySide6.QtGui import QRegion

    from tests.helpers.on_screen import on_screen

    view = inputs_table(window, open_file, demo_path, qtbot)
    table = view.table
    table.one_pass = False
    table.viewport().repaint()  # every pixel Qt's
    qts = on_screen(window, table)
    table.one_pass = True
    region = QRegion()
    for row, column in ((0, 1), (1, 4), (3, 0), (3, 5), (5, 2)):
        region += QRect(table.columnViewportPosition(column), table.rowViewportPosition(row), table.columnWidth(column), table.rowHeight(row))
    table.viewport().repaint(region)
    assert on_screen(window, table) == qts
