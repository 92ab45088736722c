"""Notes in the window: added from the timeline, Inputs, Edits changes and the Run tab; marked; listed; a repro opens where it was saved."""
from __future__ import annotations

import json
import shutil

from PySide6.QtCore import QPoint
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QApplication

from wsi_inspector.gui.actions import note_actions

from wsi_inspector.core.handoff.notes import notes_path, read_notes
from wsi_inspector.gui.actions.deep_link import follow_link
from wsi_inspector.gui.actions.note_actions import timeline_target
from tests.conftest import ROOT

DEMO = ROOT / "resources" / "sessions" / "demo.json"


def _demo(tmp_path):
    path = tmp_path / "demo.json"
    shutil.copyfile(DEMO, path)
    return path


def _answer(window, text):
    window.notes_keeper.ask_text = lambda _prompt: text


def _timeline_index(window, kind, key):
    model, target = window.timeline.model, timeline_target(window.timeline)
    todo = [model.index(r, 0) for r in range(model.rowCount())]
    while todo:
        index = todo.pop(0)
        if target(index) == (kind, key, None):
            return index
        todo += [model.index(r, 0, index) for r in range(model.rowCount(index))]
    raise AssertionError(f"no timeline row for {kind} {key}")


def test_notes_added_in_four_places_are_marked_listed_and_never_touch_the_session(window, open_file, tmp_path, qtbot, monkeypatch):
    monkeypatch.setenv("USER", "qa-anna")
    path = _demo(tmp_path)
    before = path.read_bytes()
    open_file(window, path)
    keeper = window.notes_keeper
    # the timeline: a body
    _answer(window, "b7 should have read my spine")
    assert keeper.add(window.note_marks[0].target_of(_timeline_index(window, "body", "b7"))).body == "b7"
    # the Inputs table: an entry
    window.show_tab("inputs")
    inputs = window.views["inputs"]
    row = next(r for r in range(inputs.model.rowCount()) if str(inputs.model.entry_at_row(r).id) == "c4")
    _answer(window, "the first corridor call")
    assert keeper.add(window.note_marks[1].target_of(inputs.model.index(row, 0))).entry == "c4"
    # the Edits change list: an edit at a change's path
    window.show_tab("edits")
    edits = window.views["edits"]
    qtbot.waitUntil(lambda: edits.changes_model.rowCount() > 0, timeout=20_000)
    target = window.note_marks[2].target_of(edits.changes_model.index(0, 0))
    _answer(window, "this edit is what I meant")
    note = keeper.add(target)
    assert note.entry == target[1] and note.path == target[2] and note.path.startswith("/")
    # the Run tab: the body in the editor
    window.show_tab("run")
    window.context.choose_body(window.context.session.body("b5"))
    run = window.views["run"]
    qtbot.waitUntil(lambda: run.loaded_body is not None and run.loaded_body.key == "b5")
    notes_on_run = [child for child in run.children() if type(child).__name__ == "RunEditorNotes"]
    _answer(window, "why the handle?")
    assert keeper.add(notes_on_run[0].target()).body == "b5"

    assert [n.id for n in read_notes(path).notes] == ["n1", "n2", "n3", "n4"]
    assert path.read_bytes() == before and notes_path(path).exists()
    pane = window.notes_pane
    assert pane.tree.topLevelItemCount() == 4 and pane.tree.topLevelItem(0).text(2) == "qa-anna"
    mark = window.note_marks[0]
    assert [n.text for n in mark.notes_at(_timeline_index(window, "body", "b7"))] == ["b7 should have read my spine"]
    assert mark.notes_at(_timeline_index(window, "body", "b1")) == []
    window.show_tab("inputs")
    window.resize(1400, 900)
    qtbot.wait(50)
    window.grab().save(str(tmp_path / "handoff-shot.png"))
    shutil.copyfile(tmp_path / "handoff-shot.png", "/tmp/handoff-shot.png")

    # jump: the note on c4 shows the Inputs tab with the cursor where c4 is
    window.show_tab("run")
    assert pane.jump(read_notes(path).notes[1])
    assert window.tabs.currentWidget() is inputs
    assert pane.jump(read_notes(path).notes[0]) and str(window.context.cursor) == "b7"


def test_a_context_menu_offers_add_note(window, open_file, tmp_path, qtbot, monkeypatch):
    open_file(window, _demo(tmp_path))
    tree = window.timeline.tree
    index = _timeline_index(window, "body", "b3")
    tree.scrollTo(index)
    shown = []
    monkeypatch.setattr(note_actions, "show_menu", lambda menu, _at: shown.append([a.text() for a in menu.actions()]))
    tree.customContextMenuRequested.emit(tree.visualRect(index).center())
    tree.customContextMenuRequested.emit(QPoint(-5, -5))  # on nothing: no menu
    run = window.views["run"]
    window.show_tab("run")
    window.context.choose_body(window.context.session.body("b3"))
    qtbot.waitUntil(lambda: run.loaded_body is not None and run.loaded_body.key == "b3")
    QApplication.sendEvent(run.editor, QContextMenuEvent(QContextMenuEvent.Reason.Mouse, QPoint(5, 5), QPoint(5, 5)))
    assert shown[0] == ["Add note…"] and len(shown) == 2
    assert shown[1][-1] == "Add note…" and len(shown[1]) > 3  # the editor's own menu, then ours


def test_a_repro_opens_at_its_body_and_tab_with_its_notes(window, open_file, tmp_path, qtbot):
    from wsi_inspector.core.cli.dispatch import main

    path = _demo(tmp_path)
    main(["notes", str(path), "--add", "look at b7", "--body", "b7", "--author", "qa"])
    open_file(window, path)
    window.context.choose_body(window.context.session.body("b7"))
    window.show_tab("edits")
    saver = __import__("wsi_inspector.gui.actions.save_repro", fromlist=["saver_for"]).saver_for(window.context, window.services)
    repro = tmp_path / "b7.repro.json"
    with qtbot.waitSignal(saver.saved, timeout=20_000):
        assert saver.save(repro)
    document = json.loads(repro.read_text())
    assert document["session"]["cut"]["tab"] == "edits"
    assert document["notes"]["notes"][0]["text"] == "look at b7"

    from wsi_inspector.gui.window.main_window import MainWindow
    other = MainWindow(window.settings)
    qtbot.addWidget(other)
    other.show()
    follow_link(other.context, other.services, None, None)
    open_file(other, repro)
    try:
        assert str(other.context.cursor) == "b7"
        assert other.tabs.currentWidget() is other.views["edits"]
        assert [n.text for n in other.notes_keeper.notes.notes] == ["look at b7"]
        assert other.notes_pane.tree.topLevelItemCount() == 1
    finally:
        other.loader.wait()


def test_a_bad_sidecar_is_shown_and_the_session_still_opens(window, open_file, tmp_path):
    path = _demo(tmp_path)
    notes_path(path).write_text("{not json")
    assert open_file(window, path) is not None
    assert "demo.json.notes.json:1:2" in window.notes_pane.problems.text()
    assert not window.notes_pane.problems.isHidden()


def test_wsi_gui_opens_a_repro_on_its_saved_tab(tmp_path):
    from wsi_inspector.core.cli.dispatch import main
    from tests.helpers.cli import wsi_without_display as wsi

    path = _demo(tmp_path)
    repro = tmp_path / "b7.repro.json"
    assert main(["reduce", str(path), "--body", "b7", "--repro", "--out", str(repro)]) == 0
    document = json.loads(repro.read_text())
    document["session"]["cut"]["tab"] = "changes"  # as File ▸ Save repro writes it from the Changes tab
    repro.write_text(json.dumps(document))
    done = wsi("gui", str(repro), "--screenshot", str(tmp_path / "shot.png"), cwd=tmp_path)
    assert done.returncode == 0 and "tab changes" in done.stdout
    done = wsi("gui", str(path), "--screenshot", str(tmp_path / "plain.png"), cwd=tmp_path)
    assert "tab inputs" in done.stdout  # not a repro: the first tab, as before


def test_save_redacted_repro_writes_one_redacted_file_with_its_notes(window, open_file, tmp_path, qtbot):
    from wsi_inspector.core.cli.dispatch import main
    from wsi_inspector.gui.actions.save_repro import saver_for

    path = _demo(tmp_path)
    main(["notes", str(path), "--add", "the plot is North wing plot", "--body", "b7", "--author", "qa"])
    open_file(window, path)
    window.context.choose_body(window.context.session.body("b7"))
    saver = saver_for(window.context, window.services)
    repro = tmp_path / "b7.redacted.json"
    with qtbot.waitSignal(saver.saved, timeout=60_000):
        assert saver.save(repro, redact=True)
    data = repro.read_bytes()
    assert b"North wing plot" not in data and b"Ward 2A" not in data
    document = json.loads(data)
    assert document["notes"]["notes"][0]["text"].startswith("the plot is text-")
    report = json.loads((tmp_path / "b7.redacted.json.redaction.json").read_text())
    assert report["reproduced"] is True


def test_the_notes_dock_needs_only_the_context_and_window_services(qtbot, tmp_path):
    # Issue 29.2: no MainWindow here: a bare QMainWindow, a context and the services the notes use.
    from PySide6.QtCore import QObject, QSettings, Qt, Signal
    from PySide6.QtWidgets import QDockWidget, QMainWindow

    from wsi_inspector.core.cli.dispatch import main
    from wsi_inspector.core.session.load import load
    from wsi_inspector.gui.window.context import InspectorContext
    from wsi_inspector.gui.tabs.notes.pane import install_notes
    from wsi_inspector.gui.window.services import WindowServices
    from wsi_inspector.gui.tabs.timeline.view import TimelineView

    class Signals(QObject):
        loaded = Signal()
        tab = Signal(int)

    path, shown, said = _demo(tmp_path), [], []
    main(["notes", str(path), "--add", "look at b7", "--body", "b7", "--author", "qa"])
    host, signals, context = QMainWindow(), Signals(), InspectorContext()
    qtbot.addWidget(host)
    host.menuBar().addMenu("&View")
    timeline_dock = QDockWidget("Timeline", host)
    timeline_dock.setWidget(TimelineView(context, timeline_dock))
    host.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, timeline_dock)
    services = WindowServices(host, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat),
                              lambda text, level: said.append(text), lambda text, ms: said.append(text), shown.append,
                              lambda: path, signals.loaded, lambda *_: host, lambda name: None, lambda: "inputs", signals.tab)
    pane = install_notes(context, services, timeline_dock)
    context.set_session(load(path))
    assert [n.text for n in pane.keeper.notes.notes] == ["look at b7"] and pane.tree.topLevelItemCount() == 1
    assert len(pane.keeper.marks) == 1  # the timeline's; the services have no tab views to mark
    assert host.dockWidgetArea(pane.parentWidget()) == Qt.DockWidgetArea.LeftDockWidgetArea
    assert pane.parentWidget().toggleViewAction() in host.menuBar().actions()[0].menu().actions()
    assert pane.jump(pane.keeper.notes.notes[0]) and shown == ["run"] and str(context.cursor) == "b7"
    pane.keeper.ask_text = lambda _prompt: "and b3"
    assert pane.keeper.add(("body", "b3", None)).body == "b3" and said[-1].startswith("added note n2 on body b3")


def test_the_marks_paint_only_while_the_session_has_notes(window, open_file, tmp_path):
    """Issue 28, point 3: a column painted through the note marks costs a call into Python a row on every
    paint; with no note to mark, the view's own delegate paints it, and the marks come back with a note."""
    open_file(window, _demo(tmp_path))
    tree = window.timeline.tree
    mark = window.note_marks[0]
    assert not window.notes_keeper.notes.notes and tree.itemDelegateForColumn(0) is not mark
    _answer(window, "look here")
    window.notes_keeper.add(mark.target_of(_timeline_index(window, "body", "b3")))
    assert tree.itemDelegateForColumn(0) is mark
    assert [n.text for n in mark.notes_at(_timeline_index(window, "body", "b3"))] == ["look here"]
