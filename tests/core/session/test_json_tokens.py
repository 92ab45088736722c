"""A JSON text's tokens, read in C (core/session/_store_scan.c): `digest`, `same_json` and `member` of store_scan.

They let the compare tell a call's input and output equal across a session's forms (compact, indented,
JSON Lines) without parsing either record. Each is held here to a plain Python reading of the same text:
whitespace counts only inside strings, and a member's span parses to the member's value.
"""
from __future__ import annotations

import random
import re

import orjson
import pytest

from wsi_inspector.core.session import store_scan

pytestmark = pytest.mark.skipif(not store_scan.BUILT, reason="the C scan was not built")


def tokens(text: bytes) -> bytes:
    """The reference: the text without the whitespace that stands between tokens."""
    out, in_string, escaped = bytearray(), False, False
    for byte in text:
        if in_string:
            out.append(byte)
            if escaped:
                escaped = False
            elif byte == 0x5C:
                escaped = True
            elif byte == 0x22:
                in_string = False
        elif byte not in b" \t\r\n":
            out.append(byte)
            in_string = byte == 0x22
    return bytes(out)


def random_value(rng: random.Random, depth: int = 0) -> object:
    kind = rng.random()
    if depth > 3 or kind < 0.35:
        return rng.choice([rng.uniform(-1e5, 1e5), rng.randint(-10**6, 10**6), True, None, 1e21, 5e-324,
                           "a b", 'q"uote', "back\\slash \\\" end", "tab\there", "Süd 病棟 🏥", "        eight", ""])
    if kind < 0.7:
        return [random_value(rng, depth + 1) for _ in range(rng.randint(0, 12))]
    return {rng.choice(["x", "y", "rooms", "label", "a b", 'k"q']) + str(i): random_value(rng, depth + 1)
            for i in range(rng.randint(0, 6))}


def layouts(value: object) -> list[bytes]:
    """One value as each writer lays it out: compact, indented by 2, with tabs and CRLF, spaced by hand."""
    compact = orjson.dumps(value)
    indented = orjson.dumps(value, option=orjson.OPT_INDENT_2)
    tabbed = re.sub(rb"\n( +)", lambda m: b"\r\n" + b"\t" * (len(m[1]) // 2), indented)  # a raw newline is never in a string
    return [compact, indented, tabbed, b"  " + indented + b" \n"]


def test_a_value_laid_out_any_way_has_one_digest_and_the_same_tokens():
    rng = random.Random(33)
    seen: dict[bytes, int] = {}
    for _ in range(400):
        forms = layouts(random_value(rng))
        digests = {store_scan.digest(form) for form in forms}
        assert len(digests) == 1, forms
        for form in forms:
            assert store_scan.digest(form) == store_scan.digest(tokens(form))
            assert store_scan.same_json(forms[0], (0, len(forms[0])), form, (0, len(form)))
        seen[tokens(forms[0])] = digests.pop()
    assert len(set(seen.values())) == len(seen) > 200  # values that differ have digests that differ


def test_whitespace_inside_strings_counts_and_another_spelling_is_not_the_same():
    pairs = [(b'"a b"', b'"ab"'), (b'["x\\" y"]', b'["x\\"y"]'), (b'{"k": "        eight spaces"}', b'{"k":"eight spaces"}'),
             (b"1e21", b"1e+21"), (b'"\\u0041"', b'"A"'), (b"[1,2]", b"[1,2,3]"), (b"[12]", b"[1,2]")]
    for a, b in pairs:
        assert store_scan.digest(a) != store_scan.digest(b), (a, b)
        assert not store_scan.same_json(a, (0, len(a)), b, (0, len(b))), (a, b)
        assert tokens(a) != tokens(b)


def test_spans_are_read_where_they_lie_and_checked():
    text = b'xx{"a": [1, 2]}yy'
    assert store_scan.digest(text, 2, 15) == store_scan.digest(b'{"a":[1,2]}')
    assert store_scan.same_json(text, (2, 15), b'{"a":[1,2]}', (0, 11))
    with pytest.raises(IndexError):
        store_scan.digest(text, 3, 99)
    with pytest.raises(IndexError):
        store_scan.same_json(text, (5, 2), text, (0, 1))


def test_a_member_span_parses_to_the_member_the_parse_keeps():
    rng = random.Random(28)
    for _ in range(300):
        record = {"id": "c1", "call": "a.b.c", "input": random_value(rng), "label": "x\"}y"}
        if rng.random() < 0.7:
            record["output"] = random_value(rng)
        for text in layouts(record):
            span = store_scan.member(text, "output")
            if "output" not in record:
                assert span is False
                continue
            assert isinstance(span, tuple)
            assert orjson.loads(text[span[0]:span[1]]) == record["output"]
            after_input = store_scan.member(text, "input")
            assert isinstance(after_input, tuple)
            assert store_scan.member(text, "output", after_input[1]) == span  # read from past the input
    twice = b'{"output": 1, "input": 2, "output": [3, {"output": 4}]}'
    assert twice[slice(*store_scan.member(twice, "output"))] == b'[3, {"output": 4}]'  # the last, as a parse keeps
    assert store_scan.member(b'{"\\u006futput": 1}', "output") is None  # a name with escapes: unsure, parse it
    assert store_scan.member(b"[1, 2]", "output") is None  # not an object
    assert store_scan.member(b'{"a": 1}', "output") is False
    with pytest.raises(IndexError):
        store_scan.member(b"{}", "output", 5)


def test_the_rest_of_two_records_compares_from_their_inputs_when_no_output_comes_before():
    compact = b'{"id":"c1","input":{"a":[1,2]},"output":{"ok":true}}'
    indented = b'{\n  "id": "other",\n  "input": {\n    "a": [1, 2]\n  },\n  "output": {"ok": true}\n}'
    at_compact, at_indented = compact.index(b'{"a"'), indented.index(b'{\n    "a"')
    assert store_scan.same_rest(compact, at_compact, indented, at_indented, b'"output"')  # the ids before differ: not read
    assert not store_scan.same_rest(compact, at_compact, indented.replace(b"true", b"false"), at_indented, b'"output"')
    output_first = b'{"output":{"ok":false},"id":"c1","input":{"a":[1,2]},"output":{"ok":true}}'
    start = output_first.index(b'{"a"')
    assert not store_scan.same_rest(output_first, start, compact, at_compact, b'"output"')  # an output before: unsure
    assert store_scan.same_rest(output_first, start, compact, at_compact)
    with pytest.raises(IndexError):
        store_scan.same_rest(compact, len(compact) + 1, compact, 0)
