"""Filtering and sorting manifest rows over indices (wsi_inspector.core.search.filtering), on a real loaded session."""
import orjson
import pytest

from wsi_inspector.core.search.filtering import FilterSpec, ManifestIndex, filter_hint, natural_key, shape_of
from wsi_inspector.core.session.model import Entry
from wsi_inspector.core.session.load import load_bytes


def _session(entries):
    return load_bytes(orjson.dumps({"format": "worker-session/1", "session": {"id": "t"}, "store": entries}), "t.json")


@pytest.fixture
def index():
    session = _session([
        {"id": "c1", "call": "pack.corridorRuns.corridorRuns", "input": {"spine": [[0, 0], [10, 0]], "label": "Ward North"}},
        {"id": "c2", "call": "pack.corridorRuns.score", "input": {"runs": 3}},
        {"id": "c10", "call": "pack.rooms.place", "input": [1, 2, 3], "unit": "mm"},
        {"id": "e1", "call": "pack.corridorRuns.corridorRuns", "input": {"spine": [[0, 0]], "label": 'say "hi"'}, "applied": True},
        {"id": "c11", "call": "dept.zones.zones", "input": 7},
    ])
    return ManifestIndex(session.entries)


def test_module_filter_shows_every_fn_of_the_module(index):
    assert index.matching("pack.corridorRuns", 5) == [0, 1, 3]


def test_full_call_filter_shows_just_that_call(index):
    assert index.matching("pack.corridorRuns.score", 5) == [1]


def test_group_alone_and_partial_segment_match_nothing(index):
    assert index.matching("pack", 5) == []
    assert index.matching("pack.corridor", 5) == []


def test_filter_only_looks_below_the_state_count(index):
    assert index.matching("pack.corridorRuns", 2) == [0, 1]
    assert index.matching("", 3) == [0, 1, 2]


def test_text_search_finds_text_inside_input_values_case_insensitively(index):
    assert index.containing(range(5), "ward north") == [0]
    assert index.containing(range(5), 'say "hi"') == [3]
    assert index.containing(range(5), "nowhere") == []


def test_sort_by_id_is_natural_and_bytes_numeric(index):
    assert [str(index.entries[i].id) for i in index.sorted(range(5), "id")] == ["c1", "c2", "c10", "c11", "e1"]
    by_bytes = index.sorted(range(5), "bytes", descending=True)
    sizes = [index.entries[i].input_bytes for i in by_bytes]
    assert sizes == sorted(sizes, reverse=True)


def test_rows_filters_then_sorts(index):
    spec = FilterSpec(wanted="pack.corridorRuns", text="spine", sort_column="id", descending=True)
    assert [index.entries[i].id for i in index.rows(spec, 5)] == ["e1", "c1"]


def test_unknown_column_is_refused_with_the_list(index):
    with pytest.raises(ValueError, match="the columns are id, call"):
        index.sorted([0], "colour")


def test_store_bytes_equals_the_editor_array_size(index):
    from wsi_inspector.core.jsrules.run_inputs import store_bytes

    assert index.store_bytes(3) == store_bytes(index.entries[:3])
    assert index.store_bytes(0) == 2


def test_filter_hint_explains_a_group_and_a_partial_segment():
    calls = ["pack.corridorRuns.score", "pack.rooms.place"]
    assert "is a group" in filter_hint("pack", calls)
    assert "did you mean pack.corridorRuns" in filter_hint("pack.corridor", calls)
    assert filter_hint("pack.rooms", calls) is None


def test_shape_and_natural_key():
    assert shape_of(Entry("c1", "a.b.c", {"b": 1, "2": 0, "a": 1})) == "{2, b, a}"
    assert shape_of(Entry("c2", "a.b.c", [1, 2])) == "[2]"
    assert shape_of(Entry("c3", "a.b.c", 3)) == "number"
    assert natural_key("c2") < natural_key("c10")
    # An id is user data: a run of 5,000 digits (past int()'s limit) sorts after the shorter ones, no ValueError.
    assert natural_key("c10") < natural_key("c" + "1" * 5000 + "a") < natural_key("c" + "1" * 5000 + "b")


# Texts a record may spell differently from the compact JSON of its input: escapes, exponents,
# numbers that become null, and spacing.
RAW_RECORDS = [
    b'{"id": "r1", "call": "a.b.c", "input": {"label": "Caf\\u00e9 north", "n": 1e2, "m": 1.50}}',
    b'{"id":"r2","call":"a.b.c","input":{"big":1e999,"s":"x\\/y"}}',
    '{"id": "r3", "call": "a.b.c", "input": ["Café", "ünï", true, false, null, -0, 2E-3],\n "output": "spineless"}'.encode(),
    b'{"id":"r4","call":"a.b.c","input":{"k":"spine","k":"gone"},"note":"WARD"}',
    b'{"id":"r5","call":"a.b.c","input":[1e2,1e999,"plain"]}',
]
NEEDLES = ["caf", "café", "é", "100", "1.5", "100.0", "null", "nu", "e", "x/y", "/", "north", "ünï", "true",
           "spine", "gone", "ward", "spinel", "0.002", "e-3", "-0", "CAFÉ", "afé n", "true, false", "é nor", " "]


@pytest.mark.parametrize("form", ["json", "jsonl"])
def test_the_record_text_screen_never_hides_a_match(monkeypatch, form):
    import wsi_inspector.core.search.filtering

    if form == "json":
        data = b'{"format":"worker-session/1","session":{"id":"t"},"store":[' + b",".join(RAW_RECORDS) + b"]}"
    else:
        lines = [b'{"format":"worker-session/1","session":{"id":"t"}}']
        lines += [b'{"kind":"entry",' + r.replace(b"\n", b"")[1:] for r in RAW_RECORDS]
        data = b"\n".join(lines)
    session = load_bytes(data, f"t.{form}")
    assert all(e.text is not None for e in session.entries)
    index = ManifestIndex(session.entries)
    screened = {n: index.containing(range(5), n) for n in NEEDLES}
    monkeypatch.setattr(wsi_inspector.core.search.filtering, "_screenable", lambda needle: False)
    assert screened == {n: index.containing(range(5), n) for n in NEEDLES}
    assert screened["café"] == [0, 2] and screened["gone"] == [3] and screened["spine"] == []
    assert screened["100.0"] == [0, 4] and screened["nu"] == [1, 2, 4]


# Records whose text and input differ in every way a search could trip on: escapes, non-ASCII,
# keys against values, duplicate keys, spacing, numbers JavaScript writes otherwise, other members
# (output, unknown ones) after the input, an `input` key inside the input, and a needle in the id.
TRICKY_RECORDS = [
    b'{"id":"t1","call":"a.b.c","input":{"Ward":"North Wing","n":2400.0}}',
    b'{"id":"t2","call":"a.b.c","input":{"k":"ward","k":"east"},"unit":"mm"}',
    b'{"id":"t3","call":"a.b.c","input":{"a" : "ward" ,"b":[1 , 2]}}',
    b'{"id":"t4","call":"a.b.c","input":{"x":1.50,"y":"ward"},"output":{"ward":1}}',
    b'{"id":"ward","call":"a.b.c","input":[1,2,3],"unit":"mm","applied":true}',
    b'{"id":"t6","call":"a.b.c","input":{"input":{"input":"ward"}},"seq":4}',
    b'{"id":"t7","call":"a.b.c","input":"ward, and a \\"quote\\" and a \\\\ slash","body":"b1"}',
    b'{"id":"t8","call":"a.b.c","input":{"sp\\u00e9cial":"caf\\u00e9"},"at":"2024-01-01T00:00:00Z"}',
    '{"id":"t9","call":"a.b.c","input":{"spécial":"café — ward"},"note":"ward"}'.encode(),
    b'{"id":"t10","call":"a.b.c","input":{"big":1e21,"small":1e-7,"w":"ward"}}',
    b'{"id":"t11","call":"a.b.c","input":{"z":-0.0,"y":-0,"t":true,"f":false,"n":null,"s":"Truest"}}',
    b'{"id":"t12","call":"a.b.c","input":{"w":"ward"},"extra":{"ward":"x"},"unit":"mm"}',
    b'{"id":"t13","call":"a.b.c","input":12345678901234567890123,"unit":"mm"}',
    b'{"id":"t14","call":"a.b.c","input":{"tab":"a\\tb","nl":"a\\nb"}}',
]
TRICKY_NEEDLES = ["ward", "WARD", "north wing", "east", "k", "a", "input", "quote", '"quote"', "\\", "a \\",
                  "spécial", "café", "é", "— ward", "true", "truest", "rue", "x", "1.5", "2400", "2400.0",
                  "e21", "1e-7", "null", "ul", "0", "t1", "mm", "b1", "wing", " wing", "a\tb", "a\nb", "\t",
                  "ward ", ",", ":", "}", "[1,2]", "[1 , 2]", "s\":\"", "wa"]


@pytest.mark.parametrize("batch", [1, 3, 4096])
@pytest.mark.parametrize("form", ["json", "jsonl"])
def test_the_search_of_record_texts_answers_as_the_parsed_inputs_do(monkeypatch, form, batch):
    import wsi_inspector.core.search.filtering
    from wsi_inspector.core.search.filtering import _holds, search_needle

    monkeypatch.setattr(wsi_inspector.core.search.filtering, "_BATCH", batch)
    if form == "json":
        data = b'{"format":"worker-session/1","session":{"id":"t"},"store":[' + b",".join(TRICKY_RECORDS) + b"]}"
    else:
        lines = [b'{"format":"worker-session/1","session":{"id":"t"}}']
        lines += [b'{"kind":"entry",' + r[1:] for r in TRICKY_RECORDS]
        data = b"\n".join(lines)
    session = load_bytes(data, f"t.{form}")
    assert not session.errors and len(session.entries) == len(TRICKY_RECORDS)
    session.entries.append(Entry("mem", "a.b.c", {"ward": "in memory"}))  # no record text at all
    index = ManifestIndex(session.entries)
    every = range(len(session.entries))
    for rows in (every, [13, 0, 5, 14, 2], list(every)[1::2]):
        for text in TRICKY_NEEDLES:
            expected = [i for i in rows if _holds(session.entries[i], search_needle(text))]
            assert index.containing(rows, text) == expected, (text, rows)
    # A few answers checked by hand, so the reference itself is what the search promises.
    found = {text: index.containing(every, text) for text in ("ward", "east", "input", '"quote"', "truest", "café")}
    # Not t2 (its "ward" is a duplicate key's value the parse drops), t5 (only its id), t13.
    assert found["ward"] == [0, 2, 3, 5, 6, 8, 9, 11, 14]
    assert found["east"] == [1] and found["input"] == [5]
    assert found['"quote"'] == [6] and found["truest"] == [10] and found["café"] == [7, 8]


def test_a_search_of_compact_records_parses_no_input(monkeypatch):
    """Records the editor wrote compactly are searched in their text: no input is parsed, hits or not."""
    from wsi_inspector.core.session.model import Entry as EntryType

    records = [orjson.dumps({"id": f"c{i}", "call": "a.b.c", "input": {"label": f"run {i} — ward {i % 7}", "n": [1.0, 2.5, i]},
                             "unit": "mm"}) for i in range(50)]
    data = b'{"format":"worker-session/1","session":{"id":"t"},"store":[' + b",".join(records) + b"]}"
    index = ManifestIndex(load_bytes(data, "t.json").entries)
    parsed = []
    monkeypatch.setattr(EntryType, "_record", lambda self: parsed.append(self) or orjson.loads(bytes(self._text)))
    assert index.containing(range(50), "WARD") == list(range(50))
    assert index.containing(range(50), "ward 3") == [3, 10, 17, 24, 31, 38, 45]
    assert index.containing(range(50), "run 4") == [4, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49]
    assert index.containing(range(50), "mm") == []  # the unit is not the input
    assert parsed == []


def test_an_entry_s_position_is_its_place_among_the_first_count_and_costs_16_bytes_an_entry():
    import tracemalloc

    entries = [Entry(f"c{n}", "a.b.c", {"n": n}) for n in range(20_000)]
    index = ManifestIndex(entries)
    tracemalloc.start()
    try:
        assert index.position(entries[7], len(entries)) == 7
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 40 * len(entries), peak  # a dict of id()s took some 100 bytes an entry
    assert [index.position(e, len(entries)) for e in entries[::997]] == list(range(0, 20_000, 997))
    assert index.position(entries[15_000], 15_000) is None  # not in a store of the first 15,000
    assert index.position(Entry("x", "a.b.c", 1), len(entries)) is None  # not the session's
    later = [Entry("d1", "a.b.c", 1), Entry("d2", "a.b.c", 2)]
    index.extend(later)
    assert index.position(later[1], len(index)) == 20_001 and index.position(entries[3], len(index)) == 3


@pytest.mark.parametrize("column", ["id", "call", "unit", "applied", "shape", "bytes"])
def test_sorted_rows_of_any_prefix_or_filter_answer_as_sorting_them(column):
    import random

    rng = random.Random(column)
    records = [{"id": rng.choice([f"c{n}", n]), "call": rng.choice(["a.b.c", "a.b.d", "x.y.z"]),
                "input": rng.choice([{"n": n}, [n] * rng.randrange(4), "s" * rng.randrange(9), {"k": 1, "j": 2}]),
                **({"unit": rng.choice(["mm", "m"])} if rng.random() < 0.5 else {}),
                **({"applied": True} if rng.random() < 0.2 else {})} for n in range(3000)]
    for n, record in enumerate(records):
        record["id"] = f"{record['id']}-{n}" if isinstance(record["id"], str) else n
    session = _session(records)
    index = ManifestIndex(session.entries)
    keys = index.sort_key(column)
    for count in (3000, 2500, 40, 0):
        for indices in (list(range(count)), [i for i in range(count) if i % 3], [5, 1, 2][:count]):
            for descending in (False, True):
                expected = sorted(indices, key=keys.__getitem__, reverse=descending)
                assert index.sorted(indices, column, descending) == expected, (count, descending)
    extra = [Entry("late", "a.b.c", 1)]
    index.extend(extra)
    assert index.sorted(list(range(len(index))), column) == sorted(range(len(index)), key=index.sort_key(column).__getitem__)
