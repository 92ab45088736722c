"""`wsi check --where EXPR`: which sessions of a corpus to report, in a small grammar over session reports.

    EXPR  := TERM ( ("," | " ") TERM )*        every term must hold (and); give --where again to add more
    TERM  := ["!"] ATOM                         "!" negates
    ATOM  := call=NAMES        the store has a call that callMatches a name (a full call or a module)
           | edited=NAMES      a person's canvas edit (applied entry) of such a call
           | edit-falls[=NAMES]  a canvas edit (of such a call) falls at the session's cap
           | fails             a body's replay ends in an error (ok: false)
           | differs           a body replays differently from its record
           | problem=CODES     a finding with that code (wsi_inspector.core.check.check's table), or `error` / `warning` for any
           | clean             the session is clean
           | regressed         with --baseline: the session was clean in OLD and is not now
           | retyped           a body typed again a value it could have read (SPEC 7; a `retyped` warning)
    NAMES := NAME ( "|" NAME )*                 any of them

So "every session where pack.corridorRuns was edited by a person" is `--where edited=pack.corridorRuns`.
Names follow SPEC 3's callMatches: `pack.corridorRuns` is a module and matches its calls; `pack` alone
or `pack.corridor` match nothing. The load-only terms (`call`, `edited`, `edit-falls`) are decided before
any body runs, so a query over them replays only the sessions that can match.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from wsi_inspector.core.jsrules.run_inputs import call_matches

if TYPE_CHECKING:
    from wsi_inspector.core.check.check import SessionReport

_NAME = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$]*(\.[A-Za-z_$][A-Za-z0-9_$]*){1,2}$")
_CODE = re.compile(r"^[a-z][a-z0-9-]*$")
LOAD_ONLY = frozenset({"call", "edited", "edit-falls"})
KINDS = ("call", "edited", "edit-falls", "fails", "differs", "problem", "clean", "regressed", "retyped")


class WhereError(ValueError):
    """An EXPR that cannot be read; the message says which term and how to write it."""


@dataclass(frozen=True, slots=True)
class Term:
    """One ATOM, possibly negated."""

    kind: str
    values: tuple[str, ...]
    negated: bool

    def holds(self, report: SessionReport) -> bool:
        return _TESTS[self.kind](report, self.values) != self.negated


def _any_call(calls: list[str], wanted: tuple[str, ...]) -> bool:
    return any(call_matches(call, name) for call in calls for name in wanted)


_TESTS: dict[str, Callable[[SessionReport, tuple[str, ...]], bool]] = {
    "call": lambda r, v: _any_call(r["calls"], v),
    "edited": lambda r, v: _any_call(r["editedCalls"], v),
    "edit-falls": lambda r, v: _any_call(r["lostEditCalls"], v) if v else r["lostEdits"] > 0,
    "fails": lambda r, v: r["fails"] > 0,
    "differs": lambda r, v: r["differs"] > 0,
    "problem": lambda r, v: any(f["code"] in v or f["severity"] in v for f in r["findings"]),
    "clean": lambda r, v: bool(r["clean"]),
    "regressed": lambda r, v: (r.get("baseline") or {}).get("wasClean") is True and not r["clean"],
    "retyped": lambda r, v: any(f["code"] == "retyped" for f in r["findings"]),
}


class Where:
    """A parsed --where: terms that must all hold."""

    def __init__(self, terms: list[Term], text: str):
        self.terms = terms
        self.text = text

    def may_match(self, report: SessionReport) -> bool:
        """False when the load alone rules the session out (a load-only term fails), so it need not replay."""
        return all(t.holds(report) for t in self.terms if t.kind in LOAD_ONLY)

    def matches(self, report: SessionReport) -> bool:
        """True when every term holds for the finished report."""
        return all(t.holds(report) for t in self.terms)


def parse_where(texts: list[str]) -> Where:
    """Read one or more --where EXPRs (all must hold); WhereError says what is wrong."""
    terms: list[Term] = []
    for text in texts:
        words = [w for w in re.split(r"[,\s]+", text.strip()) if w]
        if not words:
            raise WhereError("--where: empty expression; e.g. --where edited=pack.corridorRuns")
        terms.extend(_term(word) for word in words)
    return Where(terms, " ".join(texts))


def _term(word: str) -> Term:
    negated = word.startswith("!")
    atom = word[1:] if negated else word
    kind, has_value, value = atom.partition("=")
    if kind not in KINDS:
        raise WhereError(f"--where: unknown term {kind!r}; the terms are {', '.join(KINDS)} (see wsi check --help)")
    values = tuple(v for v in value.split("|") if v) if has_value else ()
    if kind in ("call", "edited", "problem") and not values:
        example = {"call": "call=pack.corridorRuns", "edited": "edited=pack.corridorRuns", "problem": "problem=bad-unit"}[kind]
        raise WhereError(f"--where: {kind} needs a value, e.g. {example}")
    if kind in ("fails", "differs", "clean", "regressed", "retyped") and has_value:
        raise WhereError(f"--where: {kind} takes no value (write {kind}, or !{kind} for the opposite)")
    for v in values:
        if kind == "problem" and not _CODE.match(v):
            raise WhereError(f"--where: {v!r} is not a problem code; codes look like bad-unit, edit-falls, replay-input")
        if kind != "problem" and not _NAME.match(v):
            raise WhereError(f"--where: {v!r} is not a call or module name (group.module or group.module.fn)")
    return Term(kind, values, negated)
