"""SPEC 3, function by function, with the edge cases the editor's own tests care about."""
import pytest

from wsi_inspector.core.session.model import Entry
from wsi_inspector.core.jsrules.run_inputs import (
    MAX_KEEP_BYTES,
    InvalidKeepError,
    call_matches,
    describe_value,
    entry_bytes,
    find_unkeepable,
    js_keys,
    kept_manifest,
    make_inputs,
    manifest_entry,
    store_bytes,
    trim_store,
    validate_keep,
)
from wsi_inspector.core.jsrules.jsonsize import json_bytes


def entry(i, call="pack.corridorRuns.corridorRuns", inp=None, **kw):
    return Entry(id=i, call=call, input={"n": i} if inp is None else inp, **kw)


def test_describe_value_gives_keys_in_javascript_order_then_bytes():
    value = {"b": 1, "10": 2, "2": 3, "01": 4, "-1": 5, "4294967295": 6, "4294967294": 7}
    described = describe_value(value)
    assert list(described) == ["keys", "bytes"]
    assert described["keys"] == ["2", "10", "4294967294", "b", "01", "-1", "4294967295"]
    assert described["bytes"] == json_bytes(value)


def test_describe_value_of_array_and_scalars():
    assert describe_value([1, 2, 3]) == {"array": 3, "bytes": 7}
    assert describe_value("héllo") == {"bytes": 8}
    assert describe_value(None) == {"bytes": 4}
    assert describe_value(lambda: 1) == {"bytes": 0}


def test_manifest_entry_key_order_and_optional_fields():
    plain = manifest_entry(entry("c1", inp=[1, 2]))
    assert list(plain) == ["id", "call", "array", "bytes"]
    edited = manifest_entry(entry(7, inp={"a": 1}, unit="mm", applied=True))
    assert list(edited) == ["id", "call", "unit", "applied", "keys", "bytes"]
    assert edited["id"] == 7 and edited["applied"] is True
    assert "applied" not in manifest_entry(entry("c2", applied=False))


@pytest.mark.parametrize(
    ("call", "wanted", "expected"),
    [
        ("pack.corridorRuns.corridorRuns", "pack.corridorRuns.corridorRuns", True),
        ("pack.corridorRuns.score", "pack.corridorRuns", True),
        ("pack.corridorRuns.score", "pack", False),
        ("pack.corridorRuns.score", "pack.corridor", False),
        ("pack.corridorRunsX.score", "pack.corridorRuns", False),
        ("pack.corridorRuns.score", "pack.corridorRuns.sc", False),
        ("pack.corridorRuns.score", "", False),
    ],
)
def test_call_matches_only_exact_calls_and_whole_modules(call, wanted, expected):
    assert call_matches(call, wanted) is expected


def test_inputs_last_returns_the_stored_object_of_the_newest_match():
    store = [entry("c1"), entry("c2", call="pack.rooms.place"), entry("c3"), entry("e1", applied=True)]
    inputs = make_inputs(store)
    assert inputs.last("pack.corridorRuns") is store[3].input
    assert inputs.last("pack.rooms.place") is store[1].input
    assert inputs.last("pack.rooms") is store[1].input
    assert inputs.last("pack") is None
    assert inputs.at("c1") is store[0].input
    assert inputs.at("nope") is None
    assert [e.id for e in inputs.list("pack.corridorRuns")] == ["c1", "c3", "e1"]
    assert [m["id"] for m in inputs.manifest()] == ["c1", "c2", "c3", "e1"]


def test_inputs_at_compares_ids_as_strings():
    store = [entry(5), entry("6")]
    inputs = make_inputs(store)
    assert inputs.at("5") is store[0].input
    assert inputs.at(6) is store[1].input


def test_entry_bytes_counts_the_editor_shape_only():
    e = entry("c1", inp={"a": [1.5, "x"]}, unit="mm", applied=True, body="b1", output={"big": "y" * 100}, seq=4)
    assert entry_bytes(e) == json_bytes({"id": "c1", "call": e.call, "input": e.input, "unit": "mm", "applied": True})


def sizes_of(store):
    return [entry_bytes(e) for e in store]


def test_trim_store_keeps_the_longest_suffix_that_fits():
    store = [entry(f"c{i}") for i in range(5)]
    total = store_bytes(store)
    tail, fell = trim_store(store, total)
    assert fell == 0 and tail == store
    tail, fell = trim_store(store, total - 1)
    assert fell == 1 and tail == store[1:]
    one = sizes_of(store)[-1]
    tail, fell = trim_store(store, 2 + one)
    assert fell == 4 and tail == store[4:]
    tail, fell = trim_store(store, 2 + one - 1)
    assert fell == 5 and tail == []


@pytest.mark.parametrize("cap", [0, 1, 2])
def test_trim_store_under_tiny_caps_empties_the_tail(cap):
    assert trim_store([entry("c1")], cap) == ([], 1)


def test_trim_store_empty_store_and_newest_over_cap():
    assert trim_store([], 0) == ([], 0)
    store = [entry("c1"), entry("c2", inp={"big": "x" * 500})]
    assert trim_store(store, 300) == ([], 2)


@pytest.mark.parametrize("bad", [-1, 1.5, "10", True, None])
def test_trim_store_refuses_a_cap_that_is_not_a_whole_number(bad):
    with pytest.raises(ValueError):
        trim_store([], bad)


def test_find_unkeepable_reports_handles_and_functions_depth_first():
    value = {"a": {"__h": "h1"}, "b": [1, {"__h": "h2", "inner": {"__h": "no"}}, print], "c": {"d": len}, "e": {"__h": 3}}
    assert find_unkeepable(value) == ["a", "b.1", "b.2", "c.d"]
    assert find_unkeepable(value, "keep") == ["keep.a", "keep.b.1", "keep.b.2", "keep.c.d"]
    assert find_unkeepable({"__h": "root"}) == [""]
    assert find_unkeepable({"__h": "root"}, "x") == ["x"]
    assert find_unkeepable({"plain": [1, "2", None]}) == []


def test_find_unkeepable_follows_javascript_key_order():
    assert find_unkeepable({"b": print, "1": print}) == ["1", "b"]


def test_validate_keep_returns_requests_in_key_order():
    requests = validate_keep({"spine": [[0, 0], [1, 1]], "departmentId": "dept-icu"})
    assert requests == [
        {"name": "spine", "value": [[0, 0], [1, 1]], "bytes": 13},
        {"name": "departmentId", "value": "dept-icu", "bytes": 10},
    ]


@pytest.mark.parametrize(
    ("keep", "words"),
    [
        ({"ward": {"__h": "h1"}}, ["keep.ward", "handle", "entity id", "points"]),
        ({"rooms": [1, {"__h": "h1"}]}, ["keep.rooms.1", "handle"]),
        ({"score": print}, ["keep.score", "function", "data it computes"]),
        ({"2nd": 1}, ["2nd", "identifier"]),
        ({"a-b": 1}, ["a-b", "identifier"]),
        ({"big": "x" * MAX_KEEP_BYTES}, ["keep.big", "65,538 bytes", "65,536", "id or a smaller summary"]),
        ([1, 2], ["plain object"]),
        ("spine", ["plain object"]),
    ],
)
def test_validate_keep_messages_say_what_to_keep_instead(keep, words):
    with pytest.raises(InvalidKeepError) as raised:
        validate_keep(keep)
    for word in words:
        assert word in str(raised.value)


def test_validate_keep_names_the_first_offender_in_key_order():
    with pytest.raises(InvalidKeepError) as raised:
        validate_keep({"b": print, "1": {"__h": "x"}})
    assert raised.value.name == "1"


def test_validate_keep_accepts_a_value_exactly_at_the_cap():
    value = "x" * (100 - 2)
    assert validate_keep({"v": value}, max_bytes=100)[0]["bytes"] == 100
    with pytest.raises(InvalidKeepError):
        validate_keep({"v": value + "x"}, max_bytes=100)


def test_kept_manifest_sorts_by_utf16_code_units():
    kept = {"b": 1, "B": [1], "\U0001f600": 2, "\uffff": 3, "a": {"x": 1}}
    names = [k["name"] for k in kept_manifest(kept)]
    # U+1F600 is the surrogate pair D83D DE00, which sorts before U+FFFF in UTF-16.
    assert names == ["B", "a", "b", "\U0001f600", "\uffff"]
    assert kept_manifest({"a": {"x": 1}}) == [{"name": "a", "keys": ["x"], "bytes": 7}]


def test_js_keys_leaves_plain_keys_in_order():
    assert js_keys({"z": 1, "a": 2}) == ["z", "a"]
