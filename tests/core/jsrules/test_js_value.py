"""Values as JavaScript holds them (wsi_inspector.core.jsrules.js_value): equal normal forms exactly when V8 cannot tell two values apart."""
import json

from hypothesis import given, settings
from hypothesis import strategies as st
from py_mini_racer import MiniRacer

from wsi_inspector.core.jsrules.json_values import json_equal
from wsi_inspector.core.jsrules.js_value import _walk, as_js

numbers = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([1.0, -0.0, 0, 2.0**53, 2**53 + 1, 1e16, 1e20, 1e21, 12345678901234567890, 1.5e-7]),
)
values = st.recursive(numbers | st.booleans() | st.none() | st.text(max_size=4),
                      lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=4),
                      max_leaves=12)


def test_the_issue_examples_are_one_javascript_value():
    assert json_equal(as_js(12345678901234567890), as_js(12345678901234567000))
    assert json_equal(as_js({"n": [-0.0, 1.0]}), as_js({"n": [0, 1]}))
    assert not json_equal(as_js(12345678901234567890), as_js(12345678901234568890))
    assert not json_equal(as_js(True), as_js(1)) and not json_equal(as_js("1"), as_js(1))


@settings(max_examples=300, deadline=None)
@given(values, values)
def test_equal_normal_forms_exactly_when_v8_prints_the_same_json(a, b):
    v8 = _V8
    printed = json.loads(v8.eval(f"JSON.stringify([{json.dumps(a)}, {json.dumps(b)}].map((v) => JSON.stringify(v)))"))
    # Key order aside (json_equal ignores it), V8 prints two values the same exactly when they are one value.
    same_in_v8 = json_equal(json.loads(printed[0]), json.loads(printed[1]))
    assert json_equal(as_js(a), as_js(b)) == same_in_v8
    assert json.loads(printed[0]) == as_js(a)  # the normal form is what parsing V8's printing gives


@settings(max_examples=300, deadline=None)
@given(values)
def test_the_fast_path_gives_what_the_walk_gives(value):
    assert repr(as_js(value)) == repr(_walk(value) if isinstance(value, (dict, list)) else as_js(value))


def test_a_deeply_nested_value_does_not_recurse():
    deep: list = [1.0]
    for _ in range(20_000):
        deep = [deep]
    inner = as_js(deep)
    for _ in range(20_000):
        inner = inner[0]
    assert inner == [1] and type(inner[0]) is int


_V8 = MiniRacer()
