"""Stepping along the timeline to failed bodies and canvas edits (`wsi_inspector.core.session.navigation`) on the demo."""
from wsi_inspector.core.session.navigation import KINDS, cursor_position, step
from wsi_inspector.core.session.load import load
from tests.conftest import DEMO


def names(session, kind, forward=True, start=None):
    position = cursor_position(session, start) if start is not None else (-1 if forward else len(session.timeline))
    found = []
    while (hit := step(session, position, KINDS[kind], forward)) is not None:
        position, item = hit
        found.append(str(item.id))
    return found


def test_failed_bodies_forward_and_back():
    session = load(DEMO)
    failed = [b.key for b in session.bodies if b.failed]
    assert failed and names(session, "failed") == failed
    assert names(session, "failed", forward=False) == failed[::-1]


def test_canvas_edits_in_timeline_order_from_the_cursor():
    session = load(DEMO)
    assert names(session, "edit") == ["e1", "e2", "e3"]
    assert names(session, "edit", start="b5") == []
    assert names(session, "edit", forward=False, start="b5") == ["e3", "e2", "e1"]


def test_the_end_of_the_session_is_after_the_last_item():
    session = load(DEMO)
    assert cursor_position(session, None) == len(session.timeline)
    assert step(session, len(session.timeline), KINDS["edit"]) is None
