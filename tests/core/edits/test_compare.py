"""`wsi compare` (SPEC 7): pairs made from the demo, each alignment and first divergence asserted exactly."""
from __future__ import annotations

import json

import pytest

from wsi_inspector.core.cli.dispatch import main
from wsi_inspector.core.edits.compare import align_steps, compare_sessions, steps_of
from wsi_inspector.core.session.load import load
from tests.helpers.compare_pairs import demo_document, variant, write
from tests.conftest import DEMO

DEMO_BODIES = ["b1", "b2", "b3", "b4", "b5", "b6", "b7", "b8"]


def compared(tmp_path, name, form="json"):
    return compare_sessions(load(DEMO), load(write(variant(name), tmp_path / f"{name}.{form}")))


def pairs(document):
    return [(s["a"], s["b"]) for s in document["steps"]]


def same_pairs(bodies):
    return [(b, b) for b in bodies]


def test_a_session_compared_with_itself_is_the_same_in_every_form(tmp_path):
    for form in ("json", "jsonl", "json.gz", "jsonl.gz"):
        document = compare_sessions(load(DEMO), load(write(demo_document(), tmp_path / f"same.{form}")))
        assert document["same"] is True and document["firstDivergence"] is None, form
        assert pairs(document) == same_pairs(DEMO_BODIES)
        assert all(s["same"] and s["code"] == "same" for s in document["steps"])


def test_a_body_inserted_is_one_step_with_a_null_not_a_cascade(tmp_path):
    document = compared(tmp_path, "inserted")
    assert pairs(document) == [*same_pairs(DEMO_BODIES[:3]), (None, "b3x"), *same_pairs(DEMO_BODIES[3:])]
    assert [s["same"] for s in document["steps"]] == [True] * 3 + [False] + [True] * 5
    assert document["steps"][3]["calls"] == [{"a": None, "b": "x1", "call": "dept.zones.assign", "same": False}]
    assert document["firstDivergence"] == {"step": 4, "a": None, "b": "b3x",
                                           "why": "at step 4 B runs b3x, which A does not (dept.zones.assign)"}


def test_a_body_dropped_is_one_step_with_b_null(tmp_path):
    document = compared(tmp_path, "dropped")
    assert pairs(document) == [*same_pairs(DEMO_BODIES[:5]), ("b6", None), *same_pairs(DEMO_BODIES[6:])]
    assert document["firstDivergence"] == {
        "step": 6, "a": "b6", "b": None, "why": "at step 6 A runs b6, which B does not (mep.risers, mep.risers, mep.risers)"}
    assert [c["a"] for c in document["steps"][5]["calls"]] == [f"c{n}" for n in range(22, 30)]


def test_a_changed_constant_pairs_the_body_and_names_the_code_line_and_the_inputs(tmp_path):
    document = compared(tmp_path, "constant")
    assert pairs(document) == same_pairs(DEMO_BODIES)
    step = document["steps"][1]
    assert step["code"] == "differs" and step["same"] is False
    assert [line for line in step["codeDiff"] if line[:1] in "+-" and line[:3] not in ("---", "+++")] == [
        "-const input = { level: 2, spine, bandDepth: 32, clearWidth: 2400, doubleLoaded: true };",
        "+const input = { level: 2, spine, bandDepth: 36, clearWidth: 2400, doubleLoaded: true };"]
    calls = {c["a"]: c for c in step["calls"]}
    assert calls["c4"]["changes"] == [{"op": "replace", "path": "/bandDepth", "from": 32, "to": 36, "delta": 4}]
    assert calls["c5"]["same"] is False and calls["c6"]["same"] is True
    assert document["firstDivergence"] == {
        "step": 2, "a": "b2", "b": "b2",
        "why": "at step 2 B's b2 has other code than A's b2: `const input = { level: 2, spine, bandDepth: 32, clearWidth: `"
               " → `const input = { level: 2, spine, bandDepth: 36, clearWidth: `"}
    assert [s["same"] for s in document["steps"]] == [True, False] + [True] * 6


def test_a_changed_module_output_is_named_with_its_path(tmp_path):
    document = compared(tmp_path, "output")
    step = document["steps"][3]
    assert step["code"] == "same" and step["calls"][0] == {
        "a": "c14", "b": "c14", "call": "pack.rooms.rooms", "same": False,
        "outputChanges": [{"op": "replace", "path": "/rooms/1/size/1", "from": 4800, "to": 5400, "delta": 600}]}
    assert document["firstDivergence"] == {
        "step": 4, "a": "b4", "b": "b4", "why": "at step 4 B's pack.rooms returns /rooms/1/size/1 5400 where A's returned 4800"}


def test_another_unit_with_the_same_lengths_converted_is_the_same_and_unconverted_differs_in_as_unit(tmp_path):
    assert compared(tmp_path, "unit-converted", "jsonl.gz")["same"] is True
    document = compared(tmp_path, "unit")
    call = document["steps"][4]["calls"][0]
    assert call["a"] == call["b"] == "c20"
    first = call["changes"][0]
    assert first == {"op": "replace", "path": "/spine/0", "from": [1500, 18000], "to": [15000, 180000],
                     "raw": {"from": [150, 1800], "to": [1500, 18000]}}
    assert {c["path"] for c in call["changes"]} >= {"/bandDepth", "/clearWidth"}
    assert document["firstDivergence"]["step"] == 5 and document["firstDivergence"]["why"] == (
        "at step 5 B's pack.corridorRuns gets /spine/0 [15000,180000] where A's got [1500,18000] (and 7 more changes)")


def test_a_failure_added_names_the_missing_call_and_the_error(tmp_path):
    document = compared(tmp_path, "failure")
    assert pairs(document) == same_pairs(DEMO_BODIES)
    step = document["steps"][5]
    assert step["outcome"] == {"a": "ok", "b": "failed"}
    assert step["calls"][-1] == {"a": "c29", "b": None, "call": "mep.risers.risers", "same": False}
    assert all(c["same"] for c in step["calls"][:-1])
    assert document["firstDivergence"] == {
        "step": 6, "a": "b6", "b": "b6",
        "why": "at step 6 A's b6 calls mep.risers (c29), B's b6 does not; "
               "B's b6 fails with TypeError: Cannot read properties of undefined (reading 'outline')"}


def test_a_persons_edit_handed_to_a_body_is_where_it_diverges(tmp_path):
    document = compared(tmp_path, "edit")
    assert document["firstDivergence"] == {
        "step": 5, "a": "b5", "b": "b5",
        "why": "at step 5 B's b5 is handed e1 (pack.corridorRuns, a canvas edit) that has /bandDepth 36 where A's had 34"}
    assert document["steps"][4]["handed"][0]["changes"] == [
        {"op": "replace", "path": "/bandDepth", "from": 34, "to": 36, "delta": 2}]


def test_the_readable_output_says_which_entries_were_handed_and_names_those_on_one_side(tmp_path, capsys):
    """A person's edit handed to a body is not a call the body made; an entry on one side only is named."""
    edited = write(variant("edit"), tmp_path / "edit.json")
    assert main(["compare", str(DEMO), str(edited)]) == 1
    assert "        handed pack.corridorRuns.corridorRuns (e1 / e1)" in capsys.readouterr().out.splitlines()
    inserted = write(variant("inserted"), tmp_path / "inserted.json")
    assert main(["compare", str(DEMO), str(inserted)]) == 1
    assert "        dept.zones.assign (only in B: x1)" in capsys.readouterr().out.splitlines()


def test_a_body_with_a_changed_constant_next_to_an_inserted_one_still_pairs_with_its_counterpart(tmp_path):
    document = variant("constant")
    document["bodies"].insert(1, {"id": "new", "code": "return 0;", "result": {"ok": True, "returned": 0}})
    (a, _), (b, _) = steps_of(load(DEMO)), steps_of(load(write(document, tmp_path / "both.json")))
    assert [(a[i].body.id if i is not None else None, b[j].body.id if j is not None else None)
            for i, j in align_steps(a, b)] == [("b1", "b1"), (None, "new"), *same_pairs(DEMO_BODIES[1:])]


def test_wsi_compare_exit_status_json_and_readable_output(tmp_path, capsys):
    b = write(variant("failure"), tmp_path / "b.jsonl")
    assert main(["compare", str(DEMO), str(DEMO), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["same"] is True
    assert main(["compare", str(DEMO), str(b), "--json"]) == 1
    document = json.loads(capsys.readouterr().out)
    assert document["firstDivergence"]["step"] == 6 and document["a"] == "demo.json" and document["b"] == "b.jsonl"
    assert main(["compare", str(DEMO), str(b)]) == 1
    text = capsys.readouterr().out
    assert "first divergence: at step 6 A's b6 calls mep.risers (c29)" in text
    assert "B fails: TypeError" in text


@pytest.mark.parametrize("args", [["compare", str(DEMO)], ["compare", str(DEMO), "/nowhere/b.json"]])
def test_bad_usage_is_exit_2_with_one_line(args, capsys):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_an_unreadable_b_is_exit_2_naming_where(tmp_path, capsys):
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "worker-session/1", "store": [')
    assert main(["compare", str(DEMO), str(broken)]) == 2
    err = capsys.readouterr().err
    assert "broken.json" in err and "Traceback" not in err


def test_an_edit_after_the_last_body_is_compared_too(tmp_path):
    document = demo_document()
    document["store"].append({"id": "e9", "call": "pack.rooms.place", "unit": "mm", "applied": True,
                              "input": {"level": 2, "rooms": [{"id": "r1", "at": [3000, 12000]}]}})
    a = load(write(document, tmp_path / "a.json"))
    document["store"][-1]["input"]["rooms"][0]["at"] = [3600, 12000]
    compared = compare_sessions(a, load(write(document, tmp_path / "b.json")))
    assert compared["same"] is False and all(s["same"] for s in compared["steps"])
    assert compared["after"][0]["changes"] == [{"op": "replace", "path": "/rooms/0/at", "from": [3000, 12000], "to": [3600, 12000]}]
    assert compared["firstDivergence"] == {
        "step": 9, "a": None, "b": None,
        "why": "at step 9 (after the last body) B's e9 (pack.rooms.place) has /rooms/0/at [3600,12000] where A's had [3000,12000]"}
    assert compare_sessions(a, a)["same"] is True and "after" not in compare_sessions(a, a)


def test_a_body_without_a_recorded_result_on_one_side_says_so(tmp_path):
    document = demo_document()
    del next(b for b in document["bodies"] if b["id"] == "b3")["result"]
    compared = compare_sessions(load(DEMO), load(write(document, tmp_path / "b.json")))
    assert compared["firstDivergence"]["why"] == "at step 3 B's b3 has no recorded result, A's is ok"


def test_readable_output_of_a_long_pair_lists_only_the_steps_that_differ(tmp_path, capsys):
    document = demo_document()
    for copy in range(6):  # 48 bodies: past the 40 listed in full
        for body in demo_document()["bodies"]:
            document["bodies"].append({**body, "id": f"{body['id']}-{copy}"})
    a = write(document, tmp_path / "a.json")
    document["bodies"][20]["result"] = {"ok": False, "error": "Error: late"}
    b = write(document, tmp_path / "b.json")
    assert main(["compare", str(a), str(b)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "A a.json  ·  B b.json: 56 steps, 1 differ"
    assert lines[1].startswith("first divergence: at step 21 B's b5-1 fails with Error: late where A's failed with InvalidKeepError")
    assert lines[2:4] == ["      … 20 steps the same", "*  21  b5-1  b5-1  failed / failed"]
    assert lines[4].startswith("        A fails: InvalidKeepError") and lines[5:] == [
        "        B fails: Error: late", "      … 35 steps the same"]


def test_load_pair_reads_both_with_the_collector_off_until_both_are_read(monkeypatch, tmp_path):
    """Each load turns the collector back on as it ends; the first to end would let it walk the other's objects."""
    import gc

    import wsi_inspector.core.edits.compare as compare

    seen = []

    def load_noting(path):
        session = load(path)
        seen.append(gc.isenabled())  # just after a load ends, while the other may still be reading
        return session

    monkeypatch.setattr(compare, "load", load_noting)
    b = write(variant("constant"), tmp_path / "b.json")
    was = gc.isenabled()
    a_session, b_session = compare.load_pair(DEMO, b)
    assert seen == [False, False]
    assert gc.isenabled() == was
    assert compare_sessions(a_session, b_session) == compare_sessions(load(DEMO), load(b))


def test_across_forms_calls_are_told_equal_without_parsing_and_a_change_is_still_found(monkeypatch, tmp_path):
    """Another form spells each record otherwise (indented, a JSON Lines line's `kind`, `1e+21` where orjson
    writes `1e21`): the inputs and outputs are compared as tokens in C, and only what differs is parsed."""
    import orjson

    import wsi_inspector.core.edits.compare as compare

    document = demo_document()
    for entry in document["store"]:
        if isinstance(entry["input"], dict):
            entry["input"]["tolerance"] = 1e21
    a = tmp_path / "a.json"
    a.write_bytes(orjson.dumps(document).replace(b"1e21", b"1e+21"))  # as JSON.stringify writes it
    indented = tmp_path / "b.json"
    indented.write_bytes(orjson.dumps(document, option=orjson.OPT_INDENT_2))
    forms = [load(a), load(indented), load(write(document, tmp_path / "b.jsonl"))]
    spelled = forms[0].entries[0]
    assert spelled.input_span is None  # not spelled as orjson writes it: not searchable as it is …
    start, stop = spelled.input_text_span  # … but still where it lies
    assert orjson.loads(bytes(spelled.text)[start:stop]) == spelled.input
    parsed: list = []
    record = compare._record
    monkeypatch.setattr(compare, "_record", lambda entry: parsed.append(entry.id) or record(entry))
    keys = [[s.exact_key for s in steps_of(session)[0]] for session in forms]
    assert keys[0] == keys[1] == keys[2]  # a body's inputs have one digest in every form
    for b in forms[1:]:
        assert compare_sessions(forms[0], b)["same"] is True
    assert parsed == []
    changed = next(e for e in document["store"] if "body" in e and "output" in e)
    at, original = document["store"].index(changed), dict(changed)
    changed["output"] = {"changed": 1}
    indented.write_bytes(orjson.dumps(document, option=orjson.OPT_INDENT_2))
    compared = compare_sessions(forms[0], load(indented))
    assert [(c["a"], c["b"]) for s in compared["steps"] for c in s["calls"] if not c["same"]] == [(changed["id"],) * 2]
    assert parsed == [changed["id"]] * 2  # the call that differs, on each side
    # Records that spell their output before their input, all after it alike: the outputs are still compared.
    for side, entry in (("a", original), ("b", changed)):
        document["store"][at] = {"output": entry["output"]} | {k: v for k, v in entry.items() if k != "output"}
        (tmp_path / f"moved-{side}.json").write_bytes(orjson.dumps(document, option=orjson.OPT_INDENT_2 if side == "b" else 0))
    compared = compare_sessions(load(tmp_path / "moved-a.json"), load(tmp_path / "moved-b.json"))
    assert [(c["a"], "outputChanges" in c) for s in compared["steps"] for c in s["calls"] if not c["same"]] == [(changed["id"], True)]
