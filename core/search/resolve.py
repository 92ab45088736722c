"""The resolver: which entry `inputs.last(x)` / `inputs.at(id)` returns at a state, and why.

Answers are plain data for the GUI's resolver line and for tests. The expression is read loosely:
`inputs.last("pack.corridorRuns")`, `last(pack.corridorRuns)` or a bare `pack.corridorRuns` ask for
last(); `inputs.at("c5")`, `at(5)` or a bare word without dots (`c5`) ask for at(). The entry
returned is exactly the one `wsi_inspector.core.jsrules.run_inputs.make_inputs` would return.

A body is handed `makeInputs` over its store trimmed to `caps.storeBytes` (SPEC 5), so the resolver
answers for the trimmed store. The tail trimStore keeps is a suffix, and a store's entry ids are
unique, so the trimmed answer is the untrimmed one when that entry is kept and undefined when it
falls: `resolve` finds the untrimmed answer and asks `wsi_inspector.core.trim.preview` whether it falls. When it
does, the reason says so first: "c1 falls at the 5.6 KiB cap: a body at b8 gets undefined
(untrimmed: c1)". That sentence is made here once, for the Inputs view and `wsi resolve` alike.
`parse_strict` reads the two forms `wsi resolve` takes: `inputs.last("X")` and `inputs.at("ID")`.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from wsi_inspector.core.edits.edits import model_call
from wsi_inspector.core.search.filtering import filter_hint
from wsi_inspector.core.session.model import Entry, Id, id_key
from wsi_inspector.core.jsrules.run_inputs import call_matches, make_inputs
from wsi_inspector.core.jsrules.sizes import format_size
from wsi_inspector.core.trim.preview import StoreIndex, TrimPreview

_CALL = re.compile(r"^\s*(?:inputs\s*\.\s*)?(last|at)\s*\(\s*(.*?)\s*\)\s*;?\s*$")
# `inputs.at(7)` as a body writes a number id (the runner compares String(id)), as well as quoted ids.
_STRICT = re.compile(r"""^\s*inputs\.(last|at)\(\s*(?:"([^"\\]*)"|'([^'\\]*)')\s*\)\s*;?\s*$""")
_STRICT_NUMBER = re.compile(r"^\s*inputs\.at\(\s*(-?[0-9]+)\s*\)\s*;?\s*$")
STRICT_FORMS = 'inputs.last("group.module") or inputs.last("group.module.fn"), and inputs.at("id") or inputs.at(7)'


@dataclass(frozen=True, slots=True)
class Resolution:
    """What the resolver found: the entry (or None), its store index, every match, and why."""

    kind: Literal["last", "at"]
    argument: str
    entry: Entry | None = None
    index: int | None = None
    matches: list[int] = field(default_factory=list)
    reason: str = ""
    error: str | None = None
    untrimmed: Entry | None = None  # what the untrimmed store answers; `entry` is what the body gets
    cap: int | None = None  # the store cap the answer is for (None: no cap)
    fell: int = 0  # how many of the oldest entries fall at that cap

    @property
    def falls(self) -> bool:
        """True when the untrimmed answer falls at the cap, so the body gets undefined instead."""
        return self.untrimmed is not None and self.entry is None

    @property
    def expression(self) -> str:
        """The call as a body writes it: `inputs.last("pack.corridorRuns")`."""
        quoted = self.argument if self.argument.lstrip("-").isdigit() else '"' + self.argument.replace('"', '\\"') + '"'
        return f"inputs.{self.kind}({quoted})"


def parse_expression(text: str) -> tuple[Literal["last", "at"], str] | str:
    """`(kind, argument)` from what a person typed, or a message saying how to write it."""
    text = text.strip()
    if not text:
        return "type a call or module for inputs.last(…), e.g. pack.corridorRuns, or an id for inputs.at(…)"
    match = _CALL.match(text)
    if match:
        kind, argument = match.group(1), _unquote(match.group(2))
        if not argument:
            return f"{kind}() needs an argument, e.g. {kind}(\"{'pack.corridorRuns' if kind == 'last' else 'c5'}\")"
        return kind, argument  # type: ignore[return-value]
    if "(" in text or ")" in text:
        return f"cannot read {text!r}: write inputs.last(\"group.module\") or inputs.at(\"id\")"
    bare = _unquote(text)
    return ("last" if "." in bare else "at"), bare


def _unquote(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'`":
        return text[1:-1]
    return text


def parse_strict(text: str) -> tuple[Literal["last", "at"], str] | None:
    """`(kind, argument)` of `inputs.last("X")` / `inputs.at('ID')` (either quotes) / `inputs.at(7)`, else None."""
    number = _STRICT_NUMBER.match(text)
    if number is not None:
        return "at", number.group(1)
    match = _STRICT.match(text)
    if match is None:
        return None
    argument = match.group(2) if match.group(2) is not None else match.group(3)
    return match.group(1), argument  # type: ignore[return-value]


def where_text(at_body: Id | None) -> str:
    """Where an answer stands, in words: `in the store handed to body b8` or `at the end of the session`."""
    return "at the end of the session" if at_body is None else f"in the store handed to body {at_body}"


def resolve(store: Sequence[Entry], text: str, later: Sequence[Entry] = (), where: str = "here", *,
            cap: int | None = None, at_body: Id | None = None, preview: TrimPreview | None = None) -> Resolution:
    """Resolve a typed expression against the store (oldest first) as a body at `at_body` gets it.

    `later`: the session's entries; `cap`: the session's `caps.storeBytes` (the store is trimmed to
    it first, as the editor does); `preview`: a TrimPreview of exactly `store`, to reuse its sizes.
    """
    parsed = parse_expression(text)
    if isinstance(parsed, str):
        return Resolution("last", text.strip(), error=parsed)
    return resolve_parsed(store, parsed, later, where, cap=cap, at_body=at_body, preview=preview)


def resolve_parsed(store: Sequence[Entry], parsed: tuple[Literal["last", "at"], str], later: Sequence[Entry] = (),
                   where: str = "here", *, cap: int | None = None, at_body: Id | None = None,
                   preview: TrimPreview | None = None) -> Resolution:
    """The answer for `(kind, argument)` in the store trimmed to `cap`, with the untrimmed answer beside it."""
    kind, argument = parsed
    untrimmed = resolve_last(store, argument, where) if kind == "last" else resolve_at(store, argument, later, where)
    if cap is None or untrimmed.entry is None or untrimmed.index is None:
        return replace(untrimmed, untrimmed=untrimmed.entry, cap=cap)
    preview = preview or StoreIndex(store).preview()
    fell = preview.fell_at(cap)
    if untrimmed.index >= fell:
        reason = untrimmed.reason
        if fell:
            older = "an older entry" if fell == 1 else f"{fell:,} older entries"
            reason += f"; the {format_size(cap)} cap trims {older}, not this one"
        return replace(untrimmed, reason=reason, untrimmed=untrimmed.entry, cap=cap, fell=fell)
    fallen = untrimmed.entry
    reader = "a body at the end of the session" if at_body is None else f"a body at {at_body}"
    reason = (f"{fallen.id} falls at the {format_size(cap)} cap: {reader} gets undefined (untrimmed: {fallen.id}); "
              f"trimStore keeps the newest entries that fit, and {fell:,} of {preview.count:,} "
              f"{'entry falls' if preview.count == 1 else 'entries fall' if fell != 1 else 'entries falls'}; "
              f"a cap of at least {preview.kept_from_cap(untrimmed.index):,} B keeps it")
    return Resolution(kind, argument, None, None, untrimmed.matches, reason, untrimmed=fallen, cap=cap, fell=fell)


def resolve_last(store: Sequence[Entry], wanted: str, where: str = "here") -> Resolution:
    """Which entry `inputs.last(wanted)` returns, and why: the newest whose call matches."""
    entry = make_inputs(store).last_entry(wanted)
    matches = [i for i, e in enumerate(store) if call_matches(e.call, wanted)]
    scope = "every fn of module" if wanted.count(".") == 1 else "exactly the call"
    if entry is None:
        hint = filter_hint(wanted, sorted({e.call for e in store}))
        reason = f"nothing {where} matches {wanted}, so inputs.last returns undefined" + (f". {hint}" if hint else "")
        return Resolution("last", wanted, matches=matches, reason=reason)
    index = matches[-1]
    parts = [f"the newest of {len(matches)} {'entry' if len(matches) == 1 else 'entries'} matching "
             f"{wanted} ({scope} {wanted}) {where}"]
    if entry.call != wanted:
        parts.append(f"its call is {entry.call}")
    if entry.applied:
        base = model_call(store[: index + 1], entry)
        of = f" of {base.id}" if base is not None else ""
        parts.append(f"it is a person's canvas edit{of}, newer than the model call, so the body gets the person's version")
    else:
        older_edits = [store[i] for i in matches if store[i].applied]
        if older_edits:
            parts.append(f"the person's edit {older_edits[-1].id} is older than this model call, so it is not what last() returns")
    return Resolution("last", wanted, entry, index, matches, "; ".join(parts))


def resolve_at(store: Sequence[Entry], entry_id: str, later: Sequence[Entry] = (), where: str = "here") -> Resolution:
    """Which entry `inputs.at(entry_id)` returns (ids compared as strings), and why."""
    entry = make_inputs(store).entry_at(entry_id)
    key = id_key(entry_id)
    if entry is None:
        recorded = next((e for e in later if e.key == key), None)
        if recorded is not None:
            by = f" by body {recorded.body}" if recorded.body is not None else " as a canvas edit"
            reason = f"{entry_id} is recorded later{by}, after this point, so inputs.at returns undefined {where}"
        else:
            reason = f"no entry has id {entry_id} {where}, so inputs.at returns undefined"
        return Resolution("at", entry_id, reason=reason)
    index = next(i for i in range(len(store) - 1, -1, -1) if store[i].key == key)
    reason = f"the entry whose id is {entry_id} (ids compare as strings) {where}: {entry.call}"
    if entry.applied:
        reason += ", a person's canvas edit"
    return Resolution("at", entry_id, entry, index, [index], reason)


