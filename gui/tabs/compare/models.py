"""The compare window's two tables: the aligned steps (A and B on one row, gaps shown) and one step's calls.

Both are small flat tables over the `wsi compare` document's own dicts (`wsi_inspector.core.edits.compare`), so the
window shows exactly what `wsi compare --json` says.
"""
from __future__ import annotations

from typing import Any

from wsi_inspector.core.edits.compare import CompareDocument
from wsi_inspector.gui.window.look import BACKGROUND, DECORATION, DISPLAY, FONT, FOREGROUND, MUTED, TOOLTIP, Index, bold_monospace, status_icon
from wsi_inspector.gui.widgets.rows_model import RowsModel
from wsi_inspector.gui.window.theme import colour

GAP = "—"  # a step one session does not have
DIFFERS = colour("error")
DIVERGENCE_BACKGROUND = colour("person_background")


def step_verdict(step: dict[str, Any]) -> str:
    """`same`, `only in A`, `only in B`, or what differs: `code, calls, outcome`."""
    if step["a"] is None:
        return "only in B"
    if step["b"] is None:
        return "only in A"
    if step["same"]:
        return "same"
    parts = ["code"] if step["code"] == "differs" else []
    if any(not c["same"] for c in step["calls"]):
        parts.append("calls")
    if "handed" in step:
        parts.append("handed")
    if step["outcome"]["a"] != step["outcome"]["b"] or (step.get("errors", {}).get("a") != step.get("errors", {}).get("b")):
        parts.append("outcome")
    parts.extend(name for name in ("kept", "returned") if name in step)
    return "differs: " + ", ".join(parts)


def call_verdict(item: dict[str, Any]) -> str:
    """`same`, `only in A`, `only in B`, `input: 3 changes`, `output: 1 change` …"""
    if item["a"] is None:
        return "only in B"
    if item["b"] is None:
        return "only in A"
    if item["same"]:
        return "same"
    parts = []
    for key, word in (("changes", "input"), ("outputChanges", "output")):
        if key in item:
            count = len(item[key])
            parts.append(f"{word}: {count} change{'s' if count != 1 else ''}")
    if "units" in item:
        parts.append(f"unit {item['units']['a']} / {item['units']['b']}")
    if "output" in item:
        parts.append("output on one side only")
    if "applied" in item:
        parts.append("edit on one side only")
    return ", ".join(parts) or "differs"


class StepsModel(RowsModel):
    """The aligned steps, one row each: A's body, B's body (a gap `—`), and what differs."""

    HEADERS = ("#", "A", "B", "verdict")

    def __init__(self, parent: Any = None):
        super().__init__(parent)
        self.first: int | None = None  # the row of the first divergence
        self.why = ""  # and why, in one line

    def set_document(self, document: CompareDocument | None) -> None:
        """Show a compare document's steps (None: nothing compared)."""
        divergence = document["firstDivergence"] if document else None
        self.first = divergence["step"] - 1 if divergence else None
        self.why = divergence["why"] if divergence else ""
        self.replace_rows(list(document["steps"]) if document else [])

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.rows):
            return None
        step, column, row = self.rows[index.row()], index.column(), index.row()
        side = "a" if column == 1 else "b" if column == 2 else None
        if role == DISPLAY:
            if column == 0:
                return str(row + 1)
            if side is not None:
                return GAP if step[side] is None else str(step[side])
            return ("≠ " if row == self.first else "") + step_verdict(step)
        if role == DECORATION and side is not None and step[side] is not None:
            return status_icon(step["outcome"][side] or "none")
        if role == FOREGROUND:
            if side is not None and step[side] is None:
                return MUTED
            if column == 3 and not step["same"]:
                return DIFFERS
        if role == FONT and row == self.first:
            return bold_monospace()
        if role == BACKGROUND and row == self.first:
            return DIVERGENCE_BACKGROUND
        if role == TOOLTIP and row == self.first:
            return "first divergence: " + self.why
        return None

    def step(self, row: int) -> dict[str, Any] | None:
        return self.rows[row] if 0 <= row < len(self.rows) else None

    def next_difference(self, row: int, step: int) -> int | None:
        """The next row from `row` (exclusive) going `step` (1 or -1) that is not the same, or None."""
        at = row + step
        while 0 <= at < len(self.rows):
            if not self.rows[at]["same"]:
                return at
            at += step
        return None


class CompareCallsModel(RowsModel):
    """One step's calls (and the entries it was handed, tagged), A's and B's side by side with the verdict."""

    HEADERS = ("call", "A", "B", "verdict")

    def set_step(self, step: dict[str, Any] | None) -> None:
        """Show a step's handed entries, then its calls (None: no step)."""
        if step is None:
            self.replace_rows([])
            return
        handed = [{**item, "handed": True} for item in step.get("handed", [])]
        self.replace_rows(handed + list(step["calls"]))

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.rows):
            return None
        item, column = self.rows[index.row()], index.column()
        if role == DISPLAY:
            if column == 0:
                return ("handed: " if item.get("handed") else "") + item["call"]
            if column in (1, 2):
                value = item["a" if column == 1 else "b"]
                return GAP if value is None else str(value)
            return call_verdict(item)
        if role == FOREGROUND and column == 3 and not item["same"]:
            return DIFFERS
        if role == FOREGROUND and column in (1, 2) and item["a" if column == 1 else "b"] is None:
            return MUTED
        return None

    def item(self, row: int) -> dict[str, Any] | None:
        return self.rows[row] if 0 <= row < len(self.rows) else None

    def first_difference(self) -> int:
        """The row to choose first: the first call that differs, else the first."""
        return next((row for row, item in enumerate(self.rows) if not item["same"]), 0)

