"""Values as JavaScript holds them: one number type, so `1` and `1.0`, `-0` and `0`, and
12345678901234567890 and 12345678901234567000 (the double nearest to both) are the same value.

`as_js(value)` gives the normal form of a parsed JSON value: each number becomes what parsing
JavaScript's own printing of it gives (`JSON.parse` then `JSON.stringify` then a JSON parser):
an integral number prints without a fraction, so it is a Python int (its digits as JavaScript
prints them beyond 2^53), and any other number is its float. Two values JavaScript cannot tell
apart have equal normal forms, so `wsi_inspector.core.jsrules.json_values.json_equal` and `wsi_inspector.core.edits.diff.diff` over normal forms
compare as JavaScript sees values. The walk uses its own stack: user data never sets its depth.

Most values are already normal (no integral floats, no integers beyond 2^53): orjson prints them,
and when the text holds no `N.0` and no exponent outside what could be a string, the value itself
is returned without a walk (a 50,000-point input in a few ms instead of half a second).
"""
from __future__ import annotations

import re
from typing import Any

import orjson

from wsi_inspector.core.jsrules.jsonsize import js_number

_SAFE = 2**53
# What orjson prints for a number that may not be normal: `N.0` (an integral float, `-0.0`) or an
# exponent (1e+16 and up are integral). A string holding such text only costs the walk.
# Two searches that start with a literal (fast), not one alternation; orjson always signs an exponent.
_INTEGRAL_FLOAT = re.compile(rb"\.0(?=[,\]}\"]|\Z)").search
_EXPONENT = re.compile(rb"e[-+]").search


def js_scalar(value: Any) -> Any:
    """The normal form of one scalar: numbers as JavaScript prints them, anything else unchanged."""
    kind = type(value)
    if kind is int:
        return value if -_SAFE <= value <= _SAFE else _printed(value)
    if kind is float:
        if not value.is_integer():
            return value  # shortest round-trip digits are the same in Python and JavaScript
        return int(value) if -_SAFE <= value <= _SAFE else _printed(value)
    return value


def _printed(number: int | float) -> int | float:
    text = js_number(number)
    if text.lstrip("-").isdigit():
        return int(text)
    return float(text)  # 1e+21 and beyond, Infinity


def as_js(value: Any) -> Any:
    """A parsed JSON value with every number in JavaScript's normal form: itself when it already is, else a copy."""
    if not isinstance(value, (dict, list)):
        return js_scalar(value)
    try:
        text = orjson.dumps(value, option=orjson.OPT_STRICT_INTEGER)  # refuses integers beyond 2^53
    except TypeError:
        pass
    else:
        if _INTEGRAL_FLOAT(text) is None and _EXPONENT(text) is None:
            return value
    return _walk(value)


def _walk(value: Any) -> Any:
    root: Any = {} if isinstance(value, dict) else []
    stack: list[tuple[Any, Any]] = [(value, root)]
    while stack:
        source, target = stack.pop()
        pairs = source.items() if isinstance(source, dict) else enumerate(source)
        for key, item in pairs:
            if isinstance(item, (dict, list)):
                copy: Any = {} if isinstance(item, dict) else []
                stack.append((item, copy))
            else:
                copy = js_scalar(item)
            if isinstance(target, dict):
                target[key] = copy
            else:
                target.append(copy)
    return root
