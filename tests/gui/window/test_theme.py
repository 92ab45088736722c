"""Light and dark palettes: every cell and coloured label of every tab reads against what is behind it."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QPalette
from PySide6.QtWidgets import QAbstractItemView, QApplication, QLabel, QTreeView

from wsi_inspector.gui.window import theme
from wsi_inspector.gui.window.main_window import TABS, MainWindow
from tests.conftest import DEMO

MIN_CONTRAST = 4.5  # WCAG AA for body text
ROWS_CHECKED = 200
COLOUR_IN_TEXT = re.compile(r"color:\s*(#[0-9a-fA-F]{6})")
BACKGROUND_IN_TEXT = re.compile(r"background:\s*(#[0-9a-fA-F]{6})")


def luminance(colour: QColor) -> float:
    def channel(value: float) -> float:
        return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4
    return 0.2126 * channel(colour.redF()) + 0.7152 * channel(colour.greenF()) + 0.0722 * channel(colour.blueF())


def contrast(a: QColor, b: QColor) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def as_colour(value: object) -> QColor | None:
    if isinstance(value, QBrush):
        return value.color()
    return value if isinstance(value, QColor) else None


@pytest.fixture(params=["light", "dark"])
def palette_window(request, qtbot, settings, open_file):
    """A window under a light or a dark application palette (the one restored after)."""
    app = QApplication.instance()
    before = app.palette()
    app.setPalette(theme.application_palette(app.style().standardPalette(), request.param == "dark"))
    window = MainWindow(settings)
    qtbot.addWidget(window)
    window.show()
    open_file(window, DEMO)
    window.context.set_cursor("b5")
    yield request.param, window
    window.close()
    app.setPalette(before)
    theme.use_palette(before)


def unreadable_cells(view: QAbstractItemView) -> list[str]:
    model = view.model()
    if type(model).__name__ == "QTableModel":  # a QTableWidget's own model: its items carry the colours
        model = _ItemsAsModel(view)
    palette = view.palette()
    text, base = palette.color(QPalette.ColorRole.Text), palette.color(QPalette.ColorRole.Base)
    found = []

    def visit(parent, depth=0):
        for row in range(min(model.rowCount(parent), ROWS_CHECKED)):
            try:
                columns = model.columnCount(parent)
            except TypeError:  # a list widget's own model hides columnCount from Python: it has one
                columns = 1
            for column in range(columns):
                index = model.index(row, column, parent)
                shown = model.data(index, Qt.ItemDataRole.DisplayRole)
                if not shown:
                    continue
                foreground = as_colour(model.data(index, Qt.ItemDataRole.ForegroundRole)) or text
                background = as_colour(model.data(index, Qt.ItemDataRole.BackgroundRole)) or base
                if contrast(foreground, background) < MIN_CONTRAST:
                    found.append(f"{view.objectName()} row {row} col {column} {shown!r}: {foreground.name()} on "
                                 f"{background.name()} ({contrast(foreground, background):.1f}:1)")
            first = model.index(row, 0, parent)
            if depth < 3 and not isinstance(first, tuple) and isinstance(view, QTreeView) and view.isExpanded(first):
                visit(first, depth + 1)
    visit(view.rootIndex())
    return found


class _ItemsAsModel:
    """A QTableWidget read through its items (its built-in model hides columnCount from Python)."""

    def __init__(self, table):
        self.table = table

    def rowCount(self, parent=None):
        return 0 if parent is not None and parent.isValid() else self.table.rowCount()

    def columnCount(self, parent=None):
        return self.table.columnCount()

    def index(self, row, column, parent=None):
        return (row, column)

    def hasChildren(self, index):
        return False

    def data(self, index, role):
        item = self.table.item(*index)
        return None if item is None else item.data(role)


def unreadable_labels(widget) -> list[str]:
    window_colour = widget.palette().color(QPalette.ColorRole.Window)
    found = []
    for label in widget.findChildren(QLabel):
        if not label.isVisibleTo(widget) or not label.text():
            continue
        behind = BACKGROUND_IN_TEXT.findall(label.text())
        for colour in COLOUR_IN_TEXT.findall(label.text() + " " + label.styleSheet()):
            if contrast(QColor(colour), window_colour) < MIN_CONTRAST:
                found.append(f"{label.objectName()}: {colour} on {window_colour.name()}: {label.text()[:60]!r}")
        for colour in behind:
            if contrast(label.palette().color(QPalette.ColorRole.WindowText), QColor(colour)) < MIN_CONTRAST:
                found.append(f"{label.objectName()}: text on {colour}: {label.text()[:60]!r}")
    return found


@pytest.mark.parametrize("name", [name for name, _t, _s in TABS])
def test_every_cell_and_label_of_a_tab_reads_in_light_and_dark(qtbot, palette_window, tmp_path, name):
    look, window = palette_window
    window.views["inputs"].resolver_edit.setText("pack.corridorRuns")  # a highlighted answer row and its words
    window.show_tab(name)
    qtbot.wait(100)
    view = window.views[name]
    problems = []
    for item_view in [*view.findChildren(QAbstractItemView), window.timeline.tree]:
        if item_view.model() is not None and item_view.isVisibleTo(window):
            problems += unreadable_cells(item_view)
    problems += unreadable_labels(view) + unreadable_labels(window.statusBar())
    assert problems == []
    shot = tmp_path / f"{name}-{look}.png"
    assert window.grab().save(str(shot))


def test_the_theme_turns_when_the_palette_does(qtbot, palette_window):
    look, window = palette_window
    from wsi_inspector.gui.window.look import PERSON_BACKGROUND

    assert theme.dark() == (look == "dark")
    assert PERSON_BACKGROUND.name() == theme.hex_of("person_background")
    app = QApplication.instance()
    app.setPalette(theme.application_palette(app.style().standardPalette(), look != "dark"))
    qtbot.waitUntil(lambda: theme.dark() == (look != "dark"), timeout=3000)
    assert PERSON_BACKGROUND.name() == (theme.DARK if look != "dark" else theme.LIGHT)["person_background"]


def test_item_views_paint_without_a_style_sheet_and_keep_the_themes_colours():
    """Issue 18: an application-wide style sheet made Qt paint every table and tree through its slower
    style-sheet style (a cursor move repaints them row by row). The look's rules are set on the few
    widgets that take them; item views keep their selection and grid colours, in both themes."""
    probe = Path(__file__).with_name("look_probe.py")
    done = subprocess.run([sys.executable, str(probe), str(DEMO)], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    for look in ("light", "dark"):
        found = seen[look]
        assert found["app_sheet"] == ""
        assert "QStyleSheetStyle" not in found["styles"].values(), found["styles"]
        assert found["selection"] == [found["expected"]["selection"]] * 3
        assert found["grid"] == found["expected"]["grid"]
        assert found["header_rules"] and found["tab_rules"] and found["line_edit_rules"], found
    assert seen["light"]["expected"] != seen["dark"]["expected"]


@pytest.mark.parametrize("dark", [False, True])
def test_scroll_bars_look_as_fusion_draws_them_with_each_groove_drawn_once(qtbot, dark):
    """Issue 18: Fusion fills a scroll bar's groove with a gradient pixel by pixel (half a millisecond
    for a table-high bar, two or three bars scrolled on each cursor move). The look draws each groove
    once per size and colours and copies it: the bars are the same to the pixel, wherever the handle."""
    from PySide6.QtWidgets import QScrollBar, QStyleFactory, QWidget

    look, fusion = theme.LookStyle("Fusion"), QStyleFactory.create("Fusion")
    holder = QWidget()
    qtbot.addWidget(holder)
    holder.setPalette(theme.application_palette(fusion.standardPalette(), dark))
    holder.resize(300, 300)
    holder.show()
    for orientation, geometry in ((Qt.Orientation.Vertical, (0, 0, 14, 250)), (Qt.Orientation.Horizontal, (20, 0, 250, 14))):
        bar = QScrollBar(orientation, holder)
        bar.setGeometry(*geometry)
        bar.setRange(0, 1000)
        bar.setPageStep(50)
        bar.show()
        for value, enabled in ((0, True), (500, True), (1000, True), (500, False)):
            bar.setValue(value)
            bar.setEnabled(enabled)
            bar.setStyle(fusion)
            wanted = bar.grab().toImage()
            bar.setStyle(look)
            assert bar.grab().toImage().convertToFormat(wanted.format()) == wanted, (orientation, value, enabled)
    assert len(look._grooves) == 2  # one per direction (a disabled bar's colours are the same here), not one per paint
