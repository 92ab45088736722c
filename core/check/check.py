"""`wsi check`'s work for one session, and the walk that finds every session under a set of paths.

`check_file(path, runner, options)` reads one session (with a bound on its decompressed size, so
a gzip bomb costs at most that), validates it, replays every recorded body on a warm runner, and
lists the trim warnings at the session's own `caps.storeBytes`. It never raises for anything in
the file: every outcome is a `SessionReport` document (plain JSON, so it crosses process and
cluster boundaries unchanged).

A session is **clean** when no finding fails it (`fails_session`): no load error, every body replays
the same, and at its cap no canvas edit falls and no module's `inputs.last()` entry falls (what
`wsi trim FILE` warns about at the end of the session; as the store only grows, anything that falls
at an earlier body also falls there). The loader's other warnings are reported, not failed on.

Each code has one severity wherever it is shown (plain, `--json`, JUnit, the window): `SEVERITY`
below, else the loader's own. The two trim codes are warnings, as `wsi trim` and the Trim tab call
them, and still fail a session: the editor would hand a body nothing there.

Every finding has a `code`; `--where problem=CODE` selects by it:

| code | what |
| --- | --- |
| `syntax` `not-utf8` `bad-gzip` `format` `missing-field` `bad-call` `bad-unit` `duplicate-id` `load-error` | load errors (records not loaded) |
| `edit-of` `edit-without-base` `keep-refused` `store-over-cap` `partial-line` `load-warning` | load warnings (not failed on) |
| `replay-call` `replay-input` `replay-missing-call` `replay-extra-call` `replay-ok` `replay-returned` | a body replays differently: SPEC 6 replay's `firstDifference.kind` |
| `edit-falls` `last-falls` | warnings that fail the session: at its cap, a canvas edit falls / a module's `inputs.last()` entry falls |
| `retyped` | a body typed again a value it could have read (SPEC 7; a warning, from the reads of its replay) |
| `unreadable` `too-large` `budget` `timeout` `crashed` `internal` | the session could not be checked (whole or in part) |
"""
from __future__ import annotations

import os
import re
import time
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict, cast

from wsi_inspector.core.session.model import Id, Problem
from wsi_inspector.core.session.place import Place
from wsi_inspector.core.files.input_file import TooBig, read_input
from wsi_inspector.core.text.plain_text import shown
from wsi_inspector.core.session.reading import BOM, GZIP_MAGIC, JsonSyntaxError, LoadError
from wsi_inspector.core.session.load import Session, load_bytes
from wsi_inspector.core.trim.preview import StoreIndex

SESSION_SUFFIXES = (".json", ".jsonl", ".ndjson")
DEFAULT_MAX_BYTES = 1024**3  # a 1,000,000-entry session is ~150 MB; a bomb stops here

if TYPE_CHECKING:
    from wsi_inspector.core.check.baseline import Baseline
    from wsi_inspector.core.handoff.notes import NoteLine


class Finding(TypedDict):
    """One finding of a session's report: its code, severity, place and words, and the entry, call, body or
    module it is about (as its code has them)."""

    code: str
    severity: str  # "error" | "warning"
    where: str
    message: str
    entry: NotRequired[Id]
    call: NotRequired[str]
    body: NotRequired[Id]
    module: NotRequired[str]
    keptFrom: NotRequired[int]


class ReplayedBody(TypedDict):
    """One body of a session report's `replay`: the same or not, ok, how long; `same` None when not replayed."""

    body: Id
    same: bool | None
    ok: NotRequired[bool]
    ms: NotRequired[float]
    kind: NotRequired[str]
    message: NotRequired[str]
    error: NotRequired[dict[str, Any]]


class SessionReport(TypedDict):
    """One session of `wsi check --json`'s `sessions`: what it holds, what its replay gave, its findings.
    Plain JSON: it crosses process and cluster boundaries as it is."""

    path: str
    id: Any  # the session's id as its header gives it (a string in a valid session), None before it is read
    title: Any
    form: str | None
    entries: int
    bodies: int
    edits: int
    replayed: int
    same: int
    differs: int
    fails: int
    errors: int
    warnings: int
    cap: int | None
    fell: int
    lostEdits: int
    calls: list[str]
    editedCalls: list[str]
    lostEditCalls: list[str]
    replay: list[ReplayedBody]
    findings: list[Finding]
    clean: bool
    seconds: float
    notes: NotRequired[list[NoteLine]]
    matched: NotRequired[bool]
    interrupted: NotRequired[bool]
    baseline: NotRequired[Baseline]


@dataclass(frozen=True, slots=True)
class CheckOptions:
    """How each session is checked: per-body timeout, per-session time budget, size bound."""

    timeout_s: float = 10.0  # one body's replay
    budget_s: float = 600.0  # one session's replays: bodies after it are reported as not replayed
    max_bytes: int = DEFAULT_MAX_BYTES  # the decompressed session, above which it is refused

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


# --- the corpus ------------------------------------------------------------------------------------

SIDECAR_SUFFIXES = (".notes.json", ".redaction.json")  # beside a session, never one (wsi_inspector.core.handoff.notes, wsi_inspector.core.handoff.redact_file)


def is_session_name(name: str) -> bool:
    """A file name in any session form: .json, .jsonl, .ndjson, each optionally .gz."""
    lowered = name.lower().removesuffix(".gz")
    return lowered.endswith(SESSION_SUFFIXES) and not lowered.endswith(SIDECAR_SUFFIXES)


def find_sessions(paths: Iterable[str | Path]) -> Iterator[Path]:
    """Every session file under `paths`: a file as given, a folder walked (sorted, links not followed)."""
    seen: set[Path] = set()
    for given in paths:
        path = Path(given)
        if not path.is_dir():
            if path not in seen:
                seen.add(path)
                yield path
            continue
        # os.walk keeps its own stack (no recursion on the user's tree) and does not follow links,
        # so a link back up the tree cannot loop. A folder it cannot list is yielded too, so that
        # its report says so instead of its sessions going missing without a word.
        unlistable: list[OSError] = []
        for folder, subfolders, files in os.walk(path, onerror=unlistable.append):
            yield from _unlistable(unlistable)
            subfolders.sort()
            for name in sorted(files):
                found = Path(folder) / name
                if is_session_name(name) and found not in seen:
                    seen.add(found)
                    yield found
        yield from _unlistable(unlistable)


def _unlistable(errors: list[OSError]) -> Iterator[Path]:
    while errors:
        failed = errors.pop(0)
        if failed.filename:
            yield Path(failed.filename)


# --- reading, bounded --------------------------------------------------------------------------------

class TooLarge(Exception):
    """The session (decompressed) is larger than the bound."""


class BadGzip(Exception):
    """A gzip stream that is damaged or ends early."""


def read_raw(path: Path, max_bytes: int) -> bytes | bytearray:
    """The file's bytes as they are on disk (wsi_inspector.core.files.input_file: a FIFO or a device is refused at once, never
    waited on); TooLarge past `max_bytes`, LoadError when it cannot be read, JsonSyntaxError for NUL bytes
    or UTF-16/32 text."""
    try:
        return read_input(path, limit=max_bytes)
    except TooBig:
        raise TooLarge(f"the file is over {max_bytes:,} bytes") from None


def unpack(data: bytes | bytearray, max_bytes: int) -> bytes | bytearray:
    """`data` gunzipped (when it is gzip) as a stream that stops past `max_bytes` (TooLarge)."""
    if not data.startswith(GZIP_MAGIC):
        return data
    out = bytearray()
    inflate = zlib.decompressobj(wbits=31)
    pending = data
    while pending:
        try:
            out += inflate.decompress(pending, max_bytes + 1 - len(out))
        except zlib.error as exc:
            raise BadGzip(f"not a valid gzip file ({exc})") from None
        if len(out) > max_bytes:
            raise TooLarge(f"it unpacks to over {max_bytes:,} bytes: a gzip bomb, or a session larger than --max-size")
        if not inflate.eof:
            pending = inflate.unconsumed_tail
            continue
        pending = inflate.unused_data
        if not pending.startswith(GZIP_MAGIC):
            break  # trailing bytes after the last member
        inflate = zlib.decompressobj(wbits=31)  # another member: gzip.decompress reads them all, so do we
    if not inflate.eof:
        raise BadGzip("not a valid gzip file (it ends early); it may be truncated")
    return bytes(out)


# --- problem codes -----------------------------------------------------------------------------------

_PROBLEM_CODES: list[tuple[re.Pattern[str], str]] = [(re.compile(pattern), code) for pattern, code in (
    (r"not a valid gzip", "bad-gzip"),
    (r"not UTF-8", "not-utf8"),
    (r"^(missing: not a session|format )", "format"),
    (r"^duplicate (entry|body) id", "duplicate-id"),
    (r"is not three identifiers", "bad-call"),
    (r"^unit .* is not one of", "bad-unit"),
    (r"^(entry without|an entry must be|body without|a body must be|missing)", "missing-field"),
    (r"^editOf ", "edit-of"),
    (r"has no earlier model call", "edit-without-base"),
    (r"^keep refused", "keep-refused"),
    (r"over caps\.storeBytes", "store-over-cap"),
    (r"last line is incomplete", "partial-line"),
)]


def problem_code(problem: Problem) -> str:
    """The short code of a loader problem (see the module's table); `load-error`/`load-warning` otherwise."""
    for pattern, code in _PROBLEM_CODES:
        if pattern.search(problem.message):
            return code
    if problem.place.is_spot:
        return "syntax"
    return f"load-{problem.severity}"


# --- one session -------------------------------------------------------------------------------------

# The severity of every code that is not the loader's (a loader code keeps its problem's severity).
SEVERITY = {
    "edit-falls": "warning", "last-falls": "warning",
    **{f"replay-{kind}": "error" for kind in ("call", "input", "missing-call", "extra-call", "ok", "returned")},
    **dict.fromkeys(("unreadable", "too-large", "budget", "timeout", "crashed", "internal"), "error"),
}
FAILING_WARNINGS = frozenset({"edit-falls", "last-falls"})


def finding(code: str, severity: str, where: str | Place, message: str, **extra: Any) -> Finding:
    """One finding of a session's report (its place printed); a code of SEVERITY always has that severity."""
    return cast(Finding, {"code": code, "severity": SEVERITY.get(code, severity), "where": str(where), "message": message, **extra})


def fails_session(found: Mapping[str, object]) -> bool:
    """True for a finding that makes its session not clean: an error, or a trim warning."""
    return found["severity"] == "error" or found["code"] in FAILING_WARNINGS


def empty_report(path: str) -> SessionReport:
    """The report of a session before anything is known about it."""
    return {
        "path": path, "id": None, "title": None, "form": None,
        "entries": 0, "bodies": 0, "edits": 0, "replayed": 0, "same": 0, "differs": 0, "fails": 0,
        "errors": 0, "warnings": 0, "cap": None, "fell": 0, "lostEdits": 0,
        "calls": [], "editedCalls": [], "lostEditCalls": [],
        "replay": [], "findings": [], "clean": False, "seconds": 0.0,
    }


def failed_report(path: str, code: str, message: str, where: str = "") -> SessionReport:
    """The report of a session that could not be checked at all (unreadable, too large, crashed …)."""
    report = empty_report(path)
    report["findings"].append(finding(code, "error", where, message))
    report["errors"] = 1
    return finish(report)


def finish(report: SessionReport) -> SessionReport:
    """Set `clean` from the findings."""
    report["clean"] = not any(fails_session(f) for f in report["findings"])
    return report


def check_file(path: str | Path, runner: Any, options: CheckOptions = CheckOptions(),
               where: Any = None, should_stop: Callable[[], bool] | None = None) -> SessionReport:
    """Check the session file at `path` (see the module docstring); never raises for the file's content."""
    raw = read_or_report(Path(path), options.max_bytes)
    if isinstance(raw, dict):
        return raw
    return check_raw(raw, str(path), runner, options, where, should_stop)


def read_or_report(path: Path, max_bytes: int) -> bytes | bytearray | SessionReport:
    """The file's bytes for a check (local worker or cluster client), or the report of why it cannot be checked."""
    if path.is_dir():
        return failed_report(str(path), "unreadable", "a folder that cannot be listed: its sessions were not checked")
    try:
        return read_raw(path, max_bytes)
    except TooLarge as exc:
        return failed_report(str(path), "too-large", f"not checked: {exc}; raise --max-size to check it")
    except LoadError as exc:  # a FIFO, a device, unreadable: said at once, never waited on
        return failed_report(str(path), "unreadable", str(exc).removeprefix(f"{shown(str(path))}: "))
    except JsonSyntaxError as exc:  # NUL bytes, UTF-16/32 text: refused from the first bytes
        return failed_report(str(path), "not-utf8" if "UTF-" in str(exc) else "syntax", str(exc), str(exc.where))
    except OSError as exc:
        return failed_report(str(path), "unreadable", f"cannot be read: {exc.strerror or exc}")


def check_raw(raw: bytes | bytearray, path: str, runner: Any, options: CheckOptions = CheckOptions(),
              where: Any = None, should_stop: Callable[[], bool] | None = None) -> SessionReport:
    """Check one session given the file's bytes as on disk (gzip unpacked here, within the bound)."""
    try:
        data = unpack(raw, options.max_bytes)
    except TooLarge as exc:
        return failed_report(path, "too-large", f"not checked: {exc}; raise --max-size to check it")
    except BadGzip as exc:
        return failed_report(path, "bad-gzip", f"{exc}; nothing loaded", "1:1")
    del raw
    if data.startswith(GZIP_MAGIC):  # the loader would unpack this layer too, without a bound
        return failed_report(path, "bad-gzip", "gzip inside gzip: not a session file; unpack it once and check that", "1:1")
    return check_bytes(data, path, runner, options, where, should_stop)


def check_bytes(data: bytes | bytearray, path: str, runner: Any, options: CheckOptions = CheckOptions(),
                where: Any = None, should_stop: Callable[[], bool] | None = None) -> SessionReport:
    """Check one session given its (decompressed) bytes; `path` names it in the report.

    With `where` (a `wsi_inspector.core.check.where.Where`), a session that the load alone shows cannot match is
    not replayed, and its report says `"matched": false`.
    """
    started = time.monotonic()
    report = empty_report(path)
    try:
        if data.startswith(BOM):
            data = data[len(BOM):]
        session = load_bytes(data, Path(path).name, Path(path))
        del data
        _describe(report, session)
        _notes(report, path, session)
        _trim_findings(report, session)
        if where is not None and not where.may_match(report):
            report["matched"] = False
            return finish(report)
        if session.is_session:
            _replay(report, session, runner, options, started, should_stop)
        if where is not None:
            report["matched"] = where.matches(finish(report))
    except MemoryError:
        report["findings"].append(finding("too-large", "error", "", "ran out of memory while checking it; "
                                          "check it alone (wsi check FILE --jobs 1) or on a larger machine"))
    except Exception as exc:  # a bug of ours must cost this session only, and say so
        report["findings"].append(finding("internal", "error", "", f"the check failed: {type(exc).__name__}: {exc} "
                                          "(please report it with the file)"))
    report["seconds"] = round(time.monotonic() - started, 4)
    return finish(report)


def _notes(report: SessionReport, path: str, session: Session) -> None:
    """The session's notes (`notes`: those it carries, then its sidecar's), each problem a `notes-file` warning."""
    from wsi_inspector.core.handoff.notes import session_notes

    notes = session_notes(path, session)
    report["notes"] = [note.as_json() for note in notes.notes]
    for problem in notes.problems:
        report["findings"].append(finding("notes-file", "warning", "", problem))


def _describe(report: SessionReport, session: Session) -> None:
    report.update({
        "id": session.info.get("id"), "title": session.info.get("title"), "form": session.form,
        "entries": len(session.entries), "bodies": len(session.bodies),
        "errors": len(session.errors), "warnings": len(session.warnings),
    })
    calls: dict[str, None] = {}
    edited: dict[str, None] = {}
    edits = 0
    for entry in session.entries:
        calls[entry.call] = None
        if entry.applied:
            edits += 1
            edited[entry.call] = None
    report.update({"edits": edits, "calls": list(calls), "editedCalls": list(edited)})
    for problem in session.problems:
        report["findings"].append(finding(problem_code(problem), problem.severity, problem.where, problem.message))


def _trim_findings(report: SessionReport, session: Session) -> None:
    """The trim warnings at the session's cap, at the end of the session (as `wsi trim FILE` gives them)."""
    cap = session.caps.store_bytes
    if cap is None or not session.entries:
        return
    preview = StoreIndex(session.entries).preview()
    summary = preview.summary(cap)
    lost = preview.fallen_edits(cap)
    report.update({"cap": cap, "fell": summary.fell, "lostEdits": summary.edits_fallen,
                   "lostEditCalls": list(dict.fromkeys(f.entry.call for f in lost))})
    # The Trim view's own sentences, in its order: one per listed edit, a count of the rest, one per module.
    words = summary.warnings()
    listed = summary.fallen_edits
    for i, (edit, kept_from) in enumerate(listed):
        report["findings"].append(finding(
            "edit-falls", "warning", edit.where, words[i] if i < len(words) else f"canvas edit {edit.id} falls",
            entry=edit.id, call=edit.call, keptFrom=kept_from))
    if summary.edits_fallen > len(listed):
        report["findings"].append(finding(
            "edit-falls", "warning", "/store" if session.form == "json" else "store",
            f"{summary.edits_fallen - len(listed):,} older canvas edits fall as well at the cap {cap:,} B"))
    changes = summary.last_changes
    tail: Sequence[str | None] = words[len(words) - len(changes):] if len(words) >= len(changes) else []
    for change, text in zip(changes, tail or [None] * len(changes)):
        report["findings"].append(finding(
            "last-falls", "warning", change.entry.where, text or change.words(),
            entry=change.entry.id, call=change.entry.call, module=change.module, keptFrom=change.kept_from))


def _replay(report: SessionReport, session: Session, runner: Any, options: CheckOptions, started: float,
            should_stop: Callable[[], bool] | None) -> None:
    from wsi_inspector.core.runner.replay import replay_body  # the runner (msgpack, envelopes) only where bodies run

    deadline = started + options.budget_s
    run_options = {"timeout_s": max(0.1, min(options.timeout_s, 3600))}
    for number, body in enumerate(session.bodies):
        stopped = should_stop is not None and should_stop()
        if stopped or time.monotonic() > deadline:
            left = session.bodies[number:]
            report["replay"].extend({"body": b.id, "same": None} for b in left)
            if stopped:
                report["interrupted"] = True
            else:
                report["findings"].append(finding(
                    "budget", "error", body.where,
                    f"{len(left):,} bod{'y' if len(left) == 1 else 'ies'} from {body.id} on not replayed: the "
                    f"session's time budget of {options.budget_s:g} s was used up; raise --session-budget"))
            break
        verdict, result = replay_body(session, body, runner, run_options)
        record: ReplayedBody = {"body": body.id, "same": verdict["same"], "ok": bool(result["ok"]),
                                  "ms": round(float(result.get("durationMs", 0.0)), 2)}
        report["replayed"] += 1
        if verdict["same"]:
            report["same"] += 1
        else:
            report["differs"] += 1
            difference = verdict["firstDifference"]
            record["kind"] = difference.get("kind")
            record["message"] = difference.get("message", "")
            report["findings"].append(finding(
                f"replay-{difference.get('kind', 'returned')}", "error", body.where,
                f"body {body.id}: {difference.get('message', 'replays differently')}", body=body.id,
                **{k: difference[k] for k in ("entry", "call") if k in difference}))
        _retyped_findings(report, session, body, result)  # SPEC 7: from the reads this replay recorded
        if not result["ok"]:
            report["fails"] += 1
            error = result.get("error") or {}
            record["error"] = {k: error[k] for k in ("name", "message", "line", "column") if k in error}
        report["replay"].append(record)


def _retyped_findings(report: SessionReport, session: Session, body: Any, result: Any) -> None:
    """A `retyped` warning per value the body typed again where it could have read it (wsi_inspector.core.edits.retyped)."""
    from wsi_inspector.core.edits.retyped import retyped_in_body

    if result.get("reads") is None:
        return
    for found in retyped_in_body(session, body, result["reads"]):
        same = found["sameAs"]
        where = f"kept {same['kept']}" if "kept" in same else f"entry {same['entry']}"
        report["findings"].append(finding(
            "retyped", "warning", body.where,
            f"body {body.id}: call {found['entry']} input {found['path'] or '(whole)'} ({found['bytes']:,} bytes) "
            f"equals {where} {same['path'] or '(whole)'}, which the body never read: it typed the value again; "
            "read it with inputs.last/inputs.at or kept", body=body.id, entry=found["entry"]))
