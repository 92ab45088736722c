"""The timeline dock: bodies with their calls nested, canvas edits marked; choosing a row moves the cursor."""
from __future__ import annotations

import heapq
from itertools import islice

from PySide6.QtCore import QEvent, QItemSelectionModel, QModelIndex, QObject, Qt, Signal
from PySide6.QtGui import QFontMetrics, QKeyEvent
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTreeView, QVBoxLayout, QWidget

from wsi_inspector.core.session.growing import Appended
from wsi_inspector.core.text.words import plural
from wsi_inspector.gui.background.session_facts import canvas_edit_count
from wsi_inspector.gui.window.context import InspectorContext
from wsi_inspector.gui.window.look import CELL_PADDING, monospace, still_header
from wsi_inspector.gui.tabs.timeline.models import TimelineModel
from wsi_inspector.gui.widgets.quiet_label import QuietLabel

REPLAY_BADGE_ROOM = 44  # the badge icon and the cell's margins beside the longest verdict, "diverged"
CALLS_SAMPLED = 5000  # call rows looked at for the widest (width_wanted): bounded work on the GUI thread


class TimelineView(QWidget):
    """The one cursor's home: "the state at body B" for the chosen row; "End of session" is a row too."""

    wants_width = Signal()  # the calls or the replay column beside them changed: the dock's floor (width_wanted)

    def __init__(self, context: InspectorContext, parent: QWidget | None = None):
        super().__init__(parent)
        self.context = context
        self.model = TimelineModel(self)
        self.tree = QTreeView(self)
        self.tree.setObjectName("timelineTree")
        self.tree.setModel(self.model)
        self.tree.setUniformRowHeights(True)
        self.tree.setIndentation(10)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        still_header(self.tree).setStretchLastSection(False)
        self.tree.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        # Fixed, not ResizeToContents: sizing a column to its contents walks every row of a
        # 100,000-entry timeline on each cursor move.
        self.tree.header().setSectionResizeMode(1, QHeaderView.ResizeMode.Fixed)
        self._calls_width: int | None = None  # the widest call row's text, px (width_wanted)
        self.tree.header().resizeSection(1, self.fontMetrics().horizontalAdvance("diverged") + REPLAY_BADGE_ROOM)
        self.summary = QuietLabel(self, wrap=True)  # its counts change on every line a followed file appends
        self.summary.setObjectName("timelineSummary")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.summary)
        layout.addWidget(self.tree)
        self._moving = False  # the cursor is being moved from here: do not echo it back
        self.tree.selectionModel().currentChanged.connect(self._chosen)
        # A call row spans the replay column (verdicts are the bodies'): its id has the tree's whole width.
        # Set as a body opens, and for calls a followed file appends: never a walk of every row.
        self.tree.expanded.connect(self._span_calls)
        self.model.rowsInserted.connect(self._span_inserted)
        self.tree.installEventFilter(self)  # Up and Down step bodies; Right goes into a body's calls
        context.session_changed.connect(self._session_changed)
        context.cursor_changed.connect(self._cursor_changed)
        context.session_grew.connect(self._grew)
        context.state_grew.connect(self._cursor_changed)
        context.badges_changed.connect(self._badges_changed)
        context.entry_chosen.connect(self._show_entry)
        self._session_changed()
        self._badges_changed()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 — Qt's hook
        """On a top row, Up and Down go to the previous / next top row (a body, an edit, the end), not into
        the calls of the one above: stepping bodies moved the cursor to "End of session" through the last
        body's calls. Right opens a body and goes to its first call; in the calls the arrows step calls."""
        if watched is self.tree and event.type() == QEvent.Type.KeyPress:
            key_event: QKeyEvent = event  # type: ignore[assignment]
            key, current = key_event.key(), self.tree.currentIndex()
            if key in (Qt.Key.Key_Up, Qt.Key.Key_Down) and key_event.modifiers() == Qt.KeyboardModifier.NoModifier \
                    and current.isValid() and not current.parent().isValid():
                row = current.row() + (1 if key == Qt.Key.Key_Down else -1)
                if 0 <= row < self.model.rowCount():
                    self.tree.setCurrentIndex(self.model.index(row, 0))
                return True
        return super().eventFilter(watched, event)

    def _session_changed(self) -> None:
        session = self.context.session
        self.model.set_session(session)
        self._calls_width = None
        self.model.set_cursor(self.context.cursor)
        self._edits = canvas_edit_count(session) if session is not None else 0  # counted by the load job
        self._summarize()
        if session is not None and len(session.bodies) <= 30:
            # A big session opens collapsed: 100,000 call rows help no one. Bodies are expanded one
            # by one: expandAll would also walk every top row (20,000 canvas edits: 2 s).
            for row in self.model.body_rows.values():
                self.tree.expand(self.model.index(row, 0))
        self._cursor_changed()
        self.wants_width.emit()

    def _summarize(self) -> None:
        session = self.context.session
        if session is None:
            self.summary.setText("No session open.")
        else:
            self.summary.setText(f"{plural(len(session.bodies), 'body', 'bodies')} · {plural(len(session.entries), 'entry', 'entries')} · "
                                 f"{self._edits:,} canvas edit{'s' if self._edits != 1 else ''}")

    def _span_calls(self, body: QModelIndex) -> None:
        """The calls of an opened body span the replay column (Qt forgets spans when the model resets)."""
        self._span_inserted(body, 0, self.model.rowCount(body) - 1)

    def _span_inserted(self, parent: QModelIndex, first: int, last: int) -> None:
        if parent.isValid():  # call rows: the top rows (bodies, edits, the end) keep the verdict column
            for row in range(first, last + 1):
                self.tree.setFirstColumnSpanned(row, parent, True)

    def _grew(self, appended: Appended) -> None:
        """Show lines a followed file appended (`wsi_inspector.core.session.growing`): new rows inserted, none rebuilt."""
        session = self.context.session
        if session is None:
            return
        self.model.extend(session, appended.rows)
        self._calls_width = None  # measured again: a longer call may have come
        self.wants_width.emit()
        self._edits += sum(e.applied for e in appended.entries)
        self._summarize()
        if len(session.bodies) <= 30:  # as a fresh open: a small session's bodies are expanded
            for body in appended.bodies:
                self.tree.expand(self.model.index(self.model.body_rows[body.key], 0))

    def _badges_changed(self) -> None:
        retyped = {k: len(e["retyped"]) for k, e in self.context.evidence.items()}
        self.model.set_badges(self.context.badges, retyped)
        widest = "diverged · retyped 99" if any(retyped.values()) else "diverged"  # SPEC 7's badge, whole
        self.tree.header().resizeSection(1, self.fontMetrics().horizontalAdvance(widest) + REPLAY_BADGE_ROOM)
        self.tree.setColumnHidden(1, not self.context.badges)  # the replay column only once there is a replay
        self.wants_width.emit()  # the dock may widen for the calls beside it

    def width_wanted(self) -> int:
        """The px this view needs for its calls whole (`c20 pack.corridorRuns.corridorRuns`, ids: never cut while
        there is room; a call row spans the replay column): the timeline dock's floor (MainWindow.dock_target).
        The longest few of the first CALLS_SAMPLED calls are measured."""
        if self._calls_width is None:  # measured once a session (and as it grows), not on every resize
            rows = self.model.rows
            calls = heapq.nlargest(3, islice(((n, c) for n, row in enumerate(rows) if row.kind == "body"
                                              for c in range(len(row.children))), CALLS_SAMPLED),
                                   key=lambda nc: len(str(rows[nc[0]].children[nc[1]].id)) + len(rows[nc[0]].children[nc[1]].call))
            metrics = QFontMetrics(monospace())
            texts = [str(self.model.data(self.model.index(c, 0, self.model.index(n, 0)))) for n, c in calls]
            self._calls_width = max((metrics.horizontalAdvance(t) for t in texts), default=0)
        text = self._calls_width
        level = self.tree.indentation() * (2 if self.tree.rootIsDecorated() else 1)  # a call is one level down
        scroll = 0 if self.tree.verticalScrollBar().isVisible() else self.tree.verticalScrollBar().sizeHint().width()
        return self.width() - self.tree.viewport().width() + scroll + level + text + CELL_PADDING  # calls span the replay column

    def _cursor_changed(self) -> None:
        self.model.set_cursor(self.context.cursor)
        if self._moving or not self.model.rows:
            return
        current = self.tree.currentIndex()
        if current.isValid():
            row, call = self.model.item(current)
            if _same(row.cursor_for(call), self.context.cursor):
                return  # the chosen row (a body, or a call of it) already stands for this cursor
        self._select(self.model.index(self.model.row_for_cursor(self.context.cursor), 0))

    def _select(self, index: QModelIndex) -> None:
        self._moving = True
        try:
            self.tree.selectionModel().setCurrentIndex(
                index, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
            self.tree.scrollTo(index)
        finally:
            self._moving = False

    def _chosen(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if self._moving or not current.isValid():
            return
        row, call = self.model.item(current)
        self._moving = True
        try:
            self.context.set_cursor(row.cursor_for(call))
        finally:
            self._moving = False
        if call is not None:
            self.context.entry_chosen.emit(call)
        elif row.kind in ("entry", "edit"):
            self.context.entry_chosen.emit(row.item)
        elif row.kind == "body":
            self.context.body_chosen.emit(row.item)

    def _show_entry(self, entry: object) -> None:
        """An entry chosen elsewhere: show where it sits, without moving the cursor again."""
        index = self.model.locate_entry(entry)  # type: ignore[arg-type]
        if index.isValid() and index != self.tree.currentIndex():
            self.tree.scrollTo(index, QAbstractItemView.ScrollHint.EnsureVisible)

    def choose_cursor(self, cursor: object) -> None:
        """Choose the row of a body (None: End of session), as a click would."""
        self.tree.setCurrentIndex(self.model.index(self.model.row_for_cursor(cursor), 0))


def _same(a: object, b: object) -> bool:
    return (None if a is None else str(a)) == (None if b is None else str(b))
