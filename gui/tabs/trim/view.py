"""The Trim tab: what the editor's store cap drops, live (issue 5).

A cap (a log-scale slider, an exact field with B/KiB/MiB, and a draggable line on the plot, all three
kept in step), the store at the cursor with the fallen rows greyed and the smallest cap that keeps
each entry, a plot of those caps (oldest → newest) against the cap, the summary in words and its
warnings, and a second cap to compare with. Every answer comes from `wsi_inspector.core.trim.preview`; a cap move
costs a few bisections, one `dataChanged` for the rows on screen whose fate changed, and a repaint
of what moves on the plot (the axes, curve and edit markers are kept as pixmaps), so dragging
stays smooth on a million entries.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QGraphicsItem,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSlider,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from wsi_inspector.core.jsrules.sizes import ENTRY_BYTES_TIP, FIELD_UNITS, SizeError, format_size, parse_size_in_unit, size_in_unit
from wsi_inspector.core.trim.preview import StoreIndex, TrimPreview, cap_text
from wsi_inspector.core.text.words import plural
from wsi_inspector.gui.widgets.elide import LinesLabel, ids_in_the_middle
from wsi_inspector.gui.widgets.when_shown import WhenShown
from wsi_inspector.gui.window.context import InspectorContext
from wsi_inspector.gui.window.keyboard import reading_order
from wsi_inspector.gui.window.look import (
    ALIGN, BACKGROUND, DISPLAY, FONT, FOREGROUND, MUTED, PERSON, PERSON_MARK, PERSON_TAG, RIGHT, TOOLTIP, Index,
    monospace, size_tooltip, status_icon,
)
from wsi_inspector.gui.tabs.inputs.models import ManifestModel, store_index_of
from wsi_inspector.gui.window.theme import colour, hex_of

SLIDER_STEPS = 1000
CURSOR, SESSION = 1, 2  # what a hidden tab owes (WhenShown's ranks): a new session's index shows the cursor's store too
MARKER_BUCKETS = 800  # about one per 1.5 px of a wide plot; each costs pyqtgraph a record when the store changes
CURVE_POINTS = 4096  # the curve's points at most: a few per pixel of the widest plot
NO_WARNINGS = "No warnings: no canvas edit falls, and every module's inputs.last() entry is kept."
FALLEN_FOREGROUND = colour("faint")  # the theme's shared colours (wsi_inspector.gui.window.theme): light or dark after the palette
FALLEN_BACKGROUND = colour("fallen_background")
BETWEEN_BACKGROUND = colour("between_background")  # falls at the lower of the two compared caps only
CAP_PEN = pg.mkPen("#c62828", width=2)
COMPARE_PEN = pg.mkPen("#2563eb", width=1.5, style=Qt.PenStyle.DashLine)
# The curve's pen is 1 px (in the theme's "curve" colour): wider ones take the slow stroker path on every paint.


_ROLES = frozenset({DISPLAY, TOOLTIP, FOREGROUND, BACKGROUND, FONT, ALIGN})


class TrimModel(QAbstractTableModel):
    """The store at the cursor: one row per entry, oldest first, greyed when it falls at the cap."""

    # "applied" is a mark (✎) as in Inputs: its empty 78 px cut the calls beside it at 1024 px (docs/window.md).
    HEADERS = ("id", "call", "unit", PERSON_MARK, "bytes", "kept from cap ≥ (B)")

    def __init__(self, parent: Any = None):
        super().__init__(parent)
        self.preview: TrimPreview = StoreIndex([]).preview()
        self.fell = 0
        self.between = range(0)  # rows that fall at the lower compared cap but not at the higher

    def set_preview(self, preview: TrimPreview, fell: int, between: range = range(0)) -> None:
        """Show a new store."""
        self.beginResetModel()
        self.preview, self.fell, self.between = preview, fell, between
        self.endResetModel()

    def set_fell(self, fell: int, between: range = range(0), shown: range | None = None) -> None:
        """A new cap: announce the rows whose fate changed, only those in `shown` when given.

        Qt repaints a table's whole viewport for any multi-row dataChanged, even one far off
        screen; this model's one view passes the rows on screen, and asks afresh for the others
        when they scroll into sight, so a drag repaints the table only when visible rows change.
        """
        changed = [(min(self.fell, fell), max(self.fell, fell))]
        if between != self.between:
            changed += [(self.between.start, self.between.stop), (between.start, between.stop)]
        self.fell, self.between = fell, between
        last = len(self.HEADERS) - 1
        for start, stop in changed:
            if shown is not None:
                start, stop = max(start, shown.start), min(stop, shown.stop)
            if stop > start:
                self.dataChanged.emit(self.index(start, 0), self.index(stop - 1, last))

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else self.preview.count

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = DISPLAY) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == TOOLTIP and self.HEADERS[section:section + 1] == ("bytes",):
            return ENTRY_BYTES_TIP
        if orientation == Qt.Orientation.Horizontal and role == TOOLTIP and section == 3:
            return ManifestModel.APPLIED_TIP
        if role != DISPLAY:
            return None
        if orientation == Qt.Orientation.Horizontal:
            return self.HEADERS[section] if 0 <= section < len(self.HEADERS) else None
        return str(section + 1)

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        # A painted cell asks for a dozen roles; answer the ones never used before touching the entry.
        if role not in _ROLES or not index.isValid() or not 0 <= index.row() < self.preview.count:
            return None
        row, column = index.row(), index.column()
        entry = self.preview.index.entries[row]
        fallen = row < self.fell
        if role == DISPLAY:
            if column == 0:
                return str(entry.id)
            if column == 1:
                return entry.call
            if column == 2:
                return entry.unit or ""
            if column == 3:
                return PERSON_MARK if entry.applied else ""
            # Exact bytes: a rounded "4 KiB" would hide whether a 4 KiB cap keeps the entry.
            if column == 4:
                return f"{self.preview.entry_size(row):,}"
            return f"{self.preview.kept_from_cap(row):,}"
        if role == TOOLTIP:
            needed = self.preview.kept_from_cap(row)
            if column == 3 and entry.applied:
                return f"{entry.id}: {PERSON_TAG}, a canvas edit (applied)"
            if column == 4:
                return f"{size_tooltip(self.preview.entry_size(row))} as the editor injects it"
            fate = "falls at this cap" if fallen else "kept at this cap"
            return f"{entry.id}: {fate}; any cap of at least {needed:,} bytes keeps it"
        if role == FOREGROUND:
            if fallen:
                return FALLEN_FOREGROUND
            return PERSON if entry.applied and column == 3 else None
        if role == BACKGROUND:
            if row in self.between:
                return BETWEEN_BACKGROUND
            return FALLEN_BACKGROUND if fallen else None
        if role == FONT and column != 3:
            return monospace()
        if role == ALIGN and column >= 4:
            return RIGHT
        return None


class SizeAxis(pg.AxisItem):
    """A log-scale axis of byte sizes, ticked at powers of two: 512 B, 1 KiB, 2 KiB, … (never 7·10³)."""

    def logTickValues(self, minVal: float, maxVal: float, size: float, stdTicks: Any) -> list:  # noqa: N802,N803 — pyqtgraph's hook
        step = math.log10(2)
        first, last = math.ceil(minVal / step), math.floor(maxVal / step)
        room = max(2, int(size // 28))  # a label needs ~28 px of axis
        every = max(1, math.ceil((last - first + 1) / room))
        first = math.ceil(first / every) * every
        return [(every * step, [k * step for k in range(first, last + 1, every)])]

    def logTickStrings(self, values: list[float], scale: float, spacing: float) -> list[str]:  # noqa: N802 — pyqtgraph's hook
        return [format_size(round(10**v)) for v in values]


class CapScale:
    """The slider's log scale: position 0…SLIDER_STEPS ↔ a cap between `low` and `high` bytes."""

    def __init__(self, low: int, high: int):
        self.low, self.high = max(1, low), max(high, low + 1)
        self._span = math.log(self.high / self.low)

    def cap(self, position: int) -> int:
        """The cap at a slider position."""
        return round(self.low * math.exp(self._span * position / SLIDER_STEPS))

    def position(self, cap: int) -> int:
        """The slider position nearest to a cap (clamped to the ends)."""
        if cap <= self.low:
            return 0
        return min(SLIDER_STEPS, round(SLIDER_STEPS * math.log(cap / self.low) / self._span))


def curve_positions(count: int, most: int = CURVE_POINTS) -> np.ndarray:
    """The entries the curve is drawn through: every one up to `most`, else `most` spread evenly, first and last kept.

    The curve (the cap each entry needs) only falls from the oldest entry to the newest, so a point
    every `count / most` entries draws the same line at any width a screen has.
    """
    if count <= most:
        return np.arange(count, dtype=np.int64)
    return np.unique(np.linspace(0, count - 1, most).round().astype(np.int64))


def thin(positions: np.ndarray, count: int, buckets: int = MARKER_BUCKETS) -> np.ndarray:
    """At most one marker per `count / buckets` entries: 10,000 edit markers on 1,200 px only cost paint time."""
    if len(positions) <= buckets:
        return positions
    _, first = np.unique(positions * buckets // max(count, 1), return_index=True)
    return positions[first]


class TrimView(QWidget):
    """The trimStore preview at the cursor: a cap, who falls, why it matters."""

    cap_changed = Signal(object)  # an int: Signal(int) is 32-bit and overflows on a cap above 2 GiB

    def __init__(self, context: InspectorContext, parent: QWidget | None = None):
        super().__init__(parent)
        self.context = context
        self.index = StoreIndex([])
        self.preview: TrimPreview = self.index.preview()
        self.cap = 0
        self.compare_cap: int | None = None
        self.scale = CapScale(2, 1024)
        self._updating = False
        self._shown_warnings: list[str] | None = None
        self.model = TrimModel(self)
        self._build_controls()
        self._build_plot()
        self._build_table()
        self._build_layout()
        self.when_shown = WhenShown(self.isVisible)
        self.when_shown.owe(self._index_session, SESSION)
        context.session_changed.connect(self._session_changed)
        context.cursor_changed.connect(self._cursor_changed)
        context.state_grew.connect(self._cursor_changed)
        context.entry_chosen.connect(self.show_entry)

    # --- building --------------------------------------------------------------------------------
    def _build_controls(self) -> None:
        self.slider = QSlider(Qt.Orientation.Horizontal, self)
        self.slider.setObjectName("trimSlider")
        self.slider.setRange(0, SLIDER_STEPS)
        self.slider.setToolTip("the store cap, on a log scale; drag the red line on the plot to move it too")
        self.slider.valueChanged.connect(self._slider_moved)
        self.cap_field = QLineEdit(self)
        self.cap_field.setObjectName("trimCapField")
        self.cap_field.setFont(monospace())
        self.cap_field.setMaximumWidth(150)
        self.cap_field.setToolTip("the exact cap: a number in the chosen unit, or a SIZE such as 64KiB, 1.5MiB, 20KB")
        self.cap_field.editingFinished.connect(self._field_edited)
        self.unit_box = QComboBox(self)
        self.unit_box.setObjectName("trimUnit")
        self.unit_box.addItems(list(FIELD_UNITS))
        self.unit_box.currentTextChanged.connect(lambda _: self._show_caps_in_fields())
        self.exact_label = QLabel(self)
        self.exact_label.setObjectName("trimExact")
        # Wide enough for any cap up to a terabyte: a label that grew with the cap's digits
        # would shrink the slider under the pointer while it is dragged.
        # Measured as the label lays out its widest digit, and 2 px for the kerning of other digits beside each
        # other (in a proportional font "987,654,321,098" outgrew twelve 9s by a pixel).
        digit = max("0123456789", key=self.exact_label.fontMetrics().horizontalAdvance)
        self.exact_label.setText(f"= {digit * 3},{digit * 3},{digit * 3},{digit * 3} B")
        self.exact_label.setMinimumWidth(self.exact_label.sizeHint().width() + 2)
        self.exact_label.clear()
        self.session_cap_button = QPushButton("Session cap", self)
        self.session_cap_button.setObjectName("trimSessionCap")
        self.session_cap_button.setToolTip("back to the session's caps.storeBytes")
        self.session_cap_button.clicked.connect(self.reset_cap)
        self.field_error = QLabel(self)
        self.field_error.setObjectName("trimFieldError")
        self.field_error.setStyleSheet(f"color: {hex_of('error')};")
        self.field_error.setVisible(False)
        self.compare_field = QLineEdit(self)
        self.compare_field.setObjectName("trimCompareField")
        self.compare_field.setFont(monospace())
        self.compare_field.setMaximumWidth(150)
        self.compare_field.setPlaceholderText("e.g. 4KiB")
        self.compare_field.setToolTip("a second cap: what falls between the two (empty: no comparison)")
        self.compare_field.editingFinished.connect(self._compare_edited)
        self.compare_label = QLabel(self)
        self.compare_label.setObjectName("trimCompare")
        self.compare_label.setWordWrap(True)
        self.store_label = QLabel(self)
        self.store_label.setObjectName("trimStore")
        self.summary_label = LinesLabel(2, "font-size: 11pt; font-weight: 600;", self)  # the warnings list says the rest
        self.summary_label.setObjectName("trimSummary")
        self.summary_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.warnings = QListWidget(self)
        self.warnings.setObjectName("trimWarnings")
        self.warnings.setWordWrap(True)
        # Fixed heights (and the warnings in a splitter pane): a layout that grew or shrank as
        # warnings come and go would move the plot under the pointer while the line is dragged.
        self.compare_label.setFixedHeight(2 * self.compare_label.fontMetrics().lineSpacing() + 4)

    def _build_plot(self) -> None:
        self.plot = pg.PlotWidget(self, background=hex_of("plot_background"), axisItems={"left": SizeAxis("left")})
        self.plot.setObjectName("trimPlot")
        item = self.plot.getPlotItem()
        item.setLogMode(x=False, y=True)
        item.showGrid(x=False, y=True, alpha=0.25)
        item.setLabel("left", "bytes to keep it")
        item.setLabel("bottom", "entry, oldest → newest")
        item.setMenuEnabled(False)
        item.hideButtons()
        self.fallen_region = pg.LinearRegionItem((0, 0), movable=False, brush=pg.mkBrush(0, 0, 0, 22), pen=pg.mkPen(None))
        self.fallen_region.setZValue(-10)
        item.addItem(self.fallen_region)
        self.curve = item.plot([], [], pen=pg.mkPen(hex_of("curve"), width=1))  # 1 px: see above
        self.curve.setClipToView(True)
        self.curve.setDownsampling(auto=True, method="peak")
        # No dynamic range limit: with one, every change of the y range (each new store) set the markers'
        # data again, building pyqtgraph's per-spot records three times over (70 ms on 20,000 edits).
        self.edit_points = item.plot([], [], pen=None, symbol="o", symbolSize=7, symbolBrush=PERSON, symbolPen=None,
                                     dynamicRangeLimit=None)
        self.cap_line = pg.InfiniteLine(angle=0, movable=True, pen=CAP_PEN, hoverPen=pg.mkPen("#ff5252", width=3),
                                        label="cap", labelOpts={"position": 0.985, "color": "#c62828", "anchors": [(1, 0), (1, 0)]})
        self.cap_line.sigPositionChanged.connect(self._line_moved)
        item.addItem(self.cap_line)
        self.compare_line = pg.InfiniteLine(angle=0, movable=False, pen=COMPARE_PEN)
        self.compare_line.setVisible(False)
        item.addItem(self.compare_line)
        # What only a new store, range or size changes is kept as a pixmap: a cap move then blits
        # the axes (their grid spans the plot, and replaying tick text cost more than the rest of the
        # plot), the curve and the edit markers instead of painting them again under the moving line.
        # At a fractional scale (150 %) a cached pixmap lands up to a device pixel off what a paint draws
        # (0.6 % of the plot's pixels differed): there the plot is painted each time, never blitted.
        if float(self.devicePixelRatioF()).is_integer():
            for still in (item.getAxis("left"), item.getAxis("bottom"), self.curve.curve, self.edit_points.scatter):
                still.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.plot.setMinimumHeight(160)

    def _build_table(self) -> None:
        self.table = QTableView(self)
        self.table.setObjectName("trimTable")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.verticalHeader().setDefaultSectionSize(22)
        for column, width in enumerate((80, 260, 44, 28, 80, 140)):
            self.table.setColumnWidth(column, width)
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        ids_in_the_middle(self.table, 0, 1)  # a call too long for its room reads at both ends, never "…" at its end
        self.table.activated.connect(self._row_activated)

    def _build_layout(self) -> None:
        cap_row = QHBoxLayout()
        cap_row.addWidget(QLabel("Cap", self))
        cap_row.addWidget(self.slider, 1)
        cap_row.addWidget(self.cap_field)
        cap_row.addWidget(self.unit_box)
        cap_row.addWidget(self.exact_label)
        cap_row.addWidget(self.session_cap_button)
        compare_row = QHBoxLayout()
        compare_row.addWidget(QLabel("Compare with", self))
        compare_row.addWidget(self.compare_field)
        compare_row.addWidget(self.compare_label, 1)
        splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.setObjectName("trimSplitter")
        splitter.addWidget(self.warnings)
        splitter.addWidget(self.plot)
        splitter.addWidget(self.table)
        splitter.setSizes([84, 270, 380])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(cap_row)
        layout.addWidget(self.field_error)
        layout.addLayout(compare_row)
        layout.addWidget(self.store_label)
        layout.addWidget(self.summary_label)
        layout.addWidget(splitter, 1)
        reading_order(self.slider, self.cap_field, self.unit_box, self.session_cap_button, self.compare_field,
                      self.warnings, self.plot, self.table)

    # --- following the context -------------------------------------------------------------------
    # A hidden tab only notes what changed: indexing a million entries costs a second, paid when
    # the tab is first shown rather than on every load.
    def _session_changed(self) -> None:
        self.when_shown.owe(self._index_session, SESSION)

    def _cursor_changed(self) -> None:
        self.when_shown.owe(self._show_cursor, CURSOR)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 — Qt's hook
        super().showEvent(event)
        self.refresh()

    def refresh(self) -> None:
        """Catch up with the context: index a new session, or show the store at a new cursor."""
        self.when_shown.catch_up()

    def _index_session(self) -> None:
        # The index the Inputs tab and the status bar share, built when the session opened: a
        # second one of its own took this tab 0.3–0.5 s on a million entries, on the GUI thread.
        self.index = store_index_of(self.context.index)
        self.preview = self.index.preview_of(self.context.state.store)
        self.cap = self.session_cap()
        self._show_store()

    def _show_cursor(self) -> None:
        self.preview = self.index.preview_of(self.context.state.store)
        self._show_store()

    def session_cap(self) -> int:
        """The session's caps.storeBytes, or (without one) the whole store: nothing falls."""
        session = self.context.session
        if session is not None and session.caps.store_bytes is not None:
            return session.caps.store_bytes
        return self.preview.total_bytes

    def _show_store(self) -> None:
        """A new store (session or cursor): rescale the slider, redraw the curve, then the cap."""
        preview = self.preview
        smallest = preview.kept_from_cap(preview.count - 1) if preview.count else 2
        self.scale = CapScale(max(2, min(smallest, self.cap) // 2), max(preview.total_bytes, self.cap, 1024) * 3 // 2)
        self.session_cap_button.setEnabled(self.context.session is not None)
        count = preview.count
        # The new ranges before the new data: a range change makes pyqtgraph redo each curve's display
        # data (clipped, downsampled), so set after the data it would redo 20,000 points twice over.
        self.plot.getPlotItem().setYRange(math.log10(self.scale.low), math.log10(self.scale.high), padding=0.02)
        self.plot.getPlotItem().setXRange(-0.5, max(count, 1) - 0.5, padding=0.01)
        running = np.frombuffer(self.index.running, dtype=np.int64)[: count + 1]
        # The cap each entry needs to be kept falls as the entries get newer: drawn through at most
        # CURVE_POINTS of them (a million points took pyqtgraph 30-50 ms on every cursor move).
        shown = curve_positions(count)
        self.curve.setData(shown.astype(np.float64), (running[count] + 1 - running[shown]).astype(np.float64))
        edits = np.frombuffer(self.index.edits, dtype=np.int64)
        edits = thin(edits[edits < count], count)
        self.edit_points.setData(edits.astype(np.float64), (running[count] + 1 - running[edits]).astype(np.float64))
        where = self.context.cursor_text
        cap = self.context.session.caps.store_bytes if self.context.session is not None else None
        session_cap = f"; the session's cap is {cap_text(cap)}" if cap is not None else "; the session sets no store cap"
        self.store_label.setText(f"The store {where}: {plural(count, 'entry', 'entries')}, {preview.total_bytes:,} B{session_cap}")
        fell = preview.fell_at(self.cap)
        self.model.set_preview(preview, fell, self._between())
        self.set_cap(self.cap, force=True)

    # --- the cap ---------------------------------------------------------------------------------
    def set_cap(self, cap: int, source: str = "", force: bool = False) -> None:
        """Move the cap: slider, field, line, table, summary and warnings follow (but not `source`)."""
        if cap == self.cap and not force:
            return
        self.cap = cap
        self.context.set_trim_cap(cap)  # held by the context: the status bar and Export read the cap tried here
        self._updating = True
        try:
            if source != "slider":
                self.slider.setValue(self.scale.position(cap))
            if source != "line":
                self.cap_line.setValue(math.log10(max(cap, 1)))
            if source != "field":
                self._show_cap_in_field()
            self.field_error.setVisible(False)
        finally:
            self._updating = False
        fell = self.preview.fell_at(cap)
        self.model.set_fell(fell, self._between(), self._rows_on_screen())
        self.fallen_region.setRegion((-0.5, fell - 0.5))
        self.exact_label.setText(f"= {cap:,} B")
        self.cap_line.label.setFormat(f"cap {cap_text(cap)}")
        summary = self.preview.summary(cap)
        self.summary_label.set_full_text(summary.words())
        self._show_warnings(summary.warnings())
        self._show_compare()
        self.cap_changed.emit(cap)

    def _rows_on_screen(self) -> range:
        """The table rows painted now (none while the tab is hidden)."""
        if not self.table.isVisible() or self.model.rowCount() == 0:
            return range(0)
        first = max(self.table.rowAt(0), 0)
        last = self.table.rowAt(self.table.viewport().height() - 1)
        return range(first, (self.model.rowCount() if last < 0 else last + 1))

    def _show_warnings(self, warnings: list[str]) -> None:
        if warnings == self._shown_warnings:
            return
        self._shown_warnings = warnings
        self.warnings.clear()
        for warning in warnings:
            QListWidgetItem(status_icon("warning"), warning, self.warnings)
        if not warnings:
            calm = QListWidgetItem(status_icon("ok"), NO_WARNINGS, self.warnings)
            calm.setForeground(MUTED)

    def warning_texts(self) -> list[str]:
        """The warnings shown (none when the list only says that all is well)."""
        return list(self._shown_warnings or [])  # none shown yet: none

    def reset_cap(self) -> None:
        """Back to the session's own cap."""
        self.set_cap(self.session_cap(), force=True)

    def _show_cap_in_field(self) -> None:
        self.cap_field.setText(size_in_unit(self.cap, self.unit_box.currentText()))

    def _show_caps_in_fields(self) -> None:
        # Both fields read a bare number in the chosen unit, so both show their cap in it.
        self._show_cap_in_field()
        self._show_compare_in_field()

    def _show_compare_in_field(self) -> None:
        cap = self.compare_cap
        self.compare_field.setText("" if cap is None else size_in_unit(cap, self.unit_box.currentText()))

    def _slider_moved(self, position: int) -> None:
        if not self._updating:
            self.set_cap(self.scale.cap(position), source="slider")

    def _line_moved(self, line: pg.InfiniteLine) -> None:
        if not self._updating:
            self.set_cap(max(0, round(10 ** line.value())), source="line")

    def _field_edited(self) -> None:
        text = self.cap_field.text().strip()
        try:
            cap = parse_size_in_unit(text, self.unit_box.currentText())
        except SizeError as exc:
            self.field_error.setText(f"Cap: {exc}")
            self.field_error.setVisible(True)
            return
        self.field_error.setVisible(False)  # a valid value, even the cap already set (set_cap then does nothing)
        self.set_cap(cap, source="field")
        self._show_cap_in_field()

    # --- comparing two caps ----------------------------------------------------------------------
    def set_compare_cap(self, cap: int | None) -> None:
        """Compare the cap with a second one (None: no comparison)."""
        self.compare_cap = cap
        self._show_compare_in_field()
        self.model.set_fell(self.model.fell, self._between(), self._rows_on_screen())
        self._show_compare()

    def _compare_edited(self) -> None:
        text = self.compare_field.text().strip()
        if not text:
            self.set_compare_cap(None)
            return
        try:
            cap = parse_size_in_unit(text, self.unit_box.currentText())
        except SizeError as exc:
            self.compare_label.setText(f'<span style="color:{hex_of("error")}">Compare: {exc}</span>')
            return
        self.set_compare_cap(cap)

    def _between(self) -> range:
        if self.compare_cap is None:
            return range(0)
        low, high = sorted((self.cap, self.compare_cap))
        return range(self.preview.fell_at(high), self.preview.fell_at(low))

    def _show_compare(self) -> None:
        if self.compare_cap is None:
            self.compare_line.setVisible(False)
            self.compare_label.setText(f'<span style="color:{hex_of("muted")}">a second cap shows what falls between the two</span>')
            return
        self.compare_line.setValue(math.log10(max(self.compare_cap, 1)))
        self.compare_line.setVisible(True)
        self.compare_label.setText(self.preview.compare(self.cap, self.compare_cap).words())

    def _row_activated(self, index: QModelIndex) -> None:
        if 0 <= index.row() < self.preview.count:
            self.context.choose_entry(self.preview.entry(index.row()))

    def show_entry(self, entry: Any) -> None:
        """Scroll to and select an entry chosen anywhere, when the store at the cursor holds it."""
        if not self.isVisible():
            return
        self.refresh()
        row = next((i for i in range(self.preview.count - 1, -1, -1) if self.index.entries[i] is entry), None)
        if row is not None:
            self.table.selectRow(row)
            self.table.scrollTo(self.model.index(row, 0))
