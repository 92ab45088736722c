"""`wsi manifest | kept | validate` through the installed console script, as a user runs them."""
import gzip
import json

import pytest

from tests.conftest import BROKEN, DEMO
from tests.helpers.cli import wsi


def test_manifest_json_is_spec_6_exactly(tmp_path):
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"format": "worker-session/1", "session": {"id": "s"}, "store": [
        {"id": "c1", "call": "pack.corridorRuns.corridorRuns", "input": {"b": 1.0, "1": [1e21, 1e-7]}, "unit": "mm", "body": "b1"},
        {"id": 2, "call": "pack.corridorRuns.score", "input": "é\u2028", "applied": True}]}))
    done = wsi("manifest", path, "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    first = {"id": "c1", "call": "pack.corridorRuns.corridorRuns", "unit": "mm", "keys": ["1", "b"], "bytes": len('{"1":[1e+21,1e-7],"b":1}')}
    second = {"id": 2, "call": "pack.corridorRuns.score", "applied": True, "bytes": 7}
    assert out == {"count": 2, "bytes": out["bytes"], "entries": [first, second]}
    assert list(out["entries"][0]) == list(first)
    # 2 + entry sizes + a comma, each entry as the editor injects it.
    e1 = len('{"id":"c1","call":"pack.corridorRuns.corridorRuns","input":{"1":[1e+21,1e-7],"b":1},"unit":"mm"}')
    e2 = len('{"id":2,"call":"pack.corridorRuns.score","input":"é\u2028","applied":true}'.encode())
    assert out["bytes"] == 2 + e1 + e2 + 1


def test_manifest_at_a_body_and_in_json_lines_and_gzip(tmp_path):
    lines = [{"format": "worker-session/1", "session": {"id": "s"}},
             {"kind": "body", "id": "b1", "code": ""},
             {"kind": "entry", "id": "c1", "call": "a.b.c", "input": 1, "body": "b1"},
             {"kind": "body", "id": 2, "code": ""},
             {"kind": "entry", "id": "c2", "call": "a.b.c", "input": 2, "body": 2}]
    path = tmp_path / "s.jsonl.gz"
    path.write_bytes(gzip.compress("\n".join(json.dumps(x) for x in lines).encode()))
    assert json.loads(wsi("manifest", path, "--json", "--at", "2").stdout)["count"] == 1
    assert json.loads(wsi("manifest", path, "--json", "--at", "b1").stdout)["count"] == 0
    assert json.loads(wsi("manifest", path, "--json").stdout)["count"] == 2


def test_kept_json_on_the_demo():
    out = json.loads(wsi("kept", DEMO, "--json").stdout)
    assert out["count"] == len(out["kept"]) == 4
    assert [k["name"] for k in out["kept"]] == ["departmentId", "spine", "summary", "zoneWidth"]
    at_b3 = json.loads(wsi("kept", DEMO, "--json", "--at", "b3").stdout)
    assert at_b3 == {"count": 1, "kept": [{"name": "spine", "array": 5, "bytes": at_b3["kept"][0]["bytes"]}]}


def test_readable_tables_by_default():
    done = wsi("manifest", DEMO)
    assert done.returncode == 0
    assert done.stdout.splitlines()[0].split() == ["id", "call", "unit", "applied", "shape", "bytes"]
    assert "pack.corridorRuns.corridorRuns" in done.stdout


@pytest.mark.parametrize("name", ["bad_call.json", "not_json.json", "partial_line.jsonl", "missing_format.json"])
def test_validate_broken_files_exits_1_only_for_errors(name):
    done = wsi("validate", BROKEN / name, "--json")
    report = json.loads(done.stdout)
    assert set(report) == {"errors", "warnings"}
    assert done.returncode == (1 if report["errors"] else 0)
    for problem in report["errors"] + report["warnings"]:
        assert list(problem) == ["where", "message"]


def test_commands_still_work_on_what_loaded_and_say_how_many_did_not():
    done = wsi("manifest", BROKEN / "bad_call.json", "--json")
    assert done.returncode == 1
    assert json.loads(done.stdout)["count"] == 1
    lines = done.stderr.strip().splitlines()
    assert lines[0].startswith("bad_call.json: /store/0/call: error:")
    assert "2 errors" in lines[-1]


def test_missing_file_bad_usage_and_unknown_body_exit_2(tmp_path):
    for args in [("manifest", tmp_path / "nope.json"), ("manifest",), ("manifest", DEMO, "--at", "b99"), ("frobnicate",)]:
        done = wsi(*args)
        assert done.returncode == 2, args
        assert len(done.stderr.strip().splitlines()) == 1
        assert done.stdout == ""


def test_an_option_a_command_does_not_take_points_at_that_commands_help(tmp_path):
    # "wsi redact demo.json -o x" said "unrecognized arguments: -o x (see wsi --help)": the top's help, not redact's.
    done = wsi("manifest", DEMO, "--frob")
    assert done.returncode == 2
    assert done.stderr.strip() == "wsi: unrecognized arguments: --frob (see wsi manifest --help)"
    assert wsi("frobnicate").stderr.strip().endswith("(see wsi --help)")


def test_out_is_also_o_as_people_type_it(tmp_path):
    out = tmp_path / "copy.json"
    done = wsi("redact", DEMO, "-o", out)
    assert done.returncode == 0, done.stderr
    assert out.exists() and f"wrote {out}" in done.stdout
