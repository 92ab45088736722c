"""A followed JSON Lines session takes appended lines (wsi_inspector.core.session.growing) and answers as a fresh load of the file."""
import random

import orjson
import pytest

from wsi_inspector.core.search.filtering import FilterSpec, ManifestIndex
from wsi_inspector.core.session.growing import Growth
from wsi_inspector.core.session.load import load_bytes
from wsi_inspector.core.session.timeline import GROUP_AT, timeline_rows

HEADER = {"format": "worker-session/1", "session": {"id": "live"}, "caps": {"storeBytes": 900, "maxKeepBytes": 60}}


def _lines(records) -> list[bytes]:
    return [orjson.dumps(r) + b"\n" for r in records]


def _records(count: int, seed: int = 3) -> list[dict]:
    """A session as a worker writes it: bodies, their calls, edits, keeps (some refused), kept
    snapshots, and the odd bad line (a duplicate id, a bad kind, a line that is not JSON)."""
    rng = random.Random(seed)
    records: list = [HEADER]
    body = 0
    for n in range(count):
        roll = rng.random()
        if roll < 0.12:
            body += 1
            keep = {"name": f"k{body % 3}", "value": "x" * rng.choice([3, 80])} if rng.random() < 0.5 else None
            record = {"kind": "body", "id": f"b{body}", "code": "return 1", "result": {"ok": rng.random() < 0.9}}
            if keep:
                record["keep"] = [keep]
            records.append(record)
        elif roll < 0.15:
            records.append({"kind": "kept", "kept": {"snap": n}})
        elif roll < 0.2:
            records.append({"kind": "entry", "id": f"e{n}", "call": "pack.rooms.place", "input": {"w": n},
                            "applied": True, **({"editOf": f"c{n - 3}"} if rng.random() < 0.5 else {})})
        elif roll < 0.21:
            records.append({"kind": "entry", "id": "c1", "call": "pack.rooms.place", "input": 1})  # a duplicate id
        elif roll < 0.215:
            records.append({"kind": "thing"})
        elif roll < 0.22:
            records.append(b'{"kind": "entry", "id": "broken", ')  # not JSON
        else:
            where = f"b{body}" if body and rng.random() < 0.8 else None
            records.append({"kind": "entry", "id": f"c{n}", "call": rng.choice(["pack.rooms.place", "dept.zones.zones"]),
                            "input": {"n": n, "label": f"ward {n % 7}"}, **({"body": where} if where else {})})
    return records


def _text(records) -> bytes:
    return b"".join(r + b"\n" if isinstance(r, bytes) else orjson.dumps(r) + b"\n" for r in records)


def _answers(session) -> dict:
    """Everything a view shows of a session, comparable between two loads."""
    def state(body_id):
        s = session.state_at(body_id)
        return [e.key for e in s.store], s.kept, {k: str(v) for k, v in s.kept_by.items()}, [repr(r) for r in s.refused]

    rows = [(r.kind, getattr(r.item, "key", None), [c.key for c in r.children], r.cursor, r.children_cursor)
            for r in timeline_rows(session)]
    index = ManifestIndex(session.entries)
    return {
        "timeline": [(type(i).__name__, getattr(i, "key", None), i.where) for i in session.timeline],
        "entries": [(e.key, e.input_bytes, e.where, e.input) for e in session.entries],
        "bodies": [b.key for b in session.bodies],
        "states": {b.key: state(b.id) for b in session.bodies} | {None: state(None)},
        "problems": sorted((p.severity, p.where, p.message) for p in session.problems),
        "rows": rows,
        "sizes": index.sizes,
        "ward": index.containing(range(len(index)), "ward 3"),
        "entry lookup": [session.entry(e.id) is e for e in session.entries],
        "calls": {b.key: [e.key for e in session.calls_of(b)] for b in session.bodies},
    }


def _grow(text: bytes, cut: int, pieces: list[int]):
    """Load the first `cut` bytes, then feed the rest in pieces ending at `pieces` (offsets), as a follower reads."""
    session = load_bytes(text[:cut], "live.jsonl")
    timeline_rows(session)  # the window has its rows already
    for body in session.bodies:  # and the calls each body made, asked once (an index made then)
        session.calls_of(body)
    growth = Growth(session, text[:cut])
    for stop in [*pieces, len(text)]:
        assert growth.feed(text[growth.offset:stop]) is not None
    return session, growth


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_appended_lines_answer_as_a_fresh_load_of_the_whole_file(seed):
    text = _text(_records(400, seed))
    rng = random.Random(seed)
    cut = text.index(b"\n", len(text) // 3) + 1
    pieces = sorted(rng.sample(range(cut, len(text)), 40))  # many cut inside a line: a partial line waits
    grown, _ = _grow(text, cut, pieces)
    assert _answers(grown) == _answers(load_bytes(text, "live.jsonl"))


def test_one_line_at_a_time_from_the_header_on():
    text = _text(_records(150, 9))
    ends = [n + 1 for n in range(len(text)) if text[n:n + 1] == b"\n"]
    grown, growth = _grow(text, ends[0], ends[1:])
    assert growth.offset == len(text)
    assert _answers(grown) == _answers(load_bytes(text, "live.jsonl"))


def test_a_partial_last_line_waits_for_its_newline_and_is_reported_meanwhile():
    lines = _lines([HEADER, {"kind": "body", "id": "b1", "code": "x"}])
    entry = orjson.dumps({"kind": "entry", "id": "c1", "call": "a.b.c", "input": 1, "body": "b1"})
    session = load_bytes(b"".join(lines), "live.jsonl")
    growth = Growth(session, b"".join(lines))
    text = b"".join(lines) + entry[:10]
    appended = growth.feed(text[growth.offset:])
    assert appended.entries == [] and session.entries == []
    assert [p.where for p in session.problems if "incomplete" in p.message] == ["line 3"]
    text += entry[10:] + b"\n"
    appended = growth.feed(text[growth.offset:])
    assert [e.key for e in appended.entries] == ["c1"] and appended.rows.children == [(0, 0, 0)]
    assert not any("incomplete" in p.message for p in session.problems)
    assert _answers(session) == _answers(load_bytes(text, "live.jsonl"))


def test_a_loaded_last_line_without_its_newline_is_not_read_twice():
    text = b"".join(_lines([HEADER, {"kind": "body", "id": "b1", "code": "x"}])) + orjson.dumps(
        {"kind": "entry", "id": "c1", "call": "a.b.c", "input": 1, "body": "b1"})
    session = load_bytes(text, "live.jsonl")
    growth = Growth(session, text)
    text += b"\n" + b"".join(_lines([{"kind": "entry", "id": "c2", "call": "a.b.c", "input": 2, "body": "b1"}]))
    growth.feed(text[growth.offset:])
    assert [e.key for e in session.entries] == ["c1", "c2"] and not session.errors


def test_a_run_of_lone_entries_that_becomes_a_group_asks_for_a_fresh_load():
    lines = _lines([HEADER] + [{"kind": "entry", "id": f"c{n}", "call": "a.b.c", "input": n} for n in range(GROUP_AT)])
    session = load_bytes(b"".join(lines), "live.jsonl")
    rows = list(timeline_rows(session))
    growth = Growth(session, b"".join(lines))
    more = _lines([{"kind": "entry", "id": "late", "call": "a.b.c", "input": 0}])[0]
    assert growth.feed(more) is None
    assert timeline_rows(session) == rows and len(session.entries) == GROUP_AT  # nothing half done


def test_a_session_ordered_by_seq_asks_for_a_fresh_load():
    lines = _lines([HEADER, {"kind": "body", "id": "b1", "code": "x", "seq": 5}])
    growth = Growth(load_bytes(b"".join(lines), "live.jsonl"), b"".join(lines))
    assert growth.feed(_lines([{"kind": "body", "id": "b2", "code": "x"}])[0]) is None


def test_the_manifest_index_extended_answers_as_one_built_whole():
    text = _text(_records(300, 5))
    cut = text.index(b"\n", len(text) // 2) + 1
    session = load_bytes(text[:cut], "live.jsonl")
    index = ManifestIndex(session.entries)
    index.sort_key("bytes"), index.store_bytes(1), index.position(session.entries[0], 1)  # computed before
    growth = Growth(session, text[:cut])
    appended = growth.feed(text[cut:])
    index.extend(appended.entries)
    whole = ManifestIndex(load_bytes(text, "live.jsonl").entries)
    count = len(session.entries)
    for spec in (FilterSpec(), FilterSpec("pack.rooms", "ward 2", "bytes", True), FilterSpec(sort_column="id")):
        assert index.rows(spec, count) == whole.rows(spec, count)
    assert index.store_bytes(count) == whole.store_bytes(count) and index.sizes == whole.sizes
    assert index.position(session.entries[-1], count) == count - 1
    assert index.distinct_calls() == whole.distinct_calls()


def test_a_trim_index_built_before_the_file_grew_catches_up():
    from wsi_inspector.core.trim.preview import StoreIndex

    text = _text(_records(300, 6))
    cut = text.index(b"\n", len(text) // 2) + 1
    session = load_bytes(text[:cut], "live.jsonl")
    store_index = StoreIndex(session.entries)
    store_index.preview().fell_at(500)
    Growth(session, text[:cut]).feed(text[cut:])
    whole = StoreIndex(load_bytes(text, "live.jsonl").entries)
    count = len(session.entries)
    assert count > len(store_index.sizes)
    for cap in (0, 300, 900, 5000):
        grown, fresh = store_index.preview(count), whole.preview(count)
        assert grown.fell_at(cap) == fresh.fell_at(cap)
        assert [f.entry.key for f in grown.fallen_edits(cap)] == [f.entry.key for f in fresh.fallen_edits(cap)]
    assert store_index.running == whole.running and store_index.edits == whole.edits and store_index.modules == whole.modules
    assert {k: list(v) for k, v in store_index.by_call.items()} == {k: list(v) for k, v in whole.by_call.items()}


class _CountingBuffer(bytes):
    """The file's bytes, counting the line ends looked for in them."""

    finds = 0

    def find(self, *args):
        type(self).finds += 1
        return super().find(*args)


@pytest.mark.parametrize("cut_inside_a_line", [False, True])
def test_following_starts_where_the_loader_saw_its_whole_lines_end_bom_and_blank_lines_too(cut_inside_a_line):
    from wsi_inspector.core.session.reading import BOM

    text = BOM + _text(_records(300, 5)).replace(b"\n", b"\n\n", 3)  # blank lines among the first ones
    cut = text.index(b"\n", len(text) // 2) + 1 + (17 if cut_inside_a_line else 0)
    session = load_bytes(text[:cut], "live.jsonl")
    timeline_rows(session)
    _CountingBuffer.finds = 0
    growth = Growth(session, _CountingBuffer(text[:cut]))
    assert _CountingBuffer.finds <= 1  # not a walk over every line end of the file
    assert text[growth.offset - 1:growth.offset] == b"\n"
    assert growth.feed(text[growth.offset:]) is not None
    assert _answers(session) == _answers(load_bytes(text, "live.jsonl"))


@pytest.mark.parametrize("name", ["live.jsonl", "live.json"])
def test_an_appended_entry_repeating_an_id_is_refused_whether_loaded_before_or_appended_with_it(name):
    """After the load the checker knows the ids through the session's own index (records.KnownIds), not a
    second set of every id: an id loaded before, and one appended twice in the same piece, are still refused."""
    lines = _lines([HEADER, {"kind": "body", "id": "b1", "code": "x"},
                    {"kind": "entry", "id": "c1", "call": "a.b.c", "input": 1, "body": "b1"}])
    text = b"".join(lines)
    session = load_bytes(text, "live.jsonl")
    if name == "live.json":  # a session loaded without its line reader: the checker is made from the session
        session.line_reader = None
    growth = Growth(session, text)
    more = _lines([{"kind": "entry", "id": "c1", "call": "a.b.c", "input": 2},
                   {"kind": "entry", "id": "c2", "call": "a.b.c", "input": 3},
                   {"kind": "entry", "id": "c2", "call": "a.b.c", "input": 4}])
    growth.feed(b"".join(more))
    assert [e.key for e in session.entries] == ["c1", "c2"]
    assert [p.where for p in session.errors if "duplicate entry id" in p.message] == ["line 4 /id", "line 6 /id"]
