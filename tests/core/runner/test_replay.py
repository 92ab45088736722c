"""Replay: every demo body the same; a changed record shows the first difference."""
from __future__ import annotations

import json

from wsi_inspector.core.runner.replay import replay_session
from wsi_inspector.core.session.load import load_bytes
from tests.conftest import DEMO


def test_the_demo_session_replays_with_every_body_the_same(demo, runner):
    verdicts = replay_session(demo, runner)
    assert [v["body"] for v in verdicts] == [b.id for b in demo.bodies]
    assert all(v["same"] for v in verdicts), [v for v in verdicts if not v["same"]]


def _demo_with(change) -> object:
    document = json.loads(DEMO.read_text())
    change(document)
    return load_bytes(json.dumps(document).encode(), "changed.json")


def test_a_changed_recorded_input_is_the_first_difference(runner):
    def bump(document):
        document["store"][4]["input"]["bandDepth"] = 31  # c5, b2's second call
    session = _demo_with(bump)
    verdicts = {v["body"]: v for v in replay_session(session, runner)}
    difference = verdicts["b2"]["firstDifference"]
    assert difference["kind"] == "input" and difference["entry"] == "c5" and difference["index"] == 1
    assert difference["changes"] == [{"op": "replace", "path": "/bandDepth", "from": 31, "to": 32, "delta": 1}]


def test_a_changed_returned_value_is_reported_with_its_diff(runner):
    def change(document):
        document["bodies"][3]["result"]["returned"]["total"] = 9
    verdicts = {v["body"]: v for v in replay_session(_demo_with(change), runner)}
    difference = verdicts["b4"]["firstDifference"]
    assert difference["kind"] == "returned"
    assert difference["changes"] == [{"op": "remove", "path": "/total", "from": 9}]


def test_a_body_that_now_fails_says_so_with_its_error(runner):
    def change(document):
        document["bodies"][0]["code"] = document["bodies"][0]["code"].replace("// Read", "null.x; // Read")
    verdicts = {v["body"]: v for v in replay_session(_demo_with(change), runner)}
    assert verdicts["b1"]["same"] is False
    assert "TypeError" in verdicts["b1"]["firstDifference"]["message"]


# --- issue 14, point 5: compare as JavaScript sees values; name the recorded calls that fed a divergence ------


BIG = 12345678901234567890  # JavaScript reads it as the double printed 12345678901234567000


def _number_session(recorded_returned: str) -> object:
    # Written by hand: the record holds the digits as the editor wrote them, not as JavaScript prints them.
    text = (
        '{"format": "worker-session/1", "session": {"id": "n"}, "store": ['
        '{"id": "c1", "call": "big.num.num", "body": "b1", "input": {"n": 12345678901234567890, "z": -0.0, "one": 1.0},'
        ' "output": {"n": 12345678901234567890, "half": 0.5}}],'
        ' "bodies": [{"id": "b1", "code": "const r = await modules.big.num.num({ n: 12345678901234567890, z: -0, one: 1 });\\n'
        'return { r, n: 12345678901234567000, z: 0, one: 1.0 };",'
        f' "result": {{"ok": true, "returned": {recorded_returned}}}}}]}}'
    )
    return load_bytes(text.encode(), "numbers.json")


def test_numbers_javascript_cannot_tell_apart_replay_the_same(runner):
    session = _number_session('{"r": {"n": 12345678901234567890, "half": 0.5}, "n": 12345678901234567890, "z": -0.0, "one": 1}')
    [verdict] = replay_session(session, runner)
    assert verdict == {"body": "b1", "same": True}  # SPEC 6's shape: recordedCalls only where it diverges


def test_a_number_javascript_can_tell_apart_still_differs(runner):
    session = _number_session('{"r": {"n": 12345678901234567890, "half": 0.5}, "n": 12345678901234568890, "z": 0, "one": 1}')
    [verdict] = replay_session(session, runner)
    assert not verdict["same"]
    difference = verdict["firstDifference"]
    assert difference["kind"] == "returned" and [c["path"] for c in difference["changes"]] == ["/n"]
    assert verdict["recordedCalls"] == ["c1"]


def test_a_tampered_c23_output_divergence_names_the_recorded_calls_that_fed_it(runner):
    def tamper(document):
        c23 = next(e for e in document["store"] if e["id"] == "c23")
        c23["output"]["level"] = 99
    verdicts = {v["body"]: v for v in replay_session(_demo_with(tamper), runner)}
    b6 = verdicts["b6"]
    assert not b6["same"] and b6["firstDifference"]["kind"] == "returned"
    assert [c["path"] for c in b6["firstDifference"]["changes"]] == ["/levels/1"]
    assert "c23" in b6["recordedCalls"]
    assert b6["firstDifference"]["fedBy"] == ["c23"]  # the one whose output holds the replayed 99
    assert "recorded output of c23" in b6["firstDifference"]["message"]
    assert b6["recordedCalls"] == [f"c{n}" for n in range(22, 30)]  # every riser call of b6 answered from the record
    assert all(v["same"] for body, v in verdicts.items() if body != "b6")
