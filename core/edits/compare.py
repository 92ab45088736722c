"""Two sessions side by side (SPEC 7 "Compare"): where a run of the same task went another way.

A *step* is one body with what it did: its code, the calls it made (its own entries, in order),
its outcome, what it kept and returned, and the entries not made by a body (a person's canvas
edits) recorded since the previous body, which it was handed. The two sessions' steps are
aligned with the fewest edits (`wsi_inspector.core.edits.align`, the diff's array alignment) over (code, calls made),
so a body inserted or dropped is one step with `a` or `b` null, not a cascade. Steps that made the
same calls with the same inputs are matched first (so among a loop's look-alike bodies the gap
lands where the body went); where that leaves a gap of unequal steps, the gap is aligned again by
(code, calls made), then by the calls made alone, then by the code alone: a body whose constant
changed still pairs with its counterpart, and only what matches nothing stays a gap (still the
fewest edits: a replace costs what an insert or a delete does).

Each aligned pair is compared in full: code lines (difflib), calls (same, only in A, only in B,
same call with another input: the diff's changes, across units in A's unit), the calls' outputs,
the handed edits, what the body kept and returned, and the outcome (ok / failed, and the error).
The first divergence is the first step that is not the same, with the reason in one line.
"""
from __future__ import annotations

import difflib
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NotRequired, TypedDict

from wsi_inspector.core.edits.align import array_opcodes
from wsi_inspector.core.edits.diff import Change, diff
from wsi_inspector.core.edits.edits import value_text
from wsi_inspector.core.jsrules.json_values import json_equal
from wsi_inspector.core.session.model import Body, Entry, Id
from wsi_inspector.core.session.reading import no_gc, parse_json
from wsi_inspector.core.session.store_scan import RecordText, member, same_json, same_rest
from wsi_inspector.core.session.load import Session, load

# The document's parts (SPEC 7), as `wsi_inspector.core.edits.diff.Change` and `wsi_inspector.core.check.check.SessionReport` are: JSON objects.
CallItem = dict[str, Any]  # {"a", "b", "call", "same", "changes"?, "outputChanges"?, …}
StepItem = dict[str, Any]  # {"a", "b", "same", "code", "calls", "outcome", "codeDiff"?, "handed"?, "errors"?, …}

MAX_CODE_LINES = 400  # lines of a code difference kept in the document (a marker says how many more)
MAX_REASON_CHANGES = 1  # changes named in the one-line reason; the rest are counted
_PAIR = -1  # a stack item of `align_steps` that is an aligned pair, not a span


@dataclass(slots=True)
class Step:
    """One body of one session with what it did, in timeline order."""

    body: Body
    calls: list[Entry] = field(default_factory=list)  # the entries the body made
    handed: list[Entry] = field(default_factory=list)  # entries no body made, recorded since the previous body
    names: list[str] = field(default_factory=list)  # the calls' names, once the step is complete

    @property
    def calls_key(self) -> str:
        return "\x1f".join(self.names)

    @property
    def key(self) -> str:
        """What the alignment compares: the code and the calls made, in order."""
        return self.body.code + "\x00" + self.calls_key

    @property
    def exact_key(self) -> str:
        """The key and the calls' inputs as written: among bodies of one code and calls (a loop's), the one
        that made the same calls with the same inputs is the counterpart."""
        return f"{self.key}\x00{hash((tuple(e.input_digest() for e in self.calls), tuple(e.unit for e in self.calls))):x}"


def steps_of(session: Session) -> tuple[list[Step], list[Entry]]:
    """The session's bodies as steps, in one pass over the timeline; and the entries after the last body
    that no body made (a person's last edits), which no step was handed."""
    steps: list[Step] = []
    by_body: dict[str, Step] = {}
    pending: list[Entry] = []
    for item in session.timeline:
        if isinstance(item, Body):
            step = Step(item, handed=pending)
            pending = []
            steps.append(step)
            by_body.setdefault(item.key, step)
        elif not isinstance(item, Entry):
            continue  # a JSON Lines kept snapshot: what it sets shows in the bodies' states, not as a step
        elif item.body is not None and str(item.body) in by_body:
            by_body[str(item.body)].calls.append(item)
        else:
            pending.append(item)  # a person's edit, or a call of a body not (yet) seen: handed to the next body
    for step in steps:
        step.names = [e.call for e in step.calls]
    return steps, pending


def align_steps(a: list[Step], b: list[Step]) -> list[tuple[int | None, int | None]]:
    """Pairs of step indices (None: a gap), in order, with the fewest edits over (code, calls made)."""
    levels = [
        ([s.exact_key for s in a], [s.exact_key for s in b]),
        ([s.key for s in a], [s.key for s in b]),
        ([s.calls_key for s in a], [s.calls_key for s in b]),
        ([s.body.code for s in a], [s.body.code for s in b]),
    ]
    pairs: list[tuple[int | None, int | None]] = []
    # A stack of pairs found and spans still to align (level, a span, b span), the leftmost on top;
    # each span is taken apart into its equal runs and the gaps between them, which go a level down.
    todo: list[tuple[int, int, int, int, int]] = [(0, 0, len(a), 0, len(b))]
    while todo:
        level, alo, ahi, blo, bhi = todo.pop()
        if level == _PAIR:
            pairs.append((alo, blo))
            continue
        if level == len(levels):
            pairs.extend(_fewest_edit_pairs(levels[-1], alo, ahi, blo, bhi))
            continue
        keys_a, keys_b = levels[level]
        parts: list[tuple[int, int, int, int, int]] = []
        gap: tuple[int, int, int, int] | None = None  # the unequal steps gathered so far: a span, b span
        for tag, i1, i2, j1, j2 in array_opcodes(keys_a[alo:ahi], keys_b[blo:bhi]):
            i1, i2, j1, j2 = i1 + alo, i2 + alo, j1 + blo, j2 + blo
            if tag != "equal":
                gap = (i1, i2, j1, j2) if gap is None else (gap[0], max(gap[1], i2), gap[2], max(gap[3], j2))
                continue
            if gap is not None:
                parts.append((level + 1, gap[0], gap[1], gap[2], gap[3]))
                gap = None
            parts.extend((_PAIR, i1 + k, 0, j1 + k, 0) for k in range(i2 - i1))
        if gap is not None:
            parts.append((level + 1, gap[0], gap[1], gap[2], gap[3]))
        todo.extend(reversed(parts))
    return pairs


def _fewest_edit_pairs(keys: tuple[list[str], list[str]], alo: int, ahi: int, blo: int, bhi: int
                       ) -> list[tuple[int | None, int | None]]:
    """A gap nothing matched in: replaces pair by position, inserts and deletes stay gaps."""
    pairs: list[tuple[int | None, int | None]] = []
    for tag, i1, i2, j1, j2 in array_opcodes(keys[0][alo:ahi], keys[1][blo:bhi]):
        if tag in ("equal", "replace"):
            pairs.extend((alo + i1 + k, blo + j1 + k) for k in range(i2 - i1))
        elif tag == "delete":
            pairs.extend((alo + i, None) for i in range(i1, i2))
        else:
            pairs.extend((None, blo + j) for j in range(j1, j2))
    return pairs


def error_text(body: Body) -> str | None:
    """A failed body's recorded error in one line (`TypeError: …`), else None."""
    if not body.failed or body.result is None:
        return None
    error = body.result.get("error")
    if isinstance(error, dict):
        name, message = error.get("name"), error.get("message")
        return f"{name}: {message}" if name and message else str(message or name or "failed")
    return str(error) if error is not None else "failed"


def outcome(body: Body | None) -> str | None:
    """"ok", "failed", or None (no body on that side, or no recorded result)."""
    if body is None or body.result is None:
        return None
    return "failed" if body.failed else "ok"


def code_lines(a: str, b: str) -> list[str]:
    """The code's difference as unified diff lines (A's code → B's), cut at MAX_CODE_LINES."""
    lines = [line.rstrip("\n") for line in difflib.unified_diff(a.splitlines(), b.splitlines(), "A", "B", lineterm="", n=1)]
    if len(lines) > MAX_CODE_LINES:
        lines = lines[:MAX_CODE_LINES] + [f"… {len(lines) - MAX_CODE_LINES} more lines"]
    return lines


@dataclass(slots=True)
class _Record:
    """One entry's input, output and unit, parsed once (an entry read from a file parses its text on each read)."""

    entry: Entry
    input: Any
    output: Any
    has_output: bool


def _record(entry: Entry) -> _Record:
    if entry.text is not None:
        parsed = parse_json(memoryview(entry.text))
        return _Record(entry, parsed.get("input"), parsed.get("output"), "output" in parsed)
    return _Record(entry, entry.input, entry.output if entry.has_output else None, entry.has_output)


def _same_text(a: Entry, b: Entry) -> bool:
    """Both records' texts are byte for byte the same (ids, inputs, outputs, units alike): no parsing needed."""
    text_a, text_b = a.text, b.text
    if text_a is None or text_b is None or len(text_a) != len(text_b):
        return False
    if type(text_a) is RecordText:  # compares with any bytes by memcmp, in C
        return bool(text_a == text_b)
    # Else copied to bytes to compare: a memoryview compares byte by byte through its format, 7× slower.
    return memoryview(text_a).tobytes() == memoryview(text_b).tobytes()


def _same_spelled(a: Entry, b: Entry) -> bool:
    """Both records spell their input and output alike but for whitespace between tokens, and have one unit:
    the same call read from another form of the session (indented, or a JSON Lines line with its `kind`),
    told equal in C without parsing either. False: not known to be the same (parse and compare)."""
    if a.unit != b.unit or a.applied != b.applied or a.has_output != b.has_output:
        return False
    span_a, span_b = a.input_text_span, b.input_text_span
    if span_a is None or span_b is None:
        return False
    # Where records put the output, after the input (no `"output"` before it): the input and all after it
    # compared in one pass.
    if same_rest(a.text, span_a[0], b.text, span_b[0], b'"output"' if a.has_output else b""):
        return True
    if not same_json(a.text, span_a, b.text, span_b):
        return False
    if not a.has_output:
        return True  # only a member after the input differs (a time, a sequence number)
    output_a, output_b = member(a.text, "output", span_a[1]), member(b.text, "output", span_b[1])
    return type(output_a) is tuple and type(output_b) is tuple and same_json(a.text, output_a, b.text, output_b)


def compare_entries(a: Entry, b: Entry) -> CallItem:
    """One call made (or handed) on both sides: same, or the input's and output's changes (A's unit)."""
    item: dict[str, Any] = {"a": a.id, "b": b.id, "call": a.call, "same": True}
    if _same_text(a, b) or _same_spelled(a, b):
        return item
    ra, rb = _record(a), _record(b)
    across = bool(a.unit and b.unit and a.unit != b.unit)  # lengths compared in A's unit
    units = (a.unit, b.unit) if across else (None, None)
    if a.unit != b.unit and not across:
        item["units"] = {"a": a.unit, "b": b.unit}  # one side has no unit: lengths cannot be compared across
    if across or not json_equal(ra.input, rb.input):
        changes = diff(ra.input, rb.input, *units)
        if changes:
            item["changes"] = changes
    if ra.has_output != rb.has_output or across or not json_equal(ra.output, rb.output):
        if ra.has_output and rb.has_output:
            output_changes = diff(ra.output, rb.output, *units)
            if output_changes:
                item["outputChanges"] = output_changes
        else:
            item["output"] = {"a": ra.has_output, "b": rb.has_output}  # recorded on one side only
    if a.applied != b.applied:
        item["applied"] = {"a": a.applied, "b": b.applied}
    item["same"] = not ({"changes", "outputChanges", "output", "applied", "units"} & item.keys())
    return item


def compare_calls(a: list[Entry], b: list[Entry]) -> list[CallItem]:
    """The calls of two aligned steps, paired by name in order (fewest edits); the rest only on one side."""
    names_a, names_b = [e.call for e in a], [e.call for e in b]
    if names_a == names_b:  # the common case, without aligning
        return [compare_entries(x, y) for x, y in zip(a, b)]
    items: list[dict[str, Any]] = []
    for tag, i1, i2, j1, j2 in array_opcodes(names_a, names_b):
        if tag == "equal":
            items.extend(compare_entries(a[i1 + k], b[j1 + k]) for k in range(i2 - i1))
            continue
        items.extend({"a": e.id, "b": None, "call": e.call, "same": False} for e in a[i1:i2])
        items.extend({"a": None, "b": e.id, "call": e.call, "same": False} for e in b[j1:j2])
    return items


def _result_part(body: Body, name: str) -> Any:
    return None if body.result is None else body.result.get(name)


def compare_step(a: Step | None, b: Step | None) -> StepItem:
    """One aligned pair (or a gap) as the document's step: code, calls, outcome, and what else differs."""
    body_a, body_b = (a.body if a else None), (b.body if b else None)
    step: dict[str, Any] = {"a": body_a.id if body_a else None, "b": body_b.id if body_b else None}
    if a is None or b is None:
        one = a or b
        assert one is not None
        side = "a" if a else "b"
        calls = [{"a": e.id if a else None, "b": e.id if b else None, "call": e.call, "same": False} for e in one.calls]
        step.update({"same": False, "code": "differs", "calls": calls,
                     "outcome": {"a": outcome(body_a), "b": outcome(body_b)}})
        if one.body.failed:
            step["errors"] = {"a": None, "b": None, side: error_text(one.body)}
        return step
    assert body_a is not None and body_b is not None
    same_code = body_a.code == body_b.code
    step["code"] = "same" if same_code else "differs"
    step["calls"] = compare_calls(a.calls, b.calls)
    step["outcome"] = {"a": outcome(body_a), "b": outcome(body_b)}
    errors = {"a": error_text(body_a), "b": error_text(body_b)}
    extra: dict[str, Any] = {}
    if not same_code:
        extra["codeDiff"] = code_lines(body_a.code, body_b.code)
    handed = compare_calls(a.handed, b.handed)
    if any(not h["same"] for h in handed):
        extra["handed"] = handed
    if errors["a"] or errors["b"]:
        extra["errors"] = errors
    parts = [("kept", body_a.keep, body_b.keep)]
    if step["outcome"]["a"] == step["outcome"]["b"]:  # a failed run returns nothing: its outcome says it all
        parts.append(("returned", _result_part(body_a, "returned"), _result_part(body_b, "returned")))
    for name, value_a, value_b in parts:
        if not json_equal(value_a, value_b):
            extra[name] = diff(value_a, value_b)
    step["same"] = (same_code and all(c["same"] for c in step["calls"]) and "handed" not in extra
                    and step["outcome"]["a"] == step["outcome"]["b"] and errors["a"] == errors["b"]
                    and "kept" not in extra and "returned" not in extra)
    step.update(extra)
    return step


class Divergence(TypedDict):
    """Where two sessions first part (`firstDivergence`): the step (1-based), its body on each side, why in words."""

    step: int
    a: Id | None
    b: Id | None
    why: str


class CompareDocument(TypedDict):
    """`wsi compare A B --json` (SPEC 7): the files, whether they are the same, each aligned step, the first divergence,
    and the entries after the last body when they differ."""

    a: str
    b: str
    same: bool
    steps: list[StepItem]
    firstDivergence: Divergence | None
    after: NotRequired[list[CallItem]]


def compare_sessions(a: Session, b: Session) -> CompareDocument:
    """The compare document (SPEC 7): `{"same", "steps", "firstDivergence"}`, with `a`/`b` naming the files."""
    (steps_a, after_a), (steps_b, after_b) = steps_of(a), steps_of(b)
    steps = [compare_step(steps_a[i] if i is not None else None, steps_b[j] if j is not None else None)
             for i, j in align_steps(steps_a, steps_b)]
    after = compare_calls(after_a, after_b)
    first = next((n for n, s in enumerate(steps) if not s["same"]), None)
    divergence: Divergence | None = None
    if first is not None:
        step = steps[first]
        divergence = {"step": first + 1, "a": step["a"], "b": step["b"], "why": reason(first + 1, step)}
    elif any(not item["same"] for item in after):
        divergence = {"step": len(steps) + 1, "a": None, "b": None, "why": end_reason(len(steps) + 1, after)}
    document: CompareDocument = {"a": a.name, "b": b.name, "same": divergence is None, "steps": steps,
                          "firstDivergence": divergence}
    if any(not item["same"] for item in after):
        document["after"] = after  # entries after the last body (a person's last edits), when they differ
    return document


def load_pair(a: Path, b: Path) -> tuple[Session, Session]:
    """Both sessions, B read on a second thread while A is read here: much of a load runs in C without the
    interpreter's lock, so on two cores the pair opens in less than the two loads one after the other."""
    loaded: dict[str, Any] = {}

    def read_b() -> None:
        try:
            loaded["b"] = load(b)
        except BaseException as exc:  # handed to the caller below
            loaded["error"] = exc

    # The collector stays off until both are read: each load turns it back on as it ends (no_gc), and the one
    # that ends first would let it walk the other's millions of new objects as they are made.
    with no_gc():
        thread = threading.Thread(target=read_b, name="wsi-compare-load", daemon=True)
        thread.start()
        try:
            first = load(a)
        finally:
            thread.join()
    if "error" in loaded:
        raise loaded["error"]
    return first, loaded["b"]


# --- the one-line reason ------------------------------------------------------------------------
def _short_call(call: str) -> str:
    """`pack.corridorRuns.corridorRuns` → `pack.corridorRuns` (the fn of the module's own name is implied)."""
    parts = call.split(".")
    return ".".join(parts[:-1]) if len(parts) >= 3 and parts[-1] == parts[-2] else call


def _change_words(change: Change, b_verb: str, a_verb: str) -> str:
    """`gets /bandDepth 36 where A's got 34` for one change (values in A's unit)."""
    path = change["path"] or "(whole value)"
    if change["op"] == "replace":
        return f"{b_verb} {path} {value_text(change['to'])} where A's {a_verb} {value_text(change['from'])}"
    if change["op"] == "add":
        return f"{b_verb} {path} {value_text(change['to'])}, which A's did not"
    return f"lacks {path} (A's {a_verb} {value_text(change['from'])})"


def _changes_words(changes: list[Change], b_verb: str, a_verb: str) -> str:
    words = "; ".join(_change_words(c, b_verb, a_verb) for c in changes[:MAX_REASON_CHANGES])
    more = len(changes) - MAX_REASON_CHANGES
    return words + (f" (and {more} more change{'s' if more > 1 else ''})" if more > 0 else "")


def _call_words(item: dict[str, Any], a_body: Any, b_body: Any, handed: bool) -> str:
    call = _short_call(item["call"])
    if item["a"] is None:
        return (f"B's {b_body} was handed {item['b']} ({call}), A's was not" if handed
                else f"B's {b_body} calls {call} ({item['b']}), A's {a_body} does not")
    if item["b"] is None:
        return (f"A's {a_body} was handed {item['a']} ({call}), B's was not" if handed
                else f"A's {a_body} calls {call} ({item['a']}), B's {b_body} does not")
    if "changes" in item and handed:
        kind = "a canvas edit" if item.get("applied", {}).get("b", True) else "an entry"
        return f"B's {b_body} is handed {item['b']} ({call}, {kind}) that {_changes_words(item['changes'], 'has', 'had')}"
    if "changes" in item:
        return f"B's {call} {_changes_words(item['changes'], 'gets', 'got')}"
    if "outputChanges" in item:
        return f"B's {call} {_changes_words(item['outputChanges'], 'returns', 'returned')}"
    if "units" in item:
        return f"B's {call} records unit {item['units']['b']} where A's has {item['units']['a']}"
    if "output" in item:
        side = "B" if item["output"]["b"] else "A"
        return f"only {side}'s {call} has a recorded output"
    return f"B's {item['b']} ({call}) is {'' if item['applied']['b'] else 'not '}a canvas edit, A's is {'' if item['applied']['a'] else 'not'}".rstrip()


def _first_code_line(lines: list[str]) -> str:
    """The first changed line pair of a unified diff, as `line 5: x → y`."""
    removed = next((line[1:].strip() for line in lines[2:] if line.startswith("-")), "")
    added = next((line[1:].strip() for line in lines[2:] if line.startswith("+")), "")
    return f"`{removed[:60]}` → `{added[:60]}`" if removed or added else ""


def end_reason(number: int, after: list[CallItem]) -> str:
    """Why the sessions differ after their last bodies: the first entry there that differs."""
    item = next(i for i in after if not i["same"])
    call = _short_call(item["call"])
    if item["a"] is None or item["b"] is None:
        side, other, entry = ("B", "A", item["b"]) if item["a"] is None else ("A", "B", item["a"])
        words = f"{side} records {entry} ({call}), which {other} does not"
    elif "changes" in item:
        words = f"B's {item['b']} ({call}) {_changes_words(item['changes'], 'has', 'had')}"
    else:
        words = f"B's {item['b']} ({call}) differs from A's {item['a']}"
    return f"at step {number} (after the last body) {words}"


def reason(number: int, step: StepItem) -> str:
    """Why step `number` (1-based) is not the same, in one line: the first difference, then the outcome's."""
    a_body, b_body = step["a"], step["b"]
    parts: list[str] = []
    if a_body is None or b_body is None:
        side, other, body = ("B", "A", b_body) if a_body is None else ("A", "B", a_body)
        calls = ", ".join(_short_call(c["call"]) for c in step["calls"][:3]) or "no calls"
        parts.append(f"{side} runs {body}, which {other} does not ({calls})")
    elif step["code"] == "differs":
        parts.append(f"B's {b_body} has other code than A's {a_body}: {_first_code_line(step['codeDiff'])}".rstrip(": "))
    else:
        handed = next((h for h in step.get("handed", []) if not h["same"]), None)
        call = next((c for c in step["calls"] if not c["same"]), None)
        if handed is not None:
            parts.append(_call_words(handed, a_body, b_body, True))
        elif call is not None:
            parts.append(_call_words(call, a_body, b_body, False))
        elif "kept" in step:
            parts.append(f"B's {b_body} {_changes_words(step['kept'], 'keeps', 'kept')}")
        elif "returned" in step and step["outcome"]["a"] == step["outcome"]["b"]:
            parts.append(f"B's {b_body} {_changes_words(step['returned'], 'returns', 'returned')}")
    errors = step.get("errors", {})
    outcome_a, outcome_b = step["outcome"]["a"], step["outcome"]["b"]
    if a_body is not None and b_body is not None and (outcome_a != outcome_b or errors.get("a") != errors.get("b")):
        if errors.get("b") and errors.get("a"):
            parts.append(f"B's {b_body} fails with {errors['b']} where A's failed with {errors['a']}")
        elif errors.get("b"):
            parts.append(f"B's {b_body} fails with {errors['b']}")
        elif errors.get("a"):
            parts.append(f"A's {a_body} failed with {errors['a']}, B's {b_body} does not")
        else:  # one side has no recorded result
            side, other = ("A", "B") if outcome_a is None else ("B", "A")
            parts.append(f"{side}'s {a_body if side == 'A' else b_body} has no recorded result, {other}'s is "
                         f"{outcome_b if side == 'A' else outcome_a}")
    elif (a_body is None) != (b_body is None) and errors:
        side = "B" if a_body is None else "A"
        parts.append(f"{side}'s {b_body if a_body is None else a_body} fails with {errors['b' if a_body is None else 'a']}")
    return f"at step {number} " + "; ".join(parts or ["the steps differ"])
