"""Issue 31.6: boxes and rooms keyed `{x, y, width, depth}` (and similar) are drawn; a size without a place says why not."""
from __future__ import annotations

from wsi_inspector.core.edits.geometry import shapes, why_nothing_drawn


def test_rooms_keyed_x_y_width_depth_are_boxes():
    found = shapes({"rooms": [{"id": "r1", "x": 0, "y": 0, "width": 3600, "depth": 4800},
                              {"id": "r2", "at": [3600, 0], "w": 3000, "h": 4800}]})
    assert [(s.path, s.kind) for s in found] == [("/rooms/0", "box"), ("/rooms/1", "box")]
    assert found[0].points == [(0, 0), (3600, 0), (3600, 4800), (0, 4800), (0, 0)]
    assert found[1].points[2] == (6600, 4800)


def test_a_size_without_a_place_is_named_in_the_line_saying_why_nothing_is_drawn():
    before, after = {"room": {"width": 3600, "depth": 4800}}, {"room": {"width": 3400, "depth": 4800}}
    assert shapes(before) == [] and shapes(after) == []
    line = why_nothing_drawn(before, after)
    assert line.startswith("Nothing to draw: ") and "room has a size but no place (x, y), so it is not drawn" in line
    assert why_nothing_drawn({"n": 1}).endswith("boxes ({x, y, width, depth}).")
