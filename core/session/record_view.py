"""What a problem's place points at: the loaded record, the raw record read back from the file, or an excerpt.

The Problems tab shows it under the list; `wsi validate FILE --show` prints it under each problem.

- A place inside a loaded entry or body (`/store/3/unit`, `line 4 /call`) shows that record.
- A record that was refused is read back from the file (the loader keeps nothing of it): a JSON
  Lines line is parsed on its own; a JSON Pointer is followed to the store or bodies record it falls
  in (a header part whole), parsing only that part: msgspec cuts the file without building it, since
  a whole parse of a 150 MB session takes seconds and ten times its size. A whole part over
  WHOLE_FILE_SHOWN (`/store` over caps.storeBytes) is shown as its records' sizes, not parsed.
- A spot in the file (`5:36`, where it stops being JSON) shows a few lines around it, with a caret.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from wsi_inspector.core.session.model import Body, Entry
from wsi_inspector.core.session.place import Place
from wsi_inspector.core.session.reading import JsonSyntaxError, LoadError, parse_json
from wsi_inspector.core.session.load import Session, file_text

EXCERPT_LINES = 3  # lines shown on each side of a spot
EXCERPT_WIDTH = 300  # a longer line (a minified file) is cut to this many characters around the spot
WHOLE_FILE_SHOWN = 16 * 1024 * 1024  # a problem about a missing part shows the whole file up to this size
SHOWN_CHARS = 2000  # `wsi validate --show` cuts a record's JSON here (--json gives it whole)
_RECORD_LISTS = ("store", "bodies")


@dataclass
class RecordView:
    """What to show for a place: a loaded record, a raw JSON value from the file, or a text excerpt."""

    title: str
    record: Entry | Body | None = None
    value: Any = None
    has_value: bool = False
    text: str | None = None


def record_value(record: Entry | Body) -> object:
    """A loaded record as shown: an entry's input, a body's code, result and keep."""
    if isinstance(record, Entry):
        return record.input
    return {"code": record.code, "result": record.result, "keep": record.keep}


def shown_json(view: RecordView) -> dict[str, object]:
    """The view as JSON (`wsi validate --show --json`): `title`, and `value` (a record) or `text` (an excerpt)."""
    out: dict[str, object] = {"title": view.title}
    if view.record is not None:
        out["value"] = record_value(view.record)
    elif view.has_value:
        out["value"] = view.value
    elif view.text is not None:
        out["text"] = view.text
    return out


def shown_text(view: RecordView, limit: int = SHOWN_CHARS) -> str:
    """The view as plain text (`wsi validate --show`): the title, then the excerpt or the value as one line of JSON."""
    if view.text is not None:
        return f"{view.title}\n{view.text}"
    if view.record is None and not view.has_value:
        return view.title
    value = record_value(view.record) if view.record is not None else view.value
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    if len(text) > limit:
        text = text[:limit] + f"… ({len(text):,} characters; --json shows it all)"
    return f"{view.title}\n{text}"


class RecordFinder:
    """Finds what places of one session point at; keeps the file's bytes and its cut parts between calls.

    Indexing the records and reading the file are done once per session, so each further place is a
    lookup (the Problems tab asks on every selection).
    """

    def __init__(self, session: Session):
        self.session = session
        self._records: dict[str, Entry | Body] | None = None
        self._data: bytes | bytearray | None = None
        self._members: dict[str, msgspec.Raw] | None = None
        self._items: dict[str, list[msgspec.Raw]] = {}
        self._document: Any = None

    def loaded_record(self, place: Place) -> Entry | Body | None:
        """The loaded entry or body a place is in (`/store/3/unit` → the entry at /store/3), or None."""
        record = place.record()
        if record is None:
            return None
        printed = str(record)
        guess = self._in_file_order(record)
        if guess is not None and (guess.where_text if isinstance(guess, Entry) else str(guess.where)) == printed:
            return guess  # a million-entry session opens without printing every entry's place
        if self._records is None:  # keyed by the printed place: the entries' places are made only when asked
            self._records = {e.where_text: e for e in self.session.entries}
            self._records.update((str(b.where), b) for b in self.session.bodies)
        return self._records.get(printed)

    def _in_file_order(self, record: Place) -> Entry | Body | None:
        """The record at `/store/N` or `/bodies/N` if the session keeps file order there (a guess to check)."""
        if record.line is not None or len(record.pointer) != 2 or not record.pointer[1].isdigit():
            return None
        records = self.session.entries if record.pointer[0] == "store" else self.session.bodies
        number = int(record.pointer[1])
        return records[number] if number < len(records) else None

    def view(self, place: Place) -> RecordView:
        """What `place` points at: the loaded record, else the raw record or an excerpt read back from the file."""
        record = self.loaded_record(place)
        if record is not None:
            kind = "entry" if isinstance(record, Entry) else "body"
            return RecordView(f"the {kind} {record.id} at {record.where} (loaded)", record=record)
        if place.name:
            return RecordView(f"{place}: no one record to show for this place")
        if self.session.path is None:
            return RecordView(f"{place}: the file is not on disk to read the record back from")
        try:
            data = self._file()
        except (LoadError, JsonSyntaxError) as exc:
            return RecordView(f"{place}: the file cannot be read again ({exc})")
        if place.is_spot:
            inside = f", in {place.pointer_text}" if place.pointer else ""
            return RecordView(f"line {place.line}, column {place.column} of the file{inside}: where it stops being readable",
                              text=excerpt(data, place.line or 1, place.column or 1))
        if place.line is not None:
            line = line_of(data, place.line)
            try:
                return RecordView(f"line {place.line} of the file (not loaded)", value=parse_json(line), has_value=True)
            except JsonSyntaxError:
                return RecordView(f"line {place.line} of the file (not loaded)", text=excerpt(data, place.line, 1))
        try:
            found, value = self._record_in_file(data, place.pointer)
        except JsonSyntaxError as exc:
            return RecordView(f"{place or '(the whole file)'}: the file is not JSON ({exc})")
        return RecordView(f"{found or '(the whole file)'} in the file (not loaded)", value=value, has_value=True)

    def _file(self) -> bytes | bytearray:
        if self._data is None:
            self._data = file_text(Path(self.session.path))  # type: ignore[arg-type]  # checked by view
        return self._data

    def _record_in_file(self, data: bytes | bytearray, tokens: tuple[str, ...]) -> tuple[Place, object]:
        """The record a pointer falls in, parsing only that record (see the module docstring)."""
        try:
            if self._members is None:
                self._members = msgspec.json.decode(data, type=dict[str, msgspec.Raw])
            members = self._members
            if (not tokens or tokens[0] not in members) and len(data) > WHOLE_FILE_SHOWN:
                return Place(), {name: f"… ({len(members[name]):,} bytes)" for name in members}  # the parts, not their values
            name = tokens[0] if tokens else ""
            if name not in members:
                raise msgspec.ValidationError  # a small file: shown whole below
            raw = members[name]
            if name in _RECORD_LISTS and len(tokens) > 1 and tokens[1].isdigit():
                items = self._record_list(name, raw)
                if int(tokens[1]) < len(items):  # a store or bodies record is shown whole, as record_at does
                    return Place.at(name, tokens[1]), parse_json(memoryview(items[int(tokens[1])]))
            if len(tokens) == 1 and len(raw) > WHOLE_FILE_SHOWN:  # a whole big part (`/store` over its cap): its sizes
                if name in _RECORD_LISTS:
                    return Place.at(name), [f"… ({len(item):,} bytes)" for item in self._record_list(name, raw)]
                return Place.at(name), f"… ({len(raw):,} bytes)"
            inside, value = record_at(parse_json(memoryview(raw)), tokens[1:])
            return Place.at(name).field(*inside.pointer), value
        except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
            pass
        if self._document is None:  # not an object of parts: the file is small or not a session
            self._document = parse_json(data)
        return record_at(self._document, tokens)

    def _record_list(self, name: str, raw: msgspec.Raw) -> list[msgspec.Raw]:
        """The store's or the bodies' records, cut apart but not parsed (kept for the next place)."""
        items = self._items.get(name)
        if items is None:
            items = self._items[name] = msgspec.json.decode(raw, type=list[msgspec.Raw])
        return items


def record_at(document: object, tokens: tuple[str, ...]) -> tuple[Place, object]:
    """The record a pointer falls in (`/store/3/unit` → `/store/3`), else its deepest existing part."""
    if tokens[:1] in (("store",), ("bodies",)) and len(tokens) > 2:
        tokens = tokens[:2]
    value, used = document, 0
    for token in tokens:
        if isinstance(value, dict) and token in value:
            value = value[token]
        elif isinstance(value, list) and token.isdigit() and int(token) < len(value):
            value = value[int(token)]
        else:
            break
        used += 1
    return Place(pointer=tokens[:used]), value


def _line_start(data: bytes | bytearray, number: int) -> int | None:
    """Where line `number` (1-based) starts, or None past the end of the file."""
    start = 0
    for _ in range(number - 1):  # find, not split: a split copies the whole file on every click
        start = data.find(b"\n", start) + 1
        if start == 0:
            return None
    return start


def line_of(data: bytes | bytearray, number: int) -> bytes | bytearray:
    """Line `number` (1-based) of the file, without its newline; empty past the end."""
    start = _line_start(data, number)
    if start is None:
        return b""
    end = data.find(b"\n", start)
    return data[start:] if end < 0 else data[start:end]


def excerpt(data: bytes | bytearray, line: int, column: int) -> str:
    """A few lines around `line` with a caret under `column` (1-based characters), for a syntax error.

    Only the shown part of each line is decoded, so a one-line 150 MB file costs no more than a short one.
    """
    out = []
    number = max(line - EXCERPT_LINES, 1)
    start = _line_start(data, number)
    while start is not None and number <= line + EXCERPT_LINES:
        end = data.find(b"\n", start)
        stop = len(data) if end < 0 else end
        reach = (column if number == line else 0) + EXCERPT_WIDTH  # characters that may be shown
        text = bytes(data[start : min(stop, start + 4 * reach + 4)]).decode("utf-8", "replace")  # 4: UTF-8's widest
        cut = stop - start > 4 * reach + 4
        if len(text) > EXCERPT_WIDTH or cut:  # one huge line (a minified file): show the part around the column
            left = max(column - EXCERPT_WIDTH // 2, 0) if number == line else 0
            text = ("…" if left else "") + text[left : left + EXCERPT_WIDTH] + "…"
            caret = column - left + (1 if left else 0)
        else:
            caret = column
        out.append(f"{number:>6} | {text}")
        if number == line:
            out.append("       | " + " " * max(caret - 1, 0) + "^")
        start = None if end < 0 else end + 1
        number += 1
    return "\n".join(out)
