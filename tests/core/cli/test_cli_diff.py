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
    assert edits[1]["previous"] == "e1" and edits[1]["steps"] == 2
    assert edits[1]["stepChanges"] == [{"op": "replace", "path": "/spine/2", "from": [22500, 18600], "to": [22500, 19200]}]
    assert edits[0]["previous"] == "c4" and edits[0]["steps"] == 1 and "stepChanges" not in edits[0]
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


def write_session(path, store):
    path.write_text(json.dumps({"format": "worker-session/1", "session": {"id": "s"}, "store": store}))
    return path


def test_a_4000_step_edit_chain_is_diffed_once_per_step_and_printed_in_linear_size(tmp_path):
    call = "pack.corridorRuns.corridorRuns"
    store = [{"id": "c0", "call": call, "unit": "mm", "body": "b1", "input": {"spine": [[0, 0], [1000, 0]], "d": 0}}]
    store += [{"id": f"e{k}", "call": call, "unit": "mm", "applied": True, "input": {"spine": [[0, 0], [1000, k]], "d": k}}
              for k in range(1, 4001)]
    path = write_session(tmp_path / "chain.json", store)
    done = wsi("diff", path, "--json")
    assert done.returncode == 0, done.stderr
    assert len(done.stdout) < 3 * 1024 * 1024  # the old output repeated every chain: 797 MB here
    edits = json.loads(done.stdout)["edits"]
    last = edits[-1]
    assert (last["edit"], last["base"], last["previous"], last["steps"]) == ("e4000", "c0", "e3999", 4000)
    assert [c["path"] for c in last["changes"]] == ["/spine/1", "/d"]
    assert [c["path"] for c in last["stepChanges"]] == ["/spine/1", "/d"]
    text = wsi("diff", path)
    assert "4,000 steps: c0 → … → e3999 → e4000" in text.stdout and len(text.stdout) < 1024 * 1024


def test_values_nested_500_and_900_deep_diff_without_failing(tmp_path):
    # Deeper values are diffed in core (tests/core/edits/test_diff.py, test_edits.py); the loader bounds the file.
    for depth in (500, 900):
        deep = "[" * (depth - 2) + "{}" + "]" * (depth - 2)  # written as text: json.dumps itself recurses
        path = tmp_path / f"deep{depth}.json"
        path.write_text(
            '{"format": "worker-session/1", "session": {"id": "s"}, "store": ['
            f'{{"id": "c1", "call": "a.b.c", "unit": "mm", "input": {{"v": {deep.replace("{}", "1")}}}}},'
            f'{{"id": "e1", "call": "a.b.c", "unit": "mm", "applied": true, "input": {{"v": {deep.replace("{}", "2")}}}}}]}}')
        done = wsi("diff", path, "--json")
        assert done.returncode == 0, done.stderr[-300:]
        change = json.loads(done.stdout)["edits"][0]["changes"][0]
        assert change["path"].count("/") == depth - 1 and change["to"] == 2
        assert wsi("diff", path).returncode == 0
        assert wsi("diff", path, "--edit", "e1").returncode == 0
        blame = json.loads(wsi("diff", path, "--blame", "e1", "--json").stdout)
        assert [leaf["entry"] for leaf in blame["leaves"]] == ["e1"]


def test_a_cm_edit_of_an_mm_call_lists_mm_values_with_raw_cm_values(tmp_path):
    spine = [[1500 * i, 18000] for i in range(1, 39)]
    edited = [[x / 10, y / 10] for x, y in spine]
    edited[5] = [edited[5][0], 1860]
    path = write_session(tmp_path / "units.json", [
        {"id": "c1", "call": "a.b.c", "input": {"spine": spine, "bandDepth": 32}, "unit": "mm"},
        {"id": "e1", "call": "a.b.c", "input": {"spine": edited, "bandDepth": 3.2}, "unit": "cm", "applied": True}])
    changes = json.loads(wsi("diff", path, "--json").stdout)["edits"][0]["changes"]
    assert changes == [{"op": "replace", "path": "/spine/5", "from": [9000, 18000], "to": [9000, 18600],
                        "raw": {"from": [900, 1800], "to": [900, 1860]}}]
    text = wsi("diff", path, "--edit", "e1").stdout
    assert "spine: 1 moved" in text and "as cm" in text and "[900,1800] → [900,1860]" in text


def test_an_edit_adding_a_400_digit_integer_is_described_not_an_internal_error(tmp_path):
    # Found by tests/fuzz (seed 11, case 456): value_text called float() on it and overflowed.
    huge = int("9" * 400)
    path = tmp_path / "huge.json"
    path.write_text(json.dumps({"format": "worker-session/1", "session": {"id": "s"}, "store": [
        {"id": "c1", "call": "pack.rooms.place", "input": {"count": 1}, "body": "b1"},
        {"id": "e1", "call": "pack.rooms.place", "input": {"count": 1, "big": huge}, "applied": True, "editOf": "c1"}]}))
    words = wsi("diff", path)
    assert words.returncode == 0, words.stderr
    assert "big added: null" in words.stdout  # JavaScript reads it as Infinity and prints null
    document = json.loads(wsi("diff", path, "--json").stdout)
    assert document["edits"][0]["changes"] == [{"op": "add", "path": "/big", "to": huge}]
