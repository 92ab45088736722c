"""Issue 31, the window's second pass at 1024×700 after a replay: a read entry's call was cut beside its ● mark
(drawn in the call's own cell), the entry pane's tabs read "in… | out… | ot…", and prose was cut in the middle
where `fit_column` had set the whole view's elide mode (the Edits change list, the Reads table).
Acted as a person would (keys and clicks); widths compared with font metrics measured here, at any font or DPI."""
from __future__ import annotations

import shutil

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QFontMetrics, QPalette, QStandardItemModel
from PySide6.QtWidgets import QApplication, QStyleFactory, QStyleOptionViewItem, QTableView

from tests.conftest import DEMO
from tests.helpers.window_sizes import SMALL, settle, shown_whole
from wsi_inspector.gui.window.look import fit_column, monospace

MIDDLE, END = Qt.TextElideMode.ElideMiddle, Qt.TextElideMode.ElideRight


@pytest.fixture
def look(monkeypatch):
    """The application's own look (Fusion, dressed: its tabs are wider than the bare platform style's), restored after."""
    from wsi_inspector.gui.window.theme import apply_look, use_palette

    app = QApplication.instance()
    style, palette = app.style().name(), QPalette(app.palette())
    monkeypatch.setenv("WSI_THEME", "light")
    apply_look(app)
    yield
    app.setStyle(QStyleFactory.create(style))
    app.setPalette(palette)
    use_palette(app.palette())


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
