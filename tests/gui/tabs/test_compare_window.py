"""File ▸ Compare with…: the compare window driven by keys and clicks on pairs made from the demo."""
from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from wsi_inspector.gui.tabs.compare.window import CompareWindow, open_compare
from tests.helpers.compare_pairs import variant, write
from tests.conftest import DEMO


def compare_window(qtbot, window, tmp_path: Path, name: str, size=(1024, 700)) -> CompareWindow:
    b = write(variant(name), tmp_path / f"{name}.jsonl")
    view = open_compare(window, DEMO, b)
    qtbot.addWidget(view)
    view.resize(*size)
    qtbot.waitUntil(lambda: view.compared is not None, timeout=20_000)
    return view


def click_row(qtbot, table, row: int) -> None:
    rect = table.visualRect(table.model().index(row, 1))
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def test_an_inserted_body_is_a_gap_row_and_the_cursor_opens_on_the_first_divergence(qtbot, window, tmp_path):
    view = compare_window(qtbot, window, tmp_path, "inserted")
    steps = view.steps
    rows = [(steps.index(r, 1).data(), steps.index(r, 2).data()) for r in range(steps.rowCount())]
    assert rows == [("b1", "b1"), ("b2", "b2"), ("b3", "b3"), ("—", "b3x"), ("b4", "b4"), ("b5", "b5"),
                    ("b6", "b6"), ("b7", "b7"), ("b8", "b8")]
    assert view.steps_table.currentIndex().row() == 3 and steps.first == 3
    assert steps.index(3, 3).data() == "≠ only in B"
    assert "First divergence: at step 4 B runs b3x, which A does not (dept.zones.assign)" in view.summary.text()
    assert [view.calls.index(0, c).data() for c in range(4)] == ["dept.zones.assign", "—", "x1", "only in B"]


def test_f8_goes_back_to_the_first_divergence_and_f7_steps_through_differences(qtbot, window, tmp_path):
    view = compare_window(qtbot, window, tmp_path, "failure")
    click_row(qtbot, view.steps_table, 0)
    assert view.steps_table.currentIndex().row() == 0
    assert view.calls.index(0, 3).data() == "same"
    qtbot.keyClick(view.steps_table, Qt.Key.Key_Down)  # one cursor: the row moves both sessions
    assert view.current_step()["a"] == "b2" and view.current_step()["b"] == "b2"
    qtbot.keyClick(view.steps_table, Qt.Key.Key_F8)
    assert view.steps_table.currentIndex().row() == 5
    assert view.steps.index(5, 3).data() == "≠ differs: calls, outcome"
    current = view.calls_table.currentIndex().row()  # the first call that differs is chosen
    assert view.calls.item(current) == {"a": "c29", "b": None, "call": "mep.risers.risers", "same": False}
    assert [view.changes.item(i).text() for i in range(view.changes.count())] == ["mep.risers.risers is made only in A"]
    click_row(qtbot, view.steps_table, 0)
    qtbot.keyClick(view.steps_table, Qt.Key.Key_F7)
    assert view.steps_table.currentIndex().row() == 5
    qtbot.mouseClick(view.go_first, Qt.MouseButton.LeftButton)
    assert view.steps_table.currentIndex().row() == 5


def test_a_call_with_another_input_lists_its_changes_shows_both_trees_and_draws_both_in_as_unit(qtbot, window, tmp_path):
    view = compare_window(qtbot, window, tmp_path, "unit")
    assert view.steps_table.currentIndex().row() == 4
    assert view.calls.index(0, 3).data() == "input: 8 changes, output: 1 change"  # length 60600 read in cm
    changes = [view.changes.item(i).text() for i in range(view.changes.count())]
    assert changes[0] == "spine/0 [1500,18000] → [15000,180000]" and len(changes) == 9
    qtbot.waitUntil(lambda: view.tree_b.model().rowCount() > 0, timeout=10_000)
    root_b = view.tree_b.model().index(0, 0)
    assert root_b.data() == "B's input (cm)" and view.tree_a.model().index(0, 0).data() == "A's input (mm)"
    view.tabs.setCurrentIndex(2)
    qtbot.waitUntil(lambda: bool(view.plot.drawn("person")), timeout=10_000)
    (a_xs, a_ys), = view.plot.drawn("model")  # A dashed, B solid, both in mm: B wrote 1500 cm
    (b_xs, b_ys), = view.plot.drawn("person")
    assert (a_xs[0], a_ys[0]) == (1500, 18000) and (b_xs[0], b_ys[0]) == (15000, 180000)
    click_row(qtbot, view.calls_table, 1)  # the other call: the same
    assert [view.changes.item(i).text() for i in range(view.changes.count())] == ["the same input and output"]


def test_sessions_that_do_the_same_say_so_and_f8_does_nothing(qtbot, window, tmp_path):
    view = compare_window(qtbot, window, tmp_path, "unit-converted")
    assert "<b>the same</b>" in view.summary.text() and not view.go_first.isEnabled()
    assert view.steps_table.currentIndex().row() == 0
    qtbot.keyClick(view.steps_table, Qt.Key.Key_F8)
    assert view.steps_table.currentIndex().row() == 0


def test_an_unreadable_b_says_why_in_the_window(qtbot, window, tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text("not json at all")
    view = open_compare(window, DEMO, broken)
    qtbot.addWidget(view)
    qtbot.waitUntil(lambda: "Could not compare" in view.summary.text(), timeout=20_000)
    assert "broken.json" in view.summary.text() and view.steps.rowCount() == 0


def test_file_compare_with_compares_the_open_session_with_a_chosen_file(qtbot, window, open_file, tmp_path, monkeypatch):
    open_file(window, DEMO)
    b = write(variant("dropped"), tmp_path / "dropped.json.gz")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *args, **kwargs: (str(b), ""))
    action = next(a for a in window.menuBar().actions()[0].menu().actions() if a.text() == "&Compare with…")
    action.trigger()
    view = window.compare_views[-1]
    qtbot.addWidget(view)
    qtbot.waitUntil(lambda: view.compared is not None, timeout=20_000)
    assert view.paths == (DEMO, b) and view.steps.index(5, 2).data() == "—"
    assert view.compared.a is window.context.session  # A was not read again: only B was


def test_compare_with_takes_the_open_session_as_the_window_shows_it_not_its_file_read_again(
        qtbot, window, open_file, tmp_path, monkeypatch):
    a = tmp_path / "a.json"
    a.write_bytes(DEMO.read_bytes())
    open_file(window, a)
    write(variant("inserted"), a)  # the file changes on disk after it was opened
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *args, **kwargs: (str(DEMO), ""))
    next(x for x in window.menuBar().actions()[0].menu().actions() if x.text() == "&Compare with…").trigger()
    view = window.compare_views[-1]
    qtbot.addWidget(view)
    qtbot.waitUntil(lambda: view.compared is not None, timeout=20_000)
    assert view.compared.document["same"] is True  # the open A is the demo, as B is
    assert "<b>the same</b>" in view.summary.text()


@pytest.mark.parametrize("size", [(1024, 700), (1920, 1080)])
def test_the_window_fits_its_parts_at_small_and_large_sizes(qtbot, window, tmp_path, size):
    view = compare_window(qtbot, window, tmp_path, "failure", size)
    view.grab().save(str(tmp_path / "compare.png"))
    for part in (view.summary, view.go_first, view.steps_table, view.tabs):
        top_left = part.mapTo(view, part.rect().topLeft())
        assert part.isVisible() and part.width() > 0 and top_left.x() + part.width() <= view.width()
    assert view.steps_table.columnWidth(1) >= view.steps_table.sizeHintForColumn(1) - 8
