"""The inspector window on real files: open the demo, move the cursor, bad files, tabs, settings, drops."""
import pytest
from PySide6.QtCore import QMimeData, QPoint, Qt, QUrl
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QLabel, QWidget

from wsi_inspector.gui.window.main_window import TABS, MainWindow, build_view

BROKEN_NOT_JSON = "not_json.json"


def test_the_demo_opens_with_every_tab_and_the_timeline(window, open_file, demo_path):
    session = open_file(window, demo_path)
    assert session is not None and session.is_session
    assert [window.tabs.tabText(i) for i in range(window.tabs.count())] == [t for _n, t, _s in TABS]
    assert window.context.cursor is None
    assert window.timeline.model.rows[-1].kind == "end"
    assert "36 entries" in window.status.entries_label.text()
    assert session.title in window.windowTitle()


def test_choosing_a_body_moves_the_one_cursor_and_every_view_follows(window, open_file, demo_path):
    session = open_file(window, demo_path)
    row = next(i for i, r in enumerate(window.timeline.model.rows) if r.kind == "body" and r.item.key == "b3")
    window.timeline.tree.setCurrentIndex(window.timeline.model.index(row, 0))
    state = session.state_at("b3")
    assert window.context.cursor == "b3"
    inputs = window.views["inputs"]
    assert inputs.model.rowCount() == len(state.store)
    assert f"of {len(state.store)} entries at body b3" in inputs.count_label.text()
    kept = window.views["kept"]
    window.show_tab("kept")  # behind the Inputs tab it follows the cursor when shown
    assert [r.name for r in kept.model.rows] == sorted(state.kept)
    assert window.status.entries_label.text() == f"{len(state.store)} entries"
    window.timeline.choose_cursor(None)
    assert window.context.cursor is None and inputs.model.rowCount() == len(session.entries)


def test_choosing_a_call_moves_the_cursor_to_the_first_body_handed_it(window, open_file, demo_path):
    open_file(window, demo_path)
    model = window.timeline.model
    body_row = next(i for i, r in enumerate(model.rows) if r.kind == "body" and r.item.key == "b2")
    window.timeline.tree.setCurrentIndex(model.index(0, 0, model.index(body_row, 0)))  # c4, made by b2
    assert window.context.cursor == "b3"
    inputs = window.views["inputs"]
    assert inputs.shown_entry.id == "c4"
    assert inputs.table.currentIndex().row() == inputs.model.row_of(3)


def test_a_file_that_is_not_a_session_leaves_the_open_session(window, open_file, demo_path):
    from tests.conftest import BROKEN

    demo = open_file(window, demo_path)
    open_file(window, BROKEN / BROKEN_NOT_JSON)
    assert window.context.session is demo
    assert window.notice.isVisible()
    assert "is not a session" in window.notice.label.text() and "stays" in window.notice.label.text()


def test_a_missing_file_says_so_and_the_session_stays(window, open_file, demo_path, tmp_path):
    demo = open_file(window, demo_path)
    open_file(window, tmp_path / "nowhere.json")
    assert window.context.session is demo
    assert "no such file" in window.notice.label.text()


def test_a_partly_valid_file_opens_with_its_problems_listed(window, open_file):
    from tests.conftest import BROKEN

    session = open_file(window, BROKEN / "bad_unit.json")
    assert session.is_session and session.errors
    problems = window.views["problems"]
    assert problems.model.rowCount() == len(session.problems)
    assert "error" in window.notice.label.text()
    error_row = next(i for i, p in enumerate(problems.model.rows) if p.severity == "error")
    problems.activate(problems.model.index(error_row, 0))
    assert "not loaded" in problems.shown.title
    assert problems.shown.has_value and isinstance(problems.shown.value, dict)


def test_activating_a_problem_on_a_loaded_body_moves_the_cursor_there(window, open_file, demo_path, qtbot):
    open_file(window, demo_path)
    problems = window.views["problems"]
    row = next(i for i, p in enumerate(problems.model.rows) if p.where.startswith("/bodies/"))
    with qtbot.waitSignal(window.context.body_chosen) as chosen:
        problems.activate(problems.model.index(row, 0))
    assert chosen.args[0].key == "b5"
    assert window.context.cursor == "b5"


def test_status_bar_shows_store_bytes_against_the_cap_with_exact_tooltip(window, open_file, demo_path):
    session = open_file(window, demo_path)
    from wsi_inspector.core.jsrules.run_inputs import store_bytes

    size = store_bytes(session.entries)
    assert f"{size:,} bytes" in window.status.store_label.toolTip()
    assert "cap" in window.status.store_label.text() and "KiB" in window.status.store_label.text()
    assert window.status.problems_button.text() == f"{len(session.errors)} errors, {len(session.warnings)} warnings"


def test_the_tabs_are_view_classes_the_window_imports_and_builds(qtbot, settings):
    import wsi_inspector.gui.window.main_window

    assert all(isinstance(view_class, type) and issubclass(view_class, QWidget) for _n, _t, view_class in TABS)
    assert all(getattr(wsi_inspector.gui.window.main_window, view_class.__name__) is view_class for _n, _t, view_class in TABS)
    window = MainWindow(settings)
    qtbot.addWidget(window)
    assert [type(window.views[name]) for name, _t, _c in TABS] == [view_class for _n, _t, view_class in TABS]


def test_a_view_that_fails_to_build_shows_its_error_in_its_tab(qtbot):
    from wsi_inspector.gui.window.context import InspectorContext

    class Broken(QWidget):
        def __init__(self, context, parent=None):
            raise RuntimeError("the view fell over")

    broken = build_view("Run", Broken, InspectorContext())
    qtbot.addWidget(broken)
    assert broken.objectName() == "failedView"
    assert "the view fell over" in broken.findChild(QLabel).text()


def test_splitters_recent_files_and_last_folder_are_remembered(qtbot, settings, open_file, demo_path, settle):
    first = MainWindow(settings)
    qtbot.addWidget(first)
    first.show()
    open_file(first, demo_path)
    settle(first)
    splitter = first.views["inputs"].splitter
    splitter.setSizes([300, 700])
    wanted = splitter.sizes()
    first.close()
    second = MainWindow(settings)
    qtbot.addWidget(second)
    second.show()
    # The offscreen screen is smaller than the first window: geometry comes back clamped to it,
    # so the splitter comes back in the same proportion.
    def restored():
        sizes = second.views["inputs"].splitter.sizes()
        return abs(sizes[0] / sum(sizes) - wanted[0] / sum(wanted)) < 0.02
    qtbot.waitUntil(restored, timeout=3000)
    assert second.recent_files()[0] == str(demo_path.resolve())
    assert settings.value("lastFolder") == str(demo_path.resolve().parent)


def test_dropping_a_file_on_the_window_opens_it(window, qtbot, demo_path):
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(demo_path))])
    event = QDropEvent(QPoint(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    with qtbot.waitSignal(window.load_finished, timeout=20_000):
        window.dropEvent(event)
    assert window.context.session is not None and window.context.session.path == demo_path


def test_reload_keeps_the_cursor_on_the_same_body(window, open_file, demo_path, qtbot):
    open_file(window, demo_path)
    window.context.set_cursor("b4")
    with qtbot.waitSignal(window.load_finished, timeout=20_000):
        window.reload()
    assert window.context.cursor == "b4"


def test_show_tab_refuses_an_unknown_name(window):
    with pytest.raises(ValueError, match="the tabs are inputs, kept"):
        window.show_tab("colours")


def test_cursor_moves_between_bodies_seen_before_lay_nothing_out(window, open_file, demo_path, qtbot, layout_requests, settle):
    # Issue 18, point 4: the status bar's figures ("Body b5", "End of session", "store …: 3 entries
    # fall") gave their room back on each move, and the main window laid itself out every time.
    open_file(window, demo_path)
    window.show_tab("inputs")
    tour = ["b2", "b7", None, "b5", "b1"]
    for cursor in tour:  # the widest of each figure has been shown once
        window.context.set_cursor(cursor)
        qtbot.wait(20)
    settle(window, window.status)
    layouts = layout_requests(window, window.status)
    for cursor in tour:
        window.context.set_cursor(cursor)
        qtbot.wait(20)
    assert layouts == [], [(type(w).__name__, w.objectName()) for w in layouts]
    assert window.status.cursor_label.text() == "Body b1"


def test_the_status_bar_counts_one_entry_and_one_error_in_the_singular(window, open_file, tmp_path):
    path = tmp_path / "one.jsonl"
    path.write_text('{"format": "worker-session/1", "session": {"id": "one"}}\n'
                    '{"kind": "entry", "id": "c1", "call": "a.b.c", "input": {"a": 1\n'
                    '{"kind": "entry", "id": "c2", "call": "a.b.c", "input": 2}\n')
    open_file(window, path)
    assert window.status.entries_label.text() == "1 entry"
    assert window.status.problems_button.text() == "1 error, 0 warnings"


def test_the_first_move_to_a_store_with_a_wider_figure_lays_nothing_out(window, open_file, tmp_path, qtbot, layout_requests, settle):
    # Issue 18, point 4: the status bar's store figure kept the room of the widest shown so far; the
    # first move to a store whose figure was wider ("100.5 KiB" after the end's "1.2 MiB") grew it and
    # laid the main window out (the slowest jump on a million entries, 17.5–18.4 ms). Its room for the
    # widest forms any store of the session can take is kept from the start.
    import json

    session = {"format": "worker-session/1", "session": {"id": "sizes"},
               "store": [{"id": "c1", "call": "a.b.c", "input": {"s": "x" * 103_000}, "body": "b1"},
                         {"id": "c2", "call": "a.b.c", "input": {"s": "y" * 1_150_000}, "body": "b2"}],
               "bodies": [{"id": "b1", "code": "return 1", "result": {"ok": True}},
                          {"id": "b2", "code": "return 2", "result": {"ok": True}}]}
    path = tmp_path / "sizes.json"
    path.write_text(json.dumps(session))
    open_file(window, path)
    window.show_tab("inputs")
    settle(window, window.status)
    end = window.status.store_label.text()
    layouts = layout_requests(window, window.status)
    window.context.set_cursor("b2")
    qtbot.wait(50)
    assert (end, window.status.store_label.text()) == ("store 1.2 MiB (no cap)", "store 100.6 KiB (no cap)")
    assert layouts == [], [(type(w).__name__, w.objectName()) for w in layouts]
