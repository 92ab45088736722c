"""`wsi redact`'s work on files: read FILE, redact a copy (wsi_inspector.core.handoff.redact), check body B still fails, write OUT and its report.

FILE is only read. With a body B, the copy is checked the way `wsi reduce` checks a reduced file
(wsi_inspector.core.reduce.reduce: the same error name and message, or the same kind of difference from B's record),
where "the same message" is the original one with the copy's placeholders put in (the copy's B
prints placeholders where the original printed texts). When the copy does not fail that way, the
redactions that matter are found by delta debugging over them (each distinct text, and the move of
the coordinates): the fewest left as they were for B to fail the same way. Each is in `keptAsIs`.

The report beside OUT (`OUT.redaction.json`, format `worker-session-redaction/1`) says what kinds of
values changed and how many, the offset, and each value left as it was and why; it never holds an
original text (a text left as it was is named by where it first appears, not quoted).
"""
from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Sequence
from typing import Any, TypedDict

import orjson

from wsi_inspector.core.reduce.ddmin import ddmin
from wsi_inspector.core.reduce.reduce import Failure, NoFailure, Reducer, failure_of, run_envelope
from wsi_inspector.core.reduce.repro import Cut, cut_after, write_cut
from wsi_inspector.core.runner.envelope import EnvelopeError
from wsi_inspector.core.runner.host import Runner
from wsi_inspector.core.handoff.notes import NotesSidecar, redact_notes, session_notes
from wsi_inspector.core.files.input_file import read_input
from wsi_inspector.core.files.output_file import check_output, write_output
from wsi_inspector.core.session.reading import LoadError, decode, looks_like_json_lines, parse_json
from wsi_inspector.core.handoff.redact import Redaction, offset_for, records_of, redact_records, units_used
from wsi_inspector.core.jsrules.run_inputs import store_bytes, trim_store
from wsi_inspector.core.runner.envelope import dumps
from wsi_inspector.core.session.load import Session, load, load_bytes

REPORT_FORMAT = "worker-session-redaction/1"
GEOMETRY = "\0coordinates"  # the unit of ddmin that stands for moving every coordinate


@dataclass
class Source:
    """FILE as read: its form, its records (parsed afresh for each attempt), its bytes, lines left out."""

    name: str
    form: str  # "json" | "jsonl"
    text: bytes
    left_out: list[str] = field(default_factory=list)

    def records(self) -> tuple[object, list[tuple[str, dict[str, Any]]]]:
        """A fresh parse: (the document or list of records, its (kind, record) pairs)."""
        if self.form == "json":
            document = parse_json(self.text)
            return document, records_of(document, "json")
        records: list[tuple[str, dict[str, Any]]] = []
        for _number, line in enumerate(self.text.split(b"\n"), start=1):
            if not line.strip():
                continue
            try:
                record = orjson.loads(line)
            except orjson.JSONDecodeError:
                continue  # said once in `left_out` by read_source
            if not isinstance(record, dict):
                continue
            kind = "header" if not records else str(record.get("kind"))
            records.append((kind, record))
        return records, records


class RedactDocument(TypedDict):
    """`wsi redact --json` (SPEC 7): the copy written, texts replaced, points moved and by what offset, what was kept
    as it is, and whether the failure still reproduces in the copy (None: not tried)."""

    out: str
    texts: int
    coordinates: int
    offset: dict[str, list[float]]
    keptAsIs: list[dict[str, str]]
    reproduced: bool | None


@dataclass
class Outcome:
    """What `wsi redact` did: the --json document's fields and the report's."""

    out: Path
    redaction: Redaction
    offset: dict[str, list[float]]
    kept_as_is: list[dict[str, str]]
    reproduced: bool | None
    left_out: list[str]
    notes: int = 0
    adjusted: list[dict[str, Any]] = field(default_factory=list)

    def document(self) -> RedactDocument:
        """`{"out", "texts", "coordinates", "offset", "keptAsIs", "reproduced"}` (SPEC 7)."""
        r = self.redaction
        return {"out": str(self.out), "texts": sum(1 for t in r.numbers if t not in r.undone),
                "coordinates": r.counts.coordinates, "offset": self.offset, "keptAsIs": self.kept_as_is,
                "reproduced": self.reproduced}

    def report(self, source: str) -> dict[str, object]:
        """The report written beside OUT."""
        return {"format": REPORT_FORMAT, "from": Path(source).name, **self.document(),
                "kinds": self.redaction.counts.as_dict(), "leftOut": self.left_out, "notes": self.notes,
                "adjusted": self.adjusted}


def read_source(path: Path) -> Source:
    """FILE's text (gzip and BOM undone); LoadError when it cannot be read or is not JSON."""
    data = read_input(path)
    try:
        text = bytes(decode(data))
    except ValueError as exc:
        raise LoadError(f"{path}: {exc}") from None
    form = "jsonl" if looks_like_json_lines(path.name, text) else "json"
    source = Source(path.name, form, text)
    if form == "json":
        try:
            document = parse_json(text)
        except ValueError as exc:
            raise LoadError(f"{path}: not JSON ({exc}); run wsi validate {path} to see where") from None
        if not isinstance(document, dict):
            raise LoadError(f"{path}: the document is not an object; run wsi validate {path}")
    else:
        for number, line in enumerate(text.split(b"\n"), start=1):
            if line.strip():
                try:
                    orjson.loads(line)
                except orjson.JSONDecodeError:
                    source.left_out.append(f"{path.name}:{number}: not JSON; the line is not in the copy")
    return source


def default_redacted(file: str | Path) -> Path:
    """FILE's name without `.gz` and `.json`/`.jsonl`, plus `.redacted.json` (`.redacted.jsonl` for JSON Lines)."""
    path = Path(file)
    name = path.name
    lines = name.lower().removesuffix(".gz").endswith((".jsonl", ".ndjson"))
    for suffix in (".gz", ".jsonl", ".ndjson", ".json"):
        if name.lower().endswith(suffix):
            name = name[: -len(suffix)]
    return path.with_name(f"{name}.redacted.{'jsonl' if lines else 'json'}")


def report_path(out: Path) -> Path:
    """Where the redaction report goes: `OUT.redaction.json` beside OUT."""
    return out.with_name(out.name + ".redaction.json")


@dataclass
class Copy:
    """A redacted copy in memory: FILE's document (or JSON Lines records) after redaction, and its cap."""

    form: str
    document: object
    records: list[tuple[str, dict[str, Any]]]
    cap: int | None = None

    @property
    def _header(self) -> dict[str, Any] | None:
        return self.records[0][1] if self.records and self.records[0][0] == "header" else None

    def set_cap(self, cap: int) -> None:
        """Set the copy's `caps.storeBytes` (it has one: the original's)."""
        caps = self._header.get("caps") if self._header is not None else None
        if isinstance(caps, dict):
            caps["storeBytes"] = cap
            self.cap = cap

    def set_notes(self, notes: NotesSidecar) -> None:
        """The notes document the copy carries (replacing FILE's own)."""
        if self._header is not None:
            self._header["notes"] = notes

    def data(self) -> bytes:
        """The copy as the bytes of a session file of FILE's form."""
        if self.form == "json":
            return dumps(self.document).encode("utf-8", "surrogatepass") + b"\n"
        return b"".join(dumps(record).encode("utf-8", "surrogatepass") + b"\n" for _kind, record in self.records)


def redacted_copy(source: Source, redaction: Redaction) -> Copy:
    """The copy with `redaction`'s choices (a fresh parse of FILE each time)."""
    document, records = source.records()
    redact_records(records, redaction, source.form)
    return Copy(source.form, document, records)


def fitted_copy(source: Source, redaction: Redaction, original: Session | None, at: str | None) -> Copy:
    """The copy with `caps.storeBytes` fitted to it (when the session sets one).

    Placeholders and moved coordinates change entries' sizes, so the same cap would trim a different
    store: the copy's cap is the size of exactly the entries the original cap keeps at B (at the end
    of the session without B), so B is handed the same entries.
    """
    copy = redacted_copy(source, redaction)
    if original is None or original.caps.store_bytes is None:
        return copy
    loaded = load_bytes(copy.data(), "copy.jsonl" if source.form == "jsonl" else "copy.json")
    try:
        before, after = original.state_at(at).store, loaded.state_at(at).store
    except KeyError:
        return copy
    _tail, fell = trim_store(before, original.caps.store_bytes)
    copy.set_cap(store_bytes(after[fell:]) if len(after) == len(before) else original.caps.store_bytes)
    return copy


def plan(source: Source, keep_keys: frozenset[str], undone: frozenset[str] = frozenset(), move: bool = True) -> Redaction:
    """A Redaction for FILE: its offset, the keys kept, the texts and the coordinates left as they were."""
    return Redaction(offset_m=offset_for(source.text), keep_keys=keep_keys, undone=undone, move=move)


def redact_file(file: str | Path, out: str | Path, body: str | None = None, keep_keys: frozenset[str] = frozenset(),
                timeout_s: float = 10.0, note_texts: list[str] = (),  # type: ignore[assignment]
                inputs: Sequence[str | Path] = ()) -> Outcome:
    """Write FILE's redacted copy to OUT and its report beside it; with `body`, check it still fails the same way.

    LoadError when FILE cannot be read; wsi_inspector.core.reduce.reduce.NoFailure when `body` does not fail in FILE;
    KeyError when there is no such body; RedactError for code the lexer cannot read back; OSError
    when OUT cannot be written (checked before any work: never FILE, nor one of `inputs`, wsi_inspector.core.files.output_file).
    """
    file, out = Path(file), Path(out)
    readers = [file, *inputs]
    check_output(out, readers)
    check_output(report_path(out), readers)
    source = read_source(file)
    redaction = plan(source, keep_keys)
    original = load(file)
    kept_as_is = [{"where": f"the values of {key}", "why": "--keep-text asked to keep them"} for key in sorted(keep_keys)]
    reproduced: bool | None = None
    if body is not None:
        reproduced, redaction, copy, found = _keep_failure(original, source, keep_keys, body, timeout_s)
        kept_as_is += found
    else:
        copy = fitted_copy(source, redaction, original, None)
    notes = session_notes(file, original)
    if notes.notes:  # the copy carries every note of FILE, their texts redacted as the copy's
        for text in note_texts:  # texts of a larger session the copy was cut from, which a note may name
            if not redaction.is_kept(text):
                redaction.placeholder(text, "/notes")
        copy.set_notes(redact_notes(notes, redaction.in_message).document())
    write_output(out, copy.data(), readers)
    outcome = Outcome(out, redaction, redaction.offsets(units_used(copy.records)), kept_as_is, reproduced,
                      source.left_out, len(notes.notes))
    if copy.cap is not None and copy.cap != original.caps.store_bytes:
        outcome.adjusted.append({"where": "/caps/storeBytes", "from": original.caps.store_bytes, "to": copy.cap,
                                 "why": "the copy's entries have other sizes; this cap keeps the same entries"})
    write_output(report_path(out), orjson.dumps(outcome.report(str(file)), option=orjson.OPT_INDENT_2) + b"\n", readers)
    return outcome


HANDLE_ID = re.compile(r"\bh\d+\.[0-9a-f]{6,}")


def _without_handles(failure: Failure | None) -> Failure | None:
    # A handle's id is fresh in every run; two runs failing on one handle name it differently.
    return None if failure is None else Failure(failure.kind, failure.name, HANDLE_ID.sub("h…", failure.message))


def same_failure(session: Session, body: str, mode: str, expected: Failure, runner: Runner, timeout_s: float) -> bool:
    """True when body B, run in `session` as wsi_inspector.core.reduce.reduce runs it (`mode`), fails as `expected` says."""
    cut = cut_after(session, body)
    try:
        result = runner.run(run_envelope(session, cut, mode, timeout_s))
    except EnvelopeError:
        return False
    return _without_handles(failure_of(session, cut, result, mode)) == _without_handles(expected)


def _keep_failure(original: Session, source: Source, keep_keys: frozenset[str], body: str,
                  timeout_s: float) -> tuple[bool, Redaction, Copy, list[dict[str, str]]]:
    """Check B fails the same way in the copy; if not, leave the fewest redactions undone for it to."""
    runner = Runner(size=1)
    try:
        reducer = Reducer(original, body, timeout_s=timeout_s, runner=runner)
        failure = reducer.find_failure()  # NoFailure: nothing to keep
        with tempfile.TemporaryDirectory(prefix="wsi-redact-") as folder:
            def attempt(undone: frozenset[str], move: bool) -> tuple[bool, Redaction, Copy]:
                redaction = plan(source, keep_keys, undone, move)
                copy = fitted_copy(source, redaction, original, body)
                path = Path(folder) / ("copy.jsonl" if source.form == "jsonl" else "copy.json")
                path.write_bytes(copy.data())
                session = load(path)
                if session.errors or session.body(body) is None:
                    return False, redaction, copy
                expected = Failure(failure.kind, failure.name, redaction.in_message(failure.message))
                return same_failure(session, body, reducer.mode, expected, runner, timeout_s), redaction, copy

            ok, redaction, copy = attempt(frozenset(), True)
            if ok:
                return True, redaction, copy, []
            units = [*redaction.numbers, GEOMETRY]
            if not attempt(frozenset(units), False)[0]:
                return False, redaction, copy, [{"where": body, "why": "body fails differently in the copy even with "
                                                 "nothing redacted; the copy is fully redacted and does not reproduce"}]

            def first_passing(candidates: list[list[str]]) -> int | None:
                for index, candidate in enumerate(candidates):
                    if attempt(frozenset(candidate), GEOMETRY not in candidate)[0]:
                        return index
                return None

            needed = ddmin(units, first_passing)
            ok, redaction, copy = attempt(frozenset(needed), GEOMETRY not in needed)
            found = []
            for unit in needed:
                if unit == GEOMETRY:
                    found.append({"where": "every coordinate", "why": f"body {body} fails differently when they move "
                                  "(its code or a recorded value ties it to where they are)"})
                else:
                    found.append({"where": redaction.first_seen.get(unit, "?"),
                                  "why": f"this text (text-{redaction.numbers[unit]}, everywhere it appears) reaches "
                                  f"body {body}'s failure: replaced, the body fails differently"})
            return ok, redaction, copy, found
    finally:
        runner.close()


def redact_cut(cut: Cut, out: str | Path, timeout_s: float = 10.0, inputs: Sequence[str | Path] = ()) -> Outcome:
    """Write `cut` (a repro or a reduced cut) to OUT redacted; B is checked when it fails in the cut.

    The cut goes to a temporary file first (never beside OUT), so OUT is the only file left with
    the data, and it is redacted from there with its notes.
    """
    out = Path(out)
    texts = source_texts(cut.source.path) if cut.source.path is not None else []
    with tempfile.TemporaryDirectory(prefix="wsi-redact-") as folder:
        whole = write_cut(cut, Path(folder) / out.name)
        try:
            return redact_file(whole, out, str(cut.body.id), timeout_s=timeout_s, note_texts=texts, inputs=inputs)
        except NoFailure:  # a repro of a body that does not fail: nothing to keep, redact it all
            return redact_file(whole, out, timeout_s=timeout_s, note_texts=texts, inputs=inputs)


def source_texts(path: Path) -> list[str]:
    """Every free text of the session at `path` (a note carried into a cut of it may name one the cut dropped)."""
    try:
        source = read_source(path)
    except LoadError:
        return []
    redaction = plan(source, frozenset())
    redacted_copy(source, redaction)
    return list(redaction.numbers)
