"""worker-session/1's JSON form (SPEC 2): one document, its store cut into records that load one by one.

A record that cannot be parsed on its own (a byte that is not UTF-8, nesting deeper than
`MAX_DEPTH`) is an error at the `line:column` of the bad spot, naming the record's pointer; the
other records load. When nothing of the file can be read as JSON (damaged gzip, a syntax error in
the document), `session.unreadable` is that one error.
"""
from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, NamedTuple

import msgspec
import orjson

from wsi_inspector.core.session.formats.worker_session_1.header import HEADER_PARTS, read_header
from wsi_inspector.core.session.model import Entry, Problem
from wsi_inspector.core.session.place import NOWHERE, Place
from wsi_inspector.core.session.reading import JsonSyntaxError, locate_failure, parse_json, position_of, starts_with
from wsi_inspector.core.session.records import RecordChecker
from wsi_inspector.core.jsrules.jsonsize import js_keys
from wsi_inspector.core.jsrules.run_inputs import measure
from wsi_inspector.core.session.store_scan import scan

if TYPE_CHECKING:
    from typing_extensions import Buffer

    from wsi_inspector.core.session.load import Session

# A broken JSON-form file bigger than this is placed by msgspec, which only checks, instead of the
# full parsers, which build everything before the bad spot (ten times the text for float-heavy data).
WHOLE_PARSE_LIMIT = 16 * 1024 * 1024
NOT_AN_OBJECT = "not a session: the file is JSON but not an object"


def unreadable(session: Session, problem: Problem) -> None:
    session.problems.append(problem)
    session.unreadable = problem


_UNREADABLE = object()  # a record that does not parse on its own (its problem is listed)


def _record(session: Session, text: Any, raw: Any, pointer: str, what: str, parse: bool = False) -> Any:
    """A store or bodies record: parsed when msgspec left it as its text (or `parse`); _UNREADABLE when that does not parse."""
    if not parse and not isinstance(raw, msgspec.Raw):
        return raw
    try:
        return parse_json(memoryview(raw))
    except JsonSyntaxError as exc:
        _record_error(session, text, raw, pointer, exc, what)
        return _UNREADABLE


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


def read_json(session: Session, text: bytes | bytearray | memoryview) -> None:
    """Read the JSON form in `text`, the file's bytes in memory (files are never mapped: wsi_inspector.core.files.input_file)."""
    document = _scanned_json(session, text)
    if document is None:
        text = bytes(text) if isinstance(text, memoryview) else text  # a file mapping: the full readers take bytes
        document = _parsed_json(session, text)
    if document is not None:
        _read_document(session, text, document)


def _parsed_json(session: Session, text: bytes | bytearray) -> dict[str, Any] | None:
    """The document as msgspec splits it, else as the full parsers read it; None when unreadable (said)."""
    document = _split_json(session, text)
    if document is None and len(text) > WHOLE_PARSE_LIMIT:
        failure = locate_failure(text)
        if failure is not None:
            unreadable(session, Problem("error", failure.where, str(failure)))
            return None
        if not starts_with(text, b"{"):  # JSON, but not an object: said without building it
            unreadable(session, Problem("error", "", NOT_AN_OBJECT))
            return None
    if document is None:
        try:
            document = parse_json(text)
        except JsonSyntaxError as exc:
            unreadable(session, Problem("error", exc.where, str(exc)))
            return None
    if not isinstance(document, dict):
        unreadable(session, Problem("error", "", NOT_AN_OBJECT))
        return None
    return document


def _read_document(session: Session, text: bytes | bytearray | memoryview, document: dict[str, Any]) -> None:
    """The header, store, bodies and kept of a document whose records are still texts."""
    read_header(session, document, NOWHERE)
    checker = RecordChecker(session.problems)
    store = document.get("store")
    if store is None:
        session.problems.append(Problem("error", "/store", "missing: a session needs store, an array of entries, oldest first"))
    elif isinstance(store, _ScannedStore):
        _add_scanned(session, checker, text, store.records)
    elif not isinstance(store, list):
        session.problems.append(Problem("error", "/store", "store must be an array of entries, oldest first"))
    else:
        for index, raw in enumerate(store):
            record = _record(session, text, raw, f"/store/{index}", "this entry")
            if record is not _UNREADABLE:
                add_entry(session, checker.entry(record, f"/store/{index}"), raw if isinstance(raw, msgspec.Raw) else None)
    bodies = document.get("bodies", [])
    if not isinstance(bodies, list):
        session.problems.append(Problem("error", "/bodies", "bodies must be an array"))
        bodies = []
    for index, raw in enumerate(bodies):
        record = _record(session, text, raw, f"/bodies/{index}", "this body")
        body = checker.body(record, f"/bodies/{index}") if record is not _UNREADABLE else None
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

    format: msgspec.Raw | msgspec.UnsetType = msgspec.UNSET
    session: msgspec.Raw | msgspec.UnsetType = msgspec.UNSET
    caps: msgspec.Raw | msgspec.UnsetType = msgspec.UNSET
    scene: msgspec.Raw | msgspec.UnsetType = msgspec.UNSET
    modules: msgspec.Raw | msgspec.UnsetType = msgspec.UNSET
    store: list[msgspec.Raw] | msgspec.UnsetType = msgspec.UNSET
    bodies: list[msgspec.Raw] | msgspec.UnsetType = msgspec.UNSET
    kept: msgspec.Raw | msgspec.UnsetType = msgspec.UNSET


_RECORD_LISTS = ("store", "bodies")  # parts whose elements are records, parsed (and refused) one by one


def _split_json(session: Session, text: bytes | bytearray) -> dict[str, Any] | None:
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
        if raw is not msgspec.UNSET:
            _add_part(session, text, document, name, raw)
    return document


def _add_part(session: Session, text: Any, document: dict[str, Any], name: str, raw: Any) -> None:
    """Put the document's member `name` into `document`: parsed, or a list of its records' texts."""
    if name in _RECORD_LISTS and not isinstance(raw, list):
        try:
            raw = msgspec.json.decode(raw, type=list[msgspec.Raw])
        except (msgspec.DecodeError, msgspec.ValidationError):  # not an array: the checks below say so
            pass
    if isinstance(raw, list):
        document[name] = raw  # its records are parsed one by one
        return
    try:
        document[name] = parse_json(memoryview(raw))
    except JsonSyntaxError as exc:
        _record_error(session, text, raw, f"/{name}", exc, "this part")
        session._broken_parts.add(name)


class _ScannedStore(NamedTuple):
    records: Iterator[Any]  # wsi_inspector.core.session.store_scan's records, made one by one


def _scanned_json(session: Session, text: Any) -> dict[str, Any] | None:
    """The document read with wsi_inspector.core.session.store_scan: its store left as the scanned records; None where that cannot."""
    scanned = scan(text)
    if scanned is None:
        return None
    view = memoryview(text)
    document: dict[str, Any] = {}
    for name, start, end in scanned.parts:
        if name == "store" and view[start] == ord("["):
            document[name] = _ScannedStore(scanned.records)
        else:
            _add_part(session, text, document, name, view[start:end])
    return document


def _add_scanned(session: Session, checker: RecordChecker, text: Any, records: Iterator[Any]) -> None:
    """Add the scanned store's entries: measured in C, each record's other members checked as usual.

    A record that measured_entry leaves to the Python reader is read as it reads every record.
    """
    view = memoryview(text)
    append = session.timeline.append
    for index, record in enumerate(records):
        entry = measured_entry(checker, record, view, -index)  # `/store/{index}`, made when asked (Place.of_record)
        if isinstance(entry, Unmeasured):
            pointer = f"/store/{index}"
            raw = record[-1]
            parsed = _record(session, text, raw, pointer, "this entry", parse=True)
            if parsed is not _UNREADABLE:
                add_entry(session, checker.entry(parsed, pointer), raw)
        elif entry is not None:
            append(entry)


class Unmeasured:
    """measured_entry's answer for a record the Python reader must read."""


UNMEASURED = Unmeasured()


def measured_entry(checker: RecordChecker, record: tuple, view: memoryview, where: str | Place | int,
                   kind: str | None = None) -> Entry | None | Unmeasured:
    """The Entry of a record wsi_inspector.core.session.store_scan read (`view`: the scanned text), its input measured there.

    None when the record has an error (listed by `checker`); UNMEASURED when the scan could not prove the
    input's size, or the members around the input do not parse with orjson, or (`kind`, a JSON
    Lines record) the record's `kind` is not `kind`: the caller then reads it as every record was read.
    """
    start, end, input_start, input_end, size, shape, fields, verbatim, raw = record
    if size < 0:
        return UNMEASURED
    if fields is None:
        try:  # the members around the input: a few dozen bytes
            fields = orjson.loads(b"".join((view[start:input_start], b"null", view[input_end:end])))
        except orjson.JSONDecodeError:
            return UNMEASURED
    if kind is not None and fields.get("kind") != kind:
        return UNMEASURED
    entry = checker.entry(fields, where, "kind" if kind is not None else "")
    if entry is not None:
        entry.input_bytes = size
        entry.input_shape = _scanned_shape(shape)  # shared already
        _intern_names(entry)
        entry.hold_text(raw, input_start - start, end - input_end, verbatim)
    return entry


def _scanned_shape(shape: tuple[str, ...] | int | str) -> dict[str, Any]:
    """The manifest shape of wsi_inspector.core.session.store_scan's `shape`: keys in JavaScript's order, shared when met before."""
    if type(shape) is tuple:
        return _shared_shape(shape)
    if type(shape) is int:
        return {"array": shape}
    return {"type": shape}


def add_entry(session: Session, entry: Entry | None, text: bytes | memoryview | msgspec.Raw | None = None) -> None:
    """Measure a checked entry while its input is parsed, keep only `text` if there is one, and add it."""
    if entry is not None:
        session.timeline.append(held_entry(entry, text))


def held_entry(entry: Entry, text: Buffer | msgspec.Raw | None = None) -> Entry:
    """The entry measured while its input is parsed, then holding only `text` (its record) if there is one."""
    input_json = measure(entry)
    _share(entry)
    if text is not None:
        entry.hold_as_text(text, input_json)
    return entry


def _intern_names(entry: Entry) -> None:
    """Keep each call and unit once: a session repeats a few of them 100,000 times."""
    entry.call = sys.intern(entry.call)
    if entry.unit is not None:
        entry.unit = sys.intern(entry.unit)


def _share(entry: Entry) -> None:
    """Keep each call, unit and input key set once: the shape, `{"keys": [...]}`, is then shared by
    the entries that have it, and is read-only."""
    _intern_names(entry)
    shape = entry.input_shape
    if shape is not None and "keys" in shape:
        entry.input_shape = _shared_shape(tuple(shape["keys"]))


def _shared_shape(keys: tuple[str, ...]) -> dict[str, Any]:
    """`{"keys": [...]}` in JavaScript's order, one dict for each key set met. The keys come in the text's
    order (the C scan) or JavaScript's (a parsed value): either way js_keys of them is the shape."""
    shared = _SHAPES.get(keys)
    if shared is None:
        shared = {"keys": js_keys(keys)}
        if len(_SHAPES) < _SHAPES_KEPT:
            _SHAPES[keys] = shared
    return shared


_SHAPES: dict[tuple[str, ...], dict[str, Any]] = {}  # input shapes met, so equal ones are kept once
_SHAPES_KEPT = 4096  # key sets remembered at most (a cache, not a record of every session)


