"""The timeline tree: bodies with their calls nested, canvas edits marked, each body's outcome and replay badge."""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QModelRoleDataSpan, Qt

from wsi_inspector.core.session.growing import RowChanges
from wsi_inspector.core.jsrules.jsonsize import compact_json
from wsi_inspector.core.session.model import Body, Entry, id_key
from wsi_inspector.core.session.load import Session
from wsi_inspector.core.session.timeline import TimelineRow, body_outcome, first_code_line, timeline_rows
from wsi_inspector.gui.background.session_facts import timeline_body_rows
from wsi_inspector.gui.window.look import (
    BACKGROUND, BADGE_TIPS, BADGE_WORDS, CURSOR_BACKGROUND, DECORATION, DISPLAY, FONT, FOREGROUND, PERSON, PERSON_BACKGROUND, PERSON_TAG,
    REPLAY_NOT_SAME,
    TOOLTIP, Index, bold_monospace, delegate_asks, monospace, status_icon,
)


ANSWERED = frozenset(map(int, (DISPLAY, DECORATION, TOOLTIP, FONT, BACKGROUND, FOREGROUND)))
LOOK_ROLES = tuple(map(int, (FONT, FOREGROUND, DECORATION, DISPLAY, BACKGROUND)))  # what `_look` answers, in its order
LOOK_SLOT = {role: slot for slot, role in enumerate(LOOK_ROLES)}
NOTHING = (None,) * len(LOOK_ROLES)  # a cell that shows nothing of its own
TOP_KINDS = ("body", "end", "group", "kept")  # rows that are not one entry or edit
TITLES_KEPT = 4096  # body rows whose titles are kept for the next paints: a screenful many times over


class TimelineModel(QAbstractItemModel):
    """Bodies with their calls nested, canvas edits marked as the person's, each body's outcome.

    Top rows have internal id 0; a call row's internal id is its body row + 1.
    """

    HEADERS = ("timeline", "replay")

    def __init__(self, parent: Any = None):
        super().__init__(parent)
        self.rows: list[TimelineRow] = []
        self.body_rows: dict[str, int] = {}  # body key → its top row
        self.refused: set[str] = set()
        self.cursor_key: str | None = None
        self.badges: dict[str, str] = {}
        self.retyped: dict[str, int] = {}  # body key → values its replay typed again (SPEC 7 "Retyped")
        self._hidden: dict[int, int] = {}  # top row → its last calls, appended but not yet announced
        self._edit_counts: dict[int, tuple[int, int]] = {}  # id of a group row → (its children, the edits among them)
        self._titles: dict[int, tuple[int, str]] = {}  # id of a body row → (its calls, its title) (_body_title)

    def set_session(self, session: Session | None) -> None:
        """Rebuild the rows for `session`."""
        self.beginResetModel()
        self._hidden, self._edit_counts, self._titles = {}, {}, {}
        self.rows = list(timeline_rows(session))  # its own list: a followed session's rows grow (extend)
        self.body_rows = timeline_body_rows(session) if session is not None else {}  # made by the load job
        self.refused = {str(r.body) for r in session.state_at(None).refused} if session is not None else set()
        self.endResetModel()

    def extend(self, session: Session, changes: RowChanges) -> None:
        """Show what `wsi_inspector.core.session.growing` appended to the session's rows: rows inserted, changed rows repainted."""
        rows = timeline_rows(session)
        for top, first, last in changes.children:
            # The session's row already holds its new calls: hide them until Qt has been told.
            self._hidden[top] = last - first + 1
            self.beginInsertRows(self.index(top, 0), first, last)
            del self._hidden[top]
            self.endInsertRows()
        if changes.top is not None:
            first, last = changes.top
            self.beginInsertRows(QModelIndex(), first, last)
            self.rows[first:first] = rows[first:last + 1]
            self.body_rows.update({row.item.key: n for n, row in enumerate(rows[first:last + 1], first) if row.kind == "body"})  # type: ignore[union-attr]
            self.endInsertRows()
        self.refused = {str(r.body) for r in session.state_at(None).refused}
        for row in changes.changed:
            self.dataChanged.emit(self.index(row, 0), self.index(row, len(self.HEADERS) - 1))

    def _child_count(self, row: int) -> int:
        return len(self.rows[row].children) - self._hidden.get(row, 0)

    def set_cursor(self, cursor: Any) -> None:
        """Mark the row of the cursor's body (or the end row)."""
        before = self.row_for_cursor(self.cursor_key) if self.rows else None
        self.cursor_key = id_key(cursor)
        if before is not None:  # rows are shown
            for row in {before, self.row_for_cursor(cursor)}:  # only the two rows whose mark moves
                self.dataChanged.emit(self.index(row, 0), self.index(row, len(self.HEADERS) - 1))

    def set_badges(self, badges: dict[str, str], retyped: dict[str, int] | None = None) -> None:
        """Show the Run view's replay verdicts per body (and how many values each typed again)."""
        retyped = dict(retyped or {})
        if badges == self.badges and retyped == self.retyped:
            return  # a session opened with none: telling the tree that every row changed costs a walk of them all
        self.badges = dict(badges)
        self.retyped = retyped
        if self.rows:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self.rows) - 1, 1))  # the status mark too (_body_mark)

    def row_for_cursor(self, cursor: Any) -> int:
        """The top row of the cursor's body, or the end row."""
        return self.body_rows.get(id_key(cursor), len(self.rows) - 1)  # type: ignore[arg-type]

    def locate_entry(self, entry: Entry) -> QModelIndex:
        """The index of an entry's row (nested under its body or on top)."""
        for number, row in enumerate(self.rows):
            if row.item is entry:
                return self.index(number, 0)
            if row.kind in ("body", "group"):
                for child_number, child in enumerate(row.children):
                    if child is entry:
                        return self.index(child_number, 0, self.index(number, 0))
        return QModelIndex()

    def item(self, index: Index) -> tuple[TimelineRow, Entry | None]:
        """The top row of an index, and the call when the index is a nested call."""
        if index.internalId() == 0:
            return self.rows[index.row()], None
        row = self.rows[index.internalId() - 1]
        return row, row.children[index.row()]

    def index(self, row: int, column: int, parent: Index = QModelIndex()) -> QModelIndex:
        # Bounds checked here rather than with hasIndex(): a tree view lays out by asking for every
        # top row, and on 20,000 of them hasIndex's round trip through rowCount cost half a second.
        if not parent.isValid():
            count, internal = len(self.rows), 0
        elif parent.internalId() == 0 and parent.column() == 0:
            count, internal = self._child_count(parent.row()), parent.row() + 1
        else:
            return QModelIndex()
        if 0 <= row < count and 0 <= column < len(self.HEADERS):
            return self.createIndex(row, column, internal)
        return QModelIndex()

    def parent(self, index: Index = QModelIndex()) -> QModelIndex:  # type: ignore[override]
        if not index.isValid() or index.internalId() == 0:
            return QModelIndex()
        return self.createIndex(index.internalId() - 1, 0, 0)

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        if not parent.isValid():
            return len(self.rows)
        if parent.internalId() != 0 or parent.column() != 0:
            return 0
        return self._child_count(parent.row())

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        return len(self.HEADERS)

    def hasChildren(self, parent: Index = QModelIndex()) -> bool:  # noqa: N802 — Qt's name
        # A tree view lays out by asking this of every top row once the model is reset: Qt's own
        # answer asks rowCount and then columnCount, two calls into Python a row (44,000 top rows
        # of a million-entry session: a tenth of a second of the GUI thread); this is one.
        if not parent.isValid():
            return bool(self.rows)
        if parent.internalId() != 0 or parent.column() != 0:
            return False
        row = parent.row()
        return len(self.rows[row].children) > self._hidden.get(row, 0)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = DISPLAY) -> Any:
        if role == DISPLAY and orientation == Qt.Orientation.Horizontal and 0 <= section < len(self.HEADERS):
            return self.HEADERS[section]
        return None

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        if role not in ANSWERED or not index.isValid():  # a view asks every row for seven roles on each paint
            return None
        row, call = self.item(index)
        if role == TOOLTIP:
            return self._tooltip(row, call, index.column())
        return self._look(row, call, index.column())[LOOK_SLOT[role]]

    def multiData(self, index: Index, span: QModelRoleDataSpan) -> None:  # type: ignore[override]  # noqa: N802 — Qt's name; Qt hands a span (the stub's QModelRoleData is a C++ conversion)
        # The delegate asks a cell's seven roles in one call (wsi_inspector.gui.window.look.DELEGATE_ROLES): one call into
        # Python per cell, its look made once. Every role is set, None too: the request is handed from
        # cell to cell.
        if not index.isValid() or not delegate_asks(span):
            super().multiData(index, span)  # each role through data()
            return
        row, call = self.item(index)
        font, foreground, icon, text, background = self._look(row, call, index.column())
        for slot, value in enumerate((font, None, foreground, None, icon, text, background)):  # DELEGATE_ROLES
            span[slot].setData(value)  # type: ignore[index]  # the span is a sequence at run time; its stub says not

    def _look(self, row: TimelineRow, call: Entry | None, column: int) -> tuple[Any, ...]:
        """A cell's font, foreground, icon, text and background (LOOK_ROLES; None: the view's own), its
        top row and its call (when nested) looked at once."""
        if call is not None or row.kind not in TOP_KINDS:  # a call nested under its body, or a lone entry or edit
            return self._call_look(call if call is not None else row.item, column)  # type: ignore[arg-type]
        if row.kind == "body":
            return self._body_look(row, column)
        if row.kind == "end":
            at_cursor = self.cursor_key is None
            background = CURSOR_BACKGROUND if at_cursor else None
            if column != 0:
                return None, None, None, None, background
            return bold_monospace() if at_cursor else None, None, status_icon("end"), "End of session", background
        if column != 0:
            return NOTHING
        if row.kind == "group":
            edits = self._edits_in(row)
            first, last = row.children[0].id, row.children[-1].id
            what = f"{edits:,} canvas edits" if edits == len(row.children) else f"{len(row.children):,} entries ({edits:,} canvas edits)"
            return (monospace(), PERSON if edits else None, status_icon("person") if edits else None,
                    f"{PERSON_TAG if edits else '·'}  {what}  ·  {first} … {last}", None)
        return None, None, status_icon("kept"), f"kept snapshot · {len(row.item.kept)} names", None  # type: ignore[union-attr]

    def _body_look(self, row: TimelineRow, column: int) -> tuple[Any, ...]:
        body: Body = row.item  # type: ignore[assignment]
        at_cursor = body.key == self.cursor_key
        background = CURSOR_BACKGROUND if at_cursor else None
        if column == 1:
            badge = self.badges.get(body.key)
            retyped = self.retyped.get(body.key)
            text = (BADGE_WORDS.get(badge, badge) if badge else "") + (f" · retyped {retyped}" if retyped else "")
            return None, None, status_icon(badge) if badge else None, text, background
        return (bold_monospace() if at_cursor else monospace(), None, status_icon(self._body_mark(body)),
                self._body_title(row), background)

    def _body_mark(self, body: Body) -> str:
        """The status a body's row shows: its recorded outcome, except that a recorded "ok" whose replay
        did not come out the same shows a grey ✓ ("recorded-ok"): a green ✓ beside a red ≠ said fine and
        not fine at once (docs/window.md, "The timeline's marks")."""
        outcome = body_outcome(body, self.refused)
        return "recorded-ok" if outcome == "ok" and self.badges.get(body.key) in REPLAY_NOT_SAME else outcome

    def _call_look(self, entry: Entry, column: int) -> tuple[Any, ...]:
        if column != 0:
            return NOTHING
        if entry.applied:
            of = f" of {entry.edit_of}" if entry.edit_of is not None else ""
            return (monospace(), PERSON, status_icon("person"), f"{PERSON_TAG}  {entry.id}  canvas edit{of}  ·  {entry.call}",
                    PERSON_BACKGROUND)
        return monospace(), None, None, f"{entry.id} {entry.call}", None

    def _tooltip(self, row: TimelineRow, call: Entry | None, column: int) -> str | None:
        """A cell's tooltip: what its row stands for, where it was recorded."""
        if call is not None or row.kind not in TOP_KINDS:
            return self._call_tooltip(call if call is not None else row.item, column)  # type: ignore[arg-type]
        if row.kind == "body":
            body: Body = row.item  # type: ignore[assignment]
            if column == 1:
                badge = self.badges.get(body.key)
                retyped = self.retyped.get(body.key)
                typed = (f"\nit typed again {retyped} value{'s' if retyped != 1 else ''} it could have read "
                         "(wsi retyped)") if retyped else ""
                return f"replay: {BADGE_TIPS.get(badge, badge)}{typed}" if badge else None
            words = {"ok": "ran ok", "failed": "failed", "refused": "its keep was refused (InvalidKeepError)", "none": "no recorded result"}
            error = (body.result or {}).get("error")
            text = f"body {body.id} {words[body_outcome(body, self.refused)]}; choosing it moves the cursor to the state it was handed"
            if self._body_mark(body) == "recorded-ok":
                text += "\nas recorded only: its replay does not come out the same (the replay column)"
            return text + (f"\n{error}" if error else "")
        if row.kind == "end":
            return "the state after the last record: the whole store and the final kept set" if column == 0 else None
        if row.kind == "group":
            return "a long run of records with no body between them, folded into one row: expand it to see each" if column == 0 else None
        return f"a kept snapshot at {row.item.where}: it replaces the kept set"  # type: ignore[union-attr]

    def _body_title(self, row: TimelineRow) -> str:
        """`body b3  ·  4 calls  ·  <its first line>`, made once (again only when the body's calls grew)."""
        calls = len(row.children)
        title = self._titles.get(id(row))
        if title is None or title[0] != calls:
            if len(self._titles) >= TITLES_KEPT:
                self._titles.clear()
            body: Body = row.item  # type: ignore[assignment]
            title = self._titles[id(row)] = (calls, f"body {body.id}  ·  {calls} call{'s' if calls != 1 else ''}  ·  {first_code_line(body.code)}")
        return title[1]

    def _edits_in(self, row: TimelineRow) -> int:
        """How many of a group row's entries are canvas edits, counted once (again only when it grew):
        a view asks for every role of the row on each paint, and a group can hold 20,000 entries."""
        count = self._edit_counts.get(id(row))
        if count is None or count[0] != len(row.children):
            count = self._edit_counts[id(row)] = (len(row.children), sum(e.applied for e in row.children))
        return count[1]

    def _call_tooltip(self, entry: Entry, column: int) -> str | None:
        if column != 0:
            return None
        who = "a person's canvas edit (applied)" if entry.applied else f"a call made by body {entry.body}"
        return f"{entry.id}: {entry.call}, {who}, recorded at {entry.where}\n" + recorded_fields_text(entry)


TOOLTIP_VALUE_CHARS = 160  # each recorded value in a tooltip is cut here (the Inputs detail shows it all)


def recorded_fields_text(entry: Entry) -> str:
    """What the record holds beyond id and call, one line each: input, output, unit, and every other field."""
    lines = [f"input: {value_hint(entry.input)}",
             f"output: {value_hint(entry.output)}" if entry.has_output else "output: none recorded"]
    if entry.unit is not None:
        lines.append(f"unit: {entry.unit}")
    fields = ({"editOf": entry.edit_of} if entry.edit_of is not None else {}) | (
        {"seq": entry.seq} if entry.seq is not None else {}) | ({"at": entry.at} if entry.at is not None else {}) | entry.extra
    lines.extend(f"{name}: {value_hint(value)}" for name, value in fields.items())
    return "\n".join(lines)


def value_hint(value: Any, limit: int = TOOLTIP_VALUE_CHARS) -> str:
    """A value as one line of JSON (a string as itself), cut to `limit` characters (work in proportion to what is shown)."""
    if isinstance(value, str):
        text = " ".join(value.splitlines())
        return text if len(text) <= limit else text[: limit - 1] + "…"
    return compact_json(value, limit - 1)
