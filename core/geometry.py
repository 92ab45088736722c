"""What the Edits view draws: polylines, points and boxes found in an input, and the changed vertices.

Both inputs are drawn in one unit (the model's call's): `shapes(value, conversion)` converts the
person's lengths first (`core.units`). Walks keep their own stack: inputs may nest deeper than
Python's.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.diff import Change, delta, pointer
from core.edits import change_text, display_path, signed, value_text
from core.json_values import POSITION_KEYS, is_number, is_point
from core.units import Conversion

# Two-number arrays under these keys are sizes, not positions: they are not drawn as points.
NOT_POSITIONS = frozenset({"size", "module", "dims", "dimensions", "extent", "scale", "span"})


@dataclass(slots=True)
class Shape:
    """Geometry found in an input: a polyline (an array of points), a point, or a box (`at` + `size`)."""

    path: str
    kind: str  # "polyline" | "point" | "box"
    points: list[tuple[float, float]]


@dataclass(slots=True)
class VertexMark:
    """A changed point: where it was (None: added) and where it is (None: removed), in words for a tooltip."""

    path: str
    before: tuple[float, float] | None
    after: tuple[float, float] | None
    text: str


def xy(point: Any) -> tuple[float, float]:
    """The x and y of a point, `[x, y(, z)]` or `{x, y(, z)}`."""
    return (point["x"], point["y"]) if isinstance(point, dict) else (point[0], point[1])


def shapes(value: Any, conversion: Conversion | None = None) -> list[Shape]:
    """Every polyline, point and box in `value` (its lengths converted first), depth first, named by pointer."""
    if conversion is not None:
        value = conversion.value(value)
    found: list[Shape] = []
    todo: list[tuple[Any, tuple[Any, ...], Any]] = [(value, (), None)]
    while todo:
        item, tokens, key = todo.pop()
        children: list[tuple[Any, tuple[Any, ...], Any]] = []
        if isinstance(item, list) and len(item) >= 2 and all(is_point(v) for v in item):
            found.append(Shape(pointer(tokens), "polyline", [xy(v) for v in item]))
        elif is_point(item):
            if key not in NOT_POSITIONS:
                found.append(Shape(pointer(tokens), "point", [xy(item)]))
        elif isinstance(item, dict):
            size = item.get("size")
            at = next((item[k] for k in POSITION_KEYS if is_point(item.get(k))), None)
            if at is not None and isinstance(size, list) and len(size) == 2 and all(is_number(v) for v in size):
                (x, y), (w, h) = xy(at), size
                found.append(Shape(pointer(tokens), "box", [(x, y), (x + w, y), (x + w, y + h), (x, y + h), (x, y)]))
            children = [(child, tokens + (child_key,), child_key) for child_key, child in item.items()
                        if at is None or child is not at]  # the box already draws its corner point
        elif isinstance(item, list):
            children = [(child, tokens + (index,), index) for index, child in enumerate(item)]
        todo.extend(reversed(children))
    return found


def vertex_marks(changes: list[Change]) -> list[VertexMark]:
    """The changes that move, add or remove a point, with where it was and where it is."""
    def xy_text(point: tuple[float, float]) -> str:
        return f"({value_text(point[0])}, {value_text(point[1])})"

    marks = []
    for change in changes:
        before = xy(change["from"]) if is_point(change.get("from")) else None
        after = xy(change["to"]) if is_point(change.get("to")) else None
        if before is None and after is None:
            continue
        where = display_path(change["path"])
        if change["op"] == "add" and after:
            text = f"{where} added at {xy_text(after)}"
        elif change["op"] == "remove" and before:
            text = f"{where} removed from {xy_text(before)}"
        elif before and after:
            text = (f"{where} moved {xy_text(before)} → {xy_text(after)} "
                    f"(Δ {signed(delta(before[0], after[0]))}, {signed(delta(before[1], after[1]))})")
        else:
            text = change_text(change, None)
        marks.append(VertexMark(change["path"], before, after, text))
    return marks
