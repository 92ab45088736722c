"""Issue 31.4: the value takes the room in the JSON trees; provenance is a compact mark with its words in the tooltip.

Before, Edits' "set by" column left the value column "va" / "[…" at every size, and Inputs did at 1024 px.
"""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from tests.conftest import DEMO

SIZES = [(1024, 700), (1920, 1080)]


def _click_row(qtbot, table, row: int) -> None:
    table.scrollTo(table.model().index(row, 0))
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=table.visualRect(table.model().index(row, 0)).center())


def _value_share(tree) -> float:
    return tree.columnWidth(1) / tree.viewport().width()


@pytest.mark.parametrize("size", SIZES)
def test_the_inputs_tree_gives_the_value_the_room(qtbot, window, open_file, size):
    open_file(window, DEMO)
    window.resize(*size)
    qtbot.waitUntil(lambda: window.width() == size[0], timeout=3000)
    qtbot.keyClick(window, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)
    inputs = window.views["inputs"]
    _click_row(qtbot, inputs.table, 0)
    qtbot.wait(20)
    tree = inputs.tree
    assert _value_share(tree) >= 0.3, [tree.columnWidth(c) for c in range(3)]
    assert tree.columnWidth(1) >= tree.columnWidth(2)


@pytest.mark.parametrize("size", SIZES)
def test_edits_set_by_is_a_compact_mark_and_the_value_keeps_the_room(qtbot, window, open_file, size):
    open_file(window, DEMO)
    window.resize(*size)
    qtbot.waitUntil(lambda: window.width() == size[0], timeout=3000)
    qtbot.keyClick(window, Qt.Key.Key_3, Qt.KeyboardModifier.ControlModifier)
    edits = window.views["edits"]
    qtbot.waitUntil(lambda: edits.ready, timeout=20_000)
    assert edits.select_edit("e1")
    qtbot.waitUntil(lambda: edits.current_detail() is not None, timeout=20_000)
    qtbot.wait(50)
    tree = edits.person_tree
    model = tree.json_model
    assert model.headerData(3, Qt.Orientation.Horizontal) == "set by"
    marks = []
    root = model.root_index()
    for row in range(model.rowCount(root)):
        mark = model.data(model.index(row, 3, root))
        if mark:
            marks.append((mark, model.data(model.index(row, 3, root), Qt.ItemDataRole.ToolTipRole)))
    assert marks and all(len(mark) <= 12 for mark, _tip in marks)  # `✎ e1`, `c4`: ids whole, no words
    assert all("set by" in tip or "carried by" in tip for _mark, tip in marks)
    assert _value_share(tree) >= 0.3 and tree.columnWidth(3) <= max(40, 0.2 * tree.viewport().width() + 1)
