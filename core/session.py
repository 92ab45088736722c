"""Load a recorded session (SPEC 2): JSON or JSON Lines, gzip, BOM; tolerant, every problem located.

`load(path)` never writes to the file and never raises for bad content: the valid records load
and `session.problems` lists the rest. Only a file that cannot be read at all raises LoadError.
A record that cannot be parsed on its own (a byte that is not UTF-8, nesting deeper than
`MAX_DEPTH`) is an error at the `line:column` of the bad spot, naming the record's pointer; the
other records load. When nothing of the file can be read as JSON (damaged gzip, a syntax error in
the JSON form's document), `session.unreadable` is that one error.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
from pydantic import BaseModel, ValidationError

from core.model import Body, Entry, Id, KeptSnapshot, Problem, State, TimelineItem, id_key
from core.place import NOWHERE, Place
from core.reading import (
    JsonSyntaxError,
    LoadError,
    decode,
    iter_lines,
    locate_failure,
    looks_like_json_lines,
    no_gc,
    parse_json,
    position_of,
    read_bytes,
    starts_with,
)
from core.records import MODULE, RecordChecker
from core.run_inputs import measure
from core.schema import Caps, Entity, Mock, ModuleInfo, SessionInfo, describe_error
from core.timeline import StatePoint, build_states, order_timeline

__all__ = ["LoadError", "Session", "load", "load_bytes"]

FORMAT = "worker-session/1"
# A broken JSON-form file bigger than this is placed by msgspec, which only checks, instead of the
# full parsers, which build everything before the bad spot (ten times the text for float-heavy data).
WHOLE_PARSE_LIMIT = 16 * 1024 * 1024
HEADER_PARTS = ("format", "session", "caps", "scene", "modules")
NOT_AN_OBJECT = "not a session: the file is JSON but not an object"


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
        self._entry_by_key: dict[str, Entry] = {}
        self._body_by_key: dict[str, Body] = {}
        self._points: dict[str | None, StatePoint] = {}
        self.unreadable: Problem | None = None  # the error when nothing of the file reads as JSON
        self._broken_parts: set[str] = set()  # header parts refused whole (already reported)

    @property
    def is_session(self) -> bool:
        """True when the file is a worker-session/1 document (else it is not one to open)."""
        return self.format == FORMAT

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "warning"]

    @property
    def title(self) -> str:
        return str(self.info.get("title") or self.info.get("id") or self.name)

    def entry(self, entry_id: Id | None) -> Entry | None:
        """The entry with that id (compared as strings), or None."""
        return self._entry_by_key.get(id_key(entry_id))  # type: ignore[arg-type]

    def body(self, body_id: Id | None) -> Body | None:
        """The body with that id (compared as strings), or None."""
        return self._body_by_key.get(id_key(body_id))  # type: ignore[arg-type]

    def state_at(self, body_id: Id | None = None) -> State:
        """What body B was handed (the entries and kept set before it); None: the end of the session."""
        point = self._points.get(id_key(body_id))
        if point is None:
            raise KeyError(f"no body {body_id!r} in this session")
        return point.state(self.entries)

    def finish(self) -> None:
        """Order the timeline, index the records, build every body's state, and check links."""
        self.timeline = order_timeline(self.timeline, self.form)
        self.entries = [i for i in self.timeline if isinstance(i, Entry)]
        self.bodies = [i for i in self.timeline if isinstance(i, Body)]
        self._entry_by_key = {str(e.id): e for e in self.entries}
        self._body_by_key = {b.key: b for b in self.bodies}
        self._check_edits()
        self._points, refusals = build_states(self.timeline, self.caps.max_keep_bytes, self.final_kept)
        self.problems.extend(refusals)
        self._check_store_cap()

    def _check_edits(self) -> None:
        seen: set[str] = set()
        model_calls: set[str] = set()
        for entry in self.entries:
            if entry.applied:
                if entry.edit_of is not None and str(entry.edit_of) not in seen:
                    later = str(entry.edit_of) in self._entry_by_key
                    self.problems.append(Problem(
                        "warning", entry.where.field("editOf"),
                        f"editOf {entry.edit_of!r} names {'a later' if later else 'no'} entry; "
                        "it must name the earlier model call the person edited",
                    ))
                elif entry.edit_of is None and entry.call not in model_calls:
                    self.problems.append(Problem(
                        "warning", entry.where,
                        f"canvas edit {entry.id!r} of {entry.call} has no earlier model call to compare "
                        "against; add editOf naming the call it edited",
                    ))
            else:
                model_calls.add(entry.call)
            seen.add(str(entry.id))

    def _check_store_cap(self) -> None:
        from core.run_inputs import store_bytes

        cap = self.caps.store_bytes
        if cap is None or not self.entries:
            return
        size = store_bytes(self.entries)
        if size > cap:
            self.problems.append(Problem(
                "warning", Place.at("store") if self.form == "json" else Place.named("store"),
                f"the store is {size:,} bytes, over caps.storeBytes {cap:,}: the editor trims the oldest "
                "entries before the next body (see wsi trim)",
            ))


def load(path: str | Path, gzip_limit: int | None = None) -> Session:
    """Load the session file at `path` (LoadError only when it cannot be read at all)."""
    path = Path(path)
    return load_bytes(read_bytes(path), path.name, path, gzip_limit)


def load_bytes(data: bytes, name: str = "<memory>", path: Path | None = None, gzip_limit: int | None = None) -> Session:
    """Load a session from the file's bytes; `name` decides JSON vs JSON Lines by its suffix.

    A gzip file may unpack to `gzip_limit` bytes (None: `core.reading.gzip_limit()`).
    """
    session = Session(name, path)
    with no_gc():
        try:
            text = decode(data, gzip_limit)
        except JsonSyntaxError as exc:
            _unreadable(session, Problem("error", exc.where, str(exc)))
        else:
            if looks_like_json_lines(name, text):
                session.form = "jsonl"
                _load_json_lines(session, text)
            else:
                _load_json(session, text)
        session.finish()
    return session


def _unreadable(session: Session, problem: Problem) -> None:
    session.problems.append(problem)
    session.unreadable = problem


def _record_error(session: Session, text: Any, raw: Any, pointer: str, exc: JsonSyntaxError, what: str) -> None:
    """A part of the JSON form that does not parse on its own: placed in the file, the rest still loads."""
    start = _offset_of(text, raw)
    where = Place.spot(*position_of(text, start + exc.offset), Place.from_pointer(pointer)) if start is not None else pointer
    session.problems.append(Problem("error", where, f"{pointer}: {exc}; {what} is not loaded"))


def _offset_of(text: Any, raw: Any) -> int | None:
    """Where `raw`, a piece msgspec cut out of `text` without copying, starts in it."""
    import numpy

    start = numpy.frombuffer(raw, numpy.uint8).ctypes.data - numpy.frombuffer(text, numpy.uint8).ctypes.data
    return start if 0 <= start < len(text) else None


def _load_json(session: Session, text: bytes) -> None:
    document = _split_json(session, text)
    if document is None and len(text) > WHOLE_PARSE_LIMIT:
        failure = locate_failure(text)
        if failure is not None:
            _unreadable(session, Problem("error", failure.where, str(failure)))
            return
        if not starts_with(text, b"{"):  # JSON, but not an object: said without building it
            _unreadable(session, Problem("error", "", NOT_AN_OBJECT))
            return
    if document is None:
        try:
            document = parse_json(text)
        except JsonSyntaxError as exc:
            _unreadable(session, Problem("error", exc.where, str(exc)))
            return
    if not isinstance(document, dict):
        _unreadable(session, Problem("error", "", NOT_AN_OBJECT))
        return
    _read_header(session, document, NOWHERE)
    checker = RecordChecker(session.problems)
    store = document.get("store")
    if store is None:
        session.problems.append(Problem("error", "/store", "missing: a session needs store, an array of entries, oldest first"))
    elif not isinstance(store, list):
        session.problems.append(Problem("error", "/store", "store must be an array of entries, oldest first"))
    else:
        for index, raw in enumerate(store):
            if isinstance(raw, msgspec.Raw):
                try:
                    record = parse_json(memoryview(raw))
                except JsonSyntaxError as exc:
                    _record_error(session, text, raw, f"/store/{index}", exc, "this entry")
                    continue
                _add_entry(session, checker.entry(record, f"/store/{index}"), raw)
            else:
                _add_entry(session, checker.entry(raw, f"/store/{index}"))
    bodies = document.get("bodies", [])
    if not isinstance(bodies, list):
        session.problems.append(Problem("error", "/bodies", "bodies must be an array"))
        bodies = []
    for index, raw in enumerate(bodies):
        if isinstance(raw, msgspec.Raw):
            try:
                raw = parse_json(memoryview(raw))
            except JsonSyntaxError as exc:
                _record_error(session, text, raw, f"/bodies/{index}", exc, "this body")
                continue
        body = checker.body(raw, f"/bodies/{index}")
        if body is not None:
            session.timeline.append(body)
    kept = document.get("kept")
    if kept is not None:
        if isinstance(kept, dict):
            session.final_kept = kept
        else:
            session.problems.append(Problem("error", "/kept", "kept must be an object of named values"))
    known = {*HEADER_PARTS, "store", "bodies", "kept"}
    session.extra = {k: v for k, v in document.items() if k not in known}


class _Parts(msgspec.Struct, forbid_unknown_fields=True):
    """A session document's parts, each left as its text, the store cut into its records' texts."""

    format: msgspec.Raw = msgspec.UNSET
    session: msgspec.Raw = msgspec.UNSET
    caps: msgspec.Raw = msgspec.UNSET
    scene: msgspec.Raw = msgspec.UNSET
    modules: msgspec.Raw = msgspec.UNSET
    store: list[msgspec.Raw] = msgspec.UNSET
    bodies: list[msgspec.Raw] = msgspec.UNSET
    kept: msgspec.Raw = msgspec.UNSET


_RECORD_LISTS = ("store", "bodies")  # parts whose elements are records, parsed (and refused) one by one


def _split_json(session: Session, text: bytes) -> dict[str, Any] | None:
    """The document with every member parsed but `store`, whose records are left as their own texts.

    msgspec checks the whole text in C and cuts it into pieces without building them, so records are
    parsed one at a time and let go (see Entry): the peak is then about the file, not the file, its
    parse tree and all of its objects (ten times the file for a float-heavy store). None when msgspec
    refuses the text; the full parser then says where and why, or reads what only it accepts.
    """
    try:
        try:  # one pass when the file holds only the parts SPEC 2 names
            parts = msgspec.json.decode(text, type=_Parts)
            members: dict[str, Any] = {f: getattr(parts, f) for f in _Parts.__struct_fields__}
        except msgspec.ValidationError:  # more parts (kept as extra), or a store that is not an array
            members = msgspec.json.decode(text, type=dict[str, msgspec.Raw])
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        # Not JSON, or nested deeper than msgspec walks (RECURSION_LIMIT): the whole-text parse says where.
        return None
    document: dict[str, Any] = {}
    for name, raw in members.items():
        if raw is msgspec.UNSET:
            continue
        if name in _RECORD_LISTS and isinstance(raw, msgspec.Raw):
            try:
                raw = msgspec.json.decode(raw, type=list[msgspec.Raw])
            except (msgspec.DecodeError, msgspec.ValidationError):  # not an array: the checks below say so
                pass
        if isinstance(raw, list):
            document[name] = raw  # its records are parsed one by one
            continue
        try:
            document[name] = parse_json(memoryview(raw))
        except JsonSyntaxError as exc:
            _record_error(session, text, raw, f"/{name}", exc, "this part")
            session._broken_parts.add(name)
    return document


def _add_entry(session: Session, entry: Entry | None, text: Any = None) -> None:
    """Measure a checked entry while its input is parsed, then keep only `text` if there is one."""
    if entry is None:
        return
    measure(entry)
    if text is not None:
        entry.hold_as_text(text)
    session.timeline.append(entry)


def _load_json_lines(session: Session, text: bytes) -> None:
    checker = RecordChecker(session.problems)
    header_seen = False
    for number, line, open_end in iter_lines(text):
        where = Place.record_line(number)
        try:
            record = parse_json(line)
        except JsonSyntaxError as exc:
            if open_end:
                session.problems.append(Problem(
                    "warning", where,
                    "the last line is incomplete (the file may still be being written); everything before it loaded",
                ))
            else:
                session.problems.append(Problem("error", Place.spot(number, exc.column), str(exc)))
            continue
        if not isinstance(record, dict):
            session.problems.append(Problem("error", where, "each line must be a JSON object"))
            continue
        if not header_seen:
            header_seen = True
            if "kind" in record:
                session.problems.append(Problem(
                    "error", where, "line 1 must be the header (format, session, …), not a record"))
            else:
                _read_header(session, record, where)
                session.extra = {k: v for k, v in record.items() if k not in HEADER_PARTS}
                continue
        kind = record.get("kind")
        if kind == "entry":
            _add_entry(session, checker.entry(record, where, skip="kind"), line)
            continue
        if kind == "body":
            item: TimelineItem | None = checker.body(record, where, skip="kind")
        elif kind == "kept":
            kept = record.get("kept")
            if isinstance(kept, dict):
                item = KeptSnapshot(kept, where)
            else:
                session.problems.append(Problem("error", where.field("kept"), "kept must be an object of named values"))
                item = None
        else:
            session.problems.append(Problem(
                "error", where.field("kind"), f"kind {kind!r} is not entry, body or kept"))
            item = None
        if item is not None:
            session.timeline.append(item)
    if not header_seen:
        session.problems.append(Problem("error", Place.record_line(1), "empty file: not a session"))


def _read_header(session: Session, document: dict[str, Any], where: Place) -> None:
    """Read format, session, caps, scene and modules, each part on its own so one bad part costs only itself."""
    at = where.field

    fmt = document.get("format")
    if fmt is None and "format" in session._broken_parts:
        pass
    elif fmt is None:
        session.problems.append(Problem("error", at("format"), f'missing: not a session (a session starts with "format": "{FORMAT}")'))
    elif fmt != FORMAT:
        newer = isinstance(fmt, str) and fmt.startswith("worker-session/")
        hint = "written by a newer editor; update the inspector" if newer else f'expected "{FORMAT}"'
        session.problems.append(Problem("error", at("format"), f"format {fmt!r} is not {FORMAT}: {hint}"))
    else:
        session.format = fmt

    info = _model(session, SessionInfo, document.get("session"), at, "session", required="session" not in session._broken_parts)
    if info is not None:
        session.info = document["session"]
    caps = _model(session, Caps, document.get("caps"), at, "caps")
    if caps is not None:
        session.caps = caps
    modules = document.get("modules")
    if isinstance(modules, dict):
        for name, raw in modules.items():
            if not MODULE.match(name):
                session.problems.append(Problem("warning", at("modules", name), "a module name is group.module, two identifiers; ignored"))
            elif _model(session, ModuleInfo, raw, at, "modules", name) is not None:
                session.modules[name] = raw
    elif modules is not None:
        session.problems.append(Problem("error", at("modules"), "modules must be an object keyed by group.module"))
    _read_scene(session, document.get("scene"), at)


def _read_scene(session: Session, scene: Any, at: Any) -> None:
    if scene is None:
        return
    if not isinstance(scene, dict):
        session.problems.append(Problem("error", at("scene"), "scene must be an object with entities"))
        return
    unit = scene.get("unit")
    if unit is not None and unit not in ("mm", "cm", "m", "ft", "in"):
        session.problems.append(Problem("error", at("scene", "unit"), f"unit {unit!r} is not one of mm, cm, m, ft, in"))
    entities = scene.get("entities", [])
    if not isinstance(entities, list):
        session.problems.append(Problem("error", at("scene", "entities"), "entities must be an array"))
        entities = []
    good = [raw for i, raw in enumerate(entities) if _model(session, Entity, raw, at, "scene", "entities", i) is not None]
    mocks = scene.get("mocks", {})
    if not isinstance(mocks, dict):
        session.problems.append(Problem("error", at("scene", "mocks"), "mocks must be an object keyed by call"))
        mocks = {}
    good_mocks = {c: m for c, m in mocks.items() if _model(session, Mock, m, at, "scene", "mocks", c) is not None}
    session.scene = {**scene, "entities": good, "mocks": good_mocks}


def _model(session: Session, model: type[BaseModel], raw: Any, at: Any, *parts: Any, required: bool = False) -> Any:
    if raw is None:
        if required:
            session.problems.append(Problem("error", at(*parts), "missing; this field is required"))
        return None
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        for error in exc.errors():
            session.problems.append(Problem("error", at(*parts, *error["loc"]), describe_error(error)))
        return None
