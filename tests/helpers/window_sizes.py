"""Window sizes the layout tests use (a small laptop's and the default), and waiting until a window has taken one."""
from __future__ import annotations

SMALL = (1024, 700)
LARGE = (1400, 900)


def settle(qtbot, window, size) -> None:
    """Resize the window and wait until it and the timeline dock have taken their sizes (the dock's comes a turn later)."""
    window.resize(*size)
    qtbot.waitUntil(lambda: window.width() == size[0], timeout=3000)
    qtbot.waitUntil(lambda: abs(window.timeline_dock.width() - window.dock_target()) <= 2, timeout=3000)
    qtbot.wait(20)
