"""File ▸ Open folder: the corpus table fills in off the GUI thread, sorts, filters, and opens a session."""
from __future__ import annotations

import os

import pytest
from PySide6.QtCore import Qt

from wsi_inspector.core.check.check import CheckOptions
from wsi_inspector.gui.tabs.corpus.view import COLUMNS, CorpusModel, open_corpus
from tests.gui.conftest import OFFSCREEN_NOISE
from tests.helpers.check_corpus import edit_falling_cap, session, write


@pytest.fixture
def folder(tmp_path):
    root = tmp_path / "sessions"
    write(root / "clean.json", session("clean", bodies=2))
    write(root / "nested/differs.jsonl", session("differs", bodies=3, differs=True))
    lost = session("lost", bodies=3, edit=True)
    lost["caps"] = {"storeBytes": edit_falling_cap(lost)}
    write(root / "lost_edit.json.gz", lost)
    (root / "broken.json").write_text('{"format": "worker-session/1", "store": [}')
    return root


def cells(model, column):
    return [model.index(row, column).data() for row in range(model.rowCount())]


# Double-click raises the inspector window; the offscreen platform has no stacking to raise it in.
@pytest.mark.qt_log_ignore(OFFSCREEN_NOISE, r"^This plugin does not support raise\(\)$")
def test_open_folder_fills_a_sortable_filterable_table_and_double_click_opens(qtbot, window, folder, tmp_path, qtmodeltester):
    assert any(a.text() == "Open &Folder…" for a in window.menuBar().actions()[0].menu().actions())
    view = open_corpus(window, folder, options=CheckOptions(timeout_s=2), jobs=1)
    qtbot.waitUntil(lambda: view.finished, timeout=60_000)
    model = view.model
    qtmodeltester.check(model, force_py=True)
    assert [model.headerData(c, Qt.Orientation.Horizontal) for c in range(5)] == list(COLUMNS)
    assert cells(model, 0) == ["broken.json", "clean.json", "lost_edit.json.gz", "nested/differs.jsonl"]
    assert cells(model, 1) == ["0", "2", "3", "3"]
    assert cells(model, 2) == ["no bodies", "2/2 same", "3/3 same", "1 of 3 differs"]
    assert cells(model, 3)[0] == "1 error (syntax)" and cells(model, 3)[1] == "none"
    assert cells(model, 4) == ["0", "0", "1", "0"]
    assert "checked" in view.status.text() and "4 of 4 sessions checked, 3 not clean" in view.status.text()
    view.table.sortByColumn(4, Qt.SortOrder.DescendingOrder)
    assert cells(model, 0)[0] == "lost_edit.json.gz"
    view.table.sortByColumn(2, Qt.SortOrder.DescendingOrder)
    assert cells(model, 0)[0] == "nested/differs.jsonl"
    view.filter.setText("!clean")
    assert sorted(cells(model, 0)) == ["broken.json", "lost_edit.json.gz", "nested/differs.jsonl"]
    view.filter.setText("edit-falls")
    assert cells(model, 0) == ["lost_edit.json.gz"]
    view.filter.setText("nested")
    assert cells(model, 0) == ["nested/differs.jsonl"]
    if os.environ.get("WSI_SCREENSHOTS"):
        view.filter.clear()
        view.table.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        view.grab().save(str(tmp_path / "corpus.png"))
        view.grab().save(os.environ["WSI_SCREENSHOTS"])
    view.filter.setText("differs.jsonl")
    with qtbot.waitSignal(window.load_finished, timeout=20_000):
        view.table.doubleClicked.emit(model.index(0, 0))
    assert window.current_path == folder / "nested/differs.jsonl"
    assert window.context.session.info["id"] == "differs"
    view.close()


def test_rows_arriving_while_sorted_descending_land_in_order(qtmodeltester):
    from pathlib import Path

    model = CorpusModel(Path("/c"))
    model.sort(1, Qt.SortOrder.DescendingOrder)
    for bodies in (2, 5, 1, 5, 3):
        model.add({"path": f"/c/s{bodies}-{len(model.reports)}.json", "bodies": bodies, "title": None, "clean": True,
                   "differs": 0, "fails": 0, "same": bodies, "replayed": bodies, "errors": 0, "warnings": 0,
                   "lostEdits": 0, "findings": []})
    assert cells(model, 1) == ["5", "5", "3", "2", "1"]
    qtmodeltester.check(model, force_py=True)


def test_stop_keeps_what_is_done(qtbot, window, tmp_path):
    for n in range(6):
        write(tmp_path / f"s{n}.json", session(f"s{n}", bodies=1, endless=True))
    view = open_corpus(window, tmp_path, options=CheckOptions(timeout_s=1), jobs=1)
    qtbot.waitUntil(lambda: len(view.model.reports) >= 1, timeout=60_000)
    view.stop()
    qtbot.waitUntil(lambda: view.finished, timeout=30_000)
    assert 1 <= len(view.model.reports) < 6 and view.status.text().startswith("stopped:")
    view.close()


@pytest.mark.qt_log_ignore(OFFSCREEN_NOISE, r"^This plugin does not support raise\(\)$")
def test_enter_opens_the_chosen_row_of_the_folder_table(qtbot, window, folder):
    # Issue 31.10: Enter did not open a row; only a double click did.
    view = open_corpus(window, folder, options=CheckOptions(timeout_s=2), jobs=1)
    qtbot.waitUntil(lambda: view.finished, timeout=60_000)
    view.filter.setText("clean.json")
    view.table.setFocus()
    view.table.setCurrentIndex(view.model.index(0, 0))
    with qtbot.waitSignal(window.load_finished, timeout=20_000):
        qtbot.keyClick(view.table, Qt.Key.Key_Return)
    assert window.current_path == folder / "clean.json"
    view.close()


def test_only_the_cell_that_says_what_is_wrong_is_red(qtbot, window, folder):
    # Issue 31.11: every row of the folder table was red.
    view = open_corpus(window, folder, options=CheckOptions(timeout_s=2), jobs=1)
    qtbot.waitUntil(lambda: view.finished, timeout=60_000)
    from wsi_inspector.gui.window.theme import colour

    model, bad = view.model, colour("error").name()
    names = cells(model, 0)
    red = {(names[row], column) for row in range(model.rowCount()) for column in range(5)
           if model.index(row, column).data(Qt.ItemDataRole.ForegroundRole) is not None
           and model.index(row, column).data(Qt.ItemDataRole.ForegroundRole).color().name() == bad}
    assert all(column != 0 for _name, column in red)  # no path is red
    assert ("nested/differs.jsonl", 2) in red and ("lost_edit.json.gz", 4) in red
    view.close()
