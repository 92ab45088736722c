"""Pairing canvas edits with their model calls (SPEC 4): editOf, same call, chains, no base, units, copy as body."""
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from wsi_inspector.core.edits.diff import apply_changes
from wsi_inspector.core.jsrules.json_values import json_equal
from wsi_inspector.core.session.model import Body
from wsi_inspector.core.edits.edits import chain_steps, copy_as_body, diff_edits, edit_document, pair_edits, summary_line
from wsi_inspector.core.session.load import load, load_bytes
from tests.conftest import DEMO

CALL = "pack.corridorRuns.corridorRuns"
HEAD = {"format": "worker-session/1", "session": {"id": "s"}}


def session_of(*entries, **extra):
    return load_bytes(json.dumps({**HEAD, "store": list(entries), **extra}).encode(), "s.json")


def entry(i, inp, call=CALL, **kw):
    return {"id": i, "call": call, "input": inp, "unit": "mm", **kw}


def bases(session):
    return {str(p.edit.id): (p.base.id if p.base else None, [e.id for e in p.chain]) for p in pair_edits(session)}


def test_edit_of_names_the_base_even_when_a_newer_model_call_exists():
    s = session_of(entry("c1", {"d": 1}), entry("c2", {"d": 2}), entry("e1", {"d": 3}, applied=True, editOf="c1"))
    assert bases(s) == {"e1": ("c1", ["c1", "e1"])}


def test_without_edit_of_the_base_is_the_newest_earlier_model_call_of_exactly_that_call():
    s = session_of(entry("c1", {"d": 1}), entry("c2", {"d": 2}), entry("x", {"d": 9}, call="pack.corridorRuns.score"),
                   entry("e1", {"d": 3}, applied=True))
    assert bases(s) == {"e1": ("c2", ["c2", "e1"])}


def test_an_edit_of_an_edit_follows_the_chain_back_to_the_model_call_with_each_step():
    s = session_of(entry("c1", {"d": 1, "w": 5}), entry("e1", {"d": 2, "w": 5}, applied=True),
                   entry("e2", {"d": 2, "w": 6}, applied=True))
    assert bases(s) == {"e1": ("c1", ["c1", "e1"]), "e2": ("c1", ["c1", "e1", "e2"])}
    second = diff_edits(s, "e2")[0]
    assert [c["path"] for c in second.changes] == ["/d", "/w"]
    assert [(x.before.id, x.after.id, [c["path"] for c in x.changes]) for x in chain_steps(second.pairing)] == [
        ("c1", "e1", ["/d"]), ("e1", "e2", ["/w"])]
    assert second.pairing.previous.id == "e1" and second.pairing.steps == 2
    assert (second.step.before.id, [c["path"] for c in second.step.changes]) == ("e1", ["/w"])
    assert diff_edits(s, "e1")[0].step is None  # made from the model's call: its step is its diff


def test_a_model_call_after_an_edit_becomes_the_base_of_the_next_edit():
    s = session_of(entry("c1", {"d": 1}), entry("e1", {"d": 2}, applied=True), entry("c2", {"d": 2}, body="b1"),
                   entry("e2", {"d": 3}, applied=True))
    assert bases(s)["e2"] == ("c2", ["c2", "e2"])


def test_an_edit_with_no_model_call_has_no_base_and_a_warning():
    s = session_of(entry("e1", {"d": 1}, applied=True), entry("e2", {"d": 2}, applied=True))
    pairs = {p.edit.id: p for p in pair_edits(s)}
    assert pairs["e1"].base is None and "no model call" in pairs["e1"].notes[0]
    assert pairs["e2"].base is None and [e.id for e in pairs["e2"].chain] == ["e1", "e2"]
    document = edit_document(diff_edits(s, "e2")[0])
    assert list(document)[:4] == ["edit", "base", "call", "changes"]
    assert document["base"] is None and document["changes"] == [] and document["previous"] == "e1"
    assert document["stepChanges"] == [{"op": "replace", "path": "/d", "from": 1, "to": 2, "delta": 1}]


def test_a_broken_edit_of_falls_back_to_the_same_call_and_says_so():
    s = load(DEMO.parent / "broken" / "edit_of_unknown.json")
    pairs = {p.edit.id: p for p in pair_edits(s)}
    assert pairs["e1"].base.id == "c1" and "'c9' names no entry" in pairs["e1"].notes[0]
    assert [e.id for e in pairs["e2"].chain] == ["c1", "e1", "e2"] and "names a later entry" in pairs["e2"].notes[0]


def test_different_units_are_compared_in_the_model_unit_with_the_edits_own_numbers_as_raw():
    s = session_of(entry("c1", {"depth": 32, "spine": [[0, 0], [10, 0]]}),
                   {**entry("e1", {"depth": 1.5, "spine": [[0, 0], [1, 0]]}, applied=True), "unit": "in"})
    edit = diff_edits(s)[0]
    assert "mm" in edit.unit_note and "in" in edit.unit_note
    assert edit.changes == [
        {"op": "replace", "path": "/depth", "from": 32, "to": 38.1, "delta": 6.1, "raw": {"from": 1.2598425196850394, "to": 1.5}},
        {"op": "replace", "path": "/spine/1", "from": [10, 0], "to": [25.4, 0], "raw": {"from": [0.3937007874015748, 0], "to": [1, 0]}},
    ]
    document = edit_document(edit)
    assert document["unit"] == "in" and document["baseUnit"] == "mm" and document["unitNote"] == edit.unit_note
    assert "depth 32 → 38.1 mm (+6.1) [as in: 1.2598425196850394 → 1.5]" in summary_line(edit)


def test_a_cm_edit_of_an_mm_call_where_one_point_moved_is_one_change(tmp_path):
    spine = [[1500 + 1500 * i, 18000 + (i % 3) * 100] for i in range(38)]
    model = {"level": 2, "spine": spine, "bandDepth": 32, "clearWidth": 2400, "doubleLoaded": True}
    edited = {"level": 2, "spine": [[x / 10, y / 10] for x, y in spine], "bandDepth": 3.2, "clearWidth": 240, "doubleLoaded": True}
    edited["spine"][7] = [edited["spine"][7][0], edited["spine"][7][1] + 60]
    path = tmp_path / "units.json"
    path.write_text(json.dumps({**HEAD, "store": [entry("c1", model), {**entry("e1", edited, applied=True), "unit": "cm"}]}))
    edit = diff_edits(load(path))[0]
    moved = [spine[7][0], spine[7][1] + 600]
    assert edit.changes == [{"op": "replace", "path": "/spine/7", "from": spine[7], "to": moved,
                             "raw": {"from": [x / 10 for x in spine[7]], "to": edited["spine"][7]}}]


def test_the_demo_has_three_edits_paired_as_the_designer_made_them():
    s = load(DEMO)
    assert bases(s) == {"e1": ("c4", ["c4", "e1"]), "e2": ("c4", ["c4", "e1", "e2"]), "e3": ("c19", ["c19", "e3"])}
    line = summary_line(diff_edits(s, "e1")[0])
    assert line.startswith(f"{CALL}  c4 → e1 (the person's edit)")
    assert "bandDepth 32 → 34 mm (+2)" in line and "spine: 1 point added at 2, 2 moved" in line


def test_every_edit_of_the_demo_rebuilds_exactly_from_its_model_call():
    s = load(DEMO)
    for edit in diff_edits(s):
        assert json_equal(apply_changes(edit.base.input, edit.changes), edit.edit.input)
        for step in chain_steps(edit.pairing):
            assert json_equal(apply_changes(step.before.input, step.changes), step.after.input)


def test_copy_as_body_starts_from_the_model_call_by_id_and_sets_only_the_changed_top_level_fields():
    s = load(DEMO)
    text = copy_as_body(diff_edits(s, "e1")[0], s)
    assert "  ...inputs.at(\"c4\"),\n" in text and "inputs.last" not in text
    assert "  bandDepth: 34,\n" in text and "  spine: [[1500,18000],[15000,18600]," in text
    assert "clearWidth" not in text and "level" not in text
    alone = session_of(entry("c1", {"a": 1, "b-c": 2, "gone": 3}, call="g.m.f"),
                       entry("e1", {"a": 1, "b-c": 5}, call="g.m.f", applied=True))
    assert copy_as_body(diff_edits(alone)[0], alone).splitlines()[1:] == [
        'const { "gone": _0, ...model } = inputs.at("c1");  // the person removed these',
        "return {", "  ...model,", '  "b-c": 5,', "};"]


@st.composite
def sessions(draw):
    """Sessions nobody has seen: random calls, inputs and edits of them, editOf sometimes given."""
    rng = random.Random(draw(st.integers(0, 10**6)))
    calls = ["a.b.c", "a.b.d", "x.y.z"]
    store, inputs = [], {}
    for n in range(draw(st.integers(1, 12))):
        call = rng.choice(calls)
        if call in inputs and rng.random() < 0.6:
            old = inputs[call]
            new = {"spine": [p for p in old["spine"] if rng.random() > 0.2] + [[rng.randint(0, 99), rng.randint(0, 99)]],
                   "depth": old["depth"] + rng.choice([0, 1, 2.5]), **({"tag": "x"} if rng.random() < 0.5 else {})}
            record = {"id": f"e{n}", "call": call, "input": new, "applied": True}
            if rng.random() < 0.3:
                earlier = [r["id"] for r in store if r["call"] == call]
                record["editOf"] = rng.choice(earlier)
        else:
            new = {"spine": [[rng.randint(0, 99), rng.randint(0, 99)] for _ in range(rng.randint(0, 8))], "depth": rng.randint(1, 9)}
            record = {"id": f"c{n}", "call": call, "input": new}
        inputs[call] = new
        store.append(record)
    return session_of(*store)


@settings(max_examples=100, deadline=None)
@given(sessions())
def test_on_sessions_not_seen_before_every_edit_and_every_step_rebuilds_exactly(session):
    for edit in diff_edits(session):
        if edit.base is not None:
            assert json_equal(apply_changes(edit.base.input, edit.changes), edit.edit.input)
            assert not edit.base.applied and edit.pairing.chain[0] is edit.base
        for step in chain_steps(edit.pairing):
            assert json_equal(apply_changes(step.before.input, step.changes), step.after.input)
        assert edit.pairing.chain[-1] is edit.edit
        assert all(e.applied for e in edit.pairing.chain[1:])


def test_copy_as_body_run_in_the_real_runner_at_every_cursor_after_the_edit_returns_the_edits_input():
    from wsi_inspector.core.runner.envelope import build_envelope
    from wsi_inspector.core.runner.host import Runner

    s = load(DEMO)
    with Runner(size=1) as runner:
        for edit in diff_edits(s):
            body = copy_as_body(edit, s)
            place = s.timeline.index(edit.edit)
            after = [item.id for item in s.timeline[place:] if isinstance(item, Body)]
            assert edit.edit.id != "e2" or after == ["b5", "b6", "b7", "b8"]
            for cursor in [*after, None]:
                result = runner.run(build_envelope(s, body, at=cursor))
                assert result["ok"], (edit.edit.id, cursor, result.get("error"))
                assert json_equal(result["returned"], edit.edit.input), (edit.edit.id, cursor, body)


def test_copy_as_body_writes_the_input_out_whole_when_the_model_call_falls_at_the_store_cap():
    from wsi_inspector.core.runner.envelope import build_envelope
    from wsi_inspector.core.runner.host import Runner

    big = {"spine": [[i, i] for i in range(200)], "d": 1}
    s = session_of(entry("c1", big), entry("e1", {**big, "d": 2}, applied=True), caps={"storeBytes": 3000})
    body = copy_as_body(diff_edits(s)[0], s)
    assert "falls at the store cap" in body and "inputs.at" not in body
    with Runner(size=1) as runner:
        assert json_equal(runner.run(build_envelope(s, body))["returned"], {**big, "d": 2})


def test_values_nested_deeper_than_pythons_stack_are_summed_up_drawn_and_copied():
    from wsi_inspector.core.edits.geometry import shapes
    from wsi_inspector.core.jsrules.jsonsize import js_stringify

    def nested(leaf, depth):
        value = leaf
        for _ in range(depth):
            value = {"spine": [[0, 0], [1, 1]], "inner": [value]}
        return value

    assert len(shapes(nested(1, 1500))) == 1500
    store = [entry("c1", nested(1, 300)), entry("e1", nested(2, 300), applied=True)]
    s = load_bytes(js_stringify({**HEAD, "store": store}).encode(), "deep.json")
    edit = diff_edits(s)[0]
    assert len(edit.changes) == 1 and edit.changes[0]["to"] == 2
    assert "→ 2 mm" not in summary_line(edit) and "→ 2" in summary_line(edit)
    assert copy_as_body(edit, s).count("[") > 600
