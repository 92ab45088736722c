"""The Inputs tab on the demo: module filter, value search, sorting, the JSON tree and the resolver."""
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication

from wsi_inspector.gui.window.look import MUTED

from wsi_inspector.core.jsrules.run_inputs import call_matches, make_inputs


def _ids(view):
    return [str(view.model.entry_at_row(r).id) for r in range(view.model.rowCount())]


def test_module_filter_shows_every_fn_of_the_module(window, open_file, demo_path):
    session = open_file(window, demo_path)
    view = window.views["inputs"]
    view.filter_edit.setText("pack.corridorRuns")
    view.refresh()  # what the typing delay would do
    wanted = [str(e.id) for e in session.entries if call_matches(e.call, "pack.corridorRuns")]
    assert _ids(view) == wanted
    assert {view.model.entry_at_row(r).call for r in range(view.model.rowCount())} == {
        "pack.corridorRuns.corridorRuns", "pack.corridorRuns.score"}


def test_a_full_call_shows_just_it_and_a_partial_segment_explains_itself(window, open_file, demo_path, qtbot):
    open_file(window, demo_path)
    view = window.views["inputs"]
    view.filter_edit.setText("pack.corridorRuns.score")
    qtbot.waitUntil(lambda: view.model.spec.wanted == "pack.corridorRuns.score", timeout=2000)
    assert {view.model.entry_at_row(r).call for r in range(view.model.rowCount())} == {"pack.corridorRuns.score"}
    view.filter_edit.setText("pack.corridor")
    view.refresh()
    assert view.model.rowCount() == 0
    assert "did you mean pack.corridorRuns" in view.hint_label.text()


def test_search_finds_text_inside_input_values(window, open_file, demo_path):
    session = open_file(window, demo_path)
    view = window.views["inputs"]
    view.search_edit.setText("dept-icu")
    view.refresh()
    assert _ids(view) and all("dept-icu" in str(session.entry(i).input) for i in _ids(view))
    assert len(_ids(view)) == sum("dept-icu" in str(e.input) for e in session.entries)


def test_sorting_by_bytes_happens_in_core_and_keeps_the_filter(window, open_file, demo_path):
    from PySide6.QtCore import Qt

    open_file(window, demo_path)
    view = window.views["inputs"]
    view.filter_edit.setText("mep.risers")
    view.refresh()
    view.table.sortByColumn(5, Qt.SortOrder.DescendingOrder)
    sizes = [view.model.entry_at_row(r).input_bytes for r in range(view.model.rowCount())]
    assert sizes == sorted(sizes, reverse=True) and len(sizes) == 9


def test_resolving_last_highlights_the_entry_make_inputs_returns(window, open_file, demo_path):
    session = open_file(window, demo_path)
    view = window.views["inputs"]
    view.resolver_edit.setText('inputs.last("pack.corridorRuns")')
    expected = make_inputs(session.entries).last_entry("pack.corridorRuns")
    assert view.resolution.entry is expected
    assert view.model.highlighted == session.entries.index(expected)
    assert view.shown_entry is expected
    assert expected.id in view.resolver_label.text() and "newest" in view.resolver_label.text()


def test_at_body_b5_last_returns_the_persons_newer_edit(window, open_file, demo_path):
    session = open_file(window, demo_path)
    window.context.set_cursor("b5")
    view = window.views["inputs"]
    view.resolver_edit.setText("pack.corridorRuns.corridorRuns")
    expected = make_inputs(session.state_at("b5").store).last_entry("pack.corridorRuns.corridorRuns")
    assert expected.applied
    assert view.resolution.entry is expected
    assert "person's canvas edit" in view.resolver_label.text()
    window.context.set_cursor(None)  # the resolver follows the cursor
    assert view.resolution.entry is make_inputs(session.entries).last_entry("pack.corridorRuns.corridorRuns")


def test_at_an_id_compares_as_strings_and_says_when_it_comes_later(window, open_file, demo_path):
    open_file(window, demo_path)
    window.context.set_cursor("b2")
    view = window.views["inputs"]
    view.resolver_edit.setText('inputs.at("c30")')
    assert view.resolution.entry is None
    assert "recorded later" in view.resolver_label.text()


def test_the_json_tree_copies_value_pointer_and_json(window, open_file, demo_path):
    session = open_file(window, demo_path)
    view = window.views["inputs"]
    view.show_entry(session.entry("c4"))
    tree = view.tree
    root = tree.json_model.root_index()
    tree.json_model.fetchMore(root)
    spine_row = list(session.entry("c4").input).index("spine")
    spine = tree.json_model.index(spine_row, 0, root)
    tree.json_model.fetchMore(spine)
    point = tree.json_model.index(1, 0, spine)
    tree.setCurrentIndex(point)
    assert tree.copy_pointer() == "/spine/1"
    assert QGuiApplication.clipboard().text() == "/spine/1"
    value = session.entry("c4").input["spine"][1]
    assert tree.copy_value() == "[" + ",".join(str(v) for v in value) + "]"
    assert tree.copy_json().startswith("[")


# --- issue 14: the resolver under the cap (point 1) and nothing recorded hidden (point 6) ----------------------


def _choose_body(window, qtbot, body_id):
    tree = window.timeline.tree
    index = window.timeline.model.index(window.timeline.model.row_for_cursor(body_id), 0)
    tree.scrollTo(index)
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=tree.visualRect(index).center())
    qtbot.waitUntil(lambda: str(window.context.cursor) == body_id, timeout=2000)


def _row_of(view, entry_id):
    return next(r for r in range(view.model.rowCount()) if str(view.model.entry_at_row(r).id) == entry_id)


def _titled(view, tab, title):
    """The detail tab `tab` stands for `title`: whole in its tooltip; on the tab, whole where the bar holds every
    whole title, else its first word (docs/window.md: "output (none recorded)" is "output" beside whole calls)."""
    tabs, bar = view.detail_tabs, view.detail_tabs.tabBar()
    assert tabs.tabToolTip(tab) == title
    metrics = bar.fontMetrics()
    wholes = [tabs.tabToolTip(t) for t in range(tabs.count())]
    # Each tab as wide as its whole title would make it: its size now, its shown text swapped for the whole.
    whole_width = sum(bar.tabSizeHint(t).width() - metrics.horizontalAdvance(tabs.tabText(t)) + metrics.horizontalAdvance(whole)
                      for t, whole in enumerate(wholes))
    shown = title if whole_width <= tabs.width() else title.split(" ")[0]
    assert tabs.tabText(tab) == shown, f"{whole_width} px of whole titles in {tabs.width()} px"


def test_at_b8_c1_is_greyed_and_marked_as_falling_and_the_resolver_says_undefined(window, open_file, demo_path, qtbot):
    open_file(window, demo_path)
    window.show_tab("inputs")
    view = window.views["inputs"]
    _choose_body(window, qtbot, "b8")
    model = view.model
    cap_column = model.CAP_COLUMN
    assert model.headerData(cap_column, Qt.Orientation.Horizontal) == "at cap"
    c1, c2 = _row_of(view, "c1"), _row_of(view, "c2")
    assert model.data(model.index(c1, cap_column)) == "⤓ falls"
    assert model.data(model.index(c2, cap_column)) in (None, "")
    assert model.data(model.index(c1, 1), Qt.ItemDataRole.ForegroundRole) == MUTED
    assert model.data(model.index(c2, 1), Qt.ItemDataRole.ForegroundRole) != MUTED
    assert "5,777 B keeps it" in model.data(model.index(c1, cap_column), Qt.ItemDataRole.ToolTipRole)
    view.resolver_edit.clear()
    qtbot.keyClicks(view.resolver_edit, 'inputs.at("c1")')
    text = view.resolver_label.text()
    assert "undefined" in text and "c1 falls at the 5.6 KiB cap: a body at b8 gets undefined (untrimmed: c1)" in text
    assert view.shown_entry.id == "c1" and "falls at the cap here" in view.entry_label.text()
    status = window.status.store_label.text()
    assert status == "store 5,777 B, cap 5,713 B: 1 entry falls"  # 5.6 KiB both, so in bytes


def test_the_status_store_figure_reads_plainly_when_nothing_falls(window, open_file, demo_path, qtbot):
    open_file(window, demo_path)
    _choose_body(window, qtbot, "b2")
    assert window.status.store_label.text().endswith(": nothing falls")
    assert window.views["inputs"].model.fell == 0


def test_the_detail_shows_the_recorded_output_and_the_other_fields(window, open_file, demo_path, qtbot):
    session = open_file(window, demo_path)
    window.show_tab("inputs")
    view = window.views["inputs"]
    view.search_edit.clear()
    view.refresh()
    row = _row_of(view, "e1")
    qtbot.mouseClick(view.table.viewport(), Qt.MouseButton.LeftButton, pos=view.table.visualRect(view.model.index(row, 0)).center())
    e1 = session.entry("e1")
    assert view.shown_entry is e1
    view.detail_tabs.setCurrentWidget(view.other_tree)
    assert view.other_tree.json_model._root.value["note"] == e1.extra["note"]
    _titled(view, 2, f"other fields ({len(e1.extra) + 1})")
    _titled(view, 1, "output (none recorded)")
    row = _row_of(view, "c23")
    qtbot.mouseClick(view.table.viewport(), Qt.MouseButton.LeftButton, pos=view.table.visualRect(view.model.index(row, 0)).center())
    c23 = session.entry("c23")
    view.detail_tabs.setCurrentWidget(view.output_tree)
    assert view.output_tree.json_model._root.value == c23.output
    _titled(view, 1, "output")


def test_showing_another_entry_fills_only_the_detail_tab_in_front(window, open_file, demo_path):
    # Issue 18, point 4: a cursor move that shows another entry reset the output and other-fields
    # trees too, though their tabs were behind (a millisecond of the move, on a big session).
    session = open_file(window, demo_path)
    window.show_tab("inputs")
    view = window.views["inputs"]
    view.show_entry(session.entry("c23"))
    assert view.tree.json_model._root.value == session.entry("c23").input
    assert view.output_tree.json_model._root is None or view.output_tree.json_model._root.value != session.entry("c23").output
    view.detail_tabs.setCurrentWidget(view.output_tree)  # chosen: filled now
    assert view.output_tree.json_model._root.value == session.entry("c23").output
    view.show_entry(session.entry("e1"))  # the output tab is in front: it follows at once
    assert view.output_tree.json_model._root is None
    _titled(view, 1, "output (none recorded)")


def test_opening_and_moving_the_cursor_do_not_index_every_entry(window, open_file, demo_path):
    """Issue 18: what a cursor move does must not grow with the session; the shown entry keeps its place."""
    session = open_file(window, demo_path)
    view = window.views["inputs"]
    positions = window.context.index._positions
    assert positions is not None  # the entries' places: made by the load job, off the GUI thread
    assert view.shown_entry is session.entries[-1]  # nothing chosen: the newest entry is shown
    stored = [b for b in session.bodies if session.state_at(b.id).store]
    for body in (stored[-1], stored[len(stored) // 2], stored[0]):  # back: the shown entry leaves, the newest shows
        window.context.set_cursor(body.id)
        store = window.context.state.store
        assert view.model.rowCount() == len(store)
        assert view.shown_entry is store[-1] and view.table.currentIndex().row() == len(store) - 1
    shown = view.shown_entry
    window.context.set_cursor(stored[-1].id)  # on: the shown entry stays chosen in its row
    assert view.shown_entry is shown and view.table.currentIndex().row() == len(session.state_at(stored[0].id).store) - 1
    window.context.set_cursor(None)
    assert window.context.index._positions is positions  # never made again on a move
    assert window.context.index._prefix is None  # store sizes come from the trim preview's arrays, not a list of sums
    assert window.status.store_label.text().startswith("store 6")  # …and still say the size
    window.context.choose_entry(session.entries[3])  # an entry from elsewhere: found in the map
    assert view.shown_entry is session.entries[3] and view.table.currentIndex().row() == 3



def test_a_cursor_move_that_shows_the_at_cap_column_paints_the_rows_once(window, open_file, demo_path, qtbot):
    # Issue 18, point 4: the table answered the columns resized by the "at cap" column coming or going
    # on a zero timer, after the cursor move's own paint: every row was painted twice (7 ms on a big store).
    from PySide6.QtCore import QEvent, QObject
    from PySide6.QtWidgets import QApplication

    window.resize(1400, 520)  # the rows overflow the table at both cursors: its scroll bar stays
    open_file(window, demo_path)
    window.show_tab("inputs")
    view = window.views["inputs"]
    paints = []

    class PaintSpy(QObject):
        def eventFilter(self, watched, event):  # noqa: N802 — Qt's hook
            if event.type() == QEvent.Type.Paint:
                paints.append(watched)
            return False

    def settle():
        for _ in range(10):
            QApplication.processEvents()
        qtbot.wait(30)

    spy = PaintSpy()
    view.table.viewport().installEventFilter(spy)
    for cursor, hidden in (("b5", True), (None, False), ("b5", True)):  # nothing falls at b5; three at the end
        settle()
        paints.clear()
        window.context.set_cursor(cursor)
        settle()
        assert view.table.isColumnHidden(view.model.CAP_COLUMN) == hidden
        assert view.table.verticalScrollBar().isVisible()
        assert len(paints) == 1

def test_the_shape_column_keeps_its_room_when_the_at_cap_column_appears(window, open_file, demo_path, qtbot):
    window.resize(1400, 900)
    window.show()
    open_file(window, demo_path)
    window.show_tab("inputs")
    view = window.views["inputs"]
    window.context.set_cursor("b5")  # nothing falls here: no "at cap" column
    qtbot.wait(50)
    assert view.table.isColumnHidden(view.model.CAP_COLUMN)
    window.context.set_cursor(None)  # the end: three entries fall, the column shows
    qtbot.wait(50)
    assert not view.table.isColumnHidden(view.model.CAP_COLUMN)
    header = view.table.horizontalHeader()
    assert view.table.columnWidth(4) >= header.fontMetrics().horizontalAdvance("shape")  # not squeezed to "…" by the column that appeared


def test_showing_another_entry_of_one_line_lays_nothing_out(window, open_file, demo_path, qtbot, layout_requests, settle):
    # The entry's title changes on most cursor moves: as a plain QLabel it laid the Inputs tab out
    # (and the main window above it) each time, though it kept its one line.
    session = open_file(window, demo_path)
    window.show_tab("inputs")
    view = window.views["inputs"]
    view.show_entry(session.entry("c5"))
    settle(view, view.splitter, window)
    layouts = layout_requests(view, view.splitter, window)
    view.show_entry(session.entry("c6"))
    qtbot.wait(50)
    assert "c6" in view.entry_label.text()
    assert layouts == [], [(type(w).__name__, w.objectName()) for w in layouts]


def test_moving_the_cursor_from_the_end_to_a_body_and_back_lays_nothing_out(window, open_file, demo_path, qtbot, layout_requests, settle):
    # Issue 18: the count read "36 of 36 entries at the end of the session", then "… at body b2",
    # a fifth shorter: the label gave its room back, laying the Inputs tab and the main window out
    # and repainting the whole tab twice (the slowest jump, 21–24 ms on a million entries).
    open_file(window, demo_path)
    window.show_tab("inputs")
    view = window.views["inputs"]
    settle(view, view.parentWidget(), window)
    layouts = layout_requests(view, view.parentWidget())  # the tab and the tabs' stack (the status bar's figures are its own)
    for cursor in ("b2", None, "b8", None):
        window.context.set_cursor(cursor)
        qtbot.wait(20)
    assert "at the end of the session" in view.count_label.text() and layouts == [], [(type(w).__name__, w.objectName()) for w in layouts]


def test_a_cursor_move_that_shows_another_entry_repaints_no_column_header(window, open_file, demo_path, qtbot, paints, settle):
    # Issue 18: a header shares its view's selection and repainted whole when another row was chosen
    # (the Inputs table's, the timeline's); the JSON tree's was reset with its model on each entry shown.
    window.resize(1400, 1100)  # every store of the tour fits without a scroll bar: none comes or goes (that repaints, rightly)
    open_file(window, demo_path)
    window.show_tab("inputs")
    view = window.views["inputs"]
    timeline = window.timeline_dock.widget()
    window.context.set_cursor("b7")  # from the end, where entries fall and the "at cap" column shows
    settle(view, window)
    start = view.shown_entry
    tour = ["b6", "b5", "b4", "b3"]  # backwards: each store lacks the entry shown before, so its newest is shown
    # Walked once first: an entry's title of two lines (a narrow pane, a wide font) moves the tree down the first time
    # one shows, rightly; the title keeps that height after (QuietLabel.keep_tallest), so the walk counted moves nothing.
    for cursor in tour:
        window.context.set_cursor(cursor)
        settle(view, window)
    window.context.set_cursor("b7")
    view.show_entry(start)  # b7's newest again (b3's is in b7's store too: it stayed)
    settle(view, window)
    headers = [view.table.horizontalHeader(), timeline.tree.header(), view.tree.header()]
    painted = paints(*(header.viewport() for header in headers))
    shown = []
    for cursor in tour:
        window.context.set_cursor(cursor)
        qtbot.wait(20)
        shown.append(view.shown_entry)
    assert len({id(entry) for entry in shown}) == len(tour), "each move shows another entry"
    assert view.table.isColumnHidden(view.model.CAP_COLUMN), "nothing falls on this tour: the columns stay"
    assert painted == [], [w.parent().parent().objectName() for w in painted]
