"""The whole road from a session file to `wsi manifest`'s numbers, against V8 reading the same file.

V8 parses the file text itself (JSON.parse, as the editor would) and measures every input, every
input's keys and the editor-shaped store; the inspector loads the same bytes in each form a
session can take (compact, pretty with raw unicode, JSON Lines, gzip) and must say the same.
"""
import gzip
import json

import pytest

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import wsi_inspector.core.session.store_scan
from wsi_inspector.core.search.manifest import inputs_manifest
from wsi_inspector.core.session.load import load_bytes
from tests.helpers.json_values import UTF8_LENGTH_JS, json_values

MEASURE_JS = """
function measure(texts) {
  const store = texts.map((t) => JSON.parse(t));
  const keys = (v) => (v !== null && typeof v === "object" && !Array.isArray(v)) ? Object.keys(v) : null;
  const shaped = store.map((e) => Object.assign({id: e.id, call: e.call, input: e.input},
    e.unit !== undefined ? {unit: e.unit} : {}, e.applied ? {applied: true} : {}));
  return JSON.stringify({
    inputs: store.map((e) => utf8Length(JSON.stringify(e.input))),
    keys: store.map((e) => keys(e.input)),
    arrays: store.map((e) => Array.isArray(e.input) ? e.input.length : null),
    total: utf8Length(JSON.stringify(shaped)),
  });
}
"""

HEAD = {"format": "worker-session/1", "session": {"id": "v8"}}


@pytest.fixture(autouse=True, params=["c scan", "python"])
def reader(request, monkeypatch):
    """Each test once with the JSON form's C scan (wsi_inspector.core.session.store_scan), once with the Python reader alone."""
    if request.param == "python":
        monkeypatch.setattr(wsi_inspector.core.session.store_scan, "_scan", None)
        monkeypatch.setattr(wsi_inspector.core.session.store_scan, "_scan_record", None)
    elif not wsi_inspector.core.session.store_scan.BUILT:
        pytest.skip("built without a C compiler")
    return request.param
records = st.lists(st.tuples(json_values, st.sampled_from([None, "mm", "m"]), st.booleans()), min_size=1, max_size=6)


def forms(store):
    """The same session as the bytes of each form a file can take, with its name."""
    ascii_doc = json.dumps({**HEAD, "store": store}, ensure_ascii=True)
    yield "compact.json", ascii_doc.encode()
    try:
        yield "pretty.json", json.dumps({**HEAD, "store": store}, indent=1, ensure_ascii=False).encode()
    except UnicodeEncodeError:
        pass  # a lone surrogate has no UTF-8 spelling; the escaped forms carry it
    lines = [json.dumps(HEAD)] + [json.dumps({"kind": "entry", **e}) for e in store]
    yield "lines.jsonl", "\n".join(lines).encode()
    yield "compact.json.gz", gzip.compress(ascii_doc.encode())


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(records)
def test_manifest_numbers_match_v8_reading_the_same_file(v8, generated):
    store = []
    for i, (value, unit, applied) in enumerate(generated):
        entry = {"id": f"c{i}", "call": "pack.corridorRuns.score", "input": value}
        if unit:
            entry["unit"] = unit
        if applied:
            entry["applied"] = True
        store.append(entry)
    v8.eval(UTF8_LENGTH_JS + MEASURE_JS)
    texts = [json.dumps(e, ensure_ascii=True) for e in store]
    want = json.loads(v8.eval(f"measure({json.dumps(texts)})"))
    for name, data in forms(store):
        session = load_bytes(data, name)
        assert not session.errors, (name, session.errors)
        manifest = inputs_manifest(session.state_at(None))
        lines = manifest["entries"]
        assert [line["bytes"] for line in lines] == want["inputs"], name
        assert [line.get("keys") for line in lines] == want["keys"], name
        assert [line.get("array") for line in lines] == want["arrays"], name
        assert manifest["bytes"] == want["total"], name


# Each way an input's text can differ from what JSON.stringify writes back, written by hand: the
# inspector must measure what V8 measures after JSON.parse, never the text as it stands.
TEXT_FORMS = [
    '{"a":[1,2],"b":"x"}',  # already as JSON.stringify writes it
    '{ "a" : [ 1 , 2 ] ,\n\t"b" : "x y" }', '[\r\n1,\n2\r\n]',  # whitespace outside strings
    "[1.0,-1.0,0.0,-0.0,-0,1.50,100.000]", "[1E5,1e+5,1e5,1.5e-7,1e21,1e-6,0.000001,0.0000001]",  # number spellings
    "[123456789012345678,9007199254740993,0.10000000000000001,1.00000000000000011,5e-324,1e400]",  # digits
    "[0.1,1e16,1e20,1.5e300,-2.5e-300,12345.678,4200]",
    r'["\/","\u0041","\u00e9","\u001F","\u001f","\b","\u0008","\ud83d\ude00","\ud800","😀","é"]',  # escapes
    r'{"a\u0062":1,"\n":2}',  # escaped keys
    '{"b":1,"2":2,"1":3,"-1":4,"01":5,"4294967295":6,"4294967294":7}',  # integer-like keys go first in JS
    '{"a":1,"b":2,"a":333}', '{"p":{"x":1,"x":22},"q":[{"y":1,"y":[1,2,3]}]}',  # repeated keys, nested too
    '{"__proto__":{"x":1},"constructor":2}', '"just a string"', "-0", "1.0", "null", "true", "[]", "{}",
]


def test_every_way_a_text_can_differ_is_measured_as_v8_measures_it(v8):
    v8.eval(UTF8_LENGTH_JS + MEASURE_JS)
    records = [f'{{"id":"c{i}","call":"pack.corridorRuns.score","input":{text}}}' for i, text in enumerate(TEXT_FORMS)]
    want = json.loads(v8.eval(f"measure({json.dumps(records)})"))
    head = json.dumps(HEAD)
    files = {
        "compact.json": (head[:-1] + ',"store":[' + ",".join(records) + "]}").encode(),
        # A line cannot hold a newline outside strings: there the whitespace forms use spaces.
        "lines.jsonl": "\n".join([head] + [r.replace("{", '{"kind":"entry",', 1).replace("\n", " ").replace("\r", " ")
                                           for r in records]).encode(),
    }
    for name, data in files.items():
        session = load_bytes(data, name)
        assert not session.errors, (name, session.errors)
        lines = inputs_manifest(session.state_at(None))["entries"]
        assert [line["bytes"] for line in lines] == want["inputs"], name
        assert [line.get("keys") for line in lines] == want["keys"], name
        assert [line.get("array") for line in lines] == want["arrays"], name
        assert inputs_manifest(session.state_at(None))["bytes"] == want["total"], name
