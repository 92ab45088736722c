"""Length units (SPEC 1, 4): which numbers of an input are lengths, and converting them exactly.

A call's lengths are in its unit; angles are degrees and areas are unit² (SPEC 1). The session
does not say which numbers are lengths, so the inspector reads it from the keys:

- The nearest enclosing key that names a quantity decides (arrays pass their key down, so the
  numbers of `"widths": [..]` are widths). The key's last word counts, singular or plural:
  `bandDepth` → depth, `clear_width` → width.
  - lengths: width, height, depth, length, thickness, distance, spacing, offset, radius,
    diameter, gap, clearance, setback, inset, margin, elevation, perimeter, span, size, extent,
    dims, dimensions, rise, w, h, len;
  - areas (unit²): area; volumes (unit³): volume;
  - not converted: angles (angle, rotation, heading, bearing, azimuth, orientation, deg,
    degrees, tilt, pitch, yaw, roll) and counts or ratios (count, level, index, id, number,
    seed, ratio, factor, scale, weight, percent, fraction, priority, version, floors, storeys,
    quantity, score, rank);
  - `x`, `y`, `z` are coordinates: lengths unless an enclosing key says otherwise
    (`"scale": {"x": 2, "y": 2}` is not converted).
- With no such key, the numbers of a point (`[x, y(, z)]` or `{x, y(, z)}`) are coordinates, so
  lengths: the points of `spine`, `outline`, `at`, `module` convert. Any other number (a bare
  `"foo": 3`, the items of `[1, 2, 3, 4]`) is not converted.

Factors are exact (1 in = 25.4 mm, 1 ft = 304.8 mm) and applied in decimal to the number as
written, so 1.1 cm is 11 mm, not 11.000000000000002.
"""
from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from wsi_inspector.core.edits.align import all_points
from wsi_inspector.core.jsrules.json_values import is_number, is_point

UNITS = ("mm", "cm", "m", "ft", "in")  # the one list of the units a session may name (SPEC 1)
MM_PER_UNIT: dict[str, Decimal] = {
    "mm": Decimal(1), "cm": Decimal(10), "m": Decimal(1000), "in": Decimal("25.4"), "ft": Decimal("304.8"),
}
RELATIVE_TOLERANCE = 1e-9  # two numbers this close after conversion are the same number (SPEC 4)

LENGTH, AREA, VOLUME, PLAIN = 1, 2, 3, 0  # the power of the length unit a number carries
COORDINATE = -1  # x, y, z: a length unless an enclosing key already decided

_WORDS: dict[str, int] = {
    **dict.fromkeys(("width", "height", "depth", "length", "thickness", "distance", "spacing", "offset", "radius",
                     "diameter", "gap", "clearance", "setback", "inset", "margin", "elevation", "perimeter", "span",
                     "size", "extent", "dims", "dimensions", "rise", "w", "h", "len"), LENGTH),
    "area": AREA,
    "volume": VOLUME,
    **dict.fromkeys(("angle", "rotation", "heading", "bearing", "azimuth", "orientation", "deg", "degrees", "tilt",
                     "pitch", "yaw", "roll", "count", "level", "index", "id", "number", "num", "seed", "ratio",
                     "factor", "scale", "weight", "percent", "pct", "fraction", "priority", "version", "floors",
                     "storeys", "stories", "quantity", "qty", "score", "rank"), PLAIN),
    **dict.fromkeys(("x", "y", "z"), COORDINATE),
}
_LAST_WORD = re.compile(r"([A-Za-z][a-z]*|[0-9]+)[^A-Za-z0-9]*$")


def key_power(key: str) -> int | None:
    """What the key says its numbers are (LENGTH, AREA, VOLUME, PLAIN, COORDINATE), or None: nothing."""
    match = _LAST_WORD.search(key)
    if match is None:
        return None
    word = match.group(1).lower()
    if word in _WORDS:
        return _WORDS[word]
    if word.endswith("s") and word[:-1] in _WORDS:
        return _WORDS[word[:-1]]
    return None


def child_power(power: int | None, key: Any) -> int | None:
    """The power of the numbers under `key`, inside a container whose numbers have `power`."""
    if not isinstance(key, str):
        return power  # an array index passes its array's power down
    found = key_power(key)
    if found is None:
        return power
    if found == COORDINATE:
        return LENGTH if power is None else power
    return found


def power_at(tokens: list[str] | tuple[Any, ...]) -> int | None:
    """The power of the numbers at a path of keys and indices from the root (index tokens pass through)."""
    power: int | None = None
    for token in tokens:
        power = child_power(power, token)
    return power


def unit_text(unit: str | None, tokens: list[str], value: Any) -> str:
    """The unit a changed value at `tokens` is in, as words: `mm`, `mm²`, or "" (not a length, or no unit)."""
    power = power_at(tokens)
    if power is None and is_point(value):
        power = LENGTH
    if not unit or power is None or power <= 0 or not (is_number(value) or is_point(value)):
        return ""
    return unit + {LENGTH: "", AREA: "²", VOLUME: "³"}[power]


class Conversion:
    """Lengths from one unit to another, with the rule above (the identity when the units are equal)."""

    def __init__(self, from_unit: str, to_unit: str):
        self.from_unit, self.to_unit = from_unit, to_unit
        self.factor = MM_PER_UNIT[from_unit] / MM_PER_UNIT[to_unit]
        whole = self.factor == self.factor.to_integral_value()
        self.whole_factor = int(self.factor) if whole else None  # cm → mm: an int stays an int, exactly

    def number(self, value: int | float, power: int) -> int | float:
        """One number carrying unit^power, converted exactly."""
        if power <= 0 or self.from_unit == self.to_unit:
            return value
        if power == LENGTH and self.whole_factor is not None and type(value) is int:
            return value * self.whole_factor
        exact = (Decimal(value) if isinstance(value, int) else Decimal(repr(value))) * self.factor ** power
        return exact_number(exact)

    def value(self, value: Any, power: int | None = None) -> Any:
        """`value` with every length (area, volume) in it converted; `power` is what its key says."""
        if self.from_unit == self.to_unit:
            return value
        root: list[Any] = [None]
        todo: list[tuple[Any, int | None, Any, Any]] = [(value, power, root, 0)]  # value, power, parent, key
        while todo:
            item, item_power, parent, slot = todo.pop()
            if is_number(item):
                parent[slot] = item if item_power is None else self.number(item, item_power)
            elif isinstance(item, list) and item_power in (None, LENGTH) and all_points(item):
                number = self.number  # a polyline: every number is a coordinate
                parent[slot] = [[number(n, LENGTH) for n in point] for point in item]
            elif isinstance(item, list):
                copy = list(item)
                parent[slot] = copy
                inner = LENGTH if item_power is None and is_point(item) else item_power
                todo.extend((member, inner, copy, index) for index, member in enumerate(item)
                            if isinstance(member, (list, dict)) or is_number(member))
            elif isinstance(item, dict):
                copy_dict = dict(item)
                parent[slot] = copy_dict
                point = item_power is None and is_point(item)
                todo.extend((member, LENGTH if point else child_power(item_power, key), copy_dict, key)
                            for key, member in item.items() if isinstance(member, (list, dict)) or is_number(member))
            else:
                parent[slot] = item
        return root[0]


def both_units(value: object, unit: str, other: object, other_unit: str) -> str:
    """`34 mm (3.4 cm)`: a number in the unit shown and, beside it, in the other unit ("" for what is not a number)."""
    if not is_number(value) or not is_number(other):
        return ""
    return f"{value:g} {unit} ({other:g} {other_unit})"


def exact_number(value: Decimal) -> int | float:
    """A decimal as the JSON number a person would write: an int when whole (and safe), else the nearest float."""
    if value == value.to_integral_value() and abs(value) < 2**53:
        return int(value)
    return float(value)


def same_number(a: int | float, b: int | float, tolerance: float) -> bool:
    """Equal, or within `tolerance` relative to the larger of the two."""
    if a == b:
        return True
    return tolerance > 0 and abs(a - b) <= tolerance * max(abs(a), abs(b))
