"""The kept manifest at the cursor and the keeps refused before it (the Kept tab)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from wsi_inspector.core.search.manifest import shape_text
from wsi_inspector.core.session.model import State
from wsi_inspector.core.jsrules.run_inputs import kept_manifest
from wsi_inspector.core.jsrules.sizes import format_size
from wsi_inspector.gui.window.look import (
    ALIGN, DECORATION, DISPLAY, FONT, FOREGROUND, MUTED, RIGHT, TOOLTIP, Index, monospace, size_tooltip,
    status_icon,
)
from wsi_inspector.gui.widgets.rows_model import RowsModel


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
