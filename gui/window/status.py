"""The status bar: entries, store bytes against the cap, kept count, problems count, at the cursor."""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QRect, Qt, QTimer, Signal
from PySide6.QtGui import QHelpEvent, QPainter, QPaintEvent
from PySide6.QtWidgets import QPushButton, QStatusBar, QToolTip, QWidget

from wsi_inspector.core.jsrules.sizes import format_size
from wsi_inspector.core.text.words import plural
from wsi_inspector.gui.window.context import InspectorContext
from wsi_inspector.gui.tabs.inputs.models import trim_preview_of
from wsi_inspector.gui.widgets.quiet_label import QuietLabel, restyle
from wsi_inspector.gui.window.theme import hex_of


FALLS_STYLE = "color: {colour}; font-weight: 600;"  # the store figure where entries fall at the cap


class InspectorStatusBar(QStatusBar):
    """Figures of the state at the cursor; sizes in KiB/MiB, exact bytes in tooltips. At the left, a message (what an
    action did), whole where the figures leave it room, else ending in "…" with the whole in its tooltip: prose
    (docs/window.md, "Nothing cut off"). QStatusBar draws its own message cut through a letter ("opened demo.json
    in 0.0(" beside the figures with a wide font), so this bar draws it."""

    problems_clicked = Signal()

    def __init__(self, context: InspectorContext, parent: QWidget | None = None):
        super().__init__(parent)
        self.context = context
        self.cursor_label = _label("statusCursor")
        self.entries_label = _label("statusEntries")
        self.store_label = _label("statusStore")
        self.kept_label = _label("statusKept")
        self.trim_label = _label("statusTrim")  # the cap the Trim tab tries, when it is not the session's
        self.problems_button = QPushButton(self)
        self.problems_button.setObjectName("statusProblems")
        self.problems_button.setFlat(True)
        self.problems_button.setToolTip("show the Problems tab")  # once: each setToolTip is an event
        self.problems_button.clicked.connect(self.problems_clicked)
        self._figures = (self.cursor_label, self.entries_label, self.store_label, self.trim_label, self.kept_label, self.problems_button)
        for widget in self._figures:
            self.addPermanentWidget(widget)
        self._message = ""
        self._message_timer = QTimer(self)
        self._message_timer.setSingleShot(True)
        self._message_timer.timeout.connect(self.clearMessage)
        context.session_changed.connect(self._keep_room_for_the_store)
        context.session_changed.connect(self.refresh)
        context.cursor_changed.connect(self.refresh)
        context.trim_cap_changed.connect(lambda _cap: self.refresh())
        context.session_grew.connect(lambda _appended: self._keep_room_for_the_store())  # a larger store may be reached
        context.session_grew.connect(lambda _appended: self.refresh())  # problems counted, the end state grown
        self.refresh()

    def showMessage(self, text: str, timeout: int | None = 0) -> None:  # noqa: N802 — QStatusBar's name: callers need not know
        """Show `text` at the left for `timeout` ms (0: until another), cut at its end where it lacks room."""
        self._message_timer.stop()
        if timeout:
            self._message_timer.start(timeout)
        if text != self._message:
            self._message = text
            self.update(self._message_rect())
            self.messageChanged.emit(text)

    def clearMessage(self) -> None:  # noqa: N802 — QStatusBar's name
        """Take the message away."""
        self.showMessage("")

    def currentMessage(self) -> str:  # noqa: N802 — QStatusBar's name
        """The message, whole, though it may be shown cut (`shown_message`)."""
        return self._message

    def shown_message(self) -> str:
        """The message as shown: whole, or cut at its end to the room the figures leave."""
        return self.fontMetrics().elidedText(self._message, Qt.TextElideMode.ElideRight, self._message_rect().width())

    def _message_rect(self) -> QRect:
        """Where the message goes: from the left edge to just before the first figure shown (as QStatusBar's own)."""
        right = min((figure.x() for figure in self._figures if figure.isVisible()), default=self.width() - 10) - 2
        return QRect(6, 0, max(right - 6, 0), self.height())

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 — Qt's hook
        super().paintEvent(event)
        if self._message:
            painter = QPainter(self)
            painter.setPen(self.palette().windowText().color())
            painter.drawText(self._message_rect(), Qt.AlignmentFlag.AlignLeading | Qt.AlignmentFlag.AlignVCenter
                             | Qt.TextFlag.TextSingleLine, self.shown_message())

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            room = self._message_rect()
            if room.contains(event.pos()) and self.shown_message() != self._message:
                QToolTip.showText(event.globalPos(), self._message, self, room)
                return True
        return super().event(event)  # a layout request repaints the bar: the figures moved, the message is cut again

    def _keep_room_for_the_store(self) -> None:
        """Show the store figure's widest forms once, so that its label keeps their room (`keep_widest`).

        A move to a store whose figure was the widest yet ("702.3 MiB" after the end's "1.2 GiB") grew
        the label, and the main window laid itself out: 2 ms more on the first jump at a million entries.
        """
        session = self.context.session
        if session is None:
            return
        index = self.context.index
        whole = trim_preview_of(index, len(index.entries))  # no store at any cursor holds more
        cap = session.caps.store_bytes
        fell = whole.fell_at(cap) if cap is not None and whole.total_bytes > cap else 0
        for text, falls in widest_store_words(whole.total_bytes, cap, fell):
            self.store_label.setStyleSheet(FALLS_STYLE.format(colour=hex_of("error")) if falls else "")
            self.store_label.setText(text)

    def refresh(self) -> None:
        """Recompute the figures for the state at the cursor (sizes from the session's index)."""
        session, state = self.context.session, self.context.state
        if session is None:
            for label in (self.cursor_label, self.entries_label, self.store_label, self.kept_label):
                label.setText("")
            self.problems_button.setText("no session")
            return
        count = len(state.store)
        self.cursor_label.setText(self.context.cursor_text.removeprefix("at ").capitalize())
        self.entries_label.setText(f"{count:,} entr{'y' if count == 1 else 'ies'}")
        preview = trim_preview_of(self.context.index, count)  # shared with the Inputs tab, built once per session
        size = preview.total_bytes
        cap = session.caps.store_bytes
        if cap is None:
            self.store_label.setText(f"store {format_size(size)} (no cap)")
            self.store_label.setToolTip(f"the store as the editor injects it: {size:,} bytes; the session sets no caps.storeBytes")
            self.store_label.setStyleSheet("")
        else:
            fell = preview.fell_at(cap) if size > cap else 0
            self.store_label.setText(store_words(size, cap, fell))
            self.store_label.setToolTip(f"the store as the editor injects it: {size:,} bytes; caps.storeBytes: {cap:,} bytes"
                                        + (f"; the editor trims the oldest {fell:,} before a body runs (see Trim)" if fell else ""))
            self.store_label.setStyleSheet(FALLS_STYLE.format(colour=hex_of("error")) if fell else "")
        self._show_trim_cap(preview, size)
        kept = len(state.kept)
        self.kept_label.setText(f"{kept} kept" + (f", {len(state.refused)} refused" if state.refused else ""))
        errors, warnings = len(session.errors), len(session.warnings)
        self.problems_button.setText(f"{errors} error{'s' if errors != 1 else ''}, {warnings} warning{'s' if warnings != 1 else ''}"
                                     if errors or warnings else "no problems")
        restyle(self.problems_button, f"color: {hex_of('error')};" if errors else f"color: {hex_of('warning')};" if warnings else "")


    def _show_trim_cap(self, preview: Any, size: int) -> None:
        """Beside the session's cap, the one the Trim tab tries (so the two figures never read as one)."""
        tried = self.context.trim_cap
        self.trim_label.setVisible(tried is not None)
        if tried is None:
            return
        fell = preview.fell_at(tried) if size > tried else 0
        verdict = "nothing would fall" if not fell else plural(fell, "entry would fall", "entries would fall")
        self.trim_label.setText(f"Trim tab tries {format_size(tried)}: {verdict}")
        self.trim_label.setToolTip(f"the cap being tried in the Trim tab, {tried:,} bytes; the session's own caps.storeBytes is "
                                   "the figure on the left (the Trim tab's Session cap button puts it back)")


def widest_store_words(total: int, cap: int | None, fell: int) -> list[tuple[str, bool]]:
    """The store figure's widest forms (with whether entries fall in each) for any store of at most
    `total` bytes with at most `fell` entries falling: each size format it reaches, with the most
    digits of each, the smallest such ("10.9 KiB", "1,000.9 KiB": digits are as wide as each other),
    beside either verdict."""
    widest = [int(least * 1024 ** power) for power in range(4) for least in ((1, 10, 100, 1000) if power == 0 else (1.9, 10.9, 100.9, 1000.9))]
    sizes = [size for size in widest if size <= total] + [total]
    if cap is None:
        return [(f"store {format_size(size)} (no cap)", False) for size in sizes]
    verdicts = [0, fell] if fell else [0]
    return [(store_words(size, cap, falls), bool(falls)) for size in sizes for falls in verdicts]


def store_words(size: int, cap: int, fell: int) -> str:
    """The store figure in plain words: `store 6.0 KiB, cap 5.6 KiB: 1 entry falls`."""
    verdict = "nothing falls" if not fell else f"{fell:,} entr{'y falls' if fell == 1 else 'ies fall'}"
    shown, limit = format_size(size), format_size(cap)
    if shown == limit:  # "store 5.6 KiB, cap 5.6 KiB" would not say which is larger
        shown, limit = f"{size:,} B", f"{cap:,} B"
    return f"store {shown}, cap {limit}: {verdict}"


def _label(name: str) -> QuietLabel:
    label = QuietLabel()  # its figures change on every line a followed file appends
    label.setObjectName(name)
    label.setContentsMargins(8, 0, 8, 0)
    # And on every cursor move: a width given back laid the main window out each time. Yielding: together
    # they are wider than a 1024 px window when the Trim tab's cap shows; there they end in "…".
    label.keep_widest(yielding=True)
    return label
