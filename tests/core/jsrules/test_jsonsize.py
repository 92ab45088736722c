"""json_bytes equals the UTF-8 length of V8's own JSON.stringify, on the spec's examples and on thousands of generated values."""
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wsi_inspector.core.jsrules.jsonsize import js_number, js_stringify, json_bytes
from tests.helpers.json_values import dense_corrections, json_values, random_value




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


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.lists(json_values, min_size=1, max_size=10))
def test_json_bytes_matches_v8_on_generated_values(v8, values):
    assert [json_bytes(v) for v in values] == v8_sizes(v8, values)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.lists(json_values, min_size=1, max_size=10))
def test_js_stringify_matches_v8_text(v8, values):
    assert [js_stringify(v) for v in values] == v8_texts(v8, values)


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


def test_values_dense_with_differing_numbers_match_v8(v8):
    value = dense_corrections(3000)
    assert json_bytes(value) == v8_sizes(v8, [value])[0]

# How fast dense corrections are counted (linear, not a rescan per match): tests/bench/bench_dense_numbers.py.
