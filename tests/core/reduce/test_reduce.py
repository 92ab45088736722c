"""`wsi reduce` and the cut it writes: real sessions on disk, real V8, the reduced file checked by `wsi validate`/`run`/`replay`."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest

from wsi_inspector.core.cli.dispatch import main
from wsi_inspector.core.reduce.ddmin import Stopped, chunks, ddmin
from wsi_inspector.core.reduce.repro import cut_after, cut_document, write_cut
from wsi_inspector.core.session.load import load
from tests.conftest import ROOT
from tests.helpers.reduce_sessions import FAILING_BODY, NEEDED, failing_document, failing_session

ERROR = "RangeError: band depth 30 is too thin for a zone 9000 wide"


def _oracle(needed: set[int], log: list[list[int]]):
    def first_passing(candidates: list[list[int]]) -> int | None:
        for index, candidate in enumerate(candidates):
            log.append(candidate)
            if needed <= set(candidate):
                return index
        return None
    return first_passing


@pytest.mark.parametrize("needed", [{3, 120}, {0}, {149}, {10, 50, 90}, set()])
def test_ddmin_finds_exactly_the_items_a_failure_needs(needed):
    log: list[list[int]] = []
    assert ddmin(list(range(150)), _oracle(needed, log)) == sorted(needed)
    assert len(log) < 100


def test_ddmin_stops_with_the_best_list_so_far():
    asked = []

    def stop_after_three() -> bool:
        return len(asked) >= 3

    def first_passing(candidates):
        asked.append(candidates)
        return next((i for i, c in enumerate(candidates) if {3, 120} <= set(c)), None)

    with pytest.raises(Stopped) as stopped:
        ddmin(list(range(150)), first_passing, stop_after_three)
    assert {3, 120} <= set(stopped.value.best) and len(stopped.value.best) < 150


def test_chunks_cover_the_list_in_order():
    assert chunks(list(range(7)), 3) == [[0, 1, 2], [3, 4], [5, 6]]


def _reduce(capsys, *args: str) -> tuple[int, dict]:
    status = main(["reduce", *args, "--json"])
    out = capsys.readouterr().out
    return status, json.loads(out)


def test_wsi_reduce_keeps_only_the_two_entries_the_failure_needs(tmp_path, capsys):
    session = failing_session(tmp_path / "long.json")
    original = session.read_bytes()
    status, document = _reduce(capsys, str(session), "--body", "b6")
    out = tmp_path / "long.reduced.json"
    assert status == 0
    assert document == {"body": "b6", "out": str(out), "before": {"entries": 152, "kept": 3},
                        "after": {"entries": 2, "kept": 0}, "runs": document["runs"], "reproduced": True}
    assert 0 < document["runs"] < 100
    assert session.read_bytes() == original  # FILE is never written
    reduced = load(out)
    assert reduced.errors == []
    assert [e.key for e in reduced.state_at("b6").store] == list(NEEDED)
    assert [e["id"] for e in reduced.scene["entities"]] == ["site-1"]


def test_the_reduced_file_validates_and_wsi_run_at_b_fails_the_same_way(tmp_path, capsys):
    session = failing_session(tmp_path / "long.json")
    out = tmp_path / "small.json"
    assert main(["reduce", str(session), "--body", "b6", "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["validate", str(out)]) == 0
    capsys.readouterr()
    body = tmp_path / "b6.js"
    body.write_text(FAILING_BODY)
    assert main(["run", str(out), str(body), "--at", "b6"]) == 1
    assert capsys.readouterr().err.strip() == f"{body}:6:9: {ERROR}"


def test_a_kept_value_the_failure_needs_is_carried_and_the_others_are_not(tmp_path, capsys):
    session = failing_session(tmp_path / "kept.json", kept_needed=True)
    status, document = _reduce(capsys, str(session), "--body", "b6")
    assert status == 0 and document["after"] == {"entries": 2, "kept": 1}
    reduced = load(tmp_path / "kept.reduced.json")
    assert reduced.state_at("b6").kept == {"spacing": 900}
    assert main(["replay", str(tmp_path / "kept.reduced.json"), "--json"]) == 0  # b6 fails as recorded
    verdicts = json.loads(capsys.readouterr().out)["bodies"]
    assert verdicts == [{"body": "b6~kept", "same": True}, {"body": "b6", "same": True}]


def test_same_input_gives_the_same_output_file_whatever_the_parallelism(tmp_path, capsys):
    session = failing_session(tmp_path / "long.json")
    outs = []
    for jobs in ("1", "2", "3"):
        out = tmp_path / f"out{jobs}.json"
        assert main(["reduce", str(session), "--body", "b6", "--out", str(out), "--jobs", jobs]) == 0
        outs.append(out.read_bytes())
    capsys.readouterr()
    assert outs[0] == outs[1] == outs[2]


def test_a_difference_from_the_record_is_reduced_to_what_it_needs(tmp_path, capsys):
    document = failing_document(60)
    document["bodies"][6]["code"] = 'await modules.pack.rooms({ n: -1 });\nreturn inputs.at("c1").n + inputs.at("c2").n;'
    document["bodies"][6]["result"] = {"ok": True, "returned": 999}
    path = tmp_path / "differs.json"
    path.write_text(json.dumps(document))
    status, summary = _reduce(capsys, str(path), "--body", "b7")
    assert status == 0 and summary["reproduced"] is True and summary["before"]["entries"] == 62
    reduced = tmp_path / "differs.reduced.json"
    assert [e.key for e in load(reduced).state_at("b7").store] == ["c1", "c2"]
    main(["replay", str(reduced), "--json"])
    verdict = json.loads(capsys.readouterr().out)["bodies"][0]
    assert verdict["body"] == "b7" and verdict["firstDifference"]["kind"] == "returned"
    assert "999 → 3" in verdict["firstDifference"]["message"]


def test_edited_code_is_reduced_and_written_beside_the_record(tmp_path, capsys):
    session = failing_session(tmp_path / "long.json")
    code = tmp_path / "edited.js"
    code.write_text('const r = inputs.at("c5");\nreturn r.input.missing.deep;\n')
    status, summary = _reduce(capsys, str(session), "--body", "b6", "--code", str(code))
    assert status == 0 and summary["after"]["entries"] == 1
    written = json.loads((tmp_path / "long.reduced.json").read_text())
    assert [e["id"] for e in written["store"]] == ["c5", "b6-site"]
    body = next(b for b in written["bodies"] if b["id"] == "b6")
    assert body["editedCode"] == code.read_text() and body["code"] == FAILING_BODY


def test_a_body_that_neither_fails_nor_differs_exits_1_and_writes_nothing(tmp_path, capsys):
    session = failing_session(tmp_path / "long.json")
    assert main(["replay", str(session)]) == 0  # every body as recorded (b6 failed as it did then)
    capsys.readouterr()
    assert main(["reduce", str(session), "--body", "b7"]) == 1
    assert "no failure to reduce" in capsys.readouterr().err
    assert not (tmp_path / "long.reduced.json").exists()


@pytest.mark.parametrize("args, says", [
    (["--body", "nope"], "no body 'nope'"),
    ([], "the following arguments are required: --body"),
    (["--body", "b6", "--out", "{file}"], "that is FILE itself"),
    (["--body", "b6", "--jobs", "0"], "--jobs 0"),
    (["--body", "b6", "--out", "/nonexistent/folder/out.json"], "no folder /nonexistent/folder"),
])
def test_bad_usage_exits_2_with_one_line(tmp_path, capsys, args, says):
    session = failing_session(tmp_path / "long.json")
    original = session.read_bytes()
    status = main(["reduce", str(session), *[a.format(file=session) for a in args]])
    err = capsys.readouterr().err
    assert status == 2 and says in err and err.count("\n") == 1
    assert session.read_bytes() == original


def test_a_repro_cut_just_after_b_replays_the_same(tmp_path, capsys):
    document = failing_document(40)
    document["bodies"][5]["result"] = {"ok": True, "returned": {"ok": True}}  # b6 now diverges from its record
    path = tmp_path / "s.json"
    path.write_text(json.dumps(document))
    main(["replay", str(path), "--json"])
    before = next(v for v in json.loads(capsys.readouterr().out)["bodies"] if v["body"] == "b6")
    session = load(path)
    repro = write_cut(cut_after(session, "b6", code="return 1;"), tmp_path / "repro.json")
    assert main(["validate", str(repro)]) == 0
    capsys.readouterr()
    main(["replay", str(repro), "--json"])
    after = {v["body"]: v for v in json.loads(capsys.readouterr().out)["bodies"]}
    assert after["b6"] == before and after["b6~kept"]["same"] is True
    written = load(repro)
    assert len(written.state_at("b6").store) == 40 and written.state_at("b6").kept == session.state_at("b6").kept
    body = written.body("b6")
    assert body.code == session.body("b6").code and body.extra["editedCode"] == "return 1;"
    assert cut_document(cut_after(session, "b6"))["session"]["cut"] == {
        "from": "s.json", "body": "b6", "entries": [40, 40], "kept": [3, 3], "reduced": False}


def test_wsi_reduce_repro_writes_the_cut_without_reducing(tmp_path, capsys):
    session = failing_session(tmp_path / "long.json")
    assert main(["reduce", str(session), "--body", "b6", "--repro"]) == 0
    assert "wrote" in capsys.readouterr().out
    written = load(tmp_path / "long.repro.json")
    assert len(written.state_at("b6").store) == 150 and not written.errors


def test_ctrl_c_stops_and_writes_the_best_so_far(tmp_path):
    document = failing_document(150)
    # Every run takes a while, so the reduction is long (it needs few runs: the unread entries go at once).
    slow = "for (let i = 0; i < 2e8; i++) {}\n"
    document["bodies"][5]["code"] = slow + document["bodies"][5]["code"]
    path = tmp_path / "slow.json"
    path.write_text(json.dumps(document))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "wsi_inspector.gui.window.launch", "reduce", str(path), "--body", "b6", "--json", "--jobs", "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=env)
    assert proc.stderr is not None
    line = proc.stderr.readline().decode()  # the first progress line: the reduction is under way
    assert "wsi reduce:" in line and "Ctrl+C" in line
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)  # a wait bound; how soon it stops: tests/bench/bench_stop.py
    assert proc.returncode == 130, err
    summary = json.loads(out)
    assert summary["reproduced"] is True and 2 <= summary["after"]["entries"] <= 150
    reduced = load(tmp_path / "slow.reduced.json")
    assert not reduced.errors
    assert {e.key for e in reduced.state_at("b6").store} >= set(NEEDED)


def test_a_json_lines_session_with_a_kept_snapshot_reduces_to_a_json_file(tmp_path, capsys):
    document = failing_document(80, kept_needed=True)
    header = {k: document[k] for k in ("format", "session", "scene", "modules")}
    records = sorted([{"kind": "entry", **e} for e in document["store"]] + [{"kind": "body", **b} for b in document["bodies"]],
                     key=lambda r: r["seq"])
    for record in records:
        if record["kind"] == "body":
            record.pop("keep", None)
    position = next(i for i, r in enumerate(records) if r.get("id") == "b6")
    records.insert(position, {"kind": "kept", "kept": {"spacing": 900, "other": [1, 2]}})
    path = tmp_path / "live.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in [header, *records]) + "\n")
    status, summary = _reduce(capsys, str(path), "--body", "b6")
    assert status == 0 and summary["before"] == {"entries": 82, "kept": 2} and summary["after"] == {"entries": 2, "kept": 1}
    reduced = load(tmp_path / "live.reduced.json")
    assert reduced.form == "json" and not reduced.errors
    assert reduced.state_at("b6").kept == {"spacing": 900}
    assert "spacing: from a kept snapshot" in reduced.body("b6~kept").code


def test_before_entries_is_the_files_entry_count_with_entries_after_b(tmp_path, capsys):
    """Issue 33 point 5: a 78-entry file (76 before b6, b6's own call and b7's after it) reports 78, not 77."""
    session = tmp_path / "short.json"
    session.write_text(json.dumps(failing_document(76)))
    assert len(load(session).entries) == 78
    status, summary = _reduce(capsys, str(session), "--body", "b6")
    assert status == 0 and summary["before"] == {"entries": 78, "kept": 3} and summary["after"]["entries"] == 2
