"""Room for whole ids taken from the pane beside a table (`look.share_width`, docs/window.md "Nothing cut off").

A table whose calls do not fit moves its splitter's handle to take what it lacks from the other pane,
down to what that pane keeps. Measured one turn of the event loop after a resize, when the table has its
width (a table's own resize comes before its viewport's). A handle the person dragged stays where they put
it until what the room depends on but their hand changes: the splitter's width, a pane or the table's
scroll bar shown or hidden, the calls wanted.
"""
from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QHeaderView, QSplitter, QTableView

WIDTH_SEEN = "wsiWidthSeen"  # a splitter's property: _seen when the room was last found or made


def room_for(table: QTableView, column: int) -> int:
    """The px of the table's viewport that the other columns, but a stretched one, leave to `column`."""
    return table.viewport().width() - _others(table, column)


def _others(table: QTableView, column: int) -> int:
    """The px the columns shown beside `column` take, but a stretched one."""
    header = table.horizontalHeader()
    stretch = QHeaderView.ResizeMode.Stretch
    return sum(header.sectionSize(c) for c in range(header.count())
               if c != column and not table.isColumnHidden(c) and header.sectionResizeMode(c) != stretch)


def widen_later(table: QTableView, splitter: QSplitter, column: int, wanted: int, leave: int, keep: int) -> None:
    """Look, once laid out, whether `column` lacks room for `wanted` px beside `leave` px of the stretched
    column, and take it from the other pane (`_widen`); nothing when nothing it depends on changed."""
    if _seen(table, splitter, column, wanted) != splitter.property(WIDTH_SEEN):
        QTimer.singleShot(0, table, lambda: _widen(table, splitter, column, wanted, leave, keep))


def _seen(table: QTableView, splitter: QSplitter, column: int, wanted: int) -> str:
    """What the room depends on but the person's hand: the splitter's width, its panes shown, the table's
    vertical scroll bar (rows that came take 14 px), the width wanted, and the columns beside it (a column
    shown, the Inputs table's read marks or "at cap", takes room from the calls)."""
    shown = "".join("1" if (pane := splitter.widget(n)) is not None and pane.isVisibleTo(splitter) else "0"
                    for n in range(splitter.count()))
    return f"{splitter.width()} {shown} {table.verticalScrollBar().isVisible():d} {wanted} {_others(table, column)}"


def _widen(table: QTableView, splitter: QSplitter, column: int, wanted: int, leave: int, keep: int) -> None:
    """Move the splitter's handle so that `column` has `wanted` px and the stretched one `leave`, taken from
    the other pane (which keeps `keep` px)."""
    sizes = splitter.sizes()
    mine = next((n for n in range(splitter.count())
                 if (pane := splitter.widget(n)) is table or (pane is not None and pane.isAncestorOf(table))), None)
    seen = _seen(table, splitter, column, wanted)
    if len(sizes) != 2 or mine is None or seen == splitter.property(WIDTH_SEEN):
        return
    short = wanted + leave - room_for(table, column)
    if short <= 0:
        splitter.setProperty(WIDTH_SEEN, seen)  # the split as it stands holds the calls
        return
    give = min(short, sizes[1 - mine] - keep)
    if give > 0:  # else the other pane may not have its room yet (shown a moment ago): its resize asks again
        splitter.setProperty(WIDTH_SEEN, seen)
        sizes[mine] += give
        sizes[1 - mine] -= give
        splitter.setSizes(sizes)  # the table's resize shares the width again (its view's share_width)
