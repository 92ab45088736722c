"""Issue 28, point 3: a session opens without the GUI thread walking its entries or bodies.

Whatever the views show of every entry or body (the longest id, the canvas edits counted, each body's
place in the choosers and the timeline) is made by the load job (wsi_inspector.gui.background.session_facts);
the body choosers make a row's text only when it is shown. Counted, not timed: the session's lists
record every walk made of them once the load job has handed the session over.
"""
from __future__ import annotations

import json
import threading
import traceback
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from wsi_inspector.gui.background.loader import load_session

BODIES, CALLS = 600, 4  # more than a screenful of bodies, and of timeline rows


class Walked(list):
    """A session's list that notes each walk of it whole made on the GUI thread (iterating it, or a slice
    longer than a screenful), with where it was made; the jobs' threads may walk it."""

    walks: list[str]

    def _note(self, what: str) -> None:
        if threading.current_thread() is threading.main_thread():
            self.walks.append(f"{what} at " + " <- ".join(f"{f.name}:{f.lineno}" for f in reversed(traceback.extract_stack()[-6:-2])))

    def __iter__(self):
        self._note("iterated")
        return super().__iter__()

    def __getitem__(self, index):
        if isinstance(index, slice) and len(range(*index.indices(len(self)))) > 100:
            self._note(f"sliced {index}")
        return super().__getitem__(index)


class _Job:
    """What the load job is handed: progress said, never cancelled (the test's own thread runs it)."""

    def check(self) -> None:
        pass

    def progress(self, _percent: int, _text: str) -> None:
        pass


def _session_file(folder: Path) -> Path:
    store, bodies = [], []
    for b in range(1, BODIES + 1):
        bodies.append({"id": f"b{b}", "code": f"// body {b}\nreturn 1"})
        store += [{"id": f"c{b}.{k}", "call": "pack.rooms.place", "body": f"b{b}", "input": {"k": k}} for k in range(CALLS)]
        if b % 7 == 0:  # a person's canvas edit of the call before
            store.append({"id": f"e{b}", "call": "pack.rooms.place", "applied": True, "editOf": f"c{b}.0", "input": {"k": 9}})
    path = folder / "many-bodies.json"
    path.write_text(json.dumps({"format": "worker-session/1", "session": {"id": "many"}, "store": store, "bodies": bodies}))
    return path


@pytest.fixture
def loaded(tmp_path):
    return load_session(_Job(), _session_file(tmp_path))  # the job's work, as its thread does it


def test_opening_a_session_walks_no_entry_or_body_list_on_the_gui_thread(window, loaded):
    session = loaded.session
    walks: list[str] = []
    for name in ("entries", "bodies"):
        watched = Walked(getattr(session, name))
        watched.walks = walks
        setattr(session, name, watched)
    loaded.index.entries = session.entries
    window._loaded(loaded)
    QApplication.processEvents()
    for tab in range(window.tabs.count()):  # every tab shown once, as a person looking around would
        window.tabs.setCurrentIndex(tab)
        QApplication.processEvents()
    window.context.set_cursor(session.bodies[BODIES // 2].id)
    QApplication.processEvents()
    window.show_tab("inputs")
    window.context.choose_entry(session.entries[len(session.entries) // 3])  # an entry chosen in the timeline
    QApplication.processEvents()  # its place in the store: from the index the load job made (issue 28)
    assert window.context.session is session and len(session.bodies) == BODIES
    assert walks == []


def test_the_views_show_what_the_load_job_counted(window, loaded):
    window._loaded(loaded)
    QApplication.processEvents()
    session = loaded.session
    edits = sum(e.applied for e in session.entries)
    assert edits == BODIES // 7
    assert f"{edits:,} canvas edits" in window.timeline.summary.text()
    run = window.views["run"]
    window.context.set_cursor("b321")
    window.show_tab("run")  # a tab behind another follows the cursor once shown (issue 28)
    assert run.body_combo.currentData() == "b321" and run.body_combo.currentText() == "b321 · body 321"
    changes = window.views["changes"]
    window.show_tab("changes")
    QApplication.processEvents()
    assert changes.to_box.currentText() == "body b321" and changes.from_box.currentText() == "body b320"
    assert changes.to_box.count() == BODIES + 1  # every body, then the end of the session


def test_what_the_load_job_builds_is_frozen_out_of_the_collectors_walks(loaded):
    """Millions of objects live as long as a big session: frozen (as the parse's are), no full collection
    walks them again; one falling in a cursor move cost the GUI thread a pause that grew with the session."""
    import gc

    collected = {id(o) for generation in range(3) for o in gc.get_objects(generation)}
    built = [loaded.index.sizes, loaded.index.calls, loaded.session.entries[0], loaded.session.bodies[0]]
    assert [id(o) in collected for o in built] == [False] * len(built)
