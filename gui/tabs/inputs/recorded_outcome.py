"""One line over the Inputs tab: how the body at the cursor ended as recorded (a failure in red, with its line).

Whoever reads the state handed to a failed body should see that it failed without hovering the
timeline: the error's name and message, its line (from the record, or from the call that got no
answer, said so) and its log count. For a body that ran ok, and at the end of the session, the line
says so in muted words. The line is always there and one line high, elided at its end (the whole
text in its tooltip), and it paints itself: a cursor move never lays the tab out again.
"""
from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QPainter, QPaintEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

from wsi_inspector.core.session.recorded_failure import recorded_failure
from wsi_inspector.core.text.words import plural
from wsi_inspector.gui.window.context import InspectorContext
from wsi_inspector.gui.window.theme import colour


class RecordedOutcome(QWidget):
    """Follows the cursor; `text()` is what it says, `failed` whether the body there failed as recorded."""

    def __init__(self, context: InspectorContext, parent: QWidget | None = None):
        super().__init__(parent)
        self.context = context
        self.setObjectName("recordedOutcome")
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self._text = ""
        self.failed = False
        context.session_changed.connect(self.refresh)
        context.cursor_changed.connect(self.refresh)
        self.refresh()

    def text(self) -> str:
        """The whole line (the widget elides it to its width)."""
        return self._text

    def refresh(self) -> None:
        """Say how the body at the cursor ended as recorded."""
        session, cursor = self.context.session, self.context.cursor
        body = session.body(cursor) if session is not None and cursor is not None else None
        failure = recorded_failure(session, body) if session is not None and body is not None else None
        if session is None:
            text = ""
        elif body is None:
            text = "The end of the session: the whole store and the final kept set."
        elif failure is None:
            record = body.result if isinstance(body.result, dict) else None
            text = f"Body {body.key} ran ok as recorded." if record is not None else f"Body {body.key} has no recorded result."
        else:
            where = ""  # the message first: a narrow tab elides the rest
            if "line" in failure:
                where = f" · line {failure['line']}" + (f" (of {failure['entry']}, the call that got no answer)"
                                                         if failure.get("lineFrom") == "call" else "")
            text = (f"✗ Body {body.key} failed as recorded: {failure['name']}: {failure['message']}{where} · "
                    f"{plural(len(failure['logs']), 'log line', 'log lines')} (the Run tab shows them)")
        self.failed = failure is not None
        if text != self._text:
            self._text = text
            self.setToolTip(text)
            self.update()

    def sizeHint(self) -> QSize:  # noqa: N802 — Qt's hook
        return QSize(200, self.fontMetrics().height() + 4)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 — Qt's hook
        return self.sizeHint()

    def paintEvent(self, _event: QPaintEvent) -> None:  # noqa: N802 — Qt's hook
        painter = QPainter(self)
        painter.setPen(colour("error") if self.failed else self.palette().placeholderText().color())
        shown = self.fontMetrics().elidedText(self._text, Qt.TextElideMode.ElideRight, self.width())
        painter.drawText(self.rect(), int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), shown)
        painter.end()
