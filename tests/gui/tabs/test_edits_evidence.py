"""The Edits tab's "set by" with evidence (SPEC 7, issue 30): read by the body at a line (a link), or typed again."""
from __future__ import annotations

import json

from PySide6.QtCore import Qt

from tests.helpers.evidence_session import E1, session_file

SPREAD = 'const base = inputs.last("pack.corridorRuns");\nawait modules.pack.corridorRuns({ ...base, clearWidth: 2600 });\nreturn 2;\n'


def edited_after(tmp_path, code):
    """The evidence session, and then the person's edit e2 of b2's call c2 (band depth 34 → 36)."""
    path = session_file(tmp_path, code, {**E1, "clearWidth": 2600})
    document = json.loads(path.read_text())
    document["store"].append({"id": "e2", "call": "pack.corridorRuns.corridorRuns", "unit": "mm", "applied": True,
                              "editOf": "c2", "at": "2026-11-18T09:04:00Z", "input": {**E1, "clearWidth": 2600, "bandDepth": 36}})
    path.write_text(json.dumps(document))
    return path


def set_by(tree, pointer):
    model = tree.json_model
    todo = [model.root_index()]
    while todo:
        index = todo.pop()
        if model.canFetchMore(index):
            model.fetchMore(index)
        if model.node(index).pointer == pointer:
            return model.data(model.index(index.row(), 3, index.parent()), Qt.ItemDataRole.DisplayRole), index
        todo.extend(model.index(r, 0, index) for r in range(model.rowCount(index)))
    raise AssertionError(pointer)


def open_edit(qtbot, window, open_file, path):
    open_file(window, path)
    window.show_tab("edits")
    view = window.views["edits"]
    qtbot.waitUntil(lambda: view.ready, timeout=20_000)
    assert view.select_edit("e2")
    qtbot.waitUntil(lambda: view.current_detail() is not None and view.current_comparison() is not None, timeout=30_000)
    return view


def test_a_read_value_is_the_persons_read_by_the_body_and_a_double_click_opens_its_line(qtbot, window, open_file, tmp_path):
    view = open_edit(qtbot, window, open_file, edited_after(tmp_path, SPREAD))
    assert view.current_comparison().before.id == "c2"
    text, index = set_by(view.model_tree, "/bandDepth")
    assert text == "c2 ← ✎ e1 · read b2:1"  # a compact mark: the words are its tooltip (issue 31.4)
    assert set_by(view.model_tree, "/clearWidth")[0] == "c2"
    window.grab().save("/tmp/evidence-edits-read.png")
    view._open_read(view.model_tree, index)
    run = window.views["run"]
    assert window.context.cursor == "b2" and run.editor.toPlainText() == SPREAD
    assert run.editor.textCursor().blockNumber() == 0 and window.tabs.currentWidget() is run


def test_a_value_typed_again_is_the_bodys(qtbot, window, open_file, tmp_path):
    typed = f"await modules.pack.corridorRuns({json.dumps({**E1, 'clearWidth': 2600})});\nreturn 2;\n"
    view = open_edit(qtbot, window, open_file, edited_after(tmp_path, typed))
    assert set_by(view.model_tree, "/bandDepth")[0] == "c2 · typed again"
    assert "equal to the person's edit e1, never read there" in view.model_tree.json_model.data(
        set_by(view.model_tree, "/bandDepth")[1], Qt.ItemDataRole.ToolTipRole)
