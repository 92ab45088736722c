"""RowsModel: a small flat table over a list of rows with fixed column titles (reset on change)."""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QModelRoleDataSpan, Qt

from wsi_inspector.gui.window.look import DELEGATE_ROLES, DISPLAY, Index, delegate_asks


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

    def multiData(self, index: Index, span: QModelRoleDataSpan) -> None:  # type: ignore[override]  # noqa: N802 — Qt's name; Qt hands a span (the stub's QModelRoleData is a C++ conversion)
        # The delegate asks a cell's seven roles in one call (wsi_inspector.gui.window.look.DELEGATE_ROLES): they are answered
        # by data() here, one call from Qt into Python per cell rather than seven. Every role is set,
        # None too: the request is handed from cell to cell.
        if not delegate_asks(span):
            super().multiData(index, span)  # each role through data()
            return
        for slot, role in enumerate(DELEGATE_ROLES):
            span[slot].setData(self.data(index, role))  # type: ignore[index]  # the span is a sequence at run time; its stub says not

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = DISPLAY) -> Any:
        if role == DISPLAY and orientation == Qt.Orientation.Horizontal and 0 <= section < len(self.HEADERS):
            return self.HEADERS[section]
        return None
