"""Retyped values (SPEC 7, issue 30): a body typed again a value it could have read."""
from __future__ import annotations

import json

from wsi_inspector.core.cli.dispatch import main
from tests.helpers.evidence_session import E1, session_file

TYPED = f"await modules.pack.corridorRuns({json.dumps(E1)});\nreturn 2;\n"
SPREAD = 'const base = inputs.last("pack.corridorRuns");\nawait modules.pack.corridorRuns({ ...base });\nreturn 2;\n'


def test_a_typed_copy_of_the_persons_edit_is_retyped(tmp_path, capsys):
    path = session_file(tmp_path, TYPED, E1)
    assert main(["retyped", str(path), "--json"]) == 1
    assert json.loads(capsys.readouterr().out) == {
        # The whole input (4 keys) equals e1's, the newest entry holding it; its 3-point spine is too small to count.
        "retyped": [{"body": "b2", "entry": "c2", "path": "", "sameAs": {"entry": "e1", "path": ""},
                     "bytes": len(json.dumps(E1, separators=(",", ":")))}],
        "notReplayed": [],
    }


def test_a_spread_copy_is_read_not_retyped(tmp_path, capsys):
    path = session_file(tmp_path, SPREAD, E1)
    assert main(["retyped", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"retyped": [], "notReplayed": []}


def test_check_warns_retyped_and_where_selects_it(tmp_path, capsys):
    typed = session_file(tmp_path, TYPED, E1, "typed.json")
    session_file(tmp_path, SPREAD, E1, "spread.json")
    main(["check", str(tmp_path), "--json", "--where", "retyped"])
    document = json.loads(capsys.readouterr().out)
    sessions = document["sessions"]
    assert [s["path"] for s in sessions] == [str(typed)]
    findings = [f for f in sessions[0]["findings"] if f["code"] == "retyped"]
    assert len(findings) == 1 and findings[0]["severity"] == "warning" and findings[0]["body"] == "b2"
    assert findings[0]["entry"] == "c2" and "equals entry e1 (whole)" in findings[0]["message"]


def test_a_kept_value_typed_again_is_retyped_and_read_is_not(tmp_path, capsys):
    route = [[0, 0], [6000, 0], [12000, 0], [18000, 0]]
    call = {"level": 2, "spine": route, "bandDepth": 34}
    typed = f"await modules.pack.corridorRuns({json.dumps(call)});\nreturn 2;\n"
    path = session_file(tmp_path, typed, call, "kept-typed.json", keep={"route": route})
    assert main(["retyped", str(path), "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["retyped"] == [
        {"body": "b2", "entry": "c2", "path": "/spine", "sameAs": {"kept": "route", "path": ""},
         "bytes": len(json.dumps(route, separators=(",", ":")))}]
    read = "await modules.pack.corridorRuns({ level: 2, spine: kept.route, bandDepth: 34 });\nreturn 2;\n"
    path = session_file(tmp_path, read, call, "kept-read.json", keep={"route": route})
    assert main(["retyped", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["retyped"] == []
