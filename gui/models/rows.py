"""RowsModel: a small flat table over a list of rows with fixed column titles (reset on change)."""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt

from gui.look import DISPLAY, Index


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
