"""Diff two JSON values as a list of changes (SPEC 4), apply them as JSON Patch, convert units.

A change is `{"op": "replace"|"add"|"remove", "path": JSON Pointer, "from"?, "to"?, "delta"?}`.

Rules, chosen so a designer sees one change per thing they did:
- Objects are compared key by key: a key only in the model's input is a `remove`, a key only in
  the edit an `add`. Key order is not a change (RFC 8259: objects are unordered).
- Arrays are aligned by a longest common subsequence of equal elements (anchored on elements
  found once on each side, as patience diff does, and `difflib.SequenceMatcher` with autojunk off
  where no anchor is), so one point inserted into 50,000 is one `add`, not a cascade.
  Inside a replaced block elements are paired by position and compared recursively; what is
  left over is added or removed.
- A *point* (`[x, y]`, `[x, y, z]` of numbers, or an object of exactly `x, y[, z]` numbers) is
  one value: a moved point is one `replace` of the whole point, never one per coordinate.
- Numbers compare by value as JavaScript does (`1` equals `1.0`, `true` is not `1`); `delta` is the
  exact decimal difference of the two numbers as written (`0.1 → 0.3` gives `0.2`).
- Paths are RFC 6901 pointers (`~` as `~0`, `/` as `~1`); the root is `""`. Applied in order,
  array indices are those of the document as it stands after the earlier changes (RFC 6902).
"""
from __future__ import annotations

import json
from decimal import Decimal
from difflib import SequenceMatcher
from itertools import chain
from typing import Any, Iterator

import jsonpointer
import orjson

Change = dict[str, Any]
Token = str | int

# Exact factors to millimetres (1 in = 25.4 mm, 1 ft = 304.8 mm).
MM_PER_UNIT: dict[str, Decimal] = {
    "mm": Decimal(1), "cm": Decimal(10), "m": Decimal(1000), "in": Decimal("25.4"), "ft": Decimal("304.8"),
}
POINT_KEYS = ({"x", "y"}, {"x", "y", "z"})


def is_number(value: Any) -> bool:
    """A JSON number (a bool is not one, though Python says it is an int)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def is_point(value: Any) -> bool:
    """`[x, y]`, `[x, y, z]` of numbers, or `{x, y[, z]}` of numbers: compared and changed whole."""
    if isinstance(value, list):
        return 2 <= len(value) <= 3 and all(is_number(v) for v in value)
    if isinstance(value, dict):
        return set(value) in POINT_KEYS and all(is_number(v) for v in value.values())
    return False


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if is_number(value):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def json_equal(a: Any, b: Any) -> bool:
    """Equal as JavaScript sees parsed JSON: numbers by value, booleans apart from numbers, key order ignored."""
    kind = _kind(a)
    if kind != _kind(b):
        return False
    if kind == "array":
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b))
    if kind == "object":
        return a.keys() == b.keys() and all(json_equal(v, b[k]) for k, v in a.items())
    return a == b


def canonical(value: Any) -> bytes:
    """The value's JSON with sorted keys: equal bytes mean equal values (used to align arrays)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # integers beyond 64 bits, lone surrogates
        return json.dumps(value, sort_keys=True, separators=(",", ":")).encode()


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
    difference = Decimal(repr(after)) - Decimal(repr(before))
    return _number(difference)


def _number(value: Decimal) -> int | float:
    if value == value.to_integral_value() and abs(value) < 2**53:
        return int(value)
    return float(value)


def element_key(value: Any) -> Any:
    """A hashable key, equal for two array elements exactly when they are equal JSON (cheap for points)."""
    kind = type(value)
    if kind is list and 2 <= len(value) <= 3:
        for number in value:
            if type(number) is not float and type(number) is not int:
                return canonical(value)
        return tuple(value)
    if kind is str or kind is float or kind is int:
        return value  # a str, a number and a tuple never compare equal to one another
    return canonical(value)


def all_points(values: list[Any]) -> bool:
    """Only `[x, y(, z)]` lists of numbers (checked in C-speed passes): then the elements are their own keys."""
    return (bool(values) and set(map(type, values)) == {list} and set(map(len, values)) <= {2, 3}
            and set(map(type, chain.from_iterable(values))) <= {int, float})


def array_opcodes(a: list[Any], b: list[Any]) -> list[tuple[str, int, int, int, int]]:
    """Opcodes (as `SequenceMatcher.get_opcodes`) aligning two arrays element by element.

    Common runs grow from anchors, elements found once on each side of the stretch (as patience
    diff does), with slice comparisons that run in C; a stretch with no anchor goes to
    `difflib.SequenceMatcher(autojunk=False)`. So a 50,000-point polyline with a few edits costs
    a few dozen Python steps, and arrays of points are compared as they are, without keys.
    """
    if all_points(a) and all_points(b):
        keys_a, keys_b = a, b  # list == list is JSON equality here: every element is numbers only
    else:
        keys_a, keys_b = [element_key(v) for v in a], [element_key(v) for v in b]
    aligner = _Aligner(keys_a, keys_b)
    aligner.match(0, len(a), 0, len(b))
    return _opcodes(sorted(aligner.blocks), len(a), len(b))


class _Aligner:
    """Finds matching blocks `(i, j, size)` between two key lists."""

    PROBES = 8  # anchor candidates tried per stretch before falling back to SequenceMatcher

    def __init__(self, keys_a: list[Any], keys_b: list[Any]):
        self.a, self.b = keys_a, keys_b
        self.blocks: list[tuple[int, int, int]] = []

    def match(self, alo: int, ahi: int, blo: int, bhi: int) -> None:
        stack = [(alo, ahi, blo, bhi)]
        while stack:
            alo, ahi, blo, bhi = stack.pop()
            head = _common_run(self.a, alo, self.b, blo, min(ahi - alo, bhi - blo), 1)
            if head:
                self.blocks.append((alo, blo, head))
                alo, blo = alo + head, blo + head
            tail = _common_run(self.a, ahi - 1, self.b, bhi - 1, min(ahi - alo, bhi - blo), -1)
            if tail:
                self.blocks.append((ahi - tail, bhi - tail, tail))
                ahi, bhi = ahi - tail, bhi - tail
            if alo == ahi or blo == bhi:
                continue
            anchor = self._anchor(alo, ahi, blo, bhi)
            if anchor is None:
                self._fallback(alo, ahi, blo, bhi)
                continue
            i, j = anchor
            back = _common_run(self.a, i - 1, self.b, j - 1, min(i - alo, j - blo), -1)
            size = 1 + _common_run(self.a, i + 1, self.b, j + 1, min(ahi - i, bhi - j) - 1, 1)
            i, j, size = i - back, j - back, size + back
            self.blocks.append((i, j, size))
            stack.append((alo, i, blo, j))
            stack.append((i + size, ahi, j + size, bhi))

    def _anchor(self, alo: int, ahi: int, blo: int, bhi: int) -> tuple[int, int] | None:
        probes = min(self.PROBES, bhi - blo)
        for probe in range(probes):
            j = blo + ((bhi - blo) * (2 * probe + 1)) // (2 * probes)
            key = self.b[j]
            i = _only(self.a, key, alo, ahi)
            if i is not None and _only(self.b, key, blo, bhi) == j:
                return i, j
        return None

    def _fallback(self, alo: int, ahi: int, blo: int, bhi: int) -> None:
        def hashable(keys: list[Any]) -> list[Any]:
            return [tuple(k) if type(k) is list else k for k in keys]

        matcher = SequenceMatcher(None, hashable(self.a[alo:ahi]), hashable(self.b[blo:bhi]), autojunk=False)
        for i, j, size in matcher.get_matching_blocks():
            if size:
                self.blocks.append((alo + i, blo + j, size))


def _only(keys: list[Any], key: Any, lo: int, hi: int) -> int | None:
    """The index of `key` in keys[lo:hi] when it occurs there exactly once, else None."""
    try:
        first = keys.index(key, lo, hi)
    except ValueError:
        return None
    try:
        keys.index(key, first + 1, hi)
    except ValueError:
        return first
    return None


def _common_run(a: list[Any], i: int, b: list[Any], j: int, limit: int, step: int) -> int:
    """How many elements match from a[i], b[j] on, going forward (step 1) or backward (-1), at most `limit`."""
    def same(lo: int, hi: int) -> bool:  # do the elements at offsets lo … hi-1 match?
        if step == 1:
            return a[i + lo:i + hi] == b[j + lo:j + hi]
        return a[i - hi + 1:i - lo + 1] == b[j - hi + 1:j - lo + 1]

    if limit <= 0:
        return 0
    good, size = 0, 1
    while size <= limit and same(good, size):  # gallop, then bisect between the last good and first bad size
        good, size = size, size * 2
    bad = min(size, limit + 1)
    while bad - good > 1:
        middle = (good + bad) // 2
        if same(good, middle):
            good = middle
        else:
            bad = middle
    return good


def _opcodes(blocks: list[tuple[int, int, int]], len_a: int, len_b: int) -> list[tuple[str, int, int, int, int]]:
    opcodes: list[tuple[str, int, int, int, int]] = []
    i = j = 0
    for bi, bj, size in [*blocks, (len_a, len_b, 0)]:
        tag = "replace" if i < bi and j < bj else "delete" if i < bi else "insert" if j < bj else ""
        if tag:
            opcodes.append((tag, i, bi, j, bj))
        if size:
            opcodes.append(("equal", bi, bi + size, bj, bj + size))
        i, j = bi + size, bj + size
    return opcodes


def diff(before: Any, after: Any) -> list[Change]:
    """The changes that turn `before` into `after`, in the order they apply."""
    changes: list[Change] = []
    _diff(before, after, (), changes)
    return changes


def _replace(before: Any, after: Any, path: tuple[Token, ...], changes: list[Change]) -> None:
    change: Change = {"op": "replace", "path": pointer(path), "from": before, "to": after}
    if is_number(before) and is_number(after):
        change["delta"] = delta(before, after)
    changes.append(change)


def _diff(before: Any, after: Any, path: tuple[Token, ...], changes: list[Change]) -> None:
    if before is after:
        return
    kind = _kind(before)
    if kind != _kind(after) or is_point(before) or is_point(after):
        if not json_equal(before, after):
            _replace(before, after, path, changes)
    elif kind == "object":
        for key, value in before.items():
            if key not in after:
                changes.append({"op": "remove", "path": pointer(path + (key,)), "from": value})
        for key, value in after.items():
            if key in before:
                _diff(before[key], value, path + (key,), changes)
            else:
                changes.append({"op": "add", "path": pointer(path + (key,)), "to": value})
    elif kind == "array":
        _diff_arrays(before, after, path, changes)
    elif before != after:
        _replace(before, after, path, changes)


def _diff_arrays(before: list[Any], after: list[Any], path: tuple[Token, ...], changes: list[Change]) -> None:
    # Applied left to right, the array stands as after[:j1] + before[i1:] when an opcode starts.
    for tag, i1, i2, j1, j2 in array_opcodes(before, after):
        if tag == "equal":
            continue
        paired = min(i2 - i1, j2 - j1)
        for k in range(paired):  # paired by position, compared inside
            _diff(before[i1 + k], after[j1 + k], path + (j1 + k,), changes)
        for k in range(paired, i2 - i1):
            changes.append({"op": "remove", "path": pointer(path + (j1 + paired,)), "from": before[i1 + k]})
        for k in range(paired, j2 - j1):
            changes.append({"op": "add", "path": pointer(path + (j1 + k,)), "to": after[j1 + k]})


def as_json_patch(changes: list[Change]) -> list[dict[str, Any]]:
    """The changes as RFC 6902 operations: `add` and `replace` carry `to` as their `value`."""
    patch = []
    for change in changes:
        op = {"op": change["op"], "path": change["path"]}
        if change["op"] != "remove":
            op["value"] = change["to"]
        patch.append(op)
    return patch


def apply_changes(document: Any, changes: list[Change]) -> Any:
    """`document` with the changes applied in order; the document itself is not modified.

    Only the containers on a changed path are copied (once each), so applying a few changes to a
    50,000-point input copies one array, not every point.
    """
    root: list[Any] = [document]
    owned: set[int] = {id(root)}
    for number, change in enumerate(changes):
        try:
            _apply_one(root, owned, change)
        except (KeyError, IndexError, ValueError, TypeError) as exc:
            raise ValueError(f"change {number} ({change.get('op')} {change.get('path')!r}) does not apply: {exc}") from None
    return root[0]


def _apply_one(root: list[Any], owned: set[int], change: Change) -> None:
    tokens: list[Token] = [0, *parse_pointer(change["path"])]
    parent = root
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
        parent[key] = change["to"]
    elif op == "add":
        if isinstance(parent, list) and parent is not root:
            parent.insert(key, change["to"])
        else:
            parent[key] = change["to"]
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
        raise TypeError(f"{token!r} steps into a {_kind(container)}")
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


def convert_number(value: int | float, unit: str, to_unit: str) -> int | float:
    """A length in `unit` expressed in `to_unit`, with exact factors."""
    if unit == to_unit:
        return value
    exact = Decimal(repr(value)) * MM_PER_UNIT[unit] / MM_PER_UNIT[to_unit]
    return _number(exact)


def convert_value(value: Any, unit: str, to_unit: str) -> Any:
    """Every number inside `value` converted from `unit` to `to_unit` (booleans and text untouched)."""
    if is_number(value):
        return convert_number(value, unit, to_unit)
    if isinstance(value, list):
        return [convert_value(v, unit, to_unit) for v in value]
    if isinstance(value, dict):
        return {k: convert_value(v, unit, to_unit) for k, v in value.items()}
    return value


def has_numbers(value: Any) -> bool:
    """True when `value` is or holds a number."""
    return any(True for _ in _numbers(value))


def _numbers(value: Any) -> Iterator[Any]:
    if is_number(value):
        yield value
    elif isinstance(value, list):
        for v in value:
            yield from _numbers(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _numbers(v)


def with_conversion(changes: list[Change], unit: str, base_unit: str) -> list[Change]:
    """Each change whose `to` holds numbers, plus `converted`: `to` (and `delta`) in the base's unit."""
    converted_changes = []
    for change in changes:
        if "to" in change and has_numbers(change["to"]):
            to = convert_value(change["to"], unit, base_unit)
            extra: dict[str, Any] = {"unit": base_unit, "to": to}
            if "delta" in change:
                extra["delta"] = delta(change["from"], to)
            change = {**change, "converted": extra}
        converted_changes.append(change)
    return converted_changes
