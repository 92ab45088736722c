"""Window sizes the layout tests use (a small laptop's and the default), waiting until a window has taken one, and
whether texts are whole in a column."""
from __future__ import annotations

SMALL = (1024, 700)
LARGE = (1400, 900)


def settle(qtbot, window, size) -> None:
    """Resize the window and wait until it and the timeline dock have taken their sizes (the dock's comes a turn later)."""
    window.resize(*size)
    qtbot.waitUntil(lambda: window.width() == size[0], timeout=3000)
    qtbot.waitUntil(lambda: abs(window.timeline_dock.width() - window.dock_target()) <= 2, timeout=3000)
    qtbot.wait(20)


def shown_whole(view, column: int, texts) -> bool:
    """Every text fits its column of `view`, in the ids' monospace font (so nothing of it is cut)."""
    from PySide6.QtGui import QFontMetrics

    from wsi_inspector.gui.window.look import monospace

    metrics = QFontMetrics(monospace())
    return all(metrics.horizontalAdvance(text) + 8 <= view.columnWidth(column) for text in texts)


def demo_at(window, open_file, qtbot, body: str | None = "b5", tab: str | None = None, size=SMALL):
    """The demo open in `window` at `body`, `tab` shown (when given), the window settled at `size` (1024×700)."""
    from tests.conftest import DEMO

    session = open_file(window, DEMO)
    window.context.set_cursor(body)
    if tab is not None:
        window.show_tab(tab)
    settle(qtbot, window, size)
    return session
