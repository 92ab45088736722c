"""The JSON tree measures its keys again only when they may have changed (issue 28.3), and shows each value it is given.

Consecutive entries of one call have the same keys; a cursor move measured them again on every move. A value
with the keys last measured, at the same widths, keeps that measure; anything else is measured as before.
"""
from __future__ import annotations

from PySide6.QtCore import Qt

from wsi_inspector.gui.widgets.json_tree import JsonTreeView


def _tree(qtbot):
    tree = JsonTreeView()
    qtbot.addWidget(tree)
    tree.resize(420, 300)
    tree.show()
    qtbot.waitExposed(tree)
    measures: list[int] = []
    measure = tree.sizeHintForColumn

    def counted(column: int) -> int:
        measures.append(column)
        return measure(column)

    tree.sizeHintForColumn = counted  # fit_keys asks this: one call a measure of the keys
    return tree, measures


def _shown(tree) -> dict[str, str]:
    """The rows under the top one as the tree shows them: key → value column's text."""
    model = tree.json_model
    root = model.root_index()
    return {model.data(model.index(row, 0, root)): model.data(model.index(row, 1, root)) for row in range(model.rowCount(root))}


def test_a_value_with_the_keys_measured_is_shown_without_measuring_them_again(qtbot):
    tree, measures = _tree(qtbot)
    tree.set_value({"level": 1, "origin": [0.5, 2.25], "label": "ward"}, "input")
    qtbot.waitUntil(lambda: measures == [0])
    width = tree.columnWidth(0)
    tree.set_value({"level": 2, "origin": [39482.34964231735, -7.5], "label": "wärd \"3\""}, "input")
    qtbot.wait(50)
    assert measures == [0], "the same keys at the same widths: the measure made stands"
    assert _shown(tree) == {"level": "2", "origin": "[39482.34964231735,-7.5]", "label": '"wärd \\"3\\""'}
    assert tree.columnWidth(0) == width and tree.columnWidth(0) >= tree.sizeHintForColumn(0)


def test_other_keys_an_opened_row_or_another_width_are_measured_again(qtbot):
    tree, measures = _tree(qtbot)
    tree.set_value({"level": 1, "origin": [0.5, 2.25]}, "input")
    qtbot.waitUntil(lambda: len(measures) == 1)
    long_key = "a_key_much_longer_than_the_column_was_first_made"
    tree.set_value({"level": 1, long_key: 3}, "input")  # another key: measured, and the column grows for it
    qtbot.waitUntil(lambda: len(measures) == 2)
    assert long_key in _shown(tree)
    assert tree.columnWidth(0) >= min(tree.sizeHintForColumn(0), tree._key_room())
    tree.set_value({"level": 2, long_key: 4}, "input")  # the same keys: not measured again
    qtbot.wait(50)
    assert len(measures) == 3  # the assertion's own call above, no measure of fit_keys
    model = tree.json_model
    origin = {"level": 1, "origin": {"deep_key_below_the_top_row": 1}}
    tree.set_value(origin, "input")
    qtbot.waitUntil(lambda: len(measures) == 4)
    tree.expand(model.index(1, 0, model.root_index()))  # a row below the top one opened: its keys measured too
    qtbot.waitUntil(lambda: len(measures) == 5)
    tree.set_value({"level": 2, "origin": {"deep_key_below_the_top_row": 2}}, "input")
    qtbot.waitUntil(lambda: len(measures) == 6)  # the last measure counted an opened row: not the keys alone
    tree.resize(600, 300)
    qtbot.waitUntil(lambda: tree.viewport().width() > 500)
    tree.set_value({"level": 3, "origin": {"deep_key_below_the_top_row": 3}}, "input")
    qtbot.waitUntil(lambda: len(measures) == 7)  # another width: measured again
    assert tree.currentIndex() == model.root_index() and model.data(model.root_index(), Qt.ItemDataRole.DisplayRole) == "input"
