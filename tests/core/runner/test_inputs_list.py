"""`inputs.list(wanted?)` in a body: the manifest lines of the matching entries, as plain frozen data.

The lines are exactly Python's (`run_inputs.manifest_entry`, sizes as JavaScript's JSON.stringify
measures them), the call is a read (`what: "inputs.list"`, SPEC 7), and a body that replaces
built-ins gets the same answer.
"""
from __future__ import annotations

import json


from wsi_inspector.core.jsrules.run_inputs import make_inputs, manifest_entry, trim_store
from wsi_inspector.core.runner.envelope import build_envelope


def run(runner, session, code):
    result = runner.run(build_envelope(session, code))
    assert result["ok"], result.get("error")
    return result


def seen_store(session):
    """The store the body is handed: trimmed to the session's storeBytes, as the editor does."""
    store = session.state_at(None).store
    return store if session.caps.store_bytes is None else trim_store(store, session.caps.store_bytes)[0]


def expected(session, wanted=None):
    return [manifest_entry(e) for e in make_inputs(seen_store(session)).list(wanted)]


def test_list_hands_the_python_manifest_of_all_entries_or_of_the_matching_ones(runner, demo):
    result = run(runner, demo, "return [inputs.list(), inputs.list('pack.corridorRuns'), inputs.list('pack.corridor')];")
    everything, corridor, partial = result["returned"]
    assert everything == expected(demo) and len(everything) == len(seen_store(demo))
    assert corridor == expected(demo, "pack.corridorRuns") and corridor
    assert all(line["call"].startswith("pack.corridorRuns") for line in corridor)
    assert partial == []  # a partial segment matches nothing (callMatches)


def test_list_is_recorded_as_a_read_with_no_entry_and_the_positions_read(runner, demo):
    code = "const runs = inputs.list('pack.corridorRuns');\nconst first = runs[0];\nreturn first.id;\n"
    result = run(runner, demo, code)
    assert result["returned"] == expected(demo, "pack.corridorRuns")[0]["id"]
    assert result["reads"] == [
        {"what": "inputs.list", "arg": "pack.corridorRuns", "entry": None, "paths": ["/0"], "line": 1, "column": 21},
    ]
    everything = run(runner, demo, "return inputs.list().length;")
    assert everything["reads"][0]["arg"] is None and everything["reads"][0]["paths"] == []


def test_a_body_that_replaces_array_methods_still_gets_the_right_list(runner, demo):
    code = (
        "Array.prototype.push = function () { throw new Error('push'); };\n"
        "Array.prototype.filter = function () { return ['fooled']; };\n"
        "Object.defineProperty(Array.prototype, '0', { set() { throw new Error('setter'); }, configurable: true });\n"
        "Object.defineProperty(Object.prototype, 'bytes', { set() { throw new Error('setter'); }, configurable: true });\n"
        "Array.isArray = () => false;\n"
        "const runs = inputs.list('pack.corridorRuns');\n"
        "delete Array.prototype[0]; delete Object.prototype.bytes;\n"
        "return JSON.parse(JSON.stringify(runs));\n"
    )
    assert run(runner, demo, code)["returned"] == expected(demo, "pack.corridorRuns")


def test_the_list_is_plain_frozen_data(runner, demo):
    code = (
        "const runs = inputs.list();\n"
        "const line = runs[0];\n"
        "const bytes = line.bytes;\n"
        "line.bytes = -1; runs[0] = null;  // a body is sloppy code: writes to frozen data are ignored\n"
        "const unchanged = line.bytes === bytes && runs[0] === line;\n"
        "return { keys: Object.keys(line), indexes: Object.keys(runs).length, text: JSON.stringify(runs),\n"
        "  frozen: Object.isFrozen(runs) && Object.isFrozen(line) && (!line.keys || Object.isFrozen(line.keys)),\n"
        "  isArray: Array.isArray(runs), unchanged, again: inputs.list()[0] === line };\n"
    )
    value = run(runner, demo, code)["returned"]
    lines = expected(demo)
    assert value["keys"] == list(lines[0])  # id, call, unit?, applied?, keys|array, bytes: Python's order
    assert value["indexes"] == len(lines)
    assert json.loads(value["text"]) == lines
    assert value["frozen"] and value["isArray"] and value["unchanged"] and value["again"]
