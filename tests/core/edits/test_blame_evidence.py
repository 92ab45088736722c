"""Blame with evidence (SPEC 7, issue 30): a body's carried value is the earlier entry's only if the body read it.

Each session: body b1's call c1, the person's edit e1 of it (band depth 32 → 34), then body b2 whose
call c2 has the same input as e1, made in a different way each time.
"""
from __future__ import annotations

import json

import pytest

from wsi_inspector.core.edits.body_reads import body_reads
from wsi_inspector.core.cli.dispatch import main
from wsi_inspector.core.edits.evidence import Evidence
from wsi_inspector.core.edits.provenance import Provenance, blame_document
from wsi_inspector.core.session.load import load
from tests.helpers.evidence_session import E1, SPINE, session_file


def blamed(path):
    session = load(path)
    provenance = Provenance(session)
    entry = session.entry("c2")
    origins = provenance.blame(entry)
    reads = body_reads(session, "b2")
    Evidence(provenance).judge(entry, origins, reads)
    return {leaf["path"]: leaf for leaf in blame_document(session, "c2", origins, "reads")["leaves"]}, reads


def test_typed_again_is_equal_and_the_bodys_own(tmp_path):
    """The issue's case: b2 types `bandDepth: 34` itself, never touching inputs."""
    code = f"await modules.pack.corridorRuns({json.dumps(E1)});\nreturn 2;\n"
    leaves, reads = blamed(session_file(tmp_path, code, E1))
    assert reads == []
    assert leaves["/bandDepth"] == {
        "path": "/bandDepth", "value": 34, "setBy": "body", "entry": "c2", "body": "b2", "evidence": "equal",
        "equalTo": "e1", "text": "typed again by body b2 (call c2): equal to the person's edit e1, never read there"}
    assert leaves["/level"]["evidence"] == "equal" and leaves["/level"]["equalTo"] == "c1"


def test_spread_from_inputs_last_is_read_and_stays_the_persons(tmp_path):
    code = 'const base = inputs.last("pack.corridorRuns");\nawait modules.pack.corridorRuns({ ...base });\nreturn 2;\n'
    leaves, reads = blamed(session_file(tmp_path, code, E1))
    assert reads == [{"what": "inputs.last", "arg": "pack.corridorRuns", "entry": "e1",
                      "paths": ["/level", "/spine", "/bandDepth", "/clearWidth"], "line": 1, "column": 21}]
    assert leaves["/bandDepth"] == {
        "path": "/bandDepth", "value": 34, "setBy": "person", "entry": "e1",
        "carriedBy": {"entry": "c2", "by": "body", "body": "b2"}, "evidence": "read",
        "read": {"body": "b2", "line": 1, "column": 21, "expr": 'inputs.last("pack.corridorRuns").bandDepth'},
        "text": "carried by body b2 (call c2) from the person's edit e1, read at line 1 "
                '(inputs.last("pack.corridorRuns").bandDepth)'}
    assert leaves["/level"]["setBy"] == "body" and leaves["/level"]["entry"] == "c1" and leaves["/level"]["evidence"] == "read"


def test_destructured_and_through_a_helper_are_read_the_rest_typed(tmp_path):
    code = ('function depthOf(v) {\n  return v.bandDepth;\n}\nconst { clearWidth } = inputs.last("pack.corridorRuns");\n'
            f'const bandDepth = depthOf(inputs.at("e1"));\n'
            f'await modules.pack.corridorRuns({{ level: 2, spine: {json.dumps(SPINE)}, bandDepth, clearWidth }});\nreturn 2;\n')
    leaves, reads = blamed(session_file(tmp_path, code, E1))
    # Both calls hand back the same entry (one proxy, so identity holds): its paths are shared.
    assert reads == [
        {"what": "inputs.last", "arg": "pack.corridorRuns", "entry": "e1", "paths": ["/clearWidth", "/bandDepth"],
         "line": 4, "column": 31},
        {"what": "inputs.at", "arg": "e1", "entry": "e1", "paths": ["/clearWidth", "/bandDepth"], "line": 5, "column": 34},
    ]
    assert leaves["/bandDepth"]["evidence"] == "read" and leaves["/bandDepth"]["setBy"] == "person"
    assert leaves["/bandDepth"]["read"] == {"body": "b2", "line": 4, "column": 31,
                                            "expr": 'inputs.last("pack.corridorRuns").bandDepth'}
    assert leaves["/clearWidth"]["evidence"] == "read"
    assert leaves["/level"]["evidence"] == "equal" and leaves["/spine/1"]["evidence"] == "equal"


def test_read_then_overwritten_is_the_bodys_and_the_rest_read_whole(tmp_path):
    code = ('const b = inputs.last("pack.corridorRuns");\nb.bandDepth = 36;\n'
            "await modules.pack.corridorRuns(b);\nreturn 2;\n")
    leaves, reads = blamed(session_file(tmp_path, code, {**E1, "bandDepth": 36}))
    assert reads == [{"what": "inputs.last", "arg": "pack.corridorRuns", "entry": "e1", "paths": [""],
                      "line": 1, "column": 18}]
    assert leaves["/bandDepth"] == {"path": "/bandDepth", "value": 36, "setBy": "body", "entry": "c2", "body": "b2",
                                    "text": "set by body b2 (call c2)"}
    assert leaves["/clearWidth"]["read"]["expr"] == 'inputs.last("pack.corridorRuns")'


def test_wsi_diff_blame_json_has_the_basis_and_evidence(tmp_path, capsys):
    code = 'const base = inputs.last("pack.corridorRuns");\nawait modules.pack.corridorRuns({ ...base });\nreturn 2;\n'
    path = session_file(tmp_path, code, E1, "cli.json")
    assert main(["diff", str(path), "--blame", "c2", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["basis"] == "reads"
    assert {leaf["path"]: leaf["evidence"] for leaf in document["leaves"]}["/bandDepth"] == "read"


def test_a_value_read_from_kept_is_read_with_its_expression(tmp_path):
    code = "await modules.pack.corridorRuns({ level: 2, spine: kept.route, bandDepth: 34, clearWidth: 2400 });\nreturn 2;\n"
    leaves, reads = blamed(session_file(tmp_path, code, E1, keep={"route": SPINE}))
    assert reads == [{"what": "kept", "arg": None, "entry": None, "name": "route", "paths": [""], "line": 1, "column": 57}]
    assert leaves["/spine/1"]["evidence"] == "read"
    assert leaves["/spine/1"]["read"] == {"body": "b2", "line": 1, "column": 57, "expr": "kept.route"}
    assert leaves["/bandDepth"]["evidence"] == "equal"


@pytest.mark.parametrize("entry", ["e1"])
def test_a_persons_edit_has_no_evidence_to_give(tmp_path, capsys, entry):
    path = session_file(tmp_path, "return 2;\n", E1, "edit.json")
    assert main(["diff", str(path), "--blame", entry, "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert "basis" not in document and all("evidence" not in leaf for leaf in document["leaves"])


def test_a_body_that_cannot_be_replayed_is_blamed_by_value_only_and_says_so(tmp_path, capsys):
    path = session_file(tmp_path, "while (true) {}\n", E1, "stuck.json")
    document = json.loads(path.read_text())
    document["bodies"][1]["code"] = ""  # nothing to replay
    path.write_text(json.dumps(document))
    assert main(["diff", str(path), "--blame", "c2", "--json"]) == 0
    captured = capsys.readouterr()
    document = json.loads(captured.out)
    assert document["basis"] == "value" and all("evidence" not in leaf for leaf in document["leaves"])
    assert {leaf["path"]: leaf["setBy"] for leaf in document["leaves"]}["/bandDepth"] == "person"
    assert "body b2 could not be replayed: carried values are by equal values only" in captured.err


def test_an_entry_whose_id_is_past_2_53_is_read_as_itself(tmp_path):
    """JavaScript reads the id 2^60 as 1152921504606847000, no id of the session: the read names the entry by its own."""
    code = 'const base = inputs.last("pack.corridorRuns");\nawait modules.pack.corridorRuns({ ...base });\nreturn 2;\n'
    path = session_file(tmp_path, code, E1)
    document = json.loads(path.read_text())
    document["store"][1]["id"] = 2**60
    path.write_text(json.dumps(document))
    leaves, reads = blamed(path)
    assert [read["entry"] for read in reads] == [2**60]
    assert leaves["/bandDepth"]["evidence"] == "read" and leaves["/bandDepth"]["entry"] == 2**60
