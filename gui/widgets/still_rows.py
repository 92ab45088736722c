"""A table that does not repaint the rows it shows when rows come or go below them (issue 28.3).

A cursor move adds or removes the store's rows at the end of the Inputs table, mostly far below the
screenful shown. Qt answers any change of the row count by laying the view out again and repainting
its whole viewport: every cell shown painted afresh, the same cells, 4–6 ms of each move (a third of
it). Here, while every change since the last layout was below the last row shown, the layout runs
with the viewport's repaint held back; the scroll bar follows as ever. Anything else — a row
inserted or removed at or above the last row shown, a viewport with room below its rows, the
offset clamped by a shorter table, a shown row changed while the layout is pending — repaints as
Qt does. A change of rows in place (`dataChanged`) repaints the changed rows shown, and no others:
Qt repainted the whole viewport for any range of many rows, as when the entries that fall at the cap
move far below those shown (every move on a million-entry session).
"""
from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import QTableView, QWidget

Index = QModelIndex | QPersistentModelIndex


class StillRowsTable(QTableView):
    """A QTableView; rows inserted or removed below those it shows do not repaint the ones it shows.

    `held_layouts` counts the layouts that kept the shown rows as painted (tests count it).
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._below: bool | None = None  # since the last layout: None no change, True all below the rows shown
        self.held_layouts = 0

    def _note(self, parent: Index, first: int) -> None:
        """A change of rows from `first` on: below the shown rows only when the viewport is full of rows above it."""
        last_shown = self.rowAt(self.viewport().height() - 1)  # -1: room below the last row, or none at all
        below = not parent.isValid() and 0 <= last_shown < first
        self._below = below if self._below is None else self._below and below

    def setModel(self, model: QAbstractItemModel | None) -> None:  # noqa: N802 — Qt's hook
        super().setModel(model)
        if model is not None:  # anything else that moves rows or columns repaints them all, as Qt does
            for signal in (model.modelReset, model.layoutChanged, model.rowsMoved, model.columnsInserted,
                           model.columnsRemoved, model.columnsMoved):
                signal.connect(self._repaint_all)

    def _repaint_all(self, *_args: object) -> None:
        self._below = False if self._below is not None else None

    def _rows_shown(self) -> tuple[int, int] | None:
        """The first and last rows in the viewport (the last row when there is room below it); None: no row."""
        first = self.rowAt(0)
        if first < 0:
            return None
        last = self.rowAt(self.viewport().height() - 1)
        return first, last if last >= 0 else self.model().rowCount() - 1

    def dataChanged(self, top_left: Index, bottom_right: Index, roles: list[int] = []) -> None:  # type: ignore[override]  # noqa: N802, B006 — Qt's hook and default
        """Repaint the changed rows that are shown, no others. Qt repaints the whole viewport for a range of more than a
        few rows, shown or not: the rows whose entries start to fall at the cap, far below, repainted every row shown."""
        shown = self._rows_shown()
        if shown is not None and top_left.isValid() and bottom_right.isValid() and not top_left.parent().isValid():
            top, bottom = max(top_left.row(), shown[0]), min(bottom_right.row(), shown[1])
            if top > bottom:
                return  # no row shown changed
            model = self.model()
            top_left, bottom_right = model.index(top, top_left.column()), model.index(bottom, bottom_right.column())
        self._repaint_all()  # while a layout is pending Qt leaves the repaint to it, so that layout must not be held
        super().dataChanged(top_left, bottom_right, roles)

    def rowsInserted(self, parent: Index, first: int, last: int) -> None:  # noqa: N802 — Qt's hook
        self._note(parent, first)
        super().rowsInserted(parent, first, last)

    def rowsAboutToBeRemoved(self, parent: Index, first: int, last: int) -> None:  # noqa: N802 — Qt's hook
        self._note(parent, first)
        super().rowsAboutToBeRemoved(parent, first, last)

    def doItemsLayout(self) -> None:  # noqa: N802 — Qt's hook
        held, self._below = self._below is True, None
        if not held:
            super().doItemsLayout()
            return
        bar = self.verticalScrollBar()
        offset = bar.value()
        viewport = self.viewport()
        # Attribute, not setUpdatesEnabled: enabling updates again would repaint the viewport whole.
        viewport.setAttribute(Qt.WidgetAttribute.WA_UpdatesDisabled, True)
        try:
            super().doItemsLayout()
        finally:
            viewport.setAttribute(Qt.WidgetAttribute.WA_UpdatesDisabled, False)
        if bar.value() != offset:  # the table got shorter than its offset: the rows shown moved
            viewport.update()
        else:
            self.held_layouts += 1
