"""The Run view in a real window: runs that never block it, results in place, errors at their line, Stop, replay badges."""
from __future__ import annotations

import time

import pytest

from tests.conftest import DEMO

RUN_TIMEOUT_MS = 20_000


@pytest.fixture
def run_view(window, open_file):
    open_file(window, DEMO)
    window.show_tab("run")
    return window.views["run"]


def cell(model, row, column, role=None):
    """What a table cell shows (or its tooltip, with role)."""
    from PySide6.QtCore import Qt

    return model.data(model.index(row, column), role if role is not None else Qt.ItemDataRole.DisplayRole)


def _run(qtbot, view, code: str | None = None, lang: str = "js"):
    if code is not None:
        view.editor.set_code(code, lang)
    with qtbot.waitSignal(view.bridge.finished, timeout=RUN_TIMEOUT_MS):
        view.run_body()
    return view.last_result


def test_a_good_run_shows_status_returned_value_calls_and_keep(qtbot, run_view):
    run_view.body_combo.setCurrentIndex(2)
    run_view._load_chosen_body(2)  # b2, and the cursor moves to it
    assert run_view.context.cursor == "b2"
    result = _run(qtbot, run_view)
    assert result["ok"] is True
    assert "ok" in run_view.status_label.text()
    assert run_view.returned_tree.model().node(run_view.returned_tree.model().index(0, 0)).value["rooms"] == 34
    assert run_view.calls_model.rowCount() == 6
    assert cell(run_view.calls_model, 0, 3) == "recorded c4"
    assert "keep accepted" in run_view.keep_label.text() and "spine" in run_view.keep_label.text()
    assert run_view.logs_text.toPlainText() == "runs 4 length 57000 score 0.7467"


def test_a_failing_run_marks_its_line_in_the_editor(qtbot, run_view):
    result = _run(qtbot, run_view, "const a = 1;\nconst b = 2;\nnull.boom;\n")
    assert result["ok"] is False
    assert run_view.editor.mark_at(3)[0] == "error"
    assert "line 3:" in run_view.error_label.text() and "TypeError" in run_view.error_label.text()
    assert run_view.editor.textCursor().blockNumber() == 2


def test_a_typescript_body_loads_with_its_language_and_runs(qtbot, run_view):
    index = run_view.body_combo.findData("b8")
    run_view.body_combo.setCurrentIndex(index)
    run_view._load_chosen_body(index)
    assert run_view.lang == "ts"
    result = _run(qtbot, run_view)
    assert result["ok"] is True and result["returned"]["rooms"] == [1, 1, 1]


def test_a_run_never_blocks_the_window_and_stop_ends_it(qtbot, run_view):
    run_view.editor.set_code("while (true) {}", "js")
    started = time.monotonic()
    run_view.run_body()
    assert time.monotonic() - started < 0.5  # the call returns at once: the body runs elsewhere
    assert run_view.stop_button.isEnabled() and not run_view.run_button.isEnabled()
    qtbot.wait(300)  # the event loop keeps turning while the body loops
    with qtbot.waitSignal(run_view.bridge.finished, timeout=RUN_TIMEOUT_MS):
        run_view.stop()
    assert run_view.last_result["error"]["name"] == "StoppedError"
    assert run_view.run_button.isEnabled()
    assert _run(qtbot, run_view, "return 'next';")["returned"] == "next"


def test_the_envelope_is_made_off_the_gui_thread_and_a_refusal_is_the_runs_result(qtbot, run_view, monkeypatch):
    """The store's texts grow with the session: made on the runner's thread, never the window's; what
    build_envelope refuses shows as the run's failure, and the view is ready for the next run."""
    import threading

    from wsi_inspector.core.runner import envelope
    from wsi_inspector.gui.tabs.run import view as run_module

    threads = []

    def made_elsewhere(*args, **kwargs):
        threads.append(threading.current_thread())
        return envelope.build_envelope(*args, **kwargs)

    monkeypatch.setattr(run_module, "build_envelope", made_elsewhere)
    assert _run(qtbot, run_view, "return 7;")["returned"] == 7
    assert threads and threading.main_thread() not in threads

    def refused(*args, **kwargs):
        raise envelope.EnvelopeError("no body 'b99' in demo.json to run at; its bodies are: b1")

    monkeypatch.setattr(run_module, "build_envelope", refused)
    result = _run(qtbot, run_view, "return 7;")
    assert result["ok"] is False and result["error"]["name"] == "EnvelopeError"
    assert "EnvelopeError: no body" in run_view.error_label.text() and "failed" in run_view.status_label.text()
    assert run_view.run_button.isEnabled() and run_view.future is None


def test_operations_are_plotted_one_bar_per_call(qtbot, run_view):
    _run(qtbot, run_view, "await Promise.all([1, 2, 3].map((level) => modules.mep.risers({ level })));")
    assert len(run_view.bars.opts["x0"]) == 3
    assert run_view.plot.getPlotItem().titleLabel.text.startswith("3 operations in ")


def test_replay_all_puts_a_badge_on_every_body(qtbot, run_view):
    with qtbot.waitSignal(run_view.bridge.replay_done, timeout=60_000):
        run_view.replay_all()
    assert run_view.replay_page.model.rowCount() == 8
    failing = {"b5", "b7"}  # failed as recorded (a refused keep, a throw), and fail the same way again
    assert run_view.context.badges == {f"b{i}": "same-failed" if f"b{i}" in failing else "same" for i in range(1, 9)}
    assert "8 of 8" in run_view.status_label.text()


def test_a_diverging_body_lists_its_recorded_calls_and_choosing_one_goes_to_it_in_inputs(qtbot, window, open_file, tmp_path):
    import json

    from PySide6.QtCore import Qt

    document = json.loads(DEMO.read_text())
    next(e for e in document["store"] if e["id"] == "c23")["output"]["level"] = 99
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(document))
    open_file(window, path)
    window.show_tab("run")
    view = window.views["run"]
    qtbot.mouseClick(view.replay_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not view.replaying, timeout=60_000)
    rows = {cell(view.replay_page.model, r, 0): r for r in range(view.replay_page.model.rowCount())}
    b6 = rows["b6"]
    assert cell(view.replay_page.model, b6, 1) == "diverged"
    assert cell(view.replay_page.model, b6, 2) == ", ".join(f"c{n}" for n in range(22, 30))
    assert cell(view.replay_page.model, rows["b5"], 2) == ""  # a body that is the same lists nothing
    label = view.replay_page.calls_label
    assert not label.isHidden() and "entry:c23" in label.text() and "holds the replayed value" in label.text()
    assert "differs at /levels/1" in label.text()
    assert label.text().index("entry:c23") < label.text().index("entry:c22")  # the one that fed it comes first
    label.linkActivated.emit("entry:c23")  # what clicking the link does
    inputs = window.views["inputs"]
    assert window.tabs.currentWidget() is inputs
    assert inputs.shown_entry is not None and inputs.shown_entry.id == "c23"
    assert any(e.id == "c23" for e in window.context.state.store)  # the cursor moved to a state holding it
    selected = inputs.table.selectionModel().currentIndex()
    assert inputs.model.entry_at_row(selected.row()).id == "c23"
    assert inputs.detail_tabs.currentWidget() is inputs.output_tree  # the recorded output that fed the divergence
    assert inputs.output_tree.json_model._root.value["level"] == 99


def _choose_body(qtbot, view, key):
    """Step the body chooser with the arrow keys, as a person would, until it shows `key`."""
    from PySide6.QtCore import Qt

    combo = view.body_combo
    combo.setFocus()
    wanted = combo.findData(key)
    while combo.currentIndex() != wanted:
        qtbot.keyClick(combo, Qt.Key.Key_Down if combo.currentIndex() < wanted else Qt.Key.Key_Up)


def test_an_edited_body_survives_choosing_another_and_back_and_revert_restores_it(qtbot, run_view):
    from PySide6.QtCore import Qt

    session = run_view.context.session
    _choose_body(qtbot, run_view, "b7")
    assert run_view.editor.toPlainText() == session.body("b7").code
    assert not run_view.revert_button.isEnabled()
    run_view.editor.setFocus()
    qtbot.keyClicks(run_view.editor, "// tried a wider inset")
    qtbot.keyClick(run_view.editor, Qt.Key.Key_Return)
    edited = run_view.editor.toPlainText()
    assert edited != session.body("b7").code
    _choose_body(qtbot, run_view, "b6")
    assert run_view.editor.toPlainText() == session.body("b6").code
    b7 = run_view.body_combo.findData("b7")
    assert run_view.body_combo.itemText(b7).startswith("● b7")  # marked edited in the chooser
    assert not run_view.body_combo.itemText(run_view.body_combo.findData("b6")).startswith("●")
    _choose_body(qtbot, run_view, "b7")
    assert run_view.editor.toPlainText() == edited
    assert run_view.revert_button.isEnabled()
    qtbot.mouseClick(run_view.revert_button, Qt.MouseButton.LeftButton)
    assert run_view.editor.toPlainText() == session.body("b7").code
    assert not run_view.body_combo.itemText(b7).startswith("●") and not run_view.revert_button.isEnabled()


def test_the_editor_follows_the_cursor_and_keeps_each_bodys_edit(qtbot, window, run_view):
    # The chooser and the cursor never disagree (issue 31.1): a cursor move shows that body; the edit stays with its body.
    _choose_body(qtbot, run_view, "b2")
    run_view.editor.setFocus()
    qtbot.keyClicks(run_view.editor, "// mine ")
    edited = run_view.editor.toPlainText()
    window.timeline.choose_cursor("b4")
    session = window.context.session
    assert window.context.cursor == "b4" and run_view.body_combo.currentData() == "b4"
    assert run_view.editor.toPlainText() == session.body("b4").code
    window.timeline.choose_cursor("b2")
    assert run_view.editor.toPlainText() == edited


def test_replay_all_clears_the_last_runs_error(qtbot, run_view):
    from PySide6.QtCore import Qt

    run_view.editor.setFocus()
    qtbot.keyClicks(run_view.editor, "null.boom;")
    qtbot.keyClick(run_view.editor, Qt.Key.Key_Return)
    with qtbot.waitSignal(run_view.bridge.finished, timeout=RUN_TIMEOUT_MS):
        qtbot.mouseClick(run_view.run_button, Qt.MouseButton.LeftButton)
    assert run_view.error_label.isVisible() and run_view.editor.mark_at(1) is not None
    with qtbot.waitSignal(run_view.bridge.replay_done, timeout=60_000):
        qtbot.mouseClick(run_view.replay_button, Qt.MouseButton.LeftButton)
    assert "8 of 8" in run_view.status_label.text()
    assert run_view.error_label.isHidden() and run_view.keep_label.isHidden()
    assert run_view.editor.mark_at(1) is None


def test_hovering_an_operation_bar_says_its_call_start_and_duration(qtbot, run_view):
    from PySide6.QtCore import QPointF

    result = _run(qtbot, run_view, "for (const level of [1, 2, 3]) { await modules.mep.risers({ level }); }")
    run_view.result_tabs.setCurrentWidget(run_view.plot)
    qtbot.wait(50)
    second = result["operations"][1]
    view_box = run_view.plot.getViewBox()
    scene_point = view_box.mapViewToScene(QPointF(second["startMs"] + second["durationMs"] / 2, 1))
    run_view.plot.scene().sigMouseMoved.emit(scene_point)  # what moving the pointer there sends
    tip = run_view.plot.toolTip()
    assert tip.startswith("mep.risers.risers: started at") and f"took {second['durationMs']:g} ms" in tip
