"""A JSON Lines session that takes what is appended to its file, without reading the file again.

`Growth(session, offset)` continues a loaded JSON Lines session from byte `offset` of its file (where
its last whole line ended); `feed(tail)` reads the bytes from there on: each complete new line is
read as the loader reads it (the same checks, messages and places), the session's timeline,
entries, bodies, states, problems and timeline rows are extended in place, and the answer says
what was added. A last line without its newline waits for it (its bytes are read again next time)
and is reported as the loader reports an incomplete last line. The answers equal a fresh load of
the same file; where they could not without reading it all again (a session ordered by `seq`, a
missing header, a run of lone entries growing into a group row) `feed` returns None and the caller
loads the file again.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from wsi_inspector.core.session.formats.worker_session_1.json_lines import INCOMPLETE, read_record
from wsi_inspector.core.session.model import Body, Entry, KeepRefusal, KeptSnapshot, Problem, TimelineItem
from wsi_inspector.core.session.place import NOWHERE, Place
from wsi_inspector.core.session.reading import BOM
from wsi_inspector.core.session.records import KnownIds, RecordChecker
from wsi_inspector.core.jsrules.run_inputs import entry_bytes
from wsi_inspector.core.session.load import Session
from wsi_inspector.core.session.timeline import GROUP_AT, StatePoint, TimelineRow, accepted_keep, keep_place, timeline_rows


class Buffer(Protocol):
    """The file's bytes as read into memory (`bytes` or `bytearray`: files are never mapped)."""

    def find(self, sub: bytes, start: int = ..., /) -> int: ...

    def __len__(self) -> int: ...

    def __getitem__(self, key: slice, /) -> bytes | bytearray: ...


@dataclass
class RowChanges:
    """What an append did to the timeline rows: rows inserted and rows whose data changed."""

    top: tuple[int, int] | None = None  # first and last new top row
    children: list[tuple[int, int, int]] = field(default_factory=list)  # (top row, first, last new child)
    changed: list[int] = field(default_factory=list)  # top rows whose cursor changed


@dataclass
class Appended:
    """What one `feed` added to the session."""

    items: list[TimelineItem]
    first_entry: int  # the index in session.entries of the first new entry
    entries: list[Entry]
    bodies: list[Body]
    rows: RowChanges
    problems_changed: bool


def last_line(session: Session) -> int:
    """The number of the last line the loader read: the highest any record or problem names.

    An incomplete last line is not counted: it is read again once it is whole.
    """
    places = [getattr(i, "where", NOWHERE) for i in session.timeline[-3:]]
    places += [p.place for p in session.problems if p.message != INCOMPLETE]
    return max((p.line or 0 for p in places), default=0)


def _header_line(data: Buffer) -> int:
    """The number of the first line that is not blank (the header), or 0."""
    start, number = 0, 0
    while start < len(data):
        number += 1
        newline = data.find(b"\n", start)
        stop = len(data) if newline < 0 else newline
        if data[start:stop].strip():
            return number
        start = stop + 1
    return 0


class Growth:
    """Extends one loaded JSON Lines session with the lines appended to its file."""

    def __init__(self, session: Session, data: Buffer):
        """Continue `session`, loaded from the start of `data` (the file's bytes now, or a map of them)."""
        self.session = session
        reader = session.line_reader
        read = max(last_line(session), _header_line(data))
        if reader is None:  # a session not read line by line: walk the file's line ends up to the last line read
            self.line, self.offset = 0, 0
        else:  # the loader saw where its whole lines end; lines after the last one read are blank
            self.line, self.offset = reader.whole_lines, reader.whole_end + (len(BOM) if data[:3] == BOM else 0)
        self._unended = False
        while self.line < read:
            newline = data.find(b"\n", self.offset)
            if newline < 0:  # the last line read has no newline yet: the next byte ends it
                self.offset, self._unended = len(data), True
                break
            self.line, self.offset = self.line + 1, newline + 1
        self.line = max(self.line, read)
        # The loader's own checker, with every id it saw: appended lines are checked as if read with the rest.
        self.checker = reader.checker if reader is not None else _checker_of(session)
        self.ordered_by_seq = any(getattr(i, "seq", None) is not None for i in session.timeline)
        self._entry_bytes = sum(map(entry_bytes, session.entries))  # the store's size, kept up to date
        end = session._points[None]
        self._kept, self._kept_by, self._refused = dict(end.kept), dict(end.kept_by), list(end.refused)

    def feed(self, tail: bytes) -> Appended | None:
        """Read the whole lines of `tail` (the file from `offset` on); None: load the file again instead."""
        session = self.session
        if not session.is_session or self.ordered_by_seq:
            return None
        if self._unended:  # the rest of a line already read: its newline
            if not tail.startswith((b"\n", b"\r\n")):
                return None if tail else self._nothing()
            skip = tail.index(b"\n") + 1
            self.offset += skip
            self._unended = False
            tail = tail[skip:]
        end = tail.rfind(b"\n") + 1
        had_incomplete = _drop_incomplete(session.problems)
        items: list[TimelineItem] = []
        number = self.line
        for raw in tail[:end].split(b"\n")[:-1] if end else []:
            number += 1
            line = raw.rstrip(b"\r")
            if line.strip():
                item = read_record(session, self.checker, number, line)
                if item is not None:
                    items.append(item)
        if any(getattr(i, "seq", None) is not None for i in items):
            return None
        if tail[end:].strip():  # a partial last line: it waits for its newline
            session.problems.append(Problem("warning", Place.record_line(number + 1), INCOMPLETE))
        self.offset += end
        self.line = number
        first_entry = len(session.entries)
        rows = extend_rows(session, items)
        if rows is None:
            return None
        entries = [i for i in items if isinstance(i, Entry)]
        bodies = [i for i in items if isinstance(i, Body)]
        before = len(session.problems)
        self._extend_session(items, entries, bodies)
        changed = had_incomplete or len(session.problems) != before or bool(tail[end:].strip())
        return Appended(items, first_entry, entries, bodies, rows, changed)

    def _nothing(self) -> Appended:
        return Appended([], len(self.session.entries), [], [], RowChanges(), False)

    def _extend_session(self, items: list[TimelineItem], entries: list[Entry], bodies: list[Body]) -> None:
        """What `Session.finish` and `build_states` do, for the new items only."""
        session = self.session
        session.timeline.extend(items)
        session.entries.extend(entries)
        session.bodies.extend(bodies)
        for entry in entries:
            session._entry_by_key[entry.key] = entry
            session.edit_links.check(entry)
        points = session._points
        count = len(session.entries) - len(entries)
        for item in items:
            if isinstance(item, Entry):
                count += 1
            elif isinstance(item, KeptSnapshot):
                self._kept, self._kept_by = dict(item.kept), {}
            else:
                session._body_by_key[item.key] = item
                points[item.key] = StatePoint(count, dict(self._kept), dict(self._kept_by), list(self._refused), item.id)
                self._keep(item)
        points[None] = StatePoint(len(session.entries), dict(self._kept), dict(self._kept_by), list(self._refused), None)
        if entries:
            self._check_store_cap(len(entries))

    def _keep(self, body: Body) -> None:
        """build_states for one appended body: its keep requests, or its refusal."""
        requests, refusal = accepted_keep(body, self.session.caps.max_keep_bytes)
        if refusal is not None:
            self._refused.append(KeepRefusal(body.id, refusal))
            self.session.problems.append(Problem("warning", keep_place(body), f"keep refused: {refusal}"))
        for request in requests:
            self._kept[request["name"]] = request["value"]
            self._kept_by[request["name"]] = body.id

    def _check_store_cap(self, appended: int) -> None:
        """Session._check_store_cap again: its warning names the store's size, which has grown."""
        session = self.session
        if session.caps.store_bytes is None:
            return
        count = len(session.entries)
        self._entry_bytes += sum(map(entry_bytes, session.entries[count - appended:]))
        problems = session.problems
        old = next((n for n in range(len(problems) - 1, -1, -1)  # re-added at the end each time: found at once
                    if problems[n].place.name == "store" and "over caps.storeBytes" in problems[n].message), None)
        if old is not None:
            del problems[old]
        session.check_store_size(2 + self._entry_bytes + max(count - 1, 0))  # store_bytes, kept as the store grows


def _checker_of(session: Session) -> RecordChecker:
    """A record checker that knows the ids of a session loaded without a line reader."""
    checker = RecordChecker(session.problems)
    checker.entry_ids = KnownIds(session._entry_by_key)
    checker.body_ids = {b.key for b in session.bodies}
    return checker


def _drop_incomplete(problems: list[Problem]) -> bool:
    """Take away the incomplete-last-line warning (the line is read again); True if there was one."""
    kept = [p for p in problems if p.message != INCOMPLETE]
    if len(kept) == len(problems):
        return False
    problems[:] = kept
    return True


def extend_rows(session: Session, items: list[TimelineItem]) -> RowChanges | None:
    """Extend the session's timeline rows (`timeline_rows`) with appended items, as a fresh build lays them out.

    None, with nothing changed, when a fresh build would lay out earlier rows differently (a run of
    lone entries grows past GROUP_AT into one group row): the caller builds them again.
    """
    rows = timeline_rows(session)
    end_row = rows[-1]  # "End of session" stays last
    current = next((n for n in range(len(rows) - 2, -1, -1) if rows[n].kind == "body"), None)
    if _regroups(rows, current, items):
        return None
    rows.pop()
    old_count = len(rows)
    changes = RowChanges()
    children: dict[int, int] = {}  # top row → its child count before
    for item in items:
        if isinstance(item, Entry):
            if current is not None and _nests(item, rows[current]):
                children.setdefault(current, len(rows[current].children))
                rows[current].children.append(item)
            elif rows and rows[-1].kind == "group":
                children.setdefault(len(rows) - 1, len(rows[-1].children))
                rows[-1].children.append(item)
            else:
                rows.append(TimelineRow("edit" if item.applied else "entry", item, None))
        elif isinstance(item, Body):
            for n in range(current + 1 if current is not None else 0, len(rows)):
                rows[n].cursor = item.id  # rows waiting for the next body: this one
                if rows[n].kind == "group":
                    rows[n].children_cursor = item.id
                changes.changed.append(n)
            if current is not None and rows[current].children:
                rows[current].children_cursor = item.id
                changes.changed.append(current)
            rows.append(TimelineRow("body", item, item.id))
            current = len(rows) - 1
        else:
            rows.append(TimelineRow("kept", item, None))
    rows.append(end_row)
    if len(rows) - 1 > old_count:
        changes.top = (old_count, len(rows) - 2)
    changes.children = [(top, before, len(rows[top].children) - 1) for top, before in children.items() if top < old_count]
    changes.changed = sorted({n for n in changes.changed if n < old_count})
    return changes


def _nests(entry: Entry, row: TimelineRow) -> bool:
    """Whether a fresh build nests `entry` under the body row `row` (a call that body made)."""
    return entry.body is not None and not entry.applied and str(entry.body) == row.item.key  # type: ignore[union-attr]


def _regroups(rows: list[TimelineRow], current: int | None, items: list[TimelineItem]) -> bool:
    """Whether appending `items` makes a run of lone entry rows before the end longer than GROUP_AT."""
    body = rows[current] if current is not None else None
    run = 0
    for n in range(len(rows) - 2, max(len(rows) - 3 - GROUP_AT, -1), -1):  # the run before the end row
        if rows[n].kind not in ("entry", "edit"):
            break
        run += 1
    grouped = len(rows) > 1 and rows[-2].kind == "group"
    for item in items:
        if isinstance(item, Entry):
            if (body is not None and _nests(item, body)) or grouped:
                continue
            run += 1
            if run > GROUP_AT:
                return True
        else:
            run, grouped = 0, False
            if isinstance(item, Body):
                body = TimelineRow("body", item, item.id)
    return False
