"""The Edits tab: every canvas edit beside the model call it edited (SPEC 4).

The list of edits (call, base, edit, number of changes, chain steps); the chosen edit's changes
(path, before, after, Δ, unit) with a filter; the two inputs side by side, changed paths
highlighted, scrolling together, each leaf's provenance in a column; a drawing of the geometry
when the inputs hold points or polylines, both in the model's unit; and "Copy as body".

Nothing that grows with the session runs on the GUI thread: one job pairs every edit and diffs
each against its base and its previous step (chains computed once, `wsi_inspector.core.edits.edits`), reporting in
batches; the chosen edit's detail (reverse diffs, provenance, the drawing's shapes, parsed inputs)
is a second job. Jobs run one at a time per kind, and their answers for an older session are
dropped. A chain is shown as its two comparisons (against the model's call, and the edit's own
step from the previous entry); earlier steps are the earlier edits' rows.
"""
from __future__ import annotations

import threading
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QEvent, Qt, QTimer
from PySide6.QtGui import QColor, QFontMetrics, QGuiApplication
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from wsi_inspector.core.edits.edit_detail import Comparison, EditDetail, edit_detail
from wsi_inspector.core.edits.edits import EditDiff, Pairing, RowDiff, copy_as_body, diff_edit, diff_rows, edit_diff_of, pair_edits, portable_rows
from wsi_inspector.core.edits.geometry import scaled, why_nothing_drawn
from wsi_inspector.core.edits.units import MM_PER_UNIT, UNITS
from wsi_inspector.core.session.model import Entry
from wsi_inspector.core.edits.body_reads import body_reads
from wsi_inspector.core.edits.evidence import Evidence
from wsi_inspector.core.edits.provenance import Provenance
from wsi_inspector.core.session.load import Session
from wsi_inspector.gui.window.context import InspectorContext
from wsi_inspector.gui.tabs.edits.models import ChangesModel, EditsModel
from wsi_inspector.gui.widgets.geometry_plot import GeometryPlot
from wsi_inspector.gui.background.jobs import Job, Jobs
from wsi_inspector.gui.widgets.json_tree import JsonTreeView
from wsi_inspector.gui.widgets.when_shown import WhenShown
from wsi_inspector.gui.window.keyboard import reading_order
from wsi_inspector.gui.widgets.elide import ids_in_the_middle
from wsi_inspector.gui.window.look import PERSON_BACKGROUND, fit_column, monospace, row_table, share_width
from wsi_inspector.gui.window.theme import colour, hex_of

MODEL_WRITTEN, MODEL_ANCESTOR = colour("model_written"), colour("model_ancestor")  # wsi_inspector.gui.window.theme: light or dark
PERSON_WRITTEN, PERSON_ANCESTOR = colour("person_written"), PERSON_BACKGROUND
MIN_DRAWING_WIDTH = 120  # px: a drawing narrower than this is given back its share of the row
SIDE_BY_SIDE_CHARS = 110  # monospace characters: a narrower Edits tab stacks its panes (_arrange)
IN_PROCESS_ROWS = 400  # more edits than this are diffed in a worker process (wsi_inspector.gui.background.jobs): seconds of pure Python


def diff_session(job: Job, session: Session) -> int:
    """The diff job: pair the session's edits (reported first), then diff each, reporting in batches."""
    pairings = pair_edits(session)
    job.check()
    job.report(("paired", pairings))
    entries, rows = portable_rows(pairings)

    def arrived(batch: list[RowDiff]) -> None:
        diffs, failures = {}, {}
        for row in batch:
            try:
                diffs[row[0]] = edit_diff_of(pairings[row[0]], row)
            except ValueError as exc:
                failures[row[0]] = str(exc)
        job.report(("diffed", (diffs, failures)))

    if len(rows) > IN_PROCESS_ROWS:
        return int(job.in_process(diff_rows, entries, rows, on_report=arrived))
    return diff_rows(entries, rows, arrived)


class _SessionProvenance:
    """One session's Provenance, made by the first detail job (indexing the session is O(entries)).

    A detail job dropped for a newer one may still run: the lock keeps them off the one Provenance
    (it caches as it goes) one at a time.
    """

    def __init__(self, session: Session):
        self.session = session
        self.provenance: Provenance | None = None
        self.lock = threading.Lock()

    def detail(self, job: Job, edit_diff: EditDiff) -> EditDetail:
        with self.lock:
            job.check()
            if self.provenance is None:
                self.provenance = Provenance(self.session)
            detail = edit_detail(self.provenance, edit_diff)
            # SPEC 7: a body's call judged by what the body read (replayed here, off the GUI thread, cached).
            Evidence(self.provenance).judge_shown(detail.origins, lambda body: body_reads(self.session, body))
            return detail


class EditsView(QWidget):
    """Every canvas edit against its model call: list, changes, the inputs side by side, a drawing."""

    def __init__(self, context: InspectorContext, parent: QWidget | None = None):
        super().__init__(parent)
        self.context = context
        self.last_copied: str | None = None
        self._before_copy: str | None = None  # the summary a copy confirmation replaced
        # One diff job and one detail job at a time (wsi_inspector.gui.background.jobs): a newer one drops the older's answer.
        self.jobs = Jobs(self)
        self._provenance: _SessionProvenance | None = None
        self._detail_row = -1  # the row whose detail job is running
        self._paired_yet = False  # the current diff job's pairings arrived
        self.summary = QLabel(self)
        self.summary.setObjectName("editsSummary")
        self.summary.setWordWrap(True)
        self.edits_model = EditsModel(self)
        self.edits_table = _table(self.edits_model, "editsTable")
        self._call_width = 0  # what the edits' calls need whole (_share_width)
        for column, width in enumerate((56, 52, 72, 48)):
            self.edits_table.setColumnWidth(column, width)
        # Edit ids, bases and calls are ids, cut (if ever) in the middle; the counts are numbers. Before note_actions
        # gives column 0 its note marks, which then cut its ids in the middle too.
        ids_in_the_middle(self.edits_table, 0, 1, 4)
        self.step_combo = QComboBox(self)
        self.step_combo.setObjectName("editsStep")
        self.filter_edit = QLineEdit(self)
        self.filter_edit.setObjectName("editsFilter")
        self.filter_edit.setPlaceholderText("filter changes: path or value, e.g. spine")
        self.filter_edit.setClearButtonEnabled(True)
        self.copy_button = QPushButton("Copy as body", self)
        self.copy_button.setObjectName("editsCopyBody")
        self.copy_button.setToolTip("Copy a body that rebuilds this edit from the model's call")
        self.unit_box = QComboBox(self)  # the unit lengths are read in, in the change list and the drawing
        self.unit_box.setObjectName("editsUnit")
        self.unit_box.setToolTip("the unit the change list and the drawing show lengths in; where it is not the edit's "
                                 "or the model's own, both numbers are given (34 mm (3.4 cm))")
        self.unit_box.addItem("model's unit", None)
        for unit in UNITS:
            self.unit_box.addItem(f"in {unit}", unit)
        self.unit_box.currentIndexChanged.connect(self._unit_chosen)
        self.changes_model = ChangesModel(self)
        self.changes_table = _table(self.changes_model, "editsChanges")
        for column, width in enumerate((62, 130, 130, 130, 56)):
            self.changes_table.setColumnWidth(column, width)
        ids_in_the_middle(self.changes_table, 1)  # a path (JSON Pointer) is an id; the op and the values are prose, cut at their end
        self.note_label = QLabel(self)
        self.note_label.setObjectName("editsNote")
        self.note_label.setWordWrap(True)
        self.note_label.setStyleSheet(f"color: {hex_of('warning')};")
        self.model_label = QLabel(self)
        self.person_label = QLabel(self)
        self.model_tree = JsonTreeView(self)
        self.model_tree.setObjectName("editsModelJson")
        self.person_tree = JsonTreeView(self)
        self.person_tree.setObjectName("editsPersonJson")
        for tree in (self.model_tree, self.person_tree):
            tree.doubleClicked.connect(lambda index, t=tree: self._open_read(t, index))  # SPEC 7: a read's line
            tree.hide_type_column()  # the type column: room for the origin column instead
            tree.setColumnWidth(0, 110)
            tree.setColumnWidth(1, 150)
        self.plot = GeometryPlot(self)
        self.drawn_comparison: Comparison | None = None  # what the drawing shows (None: nothing yet)
        self._draw_timer = QTimer(self)
        self._draw_timer.setSingleShot(True)
        self._draw_timer.setInterval(0)
        self._draw_timer.timeout.connect(self._draw)
        self._first_change = False
        self.plot.setObjectName("editsGeometry")
        self._build_layout()
        self.edits_table.viewport().installEventFilter(self)  # a resized table shares its width again (_share_width)
        reading_order(self.edits_table, self.step_combo, self.copy_button, self.filter_edit, self.unit_box,
                      self.changes_table, self.model_tree, self.person_tree, self.plot)
        self._link_scrolling()
        self.edits_table.selectionModel().currentRowChanged.connect(lambda current, _: self._show_edit(current.row()))
        self.step_combo.currentIndexChanged.connect(lambda _: self._show_comparison())
        self.filter_edit.textChanged.connect(lambda _: self._refilter())
        self.changes_table.selectionModel().currentRowChanged.connect(lambda current, _: self._reveal_change(current.row()))
        self.changes_table.clicked.connect(lambda index: self._zoom_to_change(index.row()))  # the row already chosen too
        self.copy_button.clicked.connect(self.copy_body)
        self.when_shown = WhenShown(self.isVisible)  # the session's edits, paired once the tab is shown
        context.session_changed.connect(self.refresh)
        context.entry_chosen.connect(self._entry_chosen)
        self.refresh()

    # --- layout ---------------------------------------------------------------------------------
    def _build_layout(self) -> None:
        changes = QWidget(self)
        changes_layout = QVBoxLayout(changes)
        changes_layout.setContentsMargins(0, 0, 0, 0)
        bar = QHBoxLayout()
        bar.addWidget(self.step_combo, 1)
        bar.addWidget(self.copy_button)
        changes_layout.addLayout(bar)
        filter_row = QHBoxLayout()
        filter_row.addWidget(self.filter_edit, 1)
        filter_row.addWidget(self.unit_box)
        changes_layout.addLayout(filter_row)
        changes_layout.addWidget(self.note_label)
        changes_layout.addWidget(self.changes_table, 1)
        self.drawing_note = QLabel(self)  # why nothing is drawn, in the drawing's stead (wsi_inspector.core.edits.geometry says)
        self.drawing_note.setObjectName("drawingNote")
        self.drawing_note.setWordWrap(True)
        self.drawing_note.hide()
        changes_layout.addWidget(self.drawing_note)
        top = QSplitter(Qt.Orientation.Horizontal, self)
        top.addWidget(self.edits_table)
        top.addWidget(changes)
        top.setSizes([400, 880])
        self.top_splitter = top
        inputs = QSplitter(Qt.Orientation.Horizontal, self)
        inputs.addWidget(_titled(self.model_label, self.model_tree))
        inputs.addWidget(_titled(self.person_label, self.person_tree))
        self.inputs_splitter = inputs
        bottom = QSplitter(Qt.Orientation.Horizontal, self)
        bottom.addWidget(inputs)
        bottom.addWidget(self.plot)
        bottom.setSizes([760, 520])
        self.drawing_splitter = bottom
        self.splitter = QSplitter(Qt.Orientation.Vertical, self)
        self.splitter.addWidget(top)
        self.splitter.addWidget(bottom)
        self.splitter.setSizes([260, 480])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.summary)
        layout.addWidget(self.splitter, 1)

    def _arrange(self) -> None:
        """Panes side by side where the tab is wide, stacked where it is narrow (docs/window.md, "Nothing cut off").

        Under SIDE_BY_SIDE_CHARS the edits' columns (some 45 characters with a call) and the change list's
        (some 60 in cm: "3.4 cm (34 mm)") cannot both be whole in one row: the change list goes under the edits.
        Nor can keys beside values in two trees beside a drawing (each tree had 200 px at 1024: "bandDep…"): the
        person's tree goes under the model's, the drawing keeps half the width and the trees' height (under the
        trees it was a strip too short to frame a change at equal scale). Only the width decides, so choosing
        another edit or unit never flips the layout."""
        narrow = self.width() < QFontMetrics(monospace()).horizontalAdvance("0" * SIDE_BY_SIDE_CHARS)
        wanted = Qt.Orientation.Vertical if narrow else Qt.Orientation.Horizontal
        if self.top_splitter.orientation() == wanted:
            return
        for splitter in (self.top_splitter, self.inputs_splitter):
            splitter.setOrientation(wanted)
        height, width = self.splitter.height(), self.splitter.width()
        if narrow:  # the first shares of the height: the edits' first rows, the change list; the two trees
            top = height * 43 // 100
            self.splitter.setSizes([top, height - top])
            self.top_splitter.setSizes([top * 15 // 43, top - top * 15 // 43])
            self.inputs_splitter.setSizes([(height - top) // 2, height - top - (height - top) // 2])
            self.drawing_splitter.setSizes([width // 2, width - width // 2])
        else:
            self.splitter.setSizes([height * 7 // 20, height - height * 7 // 20])
            self.top_splitter.setSizes([width * 5 // 16, width - width * 5 // 16])
            self.inputs_splitter.setSizes([width * 3 // 10, width * 3 // 10])
            self.drawing_splitter.setSizes([width * 3 // 5, width - width * 3 // 5])
        self._share_width()

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 — Qt's hook
        super().resizeEvent(event)
        self._arrange()

    def _link_scrolling(self) -> None:
        left, right = self.model_tree.verticalScrollBar(), self.person_tree.verticalScrollBar()
        left.valueChanged.connect(lambda value: right.setValue(value) if right.value() != value else None)
        right.valueChanged.connect(lambda value: left.setValue(value) if left.value() != value else None)

    # --- session and edits ------------------------------------------------------------------------
    _pending_edit: Any = None  # an edit chosen elsewhere while hidden, selected when shown

    def showEvent(self, event: Any) -> None:  # noqa: N802 — Qt's hook
        super().showEvent(event)
        self.when_shown.catch_up()

    def refresh(self) -> None:
        """Start pairing and diffing the session's edits off the GUI thread (once the tab is shown).

        Hidden, it only remembers to: diffing every edit of a big session holds the interpreter
        for seconds, and every other view would wait for it.
        """
        self.when_shown.owe(self._pair_edits)

    def _pair_edits(self) -> None:
        self.jobs.cancel_all()
        self._paired_yet = False
        self._detail_row = -1
        session = self.context.session
        self._provenance = _SessionProvenance(session) if session is not None else None
        self.edits_model.set_pairings([])
        self._show_nothing()
        if session is None:
            self.summary.setText("No session open.")
            return
        self.summary.setText("Pairing the canvas edits with the model's calls …")
        self.jobs.start("diff", lambda job: diff_session(job, session), on_report=self._diff_news,
                        on_failed=lambda exc: self.summary.setText(f"The canvas edits could not be paired: {_why(exc)}"))

    def _diff_news(self, news: tuple[str, Any]) -> None:
        kind, value = news
        if kind == "paired":
            self._paired(value)
        else:
            self._diffed(*value)

    def _share_width(self) -> None:
        """Calls whole (ids, "pack.corridor…corridorRuns" at 1920 px beside a change list with room to spare):
        the edits table takes room from the change list down to what its columns need, never more."""
        table = self.changes_table
        header = table.horizontalHeader()
        needs = sum(header.sectionSize(c) for c in range(header.count() - 1) if not table.isColumnHidden(c))
        keep = needs + table.verticalScrollBar().sizeHint().width() + 2 * table.frameWidth()
        beside = self.top_splitter.orientation() == Qt.Orientation.Horizontal  # stacked (_arrange): its own width
        share_width(self.edits_table, 4, self._call_width, 0, least=0, splitter=self.top_splitter if beside else None,
                    keep=keep)

    def eventFilter(self, watched: Any, event: QEvent) -> bool:  # noqa: N802 — Qt's hook
        if watched is self.edits_table.viewport() and event.type() == QEvent.Type.Resize:
            self._share_width()
        return super().eventFilter(watched, event)

    def _paired(self, pairings: list[Pairing]) -> None:
        self._paired_yet = True
        self.edits_model.set_pairings(pairings)
        if not pairings:
            self.summary.setText("No canvas edits in this session: nothing the person changed on the canvas.")
            return
        self.summary.setText(f"{len(pairings):,} canvas edit{'s' if len(pairings) != 1 else ''}: what the person "
                             "changed against the model's call (computing the differences …)")
        # Ids whole (never "…"): the edit and base columns take the width of the longest ids (the icon beside the edit's).
        longest = sorted(pairings, key=lambda p: len(str(p.edit.id)))[-3:]
        fit_column(self.edits_table, 0, [str(p.edit.id) for p in longest], least=56, most=260, extra=24)
        bases = sorted((str(p.base.id) for p in pairings if p.base is not None), key=len)[-3:]
        fit_column(self.edits_table, 1, bases, least=52, most=260)
        calls = sorted({p.edit.call for p in pairings}, key=len)[-3:]
        self._call_width = fit_column(self.edits_table, 4, calls, most=420)
        self._share_width()
        self.edits_table.selectRow(0)
        if self._pending_edit is not None:
            pending, self._pending_edit = self._pending_edit, None
            self.select_edit(pending)

    @property
    def ready(self) -> bool:
        """True when the edits are paired and every edit's diff is computed."""
        model = self.edits_model
        if self.context.session is None:
            return True
        return self._paired_yet and len(model.diffs) + len(model.failures) >= len(model.pairings)

    def _diffed(self, diffs: dict[int, EditDiff], failures: dict[int, str]) -> None:
        self.edits_model.add_diffs(diffs)
        self.edits_model.add_failures(failures)
        row = self.current_row()
        if row in diffs:
            self._ask_detail(row)
        elif row in failures:
            self._show_nothing(f"This edit could not be compared: {failures[row]}")
        if self.ready:
            count = len(self.edits_model.pairings)
            if count:
                self.summary.setText(f"{count:,} canvas edit{'s' if count != 1 else ''}: what the person changed "
                                     "against the model's call. Choose one to see its changes, both inputs and the drawing.")

    def _ask_detail(self, row: int) -> None:
        """Start the detail job for `row`; one for the row shown replaces any other.

        It does not wait for the session's diff job to reach the row: it diffs that one edit itself.
        """
        model, provenance = self.edits_model, self._provenance
        if not 0 <= row < len(model.pairings) or row in model.details or row in model.failures or provenance is None:
            return
        pairing, edit_diff = model.pairings[row], model.diffs.get(row)
        if row == self._detail_row and self.jobs.busy("detail"):
            return
        self._detail_row = row
        self.jobs.start("detail", lambda job: provenance.detail(job, edit_diff or diff_edit(pairing)),
                        on_done=lambda detail: self._detail_done(row, detail),
                        on_failed=lambda exc: self._detail_failed(row, _why(exc)))

    def _detail_done(self, row: int, detail: EditDetail) -> None:
        self.edits_model.set_detail(row, detail)
        if row == self.current_row():
            self._show_edit(row)

    def _detail_failed(self, row: int, message: str) -> None:
        self.edits_model.set_detail(row, None, message)
        if row == self.current_row():
            self._show_nothing(f"This edit could not be compared: {message}")

    def current_row(self) -> int:
        return self.edits_table.currentIndex().row()

    def select_edit(self, edit_id: Any) -> bool:
        """Choose the edit with that entry id; False when it is not a canvas edit."""
        for row, pairing in enumerate(self.edits_model.pairings):
            if pairing.edit.key == str(edit_id):
                self.edits_table.selectRow(row)
                return True
        return False

    def _entry_chosen(self, entry: Entry) -> None:
        if not entry.applied:
            return
        if self.when_shown.owes or not self.select_edit(entry.id):
            self._pending_edit = entry.id  # selected once the tab is shown and the edits are paired

    def current_detail(self) -> EditDetail | None:
        return self.edits_model.details.get(self.current_row())

    def _show_edit(self, row: int) -> None:
        if self._before_copy is not None:  # "Copied a body that rebuilds e1 …" is not about the edit chosen now
            self.summary.setText(self._before_copy)
            self._before_copy = None
        detail = self.edits_model.details.get(row)
        if detail is None:
            self._ask_detail(row)
            pairing = self.edits_model.pairings[row] if 0 <= row < len(self.edits_model.pairings) else None
            failure = self.edits_model.failures.get(row)
            self._show_nothing(f"This edit could not be compared: {failure}" if failure else
                               ("Computing …" if pairing else ""))
            return
        self.step_combo.blockSignals(True)
        self.step_combo.clear()
        for comparison in detail.comparisons:
            self.step_combo.addItem(comparison.title)
        self.step_combo.setCurrentIndex(0)
        self.step_combo.setEnabled(len(detail.comparisons) > 1)
        self.step_combo.blockSignals(False)
        self.copy_button.setEnabled(detail.edit_diff.base is not None)
        notes = list(detail.edit_diff.pairing.notes)
        if detail.edit_diff.unit_note:
            notes.insert(0, detail.edit_diff.unit_note)
        self.note_label.setText("\n".join(notes))
        self.note_label.setVisible(bool(notes))
        self._show_comparison()

    def current_comparison(self) -> Comparison | None:
        detail = self.current_detail()
        index = self.step_combo.currentIndex()
        if detail is None or not 0 <= index < len(detail.comparisons):
            return None
        return detail.comparisons[index]

    def _show_comparison(self) -> None:
        detail, comparison = self.current_detail(), self.current_comparison()
        if detail is None or comparison is None:
            edit = detail.edit_diff.edit if detail else None
            self._show_nothing()
            if edit is not None:
                self.person_tree.set_value(edit.input, f"{edit.id} input")
            return
        before, after = comparison.before, comparison.after
        self.changes_model.set_changes(comparison.changes, comparison.unit, self.filter_edit.text(), comparison.raw_unit)
        self.unit_box.setItemText(0, f"model's unit ({comparison.unit})" if comparison.unit else "model's unit")
        self._fit_values()
        self.model_label.setText(_entry_title(before, "the model's call" if not before.applied else "the person's earlier edit"))
        self.person_label.setText(_entry_title(after, "the person's edit"))
        self._fill_tree(self.model_tree, before, comparison.before_value, comparison.before_written,
                        comparison.before_changed, (MODEL_WRITTEN, MODEL_ANCESTOR), detail)
        self._fill_tree(self.person_tree, after, comparison.after_value, comparison.after_written,
                        comparison.after_changed, (PERSON_WRITTEN, PERSON_ANCESTOR), detail)
        self.drawn_comparison = None
        drawn = bool(comparison.before_shapes or comparison.after_shapes)
        self.drawing_note.setText("" if drawn else why_nothing_drawn(comparison.before_value, comparison.after_value))
        self.drawing_note.setVisible(not drawn)
        if drawn:
            self._draw_timer.start()  # on the next turn of the event loop: see _draw
        else:
            self._draw_timer.stop()
            self.plot.setVisible(False)
            self.plot.clear()
            self.drawn_comparison = comparison
        if self.changes_model.rowCount():
            self._first_change = True  # the drawing stays fitted to the whole: the person did not choose this one
            try:
                self.changes_table.selectRow(0)  # opens both trees at the first change
            finally:
                self._first_change = False

    def _draw(self) -> None:
        """Draw the comparison on screen, a turn after its tables and trees.

        Laying out pyqtgraph's legend, axes and range costs tens of milliseconds whatever the data;
        done in the same turn as the trees it made one long stall of the event loop.
        """
        comparison = self.current_comparison()
        if comparison is None or comparison is self.drawn_comparison:
            return
        self.plot.setVisible(True)  # shown (and sized) here too: a shown plot lays out its axes and range again
        sizes = self.drawing_splitter.sizes()
        if sizes[1] < MIN_DRAWING_WIDTH:  # shown again after being hidden, the splitter gave it nothing
            total = sum(sizes) or 1280
            self.drawing_splitter.setSizes([total * 3 // 5, total - total * 3 // 5])
        before, after = comparison.before, comparison.after
        converted = f", converted from {comparison.raw_unit}" if comparison.raw_unit else ""
        shown = self.changes_model.chosen_unit or comparison.unit
        factor = float(MM_PER_UNIT[comparison.unit] / MM_PER_UNIT[shown]) if comparison.unit and shown else 1.0
        before_shapes, marks = scaled(comparison.before_shapes, comparison.marks, factor)
        after_shapes, _ = scaled(comparison.after_shapes, [], factor)
        self.plot.set_geometry(before_shapes, after_shapes, marks, shown,
                               f"{before.id} ({'person' if before.applied else 'model'})", f"{after.id} (person{converted})")
        self.drawn_comparison = comparison

    @property
    def drawing_ready(self) -> bool:
        """True when the drawing shows the comparison on screen (it follows a turn after the rest)."""
        return self.drawn_comparison is self.current_comparison()

    def _fill_tree(self, tree: JsonTreeView, entry: Entry, value: Any, written: set[str], changed: set[str],
                   colours: tuple[QColor, QColor], detail: EditDetail) -> None:
        origins = detail.origins.get(entry.key, {})

        def background(path: str, _value: Any) -> QColor | None:
            if path in written:
                return colours[0]
            return colours[1] if path in changed else None

        def origin(path: str, _value: Any) -> str | None:
            found = origins.get(path)
            return found.mark() if found else None  # the words are the tooltip: the value keeps the room

        def origin_text(path: str, _value: Any) -> str | None:
            found = origins.get(path)
            return found.text() if found else None

        tree.json_model.set_annotations("set by", origin, origin_text, background)
        tree.set_value(value, f"{entry.id} input{' (' + entry.unit + ')' if entry.unit else ''}")

    def _open_read(self, tree: JsonTreeView, index: Any) -> None:
        """Double-clicking a leaf the body read: its body, in the Run tab, at the read's line."""
        detail, node, comparison = self.current_detail(), tree.json_model.node(index), self.current_comparison()
        if detail is None or node is None or comparison is None:
            return
        shown = comparison.before if tree is self.model_tree else comparison.after
        found = detail.origins.get(shown.key, {}).get(node.pointer)
        session, window = self.context.session, self.window()
        read = found.read if found is not None else None
        body = session.body(read["body"]) if read and session is not None else None
        run = getattr(window, "views", {}).get("run")
        if read is None or body is None or run is None:
            return
        self.context.choose_body(body)
        window.show_tab("run")  # type: ignore[attr-defined]
        run.editor.go_to(int(read["line"]), int(read["column"]))

    def _refilter(self) -> None:
        comparison = self.current_comparison()
        if comparison is not None:
            self.changes_model.set_changes(comparison.changes, comparison.unit, self.filter_edit.text(), comparison.raw_unit)

    def _fit_values(self) -> None:
        """Before and after as wide as their texts ("34 mm (3.4 cm)"), within bounds: values are not behind a scroll."""
        model = self.changes_model
        rows = range(min(model.rowCount(), 200))  # the first rows are measured: a long list is elided past them
        for column in (2, 3):
            fit_column(self.changes_table, column, (str(model.index(row, column).data()) for row in rows), least=90, most=260)
        # Paths (JSON Pointers, ids) as wide as they are: 130 px for "spine/1" put Δ and the unit behind a sideways
        # scroll at 1024 px. Its note mark (note_actions) keeps its room at the right edge.
        fit_column(self.changes_table, 1, (str(model.index(row, 1).data()) for row in rows), least=60, most=260, extra=12)
        fit_column(self.changes_table, 4, (str(model.index(row, 4).data()) for row in rows), least=0, most=120)

    def _unit_chosen(self, _index: int) -> None:
        """Read lengths in another unit: the change list at once, the drawing drawn again."""
        self.changes_model.set_shown_unit(self.unit_box.currentData())
        self._fit_values()
        if self.current_comparison() is not None and self.plot.isVisible():
            self.drawn_comparison = None
            self._draw()

    def _reveal_change(self, row: int) -> None:
        change = self.changes_model.change_at(row)
        if change is None:
            return
        self.person_tree.reveal(change["path"])
        self.model_tree.reveal(change["path"])
        if not self._first_change:
            self._zoom_to_change(row)

    def _zoom_to_change(self, row: int) -> None:
        """Every click on a change zooms the drawing to it (a change of no vertex leaves the drawing as it is)."""
        change = self.changes_model.change_at(row)
        if change is not None and self.plot.isVisible():
            self.plot.zoom_to_change(change["path"])

    def _show_nothing(self, note: str = "") -> None:
        self.step_combo.clear()
        self.step_combo.setEnabled(False)
        self.copy_button.setEnabled(False)
        self.changes_model.set_changes([], None)
        self.note_label.setText(note)
        self.note_label.setVisible(bool(note))
        self.model_label.setText("")
        self.person_label.setText("")
        self.model_tree.set_value(None, present=False)
        self.person_tree.set_value(None, present=False)
        self._draw_timer.stop()
        self.plot.clear()
        self.drawn_comparison = None
        self.plot.setVisible(False)
        self.drawing_note.hide()

    # --- actions ----------------------------------------------------------------------------------
    def copy_body(self) -> str | None:
        """Put a body that rebuilds the chosen edit from the model's call on the clipboard."""
        detail = self.current_detail()
        if detail is None or self.context.session is None:
            return None
        self.last_copied = copy_as_body(detail.edit_diff, self.context.session)
        QGuiApplication.clipboard().setText(self.last_copied)
        self._before_copy = self.summary.text()  # the confirmation is about this edit: another edit puts this back
        self.summary.setText(f"Copied a body that rebuilds {detail.edit_diff.edit.id} from "
                             f"{detail.edit_diff.base.id if detail.edit_diff.base else 'nothing'}: paste it in the Run tab.")
        return self.last_copied


def _why(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def _entry_title(entry: Entry, who: str) -> str:
    body = f" · body {entry.body}" if entry.body is not None else ""
    unit = f" · {entry.unit}" if entry.unit else ""
    return f"<b>{who}</b> <tt>{entry.id}</tt>{body}{unit}"


def _titled(label: QLabel, widget: QWidget) -> QWidget:
    box = QWidget()
    layout = QVBoxLayout(box)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.addWidget(label)
    layout.addWidget(widget, 1)
    return box


def _table(model: QAbstractTableModel, name: str) -> QTableView:
    table = row_table(model, name)
    table.verticalHeader().setDefaultSectionSize(22)
    return table
