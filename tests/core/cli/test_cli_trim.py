"""`wsi trim`: SPEC 6's JSON exactly, the readable summary and warnings, and clear usage errors."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from wsi_inspector.core.cli import dispatch
from wsi_inspector.core.jsrules.jsonsize import json_bytes
from tests.conftest import BROKEN, DEMO

WSI = Path(sys.executable).with_name("wsi")


def trim(capsys, *args):
    status = dispatch.main(["trim", *map(str, args)])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def small_session(tmp_path):
    store = [
        {"id": "c1", "call": "pack.corridorRuns.corridorRuns", "input": {"spine": [[0, 0], [1.5, 2]]}, "unit": "m", "body": "b1",
         "output": {"runs": 1}, "at": "2025-01-01T00:00:00Z"},
        {"id": "e1", "call": "pack.corridorRuns.corridorRuns", "input": {"spine": [[0, 0], [1.5, 3]]}, "unit": "m", "applied": True},
        {"id": 3, "call": "dept.zones.zones", "input": "é" * 10, "body": "b2"},
    ]
    path = tmp_path / "small.json"
    path.write_text(json.dumps({"format": "worker-session/1", "session": {"id": "s"}, "caps": {"storeBytes": 200},
                                "store": store, "bodies": [{"id": "b1", "code": ""}, {"id": "b2", "code": ""}]}))
    shaped = [{k: e[k] for k in ("id", "call", "input", "unit", "applied") if k in e} for e in store]
    return path, shaped


def test_trim_json_is_spec_6_exactly_with_sizes_as_the_editor_injects(capsys, small_session):
    path, shaped = small_session
    tail_bytes = json_bytes(shaped[1:])
    status, out, _ = trim(capsys, path, "--cap", tail_bytes, "--json")
    assert status == 0
    document = json.loads(out)
    assert document == {"cap": tail_bytes, "fell": 1, "bytes": tail_bytes, "kept": ["e1", 3]}
    assert list(document) == ["cap", "fell", "bytes", "kept"]
    assert json.loads(trim(capsys, path, "--cap", tail_bytes - 1, "--json")[1])["kept"] == [3]


def test_trim_defaults_to_the_sessions_store_cap_and_honours_at(capsys, small_session):
    path, shaped = small_session
    document = json.loads(trim(capsys, path, "--json")[1])
    fell = document["fell"]
    assert document["cap"] == 200 and 0 < fell < 3
    assert document["bytes"] == json_bytes(shaped[fell:]) <= 200 < json_bytes(shaped[fell - 1:])
    at_b2 = json.loads(trim(capsys, path, "--cap", "1KiB", "--at", "b2", "--json")[1])
    assert at_b2 == {"cap": 1024, "fell": 0, "bytes": json_bytes(shaped[:2]), "kept": ["c1", "e1"]}


def test_trim_readable_prints_the_summary_and_warnings_on_the_demo(capsys):
    status, out, _ = trim(capsys, DEMO, "--cap", "2KiB")
    lines = out.splitlines()
    assert status == 0
    assert lines[1] == ('at 2 KiB 23 of 36 entries fall, 3 of them the person\'s edits; '
                        'inputs.last("dept.zones") would return nothing instead of c13')
    assert lines[2].startswith("kept 13 (1,929 B): c21, c22")
    warnings = [line for line in lines if line.startswith("warning: ")]
    assert [w.split(" (")[0] for w in warnings] == [
        "warning: canvas edit e3", "warning: canvas edit e2", "warning: canvas edit e1",
        'warning: c13 falls, and it is what inputs.last("dept.zones") returns: the next body gets nothing there; a cap of at least 4,075 B']


def test_trim_compare_says_what_falls_between_two_caps(capsys):
    status, out, _ = trim(capsys, DEMO, "--cap", "4KiB", "--compare", "2KiB")
    assert out.splitlines()[-1].startswith("between 2 KiB and 4 KiB 11 entries (c13 … c20) fall at 2 KiB but are kept at 4 KiB")
    document = json.loads(trim(capsys, DEMO, "--cap", "4KiB", "--compare", "2KiB", "--json")[1])
    assert document["compare"]["fell"][0] == "c13" and document["compare"]["edits"] == 3


@pytest.mark.parametrize(
    ("args", "says"),
    [(["--cap", "64kb"], "argument --cap: '64kb': unknown size suffix 'kb'; did you mean KB?"),
     (["--cap", "-3"], "cannot be negative"),
     (["--cap", "1.5"], "not a whole number of bytes"),
     (["--cap", "1KiB", "--at", "nope"], "--at nope: no body 'nope'")],
)
def test_trim_bad_usage_is_one_plain_line_and_exit_2(capsys, args, says):
    status, out, err = trim(capsys, DEMO, *args)
    assert status == 2 and out == ""
    assert says in err and len(err.strip().splitlines()) == 1


def test_trim_without_a_cap_on_a_session_without_caps_asks_for_one(capsys, tmp_path):
    path = tmp_path / "nocap.json"
    path.write_text(json.dumps({"format": "worker-session/1", "session": {"id": "s"}, "store": []}))
    status, _, err = trim(capsys, path)
    assert status == 2 and "sets no caps.storeBytes; give one with --cap SIZE" in err


def test_trim_on_a_file_with_errors_works_on_what_loaded_and_exits_1(capsys):
    status, out, err = trim(capsys, BROKEN / "bad_call.json", "--cap", "1MiB", "--json")
    assert status == 1
    assert json.loads(out)["fell"] == 0
    assert "error" in err


def test_trim_through_the_console_script_never_shows_a_traceback():
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([str(WSI), "trim", str(DEMO), "--cap", "4KiB"], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert "at 4 KiB 12 of 36 entries fall" in done.stdout
    missing = subprocess.run([str(WSI), "trim", "/nonexistent.json", "--cap", "1"], capture_output=True, text=True, env=env, timeout=60)
    assert missing.returncode == 2 and "Traceback" not in missing.stderr
