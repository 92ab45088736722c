"""`wsi redact`: no original text or coordinate survives, placeholders are stable, the failure is kept, FILE is untouched."""
from __future__ import annotations

import json
import re
import shutil

from wsi_inspector.core.cli.dispatch import main
from wsi_inspector.core.handoff.redact import Redaction, redact_code
from tests.conftest import ROOT
from tests.helpers.reduce_sessions import failing_session

DEMO = ROOT / "resources" / "sessions" / "demo.json"


def _redact(capsys, *args: str) -> tuple[int, dict]:
    status = main(["redact", *args, "--json"])
    return status, json.loads(capsys.readouterr().out)


def _free_texts(document: dict) -> set[str]:
    """The demo's free texts, gathered by hand: names, titles, docs, mock messages, comments, log words."""
    texts = {document["session"][k] for k in ("title", "model", "editor")}
    texts |= {e["name"] for e in document["scene"]["entities"]}
    texts |= {m["doc"] for m in document["modules"].values()}
    texts |= {m["throws"] for m in document["scene"]["mocks"].values() if "throws" in m}
    for body in document["bodies"]:
        texts |= {line[2:].strip() for line in body["code"].splitlines() if line.startswith("//")}
    texts |= {"m2, perimeter", "re-run", "runs; score"}
    return {t for t in texts if len(t) >= 3}


def _numbers(value, in_point=False, out=None, key=None):
    """(coordinate spellings, other number spellings) of a value: the numbers of [x, y] pairs are coordinates."""
    out = out if out is not None else (set(), set())
    if isinstance(value, dict):
        for k, v in value.items():
            _numbers(v, False, out, k)
    elif isinstance(value, list):
        pair = len(value) == 2 and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
        for v in value:
            _numbers(v, pair and key not in ("size", "module"), out, key)
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        out[0 if in_point else 1].add(json.dumps(value))
    return out


def test_redacted_demo_keeps_no_original_text_or_coordinate(tmp_path, capsys):
    source = tmp_path / "demo.json"
    shutil.copyfile(DEMO, source)
    before = source.read_bytes()
    status, document = _redact(capsys, str(source))
    assert status == 0 and document["texts"] > 30 and document["coordinates"] > 100
    out = (tmp_path / "demo.redacted.json").read_bytes()
    assert source.read_bytes() == before  # FILE is never written
    original = json.loads(before)
    for text in _free_texts(original):
        assert text.encode() not in out, text
    coordinates, others = _numbers(original)
    searched = coordinates - others  # a spelling that is also a kept number (a distance) may stay
    assert len(searched) > 20
    for spelling in searched:  # the bodies' code too: the points it writes as numbers moved with the data
        assert not re.search(rb"(?<![\d.])" + re.escape(spelling.encode()) + rb"(?![\d.])", out), spelling
    report = json.loads((tmp_path / "demo.redacted.json.redaction.json").read_text())
    assert report["format"] == "worker-session-redaction/1" and report["kinds"]["code comments"] == 8
    assert not any(text.encode() in json.dumps(report).encode() for text in _free_texts(original))


def test_the_redacted_demo_replays_as_the_original_does(tmp_path, capsys):
    out = tmp_path / "copy.json"
    assert _redact(capsys, str(DEMO), "--out", str(out))[0] == 0
    assert main(["replay", str(out), "--json"]) == 0
    assert all(body["same"] for body in json.loads(capsys.readouterr().out)["bodies"])


def test_points_written_in_code_move_and_sizes_do_not():
    redaction = Redaction(known=set(), offset_m=(381, 762))
    code = ("const a = [15000, y]; const b = { at: [3000 + i * 3600, 12000], module: [3600, 4800] };\n"
            "const c = p[0]; for (const d of [28, 30, 34]) {} const e = [-5, 2.5];")
    out = redact_code(code, "js", redaction, "/bodies/0/code", "mm")
    assert "[396000, y]" in out and "[384000 + i * 3600, 774000]" in out and "module: [3600, 4800]" in out
    assert "p[0]" in out and "[28, 30, 34]" in out and "[-5, 762002.5]" in out


def test_placeholders_are_stable_across_runs(tmp_path, capsys):
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    assert _redact(capsys, str(DEMO), "--out", str(first))[0] == 0
    assert _redact(capsys, str(DEMO), "--out", str(second))[0] == 0
    assert first.read_bytes() == second.read_bytes()
    copy = json.loads(first.read_text())
    names = {e["id"]: e["name"] for e in copy["scene"]["entities"]}
    assert re.fullmatch(r"text-\d+", names["ward-1"]) and names["ward-1"] != names["ward-2"]
    assert copy["session"]["title"] == "text-1"  # numbered by first appearance


def test_redacted_demo_still_fails_the_same_way(tmp_path, capsys):
    out = tmp_path / "copy.json"
    status, document = _redact(capsys, str(DEMO), "--out", str(out), "--body", "b7")
    assert status == 0 and document["reproduced"] is True and document["keptAsIs"] == []
    copy = json.loads(out.read_text())
    body = next(b for b in copy["bodies"] if b["id"] == "b7")
    throws = copy["scene"]["mocks"]["site.boundary.offset"]["throws"]
    assert re.fullmatch(r"text-\d+", throws) and body["result"]["error"] == f"Error: {throws}"
    (tmp_path / "b7.js").write_text(body["code"])
    assert main(["run", str(out), str(tmp_path / "b7.js"), "--at", "b7", "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["error"]["message"] == throws
    assert document["coordinates"] > 100  # the caps were fitted, so the moved coordinates still reproduce


def test_a_redacted_reduced_repro_still_reproduces(tmp_path, capsys):
    source = failing_session(tmp_path / "long.json", 60)
    reduced = tmp_path / "long.reduced.json"
    assert main(["reduce", str(source), "--body", "b6", "--out", str(reduced), "--json"]) == 0
    capsys.readouterr()
    status, document = _redact(capsys, str(reduced), "--body", "b6")
    assert status == 0 and document["reproduced"] is True
    out = (tmp_path / "long.reduced.redacted.json").read_bytes()
    assert b"is too thin for a zone" not in out and b"ward 2" not in out
    assert b"band depth" not in out and b"RangeError: text-" in out


def test_a_redaction_that_would_change_the_failure_is_kept_and_said(tmp_path, capsys):
    document = json.loads(DEMO.read_text())
    document["bodies"].append({"id": "b9", "code": 'const n = scene.read("room-1").name;\n'
                               'if (n.startsWith("Bed")) throw new Error(`room ${n} is a bed room`);\nreturn 1;',
                               "result": {"ok": False, "error": "Error: room Bed 1 is a bed room"}})
    source = tmp_path / "s.json"
    source.write_text(json.dumps(document))
    status, report = _redact(capsys, str(source), "--body", "b9")
    assert status == 0 and report["reproduced"] is True
    assert len(report["keptAsIs"]) == 2 and all("b9" in item["why"] for item in report["keptAsIs"])
    copy = (tmp_path / "s.redacted.json").read_bytes()
    assert b'"Bed 1"' in copy and b"Nurse station" not in copy


def test_code_keeps_ids_keys_and_calls_and_still_reads():
    redaction = Redaction(known={"site-1", "kind"})
    code = ('// where the ward is\nconst a = {"kind": "North wing", b: `ward ${x} of ${"site-1"}`};\n'
            '/* two\n lines */ log(\'it\\\'s\', "site-1");')
    out = redact_code(code, "js", redaction, "/bodies/0/code")
    assert "North" not in out and "ward" not in out and "two" not in out and "it\\'s" not in out
    assert '"kind":' in out and '"site-1"' in out and out.count("\n") == code.count("\n")
    assert "`text-3 ${x} text-4 ${\"site-1\"}`" in out


def test_bad_usage_is_one_line(tmp_path, capsys):
    assert main(["redact", str(tmp_path / "none.json")]) == 2
    assert "no such file" in capsys.readouterr().err
    assert main(["redact", str(DEMO), "--body", "b1"]) == 1
    assert "nothing to keep" in capsys.readouterr().err


def _as_json_lines(document: dict) -> str:
    """The demo as JSON Lines: the header, then each body just before its first call, then the rest in order."""
    header = {k: v for k, v in document.items() if k not in ("store", "bodies", "kept")}
    bodies = {b["id"]: b for b in document["bodies"]}
    lines, placed = [header], set()
    for entry in document["store"]:
        if entry.get("body") in bodies and entry["body"] not in placed:
            placed.add(entry["body"])
            lines.append({"kind": "body", **bodies[entry["body"]]})
        lines.append({"kind": "entry", **entry})
    lines += [{"kind": "body", **b} for key, b in bodies.items() if key not in placed]
    return "\n".join(json.dumps(line) for line in lines) + "\n"


def test_json_lines_are_redacted_as_json_lines_and_still_reproduce(tmp_path, capsys):
    original = json.loads(DEMO.read_text())
    source = tmp_path / "demo.jsonl"
    source.write_text(_as_json_lines(original) + '{"kind": "entry", "id": "cut sho')
    status, document = _redact(capsys, str(source), "--body", "b7")
    assert status == 0 and document["reproduced"] is True
    out = tmp_path / "demo.redacted.jsonl"
    data = out.read_bytes()
    for text in _free_texts(original):
        assert text.encode() not in data, text
    assert b"cut sho" not in data
    report = json.loads((tmp_path / "demo.redacted.jsonl.redaction.json").read_text())
    assert report["leftOut"] == ["demo.jsonl:46: not JSON; the line is not in the copy"]
    assert main(["validate", str(out)]) == 0


def test_keep_text_keeps_the_values_of_those_keys(tmp_path, capsys):
    out = tmp_path / "named.json"
    status, document = _redact(capsys, str(DEMO), "--out", str(out), "--keep-text", "name, doc")
    assert status == 0 and {"where": "the values of name", "why": "--keep-text asked to keep them"} in document["keptAsIs"]
    copy = json.loads(out.read_text())
    assert copy["scene"]["entities"][0]["name"] == "North wing plot"
    assert copy["modules"]["site.boundary"]["doc"] == "The site outline: area, perimeter, offsets."
    assert copy["session"]["title"].startswith("text-")
