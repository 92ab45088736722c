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

A change made inside `repainting_what_changes()` (the Inputs tab's cursor move) repaints only the cells that
look otherwise after it than before: its rows come and go, the table scrolls to another screenful, and the cells
of entries of the same call, unit and shape, or empty, look as the ones they replace (two thirds of them on a
real-shaped session). What a row looks like depends on its model's `row_keys(first, last)` (rows of equal keys look
the same; `looks_of(key)` gives their cells' looks, compared only for rows whose keys differ), its parity, selection
and focus; the viewport's size, the columns, the palette and the focus must be as they were, else the viewport
repaints whole (as it does for a model without `row_keys`). Rows that moved by part of a row (the table's end is
aligned with the viewport's bottom, anywhere else its first row with the top) have their painted pixels scrolled
with them first, and are compared with what then lies under them.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, QRect, Qt
from PySide6.QtGui import QPaintEvent, QRegion
from PySide6.QtWidgets import QTableView, QWidget

from wsi_inspector.gui.widgets.cell_painting import CellPainter

Index = QModelIndex | QPersistentModelIndex


class StillRowsTable(QTableView):
    """A QTableView; rows inserted or removed below those it shows do not repaint the ones it shows.

    `held_layouts` counts the layouts that kept the shown rows as painted (tests count it).
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._below: bool | None = None  # since the last layout: None no change, True all below the rows shown
        self.held_layouts = 0
        self._resets = 0  # models reset: a row's key (`row_keys`) may name another entry after one
        self.cells = CellPainter(self)  # the viewport's cells in one pass, from the model's row looks (cell_painting)
        self.one_pass = True  # False: Qt paints the cells (tests compare the two)

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
            model.modelReset.connect(self._reset)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 — Qt's hook
        """The viewport's cells in one pass where the model has row looks (cell_painting), else as Qt paints them."""
        if self.one_pass and self.cells.can_paint():
            self.cells.paint(event.region())
        else:
            super().paintEvent(event)

    def _reset(self) -> None:
        self._resets += 1

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
        holding = viewport.testAttribute(HELD)  # inside repainting_what_changes: held until it ends
        viewport.setAttribute(HELD, True)
        try:
            super().doItemsLayout()
        finally:
            viewport.setAttribute(HELD, holding)
        if bar.value() != offset:  # the table got shorter than its offset: the rows shown moved
            viewport.update()
        else:
            self.held_layouts += 1

    @contextmanager
    def repainting_what_changes(self) -> Iterator[None]:
        """Inside, the viewport repaints nothing; after, the cells that look otherwise than before (the module's docstring)."""
        viewport = self.viewport()
        if viewport.testAttribute(HELD) or not self.isVisible() or getattr(self.model(), "row_keys", None) is None:
            yield  # held already (a change inside another), nothing to repaint, or no looks to compare
            return
        frame, lines, resets = self._frame(), self._lines(), self._resets  # what the rows' looks depend on as painted
        viewport.setAttribute(HELD, True)  # what Qt asks (a layout, a scroll, a row selected) is dropped meanwhile
        try:
            yield
        finally:
            viewport.setAttribute(HELD, False)
            if self._frame() != frame or self._resets != resets or viewport.children():
                # Another frame or another model's rows: all of it, as Qt would (no looks asked). So too with a widget
                # on the viewport (an editor): Qt scrolls a viewport with children even while its repaints are held,
                # so its pixels are no longer where the rows were painted.
                viewport.update()
            else:
                self._repaint_changed(lines, self._lines())

    def _frame(self) -> tuple[Any, ...]:
        """What places and colours every cell but the rows' vertical places: the viewport's size, the columns, the grid,
        the palette, the focus."""
        header = self.horizontalHeader()
        columns = tuple((header.sectionViewportPosition(c), header.sectionSize(c), header.isSectionHidden(c))
                        for c in range(self.model().columnCount()))
        return (self.viewport().size(), columns, self.showGrid(),
                self.palette().cacheKey(), self.hasFocus(), self.isActiveWindow(), self.alternatingRowColors())

    def _lines(self) -> list[tuple[Any, ...]]:
        """Per row shown: the row, its parity, selection and focus, what its cells' looks depend on (`row_keys`), and
        its top and height in the viewport."""
        shown = self._rows_shown()
        if shown is None:
            return []
        ranges = self.selectionModel().selection()
        selected = [(r.top(), r.bottom()) for r in (ranges.at(i) for i in range(ranges.size())) if not r.parent().isValid()]  # a few
        current = self.currentIndex()
        focus_row, focus_column = current.row(), current.column()
        place, tall = self.rowViewportPosition, self.rowHeight
        return [(row, row % 2, any(top <= row <= bottom for top, bottom in selected), focus_column if row == focus_row else -1, looks,
                 place(row), tall(row))
                for row, looks in enumerate(self.model().row_keys(*shown), shown[0])]  # type: ignore[attr-defined]  # asked for above

    def _repaint_changed(self, before: list[tuple[Any, ...]], after: list[tuple[Any, ...]]) -> None:
        """Repaint the rows whose parity, selection or focus changed, and in the others the cells whose look did.

        Each row shown is compared with the row painted where it now is. When the rows moved by part of a row (at its
        end Qt aligns the table's last row with the viewport's bottom, elsewhere its first row with the top) the
        pixels painted before are scrolled first, by the shift that leaves the most rows looking as they did (the same
        rows, else rows of the same parity), and each row is compared with the one whose pixels it then covers."""
        viewport = self.viewport()
        width, bottom = viewport.width(), viewport.height()
        pairs, shift = _pairing(before, after, bottom)
        if pairs is None:
            viewport.update()  # rows of other heights, or a shift of a screenful: nothing painted is where a row is
            return
        if shift:
            viewport.scroll(0, shift)  # the rows' pixels where the rows now are; Qt repaints the strip it uncovers
        region = QRegion()
        looks_of = self.model().looks_of  # type: ignore[attr-defined]  # row_keys' partner
        columns = sorted((self.columnViewportPosition(column), self.columnWidth(column), column)  # as shown, left to right
                         for column in range(self.model().columnCount()) if not self.isColumnHidden(column))
        for old, new in pairs:
            top, height = new[5], new[6]
            if old is None or old[1:4] != new[1:4]:
                region += QRect(0, top, width, height)
                continue
            if old[4] == new[4]:
                continue  # the same entry in the same state: the same looks
            was, now = looks_of(old[4]), looks_of(new[4])
            left = right = -1  # the changed cells side by side, one rectangle (a region grows by each rectangle added)
            for x, column_width, column in columns:
                if was[column] == now[column]:
                    continue
                if x != right:
                    if right > left:
                        region += QRect(left, top, right - left, height)
                    left = x
                right = x + column_width
            if right > left:
                region += QRect(left, top, right - left, height)
        below = max((line[5] + line[6] for line in after), default=0)  # the room below the rows now
        painted = min(bottom, max((line[5] + line[6] for line in before), default=0) + shift)  # where rows were painted
        if below < painted:
            region += QRect(0, below, width, painted - below)
        if not region.isEmpty():
            viewport.update(region)


def _pairing(before: list[tuple[Any, ...]], after: list[tuple[Any, ...]], height: int
             ) -> tuple[list[tuple[tuple[Any, ...] | None, tuple[Any, ...]]] | None, int]:
    """Each line after with the line before whose pixels, scrolled by the shift returned, cover its place (None: no
    line's); the shift keeps the most lines alike. None when no shift lines all the rows up (rows of other heights)."""
    if not before or not after:
        return [(None, line) for line in after], 0
    place = {line[0]: number for number, line in enumerate(before)}
    offsets = {0, 1, -1}
    for number, line in enumerate(after):  # a row shown before and after: its own pixels
        if line[0] in place:
            offsets.add(place[line[0]] - number)
            break
    best: tuple[tuple[int, int], list[tuple[tuple[Any, ...] | None, tuple[Any, ...]]], int] | None = None
    for offset in offsets:
        pairs = [(before[number + offset] if 0 <= number + offset < len(before) else None, line) for number, line in enumerate(after)]
        shifts = {new[5] - old[5] for old, new in pairs if old is not None}
        if len(shifts) != 1 or any(old[6] != new[6] for old, new in pairs if old is not None):
            continue  # the rows do not all move alike
        shift = shifts.pop()
        if abs(shift) >= height:
            continue
        alike = sum(2 if old[1:5] == new[1:5] else old[1:4] == new[1:4] for old, new in pairs if old is not None)
        score = (alike, -abs(shift))
        if best is None or score > best[0]:
            best = (score, pairs, shift)
    return (best[1], best[2]) if best is not None else (None, 0)


HELD = Qt.WidgetAttribute.WA_UpdatesDisabled  # on the viewport: what Qt asks it to repaint is dropped
