"""Issue 31.6: a room edit keyed `width`/`depth` with no place draws nothing, and now says why; one with x, y is drawn."""
from __future__ import annotations

import json

from PySide6.QtCore import Qt


def _session(path, room_before, room_after):
    path.write_text(json.dumps({"format": "worker-session/1", "session": {"id": "s"}, "store": [
        {"id": "c1", "call": "pack.rooms.room", "unit": "mm", "input": {"room": room_before}},
        {"id": "e1", "call": "pack.rooms.room", "unit": "mm", "applied": True, "editOf": "c1", "input": {"room": room_after}},
    ]}))
    return path


def _open_edit(qtbot, window, open_file, path):
    open_file(window, path)
    qtbot.keyClick(window, Qt.Key.Key_3, Qt.KeyboardModifier.ControlModifier)
    edits = window.views["edits"]
    qtbot.waitUntil(lambda: edits.ready, timeout=20_000)
    table = edits.edits_table
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=table.visualRect(table.model().index(0, 0)).center())
    qtbot.waitUntil(lambda: edits.current_comparison() is not None and edits.drawing_ready, timeout=20_000)
    return edits


def test_a_size_without_a_place_says_why_nothing_is_drawn(qtbot, window, open_file, tmp_path):
    edits = _open_edit(qtbot, window, open_file, _session(tmp_path / "room.json", {"width": 3600, "depth": 4800},
                                                          {"width": 3400, "depth": 4800}))
    assert not edits.plot.isVisible()
    assert edits.drawing_note.isVisible()
    assert "room has a size but no place (x, y), so it is not drawn" in edits.drawing_note.text()


def test_a_room_with_x_y_width_depth_is_drawn(qtbot, window, open_file, tmp_path):
    edits = _open_edit(qtbot, window, open_file, _session(tmp_path / "room.json", {"x": 0, "y": 0, "width": 3600, "depth": 4800},
                                                          {"x": 0, "y": 0, "width": 3400, "depth": 4800}))
    assert edits.plot.isVisible() and not edits.drawing_note.isVisible()
    assert len(edits.plot.drawn("person")) == 1 and len(edits.plot.drawn("model")) == 1
