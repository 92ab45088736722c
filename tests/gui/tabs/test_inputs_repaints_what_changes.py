"""A cursor move repaints the Inputs table's cells that look otherwise than the ones they replace, and no others
(issue 28.3); what the screen shows after it is what a whole repaint shows.

Checked on the window's own pixels (the offscreen screen's copy of its backing store), not on a grab, which paints
everything afresh: a cell left unpainted that should have changed would show there.
"""
from __future__ import annotations

import random

from tests.helpers.on_screen import on_screen


def test_after_each_move_the_table_shows_what_a_whole_repaint_shows(window, open_file, demo_path, qtbot, painted_regions):
    window.resize(1400, 380)  # the store overflows the table: a move scrolls it to another screenful
    session = open_file(window, demo_path)
    window.show_tab("inputs")
    view = window.views["inputs"]
    table = view.table
    qtbot.wait(50)
    rows_shown = table.viewport().height() // table.verticalHeader().defaultSectionSize()
    cursors = [body.id for body in session.bodies if len(session.state_at(body.id).store) > rows_shown] + [None]
    assert len(cursors) >= 4, [len(session.state_at(body.id).store) for body in session.bodies]
    moves = [(late, early) for late in cursors for early in cursors if late != early]
    random.Random(7).shuffle(moves)
    partly = 0
    for late, early in moves:
        window.context.set_cursor(late)
        table.setCurrentIndex(view.model.index(view.model.rowCount() - 1, 0))  # its newest entry chosen, as a click would
        qtbot.wait(30)
        painted = painted_regions(table.viewport())
        window.context.set_cursor(early)
        qtbot.wait(30)
        painted = list(painted)  # this move's, not the next
        shown = on_screen(window, table)
        area = sum(rect.width() * rect.height() for region in painted for rect in region)
        partly += 0 < area < table.viewport().width() * table.viewport().height()
        table.viewport().repaint()  # everything painted afresh
        assert shown == on_screen(window, table), f"a stale cell after the move from {late} to {early}"
        assert view.shown_entry is not None and table.currentIndex().row() == view._row_of(view.shown_entry)
    assert partly, "some move repainted part of the table only"


def short_inputs_table(window, open_file, demo_path, qtbot):
    """The demo open on the Inputs tab of a window so short that its table scrolls: (session, view, table)."""
    window.resize(1400, 380)
    session = open_file(window, demo_path)
    window.show_tab("inputs")
    view = window.views["inputs"]
    qtbot.wait(50)
    return session, view, view.table


def test_a_move_that_moves_the_rows_by_part_of_a_row_repaints_only_the_cells_that_changed(window, open_file, demo_path, qtbot,
                                                                                           painted_regions):
    # At the table's end Qt aligns its last row with the viewport's bottom (the first row part hidden); a move that
    # keeps the chosen entry and adds rows after it aligns the same rows with the top again. Every row moved by part
    # of a row, and the whole table was repainted (issue 28.3: 5-7 ms of a move after a pause on a million entries);
    # now the painted pixels are scrolled with the rows and only cells that look otherwise are painted.
    session, view, table = short_inputs_table(window, open_file, demo_path, qtbot)
    row = table.verticalHeader().defaultSectionSize()
    assert table.viewport().height() % row, "rows do not fill the viewport exactly: the end is aligned otherwise"
    cursors = [body.id for body in session.bodies] + [None]
    shifted = 0
    for late, later in zip(cursors, cursors[1:]):
        window.context.set_cursor(late)
        table.setCurrentIndex(view.model.index(view.model.rowCount() - 1, 0))  # its newest entry chosen: the table's end
        qtbot.wait(30)
        first = table.rowAt(0)
        if first < 0 or table.rowViewportPosition(first) >= 0 or table.viewport().height() < 8 * row:
            continue  # the end is not bottom-aligned here (the store fits)
        size, columns = table.viewport().size(), [table.columnWidth(c) for c in range(view.model.columnCount())]
        painted = painted_regions(table.viewport())
        window.context.set_cursor(later)
        qtbot.wait(30)
        painted = list(painted)
        if table.viewport().size() != size or [table.columnWidth(c) for c in range(view.model.columnCount())] != columns:
            continue  # another frame (a column shown): repainted whole, rightly
        assert table.rowViewportPosition(table.rowAt(0)) == 0, "the chosen entry kept, rows added after it: top-aligned"
        shifted += 1
        area = sum(rect.width() * rect.height() for region in painted for rect in region)
        assert area < table.viewport().width() * table.viewport().height() / 4, (late, later, area)
        shown = on_screen(window, table)
        table.viewport().repaint()
        assert shown == on_screen(window, table), f"a stale cell after the move from {late} to {later}"
    assert shifted, "some move moved the rows by part of a row"


def test_a_move_with_a_widget_on_the_table_shows_what_a_whole_repaint_shows(window, open_file, demo_path, qtbot):
    # Qt scrolls a viewport that has child widgets (an editor) even while its repaints are held: the pixels painted
    # before are no longer where the rows were, and scrolling them again with the rows left stale cells.
    from PySide6.QtWidgets import QLabel

    session, view, table = short_inputs_table(window, open_file, demo_path, qtbot)
    on_it = QLabel("editing", table.viewport())
    on_it.setGeometry(400, 2, 60, 18)
    on_it.show()
    cursors = [body.id for body in session.bodies] + [None]
    for late, other in ((late, other) for late in cursors for other in cursors if late != other):
        window.context.set_cursor(late)
        table.setCurrentIndex(view.model.index(view.model.rowCount() - 1, 0))
        table.scrollTo(view.model.index(max(view.model.rowCount() - 4, 0), 0))  # a few rows to scroll, not a screenful
        qtbot.wait(30)
        window.context.set_cursor(other)
        qtbot.wait(30)
        shown = on_screen(window, table)
        table.viewport().repaint()
        assert shown == on_screen(window, table), f"a stale cell after the move from {late} to {other}"


def test_a_cells_look_is_made_once_for_a_move_and_its_painting(window, open_file, demo_path, qtbot):
    # A move compares the looks of the rows shown before and after it (row_keys, looks_of), then Qt paints the cells
    # that changed, and the model made each painted cell's look a second time (multiData): Python per painted cell
    # on every move (issue 28.3). Counted: each cell's look is made once.
    session, view, _ = short_inputs_table(window, open_file, demo_path, qtbot)
    model = view.model
    made = []
    look_of = model._look_of
    model._look_of = lambda *args: made.append(args) or look_of(*args)
    for body in [*session.bodies[::-1], None]:  # every move another screenful or other rows' looks
        window.context.set_cursor(body.id if body is not None else None)
        qtbot.wait(30)
    assert made, "the moves showed cells not seen before"
    assert len(made) == len(set(made)), [args for args in set(made) if made.count(args) > 1][:5]


def test_another_session_opened_shows_its_own_rows(window, open_file, demo_path, qtbot, tmp_path):
    # A row's key names an entry by its place in the store: after another session's rows come in, the same place is
    # another entry, and the table repaints whole.
    import json

    window.resize(1400, 380)
    open_file(window, demo_path)
    window.show_tab("inputs")
    table = window.views["inputs"].table
    qtbot.wait(50)
    other = json.loads(demo_path.read_text())
    for record in other["store"]:
        record["id"] = f"x{record['id']}"  # every id another: every row looks otherwise at the same place
    renamed = tmp_path / "renamed.json"
    renamed.write_text(json.dumps(other))
    open_file(window, renamed)
    qtbot.wait(50)
    shown = on_screen(window, table)
    table.viewport().repaint()
    assert shown == on_screen(window, table)
    assert table.model().row_texts(table.model().rows[0])[0].startswith("x")
