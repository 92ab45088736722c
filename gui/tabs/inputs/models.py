"""The inputs manifest at a state (the Inputs tab's table), and the trimStore preview the views share."""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QModelRoleDataSpan, Qt

from wsi_inspector.core.search.filtering import COLUMNS, FilterSpec, ManifestIndex, shape_of
from wsi_inspector.core.session.model import Entry
from wsi_inspector.core.jsrules.run_inputs import input_bytes
from wsi_inspector.core.jsrules.sizes import INPUT_BYTES_TIP, format_size
from wsi_inspector.core.trim.preview import TrimPreview
from wsi_inspector.gui.background.session_facts import store_index_of
from wsi_inspector.gui.window.look import (
    ALIGN, BACKGROUND, DISPLAY, FALLS_TAG, FONT, FOREGROUND, HIGHLIGHT, MUTED, PERSON, PERSON_BACKGROUND,
    PERSON_MARK, READ_FOREGROUND, READ_MARK, RIGHT, TOOLTIP, USER, CENTRE, Index, delegate_asks, monospace, size_tooltip,
)

ANSWERED = frozenset(map(int, (DISPLAY, TOOLTIP, FONT, FOREGROUND, BACKGROUND, ALIGN, USER)))
LOOK_ROLES = tuple(map(int, (FONT, ALIGN, FOREGROUND, DISPLAY, BACKGROUND)))  # what a cell's look (`_look_of`) holds, in its order
LOOK_SLOT = {role: slot for slot, role in enumerate(LOOK_ROLES)}
APPLIED, BYTES = COLUMNS.index("applied"), COLUMNS.index("bytes")
_COLUMN_COUNT = len(COLUMNS) + 2  # the manifest's, "at cap" and the read mark (asked for every cell painted)
TEXTS_KEPT = 4096  # rows whose texts are kept for the next paint: a screenful many times over, never the session


def trim_preview_of(index: ManifestIndex, count: int) -> TrimPreview:
    """The trimStore preview of the first `count` entries of a session's manifest index."""
    return store_index_of(index).preview(count)


class ManifestModel(QAbstractTableModel):
    """The inputs manifest at a state: one row per store entry index, filtered and sorted in core."""

    # "applied" is a mark (✎), its column as narrow as the mark: the words are in the header's and cell's tooltips.
    HEADERS = {"id": "id", "call": "call", "unit": "unit", "applied": PERSON_MARK, "shape": "shape", "bytes": "bytes"}
    APPLIED_TIP = "applied: ✎ marks a person's canvas edit (the editor stored it with applied: true)"
    CAP_COLUMN = len(COLUMNS)  # after the manifest's columns: "falls" where the entry falls at the cap
    CAP_HEADER = "at cap"
    # READ_MARK where the body at the cursor read the entry (SPEC 7): a column of its own, one glyph wide, shown
    # beside the ✎ mark (the view moves it there); in the call's own cell it took room from the call.
    READ_COLUMN = CAP_COLUMN + 1
    READ_TIP = "● marks the entries the body at the cursor read (known once it was replayed); the read, in its tooltip"

    def __init__(self, parent: Any = None):
        super().__init__(parent)
        self.index_data = ManifestIndex([])
        self.count = 0
        self.spec = FilterSpec()
        self.rows: range | list[int] = range(0)  # entry positions, one per row; a range when nothing is filtered or sorted
        self._row_by_entry: dict[int, int] | None = None  # row_of's map for sorted rows, made when first asked
        self._texts: dict[int, tuple[str, ...]] = {}  # entry position → its cells' texts, formatted once (row_texts)
        self._looks: dict[tuple[int, bool, bool, bool], tuple[tuple[Any, ...], ...]] = {}  # looks_of: a row's key → its cells' looks
        self.highlighted: int | None = None  # entry index the resolver answered
        self.fell = 0  # the oldest `fell` entries fall at the session's cap (SPEC 5: the body never sees them)
        self.cap: int | None = None
        self.trim: TrimPreview | None = None
        self.reads: dict[str, str] = {}  # entry key → the read-mark tooltip of an entry the cursor's body read

    def set_reads(self, reads: dict[str, str]) -> None:
        """Mark the entries the cursor's body read (entry key → the words of its tooltip); only the mark column repaints."""
        if reads == self.reads:
            return
        self.reads = reads
        if self.rows:
            self.dataChanged.emit(self.index(0, self.READ_COLUMN), self.index(len(self.rows) - 1, self.READ_COLUMN))

    def set_trim(self, preview: TrimPreview | None, cap: int | None) -> None:
        """The trimStore preview of the shown store and the session's cap: which entries fall.

        Only the rows whose entries fall now and did not before, or the other way round, are repainted
        (a cursor move mostly changes none of them; the tooltips, which read the preview, are asked afresh).
        """
        before = self.fell
        self.trim, self.cap = preview, cap
        self.fell = preview.fell_at(cap) if preview is not None and cap is not None else 0
        if self.fell != before and self.rows:
            first, last = self._rows_between(min(before, self.fell), max(before, self.fell))
            if first <= last:
                self.dataChanged.emit(self.index(first, 0), self.index(last, self.CAP_COLUMN))

    def _rows_between(self, low: int, high: int) -> tuple[int, int]:
        """The first and last rows of the entries at positions `low` to `high` - 1 (first > last: none shown).

        Rows in timeline order hold them together, found by bisection; sorted by a column, they may be anywhere.
        """
        rows = self.rows
        if self.spec.sort_column is not None:
            return 0, len(rows) - 1
        if self.spec.descending:
            return bisect_right(rows, -high, key=int.__neg__), bisect_right(rows, -low, key=int.__neg__) - 1
        return bisect_left(rows, low), bisect_left(rows, high) - 1

    def falls(self, entry_index: int) -> bool:
        """True when the entry at that position falls at the cap."""
        return entry_index < self.fell

    def needs_query(self, index: ManifestIndex, count: int, spec: FilterSpec) -> bool:
        """Whether `set_query` would run the query over every entry in core (a filter, search or sort to
        answer afresh), rather than show a range or add and remove rows at the end."""
        if index is self.index_data and spec == self.spec and (count == self.count or spec.sort_column is None):
            return False
        return bool(spec.wanted.strip() or spec.text or spec.sort_column is not None)

    def set_query(self, index: ManifestIndex, count: int, spec: FilterSpec, rows: list[int] | None = None) -> None:
        """Show the first `count` entries of `index` that `spec` keeps, in its order.

        `rows`: `index.rows(spec, count)` already computed (off the GUI thread, wsi_inspector.gui.tabs.inputs.view).

        The same query at another count in timeline order (a cursor move, a followed file that grew)
        inserts or removes the rows at the end (the start, descending) rather than resetting the view;
        nothing here grows with the rows kept (a million-entry session's cursor move stays short).
        """
        if index is self.index_data and spec == self.spec:
            if count == self.count:
                return
            if spec.sort_column is None:
                self._grow(count) if count > self.count else self._shrink(count)
                return
        self.beginResetModel()
        if index is not self.index_data:
            self._texts, self._looks = {}, {}
        self.index_data, self.count, self.spec = index, count, spec
        self.rows = rows if rows is not None else self._query_rows(0, count)
        self._row_by_entry = None
        self.endResetModel()

    def _query_rows(self, start: int, count: int) -> range | list[int]:
        """The rows of the entries from `start` below `count` that the query keeps, in its order.

        Without a filter or a sort they are every position: a range, not a list of a million ints.
        """
        if self._unfiltered() and self.spec.sort_column is None:
            return range(count - 1, start - 1, -1) if self.spec.descending else range(start, count)
        return self.index_data.rows(self.spec, count, start)

    def _unfiltered(self) -> bool:
        return not self.spec.wanted.strip() and not self.spec.text

    def _grow(self, count: int) -> None:
        added = self._query_rows(self.count, count)
        old = len(self.rows)
        at = 0 if self.spec.descending else old
        if added:
            self.beginInsertRows(QModelIndex(), at, at + len(added) - 1)
        self.count = count
        if isinstance(self.rows, range):
            self.rows = self._query_rows(0, count)
        elif self.spec.descending:
            self.rows[0:0] = added  # newest first: one move of the pointers, no copy of the rows
        else:
            self.rows += added
        if added:
            self.endInsertRows()

    def _shrink(self, count: int) -> None:
        rows = self.rows
        # Rows in timeline order: those at or past `count` are a tail (the head, descending), found by bisection.
        if self.spec.descending:
            first, last = 0, bisect_right(rows, -count, key=int.__neg__)
        else:
            first, last = bisect_left(rows, count), len(rows)
        if first < last:
            self.beginRemoveRows(QModelIndex(), first, last - 1)
        self.count = count
        if isinstance(rows, range):
            self.rows = self._query_rows(0, count)
        else:
            del rows[first:last]
        if first < last:
            self.endRemoveRows()

    def entry_at_row(self, row: int) -> Entry | None:
        """The entry shown in `row`."""
        return self.index_data.entries[self.rows[row]] if 0 <= row < len(self.rows) else None

    def newest_position(self) -> int | None:
        """The position of the latest entry on the timeline that the table shows (sorted: looks at every row)."""
        rows = self.rows
        if not rows:
            return None
        if self.spec.sort_column is not None:
            return max(rows)
        return rows[0] if self.spec.descending else rows[-1]

    def row_of(self, entry_index: int) -> int | None:
        """The row showing entry `entry_index`, or None when it is filtered out.

        Rows in timeline order are bisected (a range answers at once); sorted rows are looked up in a
        map made on the first question after a sort.
        """
        rows = self.rows
        if isinstance(rows, range):
            return rows.index(entry_index) if entry_index in rows else None
        if self.spec.sort_column is None:
            if self.spec.descending:
                row = bisect_left(rows, -entry_index, key=int.__neg__)
            else:
                row = bisect_left(rows, entry_index)
            return row if row < len(rows) and rows[row] == entry_index else None
        if self._row_by_entry is None:
            self._row_by_entry = {entry: row for row, entry in enumerate(rows)}
        return self._row_by_entry.get(entry_index)

    def set_highlighted(self, entry_index: int | None) -> None:
        """Mark the resolver's answer."""
        old, self.highlighted = self.highlighted, entry_index
        for changed in {old, entry_index} - {None}:
            row = self.row_of(changed)  # type: ignore[arg-type]
            if row is not None:
                self.dataChanged.emit(self.index(row, 0), self.index(row, len(COLUMNS) - 1))

    def index(self, row: int, column: int, parent: Index = QModelIndex()) -> QModelIndex:
        # Bounds checked here: Qt's own asks rowCount and columnCount through Python for every cell a
        # table paints (a cursor move repaints a screenful of rows, each of its seven cells).
        if not parent.isValid() and 0 <= row < len(self.rows) and 0 <= column < _COLUMN_COUNT:
            return self.createIndex(row, column)
        return QModelIndex()

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else _COLUMN_COUNT

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = DISPLAY) -> Any:
        if orientation == Qt.Orientation.Horizontal and section == self.CAP_COLUMN:
            if role == DISPLAY:
                return self.CAP_HEADER
            if role == TOOLTIP:
                return "entries that fall at the session's caps.storeBytes here: the editor trims them before a body runs"
            return None
        if orientation == Qt.Orientation.Horizontal and section == self.READ_COLUMN:
            # The cells' font: the header's drew a wider dot than its column, cut at both sides.
            return READ_MARK if role == DISPLAY else self.READ_TIP if role == TOOLTIP else monospace() if role == FONT else None
        if orientation == Qt.Orientation.Horizontal and role == TOOLTIP and section == BYTES:
            return INPUT_BYTES_TIP
        if orientation == Qt.Orientation.Horizontal and role == TOOLTIP and section == APPLIED:
            return self.APPLIED_TIP
        if role != DISPLAY:
            return None
        if orientation == Qt.Orientation.Horizontal:
            return self.HEADERS[COLUMNS[section]] if 0 <= section < len(COLUMNS) else None
        return str(section + 1)

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        # The roles no cell answers leave first; what a cell looks like comes from its row's looks (`looks_of`: the
        # delegate asks for them through multiData, once per cell), the texts formatted from row_texts.
        if role not in ANSWERED:
            return None
        row, rows = index.row(), self.rows
        if not 0 <= row < len(rows):
            return None
        position, column = rows[row], index.column()
        slot = LOOK_SLOT.get(role)
        if slot is not None:
            return self.looks_of(self._key(position))[column][slot]
        if role == USER:
            return position
        if column == self.CAP_COLUMN:
            return self._cap_tooltip(position)
        if column == self.READ_COLUMN:
            return self.reads.get(self.index_data.entries[position].key)
        return self._tooltip(position, column)  # the one role left

    def multiData(self, index: Index, span: QModelRoleDataSpan) -> None:  # type: ignore[override]  # noqa: N802 — Qt's name; Qt hands a span (the stub's QModelRoleData is a C++ conversion)
        if not delegate_asks(span):
            super().multiData(index, span)  # each role through data()
            return
        row, rows = index.row(), self.rows
        if 0 <= row < len(rows):
            # From the looks the table compared after a cursor move (row_keys, looks_of): each made once, not again to paint.
            font, align, foreground, text, background = self.looks_of(self._key(rows[row]))[index.column()]
            # Every role it asks is set, None too: the delegate hands the same request from cell to cell.
            for slot, value in enumerate((font, align, foreground, None, None, text, background)):  # DELEGATE_ROLES
                span[slot].setData(value)  # type: ignore[index]  # the span is a sequence at run time; its stub says not

    def _look_of(self, position: int, column: int, falls: bool, answer: bool, read: bool) -> tuple[Any, ...]:
        """A cell's font, alignment, foreground, text and background (LOOK_ROLES; None: the view's own), told what it
        depends on besides the entry: whether it falls, is the resolver's answer, was read (the read mark's column only)."""
        if column == self.CAP_COLUMN:  # "at cap": a tag, muted, where the entry falls; nothing else
            return monospace(), None, MUTED if falls else None, FALLS_TAG if falls else None, None
        if column == self.READ_COLUMN:  # the read mark: green, centred, alone in its column
            return monospace(), CENTRE, READ_FOREGROUND, READ_MARK if read else None, None
        applied = column == APPLIED and self.index_data.entries[position].applied
        return (None if column == APPLIED else monospace(), RIGHT if column == BYTES else None,
                MUTED if falls else PERSON if applied else None, self.row_texts(position)[column],
                HIGHLIGHT if answer else PERSON_BACKGROUND if applied else None)

    def row_keys(self, first: int, last: int) -> list[tuple[int, bool, bool, bool]]:
        """What rows `first` to `last` look like depends on, row by row: the entry, whether it falls, is the resolver's
        answer, was read. Rows of equal keys look the same (`looks_of`): after a cursor move the table repaints the
        cells that look otherwise than the ones they replace (StillRowsTable.repainting_what_changes)."""
        rows, key = self.rows, self._key
        return [key(rows[row]) for row in range(first, last + 1)]

    def _key(self, position: int) -> tuple[int, bool, bool, bool]:
        """The entry at `position`'s key (`row_keys`): its position, whether it falls, is the resolver's answer, was read."""
        reads = self.reads
        return (position, position < self.fell, position == self.highlighted,
                bool(reads) and self.index_data.entries[position].key in reads)

    def looks_of(self, key: tuple[int, bool, bool, bool]) -> tuple[tuple[Any, ...], ...]:
        """The looks of a row's cells, column by column, for its `row_keys` key; kept (a screenful many times over)."""
        look = self._looks.get(key)
        if look is None:
            if len(self._looks) >= TEXTS_KEPT:
                self._looks.clear()
            look = self._looks[key] = tuple(self._look_of(key[0], column, *key[1:]) for column in range(self.columnCount()))
        return look

    def row_texts(self, position: int) -> tuple[str, ...]:
        """The texts of the entry at `position`, one per column of COLUMNS: formatted once, kept for the next paints."""
        texts = self._texts.get(position)
        if texts is None:
            if len(self._texts) >= TEXTS_KEPT:
                self._texts.clear()
            entry = self.index_data.entries[position]
            texts = self._texts[position] = (str(entry.id), entry.call, entry.unit or "", PERSON_MARK if entry.applied else "",
                                             shape_of(entry), format_size(input_bytes(entry)))
        return texts

    def _tooltip(self, position: int, column: int) -> str | None:
        entry, name = self.index_data.entries[position], COLUMNS[column]
        if name == "bytes":
            return size_tooltip(input_bytes(entry))
        if name == "applied" and entry.applied:
            of = f" of {entry.edit_of}" if entry.edit_of is not None else ""
            return f"✎ person: a person's canvas edit{of}: the editor stored it with applied: true"
        if name == "shape":
            return shape_of(entry, limit=2000)
        if name in ("id", "call"):
            return f"{entry.call} · recorded at {entry.where}" + (f" by body {entry.body}" if entry.body is not None else "")
        return None

    def _cap_tooltip(self, position: int) -> str | None:
        if position >= self.fell:
            return None
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
        if name is None and self._unfiltered():
            self.rows = self._query_rows(0, self.count)
        else:
            self.rows = self.index_data.sorted(old_rows if name else sorted(old_rows), name, spec.descending)
        self._row_by_entry = None
        persistent = self.persistentIndexList()
        moved = []
        for kept in persistent:
            row = self.row_of(old_rows[kept.row()]) if kept.row() < len(old_rows) else None
            moved.append(self.index(row, kept.column()) if row is not None else QModelIndex())
        self.changePersistentIndexList(persistent, moved)
        self.layoutChanged.emit()
