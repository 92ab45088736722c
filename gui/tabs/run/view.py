"""The Run tab: edit a body, run it against the mock scene at the cursor, see what it did; replay all.

Runs go to the runner's guest process and come back through a queued signal, so the window never
waits on V8; Stop kills the guest. The result shows the status and duration, the error at its line
(marked in the editor), the returned value as a JSON tree, the keep verdict, the logs, the new calls
with where each output came from, and a timeline plot of the operations. "Replay all" re-runs every
recorded body at its own point and puts a badge on each in the timeline; its verdicts are the
Replay page (wsi_inspector.gui.tabs.run.replay_page).
"""
from __future__ import annotations

import functools
import html
import threading
from concurrent.futures import Future
from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QFontMetrics, QKeySequence, QShortcut, QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from wsi_inspector.core.edits.body_reads import body_evidence  # SPEC 7: reads and retyped values of each replay
from wsi_inspector.core.session.model import Body
from wsi_inspector.core.runner.envelope import build_envelope
from wsi_inspector.core.runner.host import Runner
from wsi_inspector.core.runner.replay import Verdict, replay_session
from wsi_inspector.core.runner.result import failure
from wsi_inspector.core.session.recorded_failure import RecordedFailure, recorded_failure
from wsi_inspector.core.runner.report import source_text
from wsi_inspector.core.session.timeline import first_code_line
from wsi_inspector.core.text.words import plural
from wsi_inspector.gui.window.keyboard import reading_order
from wsi_inspector.gui.tabs.run.reads_panel import ReadsPanel
from wsi_inspector.gui.widgets.body_choices import BodyBox, BodyChoices
from wsi_inspector.gui.widgets.body_choices import attach as attach_choices
from wsi_inspector.gui.widgets.code_editor import CodeEditor
from wsi_inspector.gui.widgets.elide import ids_in_the_middle
from wsi_inspector.gui.window.context import InspectorContext
from wsi_inspector.gui.background.jobs import Job, Jobs
from wsi_inspector.gui.widgets.json_tree import JsonTreeView
from wsi_inspector.gui.widgets.when_shown import WhenShown, in_front
from wsi_inspector.gui.window.look import fit_column, monospace
from wsi_inspector.gui.tabs.run.replay_page import ReplayPage, result_table
from wsi_inspector.gui.actions.reduce_panel import start_reduce
from wsi_inspector.gui.tabs.run.choice import RunChoice
from wsi_inspector.gui.tabs.run.models import CallsModel
from wsi_inspector.gui.window.services import WindowServices
from wsi_inspector.gui.window.theme import hex_of

OK_BRUSH = pg.mkBrush("#60a5fa")
FAILED_BRUSH = pg.mkBrush("#f87171")
CURSOR, CHOICE = 1, 2  # what a hidden tab owes (WhenShown's ranks): loading the chosen body shows the cursor's scope too
WATERFALL_ROWS = 16  # rows of the operations waterfall in view at once (more scroll)
WATERFALL_NAMED = 200  # calls named on the waterfall's axis (more: the hover names them)
WATERFALL_LABELLED = 200  # bars labelled with their time
WATERFALL_NAMES_MOST = 320  # px the waterfall's call names take at most
EDITED_MARK = "● "  # in the body chooser: this body's code was edited in this session
SIDE_BY_SIDE_CHARS = 130  # monospace characters: a narrower Run tab puts the results under the code (_arrange)


class _Bridge(QObject):
    """What the view announces once it has shown it (on the GUI thread): a run's result, a replay's end."""

    finished = Signal(object, object)  # (run number, result)
    replay_done = Signal(object)  # the list of verdicts


class RunView(QWidget):
    """Editor and Run/Stop on the left; the result of the last run, and replay verdicts, on the right."""

    def __init__(self, context: InspectorContext, parent: QWidget | None = None):
        super().__init__(parent)
        self.context = context
        self.choice: RunChoice = context.run  # the body, its edits, timeout: state the actions read too
        self.runner: Runner | None = None
        self.bridge = _Bridge(self)
        self.future: Future | None = None
        self.run_number = 0
        self.last_result: dict[str, Any] | None = None
        self.replaying = False
        self.services: WindowServices | None = None  # the window's, given by the window that holds the tab
        self._loading = False  # the editor is being filled, not edited
        # The cursor moved (or its body was chosen) while this tab was behind another in a shown window: the editor,
        # record and scope follow when the tab comes to the front (_catch_up), not on the move. A cursor move with
        # another tab in front put the body's code through the highlighter and its record into labels, trees and the
        # plot no one saw: a third of the move's work. (Its window unshown, in tests and headless use: at once.)
        self.when_shown = WhenShown(in_front(self))
        self._stop_replay = threading.Event()
        self.jobs = Jobs(self)  # the run and the replay (wsi_inspector.gui.background.jobs): a new session drops their answers
        self._build()
        context.session_changed.connect(self._session_changed)
        context.cursor_changed.connect(self._cursor_changed)
        context.state_grew.connect(self._cursor_changed)
        context.session_grew.connect(lambda _appended: self.body_choices.grow())  # a followed file's new bodies
        self.choice.chosen.connect(self._show_choice)
        self.choice.edited.connect(self._edit_marked)
        self._runners: list[Runner] = []  # shared with the closer below, which must not hold the view
        self.destroyed.connect(_closer(self._runners))
        self._session_changed()

    # --- building -----------------------------------------------------------------------------------
    def _build(self) -> None:
        self.body_combo = BodyBox(self)
        self.body_combo.setObjectName("bodyChooser")
        # Rows made as they are shown, not an item per body (wsi_inspector.gui.widgets.body_choices); long
        # first lines are elided, the full list drops down wide.
        self.body_choices = BodyChoices(self._body_label, before=[("(new body)", None)], tip=self._body_tip, parent=self)
        attach_choices(self.body_combo, self.body_choices, 18)
        self.body_combo.view().setTextElideMode(Qt.TextElideMode.ElideRight)
        self.body_combo.activated.connect(self._load_chosen_body)
        self.lang_combo = QComboBox(self)
        self.lang_combo.setObjectName("langChooser")
        self.lang_combo.addItem("JavaScript", "js")
        self.lang_combo.addItem("TypeScript", "ts")
        self.lang_combo.currentIndexChanged.connect(self._lang_changed)
        self.run_button = QPushButton("▶ Run at cursor", self)
        self.run_button.setObjectName("runButton")
        self.run_button.setToolTip("Run the body against the mock scene, with the state at the cursor (Ctrl+Enter)")
        self.run_button.clicked.connect(self.run_body)
        self.stop_button = QPushButton("■ Stop", self)
        self.stop_button.setObjectName("stopButton")
        self.stop_button.setEnabled(False)
        self.stop_button.clicked.connect(self.stop)
        self.replay_button = QPushButton("Replay all", self)
        self.replay_button.setObjectName("replayButton")
        self.replay_button.setToolTip("Re-run every recorded body at its own point and compare it with the record")
        self.replay_button.clicked.connect(self.replay_all)
        self.reduce_button = QPushButton("Reduce…", self)
        self.reduce_button.setObjectName("reduceButton")
        self.reduce_button.setToolTip("Shrink the session to what the failure of the body at the cursor (the editor's code) needs")
        self.reduce_button.clicked.connect(self.reduce_body)
        self.timeout_box = QDoubleSpinBox(self)
        self.timeout_box.setObjectName("timeoutBox")
        self.timeout_box.setRange(0.1, 600)
        self.timeout_box.setValue(self.choice.timeout_s)
        self.timeout_box.valueChanged.connect(lambda value: setattr(self.choice, "timeout_s", float(value)))
        self.timeout_box.setSuffix(" s")
        self.timeout_box.setToolTip("Stop the body after this many seconds")
        self.deterministic_box = QCheckBox("fixed random and time", self)
        self.deterministic_box.setObjectName("deterministicBox")
        self.deterministic_box.setChecked(self.choice.deterministic)
        self.deterministic_box.toggled.connect(lambda on: setattr(self.choice, "deterministic", bool(on)))
        self.deterministic_box.setToolTip("Math.random seeded and Date fixed to the body's recorded time, so a replay is reproducible")
        self.revert_button = QPushButton("Revert", self)
        self.revert_button.setObjectName("revertButton")
        self.revert_button.setToolTip("Put the body's recorded code back in the editor (its edit is dropped)")
        self.revert_button.setEnabled(False)
        self.revert_button.clicked.connect(self.revert)
        # Two rows, so the tab fits a 1024-pixel window beside the timeline.
        chooser = QHBoxLayout()
        chooser.addWidget(QLabel("Body:", self))
        chooser.addWidget(self.body_combo, 1)
        chooser.addWidget(self.lang_combo)
        chooser.addWidget(self.revert_button)
        chooser.addSpacing(10)
        chooser.addWidget(QLabel("timeout", self))
        chooser.addWidget(self.timeout_box)
        actions = QHBoxLayout()
        actions.addWidget(self.run_button)
        actions.addWidget(self.stop_button)
        actions.addWidget(self.replay_button)
        actions.addWidget(self.reduce_button)
        actions.addStretch(1)
        actions.addWidget(self.deterministic_box)

        self.editor = CodeEditor(self)
        self.editor.setObjectName("bodyEditor")
        self.editor.textChanged.connect(self._note_edit)
        self.scope_label = QLabel(self)
        self.scope_label.setObjectName("scopeLabel")
        self.scope_label.setWordWrap(True)
        left = QWidget(self)
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addWidget(self.scope_label)
        left_layout.addWidget(self.editor, 1)

        self.status_label = QLabel("Not run yet.", self)
        self.status_label.setObjectName("runStatus")
        self.status_label.setWordWrap(True)
        self.status_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.error_label = QLabel(self)
        self.error_label.setObjectName("runError")
        self.error_label.setWordWrap(True)
        self.error_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.LinksAccessibleByMouse)
        self.error_label.linkActivated.connect(self._go_to_link)
        self.error_label.hide()
        self.keep_label = QLabel(self)
        self.keep_label.setObjectName("keepVerdict")
        self.keep_label.setWordWrap(True)
        self.keep_label.hide()
        self.returned_tree = JsonTreeView(self)
        self.returned_tree.setObjectName("returnedTree")
        self.logs_text = QPlainTextEdit(self)
        self.logs_text.setObjectName("runLogs")
        self.logs_text.setReadOnly(True)
        self.logs_text.setFont(monospace())
        self.calls_model = CallsModel(self)
        self.calls_table = result_table(self.calls_model, "runCalls")
        for column, width in enumerate((56, 230, 44, 150)):
            self.calls_table.setColumnWidth(column, width)
        ids_in_the_middle(self.calls_table, 0, 1)  # ids and calls cut in the middle if ever; where from and the outcome at their end
        self.calls_table.doubleClicked.connect(lambda index: self._call_activated(index.row()))
        self.plot = pg.PlotWidget(self, background=hex_of("plot_background"))
        self.plot.setObjectName("operationsPlot")
        self.plot.setLabel("bottom", "ms since the run started")
        self.plot.getAxis("bottom").setToolTip("starts as the guest's clock gives them, to the ms; hover a bar for its exact figures")
        self.plot.scene().sigMouseMoved.connect(self._hover_operation)
        self.operations: list[dict[str, Any]] = []
        self._op_labels: list[Any] = []  # the waterfall's time labels
        self.plot.showGrid(x=True, y=False, alpha=0.2)
        self.plot.setMouseEnabled(y=True)  # a long waterfall scrolls; its rows keep their height
        self.plot.getViewBox().invertY(True)  # the first call on top
        self.bars = pg.BarGraphItem(x0=[], y=[], height=0.7, width=[], brushes=[])
        self.plot.addItem(self.bars)
        self.replay_page = ReplayPage(self)
        self.replay_page.body_activated.connect(self._replay_activated)
        self.replay_page.entry_link.connect(self._go_to_recorded)
        self.result_tabs = QTabWidget(self)
        self.result_tabs.setObjectName("resultTabs")
        self.result_tabs.addTab(self.returned_tree, "Returned")
        self.result_tabs.addTab(self.logs_text, "Logs")
        self.result_tabs.addTab(self.calls_table, "Calls")
        self.result_tabs.addTab(self.plot, "Operations")
        self.result_tabs.addTab(self.replay_page, "Replay")
        # SPEC 7: what the body read (gui/tabs/run/reads_panel.py), each read a link to its line in the editor.
        self.reads_panel = ReadsPanel(lambda key: (self.context.evidence.get(key) or {}).get("reads"), self._ensure_runner,
                                      self.context.badges_changed.emit, self)  # learned reads: the views mark them anew
        self.reads_panel.line_chosen.connect(self.editor.go_to)
        self.result_tabs.addTab(self.reads_panel, "Reads")
        right = QWidget(self)
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addWidget(self.status_label)
        right_layout.addWidget(self.error_label)
        right_layout.addWidget(self.keep_label)
        right_layout.addWidget(self.result_tabs, 1)
        self._results_pane = right
        self._titles_in_view()

        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.setObjectName("runSplitter")
        self.splitter.addWidget(left)
        self.splitter.addWidget(right)
        self.splitter.setSizes([620, 560])  # the shares until it has its width (`_arrange`)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(chooser)
        layout.addLayout(actions)
        layout.addWidget(self.splitter, 1)
        reading_order(self.body_combo, self.lang_combo, self.revert_button, self.timeout_box, self.run_button,
                      self.stop_button, self.replay_button, self.reduce_button, self.deterministic_box, self.editor)
        shortcut = QShortcut(QKeySequence("Ctrl+Return"), self)
        shortcut.activated.connect(self.run_body)

    def _lang_changed(self, _index: int) -> None:
        self.editor.set_lang(self.lang)
        self._note_edit()

    @property
    def lang(self) -> str:
        return str(self.lang_combo.currentData())

    # --- following the context ----------------------------------------------------------------------
    def _session_changed(self) -> None:
        if self.jobs.busy():  # a run or replay of the session before: its answers are not this one's
            self.jobs.cancel_all()
            if self.replaying:
                self.runner = None  # the replay's cancel closed it
            self.future, self.replaying = None, False
            self._set_busy(False)
        session = self.context.session
        self._mark_new_body()
        self.body_choices.set_session(session)
        self.replay_page.clear()
        self.run_button.setEnabled(session is not None)
        self.replay_button.setEnabled(session is not None and bool(session.bodies))
        self._show_choice()

    def _catch_up(self) -> None:
        """Show what the cursor's moves while the tab was behind changed: the chosen body, or only the scope.
        Done whether or not the tab is in front now: a result arriving behind it shows after the move it
        follows, and is not put back under it when the tab is shown."""
        self.when_shown.catch_up()

    def _cursor_changed(self) -> None:
        self.when_shown.owe(self._follow_cursor, CURSOR)

    def _follow_cursor(self) -> None:
        """The scope line and the cursor body's reads."""
        session = self.context.session
        if session is None:
            self.scope_label.setText("No session open: open one to run bodies against its mock scene.")
            return
        state = self.context.state
        self.scope_label.setText(
            f"{self._what_runs_where()}: <tt>inputs</tt> over {plural(len(state.store), 'entry', 'entries')}, "
            f"<tt>kept</tt> with {len(state.kept)} name{'s' if len(state.kept) != 1 else ''}"
            + (f" (the store is trimmed to caps.storeBytes {session.caps.store_bytes:,})" if session.caps.store_bytes is not None else ""))
        self.reads_panel.show_body(session, session.body(self.context.cursor))  # SPEC 7: the cursor body's reads

    def _what_runs_where(self) -> str:
        """Which code runs where, in words; said plainly when the editor's body is not the cursor's."""
        key, cursor = self.choice.key, self.context.cursor
        if self.choice.at_own_point(cursor):
            return f"Body <b>{html.escape(str(key))}</b> runs at its own point"
        what = "A new body" if key is None else f"Body <b>{html.escape(key)}</b>'s code (not at its own point)"
        return f"{what} runs {html.escape(self.context.cursor_text)}"

    def _show_recorded(self) -> None:
        """Before a run, the result side shows the chosen body's recorded outcome: its error at its line, its logs."""
        body = self.choice.body()
        self.last_result = None
        self.editor.clear_marks()
        self.keep_label.hide()
        self.calls_model.set_calls([])
        self._show_operations([])
        record = body.result if body is not None and isinstance(body.result, dict) else None
        if record is None:
            self.status_label.setText("Not run yet." if body is None else f"Not run yet; body {html.escape(body.key)} has no recorded result.")
            self._show_error(None)
            self._show_returned(None, "nothing recorded yet")
            self.logs_text.setPlainText("")
            return
        session = self.context.session
        error = recorded_failure(session, body) if session is not None else None  # type: ignore[arg-type]
        logs = [str(line) for line in record.get("logs") or []]
        mark = (f"<b style='color:{hex_of('error')}'>✗ failed</b>" if error is not None
                else f"<b style='color:{hex_of('ok')}'>✓ ok</b>")
        self.status_label.setText(f"Recorded: {mark} · {plural(len(logs), 'log line', 'log lines')} · "
                                  f"body {html.escape(body.key)} as the session holds it; ▶ Run to run it here")  # type: ignore[union-attr]
        self._show_error(error, "recorded")
        self._show_returned(record, "the body failed before it returned" if error is not None else "the record holds none")
        self.logs_text.setPlainText("\n".join(logs))
        if error is not None:
            self.result_tabs.setCurrentWidget(self.logs_text if logs else self.returned_tree)

    @property
    def loaded_body(self) -> Body | None:
        """The recorded body in the editor (None: a new body)."""
        return self.choice.body()

    def load_body(self, body: Body) -> None:
        """Show a recorded body: the cursor moves to it, and the editor follows the cursor."""
        self.context.set_cursor(body.id)

    def _show_choice(self) -> None:
        """The choice changed (another body, a revert, a new session): the chooser and editor show it."""
        self.when_shown.owe(self._load_choice, CHOICE)  # the scope line too

    def _load_choice(self) -> None:
        index = self.body_choices.row_of(self.choice.key)
        if index >= 0:
            self.body_combo.setCurrentIndex(index)
        self._put_code(*self.choice.code())
        self._show_recorded()
        self._follow_cursor()

    def _put_code(self, code: str, lang: str) -> None:
        self._loading = True
        try:
            self.lang_combo.setCurrentIndex(1 if lang == "ts" else 0)
            self.editor.set_code(code, lang)
        finally:
            self._loading = False
        self.revert_button.setEnabled(self.choice.is_edited())

    def _load_chosen_body(self, index: int) -> None:
        session = self.context.session
        key = self.body_combo.itemData(index)
        if session is None:
            return
        if key is None:
            self.choice.choose(None)  # the cursor stays: the scope line says where the new body runs
            return
        body = session.body(key)
        if body is not None:
            self.context.set_cursor(body.id)  # run it where it ran: the editor follows the cursor

    # --- edits kept for the session -----------------------------------------------------------------
    @property
    def edits(self) -> dict[str | None, tuple[str, str]]:
        """Edits per body key (None: the new body), held by the context's run choice."""
        return self.choice.edits

    def _note_edit(self) -> None:
        """The person typed: the choice keeps the code as the body's edit when it differs from the record."""
        if self._loading:
            return
        self.choice.set_code(self.editor.toPlainText(), self.lang)
        self.revert_button.setEnabled(self.choice.is_edited())

    def _edit_marked(self, key: str | None) -> None:
        self._mark_new_body()
        self.body_choices.relabel(key)

    def _mark_new_body(self) -> None:
        """The new body's row (a fixed one, not a body's): marked when its code was edited here."""
        self.body_choices.before = [(f"{EDITED_MARK}(new body)" if None in self.choice.edits else "(new body)", None)]

    def _body_label(self, body: Body) -> str:
        """A body's line in the chooser: its id and first line, marked when its code was edited here."""
        text = f"{body.id} · {first_code_line(body.code, 60)}"
        return f"{EDITED_MARK}{text}" if self.choice.is_edited(body.key) else text

    def _body_tip(self, body: Body) -> str:
        text = f"{body.id} · {first_code_line(body.code, 60)}"
        return f"{text}\nedited in this session: Revert puts the recorded code back" if self.choice.is_edited(body.key) else text

    def revert(self) -> None:
        """Put the recorded code of the body in the editor back, dropping its edit."""
        self.choice.revert()

    # --- running ------------------------------------------------------------------------------------
    def _ensure_runner(self) -> Runner:
        if self.runner is None:
            self.runner = Runner(size=1, typescript=True)  # the stripper starts beside the guest, off the GUI thread
            self._runners.append(self.runner)
        return self.runner

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 — Qt's hook
        super().resizeEvent(event)
        self._arrange()

    def _arrange(self) -> None:
        """The results beside the code, or under it when the tab is narrower than SIDE_BY_SIDE_CHARS: at 1024 px
        the results' tabs (whole titles) left the code 200 px, a third of a line, and cut the reads beside it.
        Only the width decides, so choosing another body never flips the layout."""
        narrow = self.width() < QFontMetrics(monospace()).horizontalAdvance("0" * SIDE_BY_SIDE_CHARS)
        wanted = Qt.Orientation.Vertical if narrow else Qt.Orientation.Horizontal
        if self.splitter.orientation() == wanted:
            return
        self.splitter.setOrientation(wanted)
        room = self.splitter.height() if narrow else self.splitter.width()
        code = room * 2 // 5 if narrow else room * 11 // 20
        self.splitter.setSizes([code, room - code])

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 — Qt's hook
        super().showEvent(event)
        self._catch_up()
        self._titles_in_view()  # polished now: the titles in the style's font
        if self.context.session is not None:
            self._ensure_runner()  # warm a guest while the person reads the body

    def run_body(self) -> None:
        """Run the editor's body at the cursor; the result arrives later, the window stays live."""
        self._catch_up()  # the editor holds the cursor's body (Ctrl+Return with another tab in front)
        session = self.context.session
        if session is None or self.future is not None or self.replaying:
            return
        body_id = None
        if self.choice.at_own_point(self.context.cursor):
            body_id = self.context.cursor  # the recorded body at its own point: its time and its own records
        # Made on the runner's thread (the store's texts grow with the session: 20 ms for 5,000 entries); what it
        # refuses comes back as the run's result (an EnvelopeError).
        make = functools.partial(build_envelope, session, self.editor.toPlainText(), self.lang, at=self.context.cursor,
                                 options=self._options(), body_id=body_id)
        self.run_number += 1
        number = self.run_number
        self.editor.clear_marks()
        self.status_label.setText(f"Running {html.escape(self.context.cursor_text)} …")
        self._set_busy(True)
        runner = self._ensure_runner()
        future = self.future = runner.submit(make)

        def wait(job: Job) -> dict[str, Any]:
            job.on_cancel(lambda: runner.stop(future))
            return future.result()

        self.jobs.start("run", wait, on_done=lambda result: self._finished(number, result),
                        on_failed=lambda exc: self._finished(number, failure("InternalError", f"{type(exc).__name__}: {exc}")))

    def _options(self) -> dict[str, Any]:
        return {"timeout_s": self.choice.timeout_s, "deterministic": self.choice.deterministic}

    def stop(self) -> None:
        """Stop the running body (its guest is killed) or the replay after the body it is on."""
        if self.future is not None and self.runner is not None:
            self.runner.stop(self.future)
        if self.replaying:
            self._stop_replay.set()
            self.status_label.setText("Stopping the replay after the body it is on …")

    def _set_busy(self, busy: bool) -> None:
        self.run_button.setEnabled(not busy and self.context.session is not None)
        self.replay_button.setEnabled(not busy and self.context.session is not None)
        self.stop_button.setEnabled(busy)

    def _finished(self, number: int, result: dict[str, Any]) -> None:
        if number != self.run_number:
            return
        self.future = None
        self._set_busy(False)
        self.show_result(result)
        self.bridge.finished.emit(number, result)

    def show_result(self, result: dict[str, Any]) -> None:
        """Show a result document (SPEC 5) in every part of the view."""
        self._catch_up()
        self.reads_panel.show_run(result)  # SPEC 7: what this run read
        self.last_result = result
        ok = result["ok"]
        mark = f"<b style='color:{hex_of('ok')}'>✓ ok</b>" if ok else f"<b style='color:{hex_of('error')}'>✗ failed</b>"
        calls = result.get("calls", [])
        self.status_label.setText(f"{mark} in {result['durationMs']:,.1f} ms · {len(calls)} call{'s' if len(calls) != 1 else ''} · "
                                  f"{len(result.get('logs', []))} log line{'s' if len(result.get('logs', [])) != 1 else ''} · "
                                  f"{html.escape(self.context.cursor_text)}")
        self._show_error(result.get("error"))
        self._show_keep(result)
        self._show_returned(result, "the body failed before it returned" if not ok else "the run returned nothing")
        self.logs_text.setPlainText("\n".join(result.get("logs", [])))
        self._show_calls(calls)
        self._show_operations(result.get("operations", []), float(result.get("durationMs") or 0))
        if not ok and "line" not in result.get("error", {}):
            self.result_tabs.setCurrentWidget(self.logs_text if result.get("logs") else self.calls_table)
        else:
            self.result_tabs.setCurrentWidget(self.returned_tree if ok else (self.calls_table if calls else self.logs_text))

    def _show_returned(self, holder: dict[str, Any] | None, why_none: str) -> None:
        """The returned value in its tab; with none, the tab's title says so and its tooltip why (an empty
        tree headed "key value type" beside "✗ failed" said nothing)."""
        index = self.result_tabs.indexOf(self.returned_tree)
        if holder is not None and "returned" in holder:
            self.returned_tree.set_value(holder["returned"], "returned")
            self.result_tabs.setTabText(index, "Returned")
            self.result_tabs.setTabToolTip(index, "the value the body returned")
        else:
            self.returned_tree.set_value(None, "returned", present=False)
            self.result_tabs.setTabText(index, "Returned (none)")
            self.result_tabs.setTabToolTip(index, f"no value returned: {why_none}")
        self._titles_in_view()

    def _titles_in_view(self) -> None:
        """Every result tab's title whole and in view, never behind scroll arrows: the results' pane is at least
        as wide as the tab bar wants, measured again when a title changes ("Returned (none)") and once the style
        has its font; the code beside it gives the room (it scrolls sideways, as an editor does)."""
        self._results_pane.setMinimumWidth(self.result_tabs.tabBar().sizeHint().width() + 8)

    def _show_error(self, error: RecordedFailure | None, which: str = "") -> None:
        """The error (a run's, or `which`="recorded" for the record's) under the status, and at its line in the editor."""
        if not error:
            self.error_label.hide()
            return
        head = f"{which} error: " if which else ""
        message = f"{error['name']}: {error['message']}"
        text = html.escape(head + message) + (" (the record gives no line)" if which and "line" not in error else "")
        if "line" in error:
            link = f"{error['line']}:{error.get('column', 1)}"
            text = html.escape(head) + f"<a href='{link}'>line {link}</a> · " + html.escape(message)
            if error.get("lineFrom") == "call":
                text += html.escape(f" (the line of the call that got no answer, {error['entry']} {error['call']}: the record gives none)")
            self.editor.mark_line(int(error["line"]), "error", message, error.get("column"))
        self.error_label.setText(f"<span style='color:{hex_of('error')}'>{text}</span>")
        self.error_label.show()

    def _show_keep(self, result: dict[str, Any]) -> None:
        error = result.get("error") or {}
        if error.get("name") == "InvalidKeepError":
            self.keep_label.setText(f"<b>keep refused</b>: {html.escape(error['message'])}")
            self.keep_label.setStyleSheet(f"color: {hex_of('keep_refused')};")
        elif result.get("keep"):
            names = ", ".join(f"<tt>{html.escape(k['name'])}</tt> ({k['bytes']:,} B)" for k in result["keep"])
            self.keep_label.setText(f"<b>keep accepted</b>: {names}")
            self.keep_label.setStyleSheet(f"color: {hex_of('kept_ok')};")
        else:
            self.keep_label.hide()
            return
        self.keep_label.show()

    def _show_calls(self, calls: list[dict[str, Any]]) -> None:
        self.calls_model.set_calls(calls)
        for call in calls:
            if "error" in call and call.get("line"):
                self.editor.mark_line(int(call["line"]), "warning", f"{call['call']}: {call['error']}")
        # Identity columns sized to what they hold, so "outcome" (the last, stretched) stays in view.
        room = max(self.result_tabs.width() - 24, 300)  # the table itself may be hidden behind another result tab
        fit_column(self.calls_table, 0, (str(c["id"]) for c in calls), most=120)
        # Calls are ids: whole up to 42 % of the table ("mep.ri…risers" at 1024 px under 30 %); where the output
        # came from is prose, cut at its end past 18 %; the outcome keeps the rest.
        fit_column(self.calls_table, 1, {c["call"] for c in calls}, most=max(96, int(room * 0.42)))
        fit_column(self.calls_table, 2, (str(c.get("line", "")) for c in calls), most=60)
        fit_column(self.calls_table, 3, {source_text(c.get("source")) for c in calls}, most=max(76, int(room * 0.18)))

    def _hover_operation(self, position: Any) -> None:
        """The bar under the pointer: its call, start, duration and outcome, with the runner's exact figures."""
        if not self.operations or not self.plot.sceneBoundingRect().contains(position):
            return
        point = self.plot.getViewBox().mapSceneToView(position)
        row = round(point.y())
        text = ""
        if 0 <= row < len(self.operations):
            op = self.operations[row]
            if op["startMs"] - 0.5 <= point.x() <= op["startMs"] + max(op["durationMs"], 0.05) + 0.5:
                text = operation_text(op)
        self.plot.setToolTip(text)

    _showing_none = False  # the waterfall shows no operations: a cursor move (nothing run yet) redraws nothing

    def _show_operations(self, operations: list[dict[str, Any]], duration_ms: float = 0.0) -> None:
        """A waterfall: one fixed-height row per call, first on top, on an axis from 0 to the run's end, each labelled."""
        none = not operations and not duration_ms
        if none and self._showing_none:
            return  # every cursor move clears it, the tab mostly hidden: its plot's title, bars and axes were redone each time
        self._showing_none = none
        self.operations = operations
        count = len(operations)
        for label in self._op_labels:
            self.plot.removeItem(label)
        self._op_labels = []
        self.bars.setOpts(
            x0=[op["startMs"] for op in operations],
            width=[max(op["durationMs"], 0.05) for op in operations],
            y=list(range(count)),
            height=0.7,
            brushes=[OK_BRUSH if op["ok"] else FAILED_BRUSH for op in operations],
        )
        names = [op["call"] for op in operations]
        axis = self.plot.getAxis("left")
        axis.setTicks([[(i, name) for i, name in enumerate(names)] if count <= WATERFALL_NAMED else []])
        # The names whole (ids and calls are never elided), up to a third of the plot; the hover has them too.
        metrics = QFontMetrics(axis.style.get("tickFont") or self.plot.font())
        widest = max((metrics.horizontalAdvance(name) for name in names[:WATERFALL_NAMED]), default=40)
        axis.setWidth(min(widest + 24, WATERFALL_NAMES_MOST))  # the plot may be hidden now: its width says nothing
        end = max([duration_ms] + [op["startMs"] + op["durationMs"] for op in operations] + [0.001])
        for row, op in enumerate(operations[:WATERFALL_LABELLED]):  # each call's time beside its bar
            label = pg.TextItem(f"{op['durationMs']:g} ms", color=hex_of("plot_text"), anchor=(0, 0.5))
            label.setPos(op["startMs"] + max(op["durationMs"], 0.05), row)
            self.plot.addItem(label)
            self._op_labels.append(label)
        self.plot.setTitle(f"{plural(count, 'operation', 'operations')} in {end:g} ms" if count else "no module calls")
        self.plot.disableAutoRange()
        self.plot.setXRange(0, end * 1.25, padding=0)  # from the run's start; room on the right for the last label
        self.plot.setYRange(-0.6, min(max(count, WATERFALL_ROWS // 2), WATERFALL_ROWS) - 0.4, padding=0)  # rows of one height

    def _call_activated(self, row: int) -> None:
        calls = (self.last_result or {}).get("calls", [])
        if 0 <= row < len(calls) and calls[row].get("line"):
            self.editor.go_to(int(calls[row]["line"]))

    def _go_to_link(self, link: str) -> None:
        line, _, column = link.partition(":")
        self.editor.go_to(int(line), int(column or 1))
        self.editor.setFocus()

    def reduce_body(self) -> Any:
        """Reduce the session to what the failure of the body at the cursor needs (wsi_inspector.gui.actions.reduce_panel)."""
        self._catch_up()
        panel = start_reduce(self.context, self.services, self)
        if panel is None and self.context.cursor is None:
            self.status_label.setText("<b>Reduce</b> needs a body: move the cursor to the body whose failure to reduce.")
        elif panel is None:
            self.status_label.setText(f"<b>Reduce</b> needs a recorded body in the editor: it holds a new body, "
                                      f"which runs {html.escape(self.context.cursor_text)}; choose that body to reduce it.")
        return panel

    # --- replay -------------------------------------------------------------------------------------
    def replay_all(self) -> None:
        """Re-run every recorded body on a worker thread; verdicts and badges arrive one by one."""
        session = self.context.session
        if session is None or self.replaying or self.future is not None:
            return
        self.replaying = True
        self._stop_replay.clear()
        self.replay_page.clear(b.key for b in session.bodies)
        self._show_error(None)  # the last run's error and keep verdict are not the replay's
        self.keep_label.hide()
        self.editor.clear_marks()
        self.context.set_badges({})
        self._badges: dict[str, str] = {}
        self._evidence: dict[str, dict[str, Any]] = {}  # SPEC 7: each replay's reads and retyped values
        self._set_busy(True)
        self.result_tabs.setCurrentWidget(self.replay_page)
        self.status_label.setText(f"Replaying {plural(len(session.bodies), 'body', 'bodies')} …")
        runner = self._ensure_runner()
        options = self._options()
        stop = self._stop_replay

        def work(job: Job) -> list[Verdict]:
            job.on_cancel(lambda: runner.close())  # the body running now is killed, not waited for
            return replay_session(session, runner, options, on_body=lambda v, r: job.report((v, r, body_evidence(session, v["body"], r))),
                                  should_stop=lambda: stop.is_set() or job.cancelled)

        self.jobs.start("replay", work, on_report=lambda news: self._verdict(*news), on_done=self._replay_done,
                        on_failed=lambda exc: self._replay_done([]))

    def _verdict(self, verdict: Verdict, result: dict[str, Any], evidence: dict[str, Any]) -> None:
        self._badges[str(verdict["body"])] = self.replay_page.add(verdict, result)
        self._evidence[str(verdict["body"])] = evidence
        self.context.set_badges(dict(self._badges), dict(self._evidence))

    @property
    def verdicts(self) -> list[Verdict]:
        """The replay's verdicts so far, one per row of the replay table."""
        return self.replay_page.verdicts

    def _go_to_recorded(self, entry_id: str) -> None:
        """Choose the recorded entry a link names: the cursor moves to it and the Inputs tab shows it."""
        session = self.context.session
        entry = session.entry(entry_id) if session is not None else None
        if entry is None:
            return
        self.context.choose_entry(entry)
        window = self.window()
        inputs = getattr(window, "views", {}).get("inputs")
        if inputs is not None and hasattr(window, "show_tab"):
            inputs.show_recorded_output()
            window.show_tab("inputs")

    def _replay_done(self, verdicts: list[Verdict]) -> None:
        self._catch_up()
        self.replaying = False
        self._set_busy(False)
        same = sum(1 for v in verdicts if v["same"])
        verdict_colour = hex_of("ok") if same == len(verdicts) else hex_of("error")
        self.status_label.setText(f"<b style='color:{verdict_colour}'>Replay: {same} of {plural(len(verdicts), 'body', 'bodies')} the same</b>"
                                  + (" (stopped)" if self._stop_replay.is_set() else ""))
        self.bridge.replay_done.emit(verdicts)

    def _replay_activated(self, body_id: Any) -> None:
        session = self.context.session
        body = session.body(body_id) if session is not None else None
        if body is not None:
            self.context.set_cursor(body.id)


def operation_text(op: dict[str, Any]) -> str:
    """One operation in words: `mep.risers.risers: started at 12 ms, took 3.259 ms, ok`."""
    outcome = "ok" if op["ok"] else f"failed: {op.get('message', '')}"
    return f"{op['call']}: started at {op['startMs']:g} ms, took {op['durationMs']:g} ms, {outcome}"


def _closer(runners: list[Runner]) -> Any:
    def close(*_args: Any) -> None:
        while runners:
            runners.pop().close()
    return close
