"""The "next body" rule (`wsi_inspector.core.session.timeline.body_handed`): the first body handed an entry, one copy for rows and cursor."""
import json

import pytest

from wsi_inspector.core.session.model import Body, Entry
from wsi_inspector.core.session.load import load
from wsi_inspector.core.session.timeline import body_handed, timeline_rows
from tests.conftest import DEMO


def _session(tmp_path, store, bodies):
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"format": "worker-session/1", "session": {"id": "s"}, "store": store, "bodies": bodies}))
    return load(path)


def test_an_entry_is_first_handed_to_the_body_after_it_and_the_last_ones_to_the_end(tmp_path):
    store = [{"id": "c1", "call": "a.b.c", "input": 1, "body": "b1"},
             {"id": "e1", "call": "a.b.c", "input": 2, "applied": True},
             {"id": "c2", "call": "a.b.c", "input": 3, "body": "b2"},
             {"id": "e2", "call": "a.b.c", "input": 4, "applied": True}]
    session = _session(tmp_path, store, [{"id": "b1", "code": ""}, {"id": "b2", "code": ""}])
    assert [str(i.id) for i in session.timeline] == ["b1", "c1", "e1", "b2", "c2", "e2"]
    by_id = {str(i.id): i for i in session.timeline}
    assert body_handed(session, by_id["c1"]) == "b2"  # b1's own call: b1 was handed the store before it
    assert body_handed(session, by_id["e1"]) == "b2"
    assert body_handed(session, by_id["b1"]) == "b2"
    assert body_handed(session, by_id["e2"]) is None  # no later body: the end of the session
    assert body_handed(session, by_id["c2"]) is None


def test_an_entry_of_another_session_is_not_on_the_timeline():
    session = load(DEMO)
    with pytest.raises(KeyError):
        body_handed(session, Entry("x", "a.b.c", 1))


def test_the_timeline_rows_move_the_cursor_where_body_handed_says_for_every_item():
    session = load(DEMO)
    checked = 0
    for row in timeline_rows(session):
        if isinstance(row.item, Body):
            for call in row.children:
                assert row.cursor_for(call) == body_handed(session, call)
                checked += 1
        elif row.item is not None:
            assert row.cursor == body_handed(session, row.item)
            checked += 1
    assert checked == len([i for i in session.timeline if not isinstance(i, Body)])


def test_the_state_at_the_handed_body_is_the_first_that_holds_the_entry():
    session = load(DEMO)
    bodies = [i.id for i in session.timeline if isinstance(i, Body)]
    for entry in (i for i in session.timeline if isinstance(i, Entry)):
        handed = body_handed(session, entry)
        assert any(e is entry for e in session.state_at(handed).store)
        earlier = bodies[: bodies.index(handed)] if handed is not None else bodies
        if earlier:
            assert not any(e is entry for e in session.state_at(earlier[-1]).store)


def test_a_timeline_that_grows_at_its_end_is_answered_for_the_new_items_and_the_old_ones_waiting(tmp_path):
    # A followed JSON Lines file grows the loaded session in place (wsi_inspector.core.session.growing): no stale answer.
    store = [{"id": "c1", "call": "a.b.c", "input": 1, "body": "b1"}, {"id": "e1", "call": "a.b.c", "input": 2, "applied": True}]
    session = _session(tmp_path, store, [{"id": "b1", "code": ""}])
    c1, e1 = session.entries
    assert body_handed(session, e1) is None
    later, after = Body("b2", ""), Entry("c2", "a.b.c", 3, body="b2")
    session.timeline.extend([later, after])
    assert body_handed(session, e1) == body_handed(session, c1) == "b2"
    assert body_handed(session, after) is None
