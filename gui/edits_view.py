"""The Edits tab: every canvas edit beside the model call it edited (SPEC 4).

The list of edits (call, base, edit, number of changes, chain steps); the chosen edit's changes
(path, before, after, Δ, unit) with a filter; the two inputs side by side, changed paths
highlighted, scrolling together, each leaf's provenance in a column; a drawing of the geometry
when the inputs hold points or polylines, both in the model's unit; and "Copy as body".

Nothing that grows with the session runs on the GUI thread: one job pairs every edit and diffs
each against its base and its previous step (chains computed once, `core.edits`), reporting in
batches; the chosen edit's detail (reverse diffs, provenance, the drawing's shapes, parsed inputs)
is a second job. Jobs run one at a time per kind, and their answers for an older session are
dropped. A chain is shown as its two comparisons (against the model's call, and the edit's own
step from the previous entry); earlier steps are the earlier edits' rows.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QRunnable, Qt, QThreadPool, Signal
from PySide6.QtGui import QColor, QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from core.diff import Change, diff, parse_pointer
from core.edits import (
    EditDiff,
    Pairing,
    changed_paths,
    copy_as_body,
    diff_edit,
    display_path,
    filter_changes,
    pair_edits,
    signed,
    summary_line,
    units_of,
    value_text,
)
from core.geometry import Shape, VertexMark, shapes, vertex_marks
from core.model import Entry
from core.provenance import LeafOrigin, Provenance
from core.session import Session
from core.units import Conversion, unit_text
from gui.context import InspectorContext
from gui.geometry_plot import GeometryPlot
from gui.json_tree import JsonTreeView
from gui.models import ALIGN, DISPLAY, FONT, FOREGROUND, MUTED, PERSON, PERSON_BACKGROUND, RIGHT, TOOLTIP, monospace
from gui.theme import colour, hex_of

MODEL_WRITTEN, MODEL_ANCESTOR = colour("model_written"), colour("model_ancestor")  # gui.theme: light or dark
PERSON_WRITTEN, PERSON_ANCESTOR = colour("person_written"), PERSON_BACKGROUND
MIN_DRAWING_WIDTH = 120  # px: a drawing narrower than this is given back its share of the row
BATCH_SECONDS = 0.05  # the diff job reports what it has at most this often: one model update per batch
OP_COLOURS = {"add": colour("add"), "remove": colour("remove"), "replace": colour("replace")}


@dataclass(slots=True)
class Comparison:
    """Two entries side by side (inputs parsed), the changes between them, highlights, and the drawing."""

    title: str
    before: Entry
    after: Entry
    before_value: Any
    after_value: Any
    changes: list[Change]
    unit: str | None  # the unit the changes (and the drawing) are in: `before`'s
    raw_unit: str | None  # `after`'s own unit when its numbers were converted
    before_written: set[str]  # paths whose value differs in `before` (from the reverse diff)
    before_changed: set[str]  # those and their ancestors
    after_written: set[str]
    after_changed: set[str]
    before_shapes: list[Shape]
    after_shapes: list[Shape]
    marks: list[VertexMark]


@dataclass(slots=True)
class EditDetail:
    """Everything the view shows for one edit, computed off the GUI thread."""

    edit_diff: EditDiff
    comparisons: list[Comparison]
    origins: dict[str, dict[str, LeafOrigin]] = field(default_factory=dict)  # entry key → pointer → origin


def edit_detail(provenance: Provenance, edit_diff: EditDiff) -> EditDetail:
    """The edit's comparisons (against the model call, then its own step) with provenance and shapes."""
    pairing = edit_diff.pairing
    comparisons = []
    if pairing.base is not None:
        comparisons.append(_comparison(f"{pairing.base.id} → {pairing.edit.id}  (the model's call → the person's edit)",
                                       pairing.base, pairing.edit, edit_diff.changes))
    if edit_diff.step is not None:
        step = edit_diff.step
        title = f"step {pairing.steps:,} of {pairing.steps:,}: {step.before.id} → {step.after.id}  (the edit's own step)"
        comparisons.append(_comparison(title, step.before, step.after, step.changes))
    shown = {e.key: e for c in comparisons for e in (c.before, c.after)} or {pairing.edit.key: pairing.edit}
    origins = {key: {o.path: o for o in provenance.blame(entry)} for key, entry in shown.items()}
    return EditDetail(edit_diff, comparisons, origins)


def _written(changes: list[Change]) -> set[str]:
    return {c["path"] for c in changes if c["op"] != "remove"}


def _comparison(title: str, before: Entry, after: Entry, changes: list[Change]) -> Comparison:
    before_value, after_value = before.input, after.input
    unit, raw_unit = units_of(before, after)
    # The reverse diff's paths are in the model's input, so they say what to highlight there.
    reverse = diff(after_value, before_value, after.unit, before.unit)
    conversion = Conversion(raw_unit, unit) if raw_unit and unit else None
    return Comparison(title, before, after, before_value, after_value, changes, unit, raw_unit,
                      _written(reverse), changed_paths(reverse), _written(changes), changed_paths(changes),
                      shapes(before_value), shapes(after_value, conversion), vertex_marks(changes))


class _Signals(QObject):
    paired = Signal(int, object)  # generation, list[Pairing]
    diffed = Signal(int, object)  # generation, {row: EditDiff}
    detailed = Signal(int, int, object)  # generation, row, EditDetail
    failed = Signal(int, int, str)  # generation, row (-1: the whole session), message


class _DiffJob(QRunnable):
    """Pairs the session's edits (one pass), then diffs each, reporting in batches."""

    def __init__(self, session: Session, generation: int, signals: _Signals):
        super().__init__()
        self.session, self.generation, self.signals = session, generation, signals

    def run(self) -> None:
        try:
            pairings = pair_edits(self.session)
        except Exception as exc:  # a view never crashes the window: the summary says what went wrong
            self.signals.failed.emit(self.generation, -1, f"{type(exc).__name__}: {exc}")
            return
        self.signals.paired.emit(self.generation, pairings)
        batch: dict[int, EditDiff] = {}
        sent = time.perf_counter()
        for row, pairing in enumerate(pairings):
            try:
                batch[row] = diff_edit(pairing)
            except Exception as exc:  # the row says what went wrong
                self.signals.failed.emit(self.generation, row, f"{type(exc).__name__}: {exc}")
            if time.perf_counter() - sent > BATCH_SECONDS:
                self.signals.diffed.emit(self.generation, batch)
                batch, sent = {}, time.perf_counter()
        self.signals.diffed.emit(self.generation, batch)


class _SessionProvenance:
    """One session's Provenance, made by the first detail job (indexing the session is O(entries))."""

    def __init__(self, session: Session):
        self.session = session
        self.provenance: Provenance | None = None

    def get(self) -> Provenance:
        if self.provenance is None:
            self.provenance = Provenance(self.session)
        return self.provenance


class _DetailJob(QRunnable):
    """Computes one edit's EditDetail."""

    def __init__(self, provenance: _SessionProvenance, edit_diff: EditDiff, row: int, generation: int,
                 signals: _Signals):
        super().__init__()
        self.provenance, self.edit_diff, self.row = provenance, edit_diff, row
        self.generation, self.signals = generation, signals

    def run(self) -> None:
        try:
            detail = edit_detail(self.provenance.get(), self.edit_diff)
        except Exception as exc:  # a view never crashes the window: the row says what went wrong
            self.signals.failed.emit(self.generation, self.row, f"{type(exc).__name__}: {exc}")
        else:
            self.signals.detailed.emit(self.generation, self.row, detail)


class EditsModel(QAbstractTableModel):
    """The canvas edits: edit, call, base, changes, chain steps."""

    HEADERS = ("edit", "base", "changes", "steps", "call")

    def __init__(self, parent: Any = None):
        super().__init__(parent)
        self.pairings: list[Pairing] = []
        self.diffs: dict[int, EditDiff] = {}
        self.details: dict[int, EditDetail] = {}
        self.failures: dict[int, str] = {}

    def set_pairings(self, pairings: list[Pairing]) -> None:
        self.beginResetModel()
        self.pairings, self.diffs, self.details, self.failures = pairings, {}, {}, {}
        self.endResetModel()

    def add_diffs(self, diffs: dict[int, EditDiff]) -> None:
        """A batch of diffs from the job: one dataChanged for the rows it spans."""
        if not diffs:
            return
        self.diffs.update(diffs)
        self.dataChanged.emit(self.index(min(diffs), 2), self.index(max(diffs), 2))

    def set_detail(self, row: int, detail: EditDetail | None, failure: str | None = None) -> None:
        if detail is not None:
            self.details[row] = detail
            self.diffs[row] = detail.edit_diff
        if failure is not None:
            self.failures[row] = failure
        self.dataChanged.emit(self.index(row, 0), self.index(row, len(self.HEADERS) - 1))

    def rowCount(self, parent: Any = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.pairings)

    def columnCount(self, parent: Any = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = DISPLAY) -> Any:
        if role == DISPLAY and orientation == Qt.Orientation.Horizontal:
            return self.HEADERS[section]
        return None

    def data(self, index: Any, role: int = DISPLAY) -> Any:
        if not index.isValid():
            return None
        pairing, column = self.pairings[index.row()], index.column()
        edit_diff = self.diffs.get(index.row())
        if role == DISPLAY:
            if column == 0:
                return f"✎ {pairing.edit.id}"
            if column == 1:
                return str(pairing.base.id) if pairing.base else "none"
            if column == 2:
                if index.row() in self.failures:
                    return "failed"
                return f"{len(edit_diff.changes):,}" if edit_diff else "…"
            if column == 3:
                return f"{pairing.steps:,}" if pairing.base else "—"
            return pairing.edit.call
        if role == TOOLTIP:
            if index.row() in self.failures:
                return self.failures[index.row()]
            lines = [summary_line(edit_diff)] if edit_diff else []
            lines += pairing.notes
            return "\n".join(lines) or None
        if role == FONT:
            return monospace()
        if role == FOREGROUND and (column == 0 or (column == 1 and pairing.base is None)):
            return PERSON if column == 0 else MUTED
        if role == ALIGN and column in (2, 3):
            return RIGHT
        return None


class ChangesModel(QAbstractTableModel):
    """One comparison's changes, filtered in core: op, path, before, after, Δ, unit, and the edit's own numbers."""

    HEADERS = ("op", "path", "before", "after", "Δ", "unit")

    def __init__(self, parent: Any = None):
        super().__init__(parent)
        self.changes: list[Change] = []
        self.rows: list[int] = []
        self.unit: str | None = None
        self.raw_unit: str | None = None  # the edit's own unit, when its numbers were converted

    def set_changes(self, changes: list[Change], unit: str | None, text: str = "", raw_unit: str | None = None) -> None:
        self.beginResetModel()
        self.changes, self.unit, self.raw_unit = changes, unit, raw_unit
        self.rows = filter_changes(changes, text, unit, raw_unit)
        self.endResetModel()

    def change_at(self, row: int) -> Change | None:
        return self.changes[self.rows[row]] if 0 <= row < len(self.rows) else None

    def rowCount(self, parent: Any = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Any = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.HEADERS) + (2 if self.raw_unit else 0)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = DISPLAY) -> Any:
        if role != DISPLAY or orientation != Qt.Orientation.Horizontal:
            return None
        if section < len(self.HEADERS):
            return self.HEADERS[section]
        return f"{('before', 'after')[section - len(self.HEADERS)]}, as {self.raw_unit}"

    def data(self, index: Any, role: int = DISPLAY) -> Any:
        change = self.change_at(index.row()) if index.isValid() else None
        if change is None:
            return None
        column = index.column()
        if role == DISPLAY:
            return self._text(change, column)
        if role == TOOLTIP:
            tip = f"{change['path'] or '(whole input)'}\n{self._text(change, 2)} → {self._text(change, 3)} {self._text(change, 5)}"
            if self.raw_unit and "raw" in change:
                tip += f"\nthe edit's own numbers, in {self.raw_unit}: {self._text(change, 6)} → {self._text(change, 7)}"
            return tip
        if role == FONT:
            return monospace()
        if role == FOREGROUND and column == 0:
            return OP_COLOURS.get(change["op"])
        if role == FOREGROUND and column >= len(self.HEADERS):
            return MUTED
        if role == ALIGN and column == 4:
            return RIGHT
        return None

    def _text(self, change: Change, column: int) -> str:
        if column == 0:
            return change["op"]
        if column == 1:
            return display_path(change["path"])
        if column == 2:
            return value_text(change["from"], 80) if "from" in change else ""
        if column == 3:
            return value_text(change["to"], 80) if "to" in change else ""
        if column == 4:
            return signed(change["delta"]) if "delta" in change else ""
        if column == 5:
            return unit_text(self.unit, parse_pointer(change["path"]), change.get("to", change.get("from")))
        raw = change.get("raw", {})
        key = "from" if column == 6 else "to"
        return value_text(raw[key], 80) if key in raw else ""


class EditsView(QWidget):
    """Every canvas edit against its model call: list, changes, the inputs side by side, a drawing."""

    def __init__(self, context: InspectorContext, parent: QWidget | None = None):
        super().__init__(parent)
        self.context = context
        self.generation = 0
        self.last_copied: str | None = None
        self._signals = _Signals(self)
        self._signals.paired.connect(self._paired)
        self._signals.diffed.connect(self._diffed)
        self._signals.detailed.connect(self._detail_done)
        self._signals.failed.connect(self._detail_failed)
        # One job of each kind at a time: the next session's diffs wait for the last one's to end,
        # and one Provenance (not shared between threads) serves the details.
        self._diff_pool, self._detail_pool = QThreadPool(self), QThreadPool(self)
        for pool in (self._diff_pool, self._detail_pool):
            pool.setMaxThreadCount(1)
        self._provenance: _SessionProvenance | None = None
        self._asked: set[int] = set()  # rows whose detail job is queued or running
        self.summary = QLabel(self)
        self.summary.setObjectName("editsSummary")
        self.summary.setWordWrap(True)
        self.edits_model = EditsModel(self)
        self.edits_table = _table(self.edits_model, "editsTable")
        for column, width in enumerate((56, 52, 72, 48)):
            self.edits_table.setColumnWidth(column, width)
        self.step_combo = QComboBox(self)
        self.step_combo.setObjectName("editsStep")
        self.filter_edit = QLineEdit(self)
        self.filter_edit.setObjectName("editsFilter")
        self.filter_edit.setPlaceholderText("filter changes: path or value, e.g. spine")
        self.filter_edit.setClearButtonEnabled(True)
        self.copy_button = QPushButton("Copy as body", self)
        self.copy_button.setObjectName("editsCopyBody")
        self.copy_button.setToolTip("Copy a body that rebuilds this edit from the model's call")
        self.changes_model = ChangesModel(self)
        self.changes_table = _table(self.changes_model, "editsChanges")
        for column, width in enumerate((62, 130, 130, 130, 56)):
            self.changes_table.setColumnWidth(column, width)
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
            tree.setColumnHidden(2, True)  # the type column: room for the origin column instead
            tree.setColumnWidth(0, 110)
            tree.setColumnWidth(1, 150)
        self.plot = GeometryPlot(self)
        self._first_change = False
        self.plot.setObjectName("editsGeometry")
        self._build_layout()
        self._link_scrolling()
        self.edits_table.selectionModel().currentRowChanged.connect(lambda current, _: self._show_edit(current.row()))
        self.step_combo.currentIndexChanged.connect(lambda _: self._show_comparison())
        self.filter_edit.textChanged.connect(lambda _: self._refilter())
        self.changes_table.selectionModel().currentRowChanged.connect(lambda current, _: self._reveal_change(current.row()))
        self.copy_button.clicked.connect(self.copy_body)
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
        changes_layout.addWidget(self.filter_edit)
        changes_layout.addWidget(self.note_label)
        changes_layout.addWidget(self.changes_table, 1)
        top = QSplitter(Qt.Orientation.Horizontal, self)
        top.addWidget(self.edits_table)
        top.addWidget(changes)
        top.setSizes([400, 880])
        inputs = QSplitter(Qt.Orientation.Horizontal, self)
        inputs.addWidget(_titled(self.model_label, self.model_tree))
        inputs.addWidget(_titled(self.person_label, self.person_tree))
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

    def _link_scrolling(self) -> None:
        left, right = self.model_tree.verticalScrollBar(), self.person_tree.verticalScrollBar()
        left.valueChanged.connect(lambda value: right.setValue(value) if right.value() != value else None)
        right.valueChanged.connect(lambda value: left.setValue(value) if left.value() != value else None)

    # --- session and edits ------------------------------------------------------------------------
    _stale = True  # the session changed while the tab was hidden
    _pending_edit: Any = None  # an edit chosen elsewhere while hidden, selected when shown

    def showEvent(self, event: Any) -> None:  # noqa: N802 — Qt's hook
        super().showEvent(event)
        if self._stale:
            self.refresh()

    def refresh(self) -> None:
        """Start pairing and diffing the session's edits off the GUI thread (once the tab is shown).

        Hidden, it only remembers to: diffing every edit of a big session holds the interpreter
        for seconds, and every other view would wait for it.
        """
        if not self.isVisible():
            self._stale = True
            return
        self._stale = False
        self.generation += 1
        self._asked.clear()
        session = self.context.session
        self._provenance = _SessionProvenance(session) if session is not None else None
        self.edits_model.set_pairings([])
        self._show_nothing()
        if session is None:
            self.summary.setText("No session open.")
            return
        self.summary.setText("Pairing the canvas edits with the model's calls …")
        self._diff_pool.clear()
        self._detail_pool.clear()
        self._diff_pool.start(_DiffJob(session, self.generation, self._signals))

    def _paired(self, generation: int, pairings: list[Pairing]) -> None:
        if generation != self.generation:
            return
        self._paired_generation = generation
        self.edits_model.set_pairings(pairings)
        if not pairings:
            self.summary.setText("No canvas edits in this session: nothing the person changed on the canvas.")
            return
        self.summary.setText(f"{len(pairings):,} canvas edit{'s' if len(pairings) != 1 else ''}: what the person "
                             "changed against the model's call (computing the differences …)")
        self.edits_table.selectRow(0)
        if self._pending_edit is not None:
            pending, self._pending_edit = self._pending_edit, None
            self.select_edit(pending)

    _paired_generation = -1  # the last generation whose pairings arrived

    @property
    def ready(self) -> bool:
        """True when the edits are paired and every edit's diff is computed."""
        model = self.edits_model
        if self.context.session is None:
            return True
        return self._paired_generation == self.generation and len(model.diffs) + len(model.failures) >= len(model.pairings)

    def _diffed(self, generation: int, diffs: dict[int, EditDiff]) -> None:
        if generation != self.generation:
            return
        self.edits_model.add_diffs(diffs)
        row = self.current_row()
        if row in diffs:
            self._ask_detail(row)
        if self.ready:
            count = len(self.edits_model.pairings)
            if count:
                self.summary.setText(f"{count:,} canvas edit{'s' if count != 1 else ''}: what the person changed "
                                     "against the model's call. Choose one to see its changes, both inputs and the drawing.")

    def _ask_detail(self, row: int) -> None:
        """Start the detail job for `row` once its diff is known (each row once per session)."""
        edit_diff = self.edits_model.diffs.get(row)
        if edit_diff is None or row in self._asked or row in self.edits_model.details or self._provenance is None:
            return
        self._asked.add(row)
        self._detail_pool.start(_DetailJob(self._provenance, edit_diff, row, self.generation, self._signals))

    def _detail_done(self, generation: int, row: int, detail: EditDetail) -> None:
        if generation != self.generation:
            return
        self.edits_model.set_detail(row, detail)
        if row == self.current_row():
            self._show_edit(row)

    def _detail_failed(self, generation: int, row: int, message: str) -> None:
        if generation != self.generation:
            return
        if row < 0:
            self.summary.setText(f"The canvas edits could not be paired: {message}")
            return
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
        if self._stale or not self.select_edit(entry.id):
            self._pending_edit = entry.id  # selected once the tab is shown and the edits are paired

    def current_detail(self) -> EditDetail | None:
        return self.edits_model.details.get(self.current_row())

    def _show_edit(self, row: int) -> None:
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
        self.model_label.setText(_entry_title(before, "the model's call" if not before.applied else "the person's earlier edit"))
        self.person_label.setText(_entry_title(after, "the person's edit"))
        self._fill_tree(self.model_tree, before, comparison.before_value, comparison.before_written,
                        comparison.before_changed, (MODEL_WRITTEN, MODEL_ANCESTOR), detail)
        self._fill_tree(self.person_tree, after, comparison.after_value, comparison.after_written,
                        comparison.after_changed, (PERSON_WRITTEN, PERSON_ANCESTOR), detail)
        has_geometry = bool(comparison.before_shapes or comparison.after_shapes)
        self.plot.setVisible(has_geometry)
        sizes = self.drawing_splitter.sizes()
        if has_geometry and sizes[1] < MIN_DRAWING_WIDTH:  # shown again after being hidden, the splitter gave it nothing
            total = sum(sizes) or 1280
            self.drawing_splitter.setSizes([total * 3 // 5, total - total * 3 // 5])
        if has_geometry:
            converted = f" in {comparison.unit}" if comparison.raw_unit else ""
            self.plot.set_geometry(comparison.before_shapes, comparison.after_shapes, comparison.marks, comparison.unit,
                                   f"{before.id} ({'person' if before.applied else 'model'})",
                                   f"{after.id} (person{', converted from ' + comparison.raw_unit if converted else ''})")
        if self.changes_model.rowCount():
            self._first_change = True  # the drawing stays fitted to the whole: the person did not choose this one
            try:
                self.changes_table.selectRow(0)  # opens both trees at the first change
            finally:
                self._first_change = False

    def _fill_tree(self, tree: JsonTreeView, entry: Entry, value: Any, written: set[str], changed: set[str],
                   colours: tuple[QColor, QColor], detail: EditDetail) -> None:
        origins = detail.origins.get(entry.key, {})

        def background(path: str, _value: Any) -> QColor | None:
            if path in written:
                return colours[0]
            return colours[1] if path in changed else None

        def origin(path: str, _value: Any) -> str | None:
            found = origins.get(path)
            return found.short() if found else None

        def origin_text(path: str, _value: Any) -> str | None:
            found = origins.get(path)
            return found.text() if found else None

        tree.json_model.set_annotations("set by", origin, origin_text, background)
        tree.set_value(value, f"{entry.id} input{' (' + entry.unit + ')' if entry.unit else ''}")

    def _refilter(self) -> None:
        comparison = self.current_comparison()
        if comparison is not None:
            self.changes_model.set_changes(comparison.changes, comparison.unit, self.filter_edit.text(), comparison.raw_unit)

    def _reveal_change(self, row: int) -> None:
        change = self.changes_model.change_at(row)
        if change is None:
            return
        self.person_tree.reveal(change["path"])
        self.model_tree.reveal(change["path"])
        if self.plot.isVisible() and not self._first_change:
            self.plot.zoom_to_change(change["path"])  # a change of no vertex leaves the drawing as it is

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
        self.plot.set_geometry([], [], [], None)
        self.plot.setVisible(False)

    # --- actions ----------------------------------------------------------------------------------
    def copy_body(self) -> str | None:
        """Put a body that rebuilds the chosen edit from the model's call on the clipboard."""
        detail = self.current_detail()
        if detail is None or self.context.session is None:
            return None
        self.last_copied = copy_as_body(detail.edit_diff, self.context.session)
        QGuiApplication.clipboard().setText(self.last_copied)
        self.summary.setText(f"Copied a body that rebuilds {detail.edit_diff.edit.id} from "
                             f"{detail.edit_diff.base.id if detail.edit_diff.base else 'nothing'}: paste it in the Run tab.")
        return self.last_copied


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
    table = QTableView()
    table.setObjectName(name)
    table.setModel(model)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.setAlternatingRowColors(True)
    table.verticalHeader().setVisible(False)
    table.verticalHeader().setDefaultSectionSize(22)
    table.horizontalHeader().setStretchLastSection(True)
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    return table
