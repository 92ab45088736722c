"""Every loader error and warning, errors first (the Problems tab's table)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from wsi_inspector.core.session.model import Problem
from wsi_inspector.gui.window.look import DECORATION, DISPLAY, FONT, TOOLTIP, Index, monospace, status_icon
from wsi_inspector.gui.widgets.rows_model import RowsModel


class ProblemsModel(RowsModel):
    """Every loader error and warning: severity, where, message."""

    HEADERS = ("severity", "where", "message")

    def set_problems(self, problems: Sequence[Problem]) -> None:
        """Show these problems, errors first, each group in file order."""
        self.replace_rows([p for p in problems if p.severity == "error"] + [p for p in problems if p.severity != "error"])

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.rows):
            return None
        problem, column = self.rows[index.row()], index.column()
        if role == DISPLAY:
            return (problem.severity, problem.where or "(file)", problem.message)[column]
        if role == TOOLTIP:
            return f"{problem.severity} at {problem.where or 'the file'}: {problem.message}"
        if role == DECORATION and column == 0:
            return status_icon(problem.severity)
        if role == FONT and column == 1:
            return monospace()
        return None
