"""The nearest recorded call an unrecorded one is named against: the same answer as diffing every candidate, with
only the candidates that could be nearest diffed."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from wsi_inspector.core.edits import diff as diff_module
from wsi_inspector.core.edits.diff import diff
from wsi_inspector.core.runner import mock_modules
from wsi_inspector.core.runner.mock_modules import MockModules, _differs_at_least
from wsi_inspector.core.session.load import load_bytes

SCALARS = st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from([0.5, 1.0, -0.0, 2.5, 1e21]) | st.sampled_from(["a", "b", "é"])
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from("xyz"), inner, max_size=3),
                      max_leaves=8)
INPUTS = st.dictionaries(st.sampled_from(["level", "spine", "bandDepth", "label"]), VALUES, max_size=4)


@settings(max_examples=300, deadline=None)
@given(before=INPUTS | VALUES, after=INPUTS | VALUES)
def test_the_floor_is_never_above_the_changes_the_diff_finds(before, after):
    assert _differs_at_least(before, after) <= len(diff(before, after))


def _session(inputs: list) -> object:
    import json

    records = [{"id": f"c{i}", "call": "a.b.c", "input": value, "output": {"i": i}} for i, value in enumerate(inputs)]
    return load_bytes(json.dumps({"format": "worker-session/1", "session": {"id": "s"}, "store": records}).encode(), "s.json")


def _every_candidate_diffed(mock: MockModules, value: object) -> str:
    """The message as it was made before the floor: every candidate diffed, oldest first."""
    scored = []
    candidates = mock.by_call["a.b.c"][-mock_modules.NEAREST_CANDIDATES:]
    for i, entry in enumerate(candidates):
        changes = diff(entry.input, value)
        scored.append((len(changes), mock_modules._distance(changes), -i, entry, changes))
    count, _, _, nearest, _ = min(scored, key=lambda s: s[:3])
    return nearest.id


@settings(max_examples=150, deadline=None)
@given(recorded=st.lists(INPUTS, min_size=1, max_size=8), asked=INPUTS)
def test_the_nearest_call_is_the_one_diffing_every_candidate_names(recorded, asked):
    mock = MockModules(_session(recorded))
    message = mock.no_output_message("a.b.c", asked)
    nearest = _every_candidate_diffed(mock, asked)
    assert f" {nearest}" in message


def test_a_call_sure_to_differ_in_more_places_than_the_nearest_is_not_diffed(monkeypatch):
    """The newest recorded call differs in one member; the 40 before it in three: one diff, not 41."""
    older = [{"level": i, "spine": [[i, 0], [i, 1]], "bandDepth": 30 + i} for i in range(40)]
    newest = {"level": 7, "spine": [[0, 0], [9, 9]], "bandDepth": 32}
    mock = MockModules(_session(older + [newest]))
    diffs = []
    real = diff_module.diff
    monkeypatch.setattr(mock_modules, "diff", lambda a, b: diffs.append(a) or real(a, b))
    message = mock.no_output_message("a.b.c", dict(newest, bandDepth=33))
    assert "nearest recorded call is c40" in message and "/bandDepth" in message
    assert len(diffs) == 1


def test_among_calls_differing_in_as_many_places_the_closest_numbers_win_even_when_older():
    mock = MockModules(_session([{"level": 2, "bandDepth": 32.5}, {"level": 2, "bandDepth": 30}]))
    assert "nearest recorded call is c0" in mock.no_output_message("a.b.c", {"level": 2, "bandDepth": 33})


def test_the_floor_holds_for_numbers_python_and_javascript_read_alike_or_not():
    """1 and 1.0, -0.0 and 0, integers past 2^53 (one double in JavaScript, two numbers here and for the diff)."""
    for before, after in (({"n": 1}, {"n": 1.0}), ({"n": -0.0}, {"n": 0}), ([{"n": 2**53 + 1}], [{"n": 2**53}]),
                          ({"p": [[2**53 + 1, 0]]}, {"p": [[2**53, 0]]}), ({"b": True}, {"b": 1})):
        assert _differs_at_least(before, after) <= len(diff(before, after)), (before, after)
