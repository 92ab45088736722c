"""Notes in the window: "Add note…" in the timeline, the Inputs table, the Edits change list and the Run tab; marks where notes are.

The notes themselves are wsi_inspector.core.handoff.notes (the open file's own and its sidecar `FILE.notes.json`'s);
`NotesKeeper` holds them for one window and says when they change. The views are not rewritten
for this: `install_note_actions(context, services, timeline)` adds a context menu to each of those four
places and wraps the first column's painting of the timeline and the tables (`NoteMark`), which draws a
small mark on a row with notes and shows their text in its tooltip. Like every action it takes the
context and the window's services (wsi_inspector.gui.window.services), never the window. The sidecar is a few notes, read
and written on the GUI thread; the session file is never written.
"""
from __future__ import annotations

import html
from typing import Any, Callable

from PySide6.QtCore import QEvent, QObject, QPoint, QRect, Qt, Signal
from PySide6.QtGui import QColor, QHelpEvent, QPainter
from PySide6.QtWidgets import QAbstractItemView, QInputDialog, QMenu, QStyleOptionViewItem, QToolTip, QWidget

from wsi_inspector.core.handoff.notes import Note, Notes, add_note, embedded_notes, session_notes
from wsi_inspector.gui.window.context import InspectorContext
from wsi_inspector.gui.tabs.run.choice import RunChoice
from wsi_inspector.gui.window.services import WindowServices
from wsi_inspector.gui.widgets.elide import IdRowsElided, no_row
from wsi_inspector.gui.window.look import Index
from wsi_inspector.gui.tabs.timeline.view import TimelineView

MARK_COLOUR = QColor("#e0a100")  # amber: seen on light and dark rows alike
MARK_SIZE = 7

# What a row is about: ("body", id) or ("entry", id), with a change path when it is one.
Target = tuple[str, str, str | None]


class NotesKeeper(QObject):
    """The open session's notes for one window; `changed` after a load or a note added.

    `marks` are the views' `NoteMark`s (install_note_actions fills it): the timeline's first.
    """

    changed = Signal()

    def __init__(self, context: InspectorContext, services: WindowServices):
        super().__init__(services.widget)
        self.context = context
        self.services = services
        self.notes = Notes()
        self.marks: list[NoteMark] = []
        self.ask_text: Callable[[str], str | None] = self._ask  # tests answer here instead of a dialog
        context.session_changed.connect(self.reload)

    def reload(self) -> None:
        """Read the notes again: the open file's own and its sidecar's."""
        path, session = self.services.current_path(), self.context.session
        self.notes = session_notes(path, session) if path is not None and session is not None else Notes()
        self.changed.emit()

    def on(self, target: Target | None) -> list[Note]:
        """The notes on a body or an entry (a change path: the notes on that path, else the entry's)."""
        if target is None:
            return []
        kind, key, path = target
        found = self.notes.on_body(key) if kind == "body" else self.notes.on_entry(key)
        return [n for n in found if n.path == path] if path is not None else found

    def add(self, target: Target) -> Note | None:
        """Ask for a text and add a note on `target` to the sidecar; the note, or None when cancelled or refused."""
        kind, key, path = target
        path_words = f" at {path}" if path else ""
        text = self.ask_text(f"A note on {kind} {key}{path_words}, for whoever this session is handed to:")
        current = self.services.current_path()
        if not text or not text.strip() or current is None:
            return None
        try:
            note = add_note(current, text, key if kind == "body" else None,
                            key if kind == "entry" else None, path, carried=embedded_notes(self.context.session).notes)
        except (ValueError, OSError) as exc:
            self.services.notify(f"<b>Note not added</b>: {html.escape(str(exc))}", "error")
            return None
        self.reload()
        self.services.status(f"added note {note.id} on {note.place()} beside {current.name}", 6000)
        return note

    def _ask(self, prompt: str) -> str | None:
        text, ok = QInputDialog.getMultiLineText(self.services.widget, "Add note", prompt)
        return text if ok else None


def tooltip_for(notes: list[Note]) -> str:
    """The notes on a row, for its tooltip (rich text, escaped)."""
    return "<br>".join(f"<b>{html.escape(n.id)}</b> {html.escape(n.author)}, {html.escape(n.at)}"
                       f"{' · ' + html.escape(n.path) if n.path else ''}<br>{html.escape(n.text)}" for n in notes)


class NoteMark(IdRowsElided):
    """Paints a cell as usual, then a small mark at its right edge when its row has notes; their text is the tooltip.

    Its text is cut where the column's is without notes: the rows `is_id` names in the middle, the others at their end."""

    def __init__(self, keeper: NotesKeeper, target_of: Callable[[Index], Target | None], view: QAbstractItemView,
                 is_id: Callable[[Index], bool] = no_row):
        super().__init__(view, is_id)
        self.keeper = keeper
        self.target_of = target_of
        keeper.changed.connect(view.viewport().update)

    def notes_at(self, index: Index) -> list[Note]:
        """The notes on the row of `index` (none when it is about nothing a note can be on)."""
        if not self.keeper.notes.notes or not index.isValid():
            return []
        return self.keeper.on(self.target_of(index))

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        super().paint(painter, option, index)
        self.paint_mark(painter, option.rect, index)

    def paint_mark(self, painter: QPainter, rect: QRect, index: Index) -> None:
        """The mark alone, at the right edge of the cell `rect`, when its row has notes (a table that paints its cells
        in one pass, cell_painting, draws their texts and asks for the marks)."""
        if self.notes_at(index):
            painter.save()
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(MARK_COLOUR)
            painter.drawEllipse(QRect(rect.right() - MARK_SIZE - 3, rect.center().y() - MARK_SIZE // 2, MARK_SIZE, MARK_SIZE))
            painter.restore()

    def helpEvent(self, event: QHelpEvent, view: QAbstractItemView, option: QStyleOptionViewItem, index: Index) -> bool:  # noqa: N802 — Qt's hook
        notes = self.notes_at(index) if event.type() == QEvent.Type.ToolTip else []
        if notes:
            QToolTip.showText(event.globalPos(), tooltip_for(notes), view)
            return True
        return super().helpEvent(event, view, option, index)


def attach(keeper: NotesKeeper, view: QAbstractItemView, target_of: Callable[[Index], Target | None],
           column: int = 0, is_id: Callable[[Index], bool] | None = None) -> NoteMark:
    """Give `view` an "Add note…" context menu and marks in `column`, both through `target_of`
    (`is_id`: the rows whose text is an id, cut in the middle; without it, the column's own say:
    a column of ids (`elide.ids_in_the_middle`, called before) keeps cutting them in the middle under its marks)."""
    # What paints the column while the session has no notes: the view's own delegate, or on a column of ids
    # and prose one that still cuts the ids in the middle.
    plain = view.itemDelegateForColumn(column) if is_id is None else IdRowsElided(view, is_id)
    ids = plain.is_id if isinstance(plain, IdRowsElided) else no_row
    mark = NoteMark(keeper, target_of, view, ids)

    def paint_marks() -> None:
        # Painting through a Python delegate costs a call into Python per row (a tenth of a cursor
        # move's painting on the Inputs table): the marks paint only while there is a note to mark.
        wanted = mark if keeper.notes.notes else plain
        if view.itemDelegateForColumn(column) is not wanted:
            view.setItemDelegateForColumn(column, wanted)  # None: the view's own delegate

    keeper.changed.connect(paint_marks)
    paint_marks()
    view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)

    def menu(at: QPoint) -> None:
        # Outside the viewport is on nothing (a spanned row's index answers for any x, even left of the view).
        target = target_of(view.indexAt(at)) if view.viewport().rect().contains(at) else None
        if target is None:
            return
        show_menu(note_menu(keeper, target, view), view.viewport().mapToGlobal(at))

    view.customContextMenuRequested.connect(menu)
    return mark


def show_menu(menu: QMenu, at: QPoint) -> None:
    """Pop `menu` up at `at` (global) and wait for a choice (tests look at the menu here instead)."""
    menu.exec(at)


def note_menu(keeper: NotesKeeper, target: Target, parent: QWidget, menu: QMenu | None = None) -> QMenu:
    """A menu (or `menu` with these added) holding "Add note…" for `target`, and the notes already on it."""
    menu = menu if menu is not None else QMenu(parent)
    action = menu.addAction("Add note…")
    action.setObjectName("addNoteAction")
    action.triggered.connect(lambda: keeper.add(target))
    for note in keeper.on(target)[:5]:
        shown = menu.addAction(f"{note.id}: {' '.join(note.text.split())[:60]}")
        shown.setEnabled(False)
    return menu


# --- what each place's rows are about ---------------------------------------------------------------

def timeline_call(timeline: TimelineView) -> Callable[[Index], bool]:
    """Whether a timeline row is a model's call ("c20  pack.corridorRuns.corridorRuns": ids), not a body or an edit (prose)."""
    model = timeline.model

    def is_call(index: Index) -> bool:
        row, call = model.item(index)
        if call is None and row.kind == "entry":
            call = row.item  # type: ignore[assignment]
        return call is not None and not call.applied
    return is_call


def timeline_target(timeline: TimelineView) -> Callable[[Index], Target | None]:
    """A timeline row: its body, or its entry (a call nested under a body, a lone entry or canvas edit)."""
    model = timeline.model

    def target(index: Index) -> Target | None:
        if not index.isValid():
            return None
        row, call = model.item(index)
        if call is not None:
            return ("entry", str(call.id), None)
        if row.kind == "body" and row.item is not None:
            return ("body", str(row.item.id), None)  # type: ignore[union-attr]
        if row.kind in ("entry", "edit") and row.item is not None:
            return ("entry", str(row.item.id), None)  # type: ignore[union-attr]
        return None
    return target


def inputs_target(view: Any) -> Callable[[Index], Target | None]:
    """A row of the Inputs table: its entry."""
    def target(index: Index) -> Target | None:
        entry = view.model.entry_at_row(index.row()) if index.isValid() else None
        return None if entry is None else ("entry", str(entry.id), None)
    return target


def edits_target(view: Any) -> Callable[[Index], Target | None]:
    """A row of the Edits tab's list of canvas edits: its edit entry."""
    def target(index: Index) -> Target | None:
        pairings = view.edits_model.pairings
        if not index.isValid() or not 0 <= index.row() < len(pairings):
            return None
        return ("entry", str(pairings[index.row()].edit.id), None)
    return target


def changes_target(view: Any) -> Callable[[Index], Target | None]:
    """A row of the Edits change list: the edit shown, at that change's path."""
    def target(index: Index) -> Target | None:
        if not index.isValid():
            return None
        row = view.current_row()
        pairings = view.edits_model.pairings
        change = view.changes_model.change_at(index.row())
        if change is None or not 0 <= row < len(pairings):
            return None
        return ("entry", str(pairings[row].edit.id), str(change["path"]))
    return target


class RunEditorNotes(QObject):
    """The Run tab's editor: its own context menu plus "Add note…" on the body it holds (the context's Run choice)."""

    def __init__(self, keeper: NotesKeeper, choice: RunChoice, run_view: Any):
        super().__init__(run_view)
        self.keeper = keeper
        self.choice = choice
        run_view.editor.installEventFilter(self)

    def target(self) -> Target | None:
        """The recorded body in the editor (None: a new body, which has nowhere for a note to point)."""
        body = self.choice.body()
        return None if body is None else ("body", str(body.id), None)

    def eventFilter(self, watched: Any, event: QEvent) -> bool:  # noqa: N802 — Qt's hook
        target = self.target()
        if event.type() == QEvent.Type.ContextMenu and target is not None:
            menu = watched.createStandardContextMenu()
            menu.addSeparator()
            note_menu(self.keeper, target, watched, menu)
            show_menu(menu, event.globalPos())  # type: ignore[attr-defined]
            return True
        return False


def install_note_actions(context: InspectorContext, services: WindowServices, timeline: TimelineView) -> NotesKeeper:
    """The window's NotesKeeper, with "Add note…" and marks in the timeline, Inputs, Edits changes and Run tab.

    The tabs' views come from `services.view`; one that failed to build (a stand-in) gets no menu.
    """
    keeper = NotesKeeper(context, services)
    keeper.marks.append(attach(keeper, timeline.tree, timeline_target(timeline), is_id=timeline_call(timeline)))
    inputs, edits, run = (services.view(name) for name in ("inputs", "edits", "run"))
    if hasattr(inputs, "table") and hasattr(inputs, "model"):
        keeper.marks.append(attach(keeper, inputs.table, inputs_target(inputs)))  # type: ignore[union-attr]
    if hasattr(edits, "changes_table"):  # the path column: the op column is too narrow for a mark beside its word
        keeper.marks.append(attach(keeper, edits.changes_table, changes_target(edits), 1))  # type: ignore[union-attr]
    if hasattr(edits, "edits_table"):
        keeper.marks.append(attach(keeper, edits.edits_table, edits_target(edits)))  # type: ignore[union-attr]
    if hasattr(run, "editor"):
        RunEditorNotes(keeper, context.run, run)
    return keeper
