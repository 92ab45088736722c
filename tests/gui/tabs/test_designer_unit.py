"""Issue 31.5: a unit switch for the change list and the drawing, and both numbers where units differ.

A cm edit of an mm call listed mm only, with the cm values behind a horizontal scroll.
"""
from __future__ import annotations

import json

from PySide6.QtCore import Qt


def _session(path):
    path.write_text(json.dumps({"format": "worker-session/1", "session": {"id": "s"}, "store": [
        {"id": "c1", "call": "pack.corridorRuns.corridorRuns", "unit": "mm",
         "input": {"bandDepth": 32, "spine": [[0, 0], [1000, 0], [2000, 0]]}},
        {"id": "e1", "call": "pack.corridorRuns.corridorRuns", "unit": "cm", "applied": True, "editOf": "c1",
         "input": {"bandDepth": 3.4, "spine": [[0, 0], [100, 10], [200, 0]]}},
    ]}))
    return path


def _row_of(model, path):
    return next(row for row in range(model.rowCount()) if model.change_at(row)["path"] == path)


def test_a_cm_edit_of_an_mm_call_gives_both_numbers_and_the_switch_reads_lengths_in_cm(qtbot, window, open_file, tmp_path):
    open_file(window, _session(tmp_path / "cm.json"))
    qtbot.keyClick(window, Qt.Key.Key_3, Qt.KeyboardModifier.ControlModifier)
    edits = window.views["edits"]
    qtbot.waitUntil(lambda: edits.ready, timeout=20_000)
    table = edits.edits_table
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=table.visualRect(table.model().index(0, 0)).center())
    qtbot.waitUntil(lambda: edits.current_comparison() is not None and edits.drawing_ready, timeout=20_000)
    model = edits.changes_model
    row = _row_of(model, "/bandDepth")
    assert model.index(row, 3).data() == "34 mm (3.4 cm)"  # the model's unit first, the edit's beside it
    assert model.index(row, 4).data() == "+2"
    box = edits.unit_box
    assert box.itemText(0) == "model's unit (mm)"
    box.setFocus()
    qtbot.keyClick(box, Qt.Key.Key_Down)  # in mm
    qtbot.keyClick(box, Qt.Key.Key_Down)  # in cm
    assert box.currentData() == "cm"
    assert model.index(row, 3).data() == "3.4 cm (34 mm)" and model.index(row, 4).data() == "+0.2"
    assert model.index(_row_of(model, "/spine/1"), 3).data() == "[100,10]"
    qtbot.waitUntil(lambda: edits.drawing_ready, timeout=5_000)
    xs = [x for curve_xs, _ys in edits.plot.drawn("person") for x in curve_xs]
    assert max(xs) == 200  # the drawing in cm too
    assert edits.plot.plot.getAxis("bottom").labelText == "x (cm)"
