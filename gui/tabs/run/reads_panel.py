"""The Run tab's Reads page: what a body read (SPEC 7 "Reads"), each read at its line in the body.

It shows the reads of the last run in the editor, or, when the cursor moves, of the recorded body at
the cursor: from the Run tab's replay when there was one, else learned by replaying that body on a
worker thread (`wsi_inspector.core.edits.body_reads`, cached per session file and body). Double-clicking a read asks for
its line in the editor (`line_chosen`).
"""
from __future__ import annotations

import html
from typing import Any, Callable

from PySide6.QtCore import QEvent, Signal
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QHeaderView, QLabel, QTableView, QVBoxLayout, QWidget

from wsi_inspector.core.edits.body_reads import body_reads
from wsi_inspector.core.edits.evidence import Read
from wsi_inspector.core.runner.report import read_cells
from wsi_inspector.gui.background.jobs import Jobs
from wsi_inspector.gui.widgets.elide import ids_in_the_middle
from wsi_inspector.gui.window.look import DISPLAY, TOOLTIP, Index, fit_column, monospace, row_table, share_width
from wsi_inspector.gui.widgets.rows_model import RowsModel
from wsi_inspector.gui.widgets.when_shown import WhenShown

SAMPLES = ("9999:99", 'inputs.last("pack.rooms")', "c9999")  # the least widths of the line, read and entry columns
PATHS_KEEP = 10  # monospace characters the paths (prose, cut at their end) keep beside a long read


class ReadsModel(RowsModel):
    """One row per read: where, the call or kept name, the entry handed back, the paths read inside it."""

    HEADERS = ("line", "read", "entry", "paths")

    def set_reads(self, reads: list[Read]) -> None:
        self.replace_rows([(read, read_cells(read)) for read in reads])

    def read_at(self, row: int) -> Read | None:
        return self.rows[row][0] if 0 <= row < len(self.rows) else None

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.rows):
            return None
        read, cells = self.rows[index.row()]
        if role == DISPLAY:
            return cells[index.column()]
        if role == TOOLTIP:
            if index.column() == 3:
                return "\n".join(p or '"" (the whole value)' for p in read.get("paths", [])) or None
            return cells[index.column()]
        return None


class ReadsPanel(QWidget):
    """The reads of one body or run, with a line saying whose they are."""

    line_chosen = Signal(int, int)  # the body's line and column of a read the person double-clicked

    def __init__(self, known: Callable[[str], list[Read] | None], runner_of: Callable[[], Any],
                 on_learned: Callable[[], None] = lambda: None, parent: QWidget | None = None):
        super().__init__(parent)
        self.on_learned = on_learned  # told when a replay here learned a body's reads (the other views mark them)
        self.known = known  # the reads the window already has for a body key (the Run tab's replay)
        self.runner_of = runner_of  # the view's warm runner (made on the GUI thread)
        self.when_shown = WhenShown(self.isVisible)  # the cursor body's reads, learned once the page is shown
        self.jobs = Jobs(self)
        self.model = ReadsModel(self)
        self.table: QTableView = row_table(self.model, "readsTable", alternating=False)
        self.table.setFont(monospace())
        self.table.doubleClicked.connect(self._activated)
        for column, sample in enumerate(SAMPLES):
            fit_column(self.table, column, [sample])
        ids_in_the_middle(self.table, 1, 2)  # what was read and the entry: both ends read; the paths (prose) end in "…"
        # The paths take the rest: stretched, not as the last section (a stretched last section keeps 100 px
        # though the columns beside it then run off the table's right edge).
        self.table.horizontalHeader().setStretchLastSection(False)
        self.table.horizontalHeader().setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        self.read_width = self.table.columnWidth(1)  # what the reads shown need whole (show_reads)
        self.table.viewport().installEventFilter(self)  # its width: the read column shared again (_share)
        self.title = QLabel(self)
        self.title.setObjectName("readsTitle")
        self.title.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addWidget(self.table, 1)
        self.body_key: str | None = None
        self.show_reads(None, "No run yet: run a body, or move the cursor to a recorded body to see what it read.")

    def show_reads(self, reads: list[Read] | None, title: str) -> None:
        """Show these reads (None: none known) under `title`."""
        self.model.set_reads(reads or [])
        self.title.setText(title)
        # What was read and its entry are ids: as wide as the longest shown (a sample's width cut
        # `inputs.last("pack.corridorRuns")` at 1024 px), the read as far as the paths keep PATHS_KEEP characters
        # (_share). The reads are bounded (SPEC 7), and fit_column measures the longest few only.
        cells = [row_cells for _read, row_cells in self.model.rows]
        for column, sample in enumerate(SAMPLES):
            width = fit_column(self.table, column, [sample, *(row_cells[column] for row_cells in cells)], most=600)
            if column == 1:
                self.read_width = width
        self._share()

    def _share(self) -> None:
        """The read column its width when the table has room, else what leaves the paths PATHS_KEEP characters."""
        leave = QFontMetrics(monospace()).horizontalAdvance("0" * PATHS_KEEP)
        share_width(self.table, 1, self.read_width, leave, least=min(self.read_width, QFontMetrics(monospace()).horizontalAdvance(SAMPLES[1])))

    def eventFilter(self, watched: Any, event: QEvent) -> bool:  # noqa: N802 — Qt's hook
        if watched is self.table.viewport() and event.type() == QEvent.Type.Resize:
            self._share()
        return super().eventFilter(watched, event)

    def show_run(self, result: dict[str, Any]) -> None:
        """The reads of a run just made in the editor."""
        self.jobs.cancel("reads")
        self.body_key = None
        self.when_shown.forget()
        reads = result.get("reads")
        cut = f"; {result['readsCut']:,} more not recorded" if result.get("readsCut") else ""
        self.show_reads(reads, f"What this run read: {len(reads or []):,} read{'s' if len(reads or []) != 1 else ''}{cut}."
                        if reads is not None else "This run stopped before it reported its reads.")

    def show_body(self, session: Any, body: Any) -> None:
        """The reads of recorded body `body` (None: the end of the session), learned off the GUI thread if need be."""
        self.jobs.cancel("reads")
        self.when_shown.forget()
        self.body_key = None if body is None else body.key
        if body is None or session is None:
            self.show_reads(None, "The cursor is at the end of the session: run a body to see what it reads.")
            return
        reads = self.known(body.key)
        if reads is not None:
            self._learned(body.key, reads)
            return
        self.show_reads(None, f"Replaying body {html.escape(body.key)} to learn what it read …")
        self.when_shown.owe(lambda: self._learn(session, body))  # no replay until someone looks

    def showEvent(self, event: Any) -> None:  # noqa: N802 — Qt's hook
        super().showEvent(event)
        self.when_shown.catch_up()

    def _learn(self, session: Any, body: Any) -> None:
        runner = self.runner_of()

        def learned(found: list[Read] | None) -> None:
            self._learned(body.key, found)
            self.on_learned()
        self.jobs.start("reads", lambda job: body_reads(session, body.id, runner),
                        on_done=learned,
                        on_failed=lambda exc: self._learned(body.key, None))

    def _learned(self, key: str, reads: list[Read] | None) -> None:
        if key != self.body_key:
            return
        if reads is None:
            self.show_reads(None, f"Body {html.escape(key)} could not be replayed: what it read is not known.")
            return
        entries = sorted({str(r["entry"]) for r in reads if r.get("entry") is not None})
        self.show_reads(reads, f"What body <b>{html.escape(key)}</b> read (its replay): {len(reads):,} read"
                        f"{'s' if len(reads) != 1 else ''}" + (f", entries {html.escape(', '.join(entries))}" if entries else "")
                        + ". Double-click a read to see its line.")

    def _activated(self, index: Any) -> None:
        read = self.model.read_at(index.row())
        if read is not None and read.get("line"):
            self.line_chosen.emit(int(read["line"]), int(read.get("column") or 1))
