"""The C scan of the JSON form's store (core/session/_store_scan.c) against V8, orjson and the Python reader.

Every size the scan gives must be V8's `JSON.stringify` length after `JSON.parse` of the same text,
whatever the spelling (whitespace, exponents, trailing zeros, escapes); a size it cannot prove is -1
(never a guess). `verbatim` may be claimed only where orjson writes the value back byte for byte.
A text that is not a plain JSON session document scans to None, and the Python reader takes over.
"""
import itertools
import json
import math
import random
import shutil
from array import array
import struct

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import wsi_inspector.core.session.store_scan
from wsi_inspector.core.jsrules.jsonsize import js_keys, js_stringify
from wsi_inspector.core.search.manifest import inputs_manifest
from wsi_inspector.core.session.load import load, load_bytes
from tests.helpers.json_values import UTF8_LENGTH_JS, json_values, random_value

pytestmark = pytest.mark.skipif(not wsi_inspector.core.session.store_scan.BUILT, reason="built without a C compiler")

SHAPES_JS = """
function shapes(texts) {
  return JSON.stringify(texts.map((t) => {
    const v = JSON.parse(t);
    const keys = (v !== null && typeof v === "object" && !Array.isArray(v)) ? Object.keys(v) : null;
    return [utf8Length(JSON.stringify(v)), keys, Array.isArray(v) ? v.length : null];
  }));
}
"""


def test_the_scanner_is_built_where_there_is_a_compiler():
    """CI and the wheel test build it; a silent fall back to Python would hide every test below."""
    if shutil.which("cc") or shutil.which("gcc"):
        assert wsi_inspector.core.session.store_scan.BUILT


def _document(inputs: list[str]) -> bytes:
    records = [f'{{"id":"c{i}","call":"a.b.c","input":{text}}}' for i, text in enumerate(inputs)]
    return ('{"format":"worker-session/1","store":[' + ",".join(records) + "]}").encode()


def _scanned(inputs: list[str]) -> list[tuple]:
    data = _document(inputs)
    scanned = wsi_inspector.core.session.store_scan.scan(data)
    assert scanned is not None, data
    return [(r, data) for r in scanned.records]


def _spellings(rng: random.Random, value) -> str:
    """One of the many texts JSON.parse reads as `value`: spaces, exponents, zeros, escapes."""
    space = lambda: rng.choice(["", "", " ", "\n\t", "\r\n "])  # noqa: E731
    if isinstance(value, dict):
        members = [f"{space()}{_string(rng, k)}{space()}:{space()}{_spellings(rng, v)}{space()}" for k, v in value.items()]
        return "{" + ",".join(members) + space() + "}"
    if isinstance(value, list):
        return "[" + ",".join(space() + _spellings(rng, v) + space() for v in value) + space() + "]"
    if isinstance(value, str):
        return _string(rng, value)
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int) and rng.random() < 0.5:
        return str(value)
    x = float(value)
    text = rng.choice([repr(x), f"{x:.17g}", f"{x:.17e}", f"{x:.20e}", f"{x:E}" if abs(x) < 1e300 else repr(x)])
    if "e" not in text.lower() and "." in text and rng.random() < 0.5:
        text += "0" * rng.randint(1, 3)  # trailing zeros: the same number
    return text.replace("inf", "1e400").replace("e+0", "e+").replace("e-0", "e-") if rng.random() < 0.3 else text


def _string(rng: random.Random, text: str) -> str:
    out = []
    for ch in text:
        r = rng.random()
        if (r < 0.2 and ch != "\\" and ch != '"' and ord(ch) < 0x10000) or 0xD800 <= ord(ch) <= 0xDFFF:  # a lone surrogate has no UTF-8
            out.append(f"\\u{ord(ch):04{'x' if r < 0.1 else 'X'}}")
        elif ch == "/" and r < 0.5:
            out.append("\\/")
        else:
            out.append(json.dumps(ch, ensure_ascii=rng.random() < 0.5)[1:-1])
    return '"' + "".join(out) + '"'


def _v8_shapes(v8, texts: list[str]) -> list:
    v8.eval(UTF8_LENGTH_JS + SHAPES_JS)
    return json.loads(v8.eval(f"shapes({json.dumps(texts)})"))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.lists(json_values, min_size=1, max_size=8), st.integers(0, 2**32))
def test_every_size_the_scan_proves_is_v8s(v8, values, seed):
    rng = random.Random(seed)
    texts = [_spellings(rng, v) for v in values]
    want = _v8_shapes(v8, texts)
    for (record, data), (size, keys, length), text in zip(_scanned(texts), want, texts):
        start, end, input_start, input_end, input_bytes, shape, fields, verbatim, record_text = record
        assert bytes(record_text) == data[start:end] and len(record_text) == end - start
        assert data[input_start:input_end].decode() == text.strip()
        assert input_bytes in (size, -1), text
        if input_bytes >= 0:  # an unsure input is measured again, shape and all
            assert js_keys(shape) == keys if keys is not None else shape == length if length is not None else isinstance(shape, str)
        assert fields == {"id": f"c{texts.index(text)}" if texts.count(text) == 1 else fields["id"], "call": "a.b.c", "input": None}


def test_few_inputs_are_left_unsure():
    """-1 is for what cannot be proven (repeated or escaped keys), not for the common case."""
    rng = random.Random(3)
    values = [random_value(rng) for _ in range(2000)]
    texts = [json.dumps(v, ensure_ascii=False) for v in values if not _has_lone_surrogate(v)]
    unsure = sum(record[4] < 0 for record, _ in _scanned(texts))
    assert unsure <= len(texts) // 20, unsure


def _has_lone_surrogate(value) -> bool:
    try:
        json.dumps(value, ensure_ascii=False).encode()
        return False
    except UnicodeEncodeError:
        return True


def test_unsure_cases_are_the_ones_the_text_cannot_settle(v8):
    texts = ['{"a":1,"a":2}', '{"a\\u0062":1}', '{"x":[{"y":1,"y":[1,2,3]}]}', "5e-324", "5.960464477539063e-08"]
    sizes = [record[4] for record, _ in _scanned(texts)]
    assert sizes[:3] == [-1, -1, -1]  # repeated or escaped keys; numbers of every kind are proven (below)
    assert sizes[3:] == [6, 20]
    # and the loader measures them the slow way, as V8 does
    session = load_bytes(_document(texts), "t.json")
    assert [e.input_bytes for e in session.entries] == [s for s, _, _ in _v8_shapes(v8, texts)]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(json_values, min_size=1, max_size=8), st.integers(0, 2**32))
def test_verbatim_is_claimed_only_where_orjson_writes_the_same_bytes(values, seed):
    rng = random.Random(seed)
    texts = []
    for v in values:
        try:
            texts.append(orjson.dumps(v).decode() if rng.random() < 0.6 else _spellings(rng, v))
        except (TypeError, UnicodeEncodeError):
            continue
    scanned = wsi_inspector.core.session.store_scan.scan(_document(texts)) if texts else None
    for record in scanned.records if scanned else []:
        start, end, input_start, input_end, *_, verbatim, _ = record
        text = _document(texts)[input_start:input_end]
        if verbatim:
            assert orjson.dumps(orjson.loads(text)) == text


def test_what_orjson_writes_is_mostly_found_verbatim():
    rng = random.Random(9)
    texts = [orjson.dumps({"spine": [[rng.uniform(-9e4, 9e4), rng.uniform(0, 1e5)] for _ in range(20)], "n": i, "label": f"run {i} — ward"}).decode()
             for i in range(500)]
    assert all(record[7] for record, _ in _scanned(texts))


@pytest.mark.parametrize("text", [
    b'{"store":[{"id":"a","call":"a.b.c","input":[1,2]}', b'{"store":[{"id":"a","call":"a.b.c","input":"\xff"}]}',
    b'{"store":[{"id":"a","call":"a.b.c","input":"a\x01b"}]}', b'{"store":[],"store":[]}', b'[1,2]', b'{"store":[01]}',
    b'{"store":[1.]}', b'{"store":[tru]}', b'{"store":[]} x', b'{"store":["\xed\xa0\x80"]}', b'{"store":["\xc0\xaf"]}',
    b'{"store":[' + b"[" * 600 + b"]" * 600 + b"]}",
])
def test_what_is_not_a_plain_json_document_is_left_to_the_python_reader(text):
    assert wsi_inspector.core.session.store_scan.scan(text) is None


def test_every_file_loads_the_same_with_and_without_the_scanner(monkeypatch, tmp_path):
    rng = random.Random(4)
    store = [{"id": i if i % 3 else f"c{i}", "call": "pack.corridorRuns.score", "input": random_value(rng),
              **({"unit": "mm"} if i % 2 else {}), **({"applied": True, "editOf": 0} if i % 7 == 6 else {}),
              **({"output": {"ok": [1, 2]}} if i % 5 == 0 else {}), **({"seq": "x"} if i == 8 else {})}
             for i in range(300)]
    store.append({"id": 1, "call": "pack.corridorRuns.score", "input": 1})  # a repeated id: an error
    store.append({"id": "z", "call": "nope", "input": 1})  # a bad call: an error
    data = json.dumps({"format": "worker-session/1", "session": {"id": "t"}, "store": store}).encode()
    path = tmp_path / "t.json"
    path.write_bytes(data)

    def seen(session):
        # Values as JavaScript prints them: a whole-file parse keeps an integer past 2^64 exact, a record's parse makes it a double.
        entries = [(e.id, e.call, e.unit, e.applied, e.edit_of, e.input_bytes, e.input_shape, js_stringify(e.input), e.has_output and js_stringify(e.output))
                   for e in session.entries]
        return entries, [str(p) for p in session.problems], inputs_manifest(session.state_at(None))

    scanned, from_file = seen(load_bytes(data, "t.json")), seen(load(path))
    monkeypatch.setattr(wsi_inspector.core.session.store_scan, "_scan", None)
    monkeypatch.setattr(wsi_inspector.core.session.store_scan, "_scan_record", None)
    assert scanned == seen(load_bytes(data, "t.json")) == from_file
    assert path.read_bytes() == data


@pytest.mark.parametrize(("name", "switch"), [("t.json", "_scan"), ("t.jsonl", "_scan_record")])
def test_a_store_longer_than_a_release_of_the_records_table_loads_the_same_with_and_without_the_scanner(
        monkeypatch, name, switch):
    """The records table's pages behind the records handed out are given back every 16,384 records (issue 28:
    7 MB at a 100,000-entry load's peak): every record, before and after each release, is read whole. JSON
    Lines lines are scanned ahead into that table too; the page of the last record handed out is never given
    back (one read after its page went read zeros: `fields` None at a 100,000-line load of two sessions at
    once; where the table lies decides whether a record straddles a page, so a test cannot make that happen
    at will)."""
    rng = random.Random(9)
    store = [{"id": f"c{i}", "call": "a.b.c", "input": [rng.randrange(10 ** rng.randint(0, 6)) for _ in range(i % 4)]
              if i % 3 else {"k": i, f"n{i % 5}": "é"}, **({"unit": "mm"} if i % 2 else {})} for i in range(40_000)]
    header = {"format": "worker-session/1", "session": {"id": "t"}}
    data = (json.dumps({**header, "store": store}) if name.endswith(".json")
            else "\n".join([json.dumps(header), *(json.dumps({"kind": "entry", **entry}) for entry in store)])).encode()

    def seen(session):
        return [(e.id, e.call, e.unit, e.input_bytes, e.input_shape, e.input) for e in session.entries], [str(p) for p in session.problems]

    scanned = seen(load_bytes(data, name))
    monkeypatch.setattr(wsi_inspector.core.session.store_scan, switch, None)
    assert scanned == seen(load_bytes(data, name))
    assert len(scanned[0]) == 40_000 and scanned[1] == []


def test_damaged_files_load_the_same_with_and_without_the_scanner(monkeypatch):
    """Flipped, cut and inserted bytes: the scan refuses what is not JSON and never reads past the text."""
    rng = random.Random(12)
    store = [{"id": f"c{i}", "call": "a.b.c", "unit": "mm", "input": random_value(rng)} for i in range(12)]
    good = json.dumps({"format": "worker-session/1", "store": store}).encode()
    still_json = 0
    for _ in range(400):
        data = bytearray(good)
        for _ in range(rng.randint(1, 4)):
            at = rng.randrange(len(data))
            choice = rng.random()
            if choice < 0.4:
                data[at] = rng.choice(b'{}[]",:\\ 0123456789.eE+-tfnu\xff\xc3\x80')
            elif choice < 0.7:
                del data[at:at + rng.randint(1, 8)]
            else:
                data[at:at] = rng.choice([b",", b"]", b'"', b"\\u12", b"1e999", b" "])
        still_json += wsi_inspector.core.session.store_scan.scan(bytes(data)) is not None  # these, the C scan reads
        with monkeypatch.context() as patch:
            scanned = load_bytes(bytes(data), "t.json")
            patch.setattr(wsi_inspector.core.session.store_scan, "_scan", None)
            patch.setattr(wsi_inspector.core.session.store_scan, "_scan_record", None)
            python = load_bytes(bytes(data), "t.json")
        assert [(e.id, e.input_bytes, e.input_shape) for e in scanned.entries] == [(e.id, e.input_bytes, e.input_shape) for e in python.entries]
        assert [str(p) for p in scanned.problems] == [str(p) for p in python.problems]
    assert still_json >= 20, still_json


def test_json_lines_load_the_same_with_and_without_the_scanner(monkeypatch):
    """Each JSON Lines entry line is scanned on its own (wsi_inspector.core.session.store_scan.scan_record); bodies, kept
    lines and what the scan cannot settle are read as before."""
    rng = random.Random(8)
    lines = [json.dumps({"format": "worker-session/1", "session": {"id": "t"}})]
    for i in range(200):
        if i % 17 == 0:
            lines.append(json.dumps({"kind": "body", "id": f"b{i}", "code": "return 1"}))
        elif i % 23 == 0:
            lines.append(json.dumps({"kind": "kept", "kept": {"spine": [1, 2]}}))
        else:
            record = {"kind": "entry", "id": f"c{i}", "call": "a.b.c", "input": random_value(rng), **({"body": f"b{i - i % 17}"} if i % 2 else {})}
            lines.append(json.dumps(record, indent=None if i % 3 else 0).replace("\n", " ") + (" \r" if i % 5 == 0 else ""))
    lines[50] = '{"kind": "entry", "id": "c50", "call": "a.b.c", "input": [1, 2'  # cut short: an error
    data = "\n".join(lines).encode()
    assert wsi_inspector.core.session.store_scan.scan_record(lines[2].encode()) is not None

    def seen(session):
        entries = [(e.id, e.input_bytes, e.input_shape, js_stringify(e.input), e.input_span is not None) for e in session.entries]
        return entries, [str(p) for p in session.problems], len(session.timeline)

    scanned = seen(load_bytes(data, "t.jsonl"))
    monkeypatch.setattr(wsi_inspector.core.session.store_scan, "_scan_record", None)
    python = seen(load_bytes(data, "t.jsonl"))
    assert scanned[1:] == python[1:]
    assert [e[:4] for e in scanned[0]] == [e[:4] for e in python[0]]
    # The scan finds more inputs spelled as orjson spells them (after `"input": `, a space), never fewer.
    assert all(s[4] >= p[4] for s, p in zip(scanned[0], python[0]))


@pytest.mark.parametrize("ahead", [False, True])
def test_each_line_scanned_where_it_lies_is_the_line_scanned_alone(ahead):
    """The JSON Lines loader scans every line inside the one text (store_scan.Lines): one export of it for all,
    each record's text a 40-byte buffer. That must be what scanning the line as a text of its own gives,
    its offsets moved by where the line starts; damaged lines are None both ways, and nothing past a
    line's end is read (the line after it is a valid record that must not complete a cut one). The same
    when every line was scanned ahead at once (`scan_ahead`, as the loader does), a line not asked for
    (the header) passed over."""
    rng = random.Random(28)
    lines = []
    for i in range(300):
        record = json.dumps({"kind": "entry", "id": f"c{i}", "call": "a.b.c", "input": random_value(rng)})
        if i % 7 == 3:
            record = record[: rng.randrange(len(record))]  # cut short: not one JSON value
        elif i % 11 == 5:
            record = "  " + record + " \t"  # spaces around it are allowed, as the parse allows them
        lines.append(record.encode())
    text = b"\n".join(lines)
    scanner = wsi_inspector.core.session.store_scan.Lines(text)
    if ahead:
        starts = array("q", itertools.accumulate((len(line) + 1 for line in lines[:-1]), initial=0))
        scanner.scan_ahead(starts, array("q", (at + len(line) for at, line in zip(starts, lines))))
    start = scanned = 0
    for number, line in enumerate(lines):
        if ahead and number == 1:
            start += len(line) + 1
            continue  # not asked for
        alone = wsi_inspector.core.session.store_scan.scan_record(line)
        here = scanner.record(start, start + len(line))
        if alone is None:
            assert here is None, line
        else:
            scanned += 1
            moved = tuple(at + start if at >= 0 else at for at in alone[:4])
            assert here[:4] == moved and here[4:-1] == alone[4:-1], line
            assert bytes(here[-1]) == bytes(alone[-1]) == line.strip()
            assert type(here[-1]).__name__ == "RecordText"
        assert bytes(scanner.text(start, start + len(line))) == line
        start += len(line) + 1
    assert scanned >= 250, scanned
    first = scanner.record(0, len(lines[0]))  # asked again, behind the lines scanned ahead: scanned alone
    assert bytes(first[-1]) == lines[0]
    with pytest.raises(ValueError):
        scanner.record(5, len(text) + 1)
    with pytest.raises(ValueError):
        scanner.scan_ahead(array("q", [5, 0]), array("q", [9, 3]))  # out of order
    with pytest.raises(ValueError):
        scanner.text(-1, 3)


def _random_double(rng: random.Random) -> float:
    """A double of any kind: any bits, subnormals, powers of two, neighbours of 1e21, 1e-7, 2^53, zeros, geometry."""
    kind = rng.random()
    if kind < 0.3:
        x = struct.unpack("<d", rng.getrandbits(64).to_bytes(8, "little"))[0]
    elif kind < 0.4:
        x = struct.unpack("<d", rng.getrandbits(52).to_bytes(8, "little"))[0] * rng.choice([1, -1])
    elif kind < 0.5:
        x = math.ldexp(rng.choice([1.0, -1.0]), rng.randint(-1074, 1023))
    elif kind < 0.6:
        near = rng.choice([1e21, 1e-7, 1e-6, 1e20, 1e16, 1e15, 2.0**53, 1e22, 1e23, 1.7976931348623157e308, 2.2250738585072014e-308])
        bits = struct.unpack("<q", struct.pack("<d", near))[0] + rng.randint(-3, 3)
        x = struct.unpack("<d", bits.to_bytes(8, "little", signed=True))[0]
    elif kind < 0.62:
        x = rng.choice([-0.0, 0.0, 5e-324, -5e-324, 4.9406564584124654e-324, 1.7976931348623157e308])
    else:  # what a body computes: x0 + cos(a) * r
        x = rng.uniform(-5e4, 5e4) + math.cos(rng.uniform(0, 7)) * rng.uniform(0, 1000)
    return x if math.isfinite(x) else 1.5


def _number_spelling(rng: random.Random, x: float) -> str:
    """JavaScript's own text, or 15 to 19 digits in either notation (each reads back as some double)."""
    return rng.choice([repr(x), repr(x), f"{x:.17g}", f"{x:.16e}", f"{x:.18e}", f"{x:.15g}", f"{x:.19g}", f"{x:.16f}"])


def test_every_number_is_measured_as_v8_writes_it(v8):
    """200,000 doubles of every kind, spelled many ways: the scan's size is V8's, never unsure, and
    verbatim only where orjson writes the same text (the scan proves numbers by exact conversion)."""
    rng = random.Random(28)
    texts = [_number_spelling(rng, _random_double(rng)) for _ in range(200_000)]
    data = ("{\"store\":[" + ",".join('{"input":%s}' % t for t in texts) + "]}").encode()
    scanned = wsi_inspector.core.session.store_scan.scan(data)
    assert scanned is not None
    records = list(scanned.records)
    v8.eval("function lengths(t) { return JSON.stringify(JSON.parse(t).map((v) => JSON.stringify(v).length)); }")
    expected: list[int] = []
    for i in range(0, len(texts), 20_000):
        expected += json.loads(v8.eval(f"lengths({json.dumps('[' + ','.join(texts[i:i + 20_000]) + ']')})"))
    wrong = [(t, r[4], e) for t, r, e in zip(texts, records, expected) if r[4] != e]
    assert wrong == [], wrong[:10]
    claimed = [(t, orjson.dumps(orjson.loads(t)).decode()) for t, r in zip(texts, records) if r[7]]
    assert [c for c in claimed if c[0] != c[1]] == []


def test_the_committed_powers_of_five_are_what_the_script_writes():
    """core/session/_pow5_table.h is generated (tools/make_pow5_table.py); an edit by hand would make conversions wrong."""
    import importlib.util
    from pathlib import Path

    script = Path(__file__).resolve().parents[3] / "tools" / "make_pow5_table.py"
    spec = importlib.util.spec_from_file_location("make_pow5_table", script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.HEADER.read_text() == module.text()
    assert module.rows()[342] == 1 << 127 and module.rows()[343] == 5 << 125  # 5^0 and 5^1, normalised
