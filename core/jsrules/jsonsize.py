"""`json_bytes`: the UTF-8 length of JavaScript's `JSON.stringify(value)`, exactly and fast.

The fast path lets orjson serialize and then corrects the few number tokens it prints differently
from JavaScript, counting bytes instead of rebuilding text: `1.0` (JS `1`), `-0.0` (`0`),
`1e+16`…`1e+20` (JS prints the integer digits) and `1e-6`…`9.9e-6` (JS `0.000001`). Two literal-prefix
regex scans decide whether a text can hold such a token at all; most texts cannot, and cost no more.
Corrections are counted outside string literals only, so a string holding "1.0," is never touched.
What orjson refuses (integers beyond 2^53, lone surrogates, functions) takes the exact walker,
`js_stringify`.
"""
from __future__ import annotations

import math
import re
from collections.abc import Iterable
from typing import Any

import orjson

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_NEEDS_ESCAPE = re.compile(r'["\\\x00-\x1f\ud800-\udfff]')
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
# These start with a literal, which the regex engine scans for fast; one alternation of them is 4× slower.
_INTEGRAL_FLOAT = re.compile(rb"\.0(?=[,\]}]|\Z)")
_NEGATIVE_ZERO = re.compile(rb"-0\.0(?=[,\]}]|\Z)")
_MAY_HAVE_EXPONENT = re.compile(rb"e[-+]").search
# orjson and JavaScript agree on every exponent but e+16…e+20 (JS writes the digits) and e-6 (JS 0.000001…).
_DIFFERING_EXPONENT = re.compile(rb"e(?:\+(1[6-9]|20)|-6)(?![0-9])")
_ARRAY_INDEX_LIMIT = 2**32 - 1


def json_bytes(value: Any) -> int:
    """UTF-8 length of `JSON.stringify(value)`; 0 when it gives undefined (a function)."""
    return json_text_and_bytes(value)[1]


def json_text_and_bytes(value: object) -> tuple[bytes | None, int]:
    """orjson's compact JSON text of `value` (None where only the walker writes it), and `json_bytes(value)`."""
    try:
        text = orjson.dumps(value, option=orjson.OPT_STRICT_INTEGER)
    except TypeError:  # orjson.JSONEncodeError: big integers, lone surrogates, functions
        return None, _walker_bytes(value)
    if _INTEGRAL_FLOAT.search(text) is None and _MAY_HAVE_EXPONENT(text) is None:
        return text, len(text)
    return text, len(text) + _number_corrections(text)


def _number_corrections(text: bytes) -> int:
    """Bytes JavaScript prints more (positive) or fewer (negative) than orjson for the numbers in `text`."""
    outside = _without_strings(text)
    # orjson `N.0` is JavaScript `N`, and a whole `-0.0` token is `0`.
    correction = -2 * len(_INTEGRAL_FLOAT.findall(outside))
    if b"-0.0" in outside:
        correction -= len(_NEGATIVE_ZERO.findall(outside))
    if _MAY_HAVE_EXPONENT(outside):
        for match in _DIFFERING_EXPONENT.finditer(outside):
            correction += _exponent_correction(outside, match)
    return correction


def _without_strings(text: bytes) -> bytes:
    """`text` with its string literals cut out; what is left joins only at delimiters, so no token forms."""
    if b'"' not in text:
        return text
    if b"\\" in text:
        return _STRING.sub(b"", text)
    # Without escapes every quote delimits a string: the even pieces are outside strings.
    return b"".join(text.split(b'"')[::2])


def _exponent_correction(outside: bytes, match: re.Match[bytes]) -> int:
    """JavaScript's length minus orjson's for the number whose exponent `match` is (e+16…e+20 or e-6)."""
    at = match.start()
    head = outside[max(0, at - 25):at]  # a mantissa is at most 19 bytes, and a delimiter precedes it
    mantissa = head[max(head.rfind(b","), head.rfind(b"["), head.rfind(b":")) + 1:]
    sign = mantissa.startswith(b"-")
    digits = len(mantissa) - sign - (b"." in mantissa)
    power = match.group(1)
    # Shortest digits are the same in both; JS writes d.ddd×10^N (16 ≤ N ≤ 20) as N + 1 integer digits.
    js_length = sign + (int(power) + 1 if power else len("0.00000") + digits)
    return js_length - len(mantissa) - len(match.group())


def _walker_bytes(value: Any) -> int:
    text = js_stringify(value)
    return 0 if text is None else len(text.encode("utf-8"))


def js_number(x: float | int) -> str:
    """How JavaScript prints a number (Number.prototype.toString, radix 10)."""
    if isinstance(x, int) and not isinstance(x, bool):
        if -(2**53) <= x <= 2**53:
            return str(x)
        try:
            x = float(x)  # beyond 2^53 an integer prints as the nearest double
        except OverflowError:
            return "Infinity" if x > 0 else "-Infinity"
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "0"
    sign = "-" if x < 0 else ""
    digits, exponent = _shortest_digits(abs(x))
    k, n = len(digits), exponent  # value = 0.digits × 10^n
    if k <= n <= 21:
        body = digits + "0" * (n - k)
    elif 0 < n <= 21:
        body = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        body = "0." + "0" * (-n) + digits
    else:
        e = n - 1
        mantissa = digits[0] + ("." + digits[1:] if k > 1 else "")
        body = f"{mantissa}e{'+' if e >= 0 else '-'}{abs(e)}"
    return sign + body


def _shortest_digits(x: float) -> tuple[str, int]:
    """The shortest round-trip digits of x > 0 and n with x = 0.digits × 10^n (Python's repr is shortest too)."""
    text = repr(x)
    mantissa, _, exp = text.partition("e")
    exponent = int(exp) if exp else 0
    whole, _, fraction = mantissa.partition(".")
    if fraction == "0":
        fraction = ""
    digits = (whole + fraction).lstrip("0")
    leading_zeros = len(whole + fraction) - len((whole + fraction).lstrip("0"))
    n = len(whole) + exponent - leading_zeros
    stripped = digits.rstrip("0")
    return stripped, n


def js_keys(obj: Iterable[str]) -> list[str]:
    """Object.keys order of an object's keys (a dict, or its keys in order): integer-like keys (canonical 0 … 2^32 − 2) ascending, then the rest in order."""
    keys = list(obj)
    # Every key starting with a digit sorts below ":", so a smallest key at or above it means none
    # can be integer-like: the common case costs one C-level pass.
    if not keys or min(keys) >= ":":
        return keys
    indices = [k for k in keys if _is_array_index(k)]
    if not indices:
        return keys
    indices.sort(key=int)
    return indices + [k for k in keys if not _is_array_index(k)]


def _is_array_index(key: str) -> bool:
    if not key.isascii() or not key.isdigit() or (len(key) > 1 and key[0] == "0"):
        return False
    return int(key) < _ARRAY_INDEX_LIMIT


def js_string(s: str) -> str:
    """A string as JSON.stringify quotes it: only `"`, `\\`, controls and lone surrogates escaped."""
    if not _NEEDS_ESCAPE.search(s):
        return f'"{s}"'
    if any("\ud800" <= ch <= "\udfff" for ch in s):
        # Join valid surrogate pairs into one code point, as a JavaScript string holds them.
        s = s.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
    out = []
    for ch in s:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ch < " " or "\ud800" <= ch <= "\udfff":
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def js_stringify(value: Any, limit: int | None = None) -> str | None:
    """The exact text of `JSON.stringify(value)` (no spaces), or None for undefined (a function).

    With `limit`, printing stops once the text passes `limit` characters (a preview needs no more),
    so a huge or deep value costs what is shown, not its size.
    """
    if callable(value):
        return None
    out: list[str] = []
    length = 0
    # An explicit stack instead of recursion: orjson.loads accepts nesting 1,024 deep, Python's stack less.
    todo: list[tuple[bool, Any]] = [(False, value)]  # (is literal text, item)
    while todo:
        is_text, item = todo.pop()
        if is_text:
            out.append(item)
        elif isinstance(item, (list, tuple, dict)):
            # Each member prints at least one character, so `limit` members are more than a limit shows.
            todo.extend(reversed(_container_steps(item, limit)))
            continue
        else:
            out.append(_scalar_text(item))
        if limit is not None:
            length += len(out[-1])
            if length > limit:
                break
    return "".join(out)


def _container_steps(value: list | tuple | dict, most: int | None = None) -> list[tuple[bool, Any]]:
    """The texts and member values of one array or object (its first `most` members), in printing order."""
    if isinstance(value, dict):
        steps: list[tuple[bool, Any]] = [(True, "{")]
        for key in js_keys(value)[:most]:
            member = value[key]
            if callable(member):
                continue  # a function-valued key is left out, as JavaScript does
            steps.append((True, ("," if len(steps) > 1 else "") + js_string(key) + ":"))
            steps.append((False, member))
        steps.append((True, "}"))
        return steps
    steps = [(True, "[")]
    for index, member in enumerate(value[:most] if most is not None else value):
        if index:
            steps.append((True, ","))
        steps.append((True, "null") if callable(member) else (False, member))
    steps.append((True, "]"))
    return steps


def _scalar_text(value: Any) -> str:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (int, float)):
        text = js_number(value)
        return "null" if text in ("NaN", "Infinity", "-Infinity") else text
    if isinstance(value, str):
        return js_string(value)
    raise TypeError(f"{type(value).__name__} is not a JSON value")


def compact_json(value: object, limit: int | None = None) -> str:
    """The value as one line of JSON, as JavaScript prints it (`undefined` for a function); with `limit`, cut there with "…".

    No recursion (a value may nest 1,024 deep) and, with a limit, work in proportion to what is shown.
    """
    text = js_stringify(value, limit)
    if text is None:
        return "undefined"
    return text if limit is None or len(text) <= limit else text[:limit] + "…"
