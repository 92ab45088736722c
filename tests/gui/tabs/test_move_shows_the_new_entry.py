"""After a cursor move the entry's pane shows the new entry, though its JSON tree now shows another input in the
rows it had (issue 28.3: an input with the keys of the one shown is shown in the same rows, only what changed repainted)."""
from __future__ import annotations

from wsi_inspector.core.jsrules.jsonsize import js_keys
from wsi_inspector.gui.widgets.json_tree import JsonTreeModel


def _frame(value):
    """What decides whether an input is shown in the rows of another: its keys and which of their values open."""
    if not isinstance(value, dict):
        return None
    return [(key, isinstance(value[key], (dict, list)) and len(value[key]) > 0) for key in js_keys(value)]


def _texts(model, root):
    return [(model.data(model.index(row, 0, root)), model.data(model.index(row, 1, root)), model.data(model.index(row, 2, root)))
            for row in range(model.rowCount(root))]


def test_a_move_back_shows_the_newest_entry_there_in_the_rows_of_the_one_before(window, open_file, demo_path, qtbot):
    session = open_file(window, demo_path)
    window.show_tab("inputs")
    view = window.views["inputs"]
    newest = {body.id: session.state_at(body.id).store[-1] for body in session.bodies if session.state_at(body.id).store}
    pairs = [(early, late) for early in newest for late in newest
             if len(session.state_at(early).store) < len(session.state_at(late).store)
             and newest[early] is not newest[late] and _frame(newest[early].input) == _frame(newest[late].input) is not None
             and newest[early].input != newest[late].input]
    assert pairs, "the demo has two bodies whose newest entries have the same keys"
    early, late = pairs[0]
    window.context.set_cursor(late)
    view.show_entry(newest[late])
    qtbot.wait(20)
    model = view.tree.json_model
    rebuilt = []
    model.rowsInserted.connect(lambda *_: rebuilt.append(True))
    window.context.set_cursor(early)  # the late body's newest entry is not in the store here: the newest here is shown
    qtbot.wait(20)
    shown = newest[early]
    assert view.shown_entry is shown
    assert rebuilt == [], "shown in the rows the other input had"
    root = model.root_index()
    assert model.node(root).value == shown.input
    fresh = JsonTreeModel()
    fresh.set_value(shown.input, "input")
    fresh_root = fresh.index(0, 0)
    fresh.fetchMore(fresh_root)
    assert _texts(model, root) == _texts(fresh, fresh_root)
    assert model.data(root, 0) == "input" and model.data(model.index(0, 1)) == fresh.data(fresh.index(0, 1))
    assert str(shown.id) in view.entry_label.text()
