"""Qt table and tree models over core data: manifest, kept, refused keeps, problems, timeline.

They format only the cells asked for and never copy rows into widgets; filtering and sorting are
`core.filtering` over indices. Shared looks (monospace font, status icons, colours) live here too.
"""
from __future__ import annotations

import heapq
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any
from weakref import WeakKeyDictionary

import orjson
from PySide6.QtCore import QAbstractItemModel, QAbstractTableModel, QModelIndex, QPersistentModelIndex, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontDatabase, QFontMetrics, QIcon, QPainter, QPixmap
from PySide6.QtWidgets import QAbstractItemView, QTableView

from core.filtering import COLUMNS, FilterSpec, ManifestIndex, shape_of
from core.growing import RowChanges
from core.manifest import shape_text
from core.model import Body, Entry, Problem, State, id_key
from core.run_inputs import input_bytes, kept_manifest
from core.session import Session
from core.sizes import format_size
from core.timeline import TimelineRow, body_outcome, first_code_line, timeline_rows
from core.trim_preview import StoreIndex, TrimPreview
from gui.theme import colour

Index = QModelIndex | QPersistentModelIndex
DISPLAY, TOOLTIP, FONT = Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.FontRole
FOREGROUND, BACKGROUND = Qt.ItemDataRole.ForegroundRole, Qt.ItemDataRole.BackgroundRole
DECORATION, ALIGN, USER = Qt.ItemDataRole.DecorationRole, Qt.ItemDataRole.TextAlignmentRole, Qt.ItemDataRole.UserRole
RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)

# Shared colours of the theme in use (gui.theme): light or dark after the palette, changed in place.
PERSON = colour("person")  # the person's-edit marker, on every view
PERSON_BACKGROUND = colour("person_background")
HIGHLIGHT = colour("highlight")  # the resolver's answer
CURSOR_BACKGROUND = colour("cursor_background")
MUTED = colour("muted")
STATUS_COLOURS = {"ok": "#1a8f4c", "failed": "#c62828", "refused": "#d97706", "none": "#9ca3af",
                  "error": "#c62828", "warning": "#d97706", "person": "#b25b00", "end": "#2563eb",
                  "kept": "#7c3aed", "same": "#1a8f4c", "diverged": "#c62828"}
STATUS_GLYPHS = {"ok": "✓", "failed": "✗", "refused": "!", "none": "·", "error": "✗", "warning": "!",
                 "person": "✎", "end": "■", "kept": "K", "same": "=", "diverged": "≠"}
PERSON_TAG = "✎ person"
FALLS_TAG = "⤓ falls"  # an entry the cap trims before a body runs


@cache
def monospace() -> QFont:
    """The font for ids, calls, sizes and JSON."""
    font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    font.setPointSizeF(max(font.pointSizeF(), 9.5))
    return font


@cache
def bold_monospace() -> QFont:
    """The monospace font, bold: the row the cursor is on."""
    font = QFont(monospace())
    font.setBold(True)
    return font


@cache
def status_icon(kind: str) -> QIcon:
    """A small round icon with a glyph: ok ✓, failed ✗, refused keep !, person ✎, …"""
    pixmap = QPixmap(32, 32)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor(STATUS_COLOURS.get(kind, "#9ca3af")))
    painter.drawEllipse(QRectF(2, 2, 28, 28))
    painter.setPen(QColor("white"))
    font = QFont()
    font.setPixelSize(19)
    font.setBold(True)
    painter.setFont(font)
    painter.drawText(QRectF(0, 0, 32, 32), Qt.AlignmentFlag.AlignCenter, STATUS_GLYPHS.get(kind, "?"))
    painter.end()
    return QIcon(pixmap)


CELL_PADDING = 18  # a cell's margins and the header's sort arrow
WIDEST_SAMPLED = 24  # texts measured per column: the longest by characters (ids and calls are monospace)


def fit_column(view: QAbstractItemView, column: int, texts: Iterable[str], least: int = 36, most: int = 420,
               extra: int = 0) -> int:
    """Size a column to its widest text and its title, between `least` and `most` pixels; returns the width.

    Wider texts are elided in the middle (the view's mode, set here), their full text in the tooltip.
    `extra` is room for an icon. Only the longest few texts are measured: a monospace font's width
    follows the characters, and a 100,000-row column is not walked twice.
    """
    view.setTextElideMode(Qt.TextElideMode.ElideMiddle)
    metrics = QFontMetrics(monospace())
    longest = heapq.nlargest(WIDEST_SAMPLED, texts, key=len)
    header = view.horizontalHeader() if isinstance(view, QTableView) else getattr(view, "header", lambda: None)()
    title = str(view.model().headerData(column, Qt.Orientation.Horizontal) or "")
    title_width = header.fontMetrics().horizontalAdvance(title) if header is not None else 0
    width = max([metrics.horizontalAdvance(text) for text in longest] + [title_width]) + CELL_PADDING + extra
    width = max(least, min(most, width))
    if header is not None:
        header.resizeSection(column, width)
    return width


def size_tooltip(n: int) -> str:
    """Exact bytes, for the tooltip of a size shown in KiB/MiB."""
    return f"{n:,} bytes"


# One trimStore index per session's ManifestIndex, shared by the views that ask what falls at the
# cap (built once from the sizes the manifest index already measured; dropped with the session).
_store_indexes: WeakKeyDictionary[ManifestIndex, StoreIndex] = WeakKeyDictionary()


def trim_preview_of(index: ManifestIndex, count: int) -> TrimPreview:
    """The trimStore preview of the first `count` entries of a session's manifest index."""
    store_index = _store_indexes.get(index)
    if store_index is None:
        store_index = _store_indexes[index] = StoreIndex(index.entries, index.sizes)
    return store_index.preview(count)


class ManifestModel(QAbstractTableModel):
    """The inputs manifest at a state: one row per store entry index, filtered and sorted in core."""

    HEADERS = {"id": "id", "call": "call", "unit": "unit", "applied": "applied", "shape": "shape", "bytes": "bytes"}
    CAP_COLUMN = len(COLUMNS)  # after the manifest's columns: "falls" where the entry falls at the cap
    CAP_HEADER = "at cap"

    def __init__(self, parent: Any = None):
        super().__init__(parent)
        self.index_data = ManifestIndex([])
        self.count = 0
        self.spec = FilterSpec()
        self.rows: list[int] = []
        self.highlighted: int | None = None  # entry index the resolver answered
        self.fell = 0  # the oldest `fell` entries fall at the session's cap (SPEC 5: the body never sees them)
        self.cap: int | None = None
        self.trim: TrimPreview | None = None

    def set_trim(self, preview: TrimPreview | None, cap: int | None) -> None:
        """The trimStore preview of the shown store and the session's cap: which entries fall."""
        self.trim, self.cap = preview, cap
        self.fell = preview.fell_at(cap) if preview is not None and cap is not None else 0
        if self.rows:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self.rows) - 1, self.CAP_COLUMN))

    def falls(self, entry_index: int) -> bool:
        """True when the entry at that position falls at the cap."""
        return entry_index < self.fell

    def set_query(self, index: ManifestIndex, count: int, spec: FilterSpec) -> None:
        """Show the first `count` entries of `index` that `spec` keeps, in its order.

        More entries of the same query in timeline order (a later cursor, a followed file that grew)
        are inserted at the end (the start, descending) rather than resetting the view.
        """
        if index is self.index_data and spec == self.spec and count > self.count and spec.sort_column is None:
            self._insert(index.rows(spec, count, self.count), spec.descending)
            self.count = count
            return
        rows = index.rows(spec, count)
        self.beginResetModel()
        self.index_data, self.count, self.spec = index, count, spec
        self.rows = rows
        self.endResetModel()

    def _insert(self, added: list[int], descending: bool) -> None:
        if not added:
            return
        at = 0 if descending else len(self.rows)
        self.beginInsertRows(QModelIndex(), at, at + len(added) - 1)
        self.rows = [*reversed(added), *self.rows] if descending else self.rows + added
        self.endInsertRows()

    def entry_at_row(self, row: int) -> Entry | None:
        """The entry shown in `row`."""
        return self.index_data.entries[self.rows[row]] if 0 <= row < len(self.rows) else None

    def row_of(self, entry_index: int) -> int | None:
        """The row showing entry `entry_index`, or None when it is filtered out."""
        try:
            return self.rows.index(entry_index)
        except ValueError:
            return None

    def set_highlighted(self, entry_index: int | None) -> None:
        """Mark the resolver's answer."""
        old, self.highlighted = self.highlighted, entry_index
        for changed in {old, entry_index} - {None}:
            row = self.row_of(changed)  # type: ignore[arg-type]
            if row is not None:
                self.dataChanged.emit(self.index(row, 0), self.index(row, len(COLUMNS) - 1))

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(COLUMNS) + 1

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = DISPLAY) -> Any:
        if orientation == Qt.Orientation.Horizontal and section == self.CAP_COLUMN:
            if role == DISPLAY:
                return self.CAP_HEADER
            if role == TOOLTIP:
                return "entries that fall at the session's caps.storeBytes here: the editor trims them before a body runs"
            return None
        if role != DISPLAY:
            return None
        if orientation == Qt.Orientation.Horizontal:
            return self.HEADERS[COLUMNS[section]] if 0 <= section < len(COLUMNS) else None
        return str(section + 1)

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.rows):
            return None
        position = self.rows[index.row()]
        entry = self.index_data.entries[position]
        if position < self.fell and (role == FOREGROUND or (index.column() == self.CAP_COLUMN and role in (DISPLAY, TOOLTIP))):
            return self._fallen_data(position, role)
        if index.column() == self.CAP_COLUMN:
            return None if role != FONT else monospace()
        column = COLUMNS[index.column()]
        if role == DISPLAY:
            if column == "id":
                return str(entry.id)
            if column == "call":
                return entry.call
            if column == "unit":
                return entry.unit or ""
            if column == "applied":
                return PERSON_TAG if entry.applied else ""
            if column == "shape":
                return shape_of(entry)
            return format_size(input_bytes(entry))
        if role == TOOLTIP:
            if column == "bytes":
                return size_tooltip(input_bytes(entry))
            if column == "applied" and entry.applied:
                of = f" of {entry.edit_of}" if entry.edit_of is not None else ""
                return f"a person's canvas edit{of}: the editor stored it with applied: true"
            if column == "shape":
                return shape_of(entry, limit=2000)
            if column in ("id", "call"):
                return f"{entry.call} · recorded at {entry.where}" + (f" by body {entry.body}" if entry.body is not None else "")
            return None
        if role == FONT and column in ("id", "call", "shape", "bytes", "unit"):
            return monospace()
        if role == FOREGROUND and column == "applied" and entry.applied:
            return PERSON
        if role == BACKGROUND:
            if position == self.highlighted:
                return HIGHLIGHT
            if entry.applied and column == "applied":
                return PERSON_BACKGROUND
        if role == ALIGN and column == "bytes":
            return RIGHT
        if role == USER:
            return position
        return None

    def _fallen_data(self, position: int, role: int) -> Any:
        if role == DISPLAY:
            return FALLS_TAG
        if role == FOREGROUND:
            return MUTED
        cap, needed = self.cap or 0, self.trim.kept_from_cap(position) if self.trim is not None else 0
        return (f"falls at the {format_size(cap)} cap ({cap:,} B): trimStore keeps the newest entries that fit, so a "
                f"body here is not handed this entry; a cap of at least {needed:,} B keeps it")

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort by a column in core (`ManifestIndex.sorted`); -1 returns to timeline order."""
        name = COLUMNS[column] if 0 <= column < len(COLUMNS) else None
        spec = FilterSpec(self.spec.wanted, self.spec.text, name, order == Qt.SortOrder.DescendingOrder)
        self.layoutAboutToBeChanged.emit()
        old_rows = self.rows
        self.spec = spec
        self.rows = self.index_data.sorted(old_rows if name else sorted(old_rows), name, spec.descending)
        position = {entry: row for row, entry in enumerate(self.rows)}
        persistent = self.persistentIndexList()
        moved = [self.index(position[old_rows[p.row()]], p.column()) if p.row() < len(old_rows) else QModelIndex()
                 for p in persistent]
        self.changePersistentIndexList(persistent, moved)
        self.layoutChanged.emit()


@dataclass(slots=True)
class KeptRow:
    """One kept value at the state: the manifest line, the value and the body that kept it."""

    name: str
    shape: str
    bytes: int
    value: Any
    kept_by: Any


def kept_rows(state: State) -> list[KeptRow]:
    """The kept manifest at a state (sorted as keptManifest sorts), with values and keeping bodies."""
    rows = []
    for line in kept_manifest(state.kept):
        shape = shape_text(line, value=state.kept[line["name"]])
        rows.append(KeptRow(line["name"], shape, line["bytes"], state.kept[line["name"]], state.kept_by.get(line["name"])))
    return rows


class RowsModel(QAbstractTableModel):
    """A flat table over `self.rows` with fixed column titles `HEADERS`; subclasses say what a cell shows."""

    HEADERS: tuple[str, ...] = ()

    def __init__(self, parent: Any = None):
        super().__init__(parent)
        self.rows: list[Any] = []

    def replace_rows(self, rows: list[Any]) -> None:
        """Show these rows instead (a reset: the tables it serves are small)."""
        self.beginResetModel()
        self.rows = rows
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = DISPLAY) -> Any:
        if role == DISPLAY and orientation == Qt.Orientation.Horizontal and 0 <= section < len(self.HEADERS):
            return self.HEADERS[section]
        return None


class KeptModel(RowsModel):
    """The kept manifest at the cursor: name, shape, bytes, kept by."""

    HEADERS = ("name", "shape", "bytes", "kept by")

    def set_state(self, state: State) -> None:
        """Show the kept set of `state`."""
        self.replace_rows(kept_rows(state))

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.rows):
            return None
        row, column = self.rows[index.row()], index.column()
        if role == DISPLAY:
            by = "" if row.kept_by is None else f"body {row.kept_by}"
            return (row.name, row.shape, format_size(row.bytes), by or "snapshot / file")[column]
        if role == TOOLTIP:
            if column == 2:
                return size_tooltip(row.bytes)
            if column == 3:
                return ("kept by the accepted keep of body " + str(row.kept_by)) if row.kept_by is not None else \
                    "from a kept snapshot or the file's final kept set, not from one body's keep"
            return f"kept.{row.name}"
        if role == FONT:
            return monospace()
        if role == ALIGN and column == 2:
            return RIGHT
        if role == FOREGROUND and column == 3 and row.kept_by is None:
            return MUTED
        return None


class RefusedModel(RowsModel):
    """The keeps refused before the cursor: the body that returned them and the InvalidKeepError."""

    HEADERS = ("body", "InvalidKeepError")

    def set_state(self, state: State) -> None:
        """Show the refusals seen up to `state`."""
        self.replace_rows(list(state.refused))

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.rows):
            return None
        row = self.rows[index.row()]
        if role in (DISPLAY, TOOLTIP):
            return str(row.body) if index.column() == 0 else row.message
        if role == DECORATION and index.column() == 0:
            return status_icon("refused")
        if role == FONT and index.column() == 0:
            return monospace()
        return None


class ProblemsModel(RowsModel):
    """Every loader error and warning: severity, where, message."""

    HEADERS = ("severity", "where", "message")

    def set_problems(self, problems: Sequence[Problem]) -> None:
        """Show these problems, errors first, each group in file order."""
        self.replace_rows([p for p in problems if p.severity == "error"] + [p for p in problems if p.severity != "error"])

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.rows):
            return None
        problem, column = self.rows[index.row()], index.column()
        if role == DISPLAY:
            return (problem.severity, problem.where or "(file)", problem.message)[column]
        if role == TOOLTIP:
            return f"{problem.severity} at {problem.where or 'the file'}: {problem.message}"
        if role == DECORATION and column == 0:
            return status_icon(problem.severity)
        if role == FONT and column == 1:
            return monospace()
        return None


# --- the timeline --------------------------------------------------------------------------------

class TimelineModel(QAbstractItemModel):
    """Bodies with their calls nested, canvas edits marked as the person's, each body's outcome.

    Top rows have internal id 0; a call row's internal id is its body row + 1.
    """

    HEADERS = ("timeline", "replay")

    def __init__(self, parent: Any = None):
        super().__init__(parent)
        self.rows: list[TimelineRow] = []
        self.body_rows: dict[str, int] = {}  # body key → its top row
        self.refused: set[str] = set()
        self.cursor_key: str | None = None
        self.badges: dict[str, str] = {}
        self._hidden: dict[int, int] = {}  # top row → its last calls, appended but not yet announced

    def set_session(self, session: Session | None) -> None:
        """Rebuild the rows for `session`."""
        self.beginResetModel()
        self._hidden = {}
        self.rows = list(timeline_rows(session))  # its own list: a followed session's rows grow (extend)
        self.body_rows = {row.item.key: n for n, row in enumerate(self.rows) if row.kind == "body"}  # type: ignore[union-attr]
        self.refused = {str(r.body) for r in session.state_at(None).refused} if session is not None else set()
        self.endResetModel()

    def extend(self, session: Session, changes: RowChanges) -> None:
        """Show what `core.growing` appended to the session's rows: rows inserted, changed rows repainted."""
        rows = timeline_rows(session)
        for top, first, last in changes.children:
            # The session's row already holds its new calls: hide them until Qt has been told.
            self._hidden[top] = last - first + 1
            self.beginInsertRows(self.index(top, 0), first, last)
            del self._hidden[top]
            self.endInsertRows()
        if changes.top is not None:
            first, last = changes.top
            self.beginInsertRows(QModelIndex(), first, last)
            self.rows[first:first] = rows[first:last + 1]
            self.body_rows.update({row.item.key: n for n, row in enumerate(rows[first:last + 1], first) if row.kind == "body"})  # type: ignore[union-attr]
            self.endInsertRows()
        self.refused = {str(r.body) for r in session.state_at(None).refused}
        for row in changes.changed:
            self.dataChanged.emit(self.index(row, 0), self.index(row, len(self.HEADERS) - 1))

    def _child_count(self, row: int) -> int:
        return len(self.rows[row].children) - self._hidden.get(row, 0)

    def set_cursor(self, cursor: Any) -> None:
        """Mark the row of the cursor's body (or the end row)."""
        before = self.row_for_cursor(self.cursor_key) if self.rows else None
        self.cursor_key = id_key(cursor)
        if self.rows:
            for row in {before, self.row_for_cursor(cursor)}:  # only the two rows whose mark moves
                self.dataChanged.emit(self.index(row, 0), self.index(row, len(self.HEADERS) - 1))

    def set_badges(self, badges: dict[str, str]) -> None:
        """Show the Run view's replay verdicts per body."""
        self.badges = dict(badges)
        if self.rows:
            self.dataChanged.emit(self.index(0, 1), self.index(len(self.rows) - 1, 1))

    def row_for_cursor(self, cursor: Any) -> int:
        """The top row of the cursor's body, or the end row."""
        return self.body_rows.get(id_key(cursor), len(self.rows) - 1)  # type: ignore[arg-type]

    def locate_entry(self, entry: Entry) -> QModelIndex:
        """The index of an entry's row (nested under its body or on top)."""
        for number, row in enumerate(self.rows):
            if row.item is entry:
                return self.index(number, 0)
            if row.kind in ("body", "group"):
                for child_number, child in enumerate(row.children):
                    if child is entry:
                        return self.index(child_number, 0, self.index(number, 0))
        return QModelIndex()

    def item(self, index: Index) -> tuple[TimelineRow, Entry | None]:
        """The top row of an index, and the call when the index is a nested call."""
        if index.internalId() == 0:
            return self.rows[index.row()], None
        row = self.rows[index.internalId() - 1]
        return row, row.children[index.row()]

    def index(self, row: int, column: int, parent: Index = QModelIndex()) -> QModelIndex:
        # Bounds checked here rather than with hasIndex(): a tree view lays out by asking for every
        # top row, and on 20,000 of them hasIndex's round trip through rowCount cost half a second.
        if not parent.isValid():
            count, internal = len(self.rows), 0
        elif parent.internalId() == 0 and parent.column() == 0:
            count, internal = self._child_count(parent.row()), parent.row() + 1
        else:
            return QModelIndex()
        if 0 <= row < count and 0 <= column < len(self.HEADERS):
            return self.createIndex(row, column, internal)
        return QModelIndex()

    def parent(self, index: Index = QModelIndex()) -> QModelIndex:  # type: ignore[override]
        if not index.isValid() or index.internalId() == 0:
            return QModelIndex()
        return self.createIndex(index.internalId() - 1, 0, 0)

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        if not parent.isValid():
            return len(self.rows)
        if parent.internalId() != 0 or parent.column() != 0:
            return 0
        return self._child_count(parent.row())

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        return len(self.HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = DISPLAY) -> Any:
        if role == DISPLAY and orientation == Qt.Orientation.Horizontal and 0 <= section < len(self.HEADERS):
            return self.HEADERS[section]
        return None

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        if not index.isValid():
            return None
        row, call = self.item(index)
        if call is not None:
            return self._call_data(call, index.column(), role)
        column = index.column()
        at_cursor = (row.kind == "body" and row.item.key == self.cursor_key) or (row.kind == "end" and self.cursor_key is None)  # type: ignore[union-attr]
        if role == BACKGROUND and at_cursor:
            return CURSOR_BACKGROUND
        if row.kind == "body":
            return self._body_data(row, column, role, at_cursor)
        if row.kind == "end":
            if column != 0:
                return None
            if role == DISPLAY:
                return "End of session"
            if role == DECORATION:
                return status_icon("end")
            if role == TOOLTIP:
                return "the state after the last record: the whole store and the final kept set"
            if role == FONT and at_cursor:
                return bold_monospace()
            return None
        if row.kind == "group":
            return self._group_data(row, column, role)
        if row.kind == "kept":
            if role == DISPLAY and column == 0:
                return f"kept snapshot · {len(row.item.kept)} names"  # type: ignore[union-attr]
            if role == DECORATION and column == 0:
                return status_icon("kept")
            if role == TOOLTIP:
                return f"a kept snapshot at {row.item.where}: it replaces the kept set"  # type: ignore[union-attr]
            return None
        return self._call_data(row.item, column, role)  # type: ignore[arg-type]

    def _body_data(self, row: TimelineRow, column: int, role: int, at_cursor: bool) -> Any:
        body: Body = row.item  # type: ignore[assignment]
        outcome = body_outcome(body, self.refused)
        badge = self.badges.get(body.key)
        if column == 1:
            if role == DISPLAY:
                return badge or ""
            if role == DECORATION and badge:
                return status_icon(badge)
            if role == TOOLTIP and badge:
                return f"replay: {badge}"
            return None
        if role == DISPLAY:
            calls = len(row.children)
            return f"body {body.id}  ·  {calls} call{'s' if calls != 1 else ''}  ·  {first_code_line(body.code)}"
        if role == DECORATION:
            return status_icon(outcome)
        if role == FONT:
            return bold_monospace() if at_cursor else monospace()
        if role == TOOLTIP:
            words = {"ok": "ran ok", "failed": "failed", "refused": "its keep was refused (InvalidKeepError)", "none": "no recorded result"}
            error = (body.result or {}).get("error")
            text = f"body {body.id} {words[outcome]}; choosing it moves the cursor to the state it was handed"
            return text + (f"\n{error}" if error else "")
        return None

    def _group_data(self, row: TimelineRow, column: int, role: int) -> Any:
        if column != 0:
            return None
        edits = sum(e.applied for e in row.children)
        if role == DISPLAY:
            first, last = row.children[0].id, row.children[-1].id
            what = f"{edits:,} canvas edits" if edits == len(row.children) else f"{len(row.children):,} entries ({edits:,} canvas edits)"
            return f"{PERSON_TAG if edits else '·'}  {what}  ·  {first} … {last}"
        if role == DECORATION and edits:
            return status_icon("person")
        if role == FOREGROUND and edits:
            return PERSON
        if role == FONT:
            return monospace()
        if role == TOOLTIP:
            return "a long run of records with no body between them, folded into one row: expand it to see each"
        return None

    def _call_data(self, entry: Entry, column: int, role: int) -> Any:
        if column != 0:
            return None
        if role == DISPLAY:
            if entry.applied:
                of = f" of {entry.edit_of}" if entry.edit_of is not None else ""
                return f"{PERSON_TAG}  {entry.id}  canvas edit{of}  ·  {entry.call}"
            return f"{entry.id}  {entry.call}"
        if role == DECORATION and entry.applied:
            return status_icon("person")
        if role == FOREGROUND:
            return PERSON if entry.applied else None
        if role == BACKGROUND and entry.applied:
            return PERSON_BACKGROUND
        if role == FONT:
            return monospace()
        if role == TOOLTIP:
            who = "a person's canvas edit (applied)" if entry.applied else f"a call made by body {entry.body}"
            return f"{entry.id}: {entry.call}, {who}, recorded at {entry.where}\n" + recorded_fields_text(entry)
        return None


TOOLTIP_VALUE_CHARS = 160  # each recorded value in a tooltip is cut here (the Inputs detail shows it all)


def recorded_fields_text(entry: Entry) -> str:
    """What the record holds beyond id and call, one line each: input, output, unit, and every other field."""
    lines = [f"input: {value_hint(entry.input)}",
             f"output: {value_hint(entry.output)}" if entry.has_output else "output: none recorded"]
    if entry.unit is not None:
        lines.append(f"unit: {entry.unit}")
    fields = ({"editOf": entry.edit_of} if entry.edit_of is not None else {}) | (
        {"seq": entry.seq} if entry.seq is not None else {}) | ({"at": entry.at} if entry.at is not None else {}) | entry.extra
    lines.extend(f"{name}: {value_hint(value)}" for name, value in fields.items())
    return "\n".join(lines)


def value_hint(value: Any, limit: int = TOOLTIP_VALUE_CHARS) -> str:
    """A value as one line of JSON (a string as itself), cut to `limit` characters (orjson: fast on big inputs)."""
    if isinstance(value, str):
        text = " ".join(value.splitlines())
        return text if len(text) <= limit else text[: limit - 1] + "…"
    try:
        text = orjson.dumps(value).decode("utf-8", "replace")
    except TypeError:  # integers beyond 64 bits, lone surrogates
        text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[: limit - 1] + "…"
