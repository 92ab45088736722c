"""At 1024×700 every tab fits, nothing in it is squeezed, and the timeline dock is never collapsed or saved so."""
from __future__ import annotations

import pytest
from PySide6.QtWidgets import QAbstractButton, QComboBox, QLineEdit, QWidget

from gui.main_window import DOCK_MIN_WIDTH, TABS, MainWindow
from tests.conftest import DEMO

QT_SCROLL_ARROWS = ("ScrollLeftButton", "ScrollRightButton")  # a tab bar's own arrows, drawn narrow by design
SMALL = (1024, 700)
LARGE = (1400, 900)


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
    window.resize(*SMALL)
    window.show_tab(name)
    qtbot.waitUntil(lambda: window.width() == SMALL[0], timeout=3000)
    qtbot.wait(50)
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
