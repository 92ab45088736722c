"""What an action may ask of the window it runs in, and nothing more: the narrow side of `MainWindow`.

Actions (Save repro, Reduce…, deep links, Export, the keyboard) take the `InspectorContext` for what
the person chose and a `WindowServices` for what the window does: say something, bring a tab to the
front, open another window. They never take the window itself, so no module but the app imports
`MainWindow`, and no import has to hide inside a function to dodge a circle.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import SignalInstance
from PySide6.QtWidgets import QMainWindow, QWidget


@dataclass(frozen=True, slots=True)
class WindowServices:
    """The window's services, as callables; `MainWindow.services` builds the one of each window."""

    widget: QMainWindow  # the parent of dialogs, jobs, menus and window-wide actions
    settings: Any  # QSettings of the window (a new window shares them)
    notify: Callable[[str, str], None]  # (html, level "error"|"warning"|"info"): the notice bar
    status: Callable[[str, int], None]  # (text, ms): the status bar's passing message
    show_tab: Callable[[str], None]  # bring a tab (a TABS name) to the front
    current_path: Callable[[], Path | None]  # the open session's file
    load_finished: SignalInstance  # any end of a load in this window
    open_window: Callable[[Path, str | None, str | None, str, str], QWidget]
    # (file, body, tab, notice html, notice level) → a new window on that file, at that body and tab
    view: Callable[[str], QWidget | None]  # the view of a tab, by its TABS name
    current_tab: Callable[[], str]  # the TABS name of the tab in front
    tab_changed: SignalInstance  # another tab came to the front
