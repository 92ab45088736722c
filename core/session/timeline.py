"""The timeline (SPEC 2.3): one order for bodies and entries, and the state each body was handed.

Without `seq`, the JSON form keeps store order for entries and puts each body just before the
first entry it made (a body that made none goes after the previous body's last entry); JSON Lines
keeps file order. Where `seq` is given it orders; an item without one stays right after the item
before it, so a file that gives seq to only some records still reads in a sensible order.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol
from weakref import WeakKeyDictionary

from wsi_inspector.core.session.model import Body, Entry, Id, KeepRefusal, KeptSnapshot, Problem, State, StorePrefix, TimelineItem
from wsi_inspector.core.session.place import Place


class Session(Protocol):
    """What this module reads of a loaded session (wsi_inspector.core.session.load builds on this module, not the reverse)."""

    timeline: list[TimelineItem]


def order_timeline(items: list[TimelineItem], form: str) -> list[TimelineItem]:
    """The items in timeline order."""
    base = items if form == "jsonl" else _json_order(items)
    if not any(getattr(i, "seq", None) is not None for i in base):
        return base
    keyed = []
    current: float = float("-inf")
    for position, item in enumerate(base):
        seq = getattr(item, "seq", None)
        if seq is not None:
            current = seq
        keyed.append(((current, position), item))
    keyed.sort(key=lambda pair: pair[0])
    return [item for _, item in keyed]


def _json_order(items: list[TimelineItem]) -> list[TimelineItem]:
    entries = [i for i in items if isinstance(i, Entry)]
    bodies = [i for i in items if isinstance(i, Body)]
    first_entry: dict[str, int] = {}
    last_entry: dict[str, int] = {}
    for index, entry in enumerate(entries):
        if entry.body is not None:
            key = entry.body if type(entry.body) is str else str(entry.body)
            if key not in first_entry:
                first_entry[key] = index
            last_entry[key] = index
    # Each body goes in a slot: before entry i (before[i]) or after entry j (after[j]); slots keep
    # the bodies' own order. One merge pass then lays out the timeline without sorting 100,000 keys.
    before: dict[int, list[Body]] = {}
    after: dict[int, list[Body]] = {}
    anchor = -1  # after which entry a body that made no call goes
    for body in bodies:
        if body.key in first_entry:
            before.setdefault(first_entry[body.key], []).append(body)
            anchor = last_entry[body.key]
        else:
            after.setdefault(anchor, []).append(body)
    ordered: list[TimelineItem] = list(after.get(-1, ()))
    if not before and len(after) <= 1:
        return ordered + entries
    for index, entry in enumerate(entries):
        if index in before:
            ordered.extend(before[index])
        ordered.append(entry)
        if index in after:
            ordered.extend(after[index])
    return ordered


def accepted_keep(body: Body, max_bytes: int) -> tuple[list[dict[str, Any]], str | None]:
    """The keep requests a body's keep made (body.keep, else returned.keep), and the refusal if any."""
    from wsi_inspector.core.jsrules.run_inputs import InvalidKeepError, validate_keep

    keep = body.keep
    if keep is None and body.result and isinstance(body.result.get("returned"), dict):
        keep = body.result["returned"].get("keep")
    if keep is None:
        return [], None
    try:
        requests = validate_keep(keep, max_bytes)
    except InvalidKeepError as exc:
        return [], str(exc)
    # A run that failed kept nothing, whatever it asked for.
    return ([] if body.failed else requests), None


class StatePoint:
    """What a State needs, without its store: how many entries came before, and the kept set."""

    __slots__ = ("count", "kept", "kept_by", "refused", "body_id")

    def __init__(self, count: int, kept: dict, kept_by: dict, refused: list, body_id: Any):
        self.count, self.kept, self.kept_by, self.refused, self.body_id = count, kept, kept_by, refused, body_id

    def state(self, entries: list[Entry]) -> State:
        """The State over the session's entries (a prefix of them, read in place)."""
        store = entries if self.count == len(entries) else StorePrefix(entries, self.count)
        return State(store, dict(self.kept), dict(self.kept_by), list(self.refused), self.body_id)


def build_states(timeline: Sequence[TimelineItem], max_bytes: int,
                 final_kept: dict[str, object] | None) -> tuple[dict[str | None, StatePoint], list[Problem]]:
    """The point of every body (keyed by body id as a string) and of the end (key None), and the
    warnings for the keeps refused on the way (`max_bytes`: caps.maxKeepBytes; `final_kept`: the
    JSON form's own final `kept`, which wins at the end).

    Stores are not sliced here: a session with thousands of bodies over 100,000 entries would hold
    a copy of the store per body.
    """
    states: dict[str | None, StatePoint] = {}
    problems: list[Problem] = []
    kept: dict[str, Any] = {}
    kept_by: dict[str, Any] = {}
    refused: list[KeepRefusal] = []
    count = 0
    for item in timeline:
        if isinstance(item, Entry):
            count += 1
        elif isinstance(item, KeptSnapshot):
            kept, kept_by = dict(item.kept), {}
        else:
            states[item.key] = StatePoint(count, dict(kept), dict(kept_by), list(refused), item.id)
            requests, refusal = accepted_keep(item, max_bytes)
            if refusal is not None:
                refused.append(KeepRefusal(item.id, refusal))
                problems.append(Problem("warning", keep_place(item), f"keep refused: {refusal}"))
            for request in requests:
                kept[request["name"]] = request["value"]
                kept_by[request["name"]] = item.id
    if final_kept is not None:
        # The file's own final set wins; a name still says which body kept it when the values agree.
        kept_by = {k: v for k, v in kept_by.items() if k in final_kept and final_kept[k] == kept.get(k)}
        kept = dict(final_kept)
    states[None] = StatePoint(count, kept, kept_by, refused, None)
    return states, problems


def keep_place(body: Body) -> Place:
    """The keep a refusal is about: the body's `keep`, else the one its result returned."""
    return body.where.field("keep") if body.keep is not None else body.where.field("result", "returned", "keep")


_rows_of: WeakKeyDictionary[Session, list[TimelineRow]] = WeakKeyDictionary()
_handed_of: WeakKeyDictionary[Session, _Handed] = WeakKeyDictionary()


def body_handed(session: Session, item: TimelineItem) -> Id | None:
    """The first body handed `item`: the next body after it on the timeline (None: the end of the session).

    An entry, edit or kept snapshot is in the state of every body after it and of none before, so
    this is where choosing it moves the cursor. KeyError when `item` is not on the session's timeline.
    """
    handed = _handed(session)
    return handed.following[handed.place(session.timeline, item)]


class _Handed:
    """Where each item of a timeline is first handed: `following[position]`, the next body's id (None: the end).

    `place` finds an item's position by `id(item)`; `waiting` are the positions after the last body,
    answered when a body is appended (a timeline only grows at its end: a followed file, wsi_inspector.core.session.growing).
    """

    __slots__ = ("count", "positions", "following", "waiting")

    def __init__(self, timeline: list[TimelineItem]) -> None:
        following: list[Id | None] = [None] * len(timeline)
        after: Id | None = None
        last_body = -1
        for at in range(len(timeline) - 1, -1, -1):  # one pass from the end: each item's next body
            following[at] = after
            item = timeline[at]
            if type(item) is Body:
                after = item.id
                if last_body < 0:
                    last_body = at
        self.following = following
        self.positions: dict[int, int] | None = None  # made on the first `place` (only choosing an entry needs it)
        self.waiting = list(range(max(last_body, 0), len(timeline)))
        self.count = len(timeline)

    def grow(self, timeline: list[TimelineItem]) -> None:
        """Take in the items appended since the last look."""
        for at in range(self.count, len(timeline)):
            item = timeline[at]
            if type(item) is Body:
                for waiting in self.waiting:
                    self.following[waiting] = item.id
                self.waiting.clear()
            self.following.append(None)
            if self.positions is not None:
                self.positions[id(item)] = at
            self.waiting.append(at)
        self.count = len(timeline)

    def place(self, timeline: list[TimelineItem], item: TimelineItem) -> int:
        """The position of `item` on the timeline; KeyError when it is not there."""
        if self.positions is None:
            self.positions = dict(zip(map(id, timeline), range(len(timeline))))  # in C: milliseconds for 100,000
        return self.positions[id(item)]


def _handed(session: Session) -> _Handed:
    """The session's `_Handed`, made once (the loader's thread asks first, through `timeline_rows`) and grown with it."""
    handed = _handed_of.get(session)
    if handed is None:
        handed = _handed_of[session] = _Handed(session.timeline)
    elif handed.count != len(session.timeline):
        handed.grow(session.timeline)
    return handed


@dataclass(slots=True)
class TimelineRow:
    """A top row of the timeline: a body (its calls below it), a lone entry, a kept snapshot, the end."""

    kind: str  # "body" | "entry" | "edit" | "group" (a long run of entries and edits) | "kept" | "end" | "end"
    item: Body | Entry | KeptSnapshot | None
    cursor: Any  # the body id the cursor moves to when this row is chosen (None: the end)
    children: list[Entry] = field(default_factory=list)
    children_cursor: Any = None  # where choosing one of its calls moves the cursor: the next body

    def cursor_for(self, call: Entry | None) -> Any:
        """The cursor for this row, or for one of its nested calls."""
        return self.cursor if call is None else self.children_cursor


def body_outcome(body: Body, refused: set[str]) -> str:
    """`ok`, `failed`, `refused` (its keep was refused) or `none` (no recorded result)."""
    if body.key in refused:
        return "refused"
    if body.result is None:
        return "none"
    return "failed" if body.failed else "ok"


def timeline_rows(session: Session | None) -> list[TimelineRow]:
    """The timeline as rows: each body with the calls it made nested under it, then "End of session".

    Computed once per session (the loader's thread asks first, so the window gets them ready: on a
    session of 100,000 entries they take a noticeable part of a second).

    Choosing an entry (or canvas edit) moves the cursor to the first body that was handed it
    (`body_handed`): the state at that body is the first that holds the entry (the end when no
    later body exists); choosing a body's call, to the body after it.
    """
    if session is None:
        return []
    known = _rows_of.get(session)
    if known is not None:
        return known
    following = _handed(session).following
    rows: list[TimelineRow] = []
    current: TimelineRow | None = None
    current_key: str | None = None
    for at, item in enumerate(session.timeline):
        kind = type(item)
        if kind is Entry:
            body = item.body  # type: ignore[union-attr]
            if current is not None and body is not None and not item.applied and str(body) == current_key:  # type: ignore[union-attr]
                current.children.append(item)  # type: ignore[arg-type]
                current.children_cursor = following[at]
                continue
            row = TimelineRow("edit" if item.applied else "entry", item, following[at])  # type: ignore[union-attr]
        elif kind is Body:
            current = TimelineRow("body", item, item.id)  # type: ignore[union-attr]
            current_key = item.key  # type: ignore[union-attr]
            rows.append(current)
            continue
        else:
            row = TimelineRow("kept", item, following[at])
        rows.append(row)
    rows.append(TimelineRow("end", None, None))
    rows = _grouped(rows)
    _rows_of[session] = rows
    return rows


GROUP_AT = 100  # a run of more lone entries or canvas edits than this becomes one expandable row


def _grouped(rows: list[TimelineRow]) -> list[TimelineRow]:
    """Long runs of top-level entries and edits folded into one "group" row each.

    A person who edited one call 20,000 times would otherwise get 20,000 top rows, and a tree view
    lays out every top row whenever the model resets (a second of the GUI thread).
    """
    out: list[TimelineRow] = []
    run: list[TimelineRow] = []

    def flush() -> None:
        if len(run) > GROUP_AT:
            out.append(TimelineRow("group", None, run[0].cursor, [r.item for r in run], run[0].cursor))  # type: ignore[misc]
        else:
            out.extend(run)
        run.clear()

    for row in rows:
        if row.kind in ("entry", "edit"):
            run.append(row)
            continue
        flush()
        out.append(row)
    flush()
    return out


def first_code_line(code: str, limit: int = 70) -> str:
    """The first meaningful line of a body (a leading comment says what it does)."""
    for line in code.splitlines():
        text = line.strip().removeprefix("//").strip()
        if text:
            return text if len(text) <= limit else text[: limit - 1] + "…"
    return "(empty body)"
