"""Turn raw entry and body records into `Entry` and `Body`, listing what is wrong with each.

A record with an error is not loaded (SPEC 2.4); a field with the wrong type that the record can
do without is dropped with a warning, so one odd `seq` does not cost the whole entry.
"""
from __future__ import annotations

import re
from typing import Any

from wsi_inspector.core.session.model import NO_OUTPUT, Body, Entry, Problem
from wsi_inspector.core.session.place import Place
from wsi_inspector.core.edits.units import UNITS

IDENT = r"[A-Za-z_$][A-Za-z0-9_$]*"
CALL = re.compile(rf"^{IDENT}\.{IDENT}\.{IDENT}$")
MODULE = re.compile(rf"^{IDENT}\.{IDENT}$")

ENTRY_FIELDS = frozenset({"id", "call", "input", "unit", "applied", "editOf", "body", "output", "seq", "at"})
BODY_FIELDS = {"id", "code", "lang", "seq", "at", "result", "keep"}


def _is_id(value: Any) -> bool:
    return isinstance(value, (str, int)) and not isinstance(value, bool)


def _place(where: Place | str | int) -> Place:
    # The loaders hand a record's place as a pointer's text or a number (Place.of_record): read into a Place
    # only for a problem or a body, not for each of 100,000 good entries (an Entry reads it when asked).
    return Place.of_record(where)


class KnownIds:
    """The entry ids a checker has seen, once a load is done: the session's own index of its entries, and the
    ids checked since (lines appended later, before they join the index). A JSON Lines session keeps its
    checker to read lines appended later, and a second set of every id was some 70 bytes an entry."""

    __slots__ = ("_index", "_since")

    def __init__(self, index: dict[str, Entry]):
        self._index = index
        self._since: set[str] = set()

    def __contains__(self, key: object) -> bool:
        return key in self._index or key in self._since

    def add(self, key: str) -> None:
        self._since.add(key)


class RecordChecker:
    """Checks records one by one, collecting problems; remembers ids to refuse duplicates."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        self.entry_ids: set[str] | KnownIds = set()  # a KnownIds once the load is done (Session.finish)
        self.body_ids: set[str] = set()
        self._names: dict[Any, Any] = {}  # each body id the entries name, kept once (a body makes dozens of calls)

    def _error(self, where: Place | str | int, message: str) -> None:
        self.problems.append(Problem("error", _place(where) if type(where) is int else where, message))  # type: ignore[arg-type]

    def _warn(self, where: Place | str | int, message: str) -> None:
        self.problems.append(Problem("warning", _place(where) if type(where) is int else where, message))  # type: ignore[arg-type]

    def entry(self, raw: Any, where: Place | str | int, skip: str = "") -> Entry | None:
        """An Entry, or None when the record has an error (listed); a str `where` is a JSON Pointer's text, an int a JSON Lines line's number."""
        # The common case, a well-formed entry, is checked with as few calls as possible: a
        # session can hold 100,000 of them.
        try:
            entry_id, call, value = raw["id"], raw["call"], raw["input"]
        except (KeyError, TypeError):
            self._entry_missing(raw, where)
            return None
        if (type(entry_id) is not str and type(entry_id) is not int) or not isinstance(call, str) or not CALL.match(call):
            self._entry_bad_id_or_call(entry_id, call, where)
            return None
        get = raw.get
        unit = get("unit")
        if unit is not None and unit not in UNITS:
            self._error(_place(where).field("unit"), f"unit {unit!r} is not one of {', '.join(UNITS)}")
            return None
        key = entry_id if type(entry_id) is str else str(entry_id)
        if key in self.entry_ids:
            self._error(_place(where).field("id"), f"duplicate entry id {entry_id!r}: an earlier entry has it; this one is not loaded")
            return None
        self.entry_ids.add(key)
        applied = get("applied", False)
        if applied is not False and applied is not True:
            self._warn(_place(where).field("applied"), f"applied must be true or false, not {applied!r}; read as false")
            applied = False
        edit_of, body, seq, at = get("editOf"), get("body"), get("seq"), get("at")
        if edit_of is not None:
            edit_of = self._optional_id(raw, "editOf", where)
        if body is not None:
            body = self._optional_id(raw, "body", where)
            body = self._names.setdefault(body, body)
        if seq is not None:
            seq = self._seq(raw, where)
        if at is not None:
            at = self._text(raw, "at", where)
        known = ENTRY_FIELDS | {skip} if skip else ENTRY_FIELDS
        extra = None if known.issuperset(raw) else {k: v for k, v in raw.items() if k not in known}
        return Entry(entry_id, call, value, unit, applied, edit_of, body, get("output", NO_OUTPUT), seq, at, extra, where)

    def _entry_missing(self, raw: Any, where: Place | str | int) -> None:
        if not isinstance(raw, dict):
            self._error(where, "an entry must be an object with id, call and input")
        else:
            missing = [f for f in ("id", "call", "input") if f not in raw]
            self._error(where, f"entry without {', '.join(missing)}: every entry needs id, call and input")
        return None

    def _entry_bad_id_or_call(self, entry_id: Any, call: Any, where: Place | str | int) -> None:
        if not _is_id(entry_id):
            self._error(_place(where).field("id"), f"id must be a string or an integer, not {entry_id!r}")
        else:
            self._error(
                _place(where).field("call"),
                f"call {call!r} is not three identifiers joined by dots, like pack.corridorRuns.corridorRuns",
            )
        return None

    def body(self, raw: Any, where: Place | str | int, skip: str = "") -> Body | None:
        """A Body, or None when the record has an error (listed); a str `where` is a JSON Pointer's text."""
        if not isinstance(raw, dict):
            self._error(where, "a body must be an object with id and code")
            return None
        missing = [field for field in ("id", "code") if field not in raw]
        if missing:
            self._error(where, f"body without {' or '.join(missing)}: every body needs both id and code")
            return None
        body_id, code = raw["id"], raw["code"]
        if not _is_id(body_id):
            self._error(_place(where).field("id"), f"id must be a string or an integer, not {body_id!r}")
            return None
        if not isinstance(code, str):
            self._error(_place(where).field("code"), "code must be a string of JavaScript or TypeScript")
            return None
        key = str(body_id)
        if key in self.body_ids:
            self._error(_place(where).field("id"), f"duplicate body id {body_id!r}: an earlier body has it; this one is not loaded")
            return None
        self.body_ids.add(key)
        lang = raw.get("lang", "js")
        if lang not in ("js", "ts"):
            self._warn(_place(where).field("lang"), f"lang {lang!r} is not js or ts; read as js")
            lang = "js"
        result = raw.get("result")
        if result is not None and not (isinstance(result, dict) and isinstance(result.get("ok"), bool)):
            self._warn(_place(where).field("result"), "result must be an object with ok: true or false; ignored")
            result = None
        if result is not None and "error" in result and not isinstance(result["error"], str):
            self._warn(_place(where).field("result", "error"),
                       f"result.error must be a string (\"Name: message\"), not {type(result['error']).__name__}; ignored")
            result = {k: v for k, v in result.items() if k != "error"}
        return Body(
            id=body_id,
            code=code,
            lang=lang,
            seq=self._seq(raw, where),
            at=self._text(raw, "at", where),
            result=result,
            keep=raw.get("keep"),
            extra={k: v for k, v in raw.items() if k not in BODY_FIELDS and k != skip},
            where=_place(where),
        )

    def _optional_id(self, raw: dict, field: str, where: Place | str | int) -> Any:
        value = raw.get(field)
        if value is not None and not _is_id(value):
            self._warn(_place(where).field(field), f"{field} must be an id (string or integer), not {value!r}; ignored")
            return None
        return value

    def _seq(self, raw: dict, where: Place | str | int) -> int | None:
        seq = raw.get("seq")
        if seq is not None and (not isinstance(seq, int) or isinstance(seq, bool)):
            self._warn(_place(where).field("seq"), f"seq must be an integer, not {seq!r}; ignored")
            return None
        return seq

    def _text(self, raw: dict, field: str, where: Place | str | int) -> str | None:
        value = raw.get(field)
        if value is not None and not isinstance(value, str):
            self._warn(_place(where).field(field), f"{field} must be an ISO-8601 string, not {value!r}; ignored")
            return None
        return value
