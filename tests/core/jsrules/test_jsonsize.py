"""json_bytes equals the UTF-8 length of V8's own JSON.stringify, on the spec's examples and on thousands of generated values."""
import json
import random
import struct

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from py_mini_racer import MiniRacer

from wsi_inspector.core.jsrules.jsonsize import js_number, js_stringify, json_bytes

UTF8_LENGTH_JS = """
function utf8Length(s) {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) { n += 4; i++; }
    else n += 3;
  }
  return n;
}
function sizes(texts) { return JSON.stringify(texts.map((t) => utf8Length(JSON.stringify(JSON.parse(t))))); }
function texts(texts) { return JSON.stringify(texts.map((t) => JSON.stringify(JSON.parse(t)))); }
"""


@pytest.fixture(scope="module")
def v8():
    ctx = MiniRacer()
    ctx.eval(UTF8_LENGTH_JS)
    return ctx


def as_json_text(value):
    # ensure_ascii writes lone surrogates as \udxxx escapes, which JSON.parse reads as the same code unit.
    return json.dumps(value, ensure_ascii=True, allow_nan=False)


def v8_sizes(v8, values):
    return json.loads(v8.eval(f"sizes({json.dumps([as_json_text(v) for v in values])})"))


def v8_texts(v8, values):
    return json.loads(v8.eval(f"texts({json.dumps([as_json_text(v) for v in values])})"))


@pytest.mark.parametrize(
    ("value", "printed"),
    [(1.0, "1"), (1e21, "1e+21"), (1e-7, "1e-7"), (123e-20, "1.23e-18"), (-0.0, "0"),
     (12345678901234567890, "12345678901234567000"), (1e16, "10000000000000000"), (1e-6, "0.000001"),
     (0.1, "0.1"), (5e-324, "5e-324"), (-1.5e300, "-1.5e+300"), (2**53, "9007199254740992")],
)
def test_numbers_print_as_javascript_prints_them(value, printed):
    assert js_number(value) == printed
    assert json_bytes(value) == len(printed)


def test_strings_escape_only_quote_backslash_and_controls():
    assert js_stringify('"\\\b\f\n\r\t\x00\x1f\x7f') == '"\\"\\\\\\b\\f\\n\\r\\t\\u0000\\u001f\x7f"'
    assert json_bytes("\u2028\u2029") == 2 + 6
    assert json_bytes("é") == 4
    assert json_bytes("\ud800") == 8  # a lone surrogate prints as \ud800
    assert json_bytes("\U0001f600") == 6


def test_number_like_text_inside_strings_is_not_corrected():
    value = {"note": "1.0, 2.0] 1e+16 -0.0}", "n": 1.0, "esc": 'a\\"1.0,'}
    assert json_bytes(value) == len(js_stringify(value).encode())


def test_negative_zero_prints_0_wherever_it_stands(v8):
    values = [-0.0, [-0.0], [1, -0.0, 2], {"a": -0.0, "b": [-0.0, -10.0, -0.5]}, [-0.0, 0.0, -100.0]]
    assert [json_bytes(v) for v in values] == v8_sizes(v8, values)
    assert js_stringify(values[3]) == '{"a":0,"b":[0,-10,-0.5]}'


def test_number_like_keys_and_strings_with_escapes_keep_their_length(v8):
    values = [["1.0,", 'x"1.0]', "tab\t1e-6,", "-0.0}"], {"e+16": 1e16, "a\\b": "-0.0}", "2.0]": 2.0},
              {"q\"": [3.0, "e-6,", 1.5e-6], "z": "\u00001e+17,"}]
    assert [json_bytes(v) for v in values] == v8_sizes(v8, values)


def test_whole_floats_are_counted_outside_strings_only(v8):
    # No escapes, no exponent, no -0.0: the quick count of `N.0` tokens, which pairs quotes up.
    values = [[1.0, "1.0,", 2.0, "x.0]", "3.0}", 4.0], {"a.0": 5.0, "b": ["6.0", 7.0, "8.0"], "c": "9.0"},
              {"k.0,": "v.0}", "w": [10.0, 100.5, 0.0]}, ["a", 1.0, "b.0,c", 2.0, "d"], "11.0", 12.0,
              [float(i) for i in range(2000)] + ["0.0,"] * 3 + [1.0]]
    assert [json_bytes(v) for v in values] == v8_sizes(v8, values)


def test_nesting_deeper_than_orjson_writes_is_still_measured(v8):
    value = [10**30, 1.0]
    for _ in range(600):  # orjson writes at most 254 levels; Python's own json module stops near 1,000
        value = [value, {"k": -0.0}]
    assert json_bytes(value) == v8_sizes(v8, [value])[0]
    assert json_bytes(value) == len(js_stringify(value))


def test_functions_are_undefined():
    assert json_bytes(print) == 0
    assert js_stringify([print, 1]) == "[null,1]"
    assert js_stringify({"f": print, "g": 2}) == '{"g":2}'


def test_integer_like_keys_come_first_in_javascript_order(v8):
    value = {"b": 1, "10": 2, "2": 3, "01": 4}
    assert js_stringify(value) == v8_texts(v8, [value])[0] == '{"2":3,"10":2,"b":1,"01":4}'


def test_spec_examples_against_v8(v8):
    values = [1.0, 1e21, 1e-7, 123e-20, -0.0, 12345678901234567890, {"a": [1.5, "x", None, True]}, "\ud83d", 10**400]
    assert [json_bytes(v) for v in values] == v8_sizes(v8, values)


interesting_floats = st.sampled_from(
    [0.0, -0.0, 1.0, -1.0, 1e15, 1e16, 1e17, 1e20, 1e21, 1e22, 1e-5, 1e-6, 1.5e-6, 9.99e-7, 1e-7,
     5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, 0.1, 123e-20, 2.0**53, 2.0**53 + 2]
)
numbers = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False), interesting_floats,
    st.integers(min_value=-(2**70), max_value=2**70), st.integers(min_value=-1000, max_value=1000),
)
texts_ = st.text(alphabet=st.characters(blacklist_categories=()), max_size=12)
keys = st.one_of(texts_, st.integers(min_value=0, max_value=2**33).map(str), st.sampled_from(["1.0,", "e+16", "-0.0"]))
json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), numbers, texts_),
    lambda children: st.one_of(st.lists(children, max_size=5), st.dictionaries(keys, children, max_size=4)),
    max_leaves=10,
)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.lists(json_values, min_size=1, max_size=10))
def test_json_bytes_matches_v8_on_generated_values(v8, values):
    assert [json_bytes(v) for v in values] == v8_sizes(v8, values)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.lists(json_values, min_size=1, max_size=10))
def test_js_stringify_matches_v8_text(v8, values):
    assert [js_stringify(v) for v in values] == v8_texts(v8, values)


def random_value(rng, depth=0):
    """A random JSON value biased to what differs between printers: odd floats, big ints, escapes."""
    kind = rng.random()
    if depth < 3 and kind < 0.15:
        return [random_value(rng, depth + 1) for _ in range(rng.randint(0, 5))]
    if depth < 3 and kind < 0.3:
        return {random_key(rng): random_value(rng, depth + 1) for _ in range(rng.randint(0, 5))}
    if kind < 0.45:
        x = struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0]  # any bit pattern
        return x if x - x == 0 else 0.5  # but not NaN or infinity, which JSON text cannot hold
    if kind < 0.6:
        return rng.choice([1, -1]) * rng.random() * 10.0 ** rng.randint(-12, 25)
    if kind < 0.7:
        return float(rng.randint(-10**6, 10**6))
    if kind < 0.8:
        return rng.randint(-(2**80), 2**80) >> rng.randint(0, 80)
    if kind < 0.95:
        return "".join(chr(rng.choice([rng.randint(0, 0x7f), rng.randint(0, 0x3000), rng.randint(0xd800, 0xdfff),
                                       rng.randint(0x10000, 0x10ffff)])) for _ in range(rng.randint(0, 8)))
    return rng.choice([None, True, False])


def random_key(rng):
    return rng.choice([str(rng.randint(0, 2**33)), "k" + str(rng.randint(0, 99)), "1.0,", "e+16", "\u00e9\"x"])


def test_json_bytes_matches_v8_on_ten_thousand_random_values(v8):
    rng = random.Random(20261202)
    values = [random_value(rng) for _ in range(10_000)]
    mismatches = [(v, mine, theirs) for v, mine, theirs in zip(values, map(json_bytes, values), v8_sizes(v8, values)) if mine != theirs]
    assert mismatches == []


def test_json_bytes_matches_v8_on_the_benchmarked_float_heavy_inputs(v8):
    from tests.bench.bench_jsonsize import store_input

    rng = random.Random(7)
    values = [store_input(rng, index) for index in range(300)]
    values += [[[float(i), -float(i)], [i + 0.5, 1e-6 * i]] for i in range(100)]
    assert [json_bytes(v) for v in values] == v8_sizes(v8, values)


def dense_corrections(count):
    """A value where nearly every number prints differently in orjson, beside strings that mimic them."""
    return {"whole": [float(i) for i in range(count)], "tiny": [1.5e-6 * (i + 1) for i in range(count // 3)],
            "huge": [-1e17 - i * 1e3 for i in range(count // 30)], "zeros": [-0.0] * (count // 10),
            "mimics\\": [f"{i}.0,\\" for i in range(count // 10)] + ["1e-6,", "-0.0]", "2e+17}"]}


def test_values_dense_with_differing_numbers_match_v8(v8):
    value = dense_corrections(3000)
    assert json_bytes(value) == v8_sizes(v8, [value])[0]

# How fast dense corrections are counted (linear, not a rescan per match): tests/bench/bench_dense_numbers.py.
