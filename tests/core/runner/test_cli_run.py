"""`wsi run` and `wsi replay` on real files: JSON documents, exit status, errors on stderr."""
from __future__ import annotations

import json

from wsi_inspector.core.cli.dispatch import main
from tests.conftest import DEMO


def test_wsi_run_json_is_the_spec_result_and_exit_0(tmp_path, capsys):
    body = tmp_path / "area.js"
    body.write_text("const s = scene.read('site-1');\nlog('n', s.outline.length);\nreturn s.outline.length;\n")
    status = main(["run", str(DEMO), str(body), "--json"])
    document = json.loads(capsys.readouterr().out)
    assert status == 0
    assert list(document) == ["ok", "returned", "logs", "calls", "operations", "reads", "durationMs"]
    assert document["returned"] == 4 and document["logs"] == ["n 4"]


def test_wsi_run_lists_what_the_body_read_in_plain_words_too(tmp_path, capsys):
    # `reads` was in --json alone: a person running a body saw its calls but not what it read.
    body = tmp_path / "reads.js"
    body.write_text('const b = inputs.last("pack.corridorRuns");\nconst first = kept.spine[0];\n'
                    'for (let i = 0; i < 60; i++) inputs.at("c" + i);\nreturn { depth: b.bandDepth, s: b.spine.length };\n')
    assert main(["run", str(DEMO), str(body), "--at", "b3"]) == 0
    lines = capsys.readouterr().out.split("\n")
    at = lines.index("reads (62):")
    assert lines[at + 1] == '  1:18  inputs.last("pack.corridorRuns") \u2192 c9  /bandDepth /spine'
    assert lines[at + 2] == "  2:20  kept.spine  /0"
    assert lines[at + 3] == '  3:37  inputs.at("c0")  (nothing inside)'
    assert lines[at + 4] == '  3:37  inputs.at("c1") \u2192 c1  (nothing inside)'
    assert lines[at + 51] == "  \u2026 and 12 more (--json lists them)"


def test_wsi_run_failure_exits_1_and_names_the_place_on_stderr(tmp_path, capsys):
    body = tmp_path / "broken.ts"
    body.write_text("const a: number = 1;\n\nmissing();\n")
    status = main(["run", str(DEMO), str(body), "--at", "b2", "--timeout", "3"])
    captured = capsys.readouterr()
    assert status == 1
    assert captured.err.strip() == f"{body}:3:1: ReferenceError: missing is not defined"
    assert "failed in" in captured.out


def test_wsi_run_bad_usage_exits_2(tmp_path, capsys):
    assert main(["run", str(DEMO), str(tmp_path / "none.js")]) == 2
    assert "no such body file" in capsys.readouterr().err
    body = tmp_path / "b.js"
    body.write_text("return 1;")
    assert main(["run", str(DEMO), str(body), "--timeout", "0"]) == 2
    assert main(["run", str(DEMO), str(body), "--at", "nope"]) == 2


def test_wsi_replay_json_says_every_demo_body_is_the_same(capsys):
    status = main(["replay", str(DEMO), "--json"])
    document = json.loads(capsys.readouterr().out)
    assert status == 0
    assert document == {"bodies": [{"body": f"b{i}", "same": True} for i in range(1, 9)]}


def test_wsi_replay_diverging_session_exits_1_with_the_first_difference(tmp_path, capsys):
    document = json.loads(DEMO.read_text())
    document["bodies"][5]["result"]["returned"]["inset"] = 1400
    changed = tmp_path / "changed.json"
    changed.write_text(json.dumps(document))
    status = main(["replay", str(changed)])
    out = capsys.readouterr().out
    assert status == 1
    assert "b6  DIFFERS: the returned value differs at /inset: 1400 → 1500" in out
    assert "7 of 8 bodies the same" in out


def test_replay_names_the_recorded_calls_of_a_diverging_body_in_json_and_text(tmp_path, capsys):
    document = json.loads(DEMO.read_text())
    next(e for e in document["store"] if e["id"] == "c23")["output"]["level"] = 99
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(document))
    assert main(["replay", str(path), "--json"]) == 1
    b6 = next(b for b in json.loads(capsys.readouterr().out)["bodies"] if b["body"] == "b6")
    assert b6["recordedCalls"] == [f"c{n}" for n in range(22, 30)] and b6["firstDifference"]["fedBy"] == ["c23"]
    assert main(["replay", str(path)]) == 1
    text = capsys.readouterr().out
    assert "b6  DIFFERS: the returned value differs at /levels/1" in text
    assert "\n    answered from the record: c22, c23, c24" in text
