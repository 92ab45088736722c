"""The Problems tab: every loader error and warning with its place; activating one shows the record.

A problem's `where` is the record's JSON Pointer or JSON Lines `line N` (plus a field), or a
`line:column` for a syntax error. A record that loaded is shown from the session and chosen in the
other views; one that was refused is read back from the file (the loader keeps nothing of it).
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QSplitter,
    QStackedWidget,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from core.diff import parse_pointer, pointer
from core.model import Body, Entry
from core.reading import JsonSyntaxError, LoadError, decode, parse_json, read_bytes
from core.session import Session
from gui.context import InspectorContext
from gui.json_tree import JsonTreeView
from gui.models import ProblemsModel, monospace
from gui.theme import hex_of

_LINE_COLUMN = re.compile(r"^(\d+):(\d+)$")
_LINE = re.compile(r"^line (\d+)")
_RECORD_PLACE = re.compile(r"^(/(?:store|bodies)/\d+|line \d+)(?=$|[/ ])")
EXCERPT_LINES = 3
WHOLE_FILE_SHOWN = 16 * 1024 * 1024  # a problem about a missing part shows the whole file up to this size


@dataclass
class RecordView:
    """What to show for a problem: a loaded record, a raw JSON value from the file, or a text excerpt."""

    title: str
    record: Entry | Body | None = None
    value: Any = None
    has_value: bool = False
    text: str | None = None


def loaded_record(session: Session, where: str, cache: dict[str, Any] | None = None) -> Entry | Body | None:
    """The loaded entry or body a problem's place belongs to (`/store/3/unit` → the entry at /store/3)."""
    found = _RECORD_PLACE.match(where)
    if found is None:
        return None
    records = None if cache is None else cache.get("records")
    if records is None:  # indexed once per session, then each activation is a lookup
        records = {r.where: r for r in [*session.entries, *session.bodies] if r.where}
        if cache is not None:
            cache["records"] = records
    return records.get(found.group(1))


def record_view(session: Session, where: str, cache: dict[str, Any] | None = None) -> RecordView:
    """Find what a problem points at: the loaded record, else the raw record read back from the file."""
    record = loaded_record(session, where, cache)
    if record is not None:
        kind = "entry" if isinstance(record, Entry) else "body"
        return RecordView(f"the {kind} {record.id} at {record.where} (loaded)", record=record)
    if session.path is None:
        return RecordView(f"{where}: the file is not on disk to read the record back from")
    try:
        data = (cache or {}).get("data")
        if data is None:
            data = decode(read_bytes(Path(session.path)))
            if cache is not None:
                cache["data"] = data
    except (LoadError, JsonSyntaxError) as exc:
        return RecordView(f"{where}: the file cannot be read again ({exc})")
    found = _LINE_COLUMN.match(where)
    if found:
        return RecordView(f"line {found.group(1)}, column {found.group(2)} of the file: where it stops being readable",
                          text=excerpt(data, int(found.group(1)), int(found.group(2))))
    found = _LINE.match(where)
    if found:
        number = int(found.group(1))
        line = _line(data, number)
        try:
            return RecordView(f"line {number} of the file (not loaded)", value=parse_json(line), has_value=True)
        except JsonSyntaxError:
            return RecordView(f"line {number} of the file (not loaded)", text=excerpt(data, number, 1))
    if where.startswith("/") or where == "":
        try:
            pointer, value = record_in_file(data, where, cache if cache is not None else {})
        except JsonSyntaxError as exc:
            return RecordView(f"{where}: the file is not JSON ({exc})")
        return RecordView(f"{pointer or '(the whole file)'} in the file (not loaded)", value=value, has_value=True)
    return RecordView(f"{where}: no record to show for this place")


def record_in_file(data: bytes, where: str, cache: dict[str, Any]) -> tuple[str, Any]:
    """The record a JSON Pointer falls in, parsing only that record (msgspec cuts the file without building it).

    A whole parse of a 150 MB session would take seconds and ten times its size on the GUI thread.
    """
    tokens = [t.replace("~1", "/").replace("~0", "~") for t in where.split("/")[1:]]
    try:
        members = cache.get("members")
        if members is None:
            members = cache["members"] = msgspec.json.decode(data, type=dict[str, msgspec.Raw])
        if (not tokens or tokens[0] not in members) and len(data) > WHOLE_FILE_SHOWN:
            return "", {name: f"… ({len(members[name]):,} bytes)" for name in members}  # the parts, not their values
        name = tokens[0] if tokens else ""
        if name not in members:
            raise msgspec.ValidationError  # a small file: shown whole below
        raw = members[name]
        if name in ("store", "bodies") and len(tokens) > 1 and tokens[1].isdigit():
            items = cache.get(name)
            if items is None:
                items = cache[name] = msgspec.json.decode(raw, type=list[msgspec.Raw])
            if int(tokens[1]) < len(items):  # a store or bodies record is shown whole, as record_at does
                return f"/{name}/{tokens[1]}", parse_json(memoryview(items[int(tokens[1])]))
        inside, value = record_at(parse_json(memoryview(raw)), pointer(tokens[1:]))
        return pointer([name]) + inside, value
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        pass
    document = cache.get("document")  # not an object of parts: the file is small or not a session
    if document is None:
        document = cache["document"] = parse_json(data)
    return record_at(document, where)


def record_at(document: Any, where: str) -> tuple[str, Any]:
    """The record a pointer falls in (`/store/3/unit` → `/store/3`), else its deepest existing part."""
    try:
        tokens = parse_pointer(where)
    except ValueError:
        tokens = []
    if tokens[:1] in (["store"], ["bodies"]) and len(tokens) > 2:
        tokens = tokens[:2]
    value, used = document, []
    for token in tokens:
        if isinstance(value, dict) and token in value:
            value = value[token]
        elif isinstance(value, list) and token.isdigit() and int(token) < len(value):
            value = value[int(token)]
        else:
            break
        used.append(token)
    return pointer(used), value


def _line(data: bytes, number: int) -> bytes:
    start = 0
    for _ in range(number - 1):  # find, not split: a split copies the whole file on every click
        start = data.find(b"\n", start) + 1
        if start == 0:
            return b""
    end = data.find(b"\n", start)
    return data[start:] if end < 0 else data[start:end]


def excerpt(data: bytes, line: int, column: int) -> str:
    """A few lines around `line` with a caret under `column`, for a syntax error."""
    lines = data.decode("utf-8", "replace").split("\n")
    start, end = max(line - 1 - EXCERPT_LINES, 0), min(line + EXCERPT_LINES, len(lines))
    out = []
    for number in range(start, end):
        text = lines[number]
        if len(text) > 300:  # one huge line (a minified file): show the part around the column
            left = max(column - 150, 0) if number == line - 1 else 0
            text = ("…" if left else "") + text[left : left + 300] + "…"
            caret = column - left + (1 if left else 0)
        else:
            caret = column
        out.append(f"{number + 1:>6} | {text}")
        if number == line - 1:
            out.append("       | " + " " * max(caret - 1, 0) + "^")
    return "\n".join(out)


class ProblemsView(QWidget):
    """Every loader error and warning; activating one shows its record and chooses it elsewhere."""

    def __init__(self, context: InspectorContext, parent: QWidget | None = None):
        super().__init__(parent)
        self.context = context
        self.model = ProblemsModel(self)
        self._cache: dict[str, Any] = {}
        self.summary = QLabel(self)
        self.summary.setObjectName("problemsSummary")
        self.table = QTableView(self)
        self.table.setObjectName("problemsTable")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.verticalHeader().setVisible(False)
        self.table.setColumnWidth(0, 90)
        self.table.setColumnWidth(1, 200)
        self.table.horizontalHeader().setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.record_title = QLabel("Activate a problem to see its record.", self)
        self.record_title.setObjectName("problemRecordTitle")
        self.record_title.setWordWrap(True)
        self.tree = JsonTreeView(self)
        self.tree.setObjectName("problemRecordJson")
        self.text = QPlainTextEdit(self)
        self.text.setObjectName("problemRecordText")
        self.text.setReadOnly(True)
        self.text.setFont(monospace())
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.stack = QStackedWidget(self)
        self.stack.addWidget(self.tree)
        self.stack.addWidget(self.text)
        self.shown: RecordView | None = None
        bottom = QWidget(self)
        bottom_layout = QVBoxLayout(bottom)
        bottom_layout.setContentsMargins(0, 0, 0, 0)
        bottom_layout.addWidget(self.record_title)
        bottom_layout.addWidget(self.stack)
        self.splitter = QSplitter(Qt.Orientation.Vertical, self)
        self.splitter.setObjectName("problemsSplitter")
        self.splitter.addWidget(self.table)
        self.splitter.addWidget(bottom)
        self.splitter.setSizes([420, 300])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.summary)
        layout.addWidget(self.splitter, 1)
        self.table.activated.connect(self.activate)
        self.table.selectionModel().currentRowChanged.connect(lambda current, _: self.show_record(current))
        context.session_changed.connect(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        """List the open session's problems."""
        session = self.context.session
        self._cache = {}
        self.model.set_problems(session.problems if session is not None else [])
        if session is None:
            self.summary.setText("No session open.")
        else:
            errors, warnings = len(session.errors), len(session.warnings)
            self.summary.setText(
                f"{errors} error{'s' if errors != 1 else ''} (records not loaded) · "
                f"{warnings} warning{'s' if warnings != 1 else ''} (loaded, flagged) in {html.escape(session.name)}"
                if session.problems else f"No problems in {html.escape(session.name)}: every record loaded.")
        self.tree.set_value(None, present=False)
        self.text.clear()
        self.record_title.setText("Activate a problem to see its record.")
        if self.model.rows:
            self.table.selectRow(0)

    def show_record(self, index: QModelIndex) -> RecordView | None:
        """Show the record of the problem in `index`'s row."""
        session = self.context.session
        if session is None or not 0 <= index.row() < len(self.model.rows):
            return None
        problem = self.model.rows[index.row()]
        shown = record_view(session, problem.where, self._cache)
        self.shown = shown
        self.record_title.setText(f"<b>{html.escape(problem.where or '(file)')}</b>: {html.escape(problem.message)}"
                                  f"<br><span style='color:{hex_of('muted')}'>{html.escape(shown.title)}</span>")
        if shown.record is not None:
            record = shown.record
            value = record.input if isinstance(record, Entry) else {"code": record.code, "result": record.result, "keep": record.keep}
            self.tree.set_value(value, "input" if isinstance(record, Entry) else f"body {record.id}")
            self.stack.setCurrentWidget(self.tree)
        elif shown.has_value:
            self.tree.set_value(shown.value, "record")
            self.stack.setCurrentWidget(self.tree)
        else:
            self.text.setPlainText(shown.text or "")
            self.stack.setCurrentWidget(self.text)
        return shown

    def activate(self, index: QModelIndex) -> None:
        """Show the record and, when it loaded, choose it in the timeline and the other views."""
        shown = self.show_record(index)
        if shown is None or shown.record is None:
            return
        if isinstance(shown.record, Entry):
            self.context.choose_entry(shown.record)
        else:
            self.context.choose_body(shown.record)
