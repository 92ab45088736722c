"""The Trim tab: slider, exact field and plot line move the cap together; table, plot and words follow."""
import json
import math

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QGraphicsItem

from wsi_inspector.core.session.load import load
from wsi_inspector.core.jsrules.sizes import size_in_unit
from wsi_inspector.core.trim.preview import StoreIndex
from wsi_inspector.gui.window.context import InspectorContext
from wsi_inspector.gui.window.look import DISPLAY, FOREGROUND
from wsi_inspector.gui.tabs.trim.view import BETWEEN_BACKGROUND, FALLEN_FOREGROUND, NO_WARNINGS, SLIDER_STEPS, TrimView
from tests.conftest import DEMO


@pytest.fixture
def demo_view(qtbot):
    context = InspectorContext()
    context.set_session(load(DEMO))
    view = TrimView(context)
    qtbot.addWidget(view)
    view.resize(1200, 800)
    view.show()
    qtbot.waitExposed(view)
    return view


def fallen_rows(view):
    model = view.model
    return [row for row in range(model.rowCount()) if model.data(model.index(row, 0), FOREGROUND) == FALLEN_FOREGROUND]


def expected_preview(view):
    return StoreIndex(view.context.session.entries).preview_of(view.context.state.store)


def test_the_trim_tab_opens_at_the_sessions_store_cap(window, open_file, demo_path):
    open_file(window, demo_path)
    view = window.views["trim"]
    assert isinstance(view, TrimView)
    assert view.model.rowCount() == 0  # a hidden tab indexes nothing yet
    window.show_tab("trim")
    assert view.cap == 5713
    assert view.slider.value() == view.scale.position(5713)
    assert view.cap_field.text() == "5713"
    assert fallen_rows(view) == [0, 1, 2]
    assert view.summary_label.text() == "at 5,713 B (≈5.6 KiB) 3 of 36 entries fall, none of them the person's edits"


def test_moving_the_slider_moves_the_cap_and_the_table_plot_and_words_follow(demo_view, qtbot):
    view = demo_view
    qtbot.keyClick(view.slider, Qt.Key.Key_Home)
    assert view.slider.value() == 0
    assert view.cap == view.scale.low
    assert fallen_rows(view) == list(range(36))  # below the newest entry's size everything falls
    assert view.summary_label.text().startswith(f"at {view.scale.low} B all 36 entries fall, 3 of them the person's edits")
    view.slider.setValue(SLIDER_STEPS * 3 // 4)
    cap = view.scale.cap(SLIDER_STEPS * 3 // 4)
    fell = expected_preview(view).fell_at(cap)
    assert view.cap == cap and view.cap_field.text() == str(cap)
    assert fallen_rows(view) == list(range(fell))
    assert view.cap_line.value() == pytest.approx(math.log10(cap))
    assert view.fallen_region.getRegion() == pytest.approx((-0.5, fell - 0.5))
    assert view.summary_label.text() == expected_preview(view).summary(cap).words()
    qtbot.keyClick(view.slider, Qt.Key.Key_End)
    assert fallen_rows(view) == []
    assert view.summary_label.text().endswith("all 36 entries are kept (6,132 B of the store fit)")


def test_dragging_the_cap_line_moves_the_slider_and_the_field(demo_view, qtbot):
    view = demo_view
    plot = view.plot
    box = plot.getPlotItem().getViewBox()
    x = box.viewRect().center().x()

    def on_screen(cap):
        return plot.mapFromScene(box.mapViewToScene(QPointF(x, math.log10(cap))))

    start, target = on_screen(view.cap), on_screen(2048)
    viewport = plot.viewport()
    qtbot.mouseMove(viewport, start)
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=start)
    for step in range(1, 11):
        qtbot.wait(25)  # pyqtgraph drops mouse moves closer together than its mouseRateLimit
        qtbot.mouseMove(viewport, start + (target - start) * (step / 10))
    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=target)
    assert view.cap != 5713
    assert abs(math.log10(view.cap) - math.log10(2048)) < 0.05  # where the pointer let go, to a few pixels
    assert view.slider.value() == view.scale.position(view.cap)
    assert view.cap_field.text() == str(view.cap)
    assert fallen_rows(view) == list(range(expected_preview(view).fell_at(view.cap)))


def test_the_cap_line_moved_by_code_moves_the_slider_back(demo_view):
    view = demo_view
    view.cap_line.setValue(math.log10(4096))
    assert view.cap == 4096
    assert view.slider.value() == view.scale.position(4096)
    assert fallen_rows(view) == list(range(12))


def test_typing_an_exact_cap_in_a_unit_or_with_a_suffix(demo_view, qtbot):
    view = demo_view
    view.unit_box.setCurrentText("KiB")
    assert view.cap_field.text() == size_in_unit(5713, "KiB") == "5.5791015625"
    view.cap_field.clear()
    qtbot.keyClicks(view.cap_field, "4")
    qtbot.keyClick(view.cap_field, Qt.Key.Key_Return)
    assert view.cap == 4096 and view.cap_field.text() == "4"
    assert view.slider.value() == view.scale.position(4096)
    view.cap_field.clear()
    qtbot.keyClicks(view.cap_field, "2048 B")
    qtbot.keyClick(view.cap_field, Qt.Key.Key_Return)
    assert view.cap == 2048 and view.cap_field.text() == "2"
    assert view.summary_label.text().startswith("at 2 KiB 23 of 36 entries fall")


def test_a_cap_above_2_gib_is_taken_whole(demo_view, qtbot):
    view = demo_view
    caps = []
    view.cap_changed.connect(caps.append)
    view.cap_field.clear()
    qtbot.keyClicks(view.cap_field, "3072MiB")
    qtbot.keyClick(view.cap_field, Qt.Key.Key_Return)
    assert view.cap == caps[-1] == 3 * 1024**3
    assert fallen_rows(view) == []


def test_a_bad_cap_is_refused_in_place_and_the_cap_stays(demo_view, qtbot):
    view = demo_view
    view.cap_field.clear()
    qtbot.keyClicks(view.cap_field, "64kb")
    qtbot.keyClick(view.cap_field, Qt.Key.Key_Return)
    assert view.cap == 5713
    assert not view.field_error.isHidden()
    assert "did you mean KB?" in view.field_error.text()
    view.slider.setValue(10)
    assert view.field_error.isHidden()


def test_the_table_shows_each_entrys_size_and_the_cap_that_keeps_it(demo_view):
    view = demo_view
    view.set_cap(2048)
    preview = expected_preview(view)
    model = view.model
    assert model.headerData(5, Qt.Orientation.Horizontal) == "kept from cap ≥ (B)"
    for row in (0, 22, 23, 35):
        assert model.data(model.index(row, 5), DISPLAY) == f"{preview.kept_from_cap(row):,}"
        assert model.data(model.index(row, 4), DISPLAY) == f"{preview.entry_size(row):,}"
    assert fallen_rows(view) == list(range(23))
    assert "falls at this cap" in model.data(model.index(22, 0), Qt.ItemDataRole.ToolTipRole)
    assert "kept at this cap" in model.data(model.index(23, 0), Qt.ItemDataRole.ToolTipRole)


def test_warnings_name_the_fallen_edits_and_the_module_whose_last_falls(demo_view):
    view = demo_view
    view.set_cap(2048)
    texts = [view.warnings.item(i).text() for i in range(view.warnings.count())]
    assert texts == view.warning_texts() == expected_preview(view).summary(2048).warnings()
    assert [t.split(" (")[0] for t in texts[:3]] == ["canvas edit e3", "canvas edit e2", "canvas edit e1"]
    assert 'inputs.last("dept.zones")' in texts[3]
    view.set_cap(4096)
    assert view.warning_texts() == []
    assert [view.warnings.item(i).text() for i in range(view.warnings.count())] == [NO_WARNINGS]


def test_comparing_two_caps_marks_the_rows_between_and_says_so(demo_view):
    view = demo_view
    view.set_cap(2048)
    view.compare_field.setText("4KiB")
    view.compare_field.editingFinished.emit()
    assert view.compare_cap == 4096
    model = view.model
    between = [r for r in range(model.rowCount()) if model.data(model.index(r, 1), Qt.ItemDataRole.BackgroundRole) == BETWEEN_BACKGROUND]
    assert between == list(range(12, 23))
    assert view.compare_label.text().startswith("between 2 KiB and 4 KiB 11 entries (c13 … c20)")
    assert view.compare_line.isVisible()
    view.compare_field.setText("")
    view.compare_field.editingFinished.emit()
    assert view.compare_cap is None and not view.compare_line.isVisible()


def test_the_cursor_shows_the_store_that_body_was_handed_at_the_same_cap(demo_view):
    view = demo_view
    view.set_cap(1024)
    view.context.set_cursor("b4")
    assert view.model.rowCount() == 13
    assert view.cap == 1024
    assert fallen_rows(view) == list(range(expected_preview(view).fell_at(1024)))
    assert "as body" not in view.store_label.text() and "at body b4" in view.store_label.text()
    assert view.curve.getData()[0].size == 13


def test_a_hidden_view_catches_up_with_the_cursor_when_shown(demo_view):
    view = demo_view
    view.hide()
    view.context.set_cursor("b3")
    assert view.model.rowCount() == 36  # hidden: nothing redone yet
    view.show()
    assert view.model.rowCount() == 9


def test_a_session_without_a_store_cap_starts_with_everything_kept(qtbot, tmp_path):
    path = tmp_path / "nocap.json"
    path.write_text(json.dumps({"format": "worker-session/1", "session": {"id": "s"},
                                "store": [{"id": f"c{i}", "call": "a.b.c", "input": i} for i in range(5)]}))
    context = InspectorContext()
    context.set_session(load(path))
    view = TrimView(context)
    qtbot.addWidget(view)
    view.show()
    assert view.cap == expected_preview(view).total_bytes
    assert fallen_rows(view) == []
    assert "the session sets no store cap" in view.store_label.text()


def test_no_session_shows_an_empty_store(qtbot):
    view = TrimView(InspectorContext())
    qtbot.addWidget(view)
    view.show()
    assert view.model.rowCount() == 0
    assert view.summary_label.text().endswith("nothing falls: the store is empty")


def test_the_trim_model_passes_qtmodeltester(demo_view, qtmodeltester):
    qtmodeltester.check(demo_view.model)


def test_choosing_an_entry_anywhere_selects_its_row(demo_view):
    view = demo_view
    entry = view.context.session.entry("e2")
    view.context.choose_entry(entry)
    assert view.table.currentIndex().row() == 20
    assert view.model.data(view.table.currentIndex(), DISPLAY) == "e2"


def test_the_cached_plot_paints_what_an_uncached_one_paints_after_the_cap_and_cursor_move(demo_view, qtbot):
    view = demo_view
    for position in (100, 400, 800, 300):
        view.slider.setValue(position)
        qtbot.wait(1)
    view.set_compare_cap(3000)
    view.context.set_cursor("b6")  # a new store: a new curve and markers under the cached pixmaps
    view.cap_line.setValue(math.log10(1995))
    qtbot.wait(1)
    cached = view.plot.grab().toImage()
    item = view.plot.getPlotItem()
    cached_here = float(view.devicePixelRatioF()).is_integer()  # a fractional scale paints, never blits (the view says why)
    for still in (item.getAxis("left"), item.getAxis("bottom"), view.curve.curve, view.edit_points.scatter):
        assert still.cacheMode() == (QGraphicsItem.CacheMode.DeviceCoordinateCache if cached_here else QGraphicsItem.CacheMode.NoCache)
        still.setCacheMode(QGraphicsItem.CacheMode.NoCache)
    painted = view.plot.grab().toImage()
    # Nothing stale: a curve or markers of the old store, an old range's axis, would differ in hundreds of pixels.
    # An edge at a fractional device position may shade a few pixels otherwise in a pixmap than painted (3 of the
    # left axis line's, at 200 % with some fonts: where the axis's text puts the line), so a handful may differ.
    assert painted.size() == cached.size()
    differing = sum(painted.pixel(x, y) != cached.pixel(x, y) for y in range(painted.height()) for x in range(painted.width()))
    assert differing <= 8, differing


def test_the_slider_keeps_its_width_while_the_cap_changes(demo_view):
    view = demo_view
    widths = set()
    for cap in (2, 999, 5713, 123_456_789, 987_654_321_098):
        view.set_cap(cap)
        view.layout().activate()
        widths.add(view.slider.width())
    assert len(widths) == 1  # a slider that shrank under the pointer would jump while dragged


def test_a_valid_cap_equal_to_the_old_one_clears_the_red_error(demo_view, qtbot):
    view = demo_view
    view.cap_field.clear()
    qtbot.keyClicks(view.cap_field, "64kb")
    qtbot.keyClick(view.cap_field, Qt.Key.Key_Return)
    assert not view.field_error.isHidden()
    view.cap_field.clear()
    qtbot.keyClicks(view.cap_field, "5713")  # the cap it already has, in bytes
    qtbot.keyClick(view.cap_field, Qt.Key.Key_Return)
    assert view.cap == 5713 and view.field_error.isHidden()


def test_the_compare_field_shows_its_cap_in_the_chosen_unit_so_reading_it_again_keeps_it(demo_view):
    view = demo_view
    view.unit_box.setCurrentText("KiB")
    view.compare_field.setText("4")
    view.compare_field.editingFinished.emit()
    assert view.compare_cap == 4096 and view.compare_field.text() == "4"
    view.compare_field.editingFinished.emit()  # focus leaving the field reads it again
    assert view.compare_cap == 4096
    view.unit_box.setCurrentText("B")
    assert view.compare_field.text() == "4096" and view.cap_field.text() == size_in_unit(view.cap, "B")
    view.compare_field.editingFinished.emit()
    assert view.compare_cap == 4096


def test_the_trim_tab_reads_the_store_index_the_session_opened_with(window, open_file, demo_path):
    # Issue 18: a second index of its own cost this tab 0.3–0.5 s on a million entries, on the GUI thread.
    from wsi_inspector.gui.tabs.inputs.models import store_index_of

    open_file(window, demo_path)
    window.show_tab("trim")
    view = window.views["trim"]
    assert view.index is store_index_of(window.context.index)
    window.context.set_cursor("b5")
    assert view.preview.count == len(window.context.state.store) and view.index is store_index_of(window.context.index)


def test_the_curve_is_drawn_through_a_bounded_number_of_entries():
    """Issue 28, point 3: a million points cost pyqtgraph 30-50 ms of every cursor move with the tab in front;
    the curve only falls, so a bounded, even choice of entries, the oldest and newest kept, draws the same line."""
    from wsi_inspector.gui.tabs.trim.view import CURVE_POINTS, curve_positions

    assert curve_positions(13).tolist() == list(range(13))
    assert curve_positions(0).tolist() == []
    shown = curve_positions(1_000_000)
    assert len(shown) <= CURVE_POINTS and shown[0] == 0 and shown[-1] == 999_999
    assert (shown[1:] > shown[:-1]).all() and (shown[1:] - shown[:-1]).max() <= 1_000_000 // (CURVE_POINTS - 1) + 1
