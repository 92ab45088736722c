"""Loaded entries hold their record's text (wsi_inspector.core.session.model.Entry): what they give back must be exactly
what parsing the whole document gives, in every form and on every broken file."""
import json
from pathlib import Path

import pytest

import wsi_inspector.core.session.formats.worker_session_1.json_form
from wsi_inspector.core.session import store_scan
from wsi_inspector.core.session.load import load_bytes

SESSIONS = Path(__file__).resolve().parents[3] / "resources" / "sessions"


def described(session):
    """Everything a loaded session says about its entries and problems, as plain values."""
    entries = [(e.id, e.call, e.unit, e.applied, e.edit_of, e.body, e.seq, e.at, e.extra, e.where,
                e.input, e.has_output, e.output if e.has_output else None, e.input_bytes, e.input_shape)
               for e in session.entries]
    problems = [(p.severity, p.where, p.message) for p in session.problems]
    return entries, problems, [b.key for b in session.bodies], session.extra


def whole_parse(monkeypatch, data, name):
    """The session as the full parser alone reads it (the cut into record texts turned off)."""
    with monkeypatch.context() as patch:
        patch.setattr(wsi_inspector.core.session.formats.worker_session_1.json_form, "_split_json", lambda session, text: None)
        return load_bytes(data, name)


# not_utf8.json is left out: cut into parts, the parts without the bad byte still load (issue 11),
# while the whole parse can only refuse the file.
FILES = sorted(SESSIONS.glob("*.json")) + sorted(p for p in (SESSIONS / "broken").iterdir() if p.name != "not_utf8.json")


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_a_file_reads_the_same_cut_into_records_as_parsed_whole(monkeypatch, path):
    data = path.read_bytes()
    assert described(load_bytes(data, path.name)) == described(whole_parse(monkeypatch, data, path.name))


def test_pretty_printed_unicode_and_unknown_parts_read_the_same(monkeypatch):
    doc = {"format": "worker-session/1", "session": {"id": "s"}, "extension": {"x": [1, 2]},
           "store": [{"id": 7, "call": "a.b.c", "input": {"é": "ü\n\"", "2": 1.0, "n": -0.0, "big": 1e21},
                      "output": None, "later": True},
                     {"id": "c2", "call": "a.b.c", "input": [1, [2.5, 3]], "output": {"ok": 1}}]}
    data = json.dumps(doc, indent=2, ensure_ascii=False).encode()
    fast = load_bytes(data, "s.json")
    assert all(e._text is not None for e in fast.entries)  # the cut into record texts was taken
    assert described(fast) == described(whole_parse(monkeypatch, data, "s.json"))
    assert fast.entries[0].input == doc["store"][0]["input"]
    assert fast.entries[0].has_output and fast.entries[0].output is None
    assert fast.entries[1].output == {"ok": 1}
    assert fast.extra == {"extension": {"x": [1, 2]}}


def test_a_store_that_is_not_an_array_is_still_reported_where_it_is(monkeypatch):
    data = b'{"format": "worker-session/1", "session": {"id": "s"}, "store": {"id": 1}}'
    fast = load_bytes(data, "s.json")
    assert [(p.where, p.message) for p in fast.errors] == [("/store", "store must be an array of entries, oldest first")]
    assert described(fast) == described(whole_parse(monkeypatch, data, "s.json"))


def test_a_json_lines_entry_reads_its_values_from_its_line():
    lines = [{"format": "worker-session/1", "session": {"id": "s"}},
             {"kind": "entry", "id": "c1", "call": "a.b.c", "input": {"spine": [[0, 0], [1.5, 2]]}, "output": [3]}]
    session = load_bytes("\n".join(json.dumps(x) for x in lines).encode(), "s.jsonl")
    entry = session.entries[0]
    assert entry.input == {"spine": [[0, 0], [1.5, 2]]} and entry.output == [3]
    assert entry.input_bytes == len('{"spine":[[0,0],[1.5,2]]}') and entry.input_shape == {"keys": ["spine"]}


@pytest.mark.parametrize("text", [
    b'{"format": "worker-session/1", "session": {"id": "s"}, "store": [], "store": [{"id": 1, "call": "a.b.c", "input": 2}]}',
    b'{"format": "worker-session/1", "session": {"id": "s"}, "x": 1, "store": [{"id": 1, "call": "a.b.c", "input": 2}], "x": 3}',
    b'{"format": "worker-session/1", "session": {"id": "s"}, "store": [1, {"id": 1}, {"id": 2, "call": "a.b.c", "input": []}]}',
    b'{"format": "worker-session/2", "store": null, "bodies": 3}',
])
def test_repeated_parts_and_odd_records_read_the_same(monkeypatch, text):
    assert described(load_bytes(text, "s.json")) == described(whole_parse(monkeypatch, text, "s.json"))


@pytest.mark.skipif(not store_scan.BUILT, reason="the C scan was not built")
def test_a_record_text_compares_and_hashes_as_its_bytes_and_digests_its_spans():
    """The compare pairs records by these (wsi_inspector.core.edits.compare): equal bytes, whatever holds them."""
    data = (SESSIONS / "demo.json").read_bytes()
    entries = load_bytes(data, "demo.json").entries
    texts = [e.text for e in entries]
    assert all(type(t) is store_scan.RecordText for t in texts)
    first = texts[0]
    assert first == bytes(first) and bytes(first) == first and first == memoryview(bytes(first))
    assert first != texts[1] and first != bytes(first)[:-1] and not (first == "a string")
    assert hash(first) == hash(bytes(first))
    for entry in entries:
        start, stop = entry.input_text_span or (0, len(entry.text))
        span = bytes(entry.text)[start:stop]
        assert store_scan.digest(entry.text, start, stop) == store_scan.digest(span) == store_scan.digest(bytearray(span))
    with pytest.raises(IndexError):
        store_scan.digest(first, 0, len(first) + 1)
    # Every length's tail is read (8 bytes at a time, then the rest): no two of these collide (whitespace aside).
    counted = [byte for byte in range(256) if byte not in b" \t\r\n"]
    digests = {store_scan.digest(bytes([byte]) * length) for byte in counted for length in range(1, 20)}
    assert len(digests) == len(counted) * 19
