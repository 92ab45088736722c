"""One session's check (validate, replay, trim warnings), the corpus walk, bounded gzip, and --where."""
from __future__ import annotations

import gzip

import pytest

from wsi_inspector.core.check.check import CheckOptions, TooLarge, check_file, find_sessions, unpack
from wsi_inspector.core.check.where import WhereError, parse_where
from tests.conftest import DEMO
from tests.helpers.check_corpus import CALL, edit_falling_cap, session, write


def codes(report):
    return [f["code"] for f in report["findings"]]


@pytest.mark.parametrize("name", ["s.json", "s.jsonl", "s.json.gz", "s.jsonl.gz"])
def test_a_clean_session_in_every_form_replays_the_same(tmp_path, runner, name):
    path = write(tmp_path / name, session("a", bodies=3, edit=True))
    report = check_file(path, runner)
    assert report["clean"], report["findings"]
    assert (report["bodies"], report["replayed"], report["same"], report["edits"]) == (3, 3, 3, 1)
    assert report["form"] == ("jsonl" if ".jsonl" in name else "json")
    assert report["editedCalls"] == [CALL]


def test_the_demo_session_is_clean(runner):
    report = check_file(DEMO, runner)
    assert report["clean"], report["findings"]
    assert report["same"] == report["bodies"] == 8


def test_a_body_that_replays_differently_is_a_finding_at_its_place(tmp_path, runner):
    report = check_file(write(tmp_path / "d.json", session("d", bodies=2, differs=True)), runner)
    assert not report["clean"]
    assert report["differs"] == 1 and report["same"] == 1
    [found] = [f for f in report["findings"] if f["code"].startswith("replay-")]
    assert found["code"] == "replay-returned" and found["body"] == "b2" and found["where"] == "/bodies/1"


def test_an_edit_that_falls_at_the_sessions_cap_is_a_lost_edit(tmp_path, runner):
    document = session("t", bodies=3, edit=True)
    document["caps"] = {"storeBytes": edit_falling_cap(document)}
    report = check_file(write(tmp_path / "t.json", document), runner)
    assert not report["clean"]
    assert report["lostEdits"] == 1 and report["lostEditCalls"] == [CALL]
    [found] = [f for f in report["findings"] if f["code"] == "edit-falls"]
    assert found["entry"] == "e1" and found["where"] == "/store/1" and "canvas edit e1" in found["message"]


def test_an_endless_body_times_out_and_the_next_bodies_still_run(tmp_path, runner):
    report = check_file(write(tmp_path / "loop.json", session("l", bodies=2, endless=True)), runner,
                        CheckOptions(timeout_s=0.5))
    assert report["fails"] == 1 and report["replay"][-1]["error"]["name"] == "TimeoutError"
    after = check_file(DEMO, runner)
    assert after["clean"]


def test_a_session_over_its_time_budget_reports_the_bodies_not_replayed(tmp_path, runner):
    report = check_file(write(tmp_path / "b.json", session("b", bodies=3)), runner, CheckOptions(budget_s=0.0))
    assert "budget" in codes(report) and not report["clean"]
    assert [r["same"] for r in report["replay"]] == [None, None, None]


def test_a_gzip_bomb_is_refused_at_the_bound_without_unpacking_it_all(tmp_path, runner):
    bomb = tmp_path / "bomb.json.gz"
    bomb.write_bytes(gzip.compress(b" " * (64 * 1024 * 1024), 9))
    report = check_file(bomb, runner, CheckOptions(max_bytes=1024 * 1024))
    assert codes(report) == ["too-large"] and not report["clean"]


def test_unpack_reads_every_gzip_member_and_refuses_a_truncated_stream():
    data = gzip.compress(b'{"a":') + gzip.compress(b"1}")
    assert unpack(data, 100) == b'{"a":1}'
    with pytest.raises(TooLarge):
        unpack(data, 5)
    with pytest.raises(Exception, match="ends early"):
        unpack(gzip.compress(b"x" * 1000)[:-12], 10_000)
    with pytest.raises(Exception, match="not a valid gzip"):
        unpack(b"\x1f\x8b" + b"\x00" * 20, 100)


def test_bad_json_and_an_unreadable_file_are_findings_not_exceptions(tmp_path, runner):
    (tmp_path / "bad.json").write_text('{"format": ')
    assert codes(check_file(tmp_path / "bad.json", runner)) == ["syntax"]
    assert codes(check_file(tmp_path / "gone.json", runner)) == ["unreadable"]


def test_the_walk_finds_every_session_form_recursively_and_nothing_else(tmp_path):
    for name in ["a.json", "sub/b.jsonl", "sub/deeper/c.json.gz", "sub/d.jsonl.gz", "notes.txt", "e.json.bak"]:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("{}")
    found = [p.relative_to(tmp_path).as_posix() for p in find_sessions([tmp_path])]
    assert found == ["a.json", "sub/b.jsonl", "sub/d.jsonl.gz", "sub/deeper/c.json.gz"]
    # A file named on its own is checked whatever its name, once.
    assert [p.name for p in find_sessions([tmp_path / "notes.txt", tmp_path / "notes.txt"])] == ["notes.txt"]


def _report(**overrides):
    base = {"calls": [CALL], "editedCalls": [], "lostEditCalls": [], "lostEdits": 0, "fails": 0, "differs": 0,
            "findings": [], "clean": True}
    return {**base, **overrides}


def test_where_terms_follow_call_matches_and_combine():
    edited = _report(editedCalls=[CALL])
    assert parse_where(["edited=pack.corridorRuns"]).matches(edited)
    assert parse_where(["edited=pack.corridorRuns.corridorRuns"]).matches(edited)
    assert not parse_where(["edited=pack.corridorRuns"]).matches(_report())
    assert not parse_where(["call=pack.corridor"]).matches(edited)  # not a partial segment
    assert parse_where(["call=pack.rooms|pack.corridorRuns"]).matches(edited)
    assert parse_where(["edited=pack.corridorRuns,!fails"]).matches(edited)
    assert not parse_where(["edited=pack.corridorRuns", "fails"]).matches(edited)
    problem = _report(findings=[{"code": "bad-unit", "severity": "error"}], clean=False)
    assert parse_where(["problem=bad-unit"]).matches(problem) and parse_where(["problem=error"]).matches(problem)
    assert parse_where(["!clean"]).matches(problem)
    assert parse_where(["edit-falls=pack.corridorRuns"]).matches(_report(lostEdits=1, lostEditCalls=[CALL]))


def test_where_decides_load_only_terms_before_replay():
    where = parse_where(["edited=pack.corridorRuns fails"])
    assert not where.may_match(_report())  # no edit: no need to replay
    assert where.may_match(_report(editedCalls=[CALL]))


@pytest.mark.parametrize("text", ["", "nope=1", "call", "fails=2", "call=pack", "problem=Bad Unit"])
def test_a_bad_where_is_refused_with_a_hint(text):
    with pytest.raises(WhereError, match="--where"):
        parse_where([text])


def test_a_where_that_rules_a_session_out_skips_its_replay(tmp_path, runner):
    path = write(tmp_path / "s.json", session("s", bodies=2))
    report = check_file(path, runner, where=parse_where(["edited=pack.corridorRuns"]))
    assert report["matched"] is False and report["replayed"] == 0
    report = check_file(path, runner, where=parse_where(["call=pack.corridorRuns"]))
    assert report["matched"] is True and report["replayed"] == 2


def test_junit_stays_valid_xml_whatever_a_message_holds(tmp_path):
    import xml.etree.ElementTree as ET

    from wsi_inspector.core.check.check import empty_report, finding, finish
    from wsi_inspector.core.check.report import write_junit

    report = empty_report("weird\x01name.json")
    report["findings"].append(finding("syntax", "error", "1:1", "bad byte \x00 here, lone \ud800 surrogate, <tag> & \"quote\""))
    report["bodies"] = 1
    report["replay"] = [{"body": "b\x1f1", "same": False, "ok": True, "ms": 1.0, "message": "differs \udfff"}]
    out = tmp_path / "j.xml"
    write_junit([finish(report)], out)
    root = ET.parse(out).getroot()
    cases = list(root.iter("testcase"))
    assert [c.get("name") for c in cases] == ["load", "body b\ufffd1"]
    assert "<tag> & \"quote\"" in cases[0].find("failure").get("message")
    assert root.get("failures") == "2"


def test_a_checked_session_is_let_go_so_a_worker_does_not_grow_with_the_corpus(tmp_path, runner):
    import gc

    from wsi_inspector.core.session.load import Session

    path = write(tmp_path / "let_go.json", session("g", bodies=3, edit=True))
    for _ in range(3):
        assert check_file(path, runner)["same"] == 3
    gc.unfreeze()  # the loader freezes what it parsed; frozen objects are not in gc.get_objects()
    gc.collect()
    alive = [o for o in gc.get_objects() if isinstance(o, Session) and o.name == "let_go.json"]
    assert alive == []
