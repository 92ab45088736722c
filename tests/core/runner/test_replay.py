"""Replay: every demo body the same; a changed record shows the first difference."""
from __future__ import annotations

import json

from core.runner.replay import replay_session
from core.session import load_bytes
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
