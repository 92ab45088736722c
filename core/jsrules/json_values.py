"""Parsed JSON values: their kinds, points, equality and canonical keys, all without recursion.

Values come from user files and may be nested as deep as the parser allows (orjson: 1,024), deeper
than Python's stack; every walk here keeps its own stack.
"""
from __future__ import annotations

import json
from typing import Any

import orjson

POINT_KEYS = ({"x", "y"}, {"x", "y", "z"})


def is_number(value: Any) -> bool:
    """A JSON number (a bool is not one, though Python says it is an int)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


POSITION_KEYS = ("at", "origin", "position")  # a key whose `[x, y]` value is a place, moved whole


def is_point(value: Any) -> bool:
    """`[x, y]`, `[x, y, z]` of numbers, or `{x, y[, z]}` of numbers: compared and changed whole."""
    if isinstance(value, list):
        return 2 <= len(value) <= 3 and all(is_number(v) for v in value)
    if isinstance(value, dict):
        return set(value) in POINT_KEYS and all(is_number(v) for v in value.values())
    return False


def kind(value: Any) -> str:
    """The JSON kind: null, boolean, number, string, array or object."""
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
    """Equal as JavaScript sees parsed JSON: numbers by value, booleans apart from numbers, key order ignored.

    The same JSON text (keys sorted) is the same value, told in C; only values whose texts differ (`1` and
    `1.0`, or really different) are walked here, node by node (a compare of two sessions in two forms walked
    25 million nodes that were equal)."""
    if a is b:
        return True
    try:
        if orjson.dumps(a, option=orjson.OPT_SORT_KEYS) == orjson.dumps(b, option=orjson.OPT_SORT_KEYS):
            return True
    except TypeError:  # nested past orjson's 254 levels, integers beyond 64 bits, lone surrogates: walked
        pass
    pending = [(a, b)]
    while pending:
        x, y = pending.pop()
        if x is y:
            continue
        kind_x = kind(x)
        if kind_x != kind(y):
            return False
        if kind_x == "array":
            if len(x) != len(y):
                return False
            pending.extend(zip(x, y))
        elif kind_x == "object":
            if x.keys() != y.keys():
                return False
            pending.extend((v, y[k]) for k, v in x.items())
        elif x != y:
            return False
    return True


def canonical(value: Any) -> bytes:
    """The value's JSON with sorted keys: equal bytes mean equal values (used to align arrays)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # nested past orjson's 254 levels, integers beyond 64 bits, lone surrogates
        return _canonical_walk(value)


def _canonical_walk(value: Any) -> bytes:
    out: list[str] = []
    todo: list[tuple[bool, Any]] = [(False, value)]  # (is literal text, item), popped from the end
    while todo:
        is_text, item = todo.pop()
        if is_text:
            out.append(item)
        elif isinstance(item, dict):
            steps: list[tuple[bool, Any]] = [(True, "{")]
            for number, key in enumerate(sorted(item)):
                steps.append((True, ("," if number else "") + json.dumps(key) + ":"))
                steps.append((False, item[key]))
            steps.append((True, "}"))
            todo.extend(reversed(steps))
        elif isinstance(item, list):
            steps = [(True, "[")]
            for number, member in enumerate(item):
                if number:
                    steps.append((True, ","))
                steps.append((False, member))
            steps.append((True, "]"))
            todo.extend(reversed(steps))
        else:
            out.append(json.dumps(item))
    return "".join(out).encode("utf-8", "surrogatepass")
