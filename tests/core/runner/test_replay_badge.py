"""The replay badge of a body (the timeline's and the Run tab's), decided in core: same, diverged, failed."""
from __future__ import annotations

import json

from wsi_inspector.core.runner.replay import replay_badge, replay_session
from wsi_inspector.core.session.load import load_bytes
from tests.conftest import DEMO


def test_each_body_gets_same_diverged_or_failed_from_its_real_replay(runner):
    document = json.loads(DEMO.read_text())
    document["bodies"][3]["result"]["returned"]["total"] = 9  # b4 returns something else than recorded
    document["bodies"][4]["code"] = "throw new Error('boom');"  # b5 no longer runs to the end
    session = load_bytes(json.dumps(document).encode(), "changed.json")
    badges: dict[str, str] = {}
    replay_session(session, runner, on_body=lambda verdict, result: badges.__setitem__(str(verdict["body"]), replay_badge(verdict, result)))
    assert badges["b4"] == "diverged" and badges["b5"] == "failed"
    assert {badges[f"b{i}"] for i in (1, 2, 3, 8)} == {"same"}
    assert badges["b7"] == "same-failed"  # fails as recorded: the same, but not a green "same" (issue 31.11)
