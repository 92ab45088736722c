"""The trim preview agrees exactly with trim_store, and with JSON.stringify sizes, on generated stores."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wsi_inspector.core.jsrules.jsonsize import json_bytes
from wsi_inspector.core.session.model import Entry
from wsi_inspector.core.edits.units import UNITS
from wsi_inspector.core.jsrules.run_inputs import make_inputs, trim_store
from wsi_inspector.core.session.load import load
from wsi_inspector.core.trim.preview import StoreIndex, check_cap
from tests.conftest import DEMO

CALLS = ["pack.corridorRuns.corridorRuns", "pack.corridorRuns.score", "pack.rooms.place", "dept.zones.zones", "a.b.c"]
JSON_SCALARS = (
    st.none() | st.booleans() | st.integers(-(2**60), 2**60)
    | st.floats(allow_nan=False, allow_infinity=False) | st.sampled_from([1.0, -0.0, 1e21, 1e-7, 123e-20])
    | st.text(max_size=12)
)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=12,
)


@st.composite
def stores(draw, max_size=14):
    count = draw(st.integers(0, max_size))
    store = []
    for index in range(count):
        entry_id = draw(st.one_of(st.just(f"c{index}"), st.integers(0, 10**6), st.text(max_size=6)))
        store.append(Entry(
            id=entry_id, call=draw(st.sampled_from(CALLS)), input=draw(JSON_VALUES),
            unit=draw(st.none() | st.sampled_from(UNITS)), applied=draw(st.booleans()),
        ))
    return store


def editor_array_bytes(entries):
    """The oracle: the tail's size as JavaScript would print the injected array."""
    return json_bytes([e.editor_shape() for e in entries])


def boundary_caps(store):
    """Every suffix size and its neighbours, plus the degenerate caps 0, 1 and 2."""
    caps = {0, 1, 2, 3}
    for start in range(len(store)):
        size = editor_array_bytes(store[start:])
        caps.update({size - 1, size, size + 1})
    return sorted(c for c in caps if c >= 0)


@settings(max_examples=100, deadline=None)
@given(stores())
def test_fell_tail_and_bytes_agree_with_trim_store_at_every_boundary_cap(store):
    preview = StoreIndex(store).preview()
    for cap in boundary_caps(store):
        tail, fell = trim_store(store, cap)
        assert preview.fell_at(cap) == fell
        assert [e.id for e in preview.tail(cap)] == [e.id for e in tail]
        assert preview.tail_bytes(cap) == editor_array_bytes(tail)


@settings(max_examples=100, deadline=None)
@given(stores(), st.integers(0, 5000))
def test_the_tail_is_the_longest_suffix_that_fits_as_json_stringify_prints_it(store, cap):
    preview = StoreIndex(store).preview()
    fell = preview.fell_at(cap)
    tail = store[fell:]
    assert not tail or editor_array_bytes(tail) <= cap
    if fell > 0:
        assert editor_array_bytes(store[fell - 1:]) > cap  # one more entry would not fit


@settings(max_examples=100, deadline=None)
@given(stores())
def test_kept_from_cap_is_the_smallest_cap_that_keeps_each_entry(store):
    preview = StoreIndex(store).preview()
    for i in range(len(store)):
        needed = preview.kept_from_cap(i)
        assert needed == editor_array_bytes(store[i:])
        assert preview.fell_at(needed) <= i
        assert preview.fell_at(needed - 1) > i


@settings(max_examples=100, deadline=None)
@given(stores(), st.data())
def test_a_prefix_preview_agrees_with_trim_store_over_that_prefix(store, data):
    index = StoreIndex(store)
    count = data.draw(st.integers(0, len(store)))
    preview = index.preview_of(store[:count])
    assert preview.index is index and preview.count == count
    for cap in boundary_caps(store[:count]):
        tail, fell = trim_store(store[:count], cap)
        assert preview.fell_at(cap) == fell
        assert preview.tail_bytes(cap) == editor_array_bytes(tail)


@settings(max_examples=100, deadline=None)
@given(stores(), st.integers(0, 3000))
def test_fallen_edits_and_changed_last_agree_with_make_inputs_over_the_tail(store, cap):
    preview = StoreIndex(store).preview()
    tail, fell = trim_store(store, cap)
    fallen = [e for e in store[:fell] if e.applied]
    assert preview.edits_fallen(cap) == len(fallen)
    listed = preview.fallen_edits(cap)
    assert [f.entry.id for f in listed] == [e.id for e in reversed(fallen)]
    assert [f.kept_from for f in listed] == [preview.kept_from_cap(store.index(e)) for e in reversed(fallen)]
    whole, trimmed = make_inputs(store), make_inputs(tail)
    modules = {e.module for e in store}
    expected = {m: whole.last_entry(m) for m in modules if whole.last_entry(m) is not trimmed.last_entry(m)}
    changes = preview.last_changes(cap)
    assert {c.module: c.entry for c in changes} == expected
    for change in changes:
        assert trimmed.last_entry(change.module) is None  # a suffix: what replaces it is nothing
        assert change.kept_from == preview.kept_from_cap(store.index(change.entry))


@settings(max_examples=100, deadline=None)
@given(stores(), st.integers(0, 3000), st.integers(0, 3000))
def test_compare_lists_what_falls_at_the_lower_cap_but_not_the_higher(store, cap_a, cap_b):
    preview = StoreIndex(store).preview()
    between = preview.compare(cap_a, cap_b)
    low, high = sorted((cap_a, cap_b))
    kept_high = {id(e) for e in trim_store(store, high)[0]}
    kept_low = {id(e) for e in trim_store(store, low)[0]}
    assert [id(e) for e in between.entries] == [id(e) for e in store if id(e) in kept_high - kept_low]
    assert between.count == len(between.entries)
    assert between.edits == sum(e.applied for e in between.entries)
    assert preview.compare(cap_b, cap_a) == between


def test_a_store_that_is_not_a_prefix_of_the_index_gets_its_own_index():
    store = [Entry(f"c{i}", "a.b.c", {"n": i}) for i in range(5)]
    other = list(reversed(store))
    preview = StoreIndex(store).preview_of(other)
    assert [e.id for e in preview.tail(10_000)] == [e.id for e in other]
    assert preview.fell_at(60) == trim_store(other, 60)[1]


def test_an_empty_tail_is_always_allowed_even_below_its_own_two_bytes():
    store = [Entry("big", "a.b.c", "x" * 100)]
    preview = StoreIndex(store).preview()
    assert [preview.fell_at(c) for c in (0, 1, 2)] == [1, 1, 1]
    assert preview.tail_bytes(0) == 2
    assert StoreIndex([]).preview().tail_bytes(0) == 2


@pytest.mark.parametrize("bad", [-1, 1.5, True, "64"])
def test_a_cap_must_be_a_whole_number_of_bytes_like_trim_store_says(bad):
    with pytest.raises(ValueError, match="whole number of bytes"):
        check_cap(bad)
    with pytest.raises(ValueError):
        StoreIndex([]).preview().fell_at(bad)


@pytest.fixture(scope="module")
def demo_preview():
    session = load(DEMO)
    return StoreIndex(session.entries).preview_of(session.state_at(None).store)


def test_demo_at_its_own_store_cap_drops_the_three_oldest_calls_and_no_edit(demo_preview):
    summary = demo_preview.summary(5713)
    assert summary.words() == "at 5,713 B (≈5.6 KiB) 3 of 36 entries fall, none of them the person's edits"
    assert summary.warnings() == []
    assert summary.bytes == 5713


def test_demo_at_4_kib_keeps_every_edit_and_every_last(demo_preview):
    summary = demo_preview.summary(4096)
    assert summary.words() == "at 4 KiB 12 of 36 entries fall, none of them the person's edits"
    assert summary.warnings() == []
    assert demo_preview.entry(summary.fell).id == "c13"


def test_demo_at_2_kib_warns_of_the_three_edits_and_dept_zones_last(demo_preview):
    summary = demo_preview.summary(2048)
    assert summary.words() == (
        "at 2 KiB 23 of 36 entries fall, 3 of them the person's edits; "
        'inputs.last("dept.zones") would return nothing instead of c13'
    )
    warnings = summary.warnings()
    assert [w.split(" (")[0] for w in warnings[:3]] == ["canvas edit e3", "canvas edit e2", "canvas edit e1"]
    assert "a cap of at least 2,861 B (≈2.8 KiB) keeps it" in warnings[2]
    assert warnings[3].startswith('c13 falls, and it is what inputs.last("dept.zones") returns')
    assert len(warnings) == 4


def test_demo_compare_2_kib_and_4_kib_names_the_entries_between(demo_preview):
    between = demo_preview.compare(4096, 2048)
    assert [e.id for e in between.entries] == ["c13", "c14", "c15", "c16", "c17", "c18", "c19", "e1", "e2", "e3", "c20"]
    assert between.words() == (
        "between 2 KiB and 4 KiB 11 entries (c13 … c20) fall at 2 KiB but are kept at 4 KiB, 3 of them the "
        'person\'s edits; at the lower cap inputs.last("dept.zones") would return nothing instead of c13'
    )


def test_many_fallen_edits_are_listed_newest_first_and_the_rest_counted():
    store = [Entry(f"e{i}", "a.b.c", i, applied=True) for i in range(30)] + [Entry("last", "x.y.z", "k" * 50)]
    summary = StoreIndex(store).preview().summary(100)
    assert summary.edits_fallen == 30
    assert [f.entry.id for f in summary.fallen_edits][:2] == ["e29", "e28"]
    assert summary.warnings()[20] == "10 older canvas edits fall as well"
