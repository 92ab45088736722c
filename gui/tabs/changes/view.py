"""The Changes tab: what changed between two points of the timeline (Redux DevTools' Diff tab).

"To" follows the cursor; "From" is the body before it until the person picks another, so choosing
a timeline row shows what the previous body did. The answer is `wsi_inspector.core.trim.changes.changes_between`
(also `wsi changes --json`), computed as a background job (wsi_inspector.gui.background.jobs): on a big session the added entries
can number in the hundred thousands.
"""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QModelIndex, Qt
from PySide6.QtGui import QFontMetrics, QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from wsi_inspector.core.trim.changes import changes_between
from wsi_inspector.core.session.growing import Appended
from wsi_inspector.core.search.manifest import shape_text
from wsi_inspector.core.jsrules.sizes import format_size
from wsi_inspector.core.text.words import plural
from wsi_inspector.gui.window.context import InspectorContext
from wsi_inspector.gui.background.jobs import Jobs
from wsi_inspector.gui.widgets.body_choices import BodyBox, BodyChoices
from wsi_inspector.gui.widgets.body_choices import attach as attach_choices
from wsi_inspector.gui.widgets.json_tree import JsonTreeView
from wsi_inspector.gui.window.keyboard import reading_order
from wsi_inspector.gui.widgets.elide import LinesLabel, ids_in_the_middle
from wsi_inspector.gui.window.look import CELL_PADDING, MUTED, PERSON, RIGHT, Index, fit_column, monospace, row_table, share_width
from wsi_inspector.gui.widgets.rows_model import RowsModel
from wsi_inspector.gui.widgets.when_shown import WhenShown

DISPLAY, TOOLTIP, FONT, ALIGN, FOREGROUND = (
    Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.FontRole,
    Qt.ItemDataRole.TextAlignmentRole, Qt.ItemDataRole.ForegroundRole,
)
CALL_LEAST = 150  # px a call keeps when even the kept values' room is not enough for it whole (cut in the middle)
KEPT_KEEPS = 24  # monospace characters of width the kept values keep when the store table takes room for whole calls
END = "__end__"  # the combo's data for the end of the session
COMPARE, FOLLOW = 1, 2  # what a hidden tab owes (WhenShown's ranks): following the cursor compares its points too
END_WORDS = "the end of the session"


class StoreChangesModel(RowsModel):
    """Entries the store gained (+) or lost (−) between the points: id, call, shape, bytes."""

    HEADERS = ("", "id", "call", "shape", "bytes")

    def set_document(self, document: dict[str, Any] | None) -> None:
        """Show the entries of a `changes_between` document (nothing for None)."""
        rows = [] if document is None else [("+", e) for e in document["added"]] + [("−", e) for e in document["removed"]]
        self.replace_rows(rows)

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.rows):
            return None
        sign, line = self.rows[index.row()]
        column = index.column()
        if role in (DISPLAY, TOOLTIP):
            cells = (sign, str(line["id"]), line["call"], shape_text(line), f"{line['bytes']:,}")
            if role == TOOLTIP and line.get("applied"):
                return f"{cells[column]} — a person's canvas edit"
            return cells[column]
        if role == FONT and column in (1, 2):
            return monospace()
        if role == ALIGN and column == 4:
            return RIGHT
        if role == FOREGROUND and line.get("applied"):
            return PERSON
        return None


class KeptChangesModel(RowsModel):
    """Kept names added, removed or changed between the points, with what became of each."""

    HEADERS = ("", "name", "what")

    def set_document(self, document: dict[str, Any] | None) -> None:
        """Show the kept changes of a `changes_between` document (nothing for None)."""
        kept = {"added": [], "removed": [], "changed": []} if document is None else document["kept"]
        self.replace_rows([("+", line) for line in kept["added"]] + [("−", line) for line in kept["removed"]]
                          + [("~", line) for line in kept["changed"]])

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.rows):
            return None
        sign, line = self.rows[index.row()]
        if role in (DISPLAY, TOOLTIP):
            return (sign, line["name"], _kept_words(sign, line))[index.column()]
        if role == FONT and index.column() == 1:
            return monospace()
        if role == FOREGROUND and sign == "−":
            return MUTED
        return None


def _kept_words(sign: str, line: dict[str, Any]) -> str:
    if sign == "~":
        count = len(line["changes"])
        return (f"{count} change{'s' if count != 1 else ''}: {shape_text(line['from'])} → {shape_text(line['to'])}, "
                f"{format_size(line['from']['bytes'])} → {format_size(line['to']['bytes'])}")
    return f"{'kept' if sign == '+' else 'no longer kept'}: {shape_text(line)}, {format_size(line['bytes'])}"


class ChangesView(QWidget):
    """Two points of the timeline and what changed between them: entries, kept values, store size."""

    def __init__(self, context: InspectorContext, parent: QWidget | None = None):
        super().__init__(parent)
        self.context = context
        self.jobs = Jobs(self)  # one comparison at a time: a newer pair of points drops the older's answer
        self.document: dict[str, Any] | None = None
        self._from_chosen = False  # the person picked "From": it no longer follows the cursor
        # Hidden, it compares nothing: "to" follows the cursor (FOLLOW), or the points chosen are compared (COMPARE), when shown.
        self.when_shown = WhenShown(self.isVisible)
        self.from_box = BodyBox(self)
        self.from_box.setObjectName("changesFrom")
        self.to_box = BodyBox(self)
        self.to_box.setObjectName("changesTo")
        # One list of the points for both boxes, its rows made as they are shown (a session of 25,000
        # bodies made 50,000 items as it opened): wsi_inspector.gui.widgets.body_choices.
        self.points = BodyChoices(lambda body: f"body {body.id}", after=[(END_WORDS, END)], parent=self)
        for box in (self.from_box, self.to_box):
            attach_choices(box, self.points, len(END_WORDS))
            # As narrow as "body b12 · 3 call": the longest point's 226 px each made this tab's minimum the
            # window's widest, and at 1024 px it held the timeline dock short of its calls (docs/window.md).
            box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            box.setMinimumContentsLength(16)
        self.summary = QLabel(self)
        self.summary.setObjectName("changesSummary")
        self.summary.setWordWrap(True)
        self.store_model = StoreChangesModel(self)
        self.kept_model = KeptChangesModel(self)
        self.store_table = _table(self.store_model, "changesStore")
        # A resized table shares its width again (_share_width); its viewport's resize comes once the new width is known.
        self.store_table.viewport().installEventFilter(self)
        self._call_width = 280
        self.kept_table = _table(self.kept_model, "changesKept")
        ids_in_the_middle(self.store_table, 1, 2)  # shapes end in "…"; ids and calls are whole (_share_width)
        ids_in_the_middle(self.kept_table, 1)
        # One line, prose, ending in "…" (the whole in its tooltip): a whole line held the kept values' pane as wide as
        # its text, "kept.departmentId: kept: string, 10 B" wider than the 24 characters the pane keeps beside whole calls.
        self.detail_title = LinesLabel(1, parent=self)
        self.detail_title.set_full_text("Choose a kept name to see what changed in it.")
        self.detail = JsonTreeView(self)
        self.detail.setObjectName("changesDetail")
        self._build_layout()
        reading_order(self.from_box, self.to_box, self.store_table, self.kept_table, self.detail)
        self.from_box.activated.connect(self._from_activated)
        self.to_box.activated.connect(lambda _: self._recompute())
        self.kept_table.selectionModel().currentRowChanged.connect(self._kept_row_changed)
        context.session_changed.connect(self._session_changed)
        context.cursor_changed.connect(self._cursor_changed)
        context.session_grew.connect(self._grew)
        context.state_grew.connect(self._cursor_changed)
        self._session_changed()

    def _build_layout(self) -> None:
        points = QHBoxLayout()
        points.addWidget(QLabel("From the state handed to", self))
        points.addWidget(self.from_box)
        points.addWidget(QLabel("to", self))
        points.addWidget(self.to_box)
        points.addStretch(1)
        store = _titled("Store entries", self.store_table, self)
        kept = _titled("Kept values", self.kept_table, self)
        detail = _titled("", self.detail, self, self.detail_title)
        right = QSplitter(Qt.Orientation.Vertical, self)
        self.kept_side = right  # hidden while no kept value changed: the store's calls take its room (_done)
        right.addWidget(kept)
        right.addWidget(detail)
        split = QSplitter(Qt.Orientation.Horizontal, self)
        split.setObjectName("changesSplitter")
        self.splitter = split
        split.addWidget(store)
        split.addWidget(right)
        split.setSizes([600, 500])
        layout = QVBoxLayout(self)
        layout.addLayout(points)
        layout.addWidget(self.summary)
        layout.addWidget(split, 1)

    def _session_changed(self) -> None:
        session = self.context.session
        self._from_chosen = False
        self.points.after = [(END_WORDS, END)] if session is not None else []
        self.points.set_session(session)
        self._cursor_changed()

    def _grew(self, appended: Appended) -> None:
        """A followed file appended bodies: each becomes a point, before the end of the session."""
        if appended.bodies:
            self.points.grow()

    def _cursor_changed(self) -> None:
        # Followed when shown: finding the cursor's body among a big session's in the boxes took
        # half a millisecond of every cursor move (20,000 bodies) for a tab no one looks at.
        if not self.when_shown.owe(self._follow_cursor, FOLLOW):
            self._recompute()  # drops what it showed, and compares nothing while hidden

    def _follow_cursor(self) -> None:
        session = self.context.session
        if session is None:
            self._recompute()
            return
        to_key = END if self.context.cursor is None else str(self.context.cursor)
        self.to_box.setCurrentIndex(max(self.points.row_of(to_key), 0))
        if not self._from_chosen:
            # The body before the cursor's: what that one body did.
            position = self.to_box.currentIndex()
            self.from_box.setCurrentIndex(max(position - 1, 0))
        self._recompute()

    def _from_activated(self, _: int) -> None:
        self._from_chosen = True
        self._recompute()

    def choose_points(self, start: Any, stop: Any) -> None:
        """Compare the state handed to body `start` with that handed to `stop` (None: the end)."""
        for box, point in ((self.from_box, start), (self.to_box, stop)):
            box.setCurrentIndex(max(self.points.row_of(END if point is None else str(point)), 0))
        self._from_chosen = True
        self.when_shown.forget()  # the points chosen, not the cursor's
        self._recompute()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 — Qt's hook
        super().showEvent(event)
        self.when_shown.catch_up()

    def _recompute(self) -> None:
        self.jobs.cancel_all()
        self.document = None
        self.store_model.set_document(None)
        self.kept_model.set_document(None)
        self.detail.json_model.set_value(None, present=False)
        # A hidden tab compares nothing: every cursor move would list (and lay out) what changed.
        if not self.when_shown.owe(self._compare, COMPARE):
            self.summary.setText("")

    def _compare(self) -> None:
        session = self.context.session
        if session is None or self.from_box.count() == 0:
            self.summary.setText("No session open.")
            return
        start, stop = (None if box.currentData() == END else box.currentData() for box in (self.from_box, self.to_box))
        self.summary.setText("Comparing …")
        self.jobs.start("changes", lambda _job: changes_between(session, start, stop), on_done=self._done,
                        on_failed=self._failed)

    def _done(self, document: dict[str, Any]) -> None:
        self.document = document
        self.store_model.set_document(document)
        self.kept_model.set_document(document)
        # Kept unchanged (the summary says so): no empty "Kept values" pane beside calls cut in the middle.
        self.kept_side.setVisible(bool(self.kept_model.rows))
        lines = [line for _sign, line in self.store_model.rows]
        fit_column(self.store_table, 1, (str(line["id"]) for line in lines), most=160)  # ids whole
        self._call_width = fit_column(self.store_table, 2, {line["call"] for line in lines}, most=420)
        fit_column(self.store_table, 4, [f"{max((line['bytes'] for line in lines), default=0):,}"], least=0)
        fit_column(self.kept_table, 1, (str(line["name"]) for _sign, line in self.kept_model.rows), most=280)
        self._share_width()
        self.summary.setText(summary_words(document))
        if self.kept_model.rows:
            self.kept_table.selectRow(0)

    def _share_width(self) -> None:
        """Calls whole: the store table takes what it lacks from the kept values beside it (down to
        KEPT_KEEPS characters); the shape keeps its header's width and takes the rest."""
        header = self.store_table.horizontalHeader()
        shape_least = header.fontMetrics().horizontalAdvance(self.store_model.HEADERS[3]) + CELL_PADDING
        keep = QFontMetrics(monospace()).horizontalAdvance("0" * KEPT_KEEPS)
        share_width(self.store_table, 2, self._call_width, shape_least, least=min(CALL_LEAST, self._call_width),
                    splitter=self.splitter, keep=keep)

    def eventFilter(self, watched: Any, event: QEvent) -> bool:  # noqa: N802 — Qt's hook
        if watched is self.store_table.viewport() and event.type() == QEvent.Type.Resize:
            self._share_width()
        return super().eventFilter(watched, event)

    def _failed(self, exc: BaseException) -> None:
        self.summary.setText(f"Could not compare these points: {type(exc).__name__}: {exc}")

    def _kept_row_changed(self, current: QModelIndex, _: QModelIndex) -> None:
        if not current.isValid() or not 0 <= current.row() < len(self.kept_model.rows):
            return
        sign, line = self.kept_model.rows[current.row()]
        if sign == "~":
            self.detail_title.set_full_text(f"kept.{line['name']}: the changes that turn the old value into the new")
            self.detail.json_model.set_value(line["changes"], label="changes")
            self.detail.expandToDepth(0)
        else:
            # An added name's value is the one at "To"; a removed one's, the one it had at "From".
            box = self.to_box if sign == "+" else self.from_box
            session, point = self.context.session, box.currentData()
            self.detail_title.set_full_text(f"kept.{line['name']}: {_kept_words(sign, line)}")
            if session is not None:
                kept = session.state_at(None if point == END else point).kept
                self.detail.json_model.set_value(kept.get(line["name"]), label=line["name"])
                self.detail.expandToDepth(0)


def summary_words(document: dict[str, Any]) -> str:
    """One line: which bodies ran between the points, how the store moved, how many kept names changed."""
    bodies = document["bodies"]
    size = document["bytes"]
    sign = "+" if size["delta"] >= 0 else "−"
    kept = document["kept"]
    moves = [(len(kept[what]), what) for what in ("added", "removed", "changed") if kept[what]]
    kept_words = ("kept: " + ", ".join(f"{plural(n, 'name', 'names')} {what}" for n, what in moves)) if moves else "kept unchanged"
    ran = ", ".join(map(str, bodies[:8])) + (f", … ({len(bodies) - 8} more)" if len(bodies) > 8 else "")
    return (f"{len(bodies)} bod{'y' if len(bodies) == 1 else 'ies'} ran ({ran or 'none'}); "
            f"store {len(document['added'])} added, {len(document['removed'])} removed: "
            f"{format_size(size['from'])} → {format_size(size['to'])} ({sign}{format_size(abs(size['delta']))}); "
            f"{kept_words}")


def _table(model: RowsModel, name: str) -> QTableView:
    table = row_table(model, name, alternating=False)
    table.setWordWrap(False)
    # No column sizes itself to its contents: that re-measures a thousand rows on every resize, and
    # the store table can list 100,000. Ids and calls are sized by fit_column; one column stretches.
    header = table.horizontalHeader()
    header.setStretchLastSection(False)
    header.setSectionResizeMode(model.columnCount() - (2 if model.columnCount() > 3 else 1), QHeaderView.ResizeMode.Stretch)
    table.setColumnWidth(0, 28)  # the + / − / ~ sign
    if model.columnCount() > 3:
        table.setColumnWidth(4, 80)  # bytes
    else:
        table.setColumnWidth(1, 140)  # kept names
    return table


def _titled(title: str, widget: QWidget, parent: QWidget, label: QLabel | None = None) -> QWidget:
    box = QWidget(parent)
    layout = QVBoxLayout(box)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.addWidget(label or QLabel(f"<b>{title}</b>", box))
    layout.addWidget(widget, 1)
    return box
