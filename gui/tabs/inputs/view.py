"""The Inputs tab: the manifest at the cursor, a callMatches filter, a value search, the chosen
entry's recorded input, output and other fields as JSON trees, and the resolver line (what
`inputs.last(x)` / `inputs.at(id)` returns to a body here, in the store trimmed to the session's cap).

Entries that fall at the session's `caps.storeBytes` at the cursor are greyed, with "⤓ falls" in
the "at cap" column: the editor trims them before a body runs (SPEC 5)."""
from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import QEvent, QItemSelectionModel, QMetaObject, QModelIndex, QStringListModel, Qt, QTimer
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCompleter,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QSplitter,
    QStyle,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from wsi_inspector.core.search.filtering import FilterSpec, filter_hint, matches_in
from wsi_inspector.core.session.model import NO_OUTPUT, Entry
from wsi_inspector.core.search.resolve import Resolution, resolve, where_text
from wsi_inspector.core.trim.preview import TrimPreview
from wsi_inspector.core.text.words import plural
from wsi_inspector.core.jsrules.sizes import format_size
from wsi_inspector.gui.window.context import InspectorContext
from wsi_inspector.gui.background.jobs import Jobs
from wsi_inspector.gui.background.session_facts import longest_entry_id
from wsi_inspector.gui.widgets.elide import ids_in_the_middle
from wsi_inspector.gui.widgets.json_tree import JsonTreeView
from wsi_inspector.gui.window.look import HIGHLIGHT, PERSON, READ_BACKGROUND, READ_MARK, CELL_PADDING, PERSON_MARK, fit_column, header_apart, monospace, share_width
from wsi_inspector.gui.tabs.inputs.models import APPLIED, ManifestModel, trim_preview_of
from wsi_inspector.gui.widgets.quiet_label import QuietLabel
from wsi_inspector.gui.widgets.still_rows import StillRowsTable
from wsi_inspector.gui.tabs.inputs.recorded_outcome import RecordedOutcome
from wsi_inspector.gui.tabs.inputs.read_marks import ReadMarks
from wsi_inspector.gui.window.theme import hex_of

FILTER_DELAY_MS = 120
# The least a call column gets when even the room taken from the entry's pane is not enough for it whole (a
# call of some 40 characters at 1024 px): the bytes column stays in view, the call is cut in the middle.
CALL_LEAST = 150
DETAIL_KEEPS = 24  # monospace characters of width the entry's pane keeps when the table takes room for whole calls
BACKGROUND_QUERY = 20_000  # entries: a filter, search or sort over more runs off the GUI thread
SEARCH_DELAY_MS = 250
MATCH_LIMIT = 10_000  # matches marked in one input (matches_in's default bound)


def widest_sizes(most: int) -> list[str]:
    """The widest texts `format_size` gives for sizes up to `most` bytes: the bytes column's width
    (an entry's size bounds its input's; the inputs themselves are not all measured on open)."""
    return [format_size(min(most, bound)) for bound in (1023, 1024 ** 2 - 52, 1024 ** 3 - 52 * 1024, most)]


class InputsView(QWidget):
    """The store at the cursor as a sortable table, filtered in core, with the resolver above it."""

    def __init__(self, context: InspectorContext, parent: QWidget | None = None):
        super().__init__(parent)
        self.context = context
        self.model = ManifestModel(self)
        self.filter_edit = _line("call or module, e.g. pack.corridorRuns (callMatches)", "inputsFilter")
        self.search_edit = _line("find text inside input values", "inputsSearch")
        self.resolver_edit = _line('inputs.last("pack.corridorRuns")  or  inputs.at("c4")', "inputsResolver")
        self.count_label = QuietLabel(self)  # its count changes on every line a followed file appends
        self.count_label.keep_widest()  # and its words on every cursor move (at the end / at body b2)
        self.match_label = QLabel(self)
        self.match_label.setObjectName("searchMatches")
        self.match_label.setToolTip("Enter: the next match, Shift+Enter: the previous one (on to the next entry that holds it)")
        self.matches: list[str] = []  # JSON Pointers of the search's matches in the shown input
        self.match_index = -1
        self.hint_label = QLabel(self)
        self.hint_label.setObjectName("inputsHint")
        self.hint_label.setStyleSheet(f"color: {hex_of('warning')};")
        self.resolver_label = QLabel(self)
        self.resolver_label.setObjectName("resolverResult")
        self.resolver_label.setWordWrap(True)
        self.resolver_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.table = StillRowsTable(self)  # a cursor move's rows come and go below those shown: not repainted for it
        self.table.setObjectName("inputsTable")
        self.table.setModel(self.model)
        ids_in_the_middle(self.table, 0, 1)  # ids and calls, if ever cut, in the middle; shapes (prose) at their end
        self.read_marks = ReadMarks(self.model, context)  # SPEC 7: a mark beside what the cursor's body read
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(-1, Qt.SortOrder.AscendingOrder)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setAlternatingRowColors(True)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(22)
        header = header_apart(self.table)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        for column, width in enumerate((64, 220, 40, 70, 150, 70, 70)):
            self.table.setColumnWidth(column, width)
        header.setSectionResizeMode(4, QHeaderView.ResizeMode.Stretch)  # shape takes what is left; bytes stays in view
        # The read mark beside the ✎ mark (both marks of a row together); shown once the cursor's body's reads are known.
        header.moveSection(header.visualIndex(self.model.READ_COLUMN), header.visualIndex(APPLIED) + 1)
        self.table.setColumnHidden(self.model.READ_COLUMN, True)
        self.call_width = 220  # what the calls need whole; a narrow table gives them part of it (share_width)
        self.table.installEventFilter(self)
        self.table.viewport().installEventFilter(self)  # its width: a vertical scroll bar takes some (share_width)
        self.entry_label = QuietLabel(self, wrap=True)  # another entry on most cursor moves: laid out only when it needs another height
        self.entry_label.keep_tallest()  # and the tree under it stays where it is when the next title takes a line less
        self.entry_label.setObjectName("inputsEntryTitle")
        self.entry_label.setText("Choose an entry to see its input.")
        self.tree = JsonTreeView(self)
        self.tree.setObjectName("inputsJson")
        self._match_set: set[str] = set()
        self._matched: tuple[int, str] | None = None  # (id of the entry, text) the matches were found for
        self._counts: tuple[str, Any, list[int]] | None = None  # (text, rows, matches per row): the count over all entries
        self._read_paths: dict[str, str] = {}  # the paths the cursor's body read in the shown input → "read by b7 at line 3"
        self.tree.json_model.set_annotations(
            colour=lambda pointer, _value: HIGHLIGHT if pointer in self._match_set
            else READ_BACKGROUND if pointer in self._read_paths else None,
            tooltip=lambda pointer, _value: self._read_paths.get(pointer))
        self.read_marks.changed.connect(self._reads_changed)
        self.output_tree = JsonTreeView(self)
        self.output_tree.setObjectName("inputsOutput")
        self.other_tree = JsonTreeView(self)
        self.other_tree.setObjectName("inputsOther")
        self.detail_tabs = QTabWidget(self)
        self.detail_tabs.setObjectName("inputsDetail")
        for tree, title in ((self.tree, "input"), (self.output_tree, "output"), (self.other_tree, "other fields")):
            self.detail_tabs.addTab(tree, title)
        # All three titles in view beside whole calls (1024 px: "output (none r…" behind scroll arrows): where the
        # pane is too narrow for them, each is its first word ("output"), whole in its tooltip (_fit_titles);
        # narrower still, prose, they end in "…".
        self._detail_titles = ["input", "output", "other fields"]
        self.detail_tabs.tabBar().setElideMode(Qt.TextElideMode.ElideRight)
        self.detail_tabs.tabBar().setUsesScrollButtons(False)
        self.detail_tabs.installEventFilter(self)  # its width: the titles fitted again (_fit_titles)
        self._detail_entry: Entry | None = None  # whose output and other fields the detail tabs are to show
        self._detail_filled: set[JsonTreeView] = set()  # the tabs showing them (_fill_detail)
        self.detail_tabs.currentChanged.connect(lambda _: self._fill_detail())
        self._build_layout()
        self.completer_model = QStringListModel(self)
        completer = QCompleter(self.completer_model, self)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        self.filter_edit.setCompleter(completer)
        self.jobs = Jobs(self)  # a filter or search over a big store (wsi_inspector.gui.background.jobs): a newer one drops the older's answer
        self._querying = False  # a query job's rows are still to land
        self._pending_step: bool | None = None
        self._filter_timer = _timer(self, FILTER_DELAY_MS, self.refresh)
        self._search_timer = _timer(self, SEARCH_DELAY_MS, self.refresh)
        self.filter_edit.textChanged.connect(lambda _: self._filter_timer.start())
        self.search_edit.textChanged.connect(lambda _: self._search_timer.start())
        self.search_edit.installEventFilter(self)  # Enter / Shift+Enter: next / previous match
        self.resolver_edit.textChanged.connect(lambda _: self.resolve_now())
        self.table.selectionModel().currentRowChanged.connect(self._row_changed)
        self.resolution: Resolution | None = None
        self.trim: TrimPreview | None = None  # the store at the cursor under the session's cap
        self.shown_entry: Entry | None = None
        self._placed: tuple[Entry | None, int | None] = (None, None)  # the last entry placed and its position (_position)
        # Tab in reading order: filter, search, resolver, then the table and the input beside it (it went
        # from the resolver to the timeline dock and the status bar before the table). Set once every
        # widget is in its layout: putting a widget in a layout reparents it, which drops its place.
        for first, second in ((self.filter_edit, self.search_edit), (self.search_edit, self.resolver_edit),
                              (self.resolver_edit, self.table), (self.table, self.tree)):
            QWidget.setTabOrder(first, second)
        context.session_changed.connect(self._session_changed)
        context.cursor_changed.connect(self.refresh)
        context.state_grew.connect(self.refresh)  # a followed file grew: new rows inserted (ManifestModel)
        context.session_grew.connect(lambda _appended: self._suggest_calls())  # it may hold new calls
        context.entry_chosen.connect(self.show_entry)
        self._session_changed()

    def _build_layout(self) -> None:
        controls = QHBoxLayout()
        controls.addWidget(QLabel("Filter", self))
        controls.addWidget(self.filter_edit, 3)
        controls.addWidget(QLabel("Search", self))
        controls.addWidget(self.search_edit, 2)
        controls.addWidget(self.match_label)
        controls.addWidget(self.count_label)
        resolver = QHBoxLayout()
        resolver.addWidget(QLabel("Resolve", self))
        resolver.addWidget(self.resolver_edit, 1)
        left = QWidget(self)
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addWidget(self.hint_label)
        left_layout.addWidget(self.table)
        right = self.detail_pane = QWidget(self)  # the entry's pane, never narrower than its tabs whole (share_width)
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addWidget(self.entry_label)
        right_layout.addWidget(self.detail_tabs)
        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.setObjectName("inputsSplitter")
        self.splitter.addWidget(left)
        self.splitter.addWidget(right)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setSizes([640, 380])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        self.outcome_label = RecordedOutcome(self.context, self)  # the cursor's body failed as recorded: said first
        layout.addWidget(self.outcome_label)
        layout.addLayout(controls)
        layout.addLayout(resolver)
        layout.addWidget(self.resolver_label)
        layout.addWidget(self.splitter, 1)

    def _suggest_calls(self) -> list[str]:
        """The filter suggests every module and call of the session; returns the calls."""
        calls = self.context.index.distinct_calls()
        modules = sorted({c.rsplit(".", 1)[0] for c in calls})
        if self.completer_model.stringList() != modules + calls:
            self.completer_model.setStringList(modules + calls)
        return calls

    # --- following the context --------------------------------------------------------------------
    def _session_changed(self) -> None:
        session = self.context.session
        calls = self._suggest_calls()
        # Ids and calls whole (share_width).
        # The longest id only, found by the load job (wsi_inspector.gui.background.session_facts).
        fit_column(self.table, 0, [longest_entry_id(session) if session is not None else ""], most=220)
        fit_column(self.table, 2, ["mm"], least=30)
        fit_column(self.table, 3, [PERSON_MARK], least=0, mark=True)  # a mark: the words are in its tooltips
        fit_column(self.table, self.model.READ_COLUMN, [READ_MARK], least=0, mark=True)  # the same
        fit_column(self.table, 5, widest_sizes(max(self.context.index.sizes, default=0)), least=0)
        self.call_width = fit_column(self.table, 1, calls, most=420)
        if not self.read_marks.read:  # a new session: no reads known yet (ReadMarks heard of it first)
            self.table.setColumnHidden(self.model.READ_COLUMN, True)
        self.share_width()
        self.shown_entry = None
        self._placed = (None, None)
        self._detail_entry = None
        for tree in (self.tree, self.output_tree, self.other_tree):
            tree.set_value(None, present=False)
        self.entry_label.setText("Choose an entry to see its input." if session else "No session open.")
        self.refresh()

    def share_width(self) -> None:
        """Calls whole: ids are never cut while there is room to take. The table takes what it lacks from the
        entry's pane beside it (which keeps DETAIL_KEEPS characters); the shape, prose elided at its end, keeps
        its header's width and takes the rest. Only a call too long for all that is cut, in the middle."""
        header = self.table.horizontalHeader()
        shape_least = header.fontMetrics().horizontalAdvance(self.model.HEADERS["shape"]) + CELL_PADDING
        tabs = self._tabs_room()
        if self.detail_pane.minimumWidth() != tabs:  # the splitter never squeezes the tabs ("in… | out… | ot…" at 1024 px)
            self.detail_pane.setMinimumWidth(tabs)
        share_width(self.table, 1, self.call_width, shape_least, least=min(CALL_LEAST, self.call_width),
                    splitter=self.splitter, keep=self.detail_keeps())

    def detail_keeps(self) -> int:
        """The px the entry's pane keeps when the table takes room for whole calls: DETAIL_KEEPS characters, and
        never less than its tabs need whole."""
        return max(QFontMetrics(monospace()).horizontalAdvance("0" * DETAIL_KEEPS), self._tabs_room())

    def _tabs_room(self) -> int:
        """The px the entry's tabs need whole, each its title's first word ("input | output | other"; the whole
        title in its tooltip, `_fit_titles`): what the entry's pane is never narrower than."""
        bar = self.detail_tabs.tabBar()
        metrics = bar.fontMetrics()
        pad = bar.tabSizeHint(0).width() - metrics.horizontalAdvance(bar.tabText(0)) if bar.count() else 0
        frame = 2 * self.detail_tabs.style().pixelMetric(QStyle.PixelMetric.PM_DefaultFrameWidth, None, self.detail_tabs)
        return sum(metrics.horizontalAdvance(title.split(" ")[0]) + pad for title in self._detail_titles) + frame

    def _show_column(self, column: int, shown: bool) -> None:
        """Show or hide the "at cap" or the read-mark column; the call column gives the shape column back the room it takes.

        A table answers a resized column on a zero timer, after the paint a cursor move has asked for
        already: every row was painted twice (7 ms on a big store). Its header keeps quiet while the
        columns change, and the table lays itself out and repaints once.
        """
        header = self.table.horizontalHeader()
        quiet = header.blockSignals(True)
        try:
            self.table.setColumnHidden(column, not shown)
            self.share_width()
            # The stretched shape column takes its new width now, not on the header's own zero timer
            # (resizeSections is a protected slot: called through the meta-object system).
            QMetaObject.invokeMethod(header, "resizeSections", Qt.ConnectionType.DirectConnection)
        finally:
            header.blockSignals(quiet)
        self.table.updateGeometries()
        self.table.viewport().update()

    def eventFilter(self, watched: Any, event: QEvent) -> bool:  # noqa: N802 — Qt's hook
        # The viewport too: a vertical scroll bar coming or going narrows it without resizing the table.
        if (watched is self.table or watched is self.table.viewport()) and event.type() == QEvent.Type.Resize:
            self.share_width()
        if watched is self.detail_tabs and event.type() == QEvent.Type.Resize:
            self._fit_titles()
        if (watched is self.search_edit and event.type() == QEvent.Type.KeyPress
                and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)):  # type: ignore[attr-defined]
            self.step_match(not event.modifiers() & Qt.KeyboardModifier.ShiftModifier)  # type: ignore[attr-defined]
            return True
        return super().eventFilter(watched, event)

    # --- search matches inside the shown input ------------------------------------------------------
    def step_match(self, forward: bool = True) -> None:
        """The next (or previous) match of the search: in the shown input, then in the next entry that holds it."""
        if self._search_timer.isActive():
            self.refresh()  # typed and pressed Enter before the search ran
        if self._querying:
            self._pending_step = forward  # stepped once the search's rows land
            return
        text = self.search_edit.text()
        if not text or not self.model.rowCount():
            return
        step = 1 if forward else -1
        if self.matches and 0 <= self.match_index + step < len(self.matches):
            self._reveal_match(self.match_index + step)
            return
        row = self.table.currentIndex().row()
        count = self.model.rowCount()
        for offset in range(1, count + 1):  # the next entry (round the end) with a match inside it
            entry = self._entry_of_row((row + step * offset) % count)
            if entry is None:
                continue
            self.show_entry(entry, last_match=not forward)
            if self.matches:
                return

    def _find_matches(self, entry: Entry, last: bool = False) -> None:
        """Mark the search's matches in the shown input and go to the first (or last) one."""
        text = self.search_edit.text()
        self._matched = (id(entry), text)
        self.matches = matches_in(entry.input, text) if text else []
        match_set = set(self.matches)
        if match_set != self._match_set:  # the marked paths repainted; another input in the same rows repaints what changed
            match_set, self._match_set = self._match_set, match_set
            self.tree.repaint_pointers(match_set ^ self._match_set)
        if self.matches:
            self._reveal_match(len(self.matches) - 1 if last else 0)
        else:
            self.match_index = -1
            self.match_label.setText("no match inside" if text else "")

    def _reveal_match(self, number: int) -> None:
        self.match_index = number
        self.detail_tabs.setCurrentWidget(self.tree)
        self.tree.reveal(self.matches[number])
        self._say_match()

    def _say_match(self) -> None:
        """`3 of 7 in 4 entries`: this match among all the search's matches, in the entries that hold it.

        The count over all entries arrives from a job (`_count_matches`); until it does, the line
        counts in the shown entry only, and says so.
        """
        if self.match_index < 0 or not self.matches:
            return
        more = "+" if len(self.matches) >= MATCH_LIMIT else ""
        counts = self._counts
        row = self._row_of(self.shown_entry) if self.shown_entry is not None else None
        if counts is None or counts[0] != self.search_edit.text() or counts[1] is not self.model.rows or row is None:
            self.match_label.setText(f"match {self.match_index + 1:,} of {len(self.matches):,}{more} in this entry")
            return
        per_row = counts[2]
        before = sum(per_row[:row])
        total, holding = sum(per_row), sum(1 for n in per_row if n)
        self.match_label.setText(f"{before + self.match_index + 1:,} of {total:,}{more} in {holding:,} "
                                 f"{'entry' if holding == 1 else 'entries'}")

    def _count_matches(self) -> None:
        """Count the search's matches in every entry the table shows, off the GUI thread; then say where this one is."""
        text, rows = self.search_edit.text(), self.model.rows
        if not text:
            self._counts = None
            self.jobs.cancel("count")
            return
        if self._counts is not None and self._counts[0] == text and self._counts[1] is rows:
            return
        entries = self.context.index.entries
        inputs = [entries[position].input for position in rows]

        def count(job: Any) -> list[int]:
            found = []
            for value in inputs:
                job.check()
                found.append(len(matches_in(value, text, MATCH_LIMIT)))
            return found

        def done(per_row: list[int]) -> None:
            if text == self.search_edit.text() and rows is self.model.rows:
                self._counts = (text, rows, per_row)
                self._say_match()

        self.jobs.start("count", count, on_done=done)

    def spec(self) -> FilterSpec:
        """The filter the controls ask for, with the table's current sort."""
        return FilterSpec(self.filter_edit.text().strip(), self.search_edit.text(), self.model.spec.sort_column, self.model.spec.descending)

    def refresh(self) -> None:
        """Re-run the filter in core for the state at the cursor; keep the chosen entry if still shown.

        A filter, search or sort over more than BACKGROUND_QUERY entries runs as a job: a value search's
        first pass over 100,000 inputs takes a third of a second; the table keeps its rows until the answer lands.
        """
        with self.table.repainting_what_changes():  # the cells that look as the ones they replace are not repainted
            self._refresh()

    def _refresh(self) -> None:
        self._filter_timer.stop()
        self._search_timer.stop()
        count = len(self.context.state.store)
        session = self.context.session
        cap = session.caps.store_bytes if session is not None else None
        # The store's size from the trimStore preview the status bar shares (numpy sums, not a list of
        # a million running sums); below the cap nothing falls, so no preview is handed on.
        preview = trim_preview_of(self.context.index, count) if cap is not None else None
        self.trim = preview if preview is not None and preview.total_bytes > cap else None  # type: ignore[operator]
        self.model.set_trim(self.trim, cap)
        hidden = not self.model.fell  # the column says something only when entries fall
        if hidden != self.table.isColumnHidden(self.model.CAP_COLUMN):
            self._show_column(self.model.CAP_COLUMN, not hidden)
        index, spec = self.context.index, self.spec()
        if count > BACKGROUND_QUERY and self.model.needs_query(index, count, spec):
            self.count_label.setText(f"searching {count:,} entries …")  # no longer than the count it stands for
            self._querying = True
            self.jobs.start("query", lambda _job: index.rows(spec, count),
                            on_done=lambda rows: self._query_done(index, count, spec, rows))
            return
        self.jobs.cancel("query")
        self._querying = False
        self.model.set_query(index, count, spec)
        self._show_query(count)

    def _query_done(self, index: Any, count: int, spec: FilterSpec, rows: Any) -> None:
        if index is not self.context.index:  # another session since: its rows are not this one's
            return
        self._querying = False
        self.model.set_query(index, count, spec, rows)
        self._show_query(count)
        if self._pending_step is not None:  # Enter was pressed while the search ran
            forward, self._pending_step = self._pending_step, None
            self.step_match(forward)

    def _show_query(self, count: int) -> None:
        """Everything that follows the table's rows: the count, the hint, the resolver, the shown entry."""
        shown, total = self.model.rowCount(), count
        self.count_label.setText(f"{shown:,} of {plural(total, 'entry', 'entries')} {self.context.cursor_text}")
        wanted = self.filter_edit.text().strip()
        hint = filter_hint(wanted, self.context.index.distinct_calls(count)) if wanted else None
        self.hint_label.setText(hint or "")
        self.hint_label.setVisible(bool(hint))
        self.resolve_now(select=False)
        if self.shown_entry is not None and self._position(self.shown_entry) is None:
            self.shown_entry = None  # the cursor moved before it was made: the pane shows what is here instead
        if self.shown_entry is None and self.model.rowCount():
            # Nothing chosen yet: show the newest entry rather than an empty pane.
            newest = self.model.newest_position()
            self.shown_entry = self._place(self.context.index.entries[newest], newest)  # type: ignore[index]
            self._show_json(self.shown_entry)
        if self.search_edit.text() and self.model.rowCount() and (
                self.shown_entry is None or self._row_of(self.shown_entry) is None):
            self.shown_entry = None  # a search hides the shown entry: show the first that holds the text instead
            self.show_entry(self._entry_of_row(0))
        elif self.shown_entry is not None and self._matched != (id(self.shown_entry), self.search_edit.text()):
            self._find_matches(self.shown_entry)  # the shown entry holds the text: reveal it there, in place
        self._count_matches()
        if self.shown_entry is not None:
            self._select_entry(self.shown_entry)
        if not self.search_edit.text() and self._match_set:
            cleared = self._match_set
            self.matches, self._match_set, self.match_index = [], set(), -1
            self.match_label.setText("")
            self.tree.repaint_pointers(cleared)

    def resolve_now(self, select: bool = True) -> Resolution | None:
        """Answer the resolver line at the cursor, highlight its entry, and say why."""
        text = self.resolver_edit.text().strip()
        if not text or self.context.session is None:
            self.resolution = None
            self.model.set_highlighted(None)
            self.resolver_label.setText(f'<span style="color:{hex_of("muted")}">Type a call or module to see what '
                                        "inputs.last() returns here, or an id for inputs.at().</span>")
            return None
        cursor, session = self.context.cursor, self.context.session
        result = resolve(self.context.state.store, text, session.entries, where_text(cursor),
                         cap=session.caps.store_bytes if self.trim is not None else None, at_body=cursor, preview=self.trim)
        self.resolution = result
        self.model.set_highlighted(result.index)
        self.resolver_label.setText(_resolution_html(result))
        shown = result.entry if result.entry is not None else result.untrimmed  # a fallen answer is shown greyed
        if select and shown is not None:
            self.show_entry(shown)
        return result

    def show_entry(self, entry: Any, last_match: bool = False) -> None:
        """Show an entry's input; select its row when the filter shows it at this state."""
        if not isinstance(entry, Entry):
            return
        self.shown_entry = entry
        self._show_json(entry, last_match)
        self._select_entry(entry)

    def show_recorded_output(self) -> None:
        """Turn the detail to the shown entry's recorded output (what a replay was answered with)."""
        self.detail_tabs.setCurrentWidget(self.output_tree)

    def _position(self, entry: Entry) -> int | None:
        """Where `entry` stands in the store at the cursor, or None.

        The entry last placed is remembered with its position: one the table showed is placed by its
        row; one from elsewhere (the timeline, the resolver) is found in the index of every entry's
        position, which the load job made (`ManifestIndex.index_positions`), never the GUI thread.
        """
        placed, position = self._placed
        if entry is not placed:
            position = self.context.index.position(entry, len(self.context.index))
            self._place(entry, position)
        return position if position is not None and position < len(self.context.state.store) else None

    def _place(self, entry: Entry, position: int | None) -> Entry:
        self._placed = (entry, position)
        return entry

    def _entry_of_row(self, row: int) -> Entry | None:
        """The entry in `row`, placed by it."""
        entry = self.model.entry_at_row(row)
        return self._place(entry, self.model.rows[row]) if entry is not None else None

    def _row_of(self, entry: Entry) -> int | None:
        position = self._position(entry)
        return self.model.row_of(position) if position is not None else None

    def _select_entry(self, entry: Entry) -> None:
        row = self._row_of(entry)
        selection = self.table.selectionModel()
        if row is None:
            selection.clearSelection()
            return
        index = self.model.index(row, 0)
        if selection.currentIndex().row() != row:
            selection.blockSignals(True)
            selection.setCurrentIndex(index, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
            selection.blockSignals(False)
            self.table.viewport().update()
        self.table.scrollTo(index)

    def _row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        entry = self._entry_of_row(current.row())
        if entry is not None:
            self.shown_entry = entry
            self._show_json(entry)

    def _reads_changed(self) -> None:
        """The cursor's body's reads changed: the paths it read in the shown input marked afresh, and the read
        marks' column shown from the first body of the session whose reads are known (a replay) on. It then stays,
        empty where a body read nothing: a column coming and going on every cursor move moved the calls and
        repainted the whole table."""
        if self.read_marks.read and self.table.isColumnHidden(self.model.READ_COLUMN):
            self._show_column(self.model.READ_COLUMN, True)
        read_paths = self.read_marks.paths_of(self.shown_entry) if self.shown_entry is not None else {}
        if read_paths != self._read_paths:  # another entry's reads changed: the shown input looks the same
            read_paths, self._read_paths = self._read_paths, read_paths
            self.tree.repaint_pointers(read_paths.keys() ^ self._read_paths.keys())

    def _show_json(self, entry: Entry, last_match: bool = False) -> None:
        tag = f' <span style="color:{PERSON.name()}; font-weight:600">✎ person</span>' if entry.applied else ""
        of = f" · canvas edit of {html.escape(str(entry.edit_of))}" if entry.edit_of is not None else ""
        unit = f" · {html.escape(entry.unit)}" if entry.unit else ""
        by = f" · made by body {html.escape(str(entry.body))}" if entry.body is not None else ""
        position = self._position(entry)
        falls = f" · <span style='color:{hex_of('muted')}'>⤓ falls at the cap here</span>" if position is not None and self.model.falls(position) else ""
        self.entry_label.setText(f"<b><tt>{html.escape(str(entry.id))}</tt></b> <tt>{html.escape(entry.call)}</tt>"
                                 f"{tag}{unit}{of}{by}{falls}")
        read_paths = self.read_marks.paths_of(entry)
        marked = read_paths.keys() ^ self._read_paths.keys()  # their green repainted, where it was and where it is
        self._read_paths = read_paths
        self.tree.set_value(entry.input, "input")
        self.tree.repaint_pointers(marked)  # in rows the input kept: set_value compared their colours under the new marks
        self._find_matches(entry, last_match)
        self._title_detail(1, "output" if entry.has_output else "output (none recorded)")
        other = other_fields(entry)
        self._title_detail(2, f"other fields ({len(other)})" if other else "other fields (none)")
        self._detail_entry, self._detail_filled = entry, set()
        self._fill_detail()

    def _fill_detail(self) -> None:
        """Show the entry's output or other fields in their tab when it is in front; a tab behind waits
        until it is chosen (a cursor move that shows another entry reset two trees no one saw)."""
        entry, tree = self._detail_entry, self.detail_tabs.currentWidget()
        if entry is None or tree in self._detail_filled:
            return
        if tree is self.output_tree:
            output = entry.output if entry.has_output else NO_OUTPUT
            tree.set_value(None if output is NO_OUTPUT else output, "output", present=output is not NO_OUTPUT)
        elif tree is self.other_tree:
            other = other_fields(entry)
            tree.set_value(other, "fields", present=bool(other))
        self._detail_filled.add(tree)  # type: ignore[arg-type]

    def _title_detail(self, tab: int, title: str) -> None:
        self._detail_titles[tab] = title
        self._fit_titles()

    def _fit_titles(self) -> None:
        """The detail tabs' whole titles where the bar has room for them all, else their first words."""
        bar = self.detail_tabs.tabBar()
        metrics = bar.fontMetrics()
        pad = bar.tabSizeHint(0).width() - metrics.horizontalAdvance(bar.tabText(0)) if bar.count() else 0
        whole = sum(metrics.horizontalAdvance(title) + pad for title in self._detail_titles) <= self.detail_tabs.width()
        for tab, title in enumerate(self._detail_titles):
            shown = title if whole else title.split(" ")[0]
            # A tab bar lays itself out and repaints on every setTabText, even of the title it shows.
            if self.detail_tabs.tabText(tab) != shown:
                self.detail_tabs.setTabText(tab, shown)
            if self.detail_tabs.tabToolTip(tab) != title:
                self.detail_tabs.setTabToolTip(tab, title)  # whole, where the tab shows less


def other_fields(entry: Entry) -> dict[str, Any]:
    """The entry's recorded fields beyond id, call, input, output, unit, applied, editOf and body."""
    fields: dict[str, Any] = {}
    if entry.seq is not None:
        fields["seq"] = entry.seq
    if entry.at is not None:
        fields["at"] = entry.at
    fields.update(entry.extra)
    return fields


def _resolution_html(result: Resolution) -> str:
    if result.error:
        return f'<span style="color:{hex_of("warning")}">{html.escape(result.error, quote=False)}</span>'
    expression = html.escape(result.expression)
    if result.entry is None:
        return f"<tt>{expression}</tt> → <b>undefined</b>: {html.escape(result.reason, quote=False)}"
    entry = result.entry
    tag = f' <span style="color:{PERSON.name()}; font-weight:600">✎ person</span>' if entry.applied else ""
    return (f'<tt>{expression}</tt> → <span style="background:{hex_of("highlight")}"><b><tt>{html.escape(str(entry.id))}</tt></b>'
            f" <tt>{html.escape(entry.call)}</tt></span>{tag}: {html.escape(result.reason, quote=False)}")


def _line(placeholder: str, name: str) -> QLineEdit:
    edit = QLineEdit()
    edit.setPlaceholderText(placeholder)
    edit.setObjectName(name)
    edit.setClearButtonEnabled(True)
    edit.setFont(monospace())
    return edit


def _timer(parent: QWidget, delay: int, slot: Any) -> QTimer:
    timer = QTimer(parent)
    timer.setSingleShot(True)
    timer.setInterval(delay)
    timer.timeout.connect(slot)
    return timer
