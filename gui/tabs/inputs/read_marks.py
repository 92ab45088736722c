"""A ● beside the entries the body at the cursor read, in the Inputs table (SPEC 7, issue 30).

The table's read-mark column (ManifestModel.READ_COLUMN: READ_MARK, one glyph, beside the ✎ mark) marks the
entries the cursor's body read (from the Run tab's replay, or a replay the Reads page made; no replay runs
here), "body b7 read this entry: inputs.last(…) at line 3" in its tooltip. The mark was drawn in the call's
own cell, and took the room of the call beside it (issue 31): an id, never cut while room can be had.
Kept apart from the Inputs view: it needs only the table's model and the context.
It also keeps, per entry read, the JSON Pointers read in its input (`paths_of`), which the Inputs
view's JSON tree paints in the theme's `read_background` with "read by b7 at line 3" as the tooltip.
"""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Signal

from wsi_inspector.core.edits.body_reads import cached_reads
from wsi_inspector.core.session.model import Entry
from wsi_inspector.gui.tabs.inputs.models import ManifestModel


class ReadMarks(QObject):
    """What the cursor's body read: its entries marked in the table's model, the paths read in each kept."""

    changed = Signal()  # the reads known for the cursor's body changed (the JSON tree repaints its marks)

    def __init__(self, model: ManifestModel, context: Any):
        super().__init__(model)
        self.model, self.context = model, context
        self.body: str | None = None
        self.read: dict[str, str] = {}  # entry key → how it was read (for the tooltip)
        self.paths: dict[str, dict[str, str]] = {}  # entry key → {JSON Pointer read: "read by b7 at line 3"}
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
        if self._marks() == before:
            return  # nothing marked before or after (most moves): the table and the JSON tree are not repainted for it
        self.model.set_reads({key: f"body {self.body} read this entry: {how}" for key, how in self.read.items()})
        self.changed.emit()

    def _marks(self) -> tuple[str | None, dict[str, str], dict[str, dict[str, str]]] | None:
        """What the marks paint: None while nothing is marked (then which body the cursor is at paints nothing)."""
        return (self.body, self.read, self.paths) if self.read or self.paths else None

    def paths_of(self, entry: Entry) -> dict[str, str]:
        """The JSON Pointers the cursor's body read in `entry`'s input, each with its tooltip; {} when none known."""
        return self.paths.get(entry.key, {})
