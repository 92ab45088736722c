"""Issue 28, point 2: a load's memory is about the file's (unpacked) size, whatever form the file is in.

`wsi manifest --json` on a real-shaped session (tests/bench/make_real.py) must peak at most at 1.5× the
unpacked file, the interpreter included (tests/bench/bench_manifest.py measures the whole process). What
a load itself adds is held here, with tracemalloc (bytes Python allocates, never timing):

- the text once, and beside it a few hundred bytes an entry: every record's text is a view of the one
  text (a 40-byte buffer), not a copy, nor a memoryview (184 bytes) and a buffer export for each line;
- a gzip file unpacked as it is read: its compressed bytes (0.4× the text for these sessions) are
  never held whole beside the text.
"""
import gzip
import tracemalloc

import pytest

import wsi_inspector.core.session.reading as reading
import wsi_inspector.core.session.store_scan
from wsi_inspector.core.session.load import load
from tests.bench.make_real import write_forms

ENTRIES = 300
HELD_PER_ENTRY = 480  # bytes an entry holds beside the text: 413 (JSON) and 398 (JSON Lines) when written; 692 and 810 before


@pytest.fixture(scope="module")
def forms(tmp_path_factory):
    return write_forms(tmp_path_factory.mktemp("real"), ENTRIES)


def _traced_load(path):
    """The session, the bytes Python held after the load and the most it held during it, the file's read included."""
    load(path)  # imports and caches made once, not counted
    tracemalloc.start()
    try:
        session = load(path)
        held, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return session, held, peak


def _unpacked(path):
    data = path.read_bytes()
    return len(gzip.decompress(data) if path.suffix == ".gz" else data)


@pytest.mark.parametrize("form", ["compact", "indent", "jsonl", "jsonl.gz"])
def test_a_load_holds_the_text_once_and_a_few_hundred_bytes_an_entry(forms, form, monkeypatch):
    # Pieces as small beside this file as 1 MiB is beside a real session: what is held whole shows.
    monkeypatch.setattr(reading, "_INFLATE_INPUT", 16 * 1024)
    monkeypatch.setattr(reading, "_INFLATE_CHUNK", 16 * 1024)
    session, held, peak = _traced_load(forms[form])
    size = _unpacked(forms[form])
    assert len(session.entries) == ENTRIES and not session.errors
    # A gzip's unpacked text grows in place: its spare room (at most an eighth) is address space, not memory
    # touched (never resident), but tracemalloc counts it. Its compressed bytes held whole would be 0.4× more.
    spare = size // 8 if form == "jsonl.gz" else 0
    assert (held - spare - size) / ENTRIES <= HELD_PER_ENTRY, (held - spare - size) / ENTRIES
    assert peak <= size * 1.02 + spare + ENTRIES * HELD_PER_ENTRY, peak / size


@pytest.mark.skipif(not wsi_inspector.core.session.store_scan.BUILT, reason="built without a C compiler")
def test_json_lines_entries_hold_their_lines_where_they_lie_in_the_one_text(forms):
    session = load(forms["jsonl"])
    texts = [entry.text for entry in session.entries]
    assert {type(text).__name__ for text in texts} == {"RecordText"}
    lines = [line for line in forms["jsonl"].read_bytes().splitlines() if b'"kind":"entry"' in line]
    assert [bytes(text) for text in texts] == lines


def test_an_entrys_size_reads_back_as_set_whatever_is_known_when_it_is_set():
    """Entry.size is kept as what it adds to input_bytes (a shared small int, not 32 bytes an entry); read back it
    is what was set, before or after input_bytes is known, and above or below it."""
    from wsi_inspector.core.jsrules.run_inputs import entry_bytes
    from wsi_inspector.core.session.model import Entry

    entry = Entry("c1", "a.b.c", [1, 2])
    assert entry.size is None
    entry.size = 40
    assert entry.size == 40
    entry.input_bytes = 5
    assert entry.size == 40
    for size in (50, 5, 3, 0, 10**12):
        entry.size = size
        assert entry.size == size
    entry.size = None
    assert entry.size is None
    fresh = Entry("c2", "a.b.c", {"spine": [[1.5, 2]] * 200})
    assert entry_bytes(fresh) == fresh.size == len('{"id":"c2","call":"a.b.c","input":}') + fresh.input_bytes
    assert 0 <= fresh._size_beyond < 257  # one of Python's shared ints
