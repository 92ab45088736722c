"""The session's records as plain objects: entries, bodies, problems, and the state at a point.

Entries are slotted classes rather than pydantic models: a session holds 100,000 of them and
their inputs are large, so they are checked by hand in `wsi_inspector.core.session.records` (the boundary).
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence, Sized
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, Literal, NotRequired, TypedDict, overload

from wsi_inspector.core.jsrules.json_values import canonical
from wsi_inspector.core.session.place import NOWHERE, Place
from wsi_inspector.core.session.reading import parse_json
from wsi_inspector.core.session.store_scan import digest

Id = str | int


class _NoOutput:
    """The marker for an entry with no recorded `output` (a recorded `null` is a real output)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "NO_OUTPUT"

    def __bool__(self) -> bool:
        return False


NO_OUTPUT: Any = _NoOutput()


def id_key(value: Id | None) -> str | None:
    """Ids are compared as strings (SPEC 2.3): `5` and `"5"` name the same record."""
    return None if value is None else str(value)


_INPUT_KEY = b'"input":'


class Entry:
    """One store entry: a module call a body made, or a person's canvas edit (`applied`).

    An entry loaded from a file holds its record's JSON text, not the parsed input and output: as
    Python objects a float-heavy input takes about six times its text (a point `[x, y]` is 120 bytes
    for some 20 of text), so a 130 MB session would need 900 MB. The loader measures each input while
    it has it parsed (`input_bytes`, `input_shape`); reading `input` or `output` parses the text again,
    so read it once per use. An entry made in memory (tests, the runner) simply holds its values.
    """

    __slots__ = ("id", "call", "unit", "applied", "edit_of", "body", "seq", "at", "_extra", "_where",
                 "input_bytes", "input_shape", "_size_beyond", "_input", "_output", "_text", "_input_at", "_input_beyond")

    def __init__(self, id: Id, call: str, input: Any = None, unit: str | None = None, applied: bool = False,
                 edit_of: Id | None = None, body: Id | None = None, output: Any = NO_OUTPUT,
                 seq: int | None = None, at: str | None = None, extra: dict[str, Any] | None = None,
                 where: Place | str | int = NOWHERE):
        self.id = id
        self.call = call
        self.unit = unit
        self.applied = applied
        self.edit_of = edit_of
        self.body = body
        self.seq = seq
        self.at = at
        self._extra = extra or None  # None when empty: an empty dict for each of a million entries is 64 MB
        # A JSON Pointer's text or a number (see Place.of_record): made a Place when asked (see `where`).
        self._where = where
        self.input_bytes: int | None = None  # json_bytes(input), once computed (wsi_inspector.core.jsrules.run_inputs)
        self.input_shape: dict[str, Any] | None = None  # keys, array length or kind, once computed
        self._size_beyond: int | None = None  # see `size`
        self._input = input
        self._output = output
        self._text: Any = None  # the record's JSON text (bytes or a buffer) once the values are let go
        # Where in that text the input is (see `input_text_span`; negative when not spelled exactly as orjson
        # writes it, see `hold_text`): its start, and how much longer that spelling is than input_bytes
        # (JavaScript's): both small, so Python's shared ints, where the span's end would be an int object
        # of its own for each entry (32 bytes).
        self._input_at: int | None = None
        self._input_beyond = 0

    def __repr__(self) -> str:
        return f"Entry(id={self.id!r}, call={self.call!r}{', applied' if self.applied else ''}, where={str(self.where)!r})"

    @property
    def size(self) -> int | None:
        """entry_bytes, once computed (wsi_inspector.core.jsrules.run_inputs sets it, after input_bytes).

        Kept as what it adds to input_bytes (the id, call and unit: a few dozen bytes, one of Python's
        shared small ints) rather than as an int of its own for each entry (32 bytes: 32 MB a million).
        A size set with no input_bytes known, or below it, is kept whole, as -1 - size (sizes are >= 0).
        """
        beyond = self._size_beyond
        if beyond is None:
            return None
        return beyond + self.input_bytes if beyond >= 0 else -1 - beyond  # type: ignore[operator]  # set with it

    @size.setter
    def size(self, value: int | None) -> None:
        known = self.input_bytes
        self._size_beyond = (None if value is None else value - known if known is not None and value >= known
                             else -1 - value)

    @property
    def extra(self) -> dict[str, object]:
        """The record's members the format does not name, kept as they were (a new empty dict when none)."""
        return {} if self._extra is None else self._extra

    @property
    def where(self) -> Place:
        """The record's place: a JSON Pointer (`/store/3`) or a JSON Lines line (`line 4`).

        The loaders hand the pointer's text or the line's number: a Place is made on first use, since few
        of 100,000 entries are ever asked, and making each one up front is a few percent of the load
        and some 80 bytes an entry.
        """
        where = self._where
        if type(where) is not Place:
            where = self._where = Place.of_record(where)
        return where

    @property
    def where_text(self) -> str:
        """The place as printed, without making a Place (an index of 100,000 entries by place)."""
        where = self._where
        return where if type(where) is str else str(Place.of_record(where))

    @property
    def input(self) -> Any:
        return self._input if self._text is None else self._record()["input"]

    @property
    def output(self) -> Any:
        if self._text is None or self._output is NO_OUTPUT:
            return self._output
        return self._record()["output"]

    @property
    def text(self) -> Any:
        """The JSON text of the record the entry was read from (bytes or a buffer); None if made in memory."""
        return self._text

    @property
    def input_span(self) -> tuple[int, int] | None:
        """Where the record's text spells the input exactly as `orjson.dumps(input)` does, byte for byte; else None.

        Searching that span of the text is then searching the input's compact JSON, without parsing it.
        """
        at = self._input_at
        return None if at is None or at < 0 else (at, at + self.input_bytes + self._input_beyond)  # type: ignore[operator]  # set with it

    @property
    def input_text_span(self) -> tuple[int, int] | None:
        """Where the record's text holds the input's value, however it is spelled (indented, `1e+21`); else None."""
        at = self._input_at
        if at is None:
            return None
        at = at if at >= 0 else -1 - at
        return at, at + self.input_bytes + self._input_beyond  # type: ignore[operator]  # set with it

    def input_digest(self) -> int:
        """A 64-bit digest of the input's JSON text (`store_scan.digest`: whitespace between tokens aside).

        Read where the input lies in the record's text, not copied out: what tells a session's inputs apart
        (the compare's keys), once for each of its entries; the same input written compact and indented has
        one digest. An input without a text span: the digest of its sorted-keys JSON.
        """
        span = self.input_text_span
        return digest(canonical(self.input)) if span is None else digest(self._text, *span)

    def hold_as_text(self, text: Any, input_json: bytes | None = None) -> None:
        """Let go of the parsed input and output and keep `text`, the record they were read from.

        `input_json` is the input's orjson text, when the loader has it: where the record's `"input":`
        is followed by exactly those bytes is kept as `input_span` (a bytes comparison, while loading).
        """
        at, tail = None, 0
        if input_json is not None:
            record = bytes(text)
            start = record.find(_INPUT_KEY) + len(_INPUT_KEY)
            if start >= len(_INPUT_KEY) and record.startswith(input_json, start):
                at, tail = start, len(record) - start - len(input_json)
        self.hold_text(text, at, tail)

    def hold_text(self, text: Sized, input_at: int | None = None, input_tail: int = 0, verbatim: bool = True) -> None:
        """Let go of the parsed input and output and keep `text`; `input_at`, `input_tail` (the bytes after the
        input to the record's end) give `input_text_span`, and `input_span` when the input is spelled as orjson
        writes it (`verbatim`); kept when input_bytes is known (the loaders measure first)."""
        self._text = text
        self._input = None
        if self._output is not NO_OUTPUT:
            self._output = None  # a marker that the record has one; the value comes from the text
        if input_at is None or self.input_bytes is None:
            self._input_at, self._input_beyond = None, 0
        else:  # a span not spelled as orjson writes it starts at -1 - _input_at (one slot, a shared small int)
            self._input_at = input_at if verbatim else -1 - input_at
            self._input_beyond = len(text) - input_tail - input_at - self.input_bytes

    def _record(self) -> dict[str, Any]:
        return parse_json(memoryview(self._text))

    @property
    def key(self) -> str:
        return str(self.id)

    @property
    def module(self) -> str:
        return self.call.rsplit(".", 1)[0]

    @property
    def has_output(self) -> bool:
        return self._output is not NO_OUTPUT

    def editor_shape(self) -> dict[str, Any]:
        """The entry exactly as the editor injects it: id, call, input, unit?, applied? (SPEC 3)."""
        shaped: dict[str, Any] = {"id": self.id, "call": self.call, "input": self.input}
        if self.unit is not None:
            shaped["unit"] = self.unit
        if self.applied:
            shaped["applied"] = True
        return shaped


@dataclass(slots=True, eq=False)
class Body:
    """One recorded run_worker body, with what it returned and asked to keep."""

    id: Id
    code: str
    lang: Literal["js", "ts"] = "js"
    seq: int | None = None
    at: str | None = None
    result: dict[str, Any] | None = None
    keep: dict[str, Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    where: Place = NOWHERE

    @property
    def key(self) -> str:
        return str(self.id)

    @property
    def failed(self) -> bool:
        return self.result is not None and self.result.get("ok") is False


@dataclass(slots=True, eq=False)
class KeptSnapshot:
    """A JSON Lines `{"kind": "kept"}` record: the kept set as it stood there; it replaces the set."""

    kept: dict[str, Any]
    where: Place = NOWHERE


TimelineItem = Entry | Body | KeptSnapshot


class ProblemLine(TypedDict):
    """A problem in `wsi validate --json`'s `errors` and `warnings`; `--show` adds its place's parts and what it points at."""

    where: str
    message: str
    place: NotRequired[dict[str, int | str]]
    shown: NotRequired[dict[str, object]]


@dataclass(slots=True, frozen=True, init=False)
class Problem:
    """One thing wrong with the file, and where: `place` is the data, `where` its printed text."""

    severity: Literal["error", "warning"]
    place: Place
    message: str

    def __init__(self, severity: Literal["error", "warning"], where: Place | str, message: str):
        # A str is a JSON Pointer into the document (`"/store"`, `""` the whole file): the JSON form's
        # literal places read as they are written; every other kind is made with Place's constructors.
        object.__setattr__(self, "severity", severity)
        object.__setattr__(self, "place", where if isinstance(where, Place) else Place.from_pointer(where))
        object.__setattr__(self, "message", message)

    @property
    def where(self) -> str:
        """The place as it is printed: `5:36`, `/store/3/call`, `line 4 /call`."""
        return str(self.place)

    def as_json(self) -> ProblemLine:
        return {"where": self.where, "message": self.message}


@dataclass(slots=True, frozen=True)
class KeepRefusal:
    """A body's `keep` that validateKeep refused, with the InvalidKeepError message."""

    body: Id
    message: str


@dataclass(slots=True)
class State:
    """What a body was handed at one point of the timeline: the store (oldest first) and the kept set.

    `kept_by` names the body whose keep set each name (absent for names from a snapshot or the
    file's final `kept`); `refused` lists the refused keeps seen before this point.
    """

    store: Sequence[Entry]  # a list, or a StorePrefix of the session's entries
    kept: dict[str, Any]
    kept_by: dict[str, Id] = field(default_factory=dict)
    refused: list[KeepRefusal] = field(default_factory=list)
    at_body: Id | None = None  # None: the end of the session


class StorePrefix(Sequence[Entry]):
    """The first `count` of a session's entries, read in place: a state's store without copying it.

    A cursor move on a million-entry session would otherwise copy a million pointers into a new list
    (and free the last one's): tens of milliseconds on the GUI thread for a store nobody walks whole.
    """

    __slots__ = ("_entries", "_count")

    def __init__(self, entries: list[Entry], count: int):
        self._entries, self._count = entries, count

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> Entry: ...

    @overload
    def __getitem__(self, index: slice) -> list[Entry]: ...

    def __getitem__(self, index: int | slice) -> Entry | list[Entry]:
        if isinstance(index, slice):
            start, stop, step = index.indices(self._count)
            if step == 1:
                return self._entries[start:max(start, stop)]
            return [self._entries[n] for n in range(start, stop, step)]
        position = index + self._count if index < 0 else index
        if not 0 <= position < self._count:
            raise IndexError("store index out of range")
        return self._entries[position]

    def __iter__(self) -> Iterator[Entry]:
        return islice(self._entries, self._count)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and len(other) == self._count and all(a is b or a == b for a, b in zip(self, other))

    __hash__ = None  # type: ignore[assignment]  # like a list

    def __repr__(self) -> str:
        return f"StorePrefix({self._count} of {len(self._entries)} entries)"

