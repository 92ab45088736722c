"""The Edits view in a real window (qtbot): edits listed, changes filtered, both inputs, the drawing, copy as body."""
import json
import random

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication

from core.session import load, load_bytes
from gui.context import InspectorContext
from gui.edits_view import PERSON_WRITTEN, EditsView
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
    view.select_edit("e1")
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
    view.select_edit("e1")
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
    assert tree.json_model.data(origin) == "✎ e1 (person)"


def test_an_edit_of_an_edit_offers_each_step(qtbot, view):
    open_session(qtbot, view, load(DEMO))
    view.select_edit("e2")
    titles = [view.step_combo.itemText(i) for i in range(view.step_combo.count())]
    assert titles[0].startswith("c4 → e2") and titles[1:] == ["step 1: c4 → e1", "step 2: e1 → e2"]
    view.step_combo.setCurrentIndex(2)
    assert column(view.changes_model, 1) == ["spine/2"]
    assert view.model_tree.json_model.data(view.model_tree.json_model.root_index()) == "e1 input"


def test_copy_as_body_puts_a_body_that_rebuilds_the_edit_on_the_clipboard(qtbot, view):
    open_session(qtbot, view, load(DEMO))
    view.select_edit("e3")
    qtbot.mouseClick(view.copy_button, Qt.MouseButton.LeftButton)
    text = QGuiApplication.clipboard().text()
    assert text == view.last_copied
    assert text.startswith('return {\n  ...inputs.last("pack.rooms.place"),\n  rooms: [')
    assert '"at":[6600,13200]' in text and "level" not in text


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
    view.select_edit("e1")
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
    assert "No canvas edits" in view.summary.text()
    assert view.edits_model.rowCount() == 0 and not view.copy_button.isEnabled()
