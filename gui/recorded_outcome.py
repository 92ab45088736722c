"""A one-line banner: the body at the cursor failed as recorded, and how (the Inputs tab's header).

Whoever reads the state handed to a failed body should see that it failed without hovering the
timeline: the error's name and message, its line (from the record, or from the call that got no
answer, said so) and its log count. Hidden when the body did not fail or the cursor is at the end.
"""
from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QWidget

from core.recorded_failure import recorded_failure
from core.words import plural
from gui.context import InspectorContext
from gui.theme import hex_of


class RecordedOutcome(QLabel):
    """Follows the cursor; shows the recorded failure of the body there."""

    def __init__(self, context: InspectorContext, parent: QWidget | None = None):
        super().__init__(parent)
        self.context = context
        self.setObjectName("recordedOutcome")
        self.setWordWrap(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        context.session_changed.connect(self.refresh)
        context.cursor_changed.connect(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        """Show the failure of the body at the cursor, or hide."""
        session, cursor = self.context.session, self.context.cursor
        body = session.body(cursor) if session is not None and cursor is not None else None
        failure = recorded_failure(session, body) if session is not None and body is not None else None
        if failure is None or body is None:
            self.hide()
            return
        where = ""
        if "line" in failure:
            where = f" at line {failure['line']}" + (f" (the line of {failure['entry']}, the call that got no answer)"
                                                      if failure.get("lineFrom") == "call" else "")
        logs = plural(len(failure["logs"]), "log line", "log lines")
        self.setText(f"<span style='color:{hex_of('error')}'>✗ body <b>{html.escape(body.key)}</b> failed as recorded{html.escape(where)}: "
                     f"{html.escape(failure['name'])}: {html.escape(failure['message'])}</span> · {logs} (the Run tab shows them)")
        self.show()
