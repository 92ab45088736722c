""""read by b7" beside the entries the body at the cursor read, in the Inputs table (SPEC 7, issue 30).

A delegate on the call column paints the view's own cell, narrowed, and a small tag in the room it
left at its right edge for the entries the cursor's body read (from the Run tab's replay, or a replay the Reads page made; no
replay runs here). Kept apart from the Inputs view: it needs only the table and the context.
It also keeps, per entry read, the JSON Pointers read in its input (`paths_of`), which the Inputs
view's JSON tree paints in the theme's `read_background` with "read by b7 at line 3" as the tooltip.
"""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFontMetrics, QPainter
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem, QTableView

from wsi_inspector.core.edits.body_reads import cached_reads
from wsi_inspector.core.session.model import Entry
from wsi_inspector.gui.widgets.elide import ids_in_the_middle
from wsi_inspector.gui.window.look import CELL_PADDING, USER, Index, monospace
from wsi_inspector.gui.window.theme import colour


READ_MARK = "●"  # a read entry's mark where its call leaves no room for "read by b7" (the words in the tooltip)
TAG_ROOM = 10  # px around the tag


class ReadMarks(QStyledItemDelegate):
    """The call column's painter: the cell as always, and `read by B` beside it where body B read that entry."""

    COLUMN = 1  # the call: the widest column, whole (elided in the middle only when no room can be had)
    changed = Signal()  # the reads known for the cursor's body changed (the JSON tree repaints its marks)

    def __init__(self, table: QTableView, context: Any):
        super().__init__(table)
        self.table, self.context = table, context
        self.body: str | None = None
        self.read: dict[str, str] = {}  # entry key → how it was read (for the tooltip)
        self.paths: dict[str, dict[str, str]] = {}  # entry key → {JSON Pointer read: "read by b7 at line 3"}
        # What paints the column while nothing is marked: a call is an id, cut (if it must be) in the middle.
        ids_in_the_middle(table, self.COLUMN)
        self.plain = table.itemDelegateForColumn(self.COLUMN)
        context.cursor_changed.connect(self.refresh)
        context.badges_changed.connect(self.refresh)
        context.session_changed.connect(self.refresh)

    def refresh(self, *_args: Any) -> None:
        """Mark what the cursor's body read (when its reads are known)."""
        session, cursor = self.context.session, self.context.cursor
        before = self._marks()
        reads = None
        if session is not None and cursor is not None:
            reads = (self.context.evidence.get(str(cursor)) or {}).get("reads") or cached_reads(session, cursor)
        self.body = None if reads is None else str(cursor)
        self.read = {}
        self.paths = {}
        # Keyed by entry, not by place in the store: an entry the body read was in the store it was handed,
        # and a map of that whole store (a million entries) was made on every cursor move.
        for read in reads or ():
            if read.get("entry") is None:
                continue
            key = str(read["entry"])
            self.read.setdefault(key, f"{read['what']}({read['arg'] or ''}) at line {read['line']}")
            read_paths = self.paths.setdefault(key, {})  # the first read of a path names its line, as the read's own place does
            for path in read.get("paths") or ():
                read_paths.setdefault(path, f"read by {self.body} at line {read['line']}")
        # Painting through this delegate costs calls into Python a row: only while a row is marked.
        wanted = self if self.read else self.plain
        if self.table.itemDelegateForColumn(self.COLUMN) is not wanted:
            self.table.setItemDelegateForColumn(self.COLUMN, wanted)  # None: the view's own
        if self._marks() == before:
            return  # nothing marked before or after (most moves): the table and the JSON tree are not repainted for it
        self.table.viewport().update()
        self.changed.emit()

    def _marks(self) -> tuple[str | None, dict[str, str], dict[str, dict[str, str]]] | None:
        """What the marks paint: None while nothing is marked (then which body the cursor is at paints nothing)."""
        return (self.body, self.read, self.paths) if self.read or self.paths else None

    def paths_of(self, entry: Entry) -> dict[str, str]:
        """The JSON Pointers the cursor's body read in `entry`'s input, each with its tooltip; {} when none known."""
        return self.paths.get(entry.key, {})

    def tag(self, index: Index) -> str | None:
        """`read by b7` for the row of an entry the body read, else None."""
        return f"read by {self.body}" if self.body is not None and self._key(index) in self.read else None

    def _key(self, index: Index) -> str | None:
        """The key of the entry in `index`'s row (the model's USER role is its place in the session's entries)."""
        position = index.data(USER)
        entries = self.context.index.entries
        return entries[position].key if isinstance(position, int) and 0 <= position < len(entries) else None

    def initStyleOption(self, option: QStyleOptionViewItem, index: Index) -> None:  # noqa: N802 — Qt's hook
        super().initStyleOption(option, index)
        # A call is an id: cut, if it ever must be, in the middle (both ends read); the table's prose ends.
        option.textElideMode = Qt.TextElideMode.ElideMiddle

    def shown_tag(self, index: Index, width: int) -> str | None:
        """What a cell `width` px wide shows beside its call: `read by b7`, or where the call and the words do not
        both fit, the mark alone (READ_MARK, the words in the tooltip): the call is an id, whole first."""
        text = self.tag(index)
        if text is None:
            return None
        metrics = QFontMetrics(monospace())
        call = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
        if metrics.horizontalAdvance(call) + metrics.horizontalAdvance(text) + TAG_ROOM + CELL_PADDING > width:
            return READ_MARK
        return text

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        text = self.shown_tag(index, option.rect.width())
        if text is None:
            super().paint(painter, option, index)
            return
        room = QFontMetrics(monospace()).horizontalAdvance(text) + TAG_ROOM
        narrowed = QStyleOptionViewItem(option)
        narrowed.rect = option.rect.adjusted(0, 0, -room, 0)
        alternate = option.features & QStyleOptionViewItem.ViewItemFeature.Alternate
        painter.fillRect(option.rect, option.palette.highlight() if option.state & QStyle.StateFlag.State_Selected
                         else option.palette.alternateBase() if alternate else option.palette.base())
        super().paint(painter, narrowed, index)
        painter.save()
        painter.setFont(monospace())
        painter.setPen(colour("ok"))
        painter.drawText(option.rect.adjusted(0, 0, -4, 0), int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter), text)
        painter.restore()

    def helpEvent(self, event: Any, view: Any, option: QStyleOptionViewItem, index: Index) -> bool:  # noqa: N802 — Qt's hook
        key = self._key(index)
        if self.body is not None and key in self.read:
            from PySide6.QtWidgets import QToolTip

            QToolTip.showText(event.globalPos(), f"body {self.body} read this entry: {self.read[key]}", view)
            return True
        return super().helpEvent(event, view, option, index)
