"""Loading off the GUI thread (progress, Cancel), following a growing JSON Lines file, the exception hook."""
import subprocess
import sys
from pathlib import Path

import orjson
import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QPushButton

from wsi_inspector.gui.window import errors
from wsi_inspector.gui.background.loader import SessionLoader
from tests.helpers.live_session import HEADER, entry_record, record_line

ROOT = Path(__file__).resolve().parents[3]


def test_following_a_json_lines_file_updates_the_views_as_lines_are_appended(window, open_file, tmp_path, qtbot):
    path = tmp_path / "live.jsonl"
    path.write_bytes(record_line(HEADER) + record_line({"kind": "body", "id": "b1", "code": "return 1"}) + record_line(entry_record(1)))
    session = open_file(window, path)
    assert len(session.entries) == 1
    window.follower._poll.setInterval(50)
    window.set_follow(True)
    with path.open("ab") as handle:
        handle.write(record_line(entry_record(2)) + record_line({"kind": "body", "id": "b2", "code": "return 2"}) + record_line(entry_record(3, "b2")))
    qtbot.waitUntil(lambda: len(window.context.session.entries) == 3, timeout=10_000)
    assert window.views["inputs"].model.rowCount() == 3
    assert [r.kind for r in window.timeline.model.rows] == ["body", "body", "end"]
    with path.open("ab") as handle:  # a partial last line: reported, the rest loads
        handle.write(record_line(entry_record(4, "b2")) + b'{"kind": "entry", "id": "c5", "ca')
    qtbot.waitUntil(lambda: len(window.context.session.entries) == 4, timeout=10_000)
    assert any("incomplete" in p.message for p in window.context.session.problems)
    window.set_follow(False)
    assert not window.follower.active


def test_cancel_drops_the_load_and_the_open_session_stays(window, open_file, demo_path, tmp_path, qtbot):
    demo = open_file(window, demo_path)
    big = tmp_path / "big.json"
    store = [{"id": f"c{i}", "call": "pack.rooms.place", "input": {"points": list(range(200))}} for i in range(5000)]
    big.write_bytes(orjson.dumps({"format": "worker-session/1", "session": {"id": "big"}, "store": store}))
    with qtbot.waitSignal(window.loader.cancelled, timeout=5000):
        window.open_file(big)
        window.progress.findChild(QPushButton).click()  # the dialog's Cancel button
    assert window.context.session is demo
    window.loader.wait()
    qtbot.wait(50)
    assert window.context.session is demo and not window.loader.busy


def test_the_loader_reports_progress_and_measures_every_entry(qtbot, demo_path):
    from wsi_inspector.gui.background.session_facts import _store_indexes

    loader = SessionLoader()
    seen = []
    loader.progress.connect(lambda percent, text: seen.append(percent))
    with qtbot.waitSignal(loader.loaded, timeout=20_000) as done:
        loader.start(demo_path)
    result = done.args[0]
    assert seen[-1] == 100 and seen == sorted(seen)
    assert len(result.index.sizes) == len(result.session.entries)
    assert all(e.input_bytes is not None for e in result.session.entries)
    assert result.index in _store_indexes  # the trimStore index too: the window builds nothing on open
    loader.wait()


def test_an_unexpected_exception_is_logged_and_shown_and_the_app_keeps_running(qtbot, private_log):
    try:
        raise RuntimeError("something odd in a slot")
    except RuntimeError as exc:
        box = errors.report(exc)
    qtbot.addWidget(box)
    assert box.isVisible() and not box.isModal()
    assert "something odd in a slot" in box.text()
    assert "something odd in a slot" in private_log.read_text() and "Traceback" in private_log.read_text()


def test_the_hook_routes_uncaught_exceptions_to_the_dialog(qtbot, private_log, monkeypatch):
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    errors.install()
    try:
        raise ValueError("uncaught here")
    except ValueError as exc:
        sys.excepthook(type(exc), exc, exc.__traceback__)
    assert "uncaught here" in private_log.read_text()
    for box in errors._dialogs:
        qtbot.addWidget(box)


@pytest.mark.parametrize("tab", ["inputs", "kept", "problems"])
def test_screenshot_renders_the_window_at_1400_by_900_and_exits(tmp_path, tab, demo_path):
    out = tmp_path / f"{tab}.png"
    done = subprocess.run([sys.executable, "-m", "wsi_inspector.gui.window.launch", "gui", str(demo_path), "--screenshot", str(out), "--tab", tab],
                          cwd=ROOT, capture_output=True, text=True, timeout=120, env={"QT_QPA_PLATFORM": "offscreen", "PATH": "/usr/bin:/bin",
                                                                                       "HOME": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1400, 900)


def test_screenshot_of_an_unknown_tab_is_a_usage_error(tmp_path):
    done = subprocess.run([sys.executable, "-m", "wsi_inspector.gui.window.launch", "gui", "--screenshot", str(tmp_path / "x.png"), "--tab", "nope"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "invalid choice: 'nope'" in done.stderr
    assert not (tmp_path / "x.png").exists()


def test_appended_lines_are_inserted_as_rows_without_reading_the_file_again(window, open_file, tmp_path, qtbot):
    path = tmp_path / "live.jsonl"
    capped = {**HEADER, "caps": {"storeBytes": 120}}  # over the cap as it grows: the trim previews follow
    path.write_bytes(record_line(capped) + record_line({"kind": "body", "id": "b1", "code": "return 1"}) + record_line(entry_record(1)))
    session = open_file(window, path)
    window.show_tab("trim")
    window.follower._poll.setInterval(50)
    window.set_follow(True)
    inputs, timeline = window.views["inputs"].model, window.timeline.model
    resets, inserted = [], []
    for model in (inputs, timeline):
        model.modelReset.connect(lambda m=model: resets.append(m))
        model.rowsInserted.connect(lambda parent, first, last, m=model: inserted.append((m, parent.row(), first, last)))
    loads = []
    window.loader.loaded.connect(loads.append)
    with path.open("ab") as handle:
        handle.write(record_line(entry_record(2)) + record_line({"kind": "body", "id": "b2", "code": "return 2"}) + record_line(entry_record(3, "b2")))
    qtbot.waitUntil(lambda: len(session.entries) == 3, timeout=10_000)
    qtbot.wait(100)
    assert window.context.session is session and loads == [] and resets == []
    assert (inputs, -1, 1, 2) in inserted  # c2 and c3 after c1
    assert (timeline, 0, 1, 1) in inserted and (timeline, -1, 1, 1) in inserted  # c2 under b1; b2 before the end
    assert [inputs.entry_at_row(r).key for r in range(inputs.rowCount())] == ["c1", "c2", "c3"]
    assert [r.kind for r in timeline.rows] == ["body", "body", "end"]
    assert timeline.rowCount(timeline.index(1, 0)) == 1

    with path.open("ab") as handle:  # a partial last line waits for its newline, reported meanwhile
        handle.write(b'{"kind": "entry", "id": "c4", "call": "pack.rooms.place", ')
    qtbot.waitUntil(lambda: any("incomplete" in p.message for p in session.problems), timeout=10_000)
    assert len(session.entries) == 3
    with path.open("ab") as handle:
        handle.write(b'"input": 4, "body": "b2"}\n')
    qtbot.waitUntil(lambda: len(session.entries) == 4, timeout=10_000)
    assert not any("incomplete" in p.message for p in session.problems) and loads == []
    assert timeline.rowCount(timeline.index(1, 0)) == 2

    # Rewritten rather than appended to: the file is read again whole.
    path.write_bytes(record_line(HEADER) + record_line({"kind": "body", "id": "b9", "code": "return 9"}) + record_line(entry_record(9, "b9")) + record_line(entry_record(10, "b9")))
    qtbot.waitUntil(lambda: window.context.session is not session, timeout=10_000)
    assert [e.key for e in window.context.session.entries] == ["c9", "c10"]
    window.set_follow(False)


def _live_session(tmp_path, entries: int):
    """A JSON Lines session with one body and `entries` calls of it."""
    path = tmp_path / "live.jsonl"
    path.write_bytes(record_line(HEADER) + record_line({"kind": "body", "id": "b1", "code": "return 1"})
                     + b"".join(record_line(entry_record(n)) for n in range(1, entries + 1)))
    return path


def test_a_grown_session_reaches_the_views_by_session_grew_and_the_cursor_stays_put(window, open_file, tmp_path, qtbot):
    path = _live_session(tmp_path, 10)
    session = open_file(window, path)
    window.follower._poll.setInterval(50)
    window.set_follow(True)
    grew, state_grew, moved = [], [], []
    window.context.session_grew.connect(grew.append)
    window.context.state_grew.connect(lambda: state_grew.append(True))
    window.context.cursor_changed.connect(lambda: moved.append(True))
    with path.open("ab") as handle:
        handle.write(record_line(entry_record(11)) + record_line(entry_record(12)))
    qtbot.waitUntil(lambda: len(session.entries) == 12, timeout=10_000)
    qtbot.wait(50)
    assert [e.key for a in grew for e in a.entries] == ["c11", "c12"] and state_grew and moved == []
    assert window.context.state.store[-1].key == "c12"  # the cursor is at the end: its state grew
    assert window.status.entries_label.text() == "12 entries"
    assert window.views["inputs"].count_label.text() == "12 of 12 entries at the end of the session"
    assert "12 entries" in window.timeline.summary.text()

    window.context.set_cursor("b1")  # away from the end: the state there does not grow
    state_grew.clear()
    with path.open("ab") as handle:
        handle.write(record_line(entry_record(13)))
    qtbot.waitUntil(lambda: len(session.entries) == 13, timeout=10_000)
    qtbot.wait(50)
    assert len(grew) >= 2 and state_grew == [] and window.context.cursor == "b1"
    assert "13 entries" in window.timeline.summary.text()


def test_counts_that_change_as_the_file_grows_do_not_lay_the_window_out(window, open_file, tmp_path, qtbot, layout_requests):
    # A relayout of the main window repaints every widget in it (tens of ms on a big session): the
    # timeline summary, the Inputs count and the status bar change on every append without one.
    path = _live_session(tmp_path, 10)
    session = open_file(window, path)
    window.follower._poll.setInterval(50)
    window.set_follow(True)
    layouts = layout_requests(window, window.timeline_dock, window.status, window.tabs)
    qtbot.wait(200)  # what opening the file laid out has settled
    layouts.clear()
    with path.open("ab") as handle:
        handle.write(record_line(entry_record(11)) + record_line(entry_record(12)))
    qtbot.waitUntil(lambda: len(session.entries) == 12, timeout=10_000)
    qtbot.wait(100)
    assert window.status.entries_label.text() == "12 entries"
    assert layouts == []
def test_the_loader_holds_the_file_once_while_reading_it(tmp_path):
    """Issue 18: a 1.3 GB session must not cost twice its size before the parse begins."""
    import tracemalloc

    from wsi_inspector.gui.background.jobs import Job
    from wsi_inspector.gui.background.load_work import _read

    class Progress:
        """The job's view: what the read reported."""

        def __init__(self):
            self.seen: list[int] = []

        def emit(self, _job, kind, payload):
            self.seen.append(payload[0])

    path = tmp_path / "big.jsonl"
    record = record_line(entry_record(1)) * 20_000
    path.write_bytes(record * max(1, 24_000_000 // len(record)))
    progress = Progress()
    tracemalloc.start()
    try:
        data, _info = _read(Job("load", progress), path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert data == path.read_bytes() and progress.seen[-1] == 30
    assert peak < 1.2 * len(data)  # the file once, not the chunks and their join


def test_a_followed_file_s_new_bodies_and_calls_reach_the_changes_points_and_the_filter_suggestions(
        window, open_file, tmp_path, qtbot):
    path = _live_session(tmp_path, 3)
    session = open_file(window, path)
    changes, inputs = window.views["changes"], window.views["inputs"]
    window.follower._poll.setInterval(50)
    window.set_follow(True)
    with path.open("ab") as handle:
        handle.write(record_line({"kind": "body", "id": "b2", "code": "return 2"})
                     + record_line({"kind": "entry", "id": "z1", "call": "dept.zones.zones", "input": {}, "body": "b2"}))
    qtbot.waitUntil(lambda: len(session.entries) == 4, timeout=10_000)
    qtbot.wait(50)
    for box in (changes.from_box, changes.to_box):
        assert [box.itemText(i) for i in range(box.count())] == ["body b1", "body b2", "the end of the session"]
    window.show_tab("changes")  # a hidden Changes tab follows the cursor once shown
    assert changes.to_box.currentText() == "the end of the session"  # the cursor is at the end
    assert changes.from_box.currentText() == "body b2"  # what the last body did, as on a cursor move
    suggestions = inputs.completer_model.stringList()
    assert "dept.zones" in suggestions and "dept.zones.zones" in suggestions
