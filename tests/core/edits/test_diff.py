"""The JSON diff (SPEC 4): changes by pointer, LCS on arrays, points whole, exact round trip, units."""
import copy
import random

import jsonpatch
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wsi_inspector.core.edits.diff import apply_changes, as_json_patch, delta, diff, parse_pointer, pointer
from wsi_inspector.core.jsrules.json_values import json_equal
from wsi_inspector.core.edits.units import Conversion


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


def test_units_convert_lengths_with_exact_factors_and_leave_counts_and_angles():
    assert Conversion("in", "mm").number(1, 1) == 25.4 and Conversion("ft", "mm").number(1, 1) == 304.8
    assert Conversion("ft", "in").number(3, 1) == 36 and Conversion("m", "cm").number(2.5, 1) == 250
    assert Conversion("cm", "mm").number(1.1, 1) == 11 and Conversion("m", "mm").number(2, 2) == 2_000_000
    value = {"p": [1, 2], "on": True, "name": "x", "level": 2, "rotation": 90, "bandDepth": 3.2, "area": 1.5,
             "scale": {"x": 2, "y": 2}, "at": {"x": 1, "y": 2}, "foo": 7, "widths": [1, 2, 3], "levels": [1, 2]}
    assert Conversion("cm", "mm").value(value) == {
        "p": [10, 20], "on": True, "name": "x", "level": 2, "rotation": 90, "bandDepth": 32, "area": 150,
        "scale": {"x": 2, "y": 2}, "at": {"x": 10, "y": 20}, "foo": 7, "widths": [10, 20, 30], "levels": [1, 2]}


def test_a_cm_edit_of_an_mm_input_compares_in_mm_and_carries_raw_values_in_cm():
    before = {"level": 2, "spine": [[1500, 18000], [15000, 18000], [30000, 18000]], "bandDepth": 32, "clearWidth": 2400}
    after = {"level": 2, "spine": [[150, 1800], [1500, 1860], [3000, 1800]], "bandDepth": 3.4, "clearWidth": 240}
    changes = diff(before, after, "mm", "cm")
    assert changes == [
        {"op": "replace", "path": "/spine/1", "from": [15000, 18000], "to": [15000, 18600],
         "raw": {"from": [1500, 1800], "to": [1500, 1860]}},
        {"op": "replace", "path": "/bandDepth", "from": 32, "to": 34, "delta": 2, "raw": {"from": 3.2, "to": 3.4}},
    ]
    assert json_equal(apply_changes(Conversion("mm", "cm").value(before), changes, raw=True), after)
    assert json_equal(jsonpatch.apply_patch(Conversion("mm", "cm").value(before), as_json_patch(changes, raw=True)), after)
    assert json_equal(apply_changes(before, changes), Conversion("cm", "mm").value(after))


def test_numbers_within_a_relative_1e_9_after_conversion_are_not_a_change():
    assert diff({"width": 25.4000000000001}, {"width": 1}, "mm", "in") == []
    assert diff({"width": 25.41}, {"width": 1}, "mm", "in")[0]["delta"] == -0.01
    assert diff({"width": 10}, {"width": 1}, "mm", "mm") == [
        {"op": "replace", "path": "/width", "from": 10, "to": 1, "delta": -9}]


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


def test_a_rotated_list_is_two_changes_and_they_name_elements():
    changes = diff(["a", "b", "c"], ["c", "a", "b"])
    assert changes == [{"op": "add", "path": "/0", "to": "c"}, {"op": "remove", "path": "/3", "from": "c"}]
    rooms = [{"id": f"r{i}", "at": [i * 100, 0]} for i in range(6)]
    moved = rooms[3:] + rooms[:3]
    changes = diff({"rooms": rooms}, {"rooms": moved})
    assert len(changes) == 6 and all(c["path"].startswith("/rooms/") for c in changes)
    assert_rebuilds({"rooms": rooms}, {"rooms": moved}, changes)


def test_a_replaced_element_with_several_inner_changes_is_one_replace_of_the_element():
    before = [{"id": "r1", "at": [0, 0], "size": [10, 10]}, {"id": "r2", "at": [5, 5], "size": [1, 1]}]
    after = [{"id": "r1", "at": [0, 1], "size": [10, 10]}, {"id": "r2", "at": [6, 6], "size": [2, 2]}]
    assert [(c["op"], c["path"]) for c in diff(before, after)] == [("replace", "/0/at"), ("replace", "/1")]


def edit_distance(a, b):
    """Levenshtein distance with JSON equality: replace, insert and delete each cost 1 (brute force)."""
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        previous, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (0 if json_equal(x, y) else 1))
    return row[-1]


elements = st.one_of(st.sampled_from(["a", "b", "c", "d", 1, 2, None]),
                     st.fixed_dictionaries({"k": st.sampled_from([1, 2]), "v": st.sampled_from(["x", "y"])}),
                     st.lists(st.sampled_from([1, 2, "z"]), max_size=3))


@settings(max_examples=300, deadline=None)
@given(st.lists(elements, max_size=9), st.lists(elements, max_size=9))
def test_the_changes_of_an_array_never_outnumber_its_edit_distance_and_name_elements(before, after):
    changes = diff(before, after)
    assert len(changes) <= edit_distance(before, after)
    assert_rebuilds(before, after, changes)
    if before and after:  # even a root [x, y] names its elements: only a vertex or a position is one point
        assert all(c["path"] != "" for c in changes)


@settings(max_examples=200, deadline=None)
@given(st.lists(elements, max_size=7), st.lists(elements, max_size=7))
def test_inside_an_object_too_an_array_changes_at_most_its_edit_distance(before, after):
    changes = diff({"rooms": before, "n": 1}, {"rooms": after, "n": 1})
    assert len(changes) <= edit_distance(before, after)
    assert all(c["path"].startswith("/rooms/") for c in changes) or not (before and after)


def nested(depth, leaf):
    value = leaf
    for level in range(depth):
        value = {"a": [value, level]} if level % 2 else [value]
    return value


def test_values_nested_a_thousand_deep_diff_apply_and_compare_without_recursion():
    before, after = nested(1200, 1), nested(1200, 2)
    changes = diff(before, after)
    assert len(changes) == 1 and changes[0]["to"] == 2 and changes[0]["path"].count("/") > 1000
    assert json_equal(apply_changes(before, changes), after)
    assert not json_equal(before, after) and json_equal(after, nested(1200, 2))
    assert diff(nested(900, 1), nested(900, 1)) == []
    assert len(diff([nested(600, 1), "x"], ["y", nested(600, 1)])) == 2


def test_a_reordered_short_list_of_numbers_is_element_replaces_not_one_replace_of_the_list():
    """Issue 33 point 5: `[1, 2, 3] → [3, 2, 1]` at /rooms is two element replaces (SPEC 4)."""
    changes = diff({"rooms": [1, 2, 3]}, {"rooms": [3, 2, 1]})
    assert changes == [{"op": "replace", "path": "/rooms/0", "from": 1, "to": 3, "delta": 2},
                       {"op": "replace", "path": "/rooms/2", "from": 3, "to": 1, "delta": -2}]
    assert diff([1, 2], [2, 1]) == [{"op": "add", "path": "/0", "to": 2}, {"op": "remove", "path": "/2", "from": 2}]
    # A polyline's vertex, or a position's point (`at`), stays one value: a moved point is one replace.
    assert diff({"spine": [[0, 0], [1, 2, 3]]}, {"spine": [[0, 0], [3, 2, 1]]}) == [
        {"op": "replace", "path": "/spine/1", "from": [1, 2, 3], "to": [3, 2, 1]}]
    assert diff({"at": [1, 2]}, {"at": [2, 1]}) == [{"op": "replace", "path": "/at", "from": [1, 2], "to": [2, 1]}]


def test_two_hundred_seeded_reorders_name_elements_round_trip_and_stay_within_the_edit_distance():
    rng = random.Random(33)
    for _ in range(200):
        size = rng.randint(1, 7)
        pool = [rng.randint(0, 9) for _ in range(size)] if rng.random() < 0.6 else rng.sample("abcdefg", size)
        shuffled = rng.sample(pool, len(pool))
        before, after = {"rooms": pool, "n": 1}, {"rooms": shuffled, "n": 1}
        changes = diff(before, after)
        assert all(c["path"].startswith("/rooms/") for c in changes), (pool, shuffled, changes)
        assert len(changes) <= edit_distance(pool, shuffled)
        assert_rebuilds(before, after, changes)
        assert all(c["path"] != "" for c in diff(pool, shuffled))


def test_a_short_number_list_across_units_is_compared_by_element_with_raw_values():
    changes = diff({"rooms": [1, 2, 3]}, {"rooms": [0.3, 0.2, 0.1]}, "mm", "cm")
    assert [(c["path"], c["from"], c["to"], c["raw"]) for c in changes] == [
        ("/rooms/0", 1, 3, {"from": 0.1, "to": 0.3}), ("/rooms/2", 3, 1, {"from": 0.3, "to": 0.1})]
    raw_before = Conversion("mm", "cm").value({"rooms": [1, 2, 3]})
    assert json_equal(apply_changes(raw_before, changes, raw=True), {"rooms": [0.3, 0.2, 0.1]})


class Counted:
    """An array element that counts how often it is compared."""

    compared = 0

    def __init__(self, value: int):
        self.value = value

    def __eq__(self, other: object) -> bool:
        Counted.compared += 1
        return isinstance(other, Counted) and self.value == other.value

    def __hash__(self) -> int:
        return hash(self.value)


def test_arrays_with_nothing_in_common_stop_the_exact_search_early():
    """Their least distance (1,000) squared passes the budget: the search stops at its first check instead of
    comparing its whole budget of cells (twice, with the gap search after it)."""
    from wsi_inspector.core.edits import align

    a, b = [Counted(i) for i in range(1000)], [Counted(-1 - i) for i in range(1000)]
    Counted.compared = 0
    assert align._exact(a, 0, 1000, b, 0, 1000) is None
    assert align._bounded(a, 0, 1000, b, 0, 1000) == [("replace", i, i + 1, i, i + 1) for i in range(1000)]
    assert Counted.compared < 3 * align.BOUND_CHECK_CELLS < align.CELL_BUDGET


def test_an_outline_with_every_point_moved_is_a_replace_of_each_point():
    before = spine(1000)
    after = [[x + 0.5, y - 0.25] for x, y in before]
    changes = diff({"outline": before}, {"outline": after})
    assert [c["path"] for c in changes] == [f"/outline/{i}" for i in range(1000)]
    assert all(c["op"] == "replace" for c in changes)
    assert_rebuilds({"outline": before}, {"outline": after}, changes)
