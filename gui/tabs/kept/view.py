"""The Kept tab: the kept manifest at the cursor, each value as JSON and the body that kept it, and
every keep refused before the cursor with its InvalidKeepError message."""
from __future__ import annotations

import html

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QHeaderView, QLabel, QSplitter, QVBoxLayout, QWidget

from wsi_inspector.gui.window.context import InspectorContext
from wsi_inspector.gui.widgets.json_tree import JsonTreeView
from wsi_inspector.gui.widgets.when_shown import WhenShown, in_front
from wsi_inspector.gui.window.keyboard import reading_order
from wsi_inspector.gui.widgets.elide import ids_in_the_middle
from wsi_inspector.gui.window.look import fit_column, row_table
from wsi_inspector.gui.tabs.kept.models import KeptModel, RefusedModel


QWIDGETSIZE_MAX = 16_777_215  # Qt's "no maximum" for a widget's height
REFUSED_ROOM = 200  # px the refused keeps take back when there are some

class KeptView(QWidget):
    """What `kept` holds for the body at the cursor, who kept each name, and what was refused."""

    def __init__(self, context: InspectorContext, parent: QWidget | None = None):
        super().__init__(parent)
        self.context = context
        self.model = KeptModel(self)
        self.refused_model = RefusedModel(self)
        self.summary = QLabel(self)
        self.summary.setObjectName("keptSummary")
        self.table = row_table(self.model, "keptTable")
        self.table.setColumnWidth(0, 140)
        ids_in_the_middle(self.table, 0)  # kept names are ids; the shape is prose, cut at its end
        self.table.setColumnWidth(2, 70)
        self.table.horizontalHeader().setStretchLastSection(False)
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.table.horizontalHeader().setSectionResizeMode(3, QHeaderView.ResizeMode.ResizeToContents)
        self.value_label = QLabel("Choose a kept name to see its value.", self)
        self.value_label.setObjectName("keptValueTitle")
        self.tree = JsonTreeView(self)
        self.tree.setObjectName("keptJson")
        self.refused_label = QLabel(self)
        self.refused_label.setObjectName("refusedTitle")
        self.refused_table = row_table(self.refused_model, "refusedTable")
        self.refused_table.setColumnWidth(0, 80)
        self.refused_table.setWordWrap(True)
        self.refused_table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self._build_layout()
        reading_order(self.table, self.tree, self.refused_table)
        self.table.selectionModel().currentRowChanged.connect(self._row_changed)
        self.refused_table.activated.connect(self._refused_activated)
        # Behind another tab it follows the cursor when shown (tests and headless use, the window unshown: at once).
        self.when_shown = WhenShown(in_front(self))
        context.session_changed.connect(self.refresh)
        context.cursor_changed.connect(self._cursor_changed)
        context.state_grew.connect(self._cursor_changed)
        self.refresh()

    def _build_layout(self) -> None:
        right = QWidget(self)
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addWidget(self.value_label)
        right_layout.addWidget(self.tree)
        top = QSplitter(Qt.Orientation.Horizontal, self)
        top.setObjectName("keptSplitter")
        top.addWidget(self.table)
        top.addWidget(right)
        top.setSizes([640, 640])
        bottom = QWidget(self)
        self.refused_pane = bottom
        bottom_layout = QVBoxLayout(bottom)
        bottom_layout.setContentsMargins(0, 0, 0, 0)
        bottom_layout.addWidget(self.refused_label)
        bottom_layout.addWidget(self.refused_table)
        self.splitter = QSplitter(Qt.Orientation.Vertical, self)
        self.splitter.setObjectName("keptVerticalSplitter")
        self.splitter.addWidget(top)
        self.splitter.addWidget(bottom)
        self.splitter.setSizes([520, 200])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.summary)
        layout.addWidget(self.splitter, 1)

    def _cursor_changed(self) -> None:
        """Follow the cursor while in front; behind another tab, when next shown (as the Trim and Run tabs do).

        Every move re-made a tab no one looked at: its table, its widths and the chosen value's JSON tree, a
        quarter of a millisecond of each paused move on a million-entry session (issue 28.3)."""
        self.when_shown.owe(self.refresh)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 — Qt's hook
        super().showEvent(event)
        self.when_shown.catch_up()

    def refresh(self) -> None:
        """Show the kept set and the refusals of the state at the cursor."""
        self.when_shown.forget()
        state = self.context.state
        chosen = self.current_name()
        self.model.set_state(state)
        self.refused_model.set_state(state)
        where = self.context.cursor_text
        if self.context.session is None:
            self.summary.setText("No session open.")
        else:
            count = len(self.model.rows)
            self.summary.setText(f"{count} kept value{'s' if count != 1 else ''} {where} "
                                 f"(kept.<name> as the body reads it)")
        refused = len(self.refused_model.rows)
        self.refused_label.setText(f"Refused keeps before this point: {refused}" if refused else
                                   "No keep was refused before this point.")
        # No empty table headed "InvalidKeepError": the sentence says it, and its pane gives the room away.
        self.refused_table.setVisible(refused > 0)
        self.refused_pane.setMaximumHeight(QWIDGETSIZE_MAX if refused else self.refused_label.sizeHint().height())
        total = sum(self.splitter.sizes())
        if refused and self.refused_pane.height() < REFUSED_ROOM and total > 2 * REFUSED_ROOM:
            self.splitter.setSizes([total - REFUSED_ROOM, REFUSED_ROOM])  # the room it gave away, back
        names = [row.name for row in self.model.rows]
        # Names are ids: whole, and no wider, so that the shape (prose, cut at its end) has the room.
        fit_column(self.table, 0, names, least=0, most=280)
        row = names.index(chosen) if chosen in names else (0 if names else -1)
        if row >= 0:
            self.table.selectRow(row)
            self._show(row)
        else:
            self.tree.set_value(None, present=False)
            self.value_label.setText("Nothing is kept here." if self.context.session else "")

    def current_name(self) -> str | None:
        """The kept name whose value is shown."""
        row = self.table.currentIndex().row()
        return self.model.rows[row].name if 0 <= row < len(self.model.rows) else None

    def _row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if 0 <= current.row() < len(self.model.rows):
            self._show(current.row())

    def _show(self, row: int) -> None:
        kept = self.model.rows[row]
        by = f"kept by body <tt>{html.escape(str(kept.kept_by))}</tt>" if kept.kept_by is not None else \
            "from a kept snapshot or the file's final kept set"
        self.value_label.setText(f"<b><tt>kept.{html.escape(kept.name)}</tt></b> · {by}")
        self.tree.set_value(kept.value, f"kept.{kept.name}")

    def _refused_activated(self, index: QModelIndex) -> None:
        if self.context.session is not None and 0 <= index.row() < len(self.refused_model.rows):
            body = self.context.session.body(self.refused_model.rows[index.row()].body)
            if body is not None:
                self.context.choose_body(body)
