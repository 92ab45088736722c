"""The Edits drawing shows the change: fitted on first show, moves marked from → to, the model's line on
top, equal scale or stretched, and zoom to the change a person picks."""
from __future__ import annotations

from PySide6.QtCore import Qt

from tests.conftest import DEMO
from tests.helpers.window_sizes import LARGE, SMALL, settle

SPINE_X, SPINE_Y = (1500, 58500), (17400, 18600)  # the demo's spine and e1's bend of it


def edits_on(qtbot, window, open_file, size=LARGE):
    open_file(window, DEMO)
    window.show_tab("edits")
    settle(qtbot, window, size)
    view = window.views["edits"]
    qtbot.waitUntil(lambda: view.current_comparison() is not None and view.drawing_ready, timeout=20_000)
    qtbot.waitUntil(lambda: view.plot.isVisible() and view.plot.width() > 200 and view.plot.fitted, timeout=5000)
    return view


def spans(plot):
    (x0, x1), (y0, y1) = plot.plot.getViewBox().viewRange()
    return x1 - x0, y1 - y0


def test_the_drawing_opens_on_the_changed_region_and_fit_all_shows_the_whole(qtbot, window, open_file):
    # Issue 31.6: open on the changed region with padding; a Fit all.
    window.show_tab("inputs")  # the Edits tab builds its drawing while hidden
    view = edits_on(qtbot, window, open_file, SMALL)
    (x0, x1), (y0, y1) = view.plot.plot.getViewBox().viewRange()
    moved = [(15000, 18000), (15000, 18600), (45000, 18000), (45000, 17400), (22500, 18600)]
    assert all(x0 < x < x1 and y0 < y < y1 for x, y in moved)  # every changed vertex in view, with room around
    assert x1 - x0 < SPINE_X[1] - SPINE_X[0]  # closer than the whole
    button = view.plot.fit_all_button
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton, pos=button.rect().center())
    width, _height = spans(view.plot)
    (x0, x1), _ = view.plot.plot.getViewBox().viewRange()
    assert x0 <= SPINE_X[0] and x1 >= SPINE_X[1]
    assert width <= (SPINE_X[1] - SPINE_X[0]) * 1.25  # equal scale: the long side is the one that fits, with a little padding


def test_moved_vertices_are_marked_from_where_they_were_to_where_they_went(qtbot, window, open_file):
    view = edits_on(qtbot, window, open_file)
    xs, ys = view.plot.moves.getData()
    segments = sorted(((xs[i], ys[i]), (xs[i + 1], ys[i + 1])) for i in range(0, len(xs), 2))
    assert segments == [((15000, 18000), (15000, 18600)), ((45000, 18000), (45000, 17400))]
    hollow = sorted((p.pos().x(), p.pos().y()) for p in view.plot.removed_marks.points())
    assert hollow == [(15000, 18000), (45000, 18000)]  # where the moved vertices were


def test_the_models_line_is_dashed_and_on_top_of_the_persons(qtbot, window, open_file):
    view = edits_on(qtbot, window, open_file)
    model, person = view.plot.model_curves[0], view.plot.person_curves[0]
    assert model.zValue() > person.zValue()
    assert model.opts["pen"].style() == Qt.PenStyle.DashLine


def test_equal_scale_off_stretches_each_axis_to_its_data(qtbot, window, open_file):
    view = edits_on(qtbot, window, open_file)
    _width, flat_height = spans(view.plot)
    assert flat_height > 10 * (SPINE_Y[1] - SPINE_Y[0])  # at equal scale the 600 mm bend is a flat line
    box = view.plot.equal_scale
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=box.rect().center())
    assert not box.isChecked() and not view.plot.plot.getViewBox().state["aspectLocked"]
    _width, height = spans(view.plot)
    assert height <= (SPINE_Y[1] - SPINE_Y[0]) * 1.7  # the bend fills the drawing (with the opening view's padding)
    box.setFocus()
    qtbot.keyClick(box, Qt.Key.Key_Space)
    assert box.isChecked() and view.plot.plot.getViewBox().state["aspectLocked"]


def test_choosing_a_change_zooms_to_its_vertices(qtbot, window, open_file):
    view = edits_on(qtbot, window, open_file)
    whole_width, _ = spans(view.plot)
    table = view.changes_table
    rect = table.visualRect(view.changes_model.index(2, 1))  # spine/4 moved (45000, 18000) → (45000, 17400)
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    (x0, x1), (y0, y1) = view.plot.plot.getViewBox().viewRange()
    assert x0 < 45000 < x1 and y0 < 17400 and 18000 < y1
    assert x1 - x0 < whole_width / 5


def test_clicking_the_first_change_zooms_too(qtbot, window, open_file):
    # Issue 31.6: the first change, chosen for the person when the edit opens, did not zoom when clicked.
    view = edits_on(qtbot, window, open_file)
    before, _ = spans(view.plot)
    table = view.changes_table
    first = table.model().index(0, 1)
    assert table.currentIndex().row() == 0
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=table.visualRect(first).center())
    after, _ = spans(view.plot)
    assert after < before
