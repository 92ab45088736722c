"""The Run tab's Replay page: one verdict per replayed body, and the recorded calls behind a divergence.

Choosing a verdict lists, under the table, the recorded calls whose outputs answered that body
(those holding the replayed value first); a link goes to that entry in the Inputs tab, and a
double-click loads the body into the editor (both announced as signals; the Run view acts on them).
"""
from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QTableView, QVBoxLayout, QWidget

from wsi_inspector.core.runner.replay import Verdict, replay_badge
from wsi_inspector.gui.widgets.elide import ids_in_the_middle
from wsi_inspector.gui.window.look import fit_column, monospace, row_table
from wsi_inspector.gui.widgets.rows_model import RowsModel
from wsi_inspector.gui.tabs.run.models import ReplayModel


class ReplayPage(QWidget):
    """The replay's verdicts as they arrive, and the recorded calls of the chosen one."""

    body_activated = Signal(object)  # the id of the body whose verdict was double-clicked
    entry_link = Signal(str)  # the id of a recorded entry the person chose

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.model = ReplayModel(self)
        self.table = result_table(self.model, "replayTable")
        self.table.setColumnWidth(2, 150)
        self.table.setColumnHidden(2, True)  # "recorded calls": shown once a verdict has some (an empty column gives its room away)
        self.table.doubleClicked.connect(self._activated)
        self.table.selectionModel().currentRowChanged.connect(lambda current, _: self._show_recorded_calls(current.row()))
        self.calls_label = QLabel(self)
        self.calls_label.setObjectName("replayRecordedCalls")
        self.calls_label.setWordWrap(True)
        self.calls_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        self.calls_label.linkActivated.connect(lambda link: self.entry_link.emit(link.removeprefix("entry:")))
        self.calls_label.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.calls_label)
        fit_column(self.table, 1, ["diverged"])  # the longest verdict, whole
        ids_in_the_middle(self.table, 0)  # the first difference is prose: it ends in "…", not "call 1: recorded …"

    @property
    def verdicts(self) -> list[Verdict]:
        """The replay's verdicts so far, one per row."""
        return self.model.verdicts

    def clear(self, body_keys: Any = ()) -> None:
        """Empty the page for a new replay (or a new session); `body_keys` size the body column."""
        self.model.clear()
        self.calls_label.hide()
        self.table.setColumnHidden(2, True)  # "recorded calls" gives its room away until a verdict has some
        fit_column(self.table, 0, body_keys, most=160)

    def add(self, verdict: Verdict, result: dict[str, Any]) -> str:
        """Show one body's verdict; returns its badge. The first divergence is chosen, its calls shown."""
        badge = replay_badge(verdict, result)
        row = self.model.add(verdict, badge)
        if verdict.get("recordedCalls") and self.table.isColumnHidden(2):
            self.table.setColumnHidden(2, False)
        if not verdict["same"] and self.calls_label.isHidden():
            self.table.setCurrentIndex(self.model.index(row, 2))
        return badge

    def _activated(self, index: Any) -> None:
        verdicts = self.verdicts
        if 0 <= index.row() < len(verdicts):
            self.body_activated.emit(verdicts[index.row()]["body"])

    def _show_recorded_calls(self, row: int) -> None:
        """Under the table: links to the recorded calls that answered the chosen body (fedBy first)."""
        verdict = self.verdicts[row] if 0 <= row < len(self.verdicts) else None
        ids = verdict.get("recordedCalls", []) if verdict else []
        if not ids:
            self.calls_label.hide()
            return
        fed_by = [str(i) for i in verdict["firstDifference"].get("fedBy", [])]  # type: ignore[index]
        ordered = sorted(ids, key=lambda i: str(i) not in fed_by)

        def link(entry_id: Any) -> str:
            text = html.escape(str(entry_id))
            shown = f"<b>{text}</b> (holds the replayed value)" if str(entry_id) in fed_by else text
            return f'<a href="entry:{html.escape(str(entry_id), quote=True)}">{shown}</a>'

        message = html.escape(verdict["firstDifference"]["message"], quote=False)  # type: ignore[index]
        self.calls_label.setText(f"<b>Body {html.escape(str(verdict['body']))}</b>: {message}.<br>"  # type: ignore[index]
                                 f"Its module calls were answered from the record by: {', '.join(link(i) for i in ordered)}. "
                                 "Choose one to see its recorded output in Inputs.")
        self.calls_label.show()


def result_table(model: RowsModel, name: str) -> QTableView:
    """A read-only table of whole rows in the monospace font, the Run tab's way."""
    table = row_table(model, name, alternating=False)
    table.setFont(monospace())
    return table
