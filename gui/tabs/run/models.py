"""The Run tab's two tables as item models: the calls a run made, and the verdicts of a replay."""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt

from wsi_inspector.core.runner.report import recorded_calls_text, source_text
from wsi_inspector.core.jsrules.jsonsize import compact_json
from wsi_inspector.core.runner.replay import Verdict
from wsi_inspector.gui.window.look import BADGE_WORDS, DISPLAY, FOREGROUND, TOOLTIP
from wsi_inspector.gui.widgets.rows_model import RowsModel
from wsi_inspector.gui.window.theme import colour

Index = QModelIndex | QPersistentModelIndex
OUTCOME_SHOWN = 200  # characters of a call's output in its cell; the tooltip has as many


class CallsModel(RowsModel):
    """The module calls of the last run: id, call, line, where its output came from, outcome (failed in red)."""

    HEADERS = ("id", "call", "line", "from", "outcome")  # "from": "output from" was cut to "ɔutput fron" at 1024 px
    FROM_TIP = "where the call's output came from: the recorded entry that answered it, or the runner"

    def set_calls(self, calls: list[dict[str, Any]]) -> None:
        """Show the `calls` of a result document (SPEC 5)."""
        self.replace_rows([(call, self._cells(call)) for call in calls])

    @staticmethod
    def _cells(call: dict[str, Any]) -> tuple[str, ...]:
        outcome = f"failed: {call['error']}" if "error" in call else compact_json(call.get("output"))[:OUTCOME_SHOWN]
        return (str(call["id"]), call["call"], str(call.get("line", "")), source_text(call.get("source")), outcome)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = DISPLAY) -> Any:  # noqa: N802 — Qt's name
        if role == TOOLTIP and orientation == Qt.Orientation.Horizontal and section == 3:
            return self.FROM_TIP
        return super().headerData(section, orientation, role)

    def call_at(self, row: int) -> dict[str, Any] | None:
        """The call shown in `row`."""
        return self.rows[row][0] if 0 <= row < len(self.rows) else None

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.rows):
            return None
        call, cells = self.rows[index.row()]
        failed = "error" in call
        if role == DISPLAY:
            return cells[index.column()]
        if role == TOOLTIP:
            return call["error"] if failed and index.column() == 4 else cells[index.column()]
        if role == FOREGROUND and failed:
            return colour("error")
        return None


class ReplayModel(RowsModel):
    """One row per replayed body as its verdict arrives: body, verdict, recorded calls, first difference."""

    HEADERS = ("body", "verdict", "recorded calls", "first difference")

    def clear(self) -> None:
        """No verdicts (a new replay, another session)."""
        self.replace_rows([])

    def add(self, verdict: Verdict, badge: str) -> int:
        """Append one body's verdict and badge (wsi_inspector.core.runner.replay.replay_badge); returns its row."""
        row = len(self.rows)
        self.beginInsertRows(QModelIndex(), row, row)
        self.rows.append((verdict, badge))
        self.endInsertRows()
        return row

    @property
    def verdicts(self) -> list[Verdict]:
        """The verdicts shown, in row order."""
        return [verdict for verdict, _badge in self.rows]

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.rows):
            return None
        verdict, badge = self.rows[index.row()]
        same = verdict["same"]
        recorded = ", ".join(map(str, verdict.get("recordedCalls", [])))
        cells = (str(verdict["body"]), BADGE_WORDS.get(badge, badge), recorded, "" if same else verdict["firstDifference"]["message"])
        if role == DISPLAY:
            return cells[index.column()]
        if role == TOOLTIP:
            if index.column() == 2 and recorded:
                return recorded_calls_text(verdict.get("recordedCalls", [])) + "; choose one below to see it in Inputs"
            return cells[index.column()]
        if role == FOREGROUND and not same:
            return colour("error")
        if role == FOREGROUND and badge == "same-failed":
            return colour("warning")  # the same as recorded, and that is a failure: not the plain "same"
        return None
