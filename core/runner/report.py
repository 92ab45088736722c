"""Run results and replay verdicts in plain words, for `wsi run`, `wsi replay` and the Run view.

Everything a body wrote (logs, messages, returned strings, module names) is shown through
`printable`: a terminal never receives its control characters (ESC, BEL, CR, OSC 52 that writes
the clipboard), and a newline in a log cannot start a report line of its own.
"""
from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any, Required, TypedDict

from wsi_inspector.core.runner.result import readable

if TYPE_CHECKING:
    from wsi_inspector.core.edits.evidence import Read
    from wsi_inspector.core.runner.replay import Verdict


# C0 controls, DEL, C1 controls and the two Unicode line separators.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    return _NAMED.get(char) or (f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}")


def printable(text: str) -> str:
    """Text a body wrote, safe for a terminal line: every control character as an escape (`\\x1b`, `\\n`)."""
    return _CONTROL.sub(_escape, readable(text))


class RecordedError(TypedDict, total=False):
    """A recorded (or a run's) error: `name` and `message` always, `line`/`column` (1-based) when known."""

    name: Required[str]
    message: Required[str]
    line: int
    column: int


def source_text(source: dict[str, Any] | None) -> str:
    """Where a traced call's output came from: `recorded c4`, `mock echo`, `run.inputs`, `no output`."""
    if not source:
        return "no output"
    kind = source.get("kind")
    if kind == "recorded":
        return f"recorded {source.get('entry')}"
    if kind == "mock":
        return f"scene mock ({source.get('rule')})"
    if kind == "run.inputs":
        return "run.inputs (computed)"
    return "no output"


def recorded_error(record: object) -> RecordedError | None:
    """A body's recorded error as a run's error is (`name`, `message`, `line`?, `column`?), or None when it did not fail.

    Recordings write it as an object or as one string `Name: message`; a string whose head is not an
    error name is the message of an `Error`.
    """
    if not isinstance(record, dict) or record.get("ok") is not False:
        return None
    error = record.get("error")
    if isinstance(error, dict):
        found: RecordedError = {"name": str(error.get("name") or "Error"), "message": str(error.get("message") or "")}
        line, column = error.get("line"), error.get("column")
        if isinstance(line, int) and not isinstance(line, bool) and line > 0:
            found["line"] = line
        if isinstance(column, int) and not isinstance(column, bool) and column > 0:
            found["column"] = column
        return found
    text = str(error) if error is not None else "failed (the record gives no error)"
    name, sep, message = text.partition(": ")
    if sep and name.isidentifier() and (name.endswith("Error") or name.endswith("Exception")):
        return {"name": name, "message": message}
    return {"name": "Error", "message": text}


def error_line(error: dict[str, Any], where: str = "body") -> str:
    """`body.js:3:45: Error: message`: the error at the body's own line and column."""
    place = where
    if "line" in error:
        place += f":{error['line']}"
        if "column" in error:
            place += f":{error['column']}"
    return f"{place}: {printable(str(error['name']))}: {printable(str(error['message']))}"


PATHS_SHOWN = 8  # paths of one read written out; the Reads page's tooltip and --json have them all
LISTED_READS = 50  # reads written out one by one in a plain report; the rest are counted (--json has them all)


def read_cells(read: Read) -> tuple[str, str, str, str]:
    """One read (SPEC 7) in words: `4:21`, `inputs.last("pack.corridorRuns")`, `e1`, `/spine /bandDepth`."""
    if read["what"] == "kept":
        what = f"kept.{read.get('name')}"
    else:
        what = f"{read['what']}({'' if read['arg'] is None else json.dumps(read['arg'], ensure_ascii=False)})"
    paths = [p or '"" (whole)' for p in read.get("paths", [])]
    cut = read.get("pathsCut", 0) + max(0, len(paths) - PATHS_SHOWN)
    shown = " ".join(paths[:PATHS_SHOWN]) + (f" \u2026 (+{cut})" if cut else "")
    entry = "" if read.get("entry") is None else str(read["entry"])
    return f"{read['line']}:{read['column']}", what, entry, shown or "(nothing inside)"


def reads_lines(reads: list[Read], cut: int) -> list[str]:
    """`reads (2):` and a line a read, `  1:18  inputs.last("pack.corridorRuns") \u2192 c9  /bandDepth /spine`,
    `cut` more counted (past the runner's bound)."""
    lines = [f"reads ({len(reads) + cut:,}{f'; the first {len(reads):,} recorded' if cut else ''}):"]
    for read in reads[:LISTED_READS]:
        at, what, entry, paths = (printable(cell) for cell in read_cells(read))
        handed = f" \u2192 {entry}" if entry else ""
        lines.append(f"  {at}  {what}{handed}  {paths}")
    if len(reads) > LISTED_READS:
        lines.append(f"  \u2026 and {len(reads) - LISTED_READS:,} more (--json lists them)")
    return lines


def result_text(result: dict[str, Any], where: str = "body", max_returned: int = 4000) -> str:
    """The result as a short report: status, error, returned value, keep, logs, calls, reads."""
    lines = [f"{'ok' if result['ok'] else 'failed'} in {result['durationMs']:,.1f} ms"]
    if "error" in result:
        lines.append("error: " + error_line(result["error"], where))
    if "returned" in result:
        # json.dumps escapes C0 controls inside strings; DEL and C1 ones are escaped here (its own newlines stay).
        text = "\n".join(printable(line) for line in json.dumps(result["returned"], indent=2, ensure_ascii=False).split("\n"))
        if len(text) > max_returned:
            text = text[:max_returned] + f"\u2026 ({len(text):,} characters; --json shows it all)"
        lines.append("returned: " + text)
    for request in result.get("keep", []):
        lines.append(f"keep: {request['name']} ({request['bytes']:,} bytes) accepted")
    logs = result.get("logs", [])
    lines.append(f"logs ({len(logs)}):")
    lines.extend("  " + printable(line) for line in logs)
    calls = result.get("calls", [])
    lines.append(f"calls ({len(calls)}):")
    for call in calls:
        outcome = source_text(call.get("source"))
        if "error" in call:
            outcome += f"; failed: {printable(str(call['error']))}"
        at = f" (line {call['line']})" if "line" in call else ""
        lines.append(f"  {printable(str(call['id']))}  {printable(str(call['call']))}{at}  \u2190 {outcome}")
    if "reads" in result:  # unknown when the run was stopped, or refused before it ran
        lines.extend(reads_lines(result["reads"], result.get("readsCut", 0)))
    return "\n".join(lines)


LISTED_CALLS = 12  # recorded calls named one by one under a divergence; the rest are counted


def verdict_text(verdict: Verdict) -> str:
    """`b3  same`, or `b5  DIFFERS: …` and a second line naming the recorded calls that answered b5."""
    if verdict["same"]:
        return f"{verdict['body']}  same"
    text = f"{verdict['body']}  DIFFERS: {verdict['firstDifference']['message']}"
    fed = recorded_calls_text(verdict.get("recordedCalls", []))
    return text + (f"\n    {fed}" if fed else "")


def recorded_calls_text(ids: list[Any]) -> str:
    """`answered from the record: c22, c23, …`: the recorded outputs a replayed body used; empty when none."""
    if not ids:
        return ""
    shown = ", ".join(map(str, ids[:LISTED_CALLS]))
    more = len(ids) - LISTED_CALLS
    return f"answered from the record: {shown}" + (f" and {more} more" if more > 0 else "")
