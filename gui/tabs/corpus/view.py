"""File ▸ Open folder: every session under a folder as a table, checked off the GUI thread with progress.

The check is `wsi check`'s own (`wsi_inspector.core.check.pool.LocalChecker`: worker processes, each with a warm
runner); a background job (wsi_inspector.gui.background.jobs) drives it and hands each session's report to the window as it comes. The table
shows session, bodies, replay verdict, problems and lost edits; a header click sorts (keys computed
once per column, rows kept as indices), the filter field takes text found in the path or title, or a
`wsi check --where` expression (`!clean`, `edited=pack.corridorRuns`, `differs` …). Double-click opens
the session in the inspector.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, Qt
from PySide6.QtGui import QBrush, QCloseEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from wsi_inspector.core.check.check import CheckOptions, SessionReport, fails_session, find_sessions
from wsi_inspector.core.check.report import progress_line
from wsi_inspector.core.check.where import Where, WhereError, parse_where
from wsi_inspector.gui.background.jobs import Job, Jobs
from wsi_inspector.gui.window.theme import colour, hex_of
from wsi_inspector.gui.window.look import Index

COLUMNS = ("Session", "Bodies", "Replay", "Problems", "Lost edits")
BAD = colour("error")  # shared theme colours (wsi_inspector.gui.window.theme): light or dark after the palette
WARN = colour("warning")


def replay_text(report: SessionReport) -> str:
    """`8/8 same`, `1 of 8 differs`, `not replayed`."""
    if not report["bodies"]:
        return "no bodies"
    if not report["replayed"]:
        return "not replayed"
    if report["differs"]:
        return f"{report['differs']} of {report['bodies']} differ{'s' if report['differs'] == 1 else ''}"
    skipped = report["bodies"] - report["replayed"]
    return f"{report['same']}/{report['bodies']} same" + (f", {skipped} not replayed" if skipped else "")


def problems_text(report: SessionReport) -> str:
    """`2 errors, 1 warning`, or the first finding of a session that could not be checked."""
    errors, warnings = report["errors"], report["warnings"]
    if not errors and not warnings:
        return "none"
    parts = [f"{errors} error{'s' if errors != 1 else ''}"] if errors else []
    if warnings:
        parts.append(f"{warnings} warning{'s' if warnings != 1 else ''}")
    first = next((f for f in report["findings"] if f["severity"] == "error" and not f["code"].startswith(("replay-", "edit-", "last-"))), None)
    return ", ".join(parts) + (f" ({first['code']})" if first else "")


def _sort_key(report: SessionReport, column: int) -> Any:
    if column == 0:
        return report["path"].lower()
    if column == 1:
        return report["bodies"]
    if column == 2:
        return (report["differs"], report["fails"], -report["same"])
    if column == 3:
        return (report["errors"], report["warnings"])
    return report["lostEdits"]


class CorpusModel(QAbstractTableModel):
    """The reports of a corpus, shown as visible row indices: sorted and filtered without a Python lessThan."""

    def __init__(self, root: Path, parent: QObject | None = None):
        super().__init__(parent)
        self.root = root
        self.reports: list[SessionReport] = []
        self.rows: list[tuple[Any, int]] = []  # (sort key, report index) of the visible reports, in order
        self.sort_column = 0
        self.descending = False
        self.text = ""
        self.where: Where | None = None

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802 — Qt's hook
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802 — Qt's hook
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # noqa: N802
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole and 0 <= section < len(COLUMNS):
            return COLUMNS[section]
        return None

    def report(self, row: int) -> SessionReport:
        """The report shown at `row`."""
        return self.reports[self.rows[row][1]]

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.rows):
            return None
        report, column = self.report(index.row()), index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._cell(report, column)
        if role == Qt.ItemDataRole.ForegroundRole:
            # The cell that says what is wrong is red, not the whole row: a folder of sessions with one
            # finding each read as a wall of red (the path stays as it is; the status counts "not clean").
            if column == 2 and report["differs"] or column == 3 and report["errors"] or column == 4 and report["lostEdits"]:
                return QBrush(BAD)
            if column == 3 and report["warnings"]:
                return QBrush(WARN)
        if role == Qt.ItemDataRole.ToolTipRole:
            failing = [f"{f['where'] + ': ' if f['where'] else ''}{f['message']}" for f in report["findings"] if fails_session(f)]
            return "\n".join(failing[:12]) or "clean"
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (1, 4):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def _cell(self, report: SessionReport, column: int) -> str:
        if column == 0:
            try:
                return Path(report["path"]).relative_to(self.root).as_posix()
            except ValueError:
                return report["path"]
        if column == 1:
            return f"{report['bodies']:,}"
        if column == 2:
            return replay_text(report)
        if column == 3:
            return problems_text(report)
        return f"{report['lostEdits']:,}"

    def add(self, report: SessionReport) -> None:
        """A new report: kept, and shown in its sorted place when it passes the filter."""
        self.reports.append(report)
        index = len(self.reports) - 1
        if not self._passes(report):
            return
        entry = (self._key(index), index)
        position = self._position(entry)
        self.beginInsertRows(QModelIndex(), position, position)
        self.rows.insert(position, entry)
        self.endInsertRows()

    def _position(self, entry: tuple[Any, int]) -> int:
        """Where `entry` goes among the visible rows, which are sorted ascending or descending."""
        low, high = 0, len(self.rows)
        while low < high:
            middle = (low + high) // 2
            row = self.rows[middle]
            if (row > entry) if self.descending else (row < entry):
                low = middle + 1
            else:
                high = middle
        return low

    def _key(self, index: int) -> tuple[Any, str]:
        report = self.reports[index]
        return (_sort_key(report, self.sort_column), report["path"])

    def _passes(self, report: SessionReport) -> bool:
        if self.where is not None:
            return self.where.matches(report)
        if not self.text:
            return True
        needle = self.text.lower()
        return needle in report["path"].lower() or needle in str(report.get("title") or "").lower()

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:  # noqa: D102 — Qt's hook
        self.sort_column = column
        self.descending = order == Qt.SortOrder.DescendingOrder
        self._rebuild()

    def set_filter(self, text: str) -> str:
        """Filter by `text`: a --where expression when it reads as one, else text in the path or title.

        Returns how the text was read, for the field's tooltip.
        """
        self.text, self.where = text.strip(), None
        if self.text and any(c in self.text for c in "=!") or self.text in ("fails", "differs", "clean", "edit-falls"):
            try:
                self.where = parse_where([self.text])
            except WhereError as exc:
                self._rebuild()
                return str(exc)
        self._rebuild()
        return f"where {self.where.text}" if self.where else ("text in the path or title" if self.text else "")

    def _rebuild(self) -> None:
        self.beginResetModel()
        rows = [(self._key(i), i) for i, report in enumerate(self.reports) if self._passes(report)]
        rows.sort(reverse=self.descending)
        self.rows = rows
        self.endResetModel()


def check_folder(job: Job, folder: Path, options: CheckOptions, jobs: int | None, stop: threading.Event) -> None:
    """The check job: walk the folder, then check every session in worker processes, reporting each."""
    from wsi_inspector.core.check.pool import LocalChecker, default_jobs

    paths = list(find_sessions([folder]))
    job.report(("found", len(paths)))
    if paths and not stop.is_set():
        checker = LocalChecker(options, jobs or default_jobs())
        checker.run(paths, lambda _index, report: job.report(("report", report)), lambda: stop.is_set() or job.cancelled)


class CorpusView(QWidget):
    """A folder's sessions as a sortable, filterable table, filled in as the check goes."""

    def __init__(self, folder: Path, open_session: Callable[[Path], object], options: CheckOptions | None = None,
                 jobs: int | None = None, parent: QWidget | None = None):
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("corpusView")
        self.setWindowTitle(f"Sessions in {folder}")
        self.folder = folder
        self.open_session = open_session
        self.model = CorpusModel(folder, self)
        self.total = 0
        self.not_clean = 0
        self.started = time.monotonic()
        self.finished = False
        self.heading = QLabel(f"<b>{folder}</b>", self)
        self.progress = QProgressBar(self)
        self.progress.setObjectName("corpusProgress")
        self.status = QLabel("looking for sessions …", self)
        self.status.setObjectName("corpusStatus")
        self.stop_button = QPushButton("Stop", self)
        self.filter = QLineEdit(self)
        self.filter.setObjectName("corpusFilter")
        self.filter.setPlaceholderText("Filter: text in the path, or a --where expression (!clean, differs, edited=pack.corridorRuns)")
        self.filter.setClearButtonEnabled(True)
        self.table = QTableView(self)
        self.table.setObjectName("corpusTable")
        self.table.setModel(self.model)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.setAlternatingRowColors(True)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column, width in ((1, 70), (2, 150), (3, 190), (4, 90)):
            self.table.setColumnWidth(column, width)
        top = QHBoxLayout()
        top.addWidget(self.progress, 1)
        top.addWidget(self.status, 2)
        top.addWidget(self.stop_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addLayout(top)
        layout.addWidget(self.filter)
        layout.addWidget(self.table, 1)
        self.filter.textChanged.connect(self._filter_changed)
        self.table.doubleClicked.connect(self._open_row)
        for key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):  # Enter opens the current row, as a double click does
            opener = QShortcut(QKeySequence(key), self.table)
            opener.setContext(Qt.ShortcutContext.WidgetShortcut)
            opener.activated.connect(lambda: self._open_row(self.table.currentIndex()))
        self.stop_button.clicked.connect(self.stop)
        self.stopped = threading.Event()  # Stop: what is checked stays, and the job ends as done
        self.jobs = Jobs(self)
        app = QApplication.instance()
        if app is not None:  # the window may still be checking when the application quits
            app.aboutToQuit.connect(self._shutdown)
        self.resize(1000, 640)
        self.jobs.start("check", lambda job: check_folder(job, folder, options or CheckOptions(), jobs, self.stopped),
                        on_report=self._news, on_done=lambda _: self._finished(), on_failed=self._failed)

    def _news(self, news: tuple[str, Any]) -> None:
        kind, value = news
        if kind == "found":
            self._found(value)
        else:
            self._report(value)

    def _failed(self, exc: BaseException) -> None:  # a bug of ours (wsi_inspector.gui.background.jobs logged it): say so, keep the window up
        self.status.setText(f"the check failed: {type(exc).__name__}: {exc} (the details are in the log)")
        self._finished()

    def _found(self, total: int) -> None:
        self.total = total
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(0)
        self.status.setText(f"found {total:,} sessions" if total else "no session files (.json, .jsonl, .gz) here")

    def _report(self, report: SessionReport) -> None:
        self.model.add(report)
        self.not_clean += not report["clean"]
        done = len(self.model.reports)
        self.progress.setValue(done)
        self.status.setText(progress_line(done, self.total, self.not_clean, time.monotonic() - self.started))

    def _finished(self) -> None:
        self.finished = True
        self.stop_button.setEnabled(False)
        done = len(self.model.reports)
        verdict = "stopped: " if done < self.total else ""
        self.status.setText(f"{verdict}{done:,} of {self.total:,} sessions checked, {self.not_clean:,} not clean")

    def _filter_changed(self, text: str) -> None:
        self.filter.setToolTip(self.model.set_filter(text))
        bad = self.model.where is None and any(c in text for c in "=!")
        self.filter.setStyleSheet(f"color: {hex_of('error')};" if bad else "")

    def _open_row(self, index: QModelIndex) -> None:
        if index.isValid():
            self.open_session(Path(self.model.report(index.row())["path"]))

    def stop(self) -> None:
        """Stop checking; what is done stays in the table."""
        self.stopped.set()

    def _shutdown(self) -> None:
        self.stop()
        self.jobs.shutdown()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 — Qt's hook
        self._shutdown()
        super().closeEvent(event)


def choose_corpus_folder(window: Any) -> CorpusView | None:
    """File ▸ Open folder: pick a folder and show its sessions; double-click opens one in `window`."""
    start = str(window.settings.value("lastFolder", str(Path.home())))
    folder = QFileDialog.getExistingDirectory(window, "Open a folder of sessions", start)
    return open_corpus(window, Path(folder)) if folder else None


def open_corpus(window: Any, folder: Path, **options: Any) -> CorpusView:
    """Show the sessions under `folder` in a window of their own, kept by `window`."""
    view = CorpusView(folder, lambda path: (window.open_file(path), window.raise_(), window.activateWindow()),
                      parent=window, **options)
    window.corpus_views = [v for v in getattr(window, "corpus_views", []) if v.isVisible()] + [view]
    view.show()
    return view
