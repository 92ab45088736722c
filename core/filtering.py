"""Filter and sort the inputs manifest over row indices, headless, fast on 100,000 entries.

A `ManifestIndex` is built once per session over its entries (timeline order). The store at any
state is a prefix of those entries, so a view over a state is a list of indices below the state's
count. Filtering uses `call_matches` per distinct call (a session has few), and sorting sorts
indices by a key list computed once per column.

Text search means: the input's compact JSON (orjson), lowercased, holds the text as JSON writes it
inside a string, lowercased. It is answered from the records' own texts, a few thousand joined and
lowered at a time and searched with one `bytes.find` per hit, so Python work grows with the hits,
not the bytes; an input is parsed only where its text may differ from its JSON (`_input_span`).
"""
from __future__ import annotations

import json
import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import accumulate, chain
from typing import Any

import orjson

from core.jsonsize import js_keys
from core.manifest import shape_text
from core.model import Entry
from core.run_inputs import call_matches, entry_bytes, input_bytes, input_shape

COLUMNS = ("id", "call", "unit", "applied", "shape", "bytes")
_DIGITS = re.compile(r"(\d+)")
_NOT_WITHIN_ONE_TOKEN = re.compile(rb'[,:\[\]{}"\\]').search
_NUMBER_CHARACTERS = re.compile(rb"[0-9eE+\-.]*").fullmatch


def _screenable(needle: bytes) -> bool:
    """Whether a record's text can stand for its input's compact JSON when searching for `needle`.

    Parsing every input to search it is most of a search's time. A needle that can only lie inside
    one token (no JSON punctuation; compact JSON has spaces only inside strings, and the needle's
    other whitespace is escaped) and cannot be part of a number or of `null` (which the record may
    spell differently: `1e2` is `100.0`, `1e999` is `null`) is found in the input's text exactly
    where it is in the compact JSON, wherever that text spells the input token for token
    (`_input_span`). Other needles parse every input.
    """
    return not (not needle or _NOT_WITHIN_ONE_TOKEN(needle) or _NUMBER_CHARACTERS(needle) or needle in b"null")


_BATCH = 4096  # records lowered and searched together: a few MB at a time, never a copy of the file


# A trailing scalar member of an entry record (`,"unit":"mm"`), read back from the record's end.
_TRAILING_MEMBER = re.compile(
    rb',\s*"(?:id|call|unit|applied|editOf|body|seq|at|kind)"\s*:\s*(?:"[^"\\]*"|true|false|null|-?[0-9]+)\s*').fullmatch
_INPUT_KEY = b'"input":'


def _input_span(entry: Entry) -> tuple[int, int, bool]:
    """Where the entry's input lies in its record text, and whether that text is its JSON token for token.

    Only for a record without a backslash: its one `"input":` is then the record's own member (a
    quote inside a string is escaped), and the input runs to the first of the scalar members that
    end the record (read back from its end; an input value cannot end like one, as it would need a
    quote inside a string). The text is token for token when it has no exponent and, its `N.0`
    numbers counted as JavaScript writes them (`N`), is exactly `input_bytes` long: the JS text of
    the parsed input (what `input_bytes` measures) is then the same length, and every other change a
    parse can make (whitespace, a duplicate key dropped, a number written shorter, another member
    such as `output` caught in the span) only shortens it. orjson's text differs from JavaScript's
    only in numbers, where a screened needle never lies, so a screened needle is in the text exactly
    when it is in the input's orjson text. (0, 0, False): no such span; the input is parsed.
    """
    text = bytes(entry.text)
    at = text.find(_INPUT_KEY)
    if at < 0 or text.find(_INPUT_KEY, at + 1) >= 0 or b"\\" in text:
        return 0, 0, False
    start = at + len(_INPUT_KEY)
    end = text.rstrip().rfind(b"}")
    while True:
        comma = text.rfind(b",", start, end)
        if comma < 0 or _TRAILING_MEMBER(text, comma, end) is None:
            break
        end = comma
    span = text[start:end].rstrip()
    start += len(span) - len(span.lstrip())
    span = span.lstrip()
    outside = b"".join(span.split(b'"')[::2])
    if b"E" in outside or outside.count(b"e") != outside.count(b"true") + outside.count(b"false"):
        return start, start + len(span), False  # an exponent: JavaScript may write it longer
    return start, start + len(span), len(span) - (_js_saves(outside) if b".0" in outside else 0) == entry.input_bytes


def _js_saves(outside: bytes) -> int:
    """Bytes JavaScript writes fewer than `outside` (a JSON text without its strings and exponents) spells.

    As jsonsize's `_number_corrections` counts them, by plain counts: `N.0` is `N` (2 fewer) and a
    whole `-0.0` is `0` (one more); a token ends at `,`, `]`, `}` or the end of the text.
    """
    ends = (b",", b"]", b"}")
    integral = sum(outside.count(b".0" + end) for end in ends) + outside.endswith(b".0")
    negative_zero = sum(outside.count(b"-0.0" + end) for end in ends) + outside.endswith(b"-0.0") if b"-0.0" in outside else 0
    return 2 * integral + negative_zero


def _records_holding(haystack: bytes, needle: bytes, starts: list[int]) -> Iterator[int]:
    """The numbers of the records (starting at `starts` in `haystack`) that hold `needle`, in order."""
    hit = haystack.find(needle)
    last = len(starts) - 1
    while hit >= 0:
        k = bisect_right(starts, hit) - 1
        yield k
        if k == last:
            return
        hit = haystack.find(needle, starts[k + 1])


def _holds(entry: Entry, needle: bytes) -> bool:
    """Whether the entry's input, written as compact JSON and lowercased, holds `needle`: the search's meaning."""
    return needle in _json_text(entry.input).lower()


def search_needle(text: str) -> bytes:
    """The text as it appears inside JSON (a quote or backslash escaped), lowercased: what a search looks for."""
    return orjson.dumps(text)[1:-1].lower()


def _json_text(value: Any) -> bytes:
    try:
        return orjson.dumps(value)
    except TypeError:  # big integers or lone surrogates: the standard library writes them
        return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass")


def matches_in(value: Any, text: str, limit: int = 10_000) -> list[str]:
    """JSON Pointers of the keys and scalar values inside `value` that hold `text`, in document order.

    The same match as the Inputs search (case-insensitive for ASCII letters, on the JSON text), per
    node: a key that holds it names its node, a number, string, boolean or null that holds it names
    itself. Walked with a stack (a value may nest 1,024 deep) and stopped after `limit` matches.
    """
    if not text:
        return []
    needle = search_needle(text)
    found: list[str] = []
    todo: list[tuple[str, Any]] = [("", value)]
    while todo and len(found) < limit:
        pointer, node = todo.pop()
        if isinstance(node, dict):
            children = []
            for key in js_keys(node):
                child = f"{pointer}/{str(key).replace('~', '~0').replace('/', '~1')}"
                if needle in _json_text(str(key))[1:-1].lower():
                    children.append((child, None, True))
                children.append((child, node[key], False))
            todo.extend((c, v) if not is_key else (c, _KEY_HIT) for c, v, is_key in reversed(children))
        elif isinstance(node, list):
            todo.extend((f"{pointer}/{i}", node[i]) for i in range(len(node) - 1, -1, -1))
        elif node is _KEY_HIT or needle in _json_text(node).lower():
            if not found or found[-1] != pointer:
                found.append(pointer)
    return found


_KEY_HIT = object()  # on the stack: this node's key holds the text


def shape_of(entry: Entry, limit: int = 60) -> str:
    """An entry's input shape as the manifest describes it: `{spine, bandDepth}`, `[50]` or its kind."""
    return shape_text(input_shape(entry), limit)


def natural_key(text: str) -> tuple:
    """Sort `c2` before `c10`: digit runs compare as numbers, the rest as text."""
    return tuple(int(part) if part.isdigit() else part for part in _DIGITS.split(text))


@dataclass(frozen=True, slots=True)
class FilterSpec:
    """What the Inputs view asks for: a call or module (callMatches), a text to find in inputs."""

    wanted: str = ""
    text: str = ""
    sort_column: str | None = None
    descending: bool = False


class ManifestIndex:
    """The session's entries with what filtering and sorting need, computed once."""

    def __init__(self, entries: Sequence[Entry]):
        self.entries = entries
        self.calls = [e.call for e in entries]
        # The editor-shaped size of each entry: a state's store size is a prefix sum of these.
        self.sizes = [entry_bytes(e) for e in entries]
        self._sort_keys: dict[str, list[Any]] = {}
        self._prefix: list[int] | None = None  # running sums of sizes, built on first use
        self._positions: dict[int, int] | None = None
        self._by_call: dict[str, list[int]] = {}  # each call's entry indices, ascending
        self._spans: dict[int, tuple[int, int, bool]] = {}  # _input_span of entries a search hit, kept
        for position, call in enumerate(self.calls):
            self._by_call.setdefault(call, []).append(position)

    def __len__(self) -> int:
        return len(self.calls)

    def extend(self, entries: Sequence[Entry]) -> None:
        """Take entries appended to the session (a followed file grew); what was computed is kept and extended."""
        start = len(self.calls)
        if len(self.entries) == start:  # a list of its own, not the session's (which grew in place)
            self.entries = [*self.entries, *entries]
        self.calls += [e.call for e in entries]
        sizes = [entry_bytes(e) for e in entries]
        self.sizes += sizes
        if self._prefix is not None:
            self._prefix += list(accumulate(sizes, initial=self._prefix[-1]))[1:]
        if self._positions is not None:
            self._positions.update({id(e): start + n for n, e in enumerate(entries)})
        for position, entry in enumerate(entries, start):
            self._by_call.setdefault(entry.call, []).append(position)
        for column, keys in self._sort_keys.items():
            keys += [_KEYS[column](e) for e in entries]

    def store_bytes(self, count: int) -> int:
        """Size of the first `count` entries as the editor's store array (SPEC 3 trimStore), in O(1)."""
        if self._prefix is None:
            self._prefix = list(accumulate(self.sizes, initial=0))
        return 2 + self._prefix[count] + max(count - 1, 0)

    def position(self, entry: Entry, count: int) -> int | None:
        """Where `entry` stands among the first `count` entries (a state's store), or None."""
        if self._positions is None:
            self._positions = {id(e): i for i, e in enumerate(self.entries)}
        at = self._positions.get(id(entry))
        return at if at is not None and at < count else None

    def distinct_calls(self, count: int | None = None) -> list[str]:
        """Every call among the first `count` entries, sorted, for completion."""
        return sorted(c for c, positions in self._by_call.items() if count is None or positions[0] < count)

    def matching(self, wanted: str, count: int, start: int = 0) -> list[int]:
        """Indices from `start` below `count` whose call matches `wanted` with callMatches; all when empty."""
        wanted = wanted.strip()
        if not wanted:
            return list(range(start, count))
        # callMatches is asked once per distinct call; the rows come from each call's index list.
        lists = [positions[bisect_left(positions, start) if start else 0: bisect_left(positions, count)]
                 for call, positions in self._by_call.items() if call_matches(call, wanted)]
        if len(lists) == 1:
            return lists[0]
        return sorted(chain.from_iterable(lists))

    def containing(self, indices: Sequence[int], text: str) -> list[int]:
        """The indices whose input JSON contains `text` (case-insensitive for ASCII letters)."""
        if not text:
            return list(indices)
        needle = search_needle(text)
        if not _screenable(needle) and b"\\" not in needle:
            return [i for i in indices if _holds(self.entries[i], needle)]
        found: list[int] = []
        batch: list[int] = []
        for i in indices:
            batch.append(i)
            if len(batch) == _BATCH:
                found += self._scan(batch, needle)
                batch = []
        return found + self._scan(batch, needle) if batch else found

    def _scan(self, batch: list[int], needle: bytes) -> list[int]:
        """The entries of `batch` holding `needle`: one lowered text of their records, searched once.

        A record without a backslash that does not hold the needle cannot have it in its input (the
        old screen); one that holds it has it in its input exactly when `_input_span` says the input's
        text is its JSON token for token and the hit lies in it; any other record is parsed and
        searched. Python work grows with hits and escaped records, not with bytes.
        """
        entries = self.entries
        texts = []
        starts = []
        textual = []
        at = 0
        found: list[int] = []  # positions in batch
        for position, i in enumerate(batch):
            record = entries[i].text
            if record is None:  # made in memory: no text to search
                if _holds(entries[i], needle):
                    found.append(position)
                continue
            texts.append(record)
            starts.append(at)
            textual.append(position)
            at += len(record) + 1
        if not texts:
            return [batch[p] for p in found]
        # The newline joining records cannot be in a needle: search_needle escapes control characters.
        haystack = b"\n".join(texts)
        if needle.upper() != needle:  # ASCII letters: the search ignores their case
            haystack = haystack.lower()
        escaped = set(_records_holding(haystack, b"\\", starts))
        # A needle with a backslash (an escaped quote, backslash or control character) is only in
        # the compact JSON of a string that had to be escaped, so only in a record with a backslash.
        possible = () if b"\\" in needle else _records_holding(haystack, needle, starts)
        spans = self._spans
        for k in possible:
            i = batch[textual[k]]
            if k in escaped:
                continue
            span = spans.get(i)
            if span is None:
                span = spans[i] = _input_span(entries[i])
            if span[2]:  # the input's text spells its JSON: a hit in it is a hit, none is none
                if haystack.find(needle, starts[k] + span[0], starts[k] + span[1]) >= 0:
                    found.append(textual[k])
            elif _holds(entries[i], needle):
                found.append(textual[k])
        found += [textual[k] for k in escaped if _holds(entries[batch[textual[k]]], needle)]
        return [batch[p] for p in sorted(found)]

    def sort_key(self, column: str) -> list[Any]:
        """The sort key of every entry for one column (computed on first use)."""
        if column not in COLUMNS:
            raise ValueError(f"no column {column!r}; the columns are {', '.join(COLUMNS)}")
        keys = self._sort_keys.get(column)
        if keys is None:
            keys = [_KEYS[column](e) for e in self.entries]
            self._sort_keys[column] = keys
        return keys

    def sorted(self, indices: Sequence[int], column: str | None, descending: bool = False) -> list[int]:
        """The indices ordered by `column` (stable; timeline order breaks ties), or as given."""
        if column is None:
            return list(reversed(indices)) if descending else list(indices)
        keys = self.sort_key(column)
        return sorted(indices, key=keys.__getitem__, reverse=descending)

    def rows(self, spec: FilterSpec, count: int, start: int = 0) -> list[int]:
        """The rows the view shows: filtered by call and text, then sorted (only entries from `start` on)."""
        indices = self.matching(spec.wanted, count, start)
        indices = self.containing(indices, spec.text)
        return self.sorted(indices, spec.sort_column, spec.descending)


_KEYS: dict[str, Callable[[Entry], Any]] = {
    "id": lambda e: natural_key(str(e.id)),
    "call": lambda e: e.call,
    "unit": lambda e: e.unit or "",
    "applied": lambda e: e.applied,
    "shape": shape_of,
    "bytes": input_bytes,
}


def filter_hint(wanted: str, calls: Sequence[str]) -> str | None:
    """Why a call filter matches nothing, and what to type instead; None when it matches or is empty."""
    wanted = wanted.strip()
    if not wanted or any(call_matches(c, wanted) for c in calls):
        return None
    parts = wanted.split(".")
    modules = sorted({c.rsplit(".", 1)[0] for c in calls})
    if len(parts) == 1:
        inside = [m for m in modules if m.startswith(wanted + ".")]
        if inside:
            return f"{wanted} is a group; callMatches wants a module or a call, e.g. {inside[0]}"
    near = [m for m in modules if m.startswith(wanted)] + [c for c in calls if c.startswith(wanted)]
    if near:
        return f"{wanted} matches nothing (callMatches takes whole segments); did you mean {near[0]}?"
    return f"no call matches {wanted}: type a module (group.module) or a full call (group.module.fn)"
