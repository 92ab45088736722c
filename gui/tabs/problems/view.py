"""The Problems tab: every loader error and warning with its place; activating one shows the record.

What a place points at comes from wsi_inspector.core.session.record_view (the same answer as `wsi validate FILE --show`):
a record that loaded is shown from the session and chosen in the other views; one that was refused
is read back from the file; a syntax error shows the lines around its spot.

On a big session (a file over FOUND_HERE_UP_TO, or more entries than ENTRIES_HERE_UP_TO) the record is
found by a background job: reading a 3 GB file back and cutting it into parts takes seconds, and
finding a refused record among a million places walks them all. That job's finder is its own and is
dropped with its answer, so the window never keeps a second copy of the file once the record is shown.
"""
from __future__ import annotations

import html

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QSplitter,
    QStackedWidget,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from wsi_inspector.core.session.load import Session
from wsi_inspector.core.session.model import Entry, Problem
from wsi_inspector.core.session.record_view import RecordFinder, RecordView, record_value
from wsi_inspector.gui.background.jobs import Jobs
from wsi_inspector.gui.window.context import InspectorContext
from wsi_inspector.gui.widgets.json_tree import JsonTreeView
from wsi_inspector.gui.widgets.when_shown import WhenShown
from wsi_inspector.gui.window.keyboard import reading_order
from wsi_inspector.gui.window.look import monospace
from wsi_inspector.gui.tabs.problems.models import ProblemsModel
from wsi_inspector.gui.window.theme import hex_of

FOUND_HERE_UP_TO = 16 * 1024 * 1024  # bytes of file: a record read back from a bigger one is found by a job
ENTRIES_HERE_UP_TO = 20_000  # entries: finding a place among more is a job's work too


class ProblemsView(QWidget):
    """Every loader error and warning; activating one shows its record and chooses it elsewhere."""

    def __init__(self, context: InspectorContext, parent: QWidget | None = None):
        super().__init__(parent)
        self.context = context
        self.model = ProblemsModel(self)
        self._finder: RecordFinder | None = None
        self._big = False  # the open session's records are found by a job (see the module's docstring)
        self.jobs = Jobs(self)  # the record being found on a big session: a newer problem drops the older's answer
        self.summary = QLabel(self)
        self.summary.setObjectName("problemsSummary")
        self.table = QTableView(self)
        self.table.setObjectName("problemsTable")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.verticalHeader().setVisible(False)
        self.table.setColumnWidth(0, 90)
        self.table.setColumnWidth(1, 200)
        self.table.horizontalHeader().setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.record_title = QLabel("Activate a problem to see its record.", self)
        self.record_title.setObjectName("problemRecordTitle")
        self.record_title.setWordWrap(True)
        self.tree = JsonTreeView(self)
        self.tree.setObjectName("problemRecordJson")
        self.text = QPlainTextEdit(self)
        self.text.setObjectName("problemRecordText")
        self.text.setReadOnly(True)
        self.text.setFont(monospace())
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.stack = QStackedWidget(self)
        self.stack.addWidget(self.tree)
        self.stack.addWidget(self.text)
        self.shown: RecordView | None = None
        bottom = QWidget(self)
        bottom_layout = QVBoxLayout(bottom)
        bottom_layout.setContentsMargins(0, 0, 0, 0)
        bottom_layout.addWidget(self.record_title)
        bottom_layout.addWidget(self.stack)
        self.splitter = QSplitter(Qt.Orientation.Vertical, self)
        self.splitter.setObjectName("problemsSplitter")
        self.splitter.addWidget(self.table)
        self.splitter.addWidget(bottom)
        self.splitter.setSizes([420, 300])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.summary)
        layout.addWidget(self.splitter, 1)
        reading_order(self.table, self.tree, self.text)
        self.table.activated.connect(self.activate)
        self.table.selectionModel().currentRowChanged.connect(lambda *_: self._current_changed())
        self.when_shown = WhenShown(self.isVisible)  # the current problem's record, read back once someone looks
        context.session_changed.connect(self.refresh)
        context.session_grew.connect(lambda appended: self.refresh() if appended.problems_changed else None)
        self.refresh()

    def refresh(self) -> None:
        """List the open session's problems."""
        session = self.context.session
        self.jobs.cancel_all()
        self._finder = RecordFinder(session) if session is not None else None
        self._big = session is not None and _big(session)
        self.model.set_problems(session.problems if session is not None else [])
        if session is None:
            self.summary.setText("No session open.")
        else:
            errors, warnings = len(session.errors), len(session.warnings)
            self.summary.setText(
                f"{errors} error{'s' if errors != 1 else ''} (records not loaded) · "
                f"{warnings} warning{'s' if warnings != 1 else ''} (loaded, flagged) in {html.escape(session.name)}"
                if session.problems else f"No problems in {html.escape(session.name)}: every record loaded.")
        self.tree.set_value(None, present=False)
        self.text.clear()
        self.record_title.setText("Activate a problem to see its record.")
        if self.model.rows:
            self.table.selectRow(0)

    def _current_changed(self) -> None:
        """Show the current problem's record, or, while the tab is hidden, when it is next shown.

        A refused record is read back from the file (the whole file, cut in parts): opening a 165 MB
        session spent a second and the file's size in memory on it for a tab no one had looked at.
        """
        self.when_shown.owe(lambda: self.show_record(self.table.currentIndex()))

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 — Qt's hook
        super().showEvent(event)
        self.when_shown.catch_up()

    def show_record(self, index: QModelIndex, choose: bool = False) -> RecordView | None:
        """Show the record of the problem in `index`'s row (`choose`: then choose it in the other views, when it loaded).

        On a big session the record is found by a job and shown when found: None here.
        """
        if self._finder is None or not 0 <= index.row() < len(self.model.rows):
            return None
        problem = self.model.rows[index.row()]
        if self._big:
            session = self._finder.session
            self.record_title.setText(f"<b>{html.escape(problem.where or '(file)')}</b>: {html.escape(problem.message)}"
                                      f"<br><span style='color:{hex_of('muted')}'>finding the record in "
                                      f"{html.escape(session.name)} …</span>")
            self.jobs.start("record", lambda _job: RecordFinder(session).view(problem.place),  # its own finder, dropped after
                            on_done=lambda shown: self._show(problem, shown, choose),
                            on_failed=lambda exc: self.record_title.setText(
                                f"<b>{html.escape(problem.where or '(file)')}</b>: the record could not be found "
                                f"({html.escape(type(exc).__name__)}: {html.escape(str(exc))})"))
            return None
        shown = self._finder.view(problem.place)
        self._show(problem, shown, choose)
        return shown

    def _show(self, problem: Problem, shown: RecordView, choose: bool) -> None:
        self.shown = shown
        self.record_title.setText(f"<b>{html.escape(problem.where or '(file)')}</b>: {html.escape(problem.message)}"
                                  f"<br><span style='color:{hex_of('muted')}'>{html.escape(shown.title)}</span>")
        if shown.record is not None:
            record = shown.record
            self.tree.set_value(record_value(record), "input" if isinstance(record, Entry) else f"body {record.id}")
            self.stack.setCurrentWidget(self.tree)
        elif shown.has_value:
            self.tree.set_value(shown.value, "record")
            self.stack.setCurrentWidget(self.tree)
        else:
            self.text.setPlainText(shown.text or "")
            self.stack.setCurrentWidget(self.text)
        if choose and shown.record is not None:
            if isinstance(shown.record, Entry):
                self.context.choose_entry(shown.record)
            else:
                self.context.choose_body(shown.record)

    def activate(self, index: QModelIndex) -> None:
        """Show the record and, when it loaded, choose it in the timeline and the other views."""
        self.show_record(index, choose=True)


def _big(session: Session) -> bool:
    """Whether finding a record of `session` is a job's work (see the module's docstring)."""
    if len(session.entries) > ENTRIES_HERE_UP_TO:
        return True
    try:
        return session.path is not None and session.path.stat().st_size > FOUND_HERE_UP_TO
    except OSError:  # gone since: the finder says so, quickly
        return False
