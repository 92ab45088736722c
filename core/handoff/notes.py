"""Notes on a session: short texts a person attaches to a body, an entry or a change path, in a sidecar file.

A session file is evidence and is never written, so notes live beside it in `FILE.notes.json`:
`{"format": "worker-session-notes/1", "notes": [{"id", "on": {"body"?, "entry"?, "path"?}, "text",
"author", "at"}]}` (docs/format.md). `on` names at least a body or an entry; `path` is a JSON Pointer
inside that entry's input (a canvas edit's change) or a place of the body. Ids are `n1`, `n2` … in
the order added; `at` is ISO-8601 UTC.

Reading never fails: a sidecar that is not JSON, of another format, or with a bad note gives the
notes that are good and one located problem per bad part (`FILE.notes.json:3:7`, `/notes/2/text`),
which `wsi notes` and `wsi check` print and the window lists. Writing goes through a temporary file
renamed over the sidecar in one step (`wsi_inspector.core.files.output_file.write_output`), so a reader never sees half of it.
"""
from __future__ import annotations

import datetime
import getpass
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, TypedDict

import orjson

from wsi_inspector.core.files.input_file import TooBig, read_input
from wsi_inspector.core.session.model import Id
from wsi_inspector.core.files.output_file import write_output
from wsi_inspector.core.session.reading import JsonSyntaxError, LoadError, parse_json

if TYPE_CHECKING:
    from wsi_inspector.core.session.load import Session

FORMAT = "worker-session-notes/1"
SUFFIX = ".notes.json"
MAX_TEXT = 4000  # characters: a note is a remark, not a document
NOTES_LIMIT = 64 * 1024 * 1024  # bytes: a sidecar past this is not read (a FIFO or a device never is)
ON_KEYS = ("body", "entry", "path")


class NoteLine(TypedDict):
    """A note as the sidecar holds it and `wsi notes --json` prints it: what it is on (body, entry, path), its words."""

    id: str
    on: dict[str, str]
    text: str
    author: str
    at: str


class NotesSidecar(TypedDict):
    """The sidecar file `FILE.notes.json`."""

    format: str
    notes: list[NoteLine]


@dataclass(frozen=True)
class Note:
    """One note: what it is on (`body`, `entry`, `path`, each may be None), its text, author and time."""

    id: str
    text: str
    author: str
    at: str
    body: str | None = None
    entry: str | None = None
    path: str | None = None

    def as_json(self) -> NoteLine:
        """The note as the sidecar holds it."""
        on = {key: getattr(self, key) for key in ON_KEYS if getattr(self, key) is not None}
        return {"id": self.id, "on": on, "text": self.text, "author": self.author, "at": self.at}

    def place(self) -> str:
        """What the note is on, in words: `body b7`, `entry e2 /spine/2`."""
        parts = [f"body {self.body}" if self.body is not None else "", f"entry {self.entry}" if self.entry is not None else "",
                 self.path or ""]
        return " ".join(p for p in parts if p)


@dataclass
class Notes:
    """A sidecar's notes and the problems found reading it (each names where)."""

    notes: list[Note] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    _index: dict[str, tuple[int, dict[str, list[Note]]]] = field(default_factory=dict, repr=False, compare=False)

    def on_body(self, body: Id) -> list[Note]:
        """The notes attached to body `body` (compared as strings)."""
        return self._by("body").get(str(body), [])

    def on_entry(self, entry: Id) -> list[Note]:
        """The notes attached to entry `entry` (compared as strings)."""
        return self._by("entry").get(str(entry), [])

    def _by(self, key: str) -> dict[str, list[Note]]:
        # Asked for every row the window paints: an index, built again when the list changed.
        cached = self._index.get(key)
        if cached is None or cached[0] != len(self.notes):
            index: dict[str, list[Note]] = {}
            for note in self.notes:
                value = getattr(note, key)
                if value is not None:
                    index.setdefault(value, []).append(note)
            cached = self._index[key] = (len(self.notes), index)
        return cached[1]

    def document(self) -> NotesSidecar:
        """The sidecar document."""
        return {"format": FORMAT, "notes": [n.as_json() for n in self.notes]}


def notes_path(file: str | Path) -> Path:
    """The sidecar beside FILE: `FILE.notes.json`."""
    path = Path(file)
    return path.with_name(path.name + SUFFIX)


def parse_notes(text: bytes, name: str) -> Notes:
    """The notes in a sidecar's bytes; every problem located (line and column in characters), nothing raised."""
    try:
        document = parse_json(text)
    except JsonSyntaxError as exc:
        what = str(exc).split(";")[0]  # the hint after it speaks of session files
        return Notes(problems=[f"{name}:{exc.line}:{exc.column}: {what}; fix or remove the notes file, "
                               "the session itself is unaffected"])
    return notes_from(document, name)


def notes_from(document: object, name: str, prefix: str = "") -> Notes:
    """The notes of a parsed notes document (a sidecar's, or a session's own `notes` field at `prefix`)."""
    found = Notes()
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        got = document.get("format") if isinstance(document, dict) else None
        found.problems.append(f"{name}: {prefix}/format: expected {FORMAT!r}, found {got!r}; these are not notes "
                              "this version reads")
        return found
    notes = document.get("notes")
    if not isinstance(notes, list):
        found.problems.append(f"{name}: {prefix}/notes: expected a list of notes")
        return found
    seen: set[str] = set()
    for index, item in enumerate(notes):
        note, problem = _note(item, f"{prefix}/notes/{index}")
        if problem is None and note is not None and note.id in seen:
            problem = f"{prefix}/notes/{index}/id: {note.id!r} is used by an earlier note; this one is skipped"
        if problem is not None or note is None:
            found.problems.append(f"{name}: {problem}")
            continue
        seen.add(note.id)
        found.notes.append(note)
    return found


def _note(item: Any, where: str) -> tuple[Note | None, str | None]:
    if not isinstance(item, dict):
        return None, f"{where}: a note is an object {{id, on, text, author, at}}"
    for key in ("id", "text", "author", "at"):
        if not isinstance(item.get(key), str) or not item[key]:
            return None, f"{where}/{key}: expected a non-empty string"
    on = item.get("on")
    if not isinstance(on, dict) or not any(on.get(k) is not None for k in ("body", "entry")):
        return None, f"{where}/on: expected {{\"body\"?, \"entry\"?, \"path\"?}} naming a body or an entry"
    values: dict[str, str | None] = {}
    for key in ON_KEYS:
        value = on.get(key)
        if value is not None and not isinstance(value, (str, int)) or isinstance(value, bool):
            return None, f"{where}/on/{key}: expected a string or a whole number"
        values[key] = None if value is None else str(value)
    if values["path"] is not None and values["path"] and not values["path"].startswith("/"):
        return None, f"{where}/on/path: expected a JSON Pointer such as /spine/2"
    return Note(item["id"], item["text"], item["author"], item["at"], **values), None


def read_notes(file: str | Path) -> Notes:
    """The notes beside FILE (none when there is no sidecar); never raises."""
    path = notes_path(file)
    if not os.path.lexists(path):
        return Notes()
    try:
        text = bytes(read_input(path, NOTES_LIMIT))  # a regular file only, read bounded (wsi_inspector.core.files.input_file)
    except TooBig as exc:
        return Notes(problems=[f"{path.name}: {exc}; a notes file this large is not read"])
    except (LoadError, ValueError, OSError) as exc:
        return Notes(problems=[f"{path.name}: {exc}"])
    return parse_notes(text, path.name)


def embedded_notes(session: Session | None) -> Notes:
    """The notes a session file carries itself (a repro, reduced or redacted file's top-level `notes`)."""
    if session is None or "notes" not in session.extra:
        return Notes()
    return notes_from(session.extra["notes"], session.name, "/notes")


def session_notes(file: str | Path | None, session: Session | None = None) -> Notes:
    """Every note of a session: those it carries (`session`, when loaded) and those of its sidecar, in that order."""
    carried, beside = embedded_notes(session), read_notes(file) if file is not None else Notes()
    return Notes(carried.notes + beside.notes, carried.problems + beside.problems)


def notes_for_cut(source: Session, bodies: Iterable[Id], entries: Iterable[Id]) -> NotesSidecar | None:
    """The notes document a cut of `source` carries: its notes on the bodies and entries the cut keeps (None: none)."""
    every = session_notes(source.path, source)
    kept = kept_notes(every, bodies, entries)
    return kept.document() if kept.notes else None


def write_notes(file: str | Path, notes: Notes) -> Path:
    """Write `notes` as FILE's sidecar (never FILE itself)."""
    return write_output(notes_path(file), orjson.dumps(notes.document(), option=orjson.OPT_INDENT_2) + b"\n", [file])


def now() -> str:
    """The time now, ISO-8601 UTC to the second."""
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def default_author() -> str:
    """Who is adding a note: $USER, else the login name, else `someone`."""
    try:
        return os.environ.get("USER") or getpass.getuser() or "someone"
    except Exception:  # getpass raises when no name is known at all
        return "someone"


def next_id(notes: Notes) -> str:
    """`n<k>` one past the highest `n<number>` id in use."""
    numbers = [int(n.id[1:]) for n in notes.notes if n.id[:1] == "n" and n.id[1:].isdigit()]
    return f"n{max(numbers, default=0) + 1}"


def add_note(file: str | Path, text: str, body: Id | None = None, entry: Id | None = None, path: str | None = None,
             author: str | None = None, carried: Iterable[Note] = ()) -> Note:
    """Add a note to FILE's sidecar and write it; ValueError for a note that is empty, too long or on nothing.

    `carried`: the notes FILE holds itself (a repro's), so the new note's id is not one of theirs.

    A sidecar with problems is refused (ValueError naming them) rather than rewritten without the bad parts.
    """
    text = text.strip()
    if not text:
        raise ValueError("a note needs some text")
    if len(text) > MAX_TEXT:
        raise ValueError(f"a note is at most {MAX_TEXT} characters (this one is {len(text)}); link to a longer text instead")
    if body is None and entry is None:
        raise ValueError("a note is on a body or an entry: give --body B or --entry E")
    if path is not None and path and not path.startswith("/"):
        raise ValueError(f"--path {path}: expected a JSON Pointer such as /spine/2")
    notes = read_notes(file)
    if notes.problems:
        raise ValueError(f"{notes.problems[0]} (the notes file is left as it is until that is fixed)")
    taken = Notes(notes.notes + list(carried))
    note = Note(next_id(taken), text, (author or default_author()).strip() or "someone", now(),
                None if body is None else str(body), None if entry is None else str(entry), path or None)
    notes.notes.append(note)
    write_notes(file, notes)
    return note


def redact_notes(notes: Notes, redact_text: Callable[[str], str]) -> Notes:
    """The notes with each text passed through `redact_text` (a redacted copy's texts map the same way)."""
    return Notes([Note(n.id, redact_text(n.text), n.author, n.at, n.body, n.entry, n.path) for n in notes.notes],
                 list(notes.problems))


def kept_notes(notes: Notes, bodies: Iterable[Id], entries: Iterable[Id]) -> Notes:
    """The notes on what a cut keeps: on one of `bodies` or `entries` (a note on both needs both)."""
    body_keys = {str(b) for b in bodies}
    entry_keys = {str(e) for e in entries}
    return Notes([n for n in notes.notes if (n.body is None or n.body in body_keys)
                  and (n.entry is None or n.entry in entry_keys)])
