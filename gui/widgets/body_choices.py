"""BodyChoices: a combo box's list of a session's bodies, answered from the session as rows are shown.

The Run tab's body chooser and the Changes tab's two points listed every body as a combo box item:
on a session of 25,000 bodies that was 75,000 items made on the GUI thread as it opened (half a
second), and finding the cursor's body among them (`findData`) a walk of every item on each cursor
move. Here a row is a position: its text is made when the list is shown, and a body's row is looked
up (`wsi_inspector.gui.background.session_facts.body_positions`, made by the load job).

A box using it should not size itself to its contents (that asks every row's text): give it
`AdjustToMinimumContentsLengthWithIcon`; `attach` does, and makes its list's rows one height.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import QAbstractListModel, QEvent, QModelIndex, Qt
from PySide6.QtGui import QHelpEvent, QPaintEvent
from PySide6.QtWidgets import QComboBox, QStyle, QStyleOptionComboBox, QStylePainter, QToolTip

from wsi_inspector.core.session.model import Body
from wsi_inspector.core.session.load import Session
from wsi_inspector.gui.background.session_facts import body_positions
from wsi_inspector.gui.window.look import DISPLAY, TOOLTIP, Index

USER = Qt.ItemDataRole.UserRole  # a row's data, as QComboBox.itemData and currentData read it: the body's key

Fixed = tuple[str, Any]  # a row that is not a body: its text and its data


class BodyChoices(QAbstractListModel):
    """Rows `before`, then one per body of the session (its data: the body's key), then `after`.

    `label(body)` is a body row's text; `tip(body)` its tooltip (None: the text).
    """

    def __init__(self, label: Callable[[Body], str], before: Sequence[Fixed] = (), after: Sequence[Fixed] = (),
                 tip: Callable[[Body], str | None] | None = None, parent: Any = None):
        super().__init__(parent)
        self.label, self.tip = label, tip
        self.before, self.after = list(before), list(after)
        self.session: Session | None = None
        self.bodies: Sequence[Body] = ()  # the session's list (grown in place by a followed file)
        self.count = 0  # the bodies shown: the list may hold more, appended, until `grow` tells the box

    def set_session(self, session: Session | None) -> None:
        """List the bodies of `session` (None: none)."""
        self.beginResetModel()
        self.session = session
        self.bodies = session.bodies if session is not None else ()
        self.count = len(self.bodies)
        self.endResetModel()

    def grow(self) -> None:
        """Show the bodies a followed file appended to the session's list (before the `after` rows)."""
        added = len(self.bodies) - self.count
        if added > 0:
            first = len(self.before) + self.count
            self.beginInsertRows(QModelIndex(), first, first + added - 1)
            self.count += added
            self.endInsertRows()

    def row_of(self, key: Any) -> int:
        """The row whose data is `key` (a body key, or a fixed row's data); -1 when none is."""
        for rows, offset in ((self.before, 0), (self.after, len(self.before) + self.count)):
            for number, (_text, data) in enumerate(rows):
                if data == key:
                    return offset + number
        if self.session is None or key is None:
            return -1
        position = body_positions(self.session).get(str(key), -1)
        return len(self.before) + position if 0 <= position < self.count else -1

    def relabel(self, key: Any) -> None:
        """Say again what the row of `key` shows (its label depends on something that changed)."""
        row = self.row_of(key)
        if row >= 0:
            self.dataChanged.emit(self.index(row), self.index(row), [DISPLAY, TOOLTIP])

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.before) + self.count + len(self.after)

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        if not index.isValid():
            return None
        row = index.row()
        position = row - len(self.before)
        if position < 0 or position >= self.count:
            fixed = self.before if position < 0 else self.after
            number = row if position < 0 else position - self.count
            if not 0 <= number < len(fixed):
                return None
            return fixed[number][0] if role in (DISPLAY, TOOLTIP) else fixed[number][1] if role == USER else None
        body = self.bodies[position]
        if role == DISPLAY:
            return self.label(body)
        if role == USER:
            return body.key
        if role == TOOLTIP:
            tip = self.tip(body) if self.tip is not None else None
            return tip if tip is not None else self.label(body)
        return None


class BodyBox(QComboBox):
    """A combo box whose current text ends in "…" where the box is narrower than it, the whole in its tooltip.

    Qt's own draws it cut through a letter ("the end of the sess" with a wide font at 150 %): a box held to a few
    characters (`attach`) beside a long choice read as if the text were that.
    """

    def shown_text(self) -> str:
        """The current text as the box draws it: whole, or cut at its end with "…"."""
        option = QStyleOptionComboBox()
        self.initStyleOption(option)
        return self._fitted(option)

    def _fitted(self, option: QStyleOptionComboBox) -> str:
        field = self.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, option,
                                            QStyle.SubControl.SC_ComboBoxEditField, self)
        room = field.width() - 2  # the style draws the label one pixel in from each side of its field
        if not option.currentIcon.isNull():
            room -= option.iconSize.width() + 4
        return self.fontMetrics().elidedText(option.currentText, Qt.TextElideMode.ElideRight, max(0, room))

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 — Qt's hook; QComboBox's own, with the text fitted
        painter = QStylePainter(self)
        painter.setPen(self.palette().color(self.palette().ColorRole.Text))
        option = QStyleOptionComboBox()
        self.initStyleOption(option)
        painter.drawComplexControl(QStyle.ComplexControl.CC_ComboBox, option)
        option.currentText = self._fitted(option)
        painter.drawControl(QStyle.ControlElement.CE_ComboBoxLabel, option)

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and not self.toolTip() and isinstance(event, QHelpEvent):
            if self.shown_text() != self.currentText():
                QToolTip.showText(event.globalPos(), self.currentText(), self)
                return True
        return super().event(event)


def attach(box: QComboBox, model: BodyChoices, least_characters: int) -> None:
    """Give `box` the model, sized for `least_characters` rather than its longest row; its list's rows one height."""
    box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    box.setMinimumContentsLength(least_characters)
    box.setModel(model)
    box.view().setUniformItemSizes(True)  # type: ignore[attr-defined]  # a QListView: one row's height, not every row's
