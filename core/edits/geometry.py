"""What the Edits view draws: polylines, points and boxes found in an input, and the changed vertices.

Both inputs are drawn in one unit (the model's call's): `shapes(value, conversion)` converts the
person's lengths first (`wsi_inspector.core.edits.units`). Walks keep their own stack: inputs may nest deeper than
Python's.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from wsi_inspector.core.edits.diff import Change, delta, pointer
from wsi_inspector.core.edits.edits import change_text, display_path, signed, value_text
from wsi_inspector.core.jsrules.json_values import POSITION_KEYS, is_number, is_point
from wsi_inspector.core.edits.units import Conversion

# Two-number arrays under these keys are sizes, not positions: they are not drawn as points.
NOT_POSITIONS = frozenset({"size", "module", "dims", "dimensions", "extent", "scale", "span"})
# A box's two lengths under these keys, with its corner as `x`/`y` (or a position above): `{x, y, width, depth}`.
SIZE_KEYS = (("width", "depth"), ("width", "height"), ("width", "length"), ("w", "h"), ("w", "d"))
MOST_SAID = 3  # places named in the line saying why nothing is drawn


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
            at = next((item[k] for k in POSITION_KEYS if is_point(item.get(k))), None)
            corner = xy(at) if at is not None else _corner(item)
            size = _box_size(item)
            if corner is not None and size is not None:
                (x, y), (w, h) = corner, size
                found.append(Shape(pointer(tokens), "box", [(x, y), (x + w, y), (x + w, y + h), (x, y + h), (x, y)]))
            children = [(child, tokens + (child_key,), child_key) for child_key, child in item.items()
                        if at is None or child is not at]  # the box already draws its corner point
        elif isinstance(item, list):
            children = [(child, tokens + (index,), index) for index, child in enumerate(item)]
        todo.extend(reversed(children))
    return found


def _corner(item: dict[str, Any]) -> tuple[float, float] | None:
    """`{x, y, …}`'s corner (a dict that is itself a point is drawn as one, not here)."""
    x, y = item.get("x"), item.get("y")
    if isinstance(x, (int, float)) and isinstance(y, (int, float)) and is_number(x) and is_number(y) and len(item) > 2:
        return float(x), float(y)
    return None


def _box_size(item: dict[str, Any]) -> tuple[float, float] | None:
    """A box's width and depth: `size: [w, d]`, or two numbers under SIZE_KEYS."""
    size = item.get("size")
    if isinstance(size, list) and len(size) == 2 and all(is_number(v) for v in size):
        return float(size[0]), float(size[1])
    for wide, deep in SIZE_KEYS:
        if is_number(item.get(wide)) and is_number(item.get(deep)):
            return float(item[wide]), float(item[deep])
    return None


def why_nothing_drawn(*values: object) -> str:
    """One line for the drawing's place when `values` hold no shape: what is drawn, and what was found instead.

    A box's size without a place (`{width, depth}` with no `x`/`y` or `at`) is named, so the person
    knows the edit was read and why it is not on the plan.
    """
    sized: list[str] = []
    todo: list[tuple[object, tuple[str | int, ...]]] = [(value, ()) for value in values]
    while todo and len(sized) < MOST_SAID:
        item, tokens = todo.pop()
        if isinstance(item, dict):
            if _box_size(item) is not None and _corner(item) is None and not any(is_point(item.get(k)) for k in POSITION_KEYS):
                sized.append(display_path(pointer(tokens)) or "the input")
            todo.extend((child, tokens + (key,)) for key, child in reversed(list(item.items())))
        elif isinstance(item, list):
            todo.extend((child, tokens + (index,)) for index, child in reversed(list(enumerate(item))))
    what = "Nothing to draw: these inputs hold no points ([x, y]), lines (arrays of points) or boxes ({x, y, width, depth})"
    places = list(dict.fromkeys(sized))  # the same place in both inputs is named once
    if places:
        one = len(places) == 1
        return (f"{what}; {', '.join(places)} {'has' if one else 'have'} a size but no place (x, y), "
                f"so {'it is' if one else 'they are'} not drawn.")
    return f"{what}."


def scaled(found: list[Shape], marks: list[VertexMark], factor: float) -> tuple[list[Shape], list[VertexMark]]:
    """The shapes and marks with every coordinate times `factor` (the drawing read in another length unit)."""
    if factor == 1:
        return found, marks

    def point(p: tuple[float, float] | None) -> tuple[float, float] | None:
        return None if p is None else (p[0] * factor, p[1] * factor)

    return ([Shape(s.path, s.kind, [(x * factor, y * factor) for x, y in s.points]) for s in found],
            [VertexMark(m.path, point(m.before), point(m.after), m.text) for m in marks])


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
