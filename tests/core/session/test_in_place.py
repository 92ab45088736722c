"""wsi_inspector.core.session.in_place: record texts lying in order in one buffer, a comma (and JSON whitespace) apart, are
viewed where they lie; any other texts are refused, so the search joins them instead."""
import gc

import msgspec
import pytest

from wsi_inspector.core.session.in_place import records_in_place
from wsi_inspector.core.session.load import load_bytes

RECORDS = [b'{"id":"a","call":"a.b.c","input":[1,2]}', b'{"id":"b","call":"a.b.c","input":{"k":"v"}}',
           b'{"id":"c","call":"a.b.c","input":"x"}']


def _slices(data: bytes, records: list[bytes]) -> list[memoryview]:
    """Each record as a slice of `data`, where it lies in it."""
    view, at, found = memoryview(data), 0, []
    for record in records:
        at = data.index(record, at)
        found.append(view[at:at + len(record)])
        at += len(record)
    return found


@pytest.mark.parametrize("separator", [b",", b", ", b",\n  ", b"\n  ,\t", b",\r\n" + b" " * 40])
def test_texts_a_comma_apart_in_one_buffer_are_viewed_where_they_lie(separator):
    data = b"[" + separator.join(RECORDS) + b"]"
    texts = _slices(data, RECORDS)
    view, starts = records_in_place(texts)
    assert bytes(view) == data[1:-1]
    assert not view.flags.writeable
    assert [bytes(view[start:start + len(record)]) for start, record in zip(starts, RECORDS)] == RECORDS
    assert starts[-1] == len(view) + 1  # the end plus one, as when joined by newlines
    assert records_in_place(texts[:1])[1].tolist() == [0, len(RECORDS[0]) + 1]


@pytest.mark.parametrize("data, why", [
    (b"[" + b"".join(RECORDS) + b"]", "no comma between them"),
    (b"[" + b",,".join(RECORDS) + b"]", "two commas"),
    (b"[" + b",x".join(RECORDS) + b"]", "something else between them"),
    (b"[" + (b"," + b" " * 64).join(RECORDS) + b"]", "a gap longer than a pretty-printer's"),
])
def test_texts_not_a_comma_apart_are_refused(data, why):
    assert records_in_place(_slices(data, RECORDS)) is None, why


def test_texts_out_of_order_or_in_buffers_of_their_own_are_refused():
    data = b"[" + b",".join(RECORDS) + b"]"
    texts = _slices(data, RECORDS)
    assert records_in_place(texts[::-1]) is None
    assert records_in_place([texts[0], texts[2]]) is None  # a record between them
    assert records_in_place([bytes(t) for t in texts]) is None  # JSON Lines: a bytes object a line
    assert records_in_place([msgspec.Raw(bytes(t)) for t in texts]) is None
    assert records_in_place([]) is None


def test_the_view_keeps_the_texts_and_their_buffer_alive():
    data = bytearray(b"[" + b",".join(RECORDS) + b"]")
    texts = _slices(bytes(data), RECORDS)
    view, _ = records_in_place(texts)
    del texts, data
    gc.collect()
    filler = [bytes(1000) for _ in range(1000)]  # would reuse freed memory
    assert bytes(view) == b",".join(RECORDS)
    del filler


def test_the_json_forms_records_lie_in_place_and_json_lines_records_do_not():
    store = b",\n    ".join(RECORDS)
    pretty = load_bytes(b'{"format":"worker-session/1","session":{"id":"t"},\n  "store":[\n    ' + store + b"\n  ]}", "t.json")
    assert records_in_place([e.text for e in pretty.entries]) is not None
    lines = load_bytes(b"\n".join([b'{"format":"worker-session/1","session":{"id":"t"}}']
                                  + [b'{"kind":"entry",' + r[1:] for r in RECORDS]), "t.jsonl")
    assert len(lines.entries) == 3 and records_in_place([e.text for e in lines.entries]) is None
