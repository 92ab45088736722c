"""wsi_inspector.core.edits.edits.change_in_unit and wsi_inspector.core.edits.units.both_units: a change read in another length unit (issue 31.5)."""
from __future__ import annotations

from wsi_inspector.core.edits.edits import change_in_unit
from wsi_inspector.core.edits.geometry import Shape, VertexMark, scaled
from wsi_inspector.core.edits.units import both_units


def test_lengths_convert_and_counts_stay():
    assert change_in_unit({"op": "replace", "path": "/bandDepth", "from": 32, "to": 34, "delta": 2}, "mm", "cm") == {
        "op": "replace", "path": "/bandDepth", "from": 3.2, "to": 3.4, "delta": 0.2}
    assert change_in_unit({"op": "replace", "path": "/spine/1", "from": [15000, 18000], "to": [15000, 18600]}, "mm", "m")["to"] == [15, 18.6]
    level = {"op": "replace", "path": "/level", "from": 2, "to": 3, "delta": 1}
    assert change_in_unit(level, "mm", "cm") == level
    assert change_in_unit(level, None, "cm") is level


def test_both_numbers_and_the_drawing_scaled():
    assert both_units(34, "mm", 3.4, "cm") == "34 mm (3.4 cm)"
    assert both_units([1, 2], "mm", [0.1, 0.2], "cm") == ""
    shapes, marks = scaled([Shape("/a", "polyline", [(0, 0), (100, 10)])], [VertexMark("/a/1", (100, 0), (100, 10), "t")], 0.1)
    assert shapes[0].points == [(0, 0), (10, 1)] and marks[0].after == (10, 1)
