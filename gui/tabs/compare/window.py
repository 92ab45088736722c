"""File ▸ Compare with…: two sessions side by side, where a run of the same task went another way.

The two timelines are aligned row by row (`wsi_inspector.core.edits.compare`, as `wsi compare` aligns them; a body one
session does not have is a gap `—`); one cursor, the chosen row, moves both. For the chosen step:
the code's difference, its calls (same, only in A, only in B, other input), and for the chosen call
its changes as a list, the two inputs as JSON trees, and both drawn on one plot in A's unit (A
dashed, B solid). The first divergence is marked in the table and named above it; F8 goes to it,
F7 / Shift+F7 to the next / previous step that differs. Loading and comparing run off the GUI
thread (wsi_inspector.gui.background.jobs), and so does each call's detail (parsing inputs, converting, finding shapes).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtGui import QCloseEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from wsi_inspector.core.edits.compare import CompareDocument, compare_sessions, load_pair
from wsi_inspector.core.edits.diff import Change
from wsi_inspector.core.edits.edits import change_text
from wsi_inspector.core.edits.geometry import Shape, VertexMark, shapes, vertex_marks
from wsi_inspector.core.session.load import Session, load
from wsi_inspector.core.edits.units import Conversion
from wsi_inspector.gui.tabs.compare.models import CompareCallsModel, StepsModel, step_verdict
from wsi_inspector.gui.widgets.geometry_plot import GeometryPlot
from wsi_inspector.gui.background.jobs import Job, Jobs
from wsi_inspector.gui.widgets.json_tree import JsonTreeView
from wsi_inspector.gui.window.look import monospace, row_table


@dataclass
class Compared:
    """What the compare job hands the window: both sessions and the `wsi compare` document."""

    a: Session
    b: Session
    document: CompareDocument


@dataclass
class CallDetail:
    """One call's two inputs, and what the plot draws: both in A's unit."""

    a_input: Any
    b_input: Any
    a_present: bool
    b_present: bool
    a_shapes: list[Shape]
    b_shapes: list[Shape]
    marks: list[VertexMark]
    unit: str | None  # A's (the plot's), else B's
    units: tuple[str | None, str | None]  # each side's own


def compare_files(job: Job, a: Path, b: Path, open_a: Session | None = None) -> Compared:
    """The compare job: load both (either form), then align and compare them.

    `open_a`: A as the main window already holds it (File ▸ Compare with… on the open session): only
    B is read. A is then what the window shows, as it was loaded, not its file read again.
    """
    if open_a is not None:
        job.progress(0, f"reading {b.name}")
        first, second = open_a, load(b)
    else:
        job.progress(0, f"reading {a.name} and {b.name}")
        first, second = load_pair(a, b)
    job.check()
    for session in (first, second):
        if session.unreadable is not None:
            raise ValueError(f"{session.name}: {session.unreadable.message}; nothing to compare")
    job.progress(80, "comparing")
    return Compared(first, second, compare_sessions(first, second))


def call_detail(compared: Compared, item: dict[str, Any], changes: list[Change]) -> CallDetail:
    """The detail job of one call: its inputs parsed, B's lengths in A's unit for the plot."""
    entry_a = compared.a.entry(item["a"]) if item["a"] is not None else None
    entry_b = compared.b.entry(item["b"]) if item["b"] is not None else None
    a_input = entry_a.input if entry_a is not None else None
    b_input = entry_b.input if entry_b is not None else None
    unit = (entry_a or entry_b).unit if (entry_a or entry_b) is not None else None  # type: ignore[union-attr]
    conversion = None
    if entry_a is not None and entry_b is not None and entry_a.unit and entry_b.unit and entry_a.unit != entry_b.unit:
        conversion = Conversion(entry_b.unit, entry_a.unit)
    return CallDetail(a_input, b_input, entry_a is not None, entry_b is not None,
                      shapes(a_input) if entry_a is not None else [],
                      shapes(b_input, conversion) if entry_b is not None else [], vertex_marks(changes), unit,
                      (entry_a.unit if entry_a else None, entry_b.unit if entry_b else None))


class CompareWindow(QWidget):
    """Two sessions aligned row by row, the chosen step's differences, the first divergence one key away."""

    def __init__(self, a: Path, b: Path, parent: QWidget | None = None, open_a: Session | None = None):
        """`open_a`: session A already loaded (the main window's), so that only B is read."""
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("compareWindow")
        self.setWindowTitle(f"Compare {a.name} with {b.name}")
        self.paths = (a, b)
        self.compared: Compared | None = None
        self.jobs = Jobs(self)
        self.heading = QLabel(f"<b>A</b> {a} &nbsp; · &nbsp; <b>B</b> {b}", self)
        self.heading.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.summary = QLabel("reading both sessions …", self)
        self.summary.setObjectName("compareSummary")
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.go_first = QPushButton("Go to first divergence (F8)", self)
        self.go_first.setObjectName("goToFirstDivergence")
        self.go_first.setEnabled(False)
        self.go_first.clicked.connect(self.go_to_first_divergence)

        self.steps = StepsModel(self)
        self.steps_table = row_table(self.steps, "compareSteps")
        self.steps_table.setFont(monospace())
        self.calls = CompareCallsModel(self)
        self.calls_table = row_table(self.calls, "compareCalls")
        self.calls_table.setFont(monospace())
        for column, width in ((0, 250), (1, 70), (2, 70)):
            self.calls_table.setColumnWidth(column, width)
        self.changes = QListWidget(self)
        self.changes.setObjectName("compareChanges")
        self.changes.setFont(monospace())
        self.tree_a, self.tree_b = JsonTreeView(self), JsonTreeView(self)
        self.tree_a.setObjectName("compareInputA")
        self.tree_b.setObjectName("compareInputB")
        self.code = QPlainTextEdit(self)
        self.code.setObjectName("compareCode")
        self.code.setReadOnly(True)
        self.code.setFont(monospace())
        self.code.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.plot = GeometryPlot(self)
        self.plot.setObjectName("comparePlot")

        trees = QSplitter(Qt.Orientation.Horizontal)
        trees.addWidget(self.tree_a)
        trees.addWidget(self.tree_b)
        calls_page = QSplitter(Qt.Orientation.Vertical)
        calls_page.setObjectName("compareCallsPage")
        calls_page.addWidget(self.calls_table)
        calls_page.addWidget(self.changes)
        calls_page.addWidget(trees)
        calls_page.setSizes([200, 90, 260])
        self.tabs = QTabWidget(self)
        self.tabs.setObjectName("compareTabs")
        self.tabs.addTab(calls_page, "Calls")
        self.tabs.addTab(self.code, "Code")
        self.tabs.addTab(self.plot, "Drawing")
        split = QSplitter(Qt.Orientation.Horizontal, self)
        split.addWidget(self.steps_table)
        split.addWidget(self.tabs)
        split.setStretchFactor(0, 1)  # the steps keep a third of the width as the window grows
        split.setStretchFactor(1, 2)
        split.setSizes([380, 760])
        top = QHBoxLayout()
        top.addWidget(self.summary, 1)
        top.addWidget(self.go_first, 0, Qt.AlignmentFlag.AlignTop)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addLayout(top)
        layout.addWidget(split, 1)

        self.steps_table.selectionModel().currentRowChanged.connect(lambda current, _previous: self._show_step(current.row()))
        self.calls_table.selectionModel().currentRowChanged.connect(lambda current, _previous: self._show_call(current.row()))
        for key, slot in ((QKeySequence(Qt.Key.Key_F8), self.go_to_first_divergence),
                          (QKeySequence(Qt.Key.Key_F7), lambda: self.go_to_difference(1)),
                          (QKeySequence("Shift+F7"), lambda: self.go_to_difference(-1))):
            QShortcut(key, self, slot, context=Qt.ShortcutContext.WindowShortcut)
        self.resize(1200, 760)
        self.jobs.start("compare", lambda job: compare_files(job, a, b, open_a), on_done=self._compared,
                        on_failed=self._failed, on_progress=lambda _p, text: self.summary.setText(text + " …"),
                        expected=(ValueError, OSError))

    # --- the comparison ---------------------------------------------------------------------------
    def _failed(self, exc: BaseException) -> None:
        self.summary.setText(f"<b>Could not compare</b>: {exc}")

    def _compared(self, compared: Compared) -> None:
        self.compared = compared
        document = compared.document
        self.steps.set_document(document)
        self.steps_table.resizeColumnToContents(0)
        for column in (1, 2):
            self.steps_table.setColumnWidth(column, max(70, self.steps_table.sizeHintForColumn(column) + 8))
        differ = sum(not s["same"] for s in document["steps"])
        divergence = document["firstDivergence"]
        head = f"{len(document['steps']):,} steps, " + ("<b>the same</b>" if document["same"] else f"<b>{differ:,} differ</b>")
        why = f"<br>First divergence: {_html(divergence['why'])}" if divergence else ""
        self.summary.setText(head + why)
        self.go_first.setEnabled(divergence is not None)
        if divergence is not None:
            self.go_to_first_divergence()
        elif document["steps"]:
            self.choose_step(0)

    # --- moving -----------------------------------------------------------------------------------
    def choose_step(self, row: int) -> None:
        """Make step `row` (0-based) the cursor: both sessions' bodies at once."""
        index = self.steps.index(row, 0)
        self.steps_table.selectionModel().setCurrentIndex(
            index, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
        self.steps_table.scrollTo(index)

    def go_to_first_divergence(self) -> None:
        """F8: the first step where A and B differ."""
        if self.steps.first is not None:
            self.choose_step(self.steps.first)
            self.steps_table.setFocus()

    def go_to_difference(self, step: int) -> None:
        """F7 / Shift+F7: the next / previous step that differs."""
        row = self.steps.next_difference(self.steps_table.currentIndex().row(), step)
        if row is not None:
            self.choose_step(row)

    def current_step(self) -> dict[str, Any] | None:
        return self.steps.step(self.steps_table.currentIndex().row())

    # --- the chosen step and call -----------------------------------------------------------------
    def _show_step(self, row: int) -> None:
        step = self.steps.step(row)
        self.calls.set_step(step)
        self.code.setPlainText(self._code_text(step) if step else "")
        if step is not None and self.calls.rowCount():
            at = self.calls.index(self.calls.first_difference(), 0)
            self.calls_table.selectionModel().setCurrentIndex(
                at, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
            self.calls_table.scrollTo(at)
        else:
            self._show_call(-1)

    def _code_text(self, step: dict[str, Any]) -> str:
        compared = self.compared
        assert compared is not None
        head = f"step {self.steps_table.currentIndex().row() + 1}: {step_verdict(step)}\n\n"
        if "codeDiff" in step:
            return head + "\n".join(step["codeDiff"])
        body = compared.a.body(step["a"]) if step["a"] is not None else compared.b.body(step["b"])
        side = "A and B" if step["a"] is not None and step["b"] is not None else ("A" if step["a"] is not None else "B")
        return head + f"the same code in {side}:\n\n" + (body.code if body is not None else "")

    def _show_call(self, row: int) -> None:
        item = self.calls.item(row)
        self.changes.clear()
        if item is None or self.compared is None:
            self.jobs.cancel("detail")
            self.tree_a.set_value(None, "A's input", present=False)
            self.tree_b.set_value(None, "B's input", present=False)
            self.plot.clear()
            return
        changes = list(item.get("changes", []))
        words = [change_text(c, None) for c in changes]
        words += ["output: " + change_text(c, None) for c in item.get("outputChanges", [])]
        if item["a"] is None or item["b"] is None:
            words = [f"{item['call']} is made only in {'B' if item['a'] is None else 'A'}"]
        self.changes.addItems(words or ["the same input" + (" and output" if item["same"] else "")])
        compared = self.compared
        self.jobs.start("detail", lambda _job: call_detail(compared, item, changes), on_done=self._detail)

    def _detail(self, detail: CallDetail) -> None:
        self.tree_a.set_value(detail.a_input, "A's input" + _in(detail.units[0]), present=detail.a_present)
        self.tree_b.set_value(detail.b_input, "B's input" + _in(detail.units[1]), present=detail.b_present)
        self.plot.set_geometry(detail.a_shapes, detail.b_shapes, detail.marks, detail.unit, "A (dashed)", "B")

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 — Qt's hook
        self.jobs.shutdown()
        super().closeEvent(event)


def _in(unit: str | None) -> str:
    return f" ({unit})" if unit else ""


def _html(text: str) -> str:
    import html

    return html.escape(text)


def open_compare(window: Any, a: Path, b: Path, open_a: Session | None = None) -> CompareWindow:
    """Show A and B compared in a window of their own, kept by `window`; `open_a`: A as already loaded."""
    view = CompareWindow(a, b, parent=window, open_a=open_a)
    window.compare_views = [v for v in getattr(window, "compare_views", []) if v.isVisible()] + [view]
    view.show()
    return view


def choose_compare(window: Any) -> CompareWindow | None:
    """File ▸ Compare with…: the open session (or a chosen one) as A, a chosen file as B."""
    session = getattr(window.context, "session", None)
    start = str(window.settings.value("lastFolder", str(Path.home())))
    kinds = "Sessions (*.json *.jsonl *.ndjson *.gz);;All files (*)"
    a = getattr(session, "path", None)
    if a is None:
        chosen, _ = QFileDialog.getOpenFileName(window, "Compare: choose session A", start, kinds)
        if not chosen:
            return None
        a = Path(chosen)
    b, _ = QFileDialog.getOpenFileName(window, f"Compare {Path(a).name} with…", str(Path(a).parent), kinds)
    # The open session is A as loaded: reading its file again would double the wait for the compare.
    open_a = session if session is not None and getattr(session, "path", None) == a and session.unreadable is None else None
    return open_compare(window, Path(a), Path(b), open_a) if b else None
