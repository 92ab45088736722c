"""The Run tab's Reads page and the timeline's retyped badge in a real window (SPEC 7, issue 30)."""
from __future__ import annotations

import json

from PySide6.QtCore import Qt

from tests.conftest import DEMO
from tests.helpers.evidence_session import E1, session_file

RUN_TIMEOUT_MS = 20_000


def cells(model):
    return [tuple(model.data(model.index(r, c), Qt.ItemDataRole.DisplayRole) for c in range(model.columnCount()))
            for r in range(model.rowCount())]


def test_a_run_lists_what_it_read_and_a_double_click_goes_to_the_line(qtbot, window, open_file):
    open_file(window, DEMO)
    window.show_tab("run")
    view = window.views["run"]
    view.editor.set_code("const x = 1;\nconst b = inputs.last('pack.corridorRuns');\nreturn b.bandDepth + x;\n", "js")
    with qtbot.waitSignal(view.bridge.finished, timeout=RUN_TIMEOUT_MS):
        view.run_body()
    panel = view.reads_panel
    assert cells(panel.model) == [("2:18", 'inputs.last("pack.corridorRuns")', "c21", "/bandDepth")]
    assert "1 read" in panel.title.text()
    panel.line_chosen.emit(2, 18)
    assert view.editor.textCursor().blockNumber() == 1
    view.result_tabs.setCurrentWidget(panel)
    view.grab().save("/tmp/evidence-reads-run.png")


def test_the_cursor_bodys_reads_are_learned_off_the_gui_thread_when_the_page_is_shown(qtbot, window, open_file):
    open_file(window, DEMO)
    window.show_tab("run")
    view = window.views["run"]
    window.context.set_cursor("b5")
    panel = view.reads_panel
    assert panel.model.rowCount() == 0 and "Replaying body b5" in panel.title.text()  # not before it is shown
    view.result_tabs.setCurrentWidget(panel)
    qtbot.waitUntil(lambda: panel.model.rowCount() > 0, timeout=RUN_TIMEOUT_MS)
    rows = cells(panel.model)
    assert rows[0][:3] == ("2:21", 'inputs.last("pack.corridorRuns.corridorRuns")', "e2")
    assert rows[0][3] == "/level /spine /bandDepth /clearWidth /doubleLoaded"
    assert "What body <b>b5</b> read" in panel.title.text()
    view.grab().save("/tmp/evidence-reads-b5.png")


def test_a_replayed_body_that_typed_a_value_again_has_a_retyped_badge(qtbot, window, open_file, tmp_path):
    typed = f"await modules.pack.corridorRuns({json.dumps(E1)});\nreturn 2;\n"
    open_file(window, session_file(tmp_path, typed, E1))
    window.show_tab("run")
    view = window.views["run"]
    with qtbot.waitSignal(view.bridge.replay_done, timeout=60_000):
        view.replay_all()
    model = window.timeline.model if hasattr(window, "timeline") else None
    if model is None:
        from wsi_inspector.gui.tabs.timeline.models import TimelineModel

        model = window.findChild(TimelineModel)
    row = model.body_rows["b2"]
    assert model.data(model.index(row, 1), Qt.ItemDataRole.DisplayRole) == "same · retyped 1"
    assert "typed again 1 value" in model.data(model.index(row, 1), Qt.ItemDataRole.ToolTipRole)
    assert model.data(model.index(model.body_rows["b1"], 1), Qt.ItemDataRole.DisplayRole) == "same"
    assert window.context.evidence["b2"]["retyped"][0]["sameAs"] == {"entry": "e1", "path": ""}
    window.grab().save("/tmp/evidence-retyped-timeline.png")


def test_the_inputs_table_marks_the_entries_the_cursors_body_read(qtbot, window, open_file):
    open_file(window, DEMO)
    window.show_tab("run")
    run = window.views["run"]
    window.context.set_cursor("b5")
    run.result_tabs.setCurrentWidget(run.reads_panel)  # the Reads page learns b5's reads off the GUI thread
    qtbot.waitUntil(lambda: run.reads_panel.model.rowCount() > 0, timeout=RUN_TIMEOUT_MS)
    window.show_tab("inputs")
    inputs = window.views["inputs"]
    model, table = inputs.model, inputs.table
    read = model.READ_COLUMN  # a mark of its own beside ✎, "body b5 read this entry: …" in its tooltip (issue 31)
    tags = {model.data(model.index(r, 0)): model.data(model.index(r, read), Qt.ItemDataRole.ToolTipRole)
            for r in range(model.rowCount())}
    assert tags["e2"].startswith("body b5 read this entry: ")
    assert {key for key, tag in tags.items() if tag} == {"e2"}
    assert not table.isColumnHidden(read)
    assert table.itemDelegateForColumn(read) is None  # issue 28: the view's own painter, no call into Python a row
    window.context.set_cursor("b4")  # b4's reads are not known yet: nothing is marked
    assert not any(model.data(model.index(r, read)) for r in range(model.rowCount()))
    window.context.set_cursor("b5")
    assert any(model.data(model.index(r, read)) for r in range(model.rowCount()))
    inputs.table.scrollTo(model.index(next(r for r in range(model.rowCount()) if model.data(model.index(r, 0)) == "e2"), 0))
    window.grab().save("/tmp/evidence-inputs-read-by.png")
