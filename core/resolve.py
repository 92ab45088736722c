"""The resolver: which entry `inputs.last(x)` / `inputs.at(id)` returns at a state, and why.

Answers are plain data for the GUI's resolver line and for tests. The expression is read loosely:
`inputs.last("pack.corridorRuns")`, `last(pack.corridorRuns)` or a bare `pack.corridorRuns` ask for
last(); `inputs.at("c5")`, `at(5)` or a bare word without dots (`c5`) ask for at(). The entry
returned is exactly the one `core.run_inputs.make_inputs` would return.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from core.edits import model_call
from core.filtering import filter_hint
from core.model import Entry, id_key
from core.run_inputs import call_matches, make_inputs

_CALL = re.compile(r"^\s*(?:inputs\s*\.\s*)?(last|at)\s*\(\s*(.*?)\s*\)\s*;?\s*$")


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


def resolve(store: Sequence[Entry], text: str, later: Sequence[Entry] = (), where: str = "here") -> Resolution:
    """Resolve a typed expression against the store (oldest first); `later`: the session's entries."""
    parsed = parse_expression(text)
    if isinstance(parsed, str):
        return Resolution("last", text.strip(), error=parsed)
    kind, argument = parsed
    if kind == "last":
        return resolve_last(store, argument, where)
    return resolve_at(store, argument, later, where)


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


