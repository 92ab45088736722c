"""The JSON diff (SPEC 4): changes by pointer, LCS on arrays, points whole, exact round trip, units."""
import copy
import random

import jsonpatch
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.diff import (
    apply_changes,
    as_json_patch,
    convert_number,
    convert_value,
    delta,
    diff,
    json_equal,
    parse_pointer,
    pointer,
    with_conversion,
)


def spine(n, seed=7):
    rng = random.Random(seed)
    return [[round(rng.uniform(0, 60000), 3), round(rng.uniform(0, 36000), 3)] for _ in range(n)]


def assert_rebuilds(before, after, changes):
    """Applied in order, by our applier and by the jsonpatch library, the changes give `after` exactly."""
    frozen = copy.deepcopy(before)
    assert json_equal(apply_changes(before, changes), after)
    assert json_equal(jsonpatch.apply_patch(before, as_json_patch(changes)), after)
    assert json_equal(before, frozen), "applying must not modify the model's input"


def test_fifty_thousand_point_spine_with_one_insert_three_moves_and_one_scalar_is_exactly_five_changes():
    points = spine(50_000)
    before = {"level": 2, "spine": points, "bandDepth": 32}
    moved = [list(p) for p in points]
    moved.insert(12, [1.5, 2.5])
    for i in (100, 20_000, 40_000):
        moved[i] = [moved[i][0] + 600, moved[i][1]]
    after = {"level": 2, "spine": moved, "bandDepth": 34}
    changes = diff(before, after)
    assert [(c["op"], c["path"]) for c in changes] == [
        ("add", "/spine/12"), ("replace", "/spine/100"), ("replace", "/spine/20000"),
        ("replace", "/spine/40000"), ("replace", "/bandDepth"),
    ]
    assert changes[0]["to"] == [1.5, 2.5]
    assert changes[1]["from"] == points[99] and changes[1]["to"] == [points[99][0] + 600, points[99][1]]
    assert changes[4] == {"op": "replace", "path": "/bandDepth", "from": 32, "to": 34, "delta": 2}
    assert_rebuilds(before, after, changes)


def test_one_point_inserted_is_one_add_not_a_cascade():
    before = spine(1000)
    after = before[:500] + [[1.0, 1.0]] + before[500:]
    assert diff(before, after) == [{"op": "add", "path": "/500", "to": [1.0, 1.0]}]


def test_a_moved_point_is_one_replace_of_the_whole_point_in_either_shape():
    assert diff([[0, 0], [5, 5], [9, 9]], [[0, 0], [5, 6], [9, 9]]) == [
        {"op": "replace", "path": "/1", "from": [5, 5], "to": [5, 6]}]
    assert diff({"at": {"x": 1, "y": 2}}, {"at": {"x": 1, "y": 3}}) == [
        {"op": "replace", "path": "/at", "from": {"x": 1, "y": 2}, "to": {"x": 1, "y": 3}}]
    assert diff([1, 2, 3, 4], [1, 2, 3, 5]) == [{"op": "replace", "path": "/3", "from": 4, "to": 5, "delta": 1}]


def test_keys_added_and_removed_and_nested_paths_are_pointers_with_escapes():
    before = {"a/b": 1, "t~": {"keep": True, "drop": None}, "": 0}
    after = {"a/b": 2, "t~": {"keep": True, "new": [1]}, "": 0}
    assert diff(before, after) == [
        {"op": "replace", "path": "/a~1b", "from": 1, "to": 2, "delta": 1},
        {"op": "remove", "path": "/t~0/drop", "from": None},
        {"op": "add", "path": "/t~0/new", "to": [1]},
    ]
    assert pointer(["a/b", "t~", 3]) == "/a~1b/t~0/3"
    assert parse_pointer("/a~1b/t~0/3") == ["a/b", "t~", "3"]
    assert parse_pointer("/") == [""]


def test_a_type_change_and_the_root_are_one_replace():
    assert diff({"a": [1]}, {"a": {"0": 1}}) == [{"op": "replace", "path": "/a", "from": [1], "to": {"0": 1}}]
    assert diff([1], "x") == [{"op": "replace", "path": "", "from": [1], "to": "x"}]
    assert diff(True, 1) == [{"op": "replace", "path": "", "from": True, "to": 1}]
    assert_rebuilds([1], "x", diff([1], "x"))


def test_numbers_compare_by_value_as_javascript_and_delta_has_no_float_noise():
    assert diff({"a": 1}, {"a": 1.0}) == []
    assert diff([0], [False]) == [{"op": "replace", "path": "/0", "from": 0, "to": False}]
    assert delta(0.1, 0.3) == 0.2
    assert delta(32, 34) == 2 and isinstance(delta(32, 34), int)
    assert delta(1.5, 2) == 0.5


def test_units_convert_with_exact_factors():
    assert convert_number(1, "in", "mm") == 25.4
    assert convert_number(1, "ft", "mm") == 304.8
    assert convert_number(3, "ft", "in") == 36
    assert convert_number(2.5, "m", "cm") == 250
    assert convert_value({"p": [1, 2], "on": True, "name": "x"}, "cm", "mm") == {"p": [10, 20], "on": True, "name": "x"}


def test_a_unit_difference_adds_the_converted_value_and_delta_beside_the_raw_ones():
    changes = with_conversion(diff({"depth": 32, "at": [0, 0]}, {"depth": 1.5, "at": [1, 2]}), "in", "mm")
    assert changes[0]["converted"] == {"unit": "mm", "to": 38.1, "delta": 6.1}
    assert changes[0]["to"] == 1.5 and changes[0]["delta"] == -30.5
    assert changes[1]["converted"] == {"unit": "mm", "to": [25.4, 50.8]}


def test_a_change_that_does_not_apply_names_itself():
    with pytest.raises(ValueError, match=r"change 0 \(replace '/b'\)"):
        apply_changes({"a": 1}, [{"op": "replace", "path": "/b", "to": 2}])
    with pytest.raises(ValueError, match="past the end"):
        apply_changes([1], [{"op": "add", "path": "/3", "to": 2}])


# Generated pairs: JSON values, plus edits of them (points moved, inserted, keys added/removed, types changed).
numbers = st.one_of(st.integers(-10**6, 10**6), st.floats(allow_nan=False, allow_infinity=False, width=64))
scalars = st.one_of(st.none(), st.booleans(), numbers, st.text(max_size=4))
points = st.one_of(
    st.lists(numbers, min_size=2, max_size=3),
    st.fixed_dictionaries({"x": numbers, "y": numbers}),
)
keys = st.text(alphabet="ab/~0", max_size=3)
values = st.recursive(
    st.one_of(scalars, points),
    lambda inner: st.one_of(st.lists(inner, max_size=6), st.dictionaries(keys, inner, max_size=5)),
    max_leaves=30,
)


@st.composite
def edited(draw, value):
    """A plausible edit of `value`: recursively some parts kept, some changed, some inserted or dropped."""
    if isinstance(value, list) and draw(st.booleans()):
        out = []
        for item in value:
            action = draw(st.sampled_from(["keep", "keep", "edit", "drop", "insert"]))
            if action == "insert":
                out.append(draw(values))
            if action != "drop":
                out.append(draw(edited(item)) if action == "edit" else item)
        return out
    if isinstance(value, dict) and draw(st.booleans()):
        out = {}
        for key, item in value.items():
            action = draw(st.sampled_from(["keep", "edit", "drop"]))
            if action != "drop":
                out[key] = draw(edited(item)) if action == "edit" else item
        for key in draw(st.lists(keys, max_size=2)):
            out[key] = draw(values)
        return out
    return draw(st.one_of(st.just(value), values))


pairs = values.flatmap(lambda v: st.tuples(st.just(v), edited(v)))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pairs)
def test_changes_applied_as_json_patch_rebuild_the_edit_exactly(pair):
    before, after = pair
    changes = diff(before, after)
    assert_rebuilds(before, after, changes)
    for change in changes:
        assert set(change) <= {"op", "path", "from", "to", "delta"}
        assert change["op"] in ("replace", "add", "remove")


@settings(max_examples=200, deadline=None)
@given(values, values)
def test_unrelated_pairs_rebuild_too_and_equal_values_have_no_changes(before, after):
    assert_rebuilds(before, after, diff(before, after))
    assert diff(before, copy.deepcopy(before)) == []


def test_repeated_elements_fall_back_to_sequence_matcher_and_still_give_one_add():
    before = [[0, 0]] * 300 + [[1, 1]] * 300
    after = [[0, 0]] * 150 + [[5, 5]] + [[0, 0]] * 150 + [[1, 1]] * 300
    changes = diff(before, after)
    assert changes == [{"op": "add", "path": "/150", "to": [5, 5]}]
    assert_rebuilds(before, after, changes)
