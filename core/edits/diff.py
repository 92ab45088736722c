"""Diff two JSON values as a list of changes (SPEC 4), apply them as JSON Patch, across units.

A change is `{"op": "replace"|"add"|"remove", "path": JSON Pointer, "from"?, "to"?, "delta"?, "raw"?}`.

Rules, chosen so a designer sees one change per thing they did:
- Objects are compared key by key: a key only in the model's input is a `remove`, a key only in
  the edit an `add`. Key order is not a change (RFC 8259: objects are unordered).
- Arrays are aligned with the fewest edits (`wsi_inspector.core.edits.align`: replace, insert and delete each cost
  one), so one point inserted into 50,000 is one `add`, and `["a","b","c"]` → `["c","a","b"]` is
  an `add` and a `remove`. The changes under an array never outnumber its edit distance: a
  replaced element is compared inside when that gives one change (`/rooms/1/at`), and is
  replaced whole when it would give more. Changes name elements (`/rooms/2`), never a whole
  non-empty array.
- A *point* (`[x, y]`, `[x, y, z]` of numbers, or an object of exactly `x, y[, z]` numbers) is
  one value: a moved point is one `replace` of the whole point, never one per coordinate (a
  point's numbers are coordinates, not elements). An array is known to be a point only as an
  element of an array (a polyline's vertex, named by its index) or as a position's value
  (`POSITION_KEYS`: `/rooms/1/at`); anywhere else (the root, `/rooms`) its numbers are its
  elements, so `[1, 2, 3] → [3, 2, 1]` there is two element replaces, never a replace of the
  whole non-empty array. An array that is a point on one side only is compared element by element.
- Numbers compare by value (`1` equals `1.0`, `true` is not `1`); `delta` is the exact decimal
  difference of the two numbers as written (`0.1 → 0.3` gives `0.2`).
- Units: given the two values' units, and when they differ, the edit's lengths are converted
  to the model's unit first (`wsi_inspector.core.edits.units` says which numbers are lengths), numbers within a
  relative 1e-9 are equal, and `from`/`to`/`delta` are in the model's unit; each change then
  carries `raw: {"from"?, "to"?}` in the edit's own unit. `to` (and `apply_changes`) rebuild the
  edit in the model's unit; `raw` (`raw=True`) rebuilds the edit's own input from the model's
  input expressed in the edit's unit: every listed number exactly as the edit wrote it, and every
  number not listed the model's, converted (equal to the edit's, or within the 1e-9 that makes
  it the same number). Arrays are then aligned on numbers rounded to 10 significant digits.
- Paths are RFC 6901 pointers (`~` as `~0`, `/` as `~1`); the root is `""`. Applied in order,
  array indices are those of the document as it stands after the earlier changes (RFC 6902).
- No recursion on the values: nesting as deep as the parser allows is diffed with an explicit
  stack of frames.
"""
from __future__ import annotations

from collections.abc import Generator
from decimal import Decimal
from typing import Any

import jsonpointer

from wsi_inspector.core.edits.align import all_points, array_opcodes
from wsi_inspector.core.jsrules.json_values import POSITION_KEYS, is_number, is_point, kind
from wsi_inspector.core.edits.units import LENGTH, RELATIVE_TOLERANCE, Conversion, child_power, exact_number, same_number

Change = dict[str, Any]
Token = str | int
Path = tuple[Token, ...]
_Frame = Generator["_Frame", list[Change], list[Change]]


def pointer(tokens: tuple[Token, ...] | list[Token]) -> str:
    """The JSON Pointer of a path of keys and indices; `""` is the root."""
    return "".join(f"/{t}" if type(t) is int else "/" + jsonpointer.escape(str(t)) for t in tokens)


def parse_pointer(path: str) -> list[str]:
    """The unescaped reference tokens of a JSON Pointer; ValueError names what is wrong."""
    try:
        return jsonpointer.JsonPointer(path).parts
    except jsonpointer.JsonPointerException as exc:
        raise ValueError(f"JSON Pointer {path!r}: {exc} (a pointer is empty or is /-separated tokens, `~` written `~0` and `/` written `~1`)") from None


def delta(before: Any, after: Any) -> int | float:
    """`after − before` exactly as the two numbers are written (no binary-float noise)."""
    if isinstance(before, int) and isinstance(after, int):
        return after - before
    return exact_number(Decimal(repr(after)) - Decimal(repr(before)))


def diff(before: Any, after: Any, before_unit: str | None = None, after_unit: str | None = None) -> list[Change]:
    """The changes that turn `before` into `after`, in the order they apply; across units when both are given."""
    if before_unit is None or after_unit is None or before_unit == after_unit:
        return _Differ(0.0, None).run(before, after, None)
    converted = Conversion(after_unit, before_unit).value(after)
    return _Differ(RELATIVE_TOLERANCE, Conversion(before_unit, after_unit)).run(before, converted, after)


def _inside(before: Any, after: Any, whole_point: bool = False) -> bool:
    """Two arrays or two objects, compared element by element or key by key; two points are one value
    when both are objects, or where the place says they are points (`whole_point`: a polyline's vertex,
    a position's value)."""
    if type(before) is not type(after) or not isinstance(before, (list, dict)):
        return False
    return not ((whole_point or isinstance(before, dict)) and is_point(before) and is_point(after))


def _element_power(before: Any, after: Any, power: int | None) -> int | None:
    """The power an array passes to its elements: a point's numbers are lengths unless its key says
    otherwise (as `Conversion.value` converts them)."""
    if power is None and isinstance(before, list) and is_point(before) and is_point(after):
        return LENGTH
    return power


class _Differ:
    """One diff: numbers equal within `tolerance`; with `back`, changes carry `raw` values in the edit's unit."""

    def __init__(self, tolerance: float, back: Conversion | None):
        self.tolerance, self.back = tolerance, back

    def run(self, before: Any, after: Any, raw: Any) -> list[Change]:
        if not _inside(before, after):
            out: list[Change] = []
            self._leaf(before, after, raw, (), None, out)
            return out
        stack: list[_Frame] = [self._frame(before, after, raw, (), None)]
        result: list[Change] | None = None
        while True:
            try:
                child = stack[-1].send(result)  # type: ignore[arg-type]
            except StopIteration as done:
                stack.pop()
                result = done.value
                if not stack:
                    return result
                continue
            stack.append(child)
            result = None

    def _frame(self, before: Any, after: Any, raw: Any, path: Path, power: int | None) -> _Frame:
        """The changes inside two containers; yields a sub-frame for each pair of containers to compare."""
        out: list[Change] = []
        if isinstance(before, dict):
            for key, value in before.items():
                if key not in after:
                    out.append(self._remove(value, path + (key,), child_power(power, key)))
            for key, value in after.items():
                inner_raw = raw[key] if raw is not None else None
                inner_power = child_power(power, key) if self.back else None
                if key not in before:
                    out.append(self._add(value, inner_raw, path + (key,), inner_power))
                elif _inside(before[key], value, key in POSITION_KEYS):
                    if before[key] is not value:
                        out.extend((yield self._frame(before[key], value, inner_raw, path + (key,), inner_power)))
                else:
                    self._leaf(before[key], value, inner_raw, path + (key,), inner_power, out)
        else:
            power = _element_power(before, after, power)
            points = self.tolerance > 0 and all_points(before) and all_points(after)  # list == list is JSON equality
            for tag, i1, i2, j1, j2 in array_opcodes(before, after, rounded=self.tolerance > 0):
                if tag == "equal" and self.tolerance > 0:  # nearly equal: compare each pair with the tolerance
                    if points and before[i1:i2] == after[j1:j2]:
                        continue  # exactly equal points (the common case), compared in C
                    for k in range(i2 - i1):
                        x, y = before[i1 + k], after[j1 + k]
                        if points and x == y:
                            continue
                        inner_raw = raw[j1 + k] if raw is not None else None
                        if _inside(x, y, whole_point=True):
                            out.extend((yield self._frame(x, y, inner_raw, path + (j1 + k,), power)))
                        else:
                            self._leaf(x, y, inner_raw, path + (j1 + k,), power, out)
                elif tag == "replace":
                    x, y, inner_raw = before[i1], after[j1], raw[j1] if raw is not None else None
                    if _inside(x, y, whole_point=True):
                        inner = yield self._frame(x, y, inner_raw, path + (j1,), power)
                        if len(inner) > 1:  # more changes than the one edit the alignment counted
                            self._replace(x, y, inner_raw, path + (j1,), power, out)
                        else:
                            out.extend(inner)
                    else:
                        self._leaf(x, y, inner_raw, path + (j1,), power, out)
                elif tag == "delete":
                    out.append(self._remove(before[i1], path + (j1,), power))
                elif tag == "insert":
                    out.append(self._add(after[j1], raw[j1] if raw is not None else None, path + (j1,), power))
        return out

    def _leaf(self, before: Any, after: Any, raw: Any, path: Path, power: int | None, out: list[Change]) -> None:
        """Compare two values not to be looked inside: scalars, points, or values of different kinds."""
        if before is after:
            return
        if is_number(before) and is_number(after):
            if not same_number(before, after, self.tolerance):
                self._replace(before, after, raw, path, power, out)
        elif is_point(before) and is_point(after):
            if not self._same_point(before, after):
                self._replace(before, after, raw, path, power, out)
        elif kind(before) != kind(after) or isinstance(before, (list, dict)) or before != after:
            self._replace(before, after, raw, path, power, out)

    def _same_point(self, before: Any, after: Any) -> bool:
        if isinstance(before, dict):
            if not isinstance(after, dict) or before.keys() != after.keys():
                return False
            return all(same_number(v, after[k], self.tolerance) for k, v in before.items())
        if not isinstance(after, list) or len(before) != len(after):
            return False
        return all(same_number(x, y, self.tolerance) for x, y in zip(before, after))

    def _replace(self, before: Any, after: Any, raw: Any, path: Path, power: int | None, out: list[Change]) -> None:
        change: Change = {"op": "replace", "path": pointer(path), "from": before, "to": after}
        if is_number(before) and is_number(after):
            change["delta"] = delta(before, after)
        if self.back is not None:
            change["raw"] = {"from": self.back.value(before, power), "to": raw}
        out.append(change)

    def _add(self, after: Any, raw: Any, path: Path, power: int | None) -> Change:
        change: Change = {"op": "add", "path": pointer(path), "to": after}
        if self.back is not None:
            change["raw"] = {"to": raw}
        return change

    def _remove(self, before: Any, path: Path, power: int | None) -> Change:
        change: Change = {"op": "remove", "path": pointer(path), "from": before}
        if self.back is not None:
            change["raw"] = {"from": self.back.value(before, power)}
        return change


def _value(change: Change, raw: bool) -> Any:
    return change["raw"]["to"] if raw and "raw" in change else change["to"]


def as_json_patch(changes: list[Change], raw: bool = False) -> list[dict[str, Any]]:
    """The changes as RFC 6902 operations: `add` and `replace` carry `to` (or, with `raw`, `raw.to`) as their value."""
    patch = []
    for change in changes:
        op = {"op": change["op"], "path": change["path"]}
        if change["op"] != "remove":
            op["value"] = _value(change, raw)
        patch.append(op)
    return patch


def apply_changes(document: Any, changes: list[Change], raw: bool = False) -> Any:
    """`document` with the changes applied in order (with `raw`, their `raw.to` values); `document` is not modified.

    Only the containers on a changed path are copied (once each), so applying a few changes to a
    50,000-point input copies one array, not every point.
    """
    root: list[Any] = [document]
    owned: set[int] = {id(root)}
    for number, change in enumerate(changes):
        try:
            _apply_one(root, owned, change, raw)
        except (KeyError, IndexError, ValueError, TypeError) as exc:
            raise ValueError(f"change {number} ({change.get('op')} {change.get('path')!r}) does not apply: {exc}") from None
    return root[0]


def _apply_one(root: list[Any], owned: set[int], change: Change, raw: bool) -> None:
    tokens: list[Token] = [0, *parse_pointer(change["path"])]
    parent: Any = root  # then an array or an object of the document: _index checks the token against it
    for token in tokens[:-1]:
        key = _index(parent, token, change["op"], last=False)
        child = parent[key]
        if id(child) not in owned:
            child = list(child) if isinstance(child, list) else dict(child)
            parent[key] = child
            owned.add(id(child))
        parent = child
    key = _index(parent, tokens[-1], change["op"], last=True)
    op = change["op"]
    if op == "replace":
        parent[key]  # noqa: B018 — RFC 6902: the target must exist
        parent[key] = _value(change, raw)
    elif op == "add":
        if isinstance(parent, list) and parent is not root:
            parent.insert(int(key), _value(change, raw))  # _index gives an array an int
        else:
            parent[key] = _value(change, raw)
    elif op == "remove":
        if parent is root:
            raise ValueError("the root cannot be removed; replace it instead")
        del parent[key]
    else:
        raise ValueError(f"unknown op {op!r}; use replace, add or remove")


def _index(container: Any, token: Token, op: str, last: bool) -> Token:
    if isinstance(container, dict):
        if not last and token not in container:
            raise KeyError(token)
        return token
    if not isinstance(container, list):
        raise TypeError(f"{token!r} steps into a {kind(container)}")
    if isinstance(token, int):
        return token
    size = len(container)
    if token == "-" and last and op == "add":
        return size
    if not token.isdigit() or (token != "0" and token.startswith("0")):
        raise ValueError(f"{token!r} is not an array index")
    index = int(token)
    if index > size or (index == size and not (last and op == "add")):
        raise IndexError(f"index {index} is past the end of an array of {size}")
    return index
