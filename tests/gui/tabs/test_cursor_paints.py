"""A cursor move repaints only what it changes (issue 28.3: every move under 16 ms on a million entries).

Counted, not timed: the paint events each widget gets for a move. Painting is most of a move's cost.
"""
from __future__ import annotations



def unreplayed_demo(tmp_path, demo_path):
    """A copy of the demo: no replay an earlier test ran has taught the process its bodies' reads (none is marked)."""
    fresh = tmp_path / "demo.json"
    fresh.write_bytes(demo_path.read_bytes())
    return fresh


def test_a_move_with_no_reads_known_repaints_no_json_tree_that_shows_the_same_entry(window, open_file, demo_path, qtbot, paints, settle,
                                                                                      tmp_path):
    # The read marks told the Inputs tab "the reads changed" on every move, and its JSON tree repainted
    # whole (1.2–1.4 ms of each move), though no reads were known before or after and it showed the same input.
    session = open_file(window, unreplayed_demo(tmp_path, demo_path))
    window.show_tab("inputs")
    view = window.views["inputs"]
    window.context.set_cursor("b3")
    view.show_entry(session.entry("c5"))
    settle(view, window)
    painted = paints(view.tree.viewport())
    for cursor in ("b4", "b6", "b8", None):  # forwards: every store holds c5, which stays shown
        window.context.set_cursor(cursor)
        qtbot.wait(20)
        assert view.shown_entry is session.entry("c5")
    assert view.read_marks.read == {}, "no replay ran: no reads are known"
    assert painted == []



def test_a_move_that_adds_rows_below_the_screenful_does_not_repaint_the_inputs_rows(window, open_file, demo_path, qtbot, settle,
                                                                                     tmp_path, painted_regions):
    # Each move added or removed the store's rows at the end of the table, and Qt repainted every cell
    # shown (the same cells): 4–6 ms of each move on a big session (StillRowsTable).
    window.resize(1400, 420)  # the store overflows the table: the rows a move adds are below those shown
    session = open_file(window, unreplayed_demo(tmp_path, demo_path))
    window.show_tab("inputs")
    view = window.views["inputs"]
    window.context.set_cursor("b5")  # 22 rows: the scroll bar is there already (one coming repaints all, rightly)
    view.show_entry(session.entry("c1"))
    view.table.scrollToTop()
    settle(view, window)
    assert view.table.verticalScrollBar().isVisible()
    assert view.table.rowAt(view.table.viewport().height() - 1) < view.model.rowCount() - 1, "rows below those shown"
    painted = painted_regions(view.table.viewport())
    for cursor in ("b6", "b7"):  # forwards, nothing falls at any: the rows shown keep their look
        window.context.set_cursor(cursor)
        qtbot.wait(20)
    assert view.model.rowCount() == len(session.state_at("b7").store) and view.table.held_layouts == 2
    row = view.table.rowHeight(0)
    # At most the chosen entry's cell, set current again as the move keeps it shown: never the screenful.
    assert all(region.boundingRect().height() <= row for region in painted), painted


def test_a_move_redraws_no_empty_operations_waterfall_in_the_hidden_run_tab(window, open_file, demo_path, qtbot):
    # Each move showed the chosen body's record in the Run tab, hidden or not, and cleared its waterfall:
    # a pyqtgraph title, bars, ticks and ranges redone for a plot that showed nothing before and after.
    open_file(window, demo_path)
    window.show_tab("inputs")
    run = window.views["run"]
    drawn = []
    run.bars.setOpts = lambda **opts: drawn.append(opts)  # what drawing the waterfall begins with
    for cursor in ("b2", "b5", "b8", None):
        window.context.set_cursor(cursor)
    assert run.operations == [] and run.plot.getPlotItem().titleLabel.text == "no module calls"
    assert drawn == []


def test_a_move_with_another_tab_in_front_leaves_the_run_tab_to_follow_when_it_is_shown(window, open_file, demo_path, qtbot):
    # Each move put the cursor's body through the Run tab's highlighter and its record into labels and
    # trees, behind the Inputs tab: a third of a move's work on a million entries (issue 28.3). Counted,
    # not timed: the editor is filled no time while the tab is behind, and shows the cursor's body once it is shown.
    session = open_file(window, demo_path)
    window.show_tab("inputs")
    run = window.views["run"]
    filled = []
    set_code = run.editor.set_code
    run.editor.set_code = lambda code, lang="js": (filled.append(code), set_code(code, lang))
    for cursor in ("b2", "b5", None, "b7"):
        window.context.set_cursor(cursor)
    assert filled == []
    edits_before = dict(window.context.run.edits)
    window.show_tab("run")
    assert filled == [session.body("b7").code]
    assert run.editor.toPlainText() == session.body("b7").code and run.body_combo.currentData() == "b7"
    assert "b7" in run.scope_label.text() and window.context.run.edits == edits_before  # filling it is no edit
    window.show_tab("inputs")
    window.context.set_cursor(None)  # the end: the editor keeps b7, the scope line says where it runs
    window.show_tab("run")
    assert filled == [session.body("b7").code] and "end of the session" in run.scope_label.text()


def test_a_result_that_arrives_while_the_run_tab_is_behind_stays_when_it_is_shown(window, open_file, demo_path, qtbot):
    # The move made behind the tab was applied first only when the tab was in front: behind it, the move
    # stayed pending over the result, and showing the tab put the body's record back over the result.
    session = open_file(window, demo_path)
    window.show_tab("inputs")
    run = window.views["run"]
    window.context.set_cursor("b7")
    result = {"ok": True, "returned": 42, "logs": ["from the run"], "calls": [], "durationMs": 1.0}
    run.show_result(result)
    window.show_tab("run")
    assert run.last_result is result
    assert run.editor.toPlainText() == session.body("b7").code and "b7" in run.scope_label.text()
    assert "ok" in run.status_label.text()
