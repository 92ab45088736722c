"""wsi_inspector.core.session.recorded_failure: a body's recorded error, and its line when the record gives none."""
from __future__ import annotations

from wsi_inspector.core.session.recorded_failure import call_line, recorded_failure
from wsi_inspector.core.runner.report import recorded_error
from wsi_inspector.core.session.load import load
from tests.conftest import DEMO


def test_a_recorded_error_string_splits_into_name_and_message():
    assert recorded_error({"ok": False, "error": "RangeError: too thin"}) == {"name": "RangeError", "message": "too thin"}
    assert recorded_error({"ok": False, "error": "oops: not a name"}) == {"name": "Error", "message": "oops: not a name"}
    assert recorded_error({"ok": False, "error": {"name": "TypeError", "message": "m", "line": 3, "column": True}}) == {
        "name": "TypeError", "message": "m", "line": 3}
    assert recorded_error({"ok": True}) is None and recorded_error(None) is None


def test_the_line_of_an_unanswered_call_stands_in_for_a_missing_one():
    session = load(DEMO)
    failure = recorded_failure(session, session.body("b7"))
    assert failure is not None
    assert (failure["line"], failure["column"], failure["lineFrom"], failure["entry"]) == (3, 23, "call", "c30")
    assert recorded_failure(session, session.body("b2")) is None
    refused = recorded_failure(session, session.body("b5"))
    assert refused is not None and "line" not in refused and refused["logs"] == ["re-run 5 runs; score 0.8072"]


def test_call_line_finds_a_call_named_after_its_module():
    code = "const a = 1;\nconst { rooms } = await modules . pack . rooms({ n: 2 });\n"
    assert call_line(code, "pack.rooms.rooms") == (2, 25)
    assert call_line(code, "site.boundary.offset") is None
