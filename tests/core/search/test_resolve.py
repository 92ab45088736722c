"""The resolver (wsi_inspector.core.search.resolve): which entry inputs.last / inputs.at returns at a state, and why."""
import orjson
import pytest

from wsi_inspector.core.search.resolve import parse_expression, parse_strict, resolve
from wsi_inspector.core.jsrules.run_inputs import make_inputs, trim_store
from wsi_inspector.core.session.load import load, load_bytes

STORE = [
    {"id": "c1", "call": "pack.corridorRuns.corridorRuns", "input": {"spine": [1]}, "body": "b1"},
    {"id": "c2", "call": "pack.corridorRuns.score", "input": {"s": 1}, "body": "b1"},
    {"id": "e1", "call": "pack.corridorRuns.corridorRuns", "input": {"spine": [2]}, "applied": True, "editOf": "c1"},
    {"id": 5, "call": "pack.rooms.place", "input": [1], "body": "b2"},
    {"id": "c6", "call": "pack.corridorRuns.corridorRuns", "input": {"spine": [3]}, "body": "b3"},
]


@pytest.fixture
def session():
    document = {"format": "worker-session/1", "session": {"id": "t"}, "store": STORE,
                "bodies": [{"id": "b1", "code": ""}, {"id": "b2", "code": ""}, {"id": "b3", "code": ""}]}
    return load_bytes(orjson.dumps(document), "t.json")


def test_last_of_a_module_is_the_newest_matching_entry(session):
    result = resolve(session.state_at("b2").store, 'inputs.last("pack.corridorRuns")')
    assert result.entry.id == "e1"
    assert result.matches == [0, 1, 2]
    assert "person's canvas edit of c1" in result.reason


def test_the_resolver_returns_exactly_what_make_inputs_returns(session):
    store = session.state_at(None).store
    for wanted in ["pack.corridorRuns", "pack.corridorRuns.score", "pack.rooms", "pack"]:
        result = resolve(store, f"last({wanted})")
        inputs = make_inputs(store)
        assert result.entry is inputs.last_entry(wanted)
        assert (result.entry.input if result.entry else None) == inputs.last(wanted)


def test_a_newer_model_call_shadows_an_older_edit(session):
    result = resolve(session.state_at(None).store, "pack.corridorRuns")
    assert result.entry.id == "c6"
    assert "edit e1 is older" in result.reason


def test_no_match_says_undefined_and_hints(session):
    result = resolve(session.state_at(None).store, "pack.corridor")
    assert result.entry is None
    assert "undefined" in result.reason and "did you mean pack.corridorRuns" in result.reason


def test_at_compares_ids_as_strings(session):
    store = session.state_at(None).store
    for typed in ["inputs.at(5)", 'at("5")', "5"]:
        result = resolve(store, typed)
        assert result.entry is not None and result.entry.id == 5 and result.index == 3


def test_at_of_a_later_entry_says_it_comes_later(session):
    result = resolve(session.state_at("b2").store, "at(c6)", later=session.entries)
    assert result.entry is None
    assert "recorded later by body b3" in result.reason


def test_unreadable_expression_says_how_to_write_it():
    assert "write inputs.last" in parse_expression("last(a.b")
    assert parse_expression("inputs.last('a.b')") == ("last", "a.b")
    assert parse_expression("c5") == ("at", "c5")


def test_on_the_demo_last_corridor_runs_at_the_end_is_the_newest(demo_path):
    session = load(demo_path)
    store = session.state_at(None).store
    result = resolve(store, "pack.corridorRuns")
    assert result.entry is make_inputs(store).last_entry("pack.corridorRuns")
    assert result.expression == 'inputs.last("pack.corridorRuns")'


# --- the resolver under the cap (issue 14, point 1) ------------------------------------------------------------


def _demo_at(session, at):
    state = session.state_at(at)
    return state.store, session.caps.store_bytes


def test_at_b8_c1_falls_at_the_cap_and_the_resolver_says_the_body_gets_undefined(demo_path):
    session = load(demo_path)
    store, cap = _demo_at(session, "b8")
    result = resolve(store, 'inputs.at("c1")', session.entries, cap=cap, at_body="b8")
    assert result.entry is None and result.untrimmed.id == "c1" and result.falls
    assert result.reason.startswith("c1 falls at the 5.6 KiB cap: a body at b8 gets undefined (untrimmed: c1)")
    # The same answer the editor's functions give: makeInputs over the store trimStore keeps.
    tail, fell = trim_store(store, cap)
    assert make_inputs(tail).entry_at("c1") is None and make_inputs(store).entry_at("c1") is not None
    assert result.fell == fell == 1


def test_the_capped_resolver_returns_what_make_inputs_over_the_trimmed_store_returns(demo_path):
    session = load(demo_path)
    for body in [b.id for b in session.bodies] + [None]:
        store = session.state_at(body).store
        for cap in (0, 300, 1500, 4000, session.caps.store_bytes, 10**9):
            tail, _ = trim_store(store, cap)
            inputs = make_inputs(tail)
            for wanted in ["pack.corridorRuns", "site.boundary", "mep.risers.risers", "dept.zones", "nope.nope"]:
                result = resolve(store, f'inputs.last("{wanted}")', cap=cap, at_body=body)
                assert result.entry is inputs.last_entry(wanted), (body, cap, wanted)
                assert result.untrimmed is make_inputs(store).last_entry(wanted)
            for entry in session.entries[:12]:
                result = resolve(store, f'inputs.at("{entry.id}")', session.entries, cap=cap, at_body=body)
                assert result.entry is inputs.entry_at(entry.id), (body, cap, entry.id)


def test_a_kept_answer_says_the_cap_trims_older_entries_not_this_one(demo_path):
    session = load(demo_path)
    store, cap = _demo_at(session, "b8")
    result = resolve(store, 'inputs.last("pack.corridorRuns")', cap=cap, at_body="b8")
    assert result.entry is result.untrimmed and not result.falls
    assert "the 5.6 KiB cap trims an older entry, not this one" in result.reason


def test_strict_forms_take_either_quotes_and_nothing_else():
    assert parse_strict('inputs.last("pack.corridorRuns")') == ("last", "pack.corridorRuns")
    assert parse_strict("inputs.at('c1')") == ("at", "c1")
    for bad in ["inputs.last(pack)", "last('a.b')", "c1", 'inputs.at("c1\')', "inputs.first('x')", ""]:
        assert parse_strict(bad) is None, bad
