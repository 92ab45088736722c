"""The JSON form's store measured in one pass of C (`core/session/_store_scan.c`), where the build had a compiler.

Parsing each store record and writing its input again, to learn the size JavaScript gives it, is
most of a load's work. The C pass reads the text once: it checks that the text is JSON and, for
each store record, tells where its input is, `JSON.stringify`'s UTF-8 length of it (proven, or -1),
its shape, and the record's other members when they are plain values. The input is never built.

`scan(text)` is None when the extension was not built (the wheel was made without a C compiler) or
the text is not a plain session document (not JSON, nested deeper than 512, a part named twice):
the Python reader then does all of the work, and says what is wrong.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from typing_extensions import Buffer

try:
    from wsi_inspector.core.session._store_scan import scan as _scan
    from wsi_inspector.core.session._store_scan import lines as _lines
    from wsi_inspector.core.session._store_scan import scan_record as _scan_record
    from wsi_inspector.core.session._store_scan import RecordText
    from wsi_inspector.core.session._store_scan import digest as _digest
    from wsi_inspector.core.session._store_scan import member as _member
    from wsi_inspector.core.session._store_scan import same_json as _same_json
    from wsi_inspector.core.session._store_scan import same_rest as _same_rest
except ImportError:  # built without a C compiler: every input is measured in Python
    _scan = _scan_record = _lines = _digest = _member = _same_json = _same_rest = None
    RecordText = None  # a type no text is

BUILT = _scan is not None


def digest(text: Buffer, start: int = 0, stop: int = -1) -> int:
    """A 64-bit digest of the JSON text `text[start:stop]` (stop -1: its end), read where it lies: texts that
    differ only in whitespace between tokens (a value written compact, indented, or as a JSON Lines line)
    have the same digest.

    Several times faster than `hash()` where the extension was built: what tells a session's many inputs
    apart, never the proof that two are equal. Where it was not built, Python's hash of the bytes: the
    Python reader then keeps only spans spelled as orjson writes them, with no whitespace to leave out.
    """
    if _digest is not None:
        return int(_digest(text, start, stop))
    view = memoryview(text)
    return hash(bytes(view[start:] if stop == -1 else view[start:stop]))


def same_json(a: Buffer, a_span: tuple[int, int], b: Buffer, b_span: tuple[int, int]) -> bool:
    """Whether `a[a_span]` and `b[b_span]` are the same JSON text but for whitespace between tokens: then
    they parse to equal values, and the parse can be skipped. False says only "not known to be the same"
    (another spelling of one value, such as `1e21` and `1e+21`, is told apart only by parsing)."""
    if _same_json is not None:
        return bool(_same_json(a, *a_span, b, *b_span))
    return bytes(memoryview(a)[slice(*a_span)]) == bytes(memoryview(b)[slice(*b_span)])


def same_rest(a: Buffer, a_start: int, b: Buffer, b_start: int, absent: bytes = b"") -> bool:
    """Whether `a[a_start:]` and `b[b_start:]` are the same JSON text but for whitespace between tokens, and
    neither text holds `absent` before its start (as `same_json`, False says only "not known to be the same")."""
    if _same_rest is not None:
        return bool(_same_rest(a, a_start, b, b_start, absent))
    head_a, head_b = bytes(memoryview(a)[:a_start]), bytes(memoryview(b)[:b_start])
    return (not absent or (absent not in head_a and absent not in head_b)) and \
        bytes(memoryview(a)[a_start:]) == bytes(memoryview(b)[b_start:])


def member(text: Buffer, name: str, start: int = 0) -> tuple[int, int] | bool | None:
    """Where the JSON object `text` spells its top-level member `name`'s value (the last such member, as a
    parse keeps): `(start, stop)`; False when it has none; None when unsure (a member's name spelled with
    escapes, or the extension not built), and the text must be parsed. `start`, when given, is just past a
    member's value, and only the members after it are read (a record's output after its known input)."""
    return None if _member is None else _member(text, name, start)


class Scanned(NamedTuple):
    """A scanned document: its members, and its store's records, each made when reached.

    A record is a tuple of offsets into the scanned text and what was learned there:
    `(start, end, input_start, input_end, input_bytes, shape, fields, verbatim, text)`:
    - `input_start`, `input_end`: the input's value; -1 when the record has none, or more than one
      (the parse keeps the last; such a record is measured the slow way);
    - `input_bytes`: JSON.stringify's UTF-8 length of the input, or -1 when it could not be proven;
    - `shape`: the input's top-level keys (a tuple, in the text's order), its length (an array), or
      its kind ("string", "number", "boolean", "null"); only when `input_bytes` is not -1 (a key
      spelled with escapes is left as written, and makes the size unsure);
    - `fields`: the record's members with `input` and `output` as None (the loader reads an output
      from the record's text when asked), when every other one is a plain value (a string without
      escapes, an integer, true, false, null); else None;
    - `verbatim`: the input's text is exactly `orjson.dumps` of its value (searchable as it is);
    - `text`: the record's text where it lies, a read-only buffer (`bytes()`, `memoryview()`, `len()`)
      of 40 bytes, where a memoryview is 184 (a million entries hold one each).
    A plain tuple, not a named one: there is one per entry, and the loader unpacks it at once.
    """

    parts: list[tuple[str, int, int]]
    records: Iterator[tuple[int, int, int, int, int, Any, dict[str, Any] | None, bool, Any]]


def scan(text: bytes | bytearray | memoryview) -> Scanned | None:
    """The session document in `text` scanned, or None (see the module's docstring)."""
    if _scan is None:
        return None
    scanned = _scan(text)
    if scanned is None:
        return None
    return Scanned(scanned.parts(), scanned)


def scan_record(text: bytes | memoryview) -> tuple | None:
    """One record (a JSON Lines line) scanned: a tuple as `Scanned.records` gives them (offsets into
    `text`), or None (not built, or not one JSON value)."""
    return None if _scan_record is None else _scan_record(text)


class Lines:
    """A JSON Lines text's lines read where they lie: `record(start, stop)` scans one, `text(start, stop)` holds one.

    Every record's text is then a 40-byte buffer over the one text (one export of it for all), where a
    memoryview of each line is 184 bytes and scanning each as a text of its own (`scan_record`) some
    300 more: a 50,000-entry session held 17 MB of them. Offsets are into the whole text (`view`).
    Without the extension (or with `scan_record` switched off, as the tests compare) `record` is
    always None and `text` a memoryview of the line.
    """

    __slots__ = ("view", "_scanned")

    def __init__(self, text: bytes | bytearray | memoryview):
        self.view = memoryview(text)
        self._scanned = _lines(text) if _lines is not None and _scan_record is not None else None

    def scan_ahead(self, starts: Buffer, stops: Buffer) -> None:
        """Scan every line `text[starts[i]:stops[i]]` (arrays of 8-byte ints, in order) at once, in C without the
        GIL; `record` then hands out each as it is asked, in the same order. Scanned one by one with the GIL
        held, two sessions read at once (a compare) hardly overlapped. Nothing to do without the extension."""
        if self._scanned is not None:
            self._scanned.scan_ahead(starts, stops)

    def record(self, start: int, stop: int) -> tuple | None:
        """The line text[start:stop] scanned as `scan_record` scans one (offsets into the whole text), or None."""
        return None if self._scanned is None else self._scanned.record(start, stop)

    def text(self, start: int, stop: int) -> Buffer:
        """text[start:stop] as an entry holds its record's text (a read-only buffer)."""
        return self.view[start:stop] if self._scanned is None else self._scanned.text(start, stop)
