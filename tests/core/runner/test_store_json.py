"""The store a body is handed is the editor's shape of each entry, spliced from the file's own text."""
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wsi_inspector.core.session.model import Entry
from wsi_inspector.core.runner.envelope import store_texts
from wsi_inspector.core.session.load import load, load_bytes
from tests.conftest import DEMO


def test_the_demo_store_reads_back_as_the_editor_shapes_it():
    store = load(DEMO).entries
    assert all(e.text is not None for e in store)
    assert json.loads(store_texts(store)[0]) == [e.editor_shape() for e in store]


def test_ids_units_edits_and_odd_spellings_keep_the_editor_shape():
    text = ('{"format":"worker-session/1","session":{"id":"s"},"store":['
            '{"id":7,"call":"a.b.c","input":{"n":1e2,"s":"Caf\\u00e9"},"unit":"m","applied":true,"output":[1]},'
            '{"id":"c2","call":"a.b.c","input":[ 1.0 , -0 ],"applied":true,"body":"b1"},'
            '{"id":"c3","call":"a.b.c","input":null,"unit":"mm"}]}').encode()
    store = load_bytes(text, "s.json").entries
    spliced = json.loads(store_texts(store)[0])
    assert spliced == [e.editor_shape() for e in store]
    assert list(spliced[0]) == ["id", "call", "input", "unit", "applied"]
    assert "output" not in spliced[0] and "body" not in spliced[1]


def test_a_line_only_the_lenient_parser_reads_and_a_made_entry_are_written_out():
    # A 5,000-digit integer: past orjson's reach, read by the fallback parser as JSON.parse reads it (Infinity).
    # (NaN, which this test used, is refused now, as JSON.parse refuses it: issue 28.)
    huge = b"1" + b"0" * 5000
    text = b'{"format":"worker-session/1","session":{"id":"s"}}\n{"kind":"entry","id":"c1","call":"a.b.c","input":{"x":' + huge + b'}}\n'
    store = load_bytes(text, "s.jsonl").entries + [Entry("m1", "a.b.c", {"made": True})]
    # The store is spliced from the file's text, so the literal arrives as written and V8 reads Infinity.
    assert json.loads(store_texts(store)[0], parse_int=float) == [
        {"id": "c1", "call": "a.b.c", "input": {"x": float("inf")}},
        {"id": "m1", "call": "a.b.c", "input": {"made": True}},
    ]


def test_every_form_splices_each_input_where_the_loader_found_it(tmp_path, monkeypatch):
    """Compact, indented, JSON Lines and gzipped: each input is cut from the record at the place the loader noted
    (`Entry.input_text_span`; no record parsed again), an output written before or after it, and reads back as the
    editor shapes it."""
    import gzip

    from wsi_inspector.core.runner import envelope

    records = [{"id": f"c{i}", "call": "pack.rooms.place", "input": {"rooms": [[i * 0.1, 2.5e-7], {"at": [1e21, -0.0]}],
                "label": "Süd \"B\"\n"}, "output": {"ok": [i]}, "unit": "mm"} for i in range(5)]
    records[1] = {"id": "c1", "output": {"first": True}, "call": "a.b.c", "input": [1, {"x": "y"}], "applied": True}
    head = {"format": "worker-session/1", "session": {"id": "s"}}
    compact = json.dumps({**head, "store": records}, ensure_ascii=False)
    files = {"c.json": compact.encode(), "i.json": json.dumps({**head, "store": records}, indent=2).encode(),
             "l.jsonl": "".join(json.dumps(r) + "\n" for r in [head] + [{"kind": "entry", **r} for r in records]).encode()}
    files["g.jsonl.gz"] = gzip.compress(files["l.jsonl"])
    calls: list = []
    original = envelope.msgspec.json.decode
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
        store = load(tmp_path / name).entries
        assert all(e.input_text_span is not None for e in store), name
        monkeypatch.setattr(envelope.msgspec.json, "decode", lambda *a, **k: calls.append(a) or original(*a, **k))
        spliced = json.loads(store_texts(store)[0])
        monkeypatch.undo()
        assert calls == [], name
        assert spliced == [e.editor_shape() for e in store], name


def lookup_rows(lookup: bytes) -> list[dict]:
    """The lookup's two tables (`last`'s, `at`'s) as {key: (position, start, end)}, each row in its key's bucket."""
    import zlib

    tables = []
    for table in lookup.decode().split("\u0003"):
        count = int(table[:10])
        bounds = [int(table[10 * i:10 * i + 10]) for i in range(1, count + 2)]
        body = table[10 * (count + 2):]
        assert len(body.encode("utf-16-le")) // 2 == (bounds[-1] if count else 0)
        rows = {}
        for bucket in range(count):
            for row in body[bounds[bucket]:bounds[bucket + 1]].split("\u0001")[1:]:
                key, value = row.split("\u0002")
                assert zlib.crc32(key.encode("utf-16-le")) % count == bucket  # where prelude.js `keyHash` looks
                rows[key] = tuple(json.loads(value))
        tables.append(rows)
    return tables


def test_the_index_finds_each_input_in_javascript_s_string_indices(tmp_path):
    """Each row's `position, start, end` in UTF-16 units: text past U+FFFF (two units), other non-ASCII (one unit, two or
    three UTF-8 bytes), in ids too, indented or not; each span holds exactly its entry's input."""

    records = [{"id": "c1", "call": "a.b.c", "input": {"label": "ward\\annex 🏥", "p": [[1.5, -2e-7]]}},
               {"id": "Süd-2", "call": "a.b.d", "input": ["病棟 4F", {"x": "🏥🏥"}], "applied": True, "unit": "m"},
               {"id": 7, "call": "a.b.c", "input": {"n": 1e21, "s": "Réa\tlits"}}]
    head = {"format": "worker-session/1", "session": {"id": "s"}}
    for name, text in (("c.json", json.dumps({**head, "store": records}, ensure_ascii=False)),
                       ("i.json", json.dumps({**head, "store": records}, indent=2, ensure_ascii=False))):
        (tmp_path / name).write_text(text, encoding="utf-8")
        store = load(tmp_path / name).entries
        data, lookup = store_texts(store)
        units = data.decode().encode("utf-16-le")
        last, by_id = lookup_rows(lookup)
        assert last == {"a.b.c": by_id["7"], "a.b": by_id["7"], "a.b.d": by_id["Süd-2"]}
        assert [by_id[key][0] for key in ("c1", "Süd-2", "7")] == [0, 1, 2]
        for (position, start, end) in by_id.values():
            entry = store[position]
            assert json.loads(units[2 * start:2 * end].decode("utf-16-le")) == entry.input, name


def test_a_body_reads_each_entry_it_asks_for_and_the_same_value_twice(tmp_path):
    """The realm parses only the inputs read, from the index's spans: every entry of a store with text past
    U+FFFF before it reads back as Python reads it, `inputs.last` and `inputs.at` agree (identity), `list` still
    hands out the manifest."""
    from wsi_inspector.core.runner.envelope import build_envelope
    from wsi_inspector.core.runner.host import Runner

    records = [{"id": f"c{i}", "call": "pack.rooms.place" if i % 2 else "dept.zones.zones",
                "input": {"label": "🏥" * i + "Süd", "at": [i * 0.1, 1e21], "i": i}} for i in range(40)]
    document = {"format": "worker-session/1", "session": {"id": "s"}, "store": records}
    (tmp_path / "s.json").write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    session = load(tmp_path / "s.json")
    code = ("const all = []; for (let i = 0; i < 40; i++) all.push(inputs.at('c' + i));\n"
            "return { all, same: inputs.last('pack.rooms') === inputs.at('c39'), zones: inputs.last('dept.zones.zones').i, "
            "listed: inputs.list('pack.rooms').length, none: inputs.at('c40') === undefined };")
    with Runner(size=1) as runner:
        result = runner.run(build_envelope(session, code))
    assert result["ok"], result.get("error")
    assert result["returned"] == {"all": [r["input"] for r in records], "same": True, "zones": 38, "listed": 20, "none": True}


TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)  # UTF-8 cannot hold a lone surrogate
VALUES = st.recursive(st.none() | st.booleans() | st.integers(-2**53, 2**53) | st.floats(allow_nan=False, allow_infinity=False) | TEXT,
                      lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4), max_leaves=12)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(inputs=st.lists(VALUES, min_size=1, max_size=6), ids=st.lists(TEXT | st.integers(0, 10**6), min_size=6, max_size=6),
       indent=st.booleans())
def test_the_index_spans_hold_each_input_whatever_its_text(tmp_path, inputs, ids, indent):
    """Any text (astral, combining, U+2028, control characters escaped), in ids too, written with raw UTF-8."""

    records = [{"id": ids[i], "call": "a.b.c", "input": value} for i, value in enumerate(inputs)]
    document = {"format": "worker-session/1", "session": {"id": "s"}, "store": records}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(document, ensure_ascii=False, indent=2 if indent else None), encoding="utf-8")
    store = load(path).entries
    data, lookup = store_texts(store)
    units = data.decode().encode("utf-16-le")
    for (position, start, end) in lookup_rows(lookup)[1].values():
        assert json.loads(units[2 * start:2 * end].decode("utf-16-le")) == json.loads(json.dumps(store[position].input))


def test_at_and_last_answer_the_newest_entry_of_any_id_the_body_may_ask_for(tmp_path):
    """The host's lookup answers as a search of the store would (the newest entry; ids are unique as loaded): ids with the lookup's own marks (U+0000 to
    U+0004), lone surrogates, text past U+FFFF, an id 5 (asked as 5 or as "5"), an integer past 2^53
    (as JavaScript prints it: 2^60 is "1152921504606847000"); `last` of a module finds its newest call with a unit, and a wanted text that holds
    the marks finds nothing."""
    from wsi_inspector.core.runner.envelope import build_envelope
    from wsi_inspector.core.runner.host import Runner

    ids = ["a\u0001b\u0002c", "\u0000", "\u0003\u0004", "x\ud800", "\udfff", "🏥", 5, 2**60, "c9"]
    records = "".join(f',{{"id":{json.dumps(i)},"call":"{"pack.rooms.place" if n % 2 else "pack.rooms.zones"}","input":{{"n":{n}}}}}'
                      for n, i in enumerate(ids))[1:]
    (tmp_path / "s.json").write_text('{"format":"worker-session/1","session":{"id":"s"},"store":[' + records + "]}")
    session = load(tmp_path / "s.json")
    asks = ", ".join(json.dumps(i) for i in ids[:6]) + ', 5, "5", 1152921504606846976, "c9", "1152921504606846976"'
    code = (f"const got = [{asks}].map((id) => {{ const e = inputs.at(id); return e === undefined ? null : e.n; }});\n"
            "return { got, rooms: inputs.last('pack.rooms').n, place: inputs.last('pack.rooms.place').n,\n"
            "  odd: inputs.last('pack.rooms\\u0002') === undefined, none: inputs.at('a\\u0001b') === undefined };")
    with Runner(size=1) as runner:
        result = runner.run(build_envelope(session, code))
    assert result["ok"], result.get("error")
    assert result["returned"] == {"got": [0, 1, 2, 3, 4, 5, 6, 6, 7, 8, None], "rooms": 8, "place": 7, "odd": True,
                                  "none": True}
    reads = [(r["what"], r["entry"]) for r in result["reads"] if r["what"] == "inputs.at"]
    # Each read names its entry by the id it has in the file, an id past 2^53 too (JavaScript would read 2^60 as
    # 1152921504606847000, which is no id of the session).
    assert reads == [("inputs.at", i) for i in ids[:7]] + [("inputs.at", 2**60), ("inputs.at", "c9"), ("inputs.at", None), ("inputs.at", None)]


ANY_ID = st.text(max_size=6) | st.integers(-2**63, 2**63)  # any text: lone surrogates, the lookup's marks


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ids=st.lists(ANY_ID, min_size=1, max_size=12, unique_by=lambda i: i if isinstance(i, str) else str(i)))
def test_the_realm_finds_every_id_where_the_host_put_it(tmp_path, ids):
    """JavaScript's key escaping and hash (prelude.js `lookupKey`, `keyHash`) agree with the host's for any id:
    `inputs.at` of each id, asked as the body would (a string, or the number), finds its own entry."""
    from wsi_inspector.core.jsrules.jsonsize import js_number
    from wsi_inspector.core.runner.envelope import build_envelope
    from wsi_inspector.core.runner.host import Runner

    if len({i if isinstance(i, str) else js_number(i) for i in ids}) < len(ids):
        return  # two ids JavaScript reads as one number: the loader refuses the second
    records = ",".join(json.dumps({"id": i, "call": "a.b.c", "input": {"n": n}}) for n, i in enumerate(ids))
    (tmp_path / "s.json").write_text('{"format":"worker-session/1","session":{"id":"s"},"store":[' + records + "]}")
    session = load(tmp_path / "s.json")
    assert [e.id for e in session.entries] == ids
    code = f"return {json.dumps(ids)}.map((id) => {{ const e = inputs.at(id); return e === undefined ? null : e.n; }});"
    with Runner(size=1) as runner:
        result = runner.run(build_envelope(session, code))
    assert result["ok"], result.get("error")
    assert result["returned"] == list(range(len(ids)))


def test_the_store_goes_in_as_ascii_text_of_the_same_values(tmp_path):
    """Labels past ASCII (accented, CJK, past U+FFFF), in ids too, are written as JSON escapes: V8 keeps the store as a
    one-byte string (half the memory, twice as quick to make), and reads the same values."""
    records = [{"id": "Süd-1", "call": "a.b.c", "input": {"label": "Station 3 — Südflügel", "ward": "病棟 4F 🏥"}},
               {"id": "c2", "call": "a.b.c", "input": ["Réa\tlits", "ward\\annex", 1.5]}]
    document = {"format": "worker-session/1", "session": {"id": "s"}, "store": records}
    (tmp_path / "s.json").write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    store = load(tmp_path / "s.json").entries
    data, _ = store_texts(store)
    assert data.isascii() and "\\u00fc" in data.decode() and "\\ud83c\\udfe5" in data.decode()
    assert json.loads(data) == [e.editor_shape() for e in store]


JSON_TEXTS = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) |
                          st.text(st.characters(), max_size=12),
                          lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(st.characters(), max_size=6), inner, max_size=4),
                          max_leaves=10)


@settings(max_examples=300, deadline=None)
@given(value=JSON_TEXTS, indent=st.sampled_from([None, 2, "\t", " \r\n "]))
def test_ascii_compact_in_c_and_in_python_write_the_same_text(value, indent):
    """Any value and any character, lone surrogates too (as Python's surrogatepass writes them), indented or not: no
    whitespace left between tokens, the whitespace inside strings kept, and the escapes Python's own ensure_ascii writes
    (but for DEL, which is ASCII and stays as it is). C where built, Python otherwise."""
    from wsi_inspector.core.runner import envelope

    data = json.dumps(value, ensure_ascii=False, indent=indent).encode("utf-8", "surrogatepass")
    in_python = envelope._ascii_compact_in_python(data)
    assert in_python == json.dumps(value, separators=(",", ":")).encode().replace(b"\\u007f", b"\x7f")
    if envelope._c_ascii_compact is not None:
        assert envelope._c_ascii_compact(data) == in_python


def test_ascii_compact_in_c_gives_text_that_is_not_utf8_back_to_python():
    from wsi_inspector.core.runner import envelope

    if envelope._c_ascii_compact is None:
        return
    for bad in (b'"\xff"', b'"\xc3"', b'"\xe6\x97"', b'"\xf0\x9f\x8f"', b'"\xc3\x28"', b'"\xf5\x80\x80\x80"'):
        assert envelope._c_ascii_compact(bad) is None, bad


def test_an_indented_file_s_inputs_cross_without_their_indentation(tmp_path):
    records = [{"id": "c1", "call": "a.b.c", "input": {"rooms": [[1.5, 2], [3, 4]], "label": "a  b\n"}}]
    document = {"format": "worker-session/1", "session": {"id": "s"}, "store": records}
    (tmp_path / "s.json").write_text(json.dumps(document, indent=2), encoding="utf-8")
    store = load(tmp_path / "s.json").entries
    assert store_texts(store)[0] == b'[{"id":"c1","call":"a.b.c","input":{"rooms":[[1.5,2],[3,4]],"label":"a  b\\n"}}]'


def test_a_store_made_from_the_last_store_s_pieces_is_the_store_made_from_nothing(tmp_path):
    """As replay hands them: each body's store the last one's with entries appended and the oldest trimmed, a person's
    edit and an entry made in memory among them; the texts made from the last store's pieces are byte for byte those made
    from nothing."""
    from wsi_inspector.core.runner.envelope import StoreTexts

    records = [{"id": f"c{i}", "call": "a.b.c" if i % 3 else "a.b.d", "input": {"label": "Süd 🏥" * (i % 4), "i": i},
                **({"applied": True, "unit": "mm"} if i % 5 == 0 else {})} for i in range(30)]
    document = {"format": "worker-session/1", "session": {"id": "s"}, "store": records}
    (tmp_path / "s.json").write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    entries = load(tmp_path / "s.json").entries + [Entry("made", "a.b.c", {"x": "é"})]
    StoreTexts._last = None
    for first, last in ((0, 5), (0, 9), (2, 14), (2, 14), (7, 20), (0, 3), (10, 31), (30, 31), (25, 31)):
        store = entries[first:last]
        made = StoreTexts.of(store)
        assert (made.json, made.lookup) == store_texts(store), (first, last)
