"""Pairing canvas edits with their model calls (SPEC 4): editOf, same call, chains, no base, units, copy as body."""
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from core.diff import apply_changes, json_equal
from core.edits import copy_as_body, diff_edits, edit_document, pair_edits, summary_line
from core.session import load, load_bytes
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
    assert [(x.before.id, x.after.id, [c["path"] for c in x.changes]) for x in second.steps] == [
        ("c1", "e1", ["/d"]), ("e1", "e2", ["/w"])]


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
    assert document["base"] is None and document["changes"] == []
    assert document["steps"][0]["changes"] == [{"op": "replace", "path": "/d", "from": 1, "to": 2, "delta": 1}]


def test_a_broken_edit_of_falls_back_to_the_same_call_and_says_so():
    s = load(DEMO.parent / "broken" / "edit_of_unknown.json")
    pairs = {p.edit.id: p for p in pair_edits(s)}
    assert pairs["e1"].base.id == "c1" and "'c9' names no entry" in pairs["e1"].notes[0]
    assert [e.id for e in pairs["e2"].chain] == ["c1", "e1", "e2"] and "names a later entry" in pairs["e2"].notes[0]


def test_different_units_are_flagged_and_numbers_shown_converted_to_the_model_unit():
    s = session_of(entry("c1", {"depth": 32, "spine": [[0, 0], [10, 0]]}),
                   {**entry("e1", {"depth": 1.5, "spine": [[0, 0], [1, 0]]}, applied=True), "unit": "in"})
    edit = diff_edits(s)[0]
    assert "mm" in edit.unit_note and "in" in edit.unit_note
    depth = next(c for c in edit.changes if c["path"] == "/depth")
    assert depth["to"] == 1.5 and depth["converted"] == {"unit": "mm", "to": 38.1, "delta": 6.1}
    document = edit_document(edit)
    assert document["unit"] == "in" and document["baseUnit"] == "mm" and document["unitNote"] == edit.unit_note
    assert "[= 38.1 mm, +6.1]" in summary_line(edit)


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
        for step in edit.steps:
            assert json_equal(apply_changes(step.before.input, step.changes), step.after.input)


def test_copy_as_body_spreads_the_model_call_and_sets_only_the_changed_top_level_fields():
    s = load(DEMO)
    text = copy_as_body(diff_edits(s, "e1")[0], s)
    # pack.corridorRuns also has a score fn in this session, so last("pack.corridorRuns") could be a score input.
    assert text.startswith('return {\n  ...inputs.last("pack.corridorRuns.corridorRuns"),\n')
    assert "  bandDepth: 34,\n" in text and "  spine: [[1500,18000],[15000,18600]," in text
    assert "clearWidth" not in text and "level" not in text
    alone = session_of(entry("c1", {"a": 1, "b-c": 2, "gone": 3}, call="g.m.f"),
                       entry("e1", {"a": 1, "b-c": 5}, call="g.m.f", applied=True))
    assert copy_as_body(diff_edits(alone)[0], alone) == (
        'return {\n  ...inputs.last("g.m"),\n  "b-c": 5,\n  gone: undefined,\n};\n')


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
        for step in edit.steps:
            assert json_equal(apply_changes(step.before.input, step.changes), step.after.input)
        assert edit.pairing.chain[-1] is edit.edit
        assert all(e.applied for e in edit.pairing.chain[1:])
