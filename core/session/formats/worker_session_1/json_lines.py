"""worker-session/1's JSON Lines form (SPEC 2.2): a header line, then one record a line, read one by one.

`read_record` reads one record line (after the header) as the loader reads it and hands back the
item; `LineReader.read_line` adds each line's item to the session, and the loader feeds it every
line. The reader stays on the session (`session.line_reader`) for lines appended later.
"""
from __future__ import annotations

from array import array
from typing import TYPE_CHECKING, Any

from wsi_inspector.core.session.formats.worker_session_1.header import HEADER_PARTS, read_header
from wsi_inspector.core.session.formats.worker_session_1.json_form import Unmeasured, held_entry, measured_entry
from wsi_inspector.core.session.model import KeptSnapshot, Problem, TimelineItem
from wsi_inspector.core.session.place import Place
from wsi_inspector.core.session.reading import JsonSyntaxError, parse_json
from wsi_inspector.core.session.records import RecordChecker
from wsi_inspector.core.session.store_scan import Lines, scan_record

if TYPE_CHECKING:
    from wsi_inspector.core.session.load import Session


LineAt = tuple[Lines, int, int]  # a line where it lies in the loaded text: the text's Lines, start, stop
INCOMPLETE = "the last line is incomplete (the file may still be being written); everything before it loaded"


def read_json_lines(session: Session, text: bytes | bytearray) -> None:
    """Read every line of a JSON Lines session; the reader stays on the session for lines added later."""
    reader = LineReader(session)
    session.line_reader = reader
    lines = Lines(text)  # each line scanned and held where it lies in `text`
    view = lines.view
    numbers, starts, stops, whole_lines = _line_spans(text)
    lines.scan_ahead(starts, stops)
    last = len(numbers) - 1
    for index, number in enumerate(numbers):
        start, stop = starts[index], stops[index]
        # Only the last line can lack its newline: it is then still being written.
        reader.read_line(number, view[start:stop], index == last and number > whole_lines, (lines, start, stop))
    reader.finish()
    # Where the whole lines end, for following the file (wsi_inspector.core.session.growing).
    reader.whole_lines, reader.whole_end = whole_lines, text.rfind(b"\n") + 1


def _line_spans(text: bytes | bytearray) -> tuple[array[int], array[int], array[int], int]:
    """The number, start and stop of each line of `text` that is not blank, without its trailing CRs, and how
    many lines end with a newline. Offsets, not copies (the entries keep their lines where they lie, and
    copies of them all would hold the file twice), in arrays: 24 bytes a line, where tuples took 180."""
    numbers, starts, stops = array("q"), array("q"), array("q")
    find, size = text.find, len(text)
    start = number = whole = 0
    while start < size:
        end = find(b"\n", start)
        number += 1
        if end < 0:
            end = size
        else:
            whole = number
        stop = end
        while stop > start and text[stop - 1] == 13:  # \r
            stop -= 1
        if stop > start and (text[start] == 123 or text[start:stop].strip()):  # {: the common case, no copy
            numbers.append(number)
            starts.append(start)
            stops.append(stop)
        start = end + 1
    return numbers, starts, stops, whole


class LineReader:
    """Reads JSON Lines records into a session one at a time, remembering the header and the ids seen."""

    def __init__(self, session: Session):
        self.session = session
        self.checker = RecordChecker(session.problems)
        self.header_seen = False
        self.whole_lines = 0  # once all is read: how many lines ended with a newline,
        self.whole_end = 0  # and the byte (of the text, after any BOM) just past the last of them

    def read_line(self, number: int, line: bytes | memoryview, open_end: bool = False, at: LineAt | None = None) -> None:
        """Read line `number` (its bytes, without the newline) into the session; `open_end`: no newline yet;
        `at`: where the line lies in the loaded text (an entry then holds it there)."""
        session = self.session
        record: Any = None
        if open_end or not self.header_seen:  # the record's own place is made by read_record
            where = Place.record_line(number)
            try:
                record = parse_json(line)
            except JsonSyntaxError as exc:
                if open_end:
                    session.problems.append(Problem("warning", where, INCOMPLETE))
                else:
                    session.problems.append(_line_error(number, exc))
                return
        if not self.header_seen and isinstance(record, dict):
            self.header_seen = True
            if "kind" in record:
                session.problems.append(Problem(
                    "error", where, "line 1 must be the header (format, session, …), not a record"))
            else:
                read_header(session, record, where)
                for part in RECORD_PARTS:
                    if part in record:
                        session.problems.append(Problem("warning", where.field(part), HEADER_RECORDS.format(part=part)))
                session.extra = {k: v for k, v in record.items() if k not in HEADER_PARTS}
                return
        item = read_record(session, self.checker, number, line, record, at)
        if item is not None:
            session.timeline.append(item)

    def finish(self) -> None:
        """Say so when the file had no line at all."""
        if not self.header_seen:
            self.session.problems.append(Problem("error", Place.record_line(1), "empty file: not a session"))


def read_record(session: Session, checker: RecordChecker, number: int, line: bytes | memoryview,
                record: object = None, at: LineAt | None = None) -> TimelineItem | None:
    """One JSON Lines record after the header, read as the loader reads it: the item, or None (its problem listed).

    `record` is the line already parsed, when it is; `at`, where `line` lies in the loaded text (the
    Lines, start, stop), and the entry holds its text there; the item is not added to the session.
    """
    if record is None:
        # an entry measured in C, when it can be (wsi_inspector.core.session.store_scan)
        if at is None:
            scanned, view = scan_record(line), memoryview(line)
        else:
            scanned, view = at[0].record(at[1], at[2]), at[0].view
        if scanned is not None:
            entry = measured_entry(checker, scanned, view, number, kind="entry")  # its Place is made when asked
            if not isinstance(entry, Unmeasured):
                return entry
        try:
            record = parse_json(line)
        except JsonSyntaxError as exc:
            session.problems.append(_line_error(number, exc))
            return None
    where = Place.record_line(number)
    if not isinstance(record, dict):
        session.problems.append(Problem("error", where, "each line must be a JSON object"))
        return None
    kind = record.get("kind")
    if kind == "entry":
        entry = checker.entry(record, number, skip="kind")
        return None if entry is None else held_entry(entry, line if at is None else at[0].text(at[1], at[2]))
    item: TimelineItem | None
    if kind == "body":
        item = checker.body(record, where, skip="kind")
    elif kind == "kept":
        kept = record.get("kept")
        if isinstance(kept, dict):
            item = KeptSnapshot(kept, where)
        else:
            session.problems.append(Problem("error", where.field("kept"), "kept must be an object of named values"))
            item = None
    elif "kind" not in record:
        session.problems.append(Problem(
            "error", where, 'a record without kind: each line after the header starts {"kind": "entry", …}, '
            '"body" or "kept"'))
        item = None
    else:
        session.problems.append(Problem(
            "error", where.field("kind"), f"kind {kind!r} is not entry, body or kept"))
        item = None
    return item


RECORD_PARTS = ("store", "bodies", "kept")
HEADER_RECORDS = ('the header holds {part}, which JSON Lines does not read there; ignored: in JSON Lines each '
                  'record is a line of its own ({{"kind": "entry", …}}, {{"kind": "body", …}}, {{"kind": "kept", …}})')
LINE_ENDS_EARLY = "this line ends before its JSON does (a value or a closing bracket is missing); each record is one whole line"


def _line_error(number: int, exc: JsonSyntaxError) -> Problem:
    """A line that is not JSON, placed at its spot; one cut short says so of the line, not of the file."""
    return Problem("error", Place.spot(number, exc.column), LINE_ENDS_EARLY if exc.ends_early else str(exc))
