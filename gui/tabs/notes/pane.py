"""The Notes pane: every note on the open session (its own and its sidecar's), and a jump to where each is.

A dock under the timeline. Double-clicking (or Enter on) a note chooses what it is on: a body moves
the cursor there and shows the Run tab; a canvas edit shows the Edits tab on it; another entry the
Inputs tab. Problems of the sidecar are listed above the notes, each naming where it is. The pane
works through the context and the window's services (wsi_inspector.gui.window.services), never the window itself.
"""
from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QHeaderView, QLabel, QMenu, QSizePolicy, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from wsi_inspector.core.handoff.notes import Note
from wsi_inspector.gui.window.context import InspectorContext
from wsi_inspector.gui.actions.note_actions import NotesKeeper, install_note_actions
from wsi_inspector.gui.window.services import WindowServices
from wsi_inspector.gui.tabs.timeline.view import TimelineView

NOTE_ROLE = Qt.ItemDataRole.UserRole
NOTES_HEIGHT = 170  # pixels: five notes in view under the timeline


class NotesPane(QWidget):
    """The list of notes; `jump(note)` shows where one is."""

    def __init__(self, context: InspectorContext, services: WindowServices, keeper: NotesKeeper):
        super().__init__(services.widget)
        self.context = context
        self.services = services
        self.keeper = keeper
        self.problems = QLabel(self)
        self.problems.setObjectName("notesProblems")
        self.problems.setWordWrap(True)
        self.problems.setVisible(False)
        self.tree = QTreeWidget(self)
        self.tree.setObjectName("notesTree")
        self.tree.setHeaderLabels(["on", "note", "by"])
        self.tree.setRootIsDecorated(False)
        self.tree.setUniformRowHeights(True)
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        self.tree.itemActivated.connect(lambda item, _column: self.jump(item.data(0, NOTE_ROLE)))
        self.empty = QLabel("No notes yet. Right-click a body in the timeline, an entry, a change "
                            "or the Run tab's code: Add note…", self)
        self.empty.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.problems)
        layout.addWidget(self.empty)
        layout.addWidget(self.tree, 1)
        # The dock shares the timeline's width: it must never be what widens the left side on a small screen.
        for widget in (self, self.tree, self.empty, self.problems):
            widget.setSizePolicy(QSizePolicy.Policy.Ignored, widget.sizePolicy().verticalPolicy())
            widget.setMinimumWidth(0)
        keeper.changed.connect(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        """Fill the list from the keeper's notes."""
        notes = self.keeper.notes
        self.tree.clear()
        for note in notes.notes:
            item = QTreeWidgetItem([note.place(), " ".join(note.text.split()), note.author])
            item.setData(0, NOTE_ROLE, note)
            item.setToolTip(1, f"{html.escape(note.text)}<br><i>{html.escape(note.author)}, {html.escape(note.at)}</i>")
            self.tree.addTopLevelItem(item)
        self.tree.resizeColumnToContents(0)  # a few notes: sizing to them is cheap
        self.problems.setText("<br>".join(html.escape(p) for p in notes.problems))
        self.problems.setVisible(bool(notes.problems))
        self.empty.setVisible(not notes.notes and self.context.session is not None)
        self.tree.setVisible(bool(notes.notes))

    def jump(self, note: Note | None) -> bool:
        """Choose what `note` is on and show its tab; False when the session has no such body or entry."""
        session = self.context.session
        if note is None or session is None:
            return False
        if note.entry is not None:
            entry = session.entry(note.entry)
            if entry is None:
                self.services.status(f"note {note.id}: no entry {note.entry} in this session", 6000)
                return False
            self.services.show_tab("edits" if entry.applied else "inputs")
            self.context.choose_entry(entry)
            return True
        body = session.body(note.body) if note.body is not None else None
        if body is None:
            self.services.status(f"note {note.id}: no body {note.body} in this session", 6000)
            return False
        self.context.choose_body(body)
        self.services.show_tab("run")
        return True


def install_notes(context: InspectorContext, services: WindowServices, timeline_dock: QDockWidget) -> NotesPane:
    """Notes in the window: the actions and marks (wsi_inspector.gui.actions.note_actions) and the Notes dock under `timeline_dock`.

    The pane is returned (its `keeper` holds the notes and the views' marks); the dock is its parent.
    """
    timeline = timeline_dock.widget()
    if not isinstance(timeline, TimelineView):
        raise TypeError(f"the Notes dock goes under the timeline's dock, not under one holding {type(timeline).__name__}")
    keeper = install_note_actions(context, services, timeline)
    window = services.widget
    dock = QDockWidget("Notes", window)
    dock.setObjectName("notesDock")
    pane = NotesPane(context, services, keeper)
    dock.setWidget(pane)
    dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable | QDockWidget.DockWidgetFeature.DockWidgetFloatable
                     | QDockWidget.DockWidgetFeature.DockWidgetClosable)
    window.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, dock)
    window.splitDockWidget(timeline_dock, dock, Qt.Orientation.Vertical)
    window.resizeDocks([timeline_dock, dock], [3 * NOTES_HEIGHT, NOTES_HEIGHT], Qt.Orientation.Vertical)
    for action in window.menuBar().actions():
        menu = action.menu()  # a QMenu, or none; PySide6 types it as a QObject
        if isinstance(menu, QMenu) and action.text().replace("&", "") == "View":
            menu.addAction(dock.toggleViewAction())
    return pane
