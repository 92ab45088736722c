"""The Edits view in a real window (qtbot): edits listed, changes filtered, both inputs, the drawing, copy as body."""
import json
import random

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication

from wsi_inspector.core.session.load import load, load_bytes
from wsi_inspector.gui.window.context import InspectorContext
from wsi_inspector.gui.tabs.edits.view import PERSON_WRITTEN, EditsView
from tests.conftest import DEMO


@pytest.fixture
def view(qtbot):
    context = InspectorContext()
    edits = EditsView(context)
    qtbot.addWidget(edits)
    edits.resize(1000, 800)
    edits.show()
    return edits


def open_session(qtbot, view, session):
    view.context.set_session(session)
    qtbot.waitUntil(lambda: view.ready, timeout=20_000)


def select(qtbot, view, edit_id):
    """Choose an edit and wait for its detail (computed off the GUI thread) and its drawing (a turn later)."""
    assert view.select_edit(edit_id)
    qtbot.waitUntil(lambda: view.current_detail() is not None and view.current_comparison() is not None
                    and view.drawing_ready, timeout=20_000)


def column(model, col):
    return [model.data(model.index(row, col)) for row in range(model.rowCount())]


def test_the_list_shows_each_edit_with_its_base_changes_and_steps(qtbot, view):
    open_session(qtbot, view, load(DEMO))
    model = view.edits_model
    assert column(model, 0) == ["✎ e1", "✎ e2", "✎ e3"]
    assert column(model, 1) == ["c4", "c4", "c19"]
    assert column(model, 2) == ["4", "4", "1"]
    assert column(model, 3) == ["1", "2", "1"]
    assert column(model, 4) == ["pack.corridorRuns.corridorRuns", "pack.corridorRuns.corridorRuns", "pack.rooms.place"]


def test_selecting_an_edit_draws_both_polylines_and_marks_the_changed_vertices(qtbot, view):
    open_session(qtbot, view, load(DEMO))
    select(qtbot, view, "e1")
    model_lines, person_lines = view.plot.drawn("model"), view.plot.drawn("person")
    assert model_lines == [([1500, 15000, 30000, 45000, 58500], [18000] * 5)]
    assert person_lines == [([1500, 15000, 22500, 30000, 45000, 58500], [18000, 18600, 18600, 18000, 17400, 18000])]
    marked = sorted((p.pos().x(), p.pos().y()) for p in view.plot.marks.points())
    assert marked == [(15000, 18600), (22500, 18600), (45000, 17400)]
    tips = sorted(p.data() for p in view.plot.marks.points())
    assert "spine/1 moved (15000, 18000) → (15000, 18600) (Δ 0, +600)" in tips
    assert view.plot.plot.getPlotItem().getAxis("bottom").labelText == "x (mm)"
    assert view.plot.plot.getViewBox().state["aspectLocked"]


def test_the_change_list_filters_and_the_person_tree_highlights_changed_paths(qtbot, view):
    open_session(qtbot, view, load(DEMO))
    select(qtbot, view, "e1")
    changes = view.changes_model
    assert column(changes, 1) == ["spine/1", "spine/2", "spine/4", "bandDepth"]
    assert column(changes, 4) == ["", "", "", "+2"] and column(changes, 5) == ["mm"] * 4
    qtbot.keyClicks(view.filter_edit, "band")
    assert column(changes, 1) == ["bandDepth"]
    view.changes_table.selectRow(0)
    tree = view.person_tree
    current = tree.currentIndex()
    assert tree.json_model.node(current).pointer == "/bandDepth"
    assert tree.json_model.data(current, Qt.ItemDataRole.BackgroundRole) == PERSON_WRITTEN
    origin = tree.json_model.index(current.row(), 3, current.parent())
    assert tree.json_model.data(origin) == "✎ e1"  # a compact mark (issue 31.4): the value keeps the room
    assert tree.json_model.data(origin, Qt.ItemDataRole.ToolTipRole).endswith("set by the person's edit e1")


def test_an_edit_of_an_edit_offers_each_step(qtbot, view):
    open_session(qtbot, view, load(DEMO))
    select(qtbot, view, "e2")
    titles = [view.step_combo.itemText(i) for i in range(view.step_combo.count())]
    assert titles[0].startswith("c4 → e2") and titles[1:] == ["step 2 of 2: e1 → e2  (the edit's own step)"]
    view.step_combo.setCurrentIndex(1)
    assert column(view.changes_model, 1) == ["spine/2"]
    assert view.model_tree.json_model.data(view.model_tree.json_model.root_index()) == "e1 input (mm)"


def test_copy_as_body_puts_a_body_on_the_clipboard_that_rebuilds_the_edit_when_run_after_it(qtbot, view):
    from wsi_inspector.core.jsrules.json_values import json_equal
    from wsi_inspector.core.runner.envelope import build_envelope
    from wsi_inspector.core.runner.host import Runner

    session = load(DEMO)
    open_session(qtbot, view, session)
    select(qtbot, view, "e2")
    qtbot.mouseClick(view.copy_button, Qt.MouseButton.LeftButton)
    text = QGuiApplication.clipboard().text()
    assert text == view.last_copied and '  ...inputs.at("c4"),\n' in text
    with Runner(size=1) as runner:  # pasted at the default cursor (the end) it gave c20's clearWidth 2600
        for cursor in (None, "b5", "b8"):
            returned = runner.run(build_envelope(session, text, at=cursor))["returned"]
            assert json_equal(returned, session.entry("e2").input) and returned["clearWidth"] == 2400


def test_a_fifty_thousand_point_edit_opens_with_five_changes_and_both_lines(qtbot, view):
    rng = random.Random(3)
    spine = [[round(i * 10.0 + rng.random(), 3), round(rng.uniform(0, 500), 3)] for i in range(50_000)]
    edited = [list(p) for p in spine]
    edited.insert(12, [125.5, 900.0])
    for i in (100, 20_000, 40_000):
        edited[i] = [edited[i][0], edited[i][1] + 60]
    store = [{"id": "c1", "call": "pack.corridorRuns.corridorRuns", "input": {"spine": spine, "bandDepth": 32}, "unit": "mm", "body": "b1"},
             {"id": "e1", "call": "pack.corridorRuns.corridorRuns", "input": {"spine": edited, "bandDepth": 34}, "unit": "mm", "applied": True}]
    session = load_bytes(json.dumps({"format": "worker-session/1", "session": {"id": "big"}, "store": store}).encode(), "big.json")
    open_session(qtbot, view, session)
    select(qtbot, view, "e1")
    assert view.changes_model.rowCount() == 5
    assert [len(xs) for xs, _ in view.plot.drawn("model")] == [50_000]
    assert [len(xs) for xs, _ in view.plot.drawn("person")] == [50_001]
    assert len(view.plot.marks.points()) == 4
    view.changes_table.selectRow(1)  # /spine/100: both trees open there and scroll together
    assert view.person_tree.json_model.node(view.person_tree.currentIndex()).pointer == "/spine/100"
    person_bar, model_bar = view.person_tree.verticalScrollBar(), view.model_tree.verticalScrollBar()
    assert person_bar.maximum() > 100
    person_bar.setValue(person_bar.value() - 50)
    assert model_bar.value() == person_bar.value()
    view.changes_table.selectRow(3)  # /spine/40000 is too deep to open: the spine itself is made current
    assert view.person_tree.json_model.node(view.person_tree.currentIndex()).pointer == "/spine"


def test_no_session_and_no_edits_say_so(qtbot, view):
    assert view.summary.text() == "No session open."
    session = load_bytes(json.dumps({"format": "worker-session/1", "session": {"id": "s"}, "store": [
        {"id": "c1", "call": "a.b.c", "input": {}}]}).encode(), "s.json")
    view.context.set_session(session)
    qtbot.waitUntil(lambda: view.ready, timeout=20_000)
    assert "No canvas edits" in view.summary.text()
    assert view.edits_model.rowCount() == 0 and not view.copy_button.isEnabled()


def test_a_cm_edit_of_an_mm_call_lists_mm_values_with_the_edits_own_and_draws_both_in_mm(qtbot, view, tmp_path):
    spine = [[1500 * i, 18000] for i in range(1, 39)]
    edited = [[x // 10, y // 10] for x, y in spine]
    edited[5] = [edited[5][0], 1860]
    path = tmp_path / "units.json"
    path.write_text(json.dumps({"format": "worker-session/1", "session": {"id": "u"}, "store": [
        {"id": "c1", "call": "a.b.c", "input": {"spine": spine, "bandDepth": 32}, "unit": "mm"},
        {"id": "e1", "call": "a.b.c", "input": {"spine": edited, "bandDepth": 3.2}, "unit": "cm", "applied": True}]}))
    open_session(qtbot, view, load(path))
    select(qtbot, view, "e1")
    changes = view.changes_model
    assert column(changes, 1) == ["spine/5"] and column(changes, 3) == ["[9000,18600]"] and column(changes, 5) == ["mm"]
    assert column(changes, 6) == ["[900,1800]"] and column(changes, 7) == ["[900,1860]"]
    assert changes.headerData(7, Qt.Orientation.Horizontal) == "after, as cm"
    (model_xs, model_ys), (person_xs, person_ys) = view.plot.drawn("model")[0], view.plot.drawn("person")[0]
    assert person_xs == model_xs and person_ys[5] == 18600 and model_ys[5] == 18000
    assert view.plot.plot.getPlotItem().getAxis("bottom").labelText == "x (mm)"
    assert "units differ" in view.note_label.text()


def test_a_5000_step_chain_is_paired_and_diffed_off_the_gui_thread_and_shows_two_comparisons(qtbot, view, monkeypatch):
    import threading

    import wsi_inspector.core.edits.edits
    import wsi_inspector.core.edits.provenance
    import wsi_inspector.gui.tabs.edits.view

    threads = []

    def watched(function):
        def call(*args, **kwargs):
            threads.append(threading.current_thread() is threading.main_thread())
            return function(*args, **kwargs)
        return call

    monkeypatch.setattr(wsi_inspector.gui.tabs.edits.view, "pair_edits", watched(wsi_inspector.core.edits.edits.pair_edits))
    monkeypatch.setattr(wsi_inspector.gui.tabs.edits.view, "edit_diff_of", watched(wsi_inspector.core.edits.edits.edit_diff_of))  # the diffs come from a process
    monkeypatch.setattr(wsi_inspector.core.edits.provenance.Provenance, "setters", watched(wsi_inspector.core.edits.provenance.Provenance.setters))
    call = "pack.corridorRuns.corridorRuns"
    store = [{"id": "c0", "call": call, "unit": "mm", "body": "b1", "input": {"spine": [[0, 0], [1000, 0]], "d": 0}}]
    store += [{"id": f"e{k}", "call": call, "unit": "mm", "applied": True, "input": {"spine": [[0, 0], [1000, k]], "d": k}}
              for k in range(1, 5001)]
    session = load_bytes(json.dumps({"format": "worker-session/1", "session": {"id": "chain"}, "store": store}).encode(), "c.json")
    open_session(qtbot, view, session)
    assert view.edits_model.rowCount() == 5000
    select(qtbot, view, "e5000")
    model = view.edits_model
    row = view.current_row()
    assert [model.data(model.index(row, c)) for c in range(4)] == ["✎ e5000", "c0", "2", "5,000"]
    titles = [view.step_combo.itemText(i) for i in range(view.step_combo.count())]
    assert titles == ["c0 → e5000  (the model's call → the person's edit)",
                      "step 5,000 of 5,000: e4999 → e5000  (the edit's own step)"]
    assert threads and not any(threads), "pairing, diffing and provenance must run off the GUI thread"
