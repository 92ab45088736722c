"""Read a session file's bytes and parse them as JSON or JSON Lines, with located syntax errors.

orjson parses; the standard library is the fallback for what orjson refuses but JavaScript's
JSON.parse accepts (integers beyond 64 bits, lone surrogates), and it gives the line and column of
a real syntax error. The file is opened for reading only.
"""
from __future__ import annotations

import gc
import gzip
import json
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import orjson

BOM = b"\xef\xbb\xbf"
GZIP_MAGIC = b"\x1f\x8b"


class LoadError(Exception):
    """The file cannot be read at all (missing, unreadable, a folder): nothing to load."""


class JsonSyntaxError(ValueError):
    """Text that is not JSON, with the 1-based line and column where it stops being JSON."""

    def __init__(self, message: str, line: int, column: int):
        super().__init__(message)
        self.line = line
        self.column = column


def read_bytes(path: Path) -> bytes:
    """The file's bytes, or LoadError saying why they cannot be had."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise LoadError(f"{path}: no such file; check the path") from None
    except IsADirectoryError:
        raise LoadError(f"{path}: is a folder; give a session file (.json, .jsonl, .gz)") from None
    except PermissionError:
        raise LoadError(f"{path}: permission denied; the file cannot be read") from None
    except OSError as exc:
        raise LoadError(f"{path}: cannot be read: {exc.strerror or exc}") from None


def decode(data: bytes) -> bytes:
    """Undo gzip (by its magic bytes, whatever the name) and drop a leading BOM."""
    if data.startswith(GZIP_MAGIC):
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as exc:
            raise JsonSyntaxError(f"not a valid gzip file ({exc}); it may be truncated", 1, 1) from None
    if data.startswith(BOM):
        data = data[len(BOM):]
    return data


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


def parse_json(text: bytes | memoryview) -> Any:
    """One JSON document, or JsonSyntaxError with its line and column."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        pass
    text = bytes(text)
    try:
        return json.loads(text.decode("utf-8", "surrogatepass"))
    except UnicodeDecodeError as exc:
        line, column = _position(text, exc.start)
        raise JsonSyntaxError("not UTF-8 text; save the session as UTF-8", line, column) from None
    except json.JSONDecodeError as exc:
        raise JsonSyntaxError(_reword(exc.msg), exc.lineno, exc.colno) from None
    except RecursionError:
        raise JsonSyntaxError("nested too deeply to read", 1, 1) from None


def _position(text: bytes, offset: int) -> tuple[int, int]:
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


def looks_like_json_lines(name: str, text: bytes) -> bool:
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


def iter_lines(text: bytes) -> Iterator[tuple[int, bytes, bool]]:
    """(line number, line, is the last line without a newline) for each non-blank line."""
    lines = text.split(b"\n")
    ends_open = not text.endswith(b"\n")
    last = len(lines)
    for number, line in enumerate(lines, start=1):
        if line.strip():
            yield number, line.rstrip(b"\r"), ends_open and number == last
