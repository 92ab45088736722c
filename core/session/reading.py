"""Read a session file's bytes and parse them as JSON or JSON Lines, with located syntax errors.

orjson parses; the standard library is the fallback for what orjson refuses but JavaScript's
JSON.parse accepts (integers beyond 64 bits, lone surrogates), and it gives the line and column of
a real syntax error. Files are opened by wsi_inspector.core.files.input_file, for reading only.

Two bounds keep hostile files from taking the inspector down:

- **Nesting.** A value parsed on its own (a JSON Lines line, a store or bodies element, a header
  part) may nest at most `MAX_DEPTH` = 1,024 levels: what orjson reads (V8's JSON.parse reads more,
  but nothing the editor's modules take comes near). Deeper is a JsonSyntaxError at the line and
  column where the limit is crossed. Everything loaded is therefore at most 1,024 deep, and the
  recursion limit is raised so that C code (msgspec, `==`, the standard json module) can walk it.
- **Gzip.** A `.gz` file is inflated as a stream and refused once it passes `gzip_limit()` bytes
  (2 GiB by default, room for a 1,000,000-entry session; `WSI_GZIP_LIMIT` or `--gzip-limit` raise
  it), so a bomb costs at most the limit's worth of memory, never more.
"""
from __future__ import annotations

import gc
import json
import os
import re
import sys
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import msgspec
import orjson

from wsi_inspector.core.session.place import Place

BOM = b"\xef\xbb\xbf"
GZIP_MAGIC = b"\x1f\x8b"
MAX_DEPTH = 1024  # orjson's own limit; see the module docstring
# Headroom for C code walking a value MAX_DEPTH deep from wherever it is called (pytest, Qt slots)
# plus a few Python frames per level; measured safe on 8 MiB thread stacks with 100,000-deep input.
RECURSION_LIMIT = 4 * MAX_DEPTH + 1000
GZIP_LIMIT_ENV = "WSI_GZIP_LIMIT"
DEFAULT_GZIP_LIMIT = 2 * 1024**3
_INFLATE_CHUNK = 1024 * 1024  # unpacked bytes at a time: each is copied onto the text and let go, so bigger only adds to the peak
_INFLATE_INPUT = 1024 * 1024  # compressed bytes handed to zlib at a time
if sys.getrecursionlimit() < RECURSION_LIMIT:
    sys.setrecursionlimit(RECURSION_LIMIT)


class LoadError(Exception):
    """The file cannot be read at all (missing, unreadable, a folder): nothing to load."""


class JsonSyntaxError(ValueError):
    """Text that is not JSON, with the 1-based line and column where it stops being JSON."""

    def __init__(self, message: str, line: int, column: int, offset: int = 0, ends_early: bool = False):
        super().__init__(message)
        self.line = line
        self.column = column
        self.offset = offset  # the byte offset in the parsed text, to place it in a larger one
        self.ends_early = ends_early  # the text stops before its JSON does (cut short), ENDS_EARLY says so

    @property
    def where(self) -> Place:
        """The spot in the text: `line:column` when printed."""
        return Place.spot(self.line, self.column)


def gzip_limit() -> int:
    """The most bytes a gzip file may inflate to: `WSI_GZIP_LIMIT` if set, else 2 GiB."""
    text = os.environ.get(GZIP_LIMIT_ENV, "").strip()
    if not text:
        return DEFAULT_GZIP_LIMIT
    try:
        return parse_limit(text)
    except ValueError as exc:
        raise LoadError(f"{GZIP_LIMIT_ENV}={text}: {exc}") from None


def parse_limit(text: str) -> int:
    """A SIZE (SPEC 6) that may also end in GB (×1000³) or GiB (×1024³): a gzip limit is that big."""
    from wsi_inspector.core.jsrules.sizes import parse_size

    text = text.strip()
    if text.endswith("GiB"):
        return parse_size(text[:-3] + "MiB") * 1024
    if text.endswith("GB"):
        return parse_size(text[:-2] + "MB") * 1000
    return parse_size(text)


def decode(data: bytes | bytearray, limit: int | None = None) -> bytes | bytearray:
    """Undo gzip (by its magic bytes, whatever the name) within `limit` bytes, and drop a leading BOM."""
    if data[:2] == GZIP_MAGIC:
        data = gunzip(data, gzip_limit() if limit is None else limit)
    return drop_bom(data)


def drop_bom(data: bytes | bytearray) -> bytes | bytearray:
    """`data` without a leading UTF-8 byte order mark (JSON.parse would refuse it; editors write it)."""
    if data[:3] == BOM:
        if isinstance(data, bytearray):
            del data[:3]  # in place: a copy would double the peak of a big session
        else:
            data = data[3:]
    return data


def gunzip(data: bytes | bytearray | memoryview, limit: int) -> bytearray:
    """Inflate every gzip member of `data` as a stream, refusing past `limit` bytes (JsonSyntaxError).

    The output grows in place (a bytearray's large reallocations move pages, not bytes), so a whole
    session costs its own size once, and a bomb is stopped at the limit before it costs more.
    """
    view = memoryview(data)
    # a piece at a time: zlib copies what it leaves unconsumed, so a whole file handed at once would be copied again per chunk
    return inflate((view[at:at + _INFLATE_INPUT] for at in range(0, len(view), _INFLATE_INPUT)), limit)


def gunzip_file(handle: int, limit: int) -> bytearray:
    """`gunzip` of the gzip file open at `handle`, read a piece at a time and each let go once inflated.

    The compressed bytes are never held whole beside the unpacked text (a 166 MB session gzipped to
    69 MB was 0.4× its size of peak, for nothing). Reads are bounded as every read of a named file
    is (wsi_inspector.core.files.input_file): at most the size the file had when opened, plus what it
    had grown by when that much was read; a file cut shorter while read is a truncated gzip.
    """
    return inflate(_file_pieces(handle), limit)


def _file_pieces(handle: int) -> Iterator[bytes]:
    """The bytes of the file at `handle`, from where it stands, _INFLATE_INPUT at a time (see gunzip_file)."""
    size, done, looked_again = os.fstat(handle).st_size, 0, False
    while True:
        if done >= size:
            if looked_again:
                return
            looked_again, size = True, max(size, os.fstat(handle).st_size)
            if done >= size:
                return
        piece = os.read(handle, min(_INFLATE_INPUT, size - done))
        if not piece:
            return
        done += len(piece)
        yield piece


def inflate(pieces: Iterator[bytes | memoryview], limit: int) -> bytearray:
    """Inflate the gzip members spelled by `pieces`, the compressed bytes in order (see gunzip)."""
    out = bytearray()
    fed = 0  # compressed bytes taken from `pieces` so far
    pending: bytes | memoryview = b""  # taken, not yet consumed by an inflater
    while True:
        inflater = zlib.decompressobj(wbits=31)
        while not inflater.eof:
            if not pending:
                pending = next(pieces, b"")
                if not pending:
                    raise JsonSyntaxError(
                        f"the gzip file is truncated: it ends before its end marker, after {len(out):,} bytes "
                        "unpacked; get the whole file again", 1, 1)
                fed += len(pending)
            consumed = fed - len(pending)
            try:
                chunk = inflater.decompress(pending, min(_INFLATE_CHUNK, limit + 1 - len(out)))
            except zlib.error as exc:
                raise JsonSyntaxError(
                    f"not a valid gzip file: damaged after compressed byte {consumed:,} ({exc}); get the file "
                    "again (gzip -dc shows how much of it can be unpacked)", 1, 1) from None
            pending = inflater.unconsumed_tail
            out += chunk
            del chunk  # not held beside the next one
            if len(out) > limit:
                raise JsonSyntaxError(
                    f"the gzip file unpacks to more than {limit:,} bytes, the limit; if the session is really "
                    f"that big, raise it with --gzip-limit SIZE or {GZIP_LIMIT_ENV}=SIZE (e.g. 8GiB)", 1, 1)
        pending = inflater.unused_data  # the next member, or what follows the last, starts here
        after = fed - len(pending)
        while len(pending) < 2 and (more := next(pieces, b"")):  # enough to see a next member's magic
            pending = bytes(pending) + bytes(more)
            fed += len(more)
        if pending[:2] == GZIP_MAGIC:
            continue
        rest, only_zeros = len(pending), not bytes(pending).strip(b"\0")
        for more in pieces:  # counted, not held: it may be big
            rest += len(more)
            only_zeros = only_zeros and not bytes(more).strip(b"\0")
        if only_zeros:  # zero padding after the last member is allowed, as gzip allows it
            return out
        raise JsonSyntaxError(
            f"not a valid gzip file: {rest:,} bytes of something else after the compressed data "
            f"(from compressed byte {after:,})", 1, 1)


@contextmanager
def no_gc() -> Iterator[None]:
    """Keep the garbage collector out of bulk parsing: float-heavy files parse 5× faster (DESIGN 3).

    On the way out everything parsed is frozen: otherwise the first allocation after re-enabling
    walks all of it (a second on 150 MB), and so would every later full collection. Parsed JSON
    holds no cycles, so reference counting still frees it when the session goes.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if was_enabled:
            gc.enable()


def parse_json(text: bytes | bytearray | memoryview) -> Any:
    """One JSON document, or JsonSyntaxError with its line, column and offset."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        if exc.msg.startswith("depth limit"):
            raise too_deep(bytes(text), exc.pos - 1) from None  # orjson points just past the bracket
    if isinstance(text, memoryview):
        text = bytes(text)  # a record's piece: small
    deep_at = deeper_than(text, MAX_DEPTH)
    if deep_at is not None:
        raise too_deep(text, deep_at)
    try:  # strict: a surrogate written as UTF-8 bytes (ED A0 80) is not UTF-8, as V8 says
        return json.loads(text.decode("utf-8"), parse_int=_integer, parse_constant=_not_json)
    except _NotJson:  # NaN, Infinity, -Infinity: JSON.parse refuses them; msgspec says where
        failure = locate_failure(text)
        if failure is None:
            raise JsonSyntaxError("not JSON here: NaN and Infinity are not JSON numbers", 1, 1) from None
        raise failure from None
    except UnicodeDecodeError as exc:
        line, column = _position(text, exc.start)
        raise JsonSyntaxError(f"not UTF-8 text (byte 0x{text[exc.start]:02x}); save the session as UTF-8",
                              line, column, exc.start) from None
    except json.JSONDecodeError as exc:
        offset = _offset(text, exc.pos)
        if not text[offset:].strip():  # nothing after where it stopped: cut short
            raise JsonSyntaxError(ENDS_EARLY, exc.lineno, exc.colno, offset, ends_early=True) from None
        raise JsonSyntaxError(_reword(exc.msg), exc.lineno, exc.colno, offset) from None


class _NotJson(Exception):
    """A constant the standard parser takes and JSON.parse does not."""


def _not_json(name: str) -> Any:
    """NaN, Infinity and -Infinity are refused (the standard parser would make floats of them)."""
    raise _NotJson(name)


MOST_INT_DIGITS = 4000  # digits read as a Python int: int() refuses more than 4,300 (ValueError)


def _integer(digits: str) -> int | float:
    """An integer literal as the JSON parser reads it: past MOST_INT_DIGITS it is read as JavaScript
    reads every number, a double (infinite there), not refused with a ValueError."""
    return int(digits) if len(digits) <= MOST_INT_DIGITS else float(digits)


ENDS_EARLY = "the JSON document ends early (a value or a closing bracket is missing); the file may be truncated"


def locate_failure(text: bytes | bytearray) -> JsonSyntaxError | None:
    """Where a big text stops being JSON, found without building it (None: it is JSON after all).

    The full parsers build everything before the bad spot, ten times a float-heavy text; msgspec
    only checks, so a truncated 1 GB session or a gzip of spaces costs no more than its text.
    """
    try:
        msgspec.json.decode(text, type=msgspec.Raw)
    except msgspec.DecodeError as exc:
        reason = str(exc)
        found = re.search(r"\(byte (\d+)\)", reason)
        offset = int(found.group(1)) if found else _end_of_content(text)
        ends_early = "truncated" in reason
        message = ENDS_EARLY if ends_early else "not JSON here: " + re.sub(r"^JSON is malformed: | \(byte \d+\)$", "", reason)
        line, column = _position(text, offset)
        return JsonSyntaxError(message, line, column, offset, ends_early)
    except RecursionError:
        deep_at = deeper_than(text, MAX_DEPTH)
        return too_deep(text, deep_at if deep_at is not None else 0)
    return None


def _end_of_content(text: bytes | bytearray) -> int:
    """The offset just past the last byte that is not whitespace, looking back in small pieces."""
    end = len(text)
    while end > 0:
        piece = bytes(text[max(end - 65536, 0):end])
        kept = piece.rstrip()
        if kept:
            return end - len(piece) + len(kept)
        end -= len(piece)
    return 0


def starts_with(text: bytes | bytearray, wanted: bytes) -> bool:
    """True when the first byte that is not whitespace is `wanted` (no copy of the text)."""
    found = _NOT_SPACE.search(text)
    return found is not None and found.group() == wanted


_NOT_SPACE = re.compile(rb"[^ \t\r\n]")


def too_deep(text: bytes | bytearray, offset: int) -> JsonSyntaxError:
    """The error for a value nested deeper than MAX_DEPTH, placed where the limit is crossed."""
    line, column = _position(text, offset)
    return JsonSyntaxError(f"nested deeper than {MAX_DEPTH:,} levels; the inspector reads at most that", line, column, offset)


_STRUCTURE = re.compile(rb'"(?:[^"\\]|\\.)*"?|[\[\]{}]')


def deeper_than(text: bytes | bytearray, limit: int) -> int | None:
    """The offset of the first bracket that opens level `limit + 1`, or None (strings are skipped).

    Only texts orjson refused come here, so a Python loop over their brackets costs nothing the
    common case pays.
    """
    if text.count(b"[") + text.count(b"{") <= limit:
        return None
    depth = 0
    for match in _STRUCTURE.finditer(text):
        token = match.group()[:1]
        if token in (b"[", b"{"):
            depth += 1
            if depth > limit:
                return match.start()
        elif token in (b"]", b"}"):
            depth -= 1
    return None


def _offset(text: bytes | bytearray, character: int) -> int:
    """The byte offset of a character offset into `text` decoded."""
    return len(text.decode("utf-8", "surrogatepass")[:character].encode("utf-8", "surrogatepass"))


def position_of(text: bytes | bytearray | memoryview, offset: int) -> tuple[int, int]:
    """1-based line and column (in characters) of a byte offset."""
    return _position(text, offset)


def _position(text: Any, offset: int) -> tuple[int, int]:
    text = bytes(text) if isinstance(text, memoryview) else text
    line = text.count(b"\n", 0, offset) + 1
    start = text.rfind(b"\n", 0, offset) + 1
    return line, len(text[start:offset].decode("utf-8", "replace")) + 1


def _reword(message: str) -> str:
    if message.startswith("Expecting value"):
        return "not JSON here (expected a value); the file may be truncated or not a session"
    if message.startswith("Extra data"):
        return "more text after the JSON document; a JSON Lines session should be named .jsonl"
    if message.startswith("Unterminated string"):
        return "a string that never ends; the file may be truncated"
    return message[0].lower() + message[1:]


def looks_like_json_lines(name: str, text: bytes | bytearray) -> bool:
    """JSON Lines by its name (.jsonl, .ndjson, with or without .gz), else by a first line that is a whole object."""
    lowered = name.lower().removesuffix(".gz")
    if lowered.endswith((".jsonl", ".ndjson")):
        return True
    if lowered.endswith(".json"):
        return False
    first, _, rest = text.partition(b"\n")
    if not rest.strip():
        return False
    try:
        return isinstance(orjson.loads(first), dict)
    except orjson.JSONDecodeError:
        return False


def lines_ended_by_cr(text: bytes | bytearray) -> bytes | bytearray:
    """A JSON Lines text whose lines end in a lone CR (old Mac files, some exports) read as if they
    ended in LF: same length, so every line and column stays where it is. Text with an LF is as it is."""
    if b"\r" in text and b"\n" not in text:
        return text.replace(b"\r", b"\n")
    return text

