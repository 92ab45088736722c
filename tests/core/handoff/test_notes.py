"""Notes beside a session: added and listed by `wsi notes`, reported by `wsi check`, bad sidecars located, FILE never written."""
from __future__ import annotations

import json
import shutil

from wsi_inspector.core.cli.dispatch import main
from wsi_inspector.core.handoff.notes import notes_path, parse_notes, read_notes
from tests.conftest import ROOT

DEMO = ROOT / "resources" / "sessions" / "demo.json"


def _demo(tmp_path):
    path = tmp_path / "demo.json"
    shutil.copyfile(DEMO, path)
    return path


def test_notes_are_added_listed_and_the_session_is_untouched(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("USER", "qa-anna")
    path = _demo(tmp_path)
    before = path.read_bytes()
    assert main(["notes", str(path), "--add", "b7 should have read my spine", "--body", "b7", "--json"]) == 0
    added = json.loads(capsys.readouterr().out)["added"]
    assert added["id"] == "n1" and added["on"] == {"body": "b7"} and added["author"] == "qa-anna"
    assert main(["notes", str(path), "--add", "this edit is what I meant", "--entry", "e2", "--path", "/spine/2",
                 "--author", "dee"]) == 0
    capsys.readouterr()
    assert main(["notes", str(path), "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [n["id"] for n in listed["notes"]] == ["n1", "n2"] and listed["problems"] == []
    assert listed["notes"][1]["on"] == {"entry": "e2", "path": "/spine/2"} and listed["notes"][1]["author"] == "dee"
    assert path.read_bytes() == before
    sidecar = json.loads(notes_path(path).read_text())
    assert sidecar["format"] == "worker-session-notes/1"


def test_a_note_on_nothing_or_on_an_unknown_body_is_refused(tmp_path, capsys):
    path = _demo(tmp_path)
    assert main(["notes", str(path), "--add", "x"]) == 2
    assert "exactly one of --body" in capsys.readouterr().err
    assert main(["notes", str(path), "--add", "x", "--body", "b99"]) == 2
    assert "no body 'b99'" in capsys.readouterr().err
    assert not notes_path(path).exists()


def test_a_bad_sidecar_is_located_and_never_crashes(tmp_path, capsys):
    path = _demo(tmp_path)
    notes_path(path).write_text('{"format": "worker-session-notes/1", "notes": [\n  {"id": "n1"}, ')
    assert main(["notes", str(path)]) == 1
    assert "demo.json.notes.json:2:" in capsys.readouterr().err
    # The column counts characters, as an editor shows them: "é" is two bytes and one column.
    bad = parse_notes('{"notes": ["é", x]}'.encode(), "x.notes.json")
    assert bad.problems[0].startswith("x.notes.json:1:17: not JSON")
    found = parse_notes(json.dumps({"format": "worker-session-notes/1", "notes": [
        {"id": "n1", "on": {"body": "b1"}, "text": "ok", "author": "a", "at": "2026-12-04T10:00:00Z"},
        {"id": "n2", "on": {}, "text": "on nothing", "author": "a", "at": "2026-12-04T10:00:00Z"},
        {"id": "n1", "on": {"entry": "c1"}, "text": "same id", "author": "a", "at": "2026-12-04T10:00:00Z"}]}).encode(), "x.notes.json")
    assert [n.id for n in found.notes] == ["n1"]
    assert found.problems[0].startswith("x.notes.json: /notes/1/on:") and "/notes/2/id" in found.problems[1]
    assert main(["notes", str(path), "--add", "x", "--body", "b1"]) == 2  # a broken sidecar is not rewritten
    assert "left as it is" in capsys.readouterr().err


def test_check_reports_the_notes(tmp_path, capsys):
    path = _demo(tmp_path)
    main(["notes", str(path), "--add", "look here", "--body", "b2"])
    capsys.readouterr()
    main(["check", str(tmp_path), "--json"])
    document = json.loads(capsys.readouterr().out)
    sessions = document["sessions"]
    assert [s["path"] for s in sessions] == [str(path)]  # the sidecar is not taken for a session
    assert sessions[0]["notes"][0]["text"] == "look here"
    assert read_notes(path).notes[0].body == "b2"


def _noted_demo(tmp_path, capsys):
    path = _demo(tmp_path)
    main(["notes", str(path), "--add", "b7 should have read my spine near Ward 2A", "--body", "b7", "--author", "qa"])
    main(["notes", str(path), "--add", "this edit is what I meant", "--entry", "e2", "--path", "/spine/2", "--author", "qa"])
    main(["notes", str(path), "--add", "an early body", "--body", "b1", "--author", "qa"])
    capsys.readouterr()
    return path


def test_a_repro_carries_the_notes_of_what_it_keeps(tmp_path, capsys):
    path = _noted_demo(tmp_path, capsys)
    before = path.read_bytes()
    out = tmp_path / "b7.repro.json"
    assert main(["reduce", str(path), "--body", "b7", "--repro", "--out", str(out)]) == 0
    carried = json.loads(out.read_text())["notes"]
    assert carried["format"] == "worker-session-notes/1"
    assert [n["id"] for n in carried["notes"]] == ["n1", "n2"]  # b1 is not in the cut after b7
    assert not notes_path(out).exists() and path.read_bytes() == before
    capsys.readouterr()
    assert main(["notes", str(out), "--json"]) == 0  # the repro's own notes are listed
    assert [n["text"] for n in json.loads(capsys.readouterr().out)["notes"]][0].startswith("b7 should")
    assert main(["notes", str(out), "--add", "seen by the vendor", "--body", "b7", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["added"]["id"] == "n3"  # not an id the repro carries


def test_a_reduced_redacted_file_carries_its_notes_redacted(tmp_path, capsys):
    path = _noted_demo(tmp_path, capsys)
    out = tmp_path / "b7.reduced.json"
    assert main(["reduce", str(path), "--body", "b7", "--redact", "--out", str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["reproduced"] is True
    data = out.read_bytes()
    assert b"Ward 2A" not in data and b"Main street" not in data
    notes = json.loads(data)["notes"]["notes"]
    assert [n["id"] for n in notes] == ["n1"]  # the reduced cut keeps no entry e2
    assert notes[0]["text"].startswith("b7 should have read my spine near text-")
    assert (tmp_path / "b7.reduced.json.redaction.json").exists()
    assert main(["reduce", str(out), "--body", "b7", "--out", str(tmp_path / "again.json"), "--json"]) == 0
    assert json.loads((tmp_path / "again.json").read_text())["notes"]["notes"] == notes
