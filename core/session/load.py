"""Load a recorded session (SPEC 2): JSON or JSON Lines, gzip, BOM; tolerant, every problem located.

`load(path)` never writes to the file and never raises for bad content: the valid records load
and `session.problems` lists the rest. Only a file that cannot be read at all raises LoadError.
How each format version reads its two forms is in `wsi_inspector.core.session.formats` (to add a version, start there).
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from wsi_inspector.core.session.formats import VERSIONS, version_for
from wsi_inspector.core.session.formats.worker_session_1.header import FORMAT
from wsi_inspector.core.session.formats.worker_session_1.json_form import unreadable
from wsi_inspector.core.session.model import Body, Entry, Id, Problem, State, TimelineItem, id_key
from wsi_inspector.core.files.input_file import open_input, read_input, refuse_foreign_text
from wsi_inspector.core.session.reading import (
    GZIP_MAGIC, JsonSyntaxError, LoadError, decode, drop_bom, gunzip_file, lines_ended_by_cr, looks_like_json_lines, no_gc,
)
from wsi_inspector.core.session.reading import gzip_limit as reading_gzip_limit
from wsi_inspector.core.session.plain_header import Caps
from wsi_inspector.core.session.records import KnownIds
from wsi_inspector.core.session.place import Place
from wsi_inspector.core.session.timeline import StatePoint, build_states, order_timeline

if TYPE_CHECKING:
    from wsi_inspector.core.session.formats.worker_session_1.json_lines import LineReader

__all__ = ["FORMAT", "LoadError", "Session", "load", "load_bytes", "refused_session"]


class Session:
    """A loaded session: header, entries and bodies in timeline order, problems, states."""

    def __init__(self, name: str, path: Path | None = None):
        self.name = name
        self.path = path
        self.form = "json"  # or "jsonl"
        self.format: str | None = None
        self.info: dict[str, Any] = {}
        self.caps = Caps()
        self.scene: dict[str, Any] | None = None
        self.modules: dict[str, dict[str, Any]] = {}
        self.extra: dict[str, Any] = {}  # unknown top-level fields, kept
        self.final_kept: dict[str, Any] | None = None  # the JSON form's `kept`, when given
        self.timeline: list[TimelineItem] = []
        self.entries: list[Entry] = []
        self.bodies: list[Body] = []
        self.problems: list[Problem] = []
        self._index = EntryIndex(self.entries)
        self._body_by_key: dict[str, Body] = {}
        self.edit_links = EditLinks(self.problems, self._index)  # made again, filled, by finish
        self._points: dict[str | None, StatePoint] = {}
        self.unreadable: Problem | None = None  # the error when nothing of the file reads as JSON
        self._broken_parts: set[str] = set()  # header parts refused whole (already reported)
        self.line_reader: LineReader | None = None  # a JSON Lines session's reader, to read lines added later
        self._calls_by_body: dict[str, list[Entry]] = {}
        self._calls_indexed = -1  # how many entries `_calls_by_body` was made from (a live session grows)

    @property
    def is_session(self) -> bool:
        """True when the file names a format version the inspector reads (else it is not one to open)."""
        return self.format in VERSIONS

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "warning"]

    @property
    def title(self) -> str:
        return str(self.info.get("title") or self.info.get("id") or self.name)

    @property
    def _entry_by_key(self) -> dict[str, Entry]:
        """The entries by id (as strings): made on first use (EntryIndex)."""
        return self._index.by_key()

    def entry(self, entry_id: Id | None) -> Entry | None:
        """The entry with that id (compared as strings), or None."""
        return self._entry_by_key.get(id_key(entry_id))  # type: ignore[arg-type]

    def body(self, body_id: Id | None) -> Body | None:
        """The body with that id (compared as strings), or None."""
        return self._body_by_key.get(id_key(body_id))  # type: ignore[arg-type]

    def calls_of(self, body: Body) -> list[Entry]:
        """The entries body B made (those whose `body` is B), in timeline order.

        From an index made on first use (and again once a live session has grown): a replay of every
        body asks for each body's, and a walk of the store each time grew as bodies times entries.
        """
        if self._calls_indexed != len(self.entries):
            index: dict[str, list[Entry]] = {}
            for entry in self.entries:
                if entry.body is not None:
                    index.setdefault(str(entry.body), []).append(entry)
            self._calls_by_body, self._calls_indexed = index, len(self.entries)
        return list(self._calls_by_body.get(body.key, ()))

    def state_at(self, body_id: Id | None = None) -> State:
        """What body B was handed (the entries and kept set before it); None: the end of the session."""
        point = self._points.get(id_key(body_id))
        if point is None:
            raise KeyError(f"no body {body_id!r} in this session")
        return point.state(self.entries)

    def finish(self, index: bool = True) -> None:
        """Order the timeline, index the records, build every body's state, and check links.

        `index`: the entries by id are indexed now; else when first asked (EntryIndex)."""
        self.timeline = order_timeline(self.timeline, self.form)
        self.entries = [i for i in self.timeline if isinstance(i, Entry)]
        self.bodies = [i for i in self.timeline if isinstance(i, Body)]
        self._index = EntryIndex(self.entries)
        self._body_by_key = {b.key: b for b in self.bodies}
        # the ids edits name: the only ones whose order EditLinks must remember (a set of every id was 4 MB a 100,000)
        named = {str(e.edit_of) for e in self.entries if e.applied and e.edit_of is not None}
        self.edit_links = EditLinks(self.problems, self._index, named)
        for entry in self.entries:
            self.edit_links.check(entry)
        self.edit_links.loaded()
        if self.line_reader is not None:  # kept to read lines appended later: it need not hold every id again
            self.line_reader.checker.entry_ids = KnownIds(self._entry_by_key)
        self._points, refusals = build_states(self.timeline, self.caps.max_keep_bytes, self.final_kept)
        self.problems.extend(refusals)
        self._check_store_cap()
        if index:
            self._index.by_key()

    def _check_store_cap(self) -> None:
        from wsi_inspector.core.jsrules.run_inputs import store_bytes

        if self.entries:
            self.check_store_size(store_bytes(self.entries))

    def check_store_size(self, size: int) -> None:
        """Warn when the store's `size` is over caps.storeBytes (wsi_inspector.core.session.growing calls it again as the store grows)."""
        cap = self.caps.store_bytes
        if cap is not None and size > cap:
            self.problems.append(Problem(
                "warning", Place.at("store") if self.form == "json" else Place.named("store"),
                f"the store is {size:,} bytes, over caps.storeBytes {cap:,}: the editor trims the oldest "
                "entries before the next body (see wsi trim)",
            ))


class EntryIndex:
    """A session's entries by id (as a string), made when first asked: 100,000 entries make a 5 MB dict
    (7 MB resident while it grows), at a load's peak, and `wsi manifest` never looks an entry up."""

    __slots__ = ("_entries", "_by_key")

    def __init__(self, entries: list[Entry]):
        self._entries = entries  # the session's own list: entries appended to it later are found too
        self._by_key: dict[str, Entry] | None = None

    def by_key(self) -> dict[str, Entry]:
        """Every entry by its id's string (made now if not yet; kept up to date by whoever adds entries)."""
        by_key = self._by_key
        if by_key is None:
            by_key = self._by_key = {str(e.id): e for e in self._entries}
        return by_key


class EditLinks:
    """Checks, entry by entry in file order, that each canvas edit names an earlier model call."""

    def __init__(self, problems: list[Problem], index: EntryIndex, named: set[str] | None = None):
        self.problems = problems
        self.index = index  # every entry of the session: says whether a bad editOf is later or absent
        # The ids checked so far, of those in `named` when given (the ids edits name: no other is asked);
        # None once all loaded are (see `loaded`).
        self.seen: set[str] | None = set()
        self.named = named
        self.model_calls: set[str] = set()

    def loaded(self) -> None:
        """Every entry of the index is checked: from now on an entry is earlier when it is there (entries
        added later are put there before they are checked), and the set of ids seen is let go (2 MB a 50,000-entry session)."""
        self.seen = self.named = None

    def _earlier(self, key: str, entry: Entry) -> bool:
        if self.seen is not None:
            return key in self.seen
        found = self.index.by_key().get(key)
        return found is not None and found is not entry

    def check(self, entry: Entry) -> None:
        """Check one entry, the next in file order, and remember it."""
        if entry.applied:
            if entry.edit_of is not None and not self._earlier(str(entry.edit_of), entry):
                own = str(entry.edit_of) == str(entry.id)
                later = str(entry.edit_of) in self.index.by_key()
                named = "its own entry" if own else "a later entry" if later else "no entry"
                self.problems.append(Problem(
                    "warning", entry.where.field("editOf"),
                    f"editOf {entry.edit_of!r} names {named}; it must name the earlier model call the person edited",
                ))
            elif entry.edit_of is None and entry.call not in self.model_calls:
                self.problems.append(Problem(
                    "warning", entry.where,
                    f"canvas edit {entry.id!r} of {entry.call} has no earlier model call to compare "
                    "against; add editOf naming the call it edited",
                ))
        else:
            self.model_calls.add(entry.call)
        if self.seen is not None:
            key = str(entry.id)
            if self.named is None or key in self.named:
                self.seen.add(key)


def load(path: str | Path, gzip_limit: int | None = None, index: bool = True) -> Session:
    """Load the session file at `path` (LoadError only when it cannot be read at all).

    The file is read into memory through `wsi_inspector.core.files.input_file` (regular files only, bounded reads, never
    mapped: a file cut shorter by another program while it is read is a truncated text, not a crash);
    NUL bytes or UTF-16/32 text are one located error without reading past the first bytes. A gzip
    file is unpacked as it is read: its compressed bytes are never held whole beside the text.
    `index`: see `load_bytes`.
    """
    path = Path(path)
    try:
        text = file_text(path, gzip_limit)
    except JsonSyntaxError as exc:
        return refused_session(path, exc)
    return load_bytes(text, path.name, path, unpacked=True, index=index)


def file_text(path: Path, gzip_limit: int | None = None) -> bytes | bytearray:
    """The text of the file at `path` as the loader reads it: read into memory (`read_input`), a gzip file
    (by its magic bytes, whatever its name) unpacked as it is read, so its compressed bytes are never held
    whole beside the text; a leading BOM dropped. LoadError or JsonSyntaxError as `read_input` raises them."""
    handle = open_input(path)
    try:
        if os.pread(handle, len(GZIP_MAGIC), 0) == GZIP_MAGIC:
            return drop_bom(gunzip_file(handle, reading_gzip_limit() if gzip_limit is None else gzip_limit))
    finally:
        os.close(handle)
    return decode(read_input(path), gzip_limit)


def refused_session(path: Path, exc: JsonSyntaxError) -> Session:
    """The session of a file refused from its first bytes (NUL bytes, UTF-16): that one error, nothing loaded."""
    session = Session(path.name, path)
    unreadable(session, Problem("error", exc.where, str(exc)))
    session.finish()
    return session


def load_bytes(data: bytes | bytearray | memoryview, name: str = "<memory>", path: Path | None = None,
               gzip_limit: int | None = None, unpacked: bool = False, index: bool = True) -> Session:
    """Load a session from the file's bytes; `name` decides JSON vs JSON Lines by its suffix.

    A gzip file may unpack to `gzip_limit` bytes (None: `wsi_inspector.core.session.reading.gzip_limit()`);
    `unpacked`: `data` is the file's text as `file_text` gives it (gzip undone, BOM dropped), taken as it is.
    `index`: the entries' index by id is made now (False: when first asked, which then costs that call a
    pass over the entries: for one thread that may wait, the CLI's; the window asks on its GUI thread).
    """
    session = Session(name, path)
    with no_gc():
        try:
            # A memoryview is read as it lies (decode and the scans take any buffer); typed as the bytes it holds.
            text = cast("bytes | bytearray", data if unpacked else decode(data, gzip_limit))  # type: ignore[arg-type]
            refuse_foreign_text(text[:4096])  # what a gzip unpacked to, or bytes handed in
            del data  # a gzip's compressed bytes: not held beside the unpacked text while it is read
        except JsonSyntaxError as exc:
            unreadable(session, Problem("error", exc.where, str(exc)))
        else:
            version = version_for(text)
            if looks_like_json_lines(name, text):
                session.form = "jsonl"
                text = lines_ended_by_cr(text)
                version.read_json_lines(session, text)
            else:
                version.read_json(session, text)
        session.finish(index)
    return session
