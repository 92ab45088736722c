"""`wsi diff` through the installed console script: readable form, SPEC 6 JSON, --edit, --blame, exit status."""
import json
import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import BROKEN, DEMO

WSI = Path(sys.executable).with_name("wsi")


def wsi(*args):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([str(WSI), *map(str, args)], capture_output=True, text=True, env=env, timeout=60)
    assert "Traceback" not in done.stderr
    return done


def test_diff_json_is_spec_6_with_spec_keys_first():
    done = wsi("diff", DEMO, "--json")
    assert done.returncode == 0, done.stderr
    edits = json.loads(done.stdout)["edits"]
    assert [(e["edit"], e["base"], e["call"]) for e in edits] == [
        ("e1", "c4", "pack.corridorRuns.corridorRuns"), ("e2", "c4", "pack.corridorRuns.corridorRuns"),
        ("e3", "c19", "pack.rooms.place")]
    for edit in edits:
        assert list(edit)[:4] == ["edit", "base", "call", "changes"]
    assert edits[0]["changes"][-1] == {"op": "replace", "path": "/bandDepth", "from": 32, "to": 34, "delta": 2}
    assert edits[1]["chain"] == ["c4", "e1", "e2"] and [s["to"] for s in edits[1]["steps"]] == ["e1", "e2"]
    assert edits[2]["changes"] == [{"op": "replace", "path": "/rooms/1/at", "from": [6600, 12000], "to": [6600, 13200]}]


def test_diff_readable_form_says_call_base_edit_and_changes_in_words():
    done = wsi("diff", DEMO)
    assert done.returncode == 0
    first = done.stdout.splitlines()[0]
    assert first == ("pack.corridorRuns.corridorRuns  c4 → e1 (the person's edit)  "
                     "spine: 1 point added at 2, 2 moved  bandDepth 32 → 34 mm (+2)")
    assert "c4 → e2 (the person's edit, 2 steps: c4 → e1 → e2)" in done.stdout


def test_diff_one_edit_lists_every_change_and_each_step():
    done = wsi("diff", DEMO, "--edit", "e2")
    assert done.returncode == 0
    assert "step e1 → e2: spine/2 [22500,18600] → [22500,19200] mm" in done.stdout
    assert "/bandDepth" in done.stdout and "+2" in done.stdout
    one = json.loads(wsi("diff", DEMO, "--edit", "e2", "--json").stdout)
    assert [e["edit"] for e in one["edits"]] == ["e2"]


def test_diff_of_a_model_call_or_unknown_id_is_a_usage_error_naming_the_edits():
    done = wsi("diff", DEMO, "--edit", "c4")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip() == ("wsi: --edit c4: 'c4' is a model call (pack.corridorRuns.corridorRuns), "
                                   "not a canvas edit; the canvas edits are: e1, e2, e3")
    assert "no entry 'zz'" in wsi("diff", DEMO, "--edit", "zz").stderr


def test_diff_with_warnings_exits_0_and_names_the_record():
    done = wsi("diff", BROKEN / "edit_without_base.json", "--json")
    assert done.returncode == 0
    assert json.loads(done.stdout)["edits"][0]["base"] is None
    assert "/store/0: warning: edit 'e1': no model call" in done.stderr


def test_diff_with_errors_in_the_file_still_diffs_what_loaded_and_exits_1(tmp_path):
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"format": "worker-session/1", "session": {"id": "s"}, "store": [
        {"id": "c1", "call": "a.b.c", "input": {"d": 1}, "unit": "mm"},
        {"id": "bad", "call": "not a call", "input": 1},
        {"id": "e1", "call": "a.b.c", "input": {"d": 2}, "unit": "mm", "applied": True}]}))
    done = wsi("diff", path, "--json")
    assert done.returncode == 1
    assert json.loads(done.stdout)["edits"][0]["changes"] == [{"op": "replace", "path": "/d", "from": 1, "to": 2, "delta": 1}]
    assert "/store/1/call" in done.stderr and "1 error" in done.stderr


def test_diff_of_a_missing_file_is_exit_2_in_one_line():
    done = wsi("diff", "/nonexistent/x.json")
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1


def test_blame_json_traces_each_leaf():
    done = wsi("diff", DEMO, "--blame", "c20", "--json")
    assert done.returncode == 0
    document = json.loads(done.stdout)
    leaf = next(x for x in document["leaves"] if x["path"] == "/bandDepth")
    assert leaf["setBy"] == "person" and leaf["entry"] == "e1"
    assert leaf["carriedBy"] == {"entry": "c20", "by": "body", "body": "b5"}
    assert "carried by body b5 (call c20) from the person's edit e1" in wsi("diff", DEMO, "--blame", "c20").stdout
    assert wsi("diff", DEMO, "--blame", "zz").returncode == 2
