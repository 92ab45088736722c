"""At 1024×700 every tab fits, nothing in it is squeezed, and the timeline dock is never collapsed or saved so."""
from __future__ import annotations

import pytest
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QAbstractButton, QComboBox, QLineEdit, QWidget

from wsi_inspector.gui.window.look import monospace
from wsi_inspector.gui.window.main_window import DOCK_MIN_WIDTH, TABS, MainWindow
from tests.conftest import DEMO
from tests.helpers.window_sizes import LARGE, SMALL, settle, shown_whole

QT_SCROLL_ARROWS = ("ScrollLeftButton", "ScrollRightButton")  # a tab bar's own arrows, drawn narrow by design


def squeezed(view: QWidget) -> list[str]:
    """The visible controls of a view that stand outside it or narrower than they need to be read."""
    found = []
    for control in view.findChildren(QWidget):
        if not isinstance(control, (QAbstractButton, QComboBox, QLineEdit)) or not control.isVisibleTo(view):
            continue
        if control.window() is not view.window() or control.objectName() in QT_SCROLL_ARROWS:
            continue
        top_left = control.mapTo(view, control.rect().topLeft())
        inside = 0 <= top_left.x() and top_left.x() + control.width() <= view.width() + 1
        if not inside or control.width() < control.minimumSizeHint().width():
            found.append(f"{type(control).__name__} {control.objectName() or control.property('text')!r} "
                         f"at x={top_left.x()} width {control.width()} (needs {control.minimumSizeHint().width()})")
    return found


@pytest.mark.parametrize("name", [name for name, _t, _s in TABS])
def test_every_tab_fits_a_1024_by_700_window(window, open_file, qtbot, tmp_path, name):
    open_file(window, DEMO)
    window.context.set_cursor("b5")
    window.show_tab(name)
    settle(qtbot, window, SMALL)
    view = window.views[name]
    assert window.minimumSizeHint().width() <= SMALL[0]
    assert view.width() >= view.minimumSizeHint().width()
    assert squeezed(view) == []
    assert window.timeline_dock.width() >= DOCK_MIN_WIDTH
    shot = tmp_path / f"{name}-1024.png"
    assert window.grab().save(str(shot)) and shot.stat().st_size > 10_000


def test_the_timeline_dock_grows_back_and_is_never_saved_collapsed(qtbot, settings, open_file):
    first = MainWindow(settings)
    qtbot.addWidget(first)
    first.show()
    open_file(first, DEMO)
    first.resize(*LARGE)
    qtbot.waitUntil(lambda: first.width() == LARGE[0], timeout=3000)
    wide = first.timeline_dock.width()
    first.show_tab("run")
    first.resize(*SMALL)
    qtbot.waitUntil(lambda: first.width() == SMALL[0], timeout=3000)
    assert DOCK_MIN_WIDTH <= first.timeline_dock.width() <= wide
    first.resize(*LARGE)
    qtbot.waitUntil(lambda: first.width() == LARGE[0], timeout=3000)
    qtbot.waitUntil(lambda: abs(first.timeline_dock.width() - wide) <= 4, timeout=3000)
    first.resize(*SMALL)
    qtbot.waitUntil(lambda: first.width() == SMALL[0], timeout=3000)
    first.close()  # saved while the window is small

    second = MainWindow(settings)
    qtbot.addWidget(second)
    second.show()
    second.resize(*LARGE)
    qtbot.waitUntil(lambda: second.width() == LARGE[0], timeout=3000)
    qtbot.waitUntil(lambda: abs(second.timeline_dock.width() - wide) <= 4, timeout=3000)


@pytest.mark.parametrize("size", [SMALL, LARGE])
def test_ids_and_calls_are_whole_or_elided_in_the_middle_with_the_full_text_in_a_tooltip(window, open_file, qtbot, size):
    # Calls whole at 1024 too, shapes elided at their end: tests/gui/window/test_nothing_cut.py (issue 31.8).
    from PySide6.QtCore import Qt

    session = open_file(window, DEMO)
    window.context.set_cursor("b5")  # nothing falls at the cap here: no "at cap" column
    window.show_tab("inputs")
    settle(qtbot, window, size)
    table = window.views["inputs"].table
    model = table.model()
    assert shown_whole(table, 0, [str(e.id) for e in session.entries])
    assert table.textElideMode() == Qt.TextElideMode.ElideRight  # the shape's prose; a call's delegate: the middle
    for row in range(model.rowCount()):
        call = model.data(model.index(row, 1))
        assert call in model.data(model.index(row, 1), Qt.ItemDataRole.ToolTipRole)
    header = table.horizontalHeader()
    assert header.sectionViewportPosition(5) + header.sectionSize(5) <= table.viewport().width()  # bytes in view
    if size == LARGE:  # the call column takes its room once the table has its width (a turn later on a loaded machine)
        qtbot.waitUntil(lambda: shown_whole(table, 1, {e.call for e in session.entries}), timeout=3000)


def test_the_run_calls_outcome_and_the_replay_verdicts_are_in_view_at_1024(window, open_file, qtbot):
    from PySide6.QtCore import Qt

    open_file(window, DEMO)
    window.show_tab("run")
    settle(qtbot, window, SMALL)
    view = window.views["run"]
    view.editor.set_code("await Promise.all([1, 2].map((level) => modules.mep.risers({ level })));\n"
                         "await modules.pack.corridorRuns.corridorRuns({ nothing: 1 });", "js")
    with qtbot.waitSignal(view.bridge.finished, timeout=20_000):
        qtbot.mouseClick(view.run_button, Qt.MouseButton.LeftButton)
    view.result_tabs.setCurrentWidget(view.calls_table)
    qtbot.wait(50)
    header = view.calls_table.horizontalHeader()
    assert header.sectionViewportPosition(4) + 60 <= view.calls_table.viewport().width()  # "outcome" is on screen
    model = view.calls_model
    for row in range(model.rowCount()):
        for column in range(5):
            index = model.index(row, column)
            text, tip = model.data(index), model.data(index, Qt.ItemDataRole.ToolTipRole)
            assert text.removeprefix("failed: ")[:100] in tip  # a cut cell: its full text in the tooltip
    assert shown_whole(view.calls_table, 0, [model.data(model.index(r, 0)) for r in range(model.rowCount())])
    with qtbot.waitSignal(view.bridge.replay_done, timeout=60_000):
        qtbot.mouseClick(view.replay_button, Qt.MouseButton.LeftButton)
    tree, model = window.timeline.tree, window.timeline.model
    badge = tree.fontMetrics().horizontalAdvance("diverged") + 20  # icon and text of the longest verdict
    assert tree.columnWidth(1) >= badge
    # The verdicts are the bodies': a call row spans their column, its id whole beside them (issue 31.8).
    parent = model.index(model.row_for_cursor("b5"), 0)
    calls = [model.index(row, 0, parent) for row in range(model.rowCount(parent))]
    assert calls and all(tree.isFirstColumnSpanned(c.row(), parent) for c in calls)
    metrics = QFontMetrics(monospace())
    if window.logicalDpiX() <= 96:  # the shipped font at 100 %: whole at 1024 px (at 150 % the tabs keep their room first)
        assert all(metrics.horizontalAdvance(model.data(c)) + 4 <= tree.visualRect(c).width() for c in calls)
    assert view.replay_page.table.columnWidth(1) >= view.replay_page.table.fontMetrics().horizontalAdvance("diverged")


def test_ids_calls_and_json_are_drawn_in_the_shipped_fixed_font_without_shaping(qapp):
    # Issue 18, point 4: shaping Latin text was a seventh of painting a table on each cursor move.
    # Issue 29.6: the font is the one the package ships (resources/fonts), whatever the system's fixed
    # font is; the family is named, for the strategy alone picked another font.
    from PySide6.QtGui import QFont, QFontInfo

    from wsi_inspector.gui.window.look import SHIPPED_FAMILY, bold_monospace, monospace

    for font in (monospace(), bold_monospace()):
        assert font.styleStrategy() & QFont.StyleStrategy.PreferNoShaping
        assert QFontInfo(font).family() == SHIPPED_FAMILY and QFontInfo(font).fixedPitch()
