"""The timeline as rows (`wsi_inspector.core.session.timeline.timeline_rows`): bodies with their calls, long runs folded."""
import json

from wsi_inspector.core.session.load import load
from wsi_inspector.core.session.timeline import GROUP_AT, timeline_rows
from tests.conftest import DEMO


def test_the_demos_bodies_hold_their_calls_and_edits_stand_alone():
    rows = timeline_rows(load(DEMO))
    assert [r.kind for r in rows].count("body") == 8 and rows[-1].kind == "end"
    edits = [r for r in rows if r.kind == "edit"]
    assert [str(r.item.id) for r in edits] == ["e1", "e2", "e3"]
    assert all(str(r.cursor) == "b5" for r in edits)  # choosing an edit: the first body handed it


def test_a_long_run_of_edits_is_one_group_row_whose_children_are_the_edits(tmp_path):
    call = "pack.corridorRuns.corridorRuns"
    store = [{"id": "c0", "call": call, "input": {"d": 0}, "body": "b1"}]
    store += [{"id": f"e{k}", "call": call, "input": {"d": k}, "applied": True} for k in range(1, GROUP_AT + 51)]
    store += [{"id": "c9", "call": call, "input": {"d": 9}, "body": "b2"}]
    path = tmp_path / "edits.json"
    path.write_text(json.dumps({"format": "worker-session/1", "session": {"id": "s"}, "store": store,
                                "bodies": [{"id": "b1", "code": ""}, {"id": "b2", "code": ""}]}))
    session = load(path)
    rows = timeline_rows(session)
    assert [r.kind for r in rows] == ["body", "group", "body", "end"]
    group = rows[1]
    assert len(group.children) == GROUP_AT + 50 and group.children[0].id == "e1"
    assert group.cursor == "b2" and group.cursor_for(group.children[7]) == "b2"
    assert timeline_rows(session) is rows  # made once per session


def test_a_short_run_stays_row_by_row(tmp_path):
    store = [{"id": f"e{k}", "call": "a.b.c", "input": k, "applied": True} for k in range(GROUP_AT)]
    path = tmp_path / "few.json"
    path.write_text(json.dumps({"format": "worker-session/1", "session": {"id": "s"}, "store": store}))
    assert [r.kind for r in timeline_rows(load(path))] == ["edit"] * GROUP_AT + ["end"]
