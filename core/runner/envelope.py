"""The run envelope: a body, its language, the state it is handed and the run's options, checked before it ships.

`build_envelope(session, code, …)` takes the state at a point of the timeline (SPEC 2.3), trims the
store to `caps.storeBytes` when the session sets one (the editor does), marks TypeScript to be
erased by the runner on its own thread (`Envelope.prepare`), and
encodes what the guest needs as three JSON texts (the store, the scene, and the rest; the guest's
realm parses the first two only when the body reads them). Determinism is on by default: `Math.random` is
seeded and `Date` is fixed to the body's recorded `at`, else the `at` of the body at that point,
else the last entry's, else the session's `createdAt`, else the moment of the run.
"""
from __future__ import annotations

import codecs
import functools
import itertools
import json
import re
import struct
import time
import weakref
import zlib
from dataclasses import dataclass, field
from datetime import datetime, timezone
from collections.abc import Sequence
from typing import Any, Literal

import msgspec
import orjson
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from wsi_inspector.core.session.model import Entry, Id
from wsi_inspector.core.jsrules.jsonsize import js_number
from wsi_inspector.core.jsrules.run_inputs import manifest_entry, trim_store
from wsi_inspector.core.runner.mock_modules import MockModules
from wsi_inspector.core.runner.scene import scene_payload
from wsi_inspector.core.runner.typescript import TypeScriptError, erase_types

try:
    from wsi_inspector.core.session._store_scan import ascii_compact as _c_ascii_compact
except ImportError:  # built without a C compiler
    _c_ascii_compact = None

DEFAULT_TIMEOUT_S = 10.0
DEFAULT_MEMORY_BYTES = 256 * 1024 * 1024
_mocks: weakref.WeakKeyDictionary[Any, MockModules] = weakref.WeakKeyDictionary()


class EnvelopeError(ValueError):
    """A run that cannot be shipped: the message says which part is wrong and what to give instead."""


class RunOptions(BaseModel):
    """How a body runs: its timeout, memory cap, and whether random and time are fixed."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    timeout_s: float = Field(DEFAULT_TIMEOUT_S, gt=0, le=3600)
    memory_bytes: int = Field(DEFAULT_MEMORY_BYTES, ge=16 * 1024 * 1024, le=8 * 1024**3)
    deterministic: bool = True
    seed: int = Field(1, ge=0, lt=2**32)
    now_ms: float | None = None  # overrides the fixed time


@dataclass(slots=True)
class Envelope:
    """Everything one run needs, validated: the guest gets `code`, the state texts (protocol.STATE_TEXTS) and the limits.

    The store (`texts`, shared by every envelope of that store) and the scene are texts of their own, which
    the guest's realm parses only when the body first reads them (see prelude.js); `env_json` holds the rest
    (kept, known, options). The texts stay UTF-8 from the file to V8 (bytes): as a str the store was decoded
    here, encoded for the pipe, decoded by the guest and encoded for V8 again (~20 ms a run for a 4 MB store).
    """

    code: str
    lang: Literal["js", "ts"]
    env_json: str
    texts: StoreTexts = field(repr=False)
    scene_json: bytes
    options: RunOptions
    mock: MockModules | None
    body_key: str | None = None
    max_keep_bytes: int = 65_536
    refusal: dict[str, Any] | None = None  # an error found before shipping (TypeScript that cannot be erased)
    types_pending: bool = False  # TypeScript whose types are erased by `prepare`, on the runner's thread

    def prepare(self) -> None:
        """Erase a TypeScript body's types, once, bounded by the run's timeout.

        The runner calls it on its own thread (a worker for `submit`): a large body's strip never
        runs on a GUI thread, and takes at most the time the run itself may.
        """
        if not self.types_pending:
            return
        self.types_pending = False
        try:
            self.code = erase_types(self.code, self.options.timeout_s)
        except TypeScriptError as exc:
            self.refusal = exc.as_error()

    @property
    def store_json(self) -> bytes:
        """The handed store as the editor injects it (`StoreTexts`)."""
        return self.texts.json

    def manifest_json(self) -> bytes:
        """The handed store's manifest (`StoreTexts.manifest`)."""
        return self.texts.manifest()

    def frame(self) -> dict[str, Any]:
        """The `run` frame for the guest: the state texts (protocol.STATE_TEXTS) as UTF-8 bytes, which go into V8 as they are."""
        return {
            "t": "run", "code": self.code, "env": self.env_json, "store": self.texts.json, "index": self.texts.lookup,
            "scene": self.scene_json, "manifest": self.manifest_json(), "timeout": self.options.timeout_s,
            "memory": self.options.memory_bytes,
        }


def dumps(value: Any) -> str:
    """JSON text; the standard library takes what orjson refuses (lone surrogates, huge integers)."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        return json.dumps(value, separators=(",", ":"))


class _InputText(msgspec.Struct):
    input: msgspec.Raw


class StoreTexts:
    """One store as runs hand it: its JSON and lookup (`store_texts`), and its manifest, made once for every envelope of it.

    The runner sends a guest a state text only when it differs from what that guest holds; texts shared by
    envelopes compare as the same object, not as megabytes (a run of a body on a real-shaped 4 MB store spent
    0.4 ms comparing them when each envelope had its own), and a run of the same store again, as the Run tab
    makes, does not write them again (20 ms for 5,000 entries). The next store is made from the last one's
    pieces: a body's store is the last body's with some entries appended and the oldest trimmed, so replay,
    check and retyped write only the new entries (`_StorePieces`).
    """

    __slots__ = ("store", "json", "lookup", "_manifest", "_pieces")
    _last: StoreTexts | None = None  # the one kept: the store the last envelope was made of
    store: list[Entry]
    json: bytes
    lookup: bytes
    _pieces: _StorePieces

    def __init__(self, store: Sequence[Entry], reuse: StoreTexts | None = None):
        self.store = list(store)  # held: while the texts are kept, no entry they were made of goes away
        self._pieces = _StorePieces(self.store, reuse._pieces if reuse is not None else None)
        self.json = self._pieces.json
        self.lookup = store_lookup(self.store, self._pieces.spans())
        self._manifest: bytes | None = None

    @classmethod
    def of(cls, store: Sequence[Entry]) -> StoreTexts:
        """The texts of `store`: those made last if it is the same entries, else new ones (kept in their place)."""
        last = cls._last
        if last is not None and len(last.store) == len(store) and all(a is b for a, b in zip(last.store, store)):
            return last
        made = cls._last = cls(store, reuse=last)
        return made

    def manifest(self) -> bytes:
        """The manifest lines `inputs.list` hands out (run_inputs.manifest_entry each), made when a run first needs them,
        on the runner's thread: sizes as the editor measures them (UTF-8 of JSON.stringify), which the guest could not
        compute safely once a body may define toJSON."""
        if self._manifest is None:
            self._manifest = dumps([manifest_entry(e) for e in self.store]).encode()
        return self._manifest


class _StorePieces:
    """The store's JSON (`Entry.editor_shape` of each entry, compact and in ASCII: `_ascii_compact`) and where each entry's piece lies.

    A piece is `(its first byte, its end, where its input starts and ends in it)`: what a later store holding the same
    entry object needs to copy the bytes and place the input without looking at them again. Writing every piece took
    19 ms a replayed body of a real-shaped 5,000-entry store. In ASCII a byte is a character and a UTF-16 unit, so the
    places are JavaScript's string indices too.
    """

    __slots__ = ("store", "json", "pieces")
    store: list[Entry]
    json: bytes
    pieces: list[tuple[int, int, int, int]]

    def __init__(self, store: list[Entry], reuse: _StorePieces | None):
        self.store = store
        old = {id(entry): i for i, entry in enumerate(reuse.store)} if reuse is not None else {}
        source = memoryview(reuse.json) if reuse is not None else memoryview(b"")
        parts: list[bytes | memoryview] = []
        self.pieces = []
        at = 1  # after "["
        for entry in store:
            part: bytes | memoryview
            i = old.get(id(entry))
            if i is None:
                part, input_at, input_end = _piece(entry)
            else:
                first, end, input_at, input_end = reuse.pieces[i]  # type: ignore[union-attr]
                part = source[first:end]
            parts.append(part)
            self.pieces.append((at, at + len(part), input_at, input_end))
            at += len(part) + 1  # and the comma
        self.json = b"[" + b",".join(parts) + b"]"

    def spans(self) -> list[tuple[int, int]]:
        """Where each entry's input lies in the JSON."""
        return [(first + input_at, first + input_end) for first, _, input_at, input_end in self.pieces]


def _piece(entry: Entry) -> tuple[bytes, int, int]:
    """An entry's JSON, compact and in ASCII (`_ascii_compact`), and where its input starts and ends in it."""
    # A call is identifiers and dots and a unit one of five words: neither needs escapes.
    head = _ascii_compact(b'{"id":' + dumps(entry.id).encode("utf-8", "surrogatepass") + b',"call":"' + entry.call.encode() + b'","input":')
    value = _ascii_compact(_input_text(entry))
    tail = b',"unit":"' + entry.unit.encode() + b'"' if entry.unit is not None else b""
    tail += b',"applied":true}' if entry.applied else b"}"
    return head + value + tail, len(head), len(head) + len(value)


def store_texts(store: Sequence[Entry]) -> tuple[bytes, bytes]:
    """The store as the editor injects it (`Entry.editor_shape`), as JSON text, and its lookup (`store_lookup`).

    A loaded entry's input goes in as its own text from the file: parsing 50,000 records to write them
    again took 1.5 s a run, and V8 reads the text as it would the file. Where the loader noted the input's
    place in the record (`Entry.input_text_span`) it is cut there; else msgspec finds it (a record with an
    output holds as much again: 22 ms a replayed body of 1,800 real-shaped entries, 5 ms cut).
    """
    texts = StoreTexts(store)
    return texts.json, texts.lookup


def store_lookup(store: Sequence[Entry], spans: Sequence[tuple[int, int]]) -> bytes:
    """What `inputs.last(call)` and `inputs.at(id)` answer, worked out by the host, as text the realm reads.

    Two tables joined by U+0003: the first keyed by what `last` may be asked (each call, and the module and
    function of a call with a unit: `a.b` finds `a.b.c`), the second by each id as `at` compares it (its
    JavaScript string). Each key's row holds the JSON array `[position, start, end]` of the newest entry it
    finds: its place in the store (by which the realm's reads name it, and the host gives its id back: an id past
    2^53 is another number in JavaScript) and where its input lies in the store's text (UTF-16 units, JavaScript's
    string indices). A table is a hash table (`hash_table`): the realm reads the one bucket of a key and parses
    that row and only the inputs a body reads. Parsing a JSON index of a real-shaped store's 5,000 entries,
    mapping its ids and scanning its calls was 1 to 2 ms of a warm run that read one entry, and one `indexOf` of
    the key in the rows 30 to 60 µs a read (prelude.js `storeOf`).
    """
    rows: list[str] = []
    newest: dict[str, int] = {}  # each call's newest entry
    by_id: dict[str, tuple[int, str]] = {}
    for position, (entry, (start, end)) in enumerate(zip(store, spans)):
        key, crc = _id_key(entry.id)
        row = f"[{position},{start},{end}]"
        rows.append(row)
        newest[entry.call] = position
        by_id[key] = (crc, row)
    last: dict[str, int] = {}
    for call, position in newest.items():
        parts = call.split(".")
        # `last("a.b")` is answered by "a.b.c" too (run_inputs.call_matches): the newest of all it matches.
        for key in (lookup_key(call), lookup_key(f"{parts[0]}.{parts[1]}")) if len(parts) > 2 else (lookup_key(call),):
            last[key] = max(position, last.get(key, -1))
    by_call = {key: (key_hash(key), rows[position]) for key, position in last.items()}
    return (hash_table(by_call) + "\u0003" + hash_table(by_id)).encode()


@functools.lru_cache(maxsize=1 << 16, typed=True)
def _id_key(entry_id: Id) -> tuple[str, int]:
    """An id's key in `at`'s table and the key's hash. Kept: replay and check hand each body the session's store
    again, most of it the same entries."""
    key = lookup_key(entry_id if isinstance(entry_id, str) else js_number(entry_id))
    return key, key_hash(key)


def key_hash(key: str) -> int:
    """CRC-32 of the key's UTF-16 units, little-endian (prelude.js `keyHash`)."""
    return zlib.crc32(key.encode("utf-16-le"))


def hash_table(rows: dict[str, tuple[int, str]]) -> str:
    """`rows` (key: its `key_hash` and its row, neither holding U+0000 to U+0004) as one text a realm finds a key
    in at once.

    As many buckets as rows, a key's bucket its hash modulo their count. The text: the count, then where each
    bucket's rows start and where the last ends (each ten decimal digits, counted from the end of this head),
    then the rows by bucket, each U+0001, the key, U+0002, the row. Escaped keys and ASCII rows: a character
    is one UTF-16 unit.
    """
    count = len(rows)
    buckets: list[list[str]] = [[] for _ in range(count)]
    for key, (crc, row) in rows.items():
        buckets[crc % count].append(f"\u0001{key}\u0002{row}")
    texts = ["".join(bucket) for bucket in buckets]
    head = [count, *itertools.accumulate(map(len, texts), initial=0)]
    return "".join(f"{n:010d}" for n in head) + "".join(texts)


# What `lookup_key` escapes, as prelude.js `lookupKey` does: the tables' own marks (U+0000 to U+0004), and every
# UTF-16 surrogate (a lone one cannot be sent as UTF-8; JavaScript sees a character past U+FFFF as two).
_UNSAFE_IN_KEY = re.compile("[\x00-\x04\ud800-\udfff\U00010000-\U0010ffff]")


def lookup_key(key: str) -> str:
    """`key` as a row of `store_lookup` holds it: each unsafe UTF-16 unit as U+0004 and four hex digits."""
    if _UNSAFE_IN_KEY.search(key) is None:
        return key
    units = key.encode("utf-16-le", "surrogatepass")
    return "".join(f"\u0004{unit:04x}" if unit < 5 or 0xD800 <= unit <= 0xDFFF else chr(unit)
                   for (unit,) in struct.iter_unpack("<H", units))


def _ascii_compact(text: bytes) -> bytes:
    """UTF-8 JSON text without whitespace between its tokens, each character past ASCII written as its escape (two for
    one past U+FFFF): the same values, in ASCII.

    The store goes into V8 as a string of its own (guest.py `post_preload`). One character past ASCII made all of it a
    two-byte string, twice the memory and twice the time to make (a real-shaped 7 MB store with a few accented labels:
    14 ms, 7 in ASCII), and its inputs slower to parse; JSON holds such characters only inside its strings. An
    indented file's inputs crossed with their indentation (twice the text). Text in ASCII with no newline is taken as
    it is (a newline is never raw inside a JSON string). In C where the build had a compiler
    (core/session/_store_scan.c: 8 MB of real-shaped inputs in ~8 ms, 25 ms in Python).
    """
    if text.isascii() and b"\n" not in text:
        return text
    compact = _c_ascii_compact(text) if _c_ascii_compact is not None else None
    return compact if compact is not None else _ascii_compact_in_python(text)


def _ascii_compact_in_python(text: bytes) -> bytes:
    """`_ascii_compact` where the build had no compiler."""
    tokens = _OUTSIDE_STRINGS.sub(lambda match: match.group(1) or "", text.decode("utf-8", "surrogatepass"))
    return tokens.encode("ascii", "wsi-json-escape")


_OUTSIDE_STRINGS = re.compile(r'("(?:[^"\\]|\\.)*")|[ \t\n\r]+', re.S)  # a string whole, or whitespace between tokens


def _json_escapes(error: UnicodeError) -> tuple[str, int]:
    """The codec error handler behind `_ascii_compact`: a run of characters past ASCII as JSON escapes."""
    assert isinstance(error, UnicodeEncodeError)
    units = error.object[error.start:error.end].encode("utf-16-le", "surrogatepass")
    return "".join("\\u%04x" % unit for (unit,) in struct.iter_unpack("<H", units)), error.end


codecs.register_error("wsi-json-escape", _json_escapes)


def _input_text(entry: Entry) -> bytes:
    span = entry.input_text_span
    if span is not None:
        return bytes(memoryview(entry.text)[span[0]:span[1]])
    if entry.text is not None:
        try:
            return bytes(msgspec.json.decode(entry.text, type=_InputText).input)
        except msgspec.DecodeError:  # a JSON Lines line only the lenient parser reads (NaN)
            pass
    return dumps(entry.input).encode("utf-8", "surrogatepass")


def mock_for(session: Any) -> MockModules:
    """The session's MockModules, built once per session."""
    mock = _mocks.get(session)
    if mock is None:
        mock = _mocks[session] = MockModules(session)
    return mock


def parse_time_ms(text: Any) -> float | None:
    """Milliseconds since the epoch of an ISO-8601 time, or None."""
    if not isinstance(text, str):
        return None
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.timestamp() * 1000


def fixed_time_ms(session: Any, at: Id | None, body_id: Id | None, store: list[Any]) -> float:
    """The time `Date` shows during a deterministic run."""
    for body_key in (body_id, at):
        body = session.body(body_key) if body_key is not None else None
        if body is not None and parse_time_ms(body.at) is not None:
            return parse_time_ms(body.at)  # type: ignore[return-value]
    for entry in reversed(store):
        if parse_time_ms(entry.at) is not None:
            return parse_time_ms(entry.at)  # type: ignore[return-value]
    created = parse_time_ms((session.info or {}).get("createdAt"))
    return created if created is not None else float(int(time.time() * 1000))


def options_from(options: RunOptions | dict[str, Any] | None) -> RunOptions:
    """RunOptions from a dict (or None for the defaults); EnvelopeError names a bad field."""
    if isinstance(options, RunOptions):
        return options
    try:
        return RunOptions(**(options or {}))
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise EnvelopeError(f"run option {where}: {first['msg']}") from None


def build_envelope(
    session: Any,
    code: str,
    lang: str = "js",
    at: Id | None = None,
    options: RunOptions | dict[str, Any] | None = None,
    body_id: Id | None = None,
) -> Envelope:
    """The envelope for running `code` against the state at body `at` (None: the end of the session)."""
    if not isinstance(code, str):
        raise EnvelopeError(f"the body must be text, not {type(code).__name__}")
    if lang not in ("js", "ts"):
        raise EnvelopeError(f"lang must be 'js' or 'ts', not {lang!r}")
    run_options = options_from(options)
    try:
        state = session.state_at(at)
    except KeyError:
        known = ", ".join(b.key for b in session.bodies[:12]) or "none"
        raise EnvelopeError(f"no body {at!r} in {session.name} to run at; its bodies are: {known}") from None
    store = state.store
    cap = session.caps.store_bytes
    if cap is not None:
        store, _ = trim_store(store, cap)
    mock = mock_for(session)
    now_ms = run_options.now_ms if run_options.now_ms is not None else fixed_time_ms(session, at, body_id, state.store)
    env_json = dumps({
        "kept": state.kept,
        "known": mock.known,
        "options": {"deterministic": run_options.deterministic, "seed": run_options.seed, "nowMs": now_ms},
    })
    envelope = Envelope(
        code=code, lang=lang, options=run_options, mock=mock,  # type: ignore[arg-type]
        env_json=env_json, texts=StoreTexts.of(store),
        scene_json=dumps(scene_payload(session.scene, state.kept)).encode(),
        body_key=None if body_id is None else str(body_id), max_keep_bytes=session.caps.max_keep_bytes,
    )
    envelope.types_pending = lang == "ts"  # erased by the runner (Envelope.prepare), off the caller's thread
    return envelope
