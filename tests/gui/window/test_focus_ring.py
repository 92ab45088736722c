"""Issue 31.10: the focused pane is framed in the theme's accent colour, light and dark, and the frame follows Tab."""
from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication

from wsi_inspector.gui.window import theme
from wsi_inspector.gui.window.main_window import MainWindow
from tests.conftest import DEMO


@pytest.fixture(params=["light", "dark"])
def themed_window(request, qtbot, settings, open_file):
    """A window with the demo open under a light or a dark application palette (the one before restored after)."""
    app = QApplication.instance()
    before = app.palette()
    app.setPalette(theme.application_palette(app.style().standardPalette(), request.param == "dark"))
    window = MainWindow(settings)
    qtbot.addWidget(window)
    window.resize(1024, 700)
    window.show()
    open_file(window, DEMO)
    window.context.set_cursor("b5")
    yield request.param, window
    window.close()
    app.setPalette(before)
    theme.use_palette(before)


def _edge_colours(pane):
    """The colours at the middle of the pane's four edges, one pixel in, as the pane draws itself (its ring with it)."""
    image = pane.grab().toImage()
    ratio = image.devicePixelRatio()
    w, h = pane.width(), pane.height()
    points = [(w // 2, 0), (w // 2, h - 1), (0, h // 2), (w - 1, h // 2)]
    return [image.pixelColor(int(x * ratio), int(y * ratio)).name() for x, y in points]


def test_the_clicked_pane_is_framed_in_the_accent_and_the_frame_follows_tab(qtbot, themed_window):
    look, window = themed_window
    accent = QColor((theme.DARK if look == "dark" else theme.LIGHT)["focus"]).name()
    window.activateWindow()
    kept = window.views["kept"]
    window.show_tab("kept")
    qtbot.mouseClick(kept.table.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(20, 10))
    assert QApplication.focusWidget() is kept.table
    assert window.focus_ring.isVisible() and window.focus_ring.parentWidget() is kept.table
    assert _edge_colours(kept.table) == [accent] * 4
    assert accent not in _edge_colours(kept.tree)  # one pane framed at a time
    qtbot.keyClick(kept.table, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is kept.tree
    assert _edge_colours(kept.tree) == [accent] * 4
    assert accent not in _edge_colours(kept.table)
    window.grab().save(f"/tmp/window-rest-focus-{look}.png")


def test_the_editor_is_framed_and_a_field_is_not(qtbot, themed_window):
    look, window = themed_window
    accent = QColor((theme.DARK if look == "dark" else theme.LIGHT)["focus"]).name()
    window.activateWindow()
    run = window.views["run"]
    window.show_tab("run")
    qtbot.mouseClick(run.editor.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(40, 10))
    assert QApplication.focusWidget() is run.editor
    assert _edge_colours(run.editor) == [accent] * 4
    qtbot.mouseClick(run.timeout_box, Qt.MouseButton.LeftButton)
    assert not window.focus_ring.isVisible()  # a field shows its own cursor: the ring is for panes
