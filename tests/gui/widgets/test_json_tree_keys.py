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


# --- a value with the rows shown is shown in them (JsonTreeModel._refill) ------------------------------------------

WARD = {"level": 1, "origin": [0.5, 2.25], "label": "ward", "rooms": {"a": 1}}
WARD_3 = {"level": 1, "origin": [39482.34964231735, -7.5], "label": "wärd \"3\"", "rooms": {"a": 1, "b": 2}}


def _painted_cells(qtbot, tree, change):
    """Do `change`; the rectangles the tree's rows are asked to paint for it."""
    from PySide6.QtCore import QEvent, QObject

    class Spy(QObject):
        rects: list = []

        def eventFilter(self, watched, event):  # noqa: N802 — Qt's hook
            if event.type() == QEvent.Type.Paint:
                self.rects.extend(event.region())  # its rectangles, not their bounds
            return False

    qtbot.wait(50)
    spy = Spy()
    spy.rects = []
    tree.viewport().installEventFilter(spy)
    change()
    qtbot.wait(50)
    tree.viewport().removeEventFilter(spy)
    return spy.rects


def test_a_value_with_the_same_frame_is_shown_in_the_same_rows_and_looks_as_if_shown_afresh(qtbot):
    tree, _measures = _tree(qtbot)
    tree.set_value(WARD, "input")
    qtbot.wait(50)
    model = tree.json_model
    rebuilt = []
    model.rowsRemoved.connect(lambda *_: rebuilt.append("removed"))
    model.rowsInserted.connect(lambda *_: rebuilt.append("inserted"))
    painted = _painted_cells(qtbot, tree, lambda: tree.set_value(WARD_3, "input"))
    assert rebuilt == [], "the rows stay: only their values change"
    assert model.node(model.root_index()).value is WARD_3
    assert _shown(tree) == {"level": "1", "origin": "[39482.34964231735,-7.5]", "label": '"wärd \\"3\\""', "rooms": '{"a":1,"b":2}'}
    # What changed is repainted, no more: "level" (the same 1) and every key stay as painted.
    key_column = tree.header().sectionViewportPosition(0) + tree.columnWidth(0)
    level = tree.visualRect(model.index(0, 1, model.root_index()))
    assert painted and all(rect.left() >= key_column for rect in painted), painted
    assert not any(rect.intersects(level) for rect in painted)
    fresh, _ = _tree(qtbot)
    fresh.set_value(WARD_3, "input")
    qtbot.wait(50)
    assert [fresh.columnWidth(c) for c in range(3)] == [tree.columnWidth(c) for c in range(3)]
    assert tree.grab().toImage() == fresh.grab().toImage(), "the same pixels as a tree that showed it first"


def test_another_frame_is_made_afresh(qtbot):
    tree, _measures = _tree(qtbot)
    model = tree.json_model
    rebuilt = []
    model.rowsInserted.connect(lambda parent, *_: rebuilt.append(parent.isValid()))
    for other in ({"level": 1, "origin": [0.5], "label": "ward"},  # a key fewer
                  {"level": 1, "origin": [0.5, 2.25], "label": "ward", "room": {"a": 1}},  # another key
                  {"level": 1, "origin": 3, "label": "ward", "rooms": {"a": 1}},  # a row that no longer opens
                  {"level": 1, "origin": [0.5, 2.25], "label": "ward", "rooms": {}},  # nor this one
                  [1, 2, 3, 4]):  # another kind of value
        tree.set_value(WARD, "input")
        rebuilt.clear()
        tree.set_value(other, "input")
        assert rebuilt and rebuilt[0] is False, other  # a top row put in afresh
        assert model.node(model.root_index()).value is other
    tree.set_value(WARD, "input")
    tree.expand(model.index(1, 0, model.root_index()))  # origin opened: its items were made
    rebuilt.clear()
    tree.set_value(WARD_3, "input")
    assert rebuilt and rebuilt[0] is False
    assert _shown(tree)["origin"] == "[39482.34964231735,-7.5]"
    tree.set_value(WARD, "output")  # another label
    assert model.data(model.root_index()) == "output"


def test_a_value_of_many_items_has_only_the_rows_in_view_compared_and_shows_the_others_when_scrolled_to(qtbot, monkeypatch):
    # A value shown in the rows of the one before compared every made row's text before and after: for a polyline
    # of 500 points (a batch), 500 previews made on each cursor move, for the twenty or so rows in view (issue 28.3).
    from wsi_inspector.gui.widgets import json_tree

    tree, _measures = _tree(qtbot)
    points = [[index, index * 0.5] for index in range(500)]
    tree.set_value(points, "input")
    qtbot.wait(50)
    made: list[object] = []
    preview = json_tree.preview
    monkeypatch.setattr(json_tree, "preview", lambda value: made.append(value) or preview(value))
    moved = [[index + 0.25, index * 0.5] for index in range(500)]
    rebuilt: list[str] = []
    tree.json_model.rowsInserted.connect(lambda *_: rebuilt.append("inserted"))
    tree.set_value(moved, "input")
    qtbot.wait(50)
    in_view = tree.viewport().height() // tree.sizeHintForRow(0) + 2
    assert rebuilt == [] and 0 < len(made) <= 2 * in_view, len(made)  # each row in view: before (kept) and after
    model = tree.json_model
    root = model.root_index()
    last = model.index(499, 1, root)
    tree.scrollTo(last)
    qtbot.wait(50)
    assert model.data(last) == "[499.25,249.5]", "a row out of view shows its new value once scrolled to"
    fresh, _ = _tree(qtbot)
    fresh.set_value(moved, "input")
    fresh.scrollTo(fresh.json_model.index(499, 1, fresh.json_model.root_index()))
    qtbot.wait(50)
    assert tree.grab().toImage() == fresh.grab().toImage(), "the same pixels as a tree that showed it first"
