"""The Edits tab's two tables: the canvas edits (filled in as their diffs arrive) and one comparison's changes."""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt

from wsi_inspector.core.edits.diff import Change, parse_pointer
from wsi_inspector.core.edits.edit_detail import EditDetail
from wsi_inspector.core.edits.edits import EditDiff, Pairing, change_in_unit, display_path, filter_changes, signed, summary_line, value_text
from wsi_inspector.core.edits.units import both_units, unit_text
from wsi_inspector.gui.window.look import ALIGN, DISPLAY, FONT, FOREGROUND, MUTED, PERSON, RIGHT, TOOLTIP, monospace
from wsi_inspector.gui.window.theme import colour

OP_COLOURS = {"add": colour("add"), "remove": colour("remove"), "replace": colour("replace")}


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

    def add_failures(self, failures: dict[int, str]) -> None:
        """Rows whose diff failed, with why: one dataChanged for the rows they span."""
        if not failures:
            return
        self.failures.update(failures)
        self.dataChanged.emit(self.index(min(failures), 2), self.index(max(failures), 2))

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
        self.chosen_unit: str | None = None  # the unit the person chose to read lengths in (None: the model's)
        self.shown_by_id: dict[int, Change] = {}  # each change (by identity) with its lengths in the shown unit

    @property
    def shown_unit(self) -> str | None:
        """The unit the lengths are shown in: the one chosen, else the model's call's."""
        return self.chosen_unit or self.unit

    def set_changes(self, changes: list[Change], unit: str | None, text: str = "", raw_unit: str | None = None) -> None:
        self.beginResetModel()
        self.changes, self.unit, self.raw_unit = changes, unit, raw_unit
        self.rows = filter_changes(changes, text, unit, raw_unit)
        self._convert()
        self.endResetModel()

    def _convert(self) -> None:
        self.shown_by_id = {id(change): change_in_unit(change, self.unit, self.shown_unit) for change in self.changes}

    def set_shown_unit(self, unit: str | None) -> None:
        """Read lengths in `unit` (None: the model's unit); the rows stay, their numbers change."""
        self.chosen_unit = unit
        self._convert()
        if self.rows:
            self.dataChanged.emit(self.index(0, 2), self.index(len(self.rows) - 1, 5))

    def other_unit(self) -> str | None:
        """The unit a number is also given in, where units differ: the edit's own, or the model's when that is shown."""
        shown = self.shown_unit
        for other in (self.raw_unit, self.unit):
            if other and other != shown:
                return other
        return None

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
        shown = self.shown_by_id.get(id(change), change)
        if column in (2, 3):
            key = "from" if column == 2 else "to"
            if key not in change:
                return ""
            unit = unit_text(self.shown_unit, parse_pointer(change["path"]), shown[key])
            other = self.other_unit()
            if unit and other:  # both numbers where units differ: `34 mm (3.4 cm)`
                both = both_units(shown[key], unit, change_in_unit(change, self.unit, other)[key], other)
                if both:
                    return both
            return value_text(shown[key], 80)
        if column == 4:
            return signed(shown["delta"]) if "delta" in shown else ""
        if column == 5:
            return unit_text(self.shown_unit, parse_pointer(change["path"]), change.get("to", change.get("from")))
        raw = change.get("raw", {})
        key = "from" if column == 6 else "to"
        return value_text(raw[key], 80) if key in raw else ""
