"""The window's keyboard: focus keys, stepping to failed bodies and canvas edits, table copy, and the list.

- Tab and Shift+Tab move between panes: no table or tree keeps Tab for moving between its cells.
- Ctrl+F focuses the current view's search (or filter) field; Ctrl+L the Inputs resolver.
- F8 / Shift+F8 go to the next / previous failed body (recorded as failed, or failed or diverged
  in the last replay); F7 / Shift+F7 to the next / previous canvas edit. Past the last they wrap to
  the first (and back), and the status bar says so; with none at all it says that.
- Ctrl+C in a table copies the selected rows as tab-separated text, every column, not one cell.
- Help ▸ Keyboard shortcuts (F1) lists every shortcut of the window's menus, read from their actions,
  so the list cannot drift from what the keys do.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction, QGuiApplication, QKeyEvent, QKeySequence
from PySide6.QtWidgets import QAbstractItemView, QDialog, QLineEdit, QMenu, QTableView, QTextBrowser, QVBoxLayout, QWidget

from wsi_inspector.core.session.model import Body, Entry, KeptSnapshot, TimelineItem
from wsi_inspector.core.session.navigation import KINDS, cursor_position, step
from wsi_inspector.gui.window.context import InspectorContext
from wsi_inspector.gui.window.services import WindowServices

SEARCH_FIELDS = ("search_edit", "filter_edit")  # a view's search field, by attribute, in this order
TABLE_KEYS = [  # keys that tables and fields handle themselves, for the list
    ("Tab / Shift+Tab", "move to the next / previous pane"),
    ("Ctrl+C (in a table)", "copy the selected rows as tab-separated text"),
    ("Ctrl+C (in a JSON tree)", "copy the chosen value"),
    ("Ctrl+Enter (in the Run tab)", "run the body in the editor at the cursor"),
    ("Enter (in the folder table)", "open the chosen session"),
]


def reading_order(*widgets: QWidget) -> None:
    """Tab goes through `widgets` in the order given: a tab's panes as they read, left to right, top to bottom.

    Qt's default order is the order the widgets were made in, which is seldom the order they are laid
    out in. Call it once every widget is in its layout: putting a widget in a layout reparents it,
    which drops its place in the chain.
    """
    for first, second in zip(widgets, widgets[1:]):
        QWidget.setTabOrder(first, second)


class Keyboard(QObject):
    """Installs the window-wide keys and the Help menu on a window (through its services)."""

    def __init__(self, context: InspectorContext, services: WindowServices):
        super().__init__(services.widget)
        self.context, self.services = context, services
        self.window = services.widget  # the QMainWindow: its menu bar, actions and item views
        self.position: int | None = None  # timeline index of what F7/F8 chose last
        self._moving = False
        context.cursor_changed.connect(self._cursor_moved)
        context.session_changed.connect(self._forget)
        self.actions = [
            self._action("Find in this view", "Ctrl+F", self.focus_search),
            self._action("Resolve inputs.last / inputs.at", "Ctrl+L", self.focus_resolver),
            self._action("Next failed body", "F8", lambda: self.go(self.failed, True)),
            self._action("Previous failed body", "Shift+F8", lambda: self.go(self.failed, False)),
            self._action("Next canvas edit", "F7", lambda: self.go(KINDS["edit"], True)),
            self._action("Previous canvas edit", "Shift+F7", lambda: self.go(KINDS["edit"], False)),
        ]
        go_menu = self.window.menuBar().addMenu("&Go")
        for action in self.actions:
            go_menu.addAction(action)
        help_menu = self.window.menuBar().addMenu("&Help")
        self.shortcuts_action = self._action("&Keyboard shortcuts", "F1", self.show_shortcuts)
        help_menu.addAction(self.shortcuts_action)
        self.table_filter = TableKeys(self)
        self.tame_item_views()
        services.tab_changed.connect(lambda _: self.tame_item_views())

    def _action(self, text: str, keys: str, slot: Callable[[], Any]) -> QAction:
        action = QAction(text, self.window)
        action.setShortcut(QKeySequence(keys))
        action.triggered.connect(slot)
        self.window.addAction(action)
        return action

    # --- panes and tables ----------------------------------------------------------------------------
    def tame_item_views(self) -> None:
        """Every table and tree: Tab leaves it; a table copies whole rows (views built later too)."""
        for view in self.window.findChildren(QAbstractItemView):
            if view.property("wsiKeys"):
                continue
            view.setProperty("wsiKeys", True)
            view.setTabKeyNavigation(False)
            if isinstance(view, QTableView):
                view.installEventFilter(self.table_filter)

    # --- focus -----------------------------------------------------------------------------------------
    def focus_search(self) -> None:
        """Ctrl+F: the current view's search field, else its filter, else its first text field."""
        view = self.services.view(self.services.current_tab())
        field = next((getattr(view, name) for name in SEARCH_FIELDS if isinstance(getattr(view, name, None), QLineEdit)), None)
        if field is None:
            field = next((f for f in view.findChildren(QLineEdit) if f.isVisible() and f.isEnabled()), None) if view else None
        if field is not None:
            field.setFocus(Qt.FocusReason.ShortcutFocusReason)
            field.selectAll()

    def focus_resolver(self) -> None:
        """Ctrl+L: the Inputs tab's resolver line."""
        self.services.show_tab("inputs")
        field = getattr(self.services.view("inputs"), "resolver_edit", None)
        if isinstance(field, QLineEdit):
            field.setFocus(Qt.FocusReason.ShortcutFocusReason)
            field.selectAll()

    # --- stepping --------------------------------------------------------------------------------------
    def failed(self, item: TimelineItem) -> bool:
        """A body that failed as recorded, or failed or diverged in the last replay."""
        return KINDS["failed"](item) or (isinstance(item, Body) and self.context.badges.get(item.key) in ("failed", "diverged"))

    def go(self, wanted: Callable[[TimelineItem], bool], forward: bool) -> None:
        """Choose the nearest item `wanted` accepts after (or before) the last one chosen, or the cursor."""
        context = self.context
        session = context.session
        if session is None:
            return
        position = self.position if self.position is not None else cursor_position(session, context.cursor)
        hit = step(session, position, wanted, forward)
        wrapped = ""
        if hit is None:  # past the last (or before the first): round to the other end
            hit = step(session, -1 if forward else len(session.timeline), wanted, forward)
            wrapped = " (wrapped to the first)" if forward else " (wrapped to the last)"
        if hit is None or (wrapped and hit[0] == position):
            self.services.status("none in this session" if hit is None else "the only one: no other in this session", 4000)
            return
        self._moving = True
        try:
            self.position, item = hit
            if isinstance(item, Entry):
                context.choose_entry(item)
            elif isinstance(item, Body):
                context.choose_body(item)
        finally:
            self._moving = False
        assert not isinstance(item, KeptSnapshot)  # every `wanted` picks a body or an entry
        self.services.status(f"{'body' if isinstance(item, Body) else 'entry'} {item.id}{wrapped}", 4000)

    def _cursor_moved(self) -> None:
        if not self._moving:
            self.position = None  # moved by the person: step from the cursor again

    def _forget(self) -> None:
        self.position = None

    # --- the list --------------------------------------------------------------------------------------
    def shortcut_sections(self) -> list[tuple[str, list[tuple[str, str]]]]:
        """(menu title, [(keys, what)]) for every menu action with a shortcut, in menu order, then the table keys."""
        sections = []
        for top in self.window.menuBar().actions():
            menu = top.menu()
            if not isinstance(menu, QMenu):  # none; PySide6 types QAction.menu() as a QObject
                continue
            rows = []
            for action in menu.actions():
                keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
                if keys:
                    rows.append((keys, action.text().replace("&", "")))
            if rows:
                sections.append((top.text().replace("&", ""), rows))
        return sections + [("In tables and fields", TABLE_KEYS)]

    def show_shortcuts(self) -> QDialog:
        """Help ▸ Keyboard shortcuts: a dialog with the list."""
        dialog = QDialog(self.window)
        dialog.setObjectName("shortcutsDialog")
        dialog.setWindowTitle("Keyboard shortcuts")
        text = QTextBrowser(dialog)
        text.setObjectName("shortcutsList")
        cells = "".join(
            f"<tr><td colspan='2'><br><i>{title}</i></td></tr>"
            + "".join(f"<tr><td><b>{keys}</b></td><td>&nbsp;&nbsp;{what}</td></tr>" for keys, what in rows)
            for title, rows in self.shortcut_sections())
        text.setHtml(f"<table cellpadding='3'>{cells}</table>")
        layout = QVBoxLayout(dialog)
        layout.addWidget(text)
        dialog.resize(520, 560)
        dialog.show()
        return dialog


class TableKeys(QObject):
    """An event filter for tables: Ctrl+C copies the selected rows, not the current cell."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 — Qt's hook
        if event.type() == QEvent.Type.KeyPress and isinstance(watched, QTableView):
            key_event: QKeyEvent = event  # type: ignore[assignment]
            if key_event.matches(QKeySequence.StandardKey.Copy):
                QGuiApplication.clipboard().setText(rows_as_tsv(watched))
                return True
        return False


def rows_as_tsv(table: QTableView) -> str:
    """The selected rows (else the current one) of a table as tab-separated lines, visible columns only, in the
    order they are shown (the Inputs table shows its read mark, its model's last column, beside ✎)."""
    model = table.model()
    selection = table.selectionModel()
    rows = sorted({index.row() for index in selection.selectedIndexes()}) if selection is not None else []
    if not rows and table.currentIndex().isValid():
        rows = [table.currentIndex().row()]
    columns = sorted((c for c in range(model.columnCount()) if not table.isColumnHidden(c)),
                     key=table.horizontalHeader().visualIndex)

    def cell(row: int, column: int) -> str:
        value = model.data(model.index(row, column))
        return "" if value is None else str(value).replace("\t", " ").replace("\n", " ")

    return "\n".join("\t".join(cell(row, column) for column in columns) for row in rows)
