"""Filter and sort the inputs manifest over row indices, headless, fast on 100,000 entries.

A `ManifestIndex` is built once per session over its entries (timeline order). The store at any
state is a prefix of those entries, so a view over a state is a list of indices below the state's
count. Filtering uses `call_matches` per distinct call (a session has few), and sorting sorts
indices by a key list computed once per column.

Text search means: the input's compact JSON (orjson), lowercased, holds the text as JSON writes it
inside a string, lowercased. It is answered from the records' own texts, in blocks of _BATCH entries
read where they lie in the file's bytes (the JSON form: wsi_inspector.core.session.in_place), or else joined with newlines
(a few MB at a time, never a lowered or joined copy of the file): the needle is
found as given with `bytes.find` (the C library's memmem where there is one: wsi_inspector.core.session.fast_find), one
per record that holds it (past _MANY_HITS records, every hit at once from the needle's rarest byte
with numpy), and a hit that only a lowered text holds must cover
one of the block's ASCII capitals, which the block keeps from its first search (few in real
sessions; a block with too many is lowered per search instead). Only the runs of records whose
trigram signature may hold the needle are searched (`wsi_inspector.core.search.trigram_filter`: a needle few
records hold reads a few runs, not 130 MB). The loader notes where each record spells its input
exactly as orjson writes it (`Entry.input_span`): a hit there is a hit in the input, checked for all
hits at once. An input is
parsed only where its record spells it otherwise (spaces, `1e2`, `\u00e9`) or it has no record.
Kept: some 50 bytes an entry (its input span; texts list, starts, spans in them, capitals, run signatures).
"""
from __future__ import annotations

import json
import math
import re
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import accumulate, chain, islice
from typing import Any

import orjson

from wsi_inspector.core.session.fast_find import ByteBuffer, finder
from wsi_inspector.core.session.in_place import records_in_place
from wsi_inspector.core.jsrules.jsonsize import js_keys
from wsi_inspector.core.search.manifest import shape_text
from wsi_inspector.core.session.model import Entry
from wsi_inspector.core.session.reading import MOST_INT_DIGITS
from wsi_inspector.core.jsrules.run_inputs import call_matches, entry_bytes, input_bytes, input_shape
from wsi_inspector.core.search.trigram_filter import records_read, runs_holding, signatures

COLUMNS = ("id", "call", "unit", "applied", "shape", "bytes")
_DIGITS = re.compile(r"(\d+)")
_NOT_WITHIN_ONE_TOKEN = re.compile(rb'[,:\[\]{}"\\]').search
_NUMBER_CHARACTERS = re.compile(rb"[0-9eE+\-.]*").fullmatch


def _screenable(needle: bytes) -> bool:
    """Whether a record's text that lacks `needle` (and a backslash) shows its input's compact JSON lacks it too.

    Needed only for records that spell their input otherwise than orjson (no `input_span`), so as not
    to parse all of them. A needle that can only lie inside one token (no JSON punctuation; compact
    JSON has spaces only inside strings, and the needle's other whitespace is escaped) and cannot be
    part of a number or of `null` (which the record may spell differently: `1e2` is `100.0`, `1e999`
    is `null`) is in the compact JSON only if it is in the record's text. Other needles parse every
    such input.
    """
    return not (not needle or _NOT_WITHIN_ONE_TOKEN(needle) or _NUMBER_CHARACTERS(needle) or needle in b"null")


_BATCH = 4096  # records joined and searched together (a block): a few MB at a time, never a copy of the file
_FEW_OF_A_BLOCK = 16  # rows wanted from a block below 1/16 of it are searched one by one, not joined
_FEW_TO_SORT = 16  # rows below 1/16 of the entries are sorted themselves, not taken from a column's whole order
_CAPITALS_KEPT = 64  # a block with more than one ASCII capital in 64 bytes is lowered at each search instead
_MANY_HITS = 256  # records of a block found holding a needle one by one before all are found at once
_HIT_BYTES = 32  # a needle's rarest byte met more than once in 32 bytes of a block: found with bytes.find instead (a digit: 1 in 13)
_SAMPLED = 16  # a block's bytes are counted in 1 of 16 (counts only choose how to search: see _exact_hits)


@dataclass(slots=True)
class _Block:
    """What the searches of one block of entries keep: some 32 bytes an entry, never a copy of its text."""

    size: int  # entries it was read over (the last block grows as a followed file does)
    parsed: list[int]  # entries without a record text, or whose record spells its input otherwise and holds a backslash
    loose: frozenset[int]  # entries whose record spells its input otherwise, without a backslash (see _screenable)
    texts: list[Any]  # the entries' record texts (the entries' own objects), searched in place or joined
    owners: Any  # the entry of each text (a numpy array), or the first one's when they follow each other (an int)
    starts: array[int]  # where each text starts in place or once joined by newlines, then the end plus one
    inputs: Any  # where each text's input_span starts and ends there (numpy arrays; -1 when it has none)
    capitals: Any  # where the texts hold an ASCII capital (a numpy array); None: too many
    counts: Any  # about how many of each byte the texts hold (a numpy array of 256; see _facts)
    runs: Any  # each run of records' trigram signature (wsi_inspector.core.search.trigram_filter), to read only runs that may hold a needle
    in_place: Any  # the texts where they lie in the file (wsi_inspector.core.session.in_place: a numpy view, no copy), searched there; None: joined


def _first_hits(pieces: list[tuple[ByteBuffer, int]], needle: bytes, starts: array[int]) -> Iterator[int]:
    """The first place of `needle` in each record that holds it: records start at `starts`, and `pieces`
    are runs of them (each with where it starts among all), in order. A hit that runs past its record's
    end (records in place: across a comma) comes after every hit inside it, and lies in no input."""
    last = len(starts) - 2  # starts ends with the end of the last record plus one
    for piece, at in pieces:
        find = finder(piece)
        hit = find(needle)
        while hit >= 0:
            yield hit + at
            k = bisect_right(starts, hit + at) - 1
            if k >= last:
                return
            hit = find(needle, starts[k + 1] - at)


def _places(pieces: list[tuple[ByteBuffer, int]], needle: bytes, starts: array[int], counts: Any, lowered: bool) -> tuple[Any, int]:
    """Where `needle` is in `pieces` as given (numpy array), and how many of those places come first, one per record.

    The first hit in each record that holds it, then the next record; past _MANY_HITS records, every
    hit at once instead (one more pass, no Python work per hit): none of them is then a record's first.
    """
    import numpy

    hits_in_turn = _first_hits(pieces, needle, starts)
    first_places = list(islice(hits_in_turn, _MANY_HITS))
    if len(first_places) == _MANY_HITS:
        if lowered:
            counts = counts.copy()
            counts[97:123] += counts[65:91]
        every = [_exact_hits(piece, needle, counts) for piece, _ in pieces]
        if all(places is not None for places in every):
            return numpy.concatenate([places + at for places, (_, at) in zip(every, pieces)]), 0
    first_places += hits_in_turn  # too many places to check at once: go on
    return numpy.array(first_places, numpy.int64), len(first_places)


def _facts(haystack: ByteBuffer, starts: array[int]) -> tuple[Any, Any, Any]:
    """Where `haystack` holds an ASCII capital (None when over 1 in _CAPITALS_KEPT), about how many of each
    byte it holds (counted in 1 of _SAMPLED bytes: only to choose how to search), and its runs' signatures."""
    import numpy

    runs, capitals = signatures(haystack, starts, len(haystack) // _CAPITALS_KEPT)
    counts = numpy.bincount(numpy.frombuffer(haystack, numpy.uint8)[::_SAMPLED], minlength=256) * _SAMPLED
    if capitals is not None and len(haystack) < 2**31:
        capitals = capitals.astype(numpy.int32)  # half the bytes kept
    return capitals, counts, runs


def _exact_hits(haystack: ByteBuffer, needle: bytes, counts: Any) -> Any:
    """Every place `needle` is in `haystack` as given (a numpy array), or None when that is too many places to check.

    The needle's rarest byte (by `counts`, the haystack's byte counts) gives the places to check, all
    checked at once byte by byte: one pass over the bytes, and no Python work per hit.
    """
    import numpy

    offset = min(range(len(needle)), key=lambda at: counts[needle[at]])
    if counts[needle[offset]] * _HIT_BYTES > len(haystack):  # more places than bytes kept for them
        return None
    codes = numpy.frombuffer(haystack, numpy.uint8)
    places = numpy.flatnonzero(codes == needle[offset]) - offset
    places = places[(places >= 0) & (places <= len(haystack) - len(needle))]
    for at, byte in enumerate(needle):
        if at != offset:
            places = places[codes[places + at] == byte]
    return places


def _capital_hits(haystack: ByteBuffer, capitals: Any, at: int, needle: bytes) -> Any:
    """Where `needle` (lowercase) is in `haystack` (a piece of the block starting at `at`) only once it is lowered.

    A numpy array of places in the block; `capitals` are the block's.

    Such a hit covers a capital that lowers to one of the needle's letters: each capital and letter
    gives one place to check, and all are checked at once, byte by byte, never lowering the text. A
    place may be given twice (two capitals in one hit).
    """
    import numpy

    codes = numpy.frombuffer(haystack, numpy.uint8)
    if at or len(haystack) <= capitals[-1]:  # a piece: its own capitals, placed in it
        capitals = capitals[numpy.searchsorted(capitals, at):numpy.searchsorted(capitals, at + len(haystack))] - at
    lower = _lower_table()
    lowered = lower[codes[capitals]]
    places = numpy.concatenate([capitals[lowered == letter].astype(numpy.int64) - offset
                                for offset, letter in enumerate(needle) if 97 <= letter <= 122])
    places = places[(places >= 0) & (places <= len(haystack) - len(needle))]
    for offset, byte in enumerate(needle):
        places = places[lower[codes[places + offset]] == byte]
    return places + at


_LOWER: list[Any] = []


def _lower_table() -> Any:
    """Each byte's `bytes.lower()`, as a numpy lookup table (made on first use: numpy loads only when searched)."""
    if not _LOWER:
        import numpy

        table = numpy.arange(256, dtype=numpy.uint8)
        table[65:91] += 32
        _LOWER.append(table)
    return _LOWER[0]


def _screened(needle: bytes) -> bool:
    """Whether a loose record (no input_span, no backslash) need be parsed only when its text holds `needle`.

    A needle with a backslash (an escaped quote, backslash or control character) is only in the JSON of
    a string that had to be escaped, so only in a record with a backslash: screened too.
    """
    return _screenable(needle) or b"\\" in needle


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
    """Sort `c2` before `c10`: digit runs compare as numbers, the rest as text.

    A run longer than Python reads as an int (4,300 digits; an id is user data) sorts after every
    shorter one, as infinity: among such ids the text after it decides.
    """
    return tuple((int(part) if len(part) <= MOST_INT_DIGITS else math.inf) if part.isdigit() else part for part in _DIGITS.split(text))


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
        self._orders: dict[tuple[str, bool], Any] = {}  # every entry's position sorted by (column, descending)
        self._prefix: list[int] | None = None  # running sums of sizes, built on first use
        self._positions: tuple[Any, Any] | None = None  # entries' id()s sorted, and each one's position
        self._positions_since: dict[int, int] = {}  # positions of entries appended after those were made
        self._by_call: dict[str, list[int]] = {}  # each call's entry indices, ascending
        self._blocks: dict[int, _Block] = {}  # what each block's searches keep (see _scan)
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
            self._positions_since.update({id(e): start + n for n, e in enumerate(entries)})
        for position, entry in enumerate(entries, start):
            self._by_call.setdefault(entry.call, []).append(position)
        for column, keys in self._sort_keys.items():
            keys += [_KEYS[column](e) for e in entries]
        self._orders.clear()  # sorted again when asked (the new entries fall anywhere in them)

    def store_bytes(self, count: int) -> int:
        """Size of the first `count` entries as the editor's store array (SPEC 3 trimStore), in O(1)."""
        if self._prefix is None:
            self._prefix = list(accumulate(self.sizes, initial=0))
        return 2 + self._prefix[count] + max(count - 1, 0)

    def index_positions(self) -> None:
        """Make the index `position` searches, where it may take its time (the load job; 0.07-0.09 s at a million
        entries, which the GUI thread paid the first time an entry came from the timeline or the resolver)."""
        import numpy

        if self._positions is None:
            # Sorted id()s and a binary search: 16 bytes an entry, where a dict of them took about
            # 100 (100 MB and 0.3 s for a million entries; this is 16 MB and 0.07 s).
            ids = numpy.fromiter(map(id, self.entries), numpy.uint64, len(self.entries))
            order = numpy.argsort(ids)
            self._positions, self._positions_since = (ids[order], order), {}

    def position(self, entry: Entry, count: int) -> int | None:
        """Where `entry` stands among the first `count` entries (a state's store), or None."""
        import numpy

        self.index_positions()
        assert self._positions is not None
        ids, order = self._positions
        k = int(numpy.searchsorted(ids, id(entry)))
        at = int(order[k]) if k < len(ids) and ids[k] == id(entry) else self._positions_since.get(id(entry))
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
        """The indices whose input JSON contains `text` (case-insensitive for ASCII letters), in the order given."""
        if not text:
            return list(indices)
        needle = search_needle(text)
        import numpy

        if isinstance(indices, range) and indices.step == 1:
            rows = numpy.arange(indices.start, indices.stop, dtype=numpy.int64)
            ascending = True
        else:
            rows = numpy.fromiter(indices, numpy.int64, len(indices))
            ascending = bool((rows[1:] > rows[:-1]).all())  # each row once, in order: a block's rows are a stretch
        hits: list[int] = []
        counts = numpy.bincount(rows // _BATCH) if len(rows) else numpy.zeros(0, numpy.int64)
        for number, (count, end) in enumerate(zip(counts.tolist(), numpy.cumsum(counts).tolist())):
            first = number * _BATCH
            size = min(_BATCH, len(self.entries) - first)
            if not count:
                continue
            wanted = rows[end - count:end] if ascending else rows[(rows >= first) & (rows < first + size)]
            if count * _FEW_OF_A_BLOCK < size:  # a few rows of the block: each alone, no join
                hits += [i for i in wanted.tolist() if self._record_holds(i, needle)]
            else:
                every = count == size and (ascending or bool((wanted[1:] > wanted[:-1]).all()))  # each once
                hits += self._scan(number, needle, None if every else wanted)
        return rows[numpy.isin(rows, numpy.array(hits, numpy.int64))].tolist()

    def _record_holds(self, i: int, needle: bytes) -> bool:
        """Whether entry `i` holds `needle`, read alone: the meaning `_scan` answers for a block at once."""
        entry = self.entries[i]
        span = entry.input_span
        if span is not None:
            return bytes(entry.text).lower().find(needle, *span) >= 0
        if entry.text is None:
            return _holds(entry, needle)
        record = bytes(entry.text)
        if b"\\" in record or not _screened(needle):
            return _holds(entry, needle)
        return needle in record.lower() and _holds(entry, needle)

    def _kept_block(self, number: int) -> _Block | None:
        """What block `number`'s searches kept, if it still holds as many entries."""
        block = self._blocks.get(number)
        return block if block is not None and block.size == min(_BATCH, len(self.entries) - number * _BATCH) else None

    def _block(self, number: int) -> tuple[_Block, ByteBuffer | None]:
        """Block `number`'s kept facts, and its records' texts as one haystack when at hand: where they lie
        in the file (wsi_inspector.core.session.in_place; every search), or joined by newlines (its first search, which reads them for its facts)."""
        block = self._kept_block(number)
        if block is not None:
            return block, block.in_place
        import numpy

        first = number * _BATCH
        entries = self.entries[first:first + _BATCH]
        texts = [e.text for e in entries]
        spans = [e.input_span for e in entries]
        owners: Any = range(first, first + len(entries))
        parsed: list[int] = []
        loose: list[int] = []
        if None in texts or None in spans:  # not every record spells its input as orjson does (rare)
            for i, text, span in zip(owners, texts, spans):
                if text is None:
                    parsed.append(i)
                elif span is None:  # parsed, or screened by its text (see _screened)
                    (parsed if b"\\" in bytes(text) else loose).append(i)
            owners = [i for i, text in zip(owners, texts) if text is not None]
            spans = [span or (-1, -1) for text, span in zip(texts, spans) if text is not None]
            texts = [text for text in texts if text is not None]
        in_place = records_in_place(texts)
        haystack: ByteBuffer
        if in_place is not None:
            haystack, starts = in_place
        else:  # the newline joining records cannot be in a needle: search_needle escapes control characters
            haystack = b"\n".join(texts)
            starts = array("q", accumulate(map((1).__add__, map(len, texts)), initial=0))
        base = numpy.frombuffer(starts, numpy.int64)[:-1]
        inputs = numpy.array(spans, numpy.int64).reshape(-1, 2).T + base
        inputs[:, inputs[0] < base] = -1
        if len(haystack) < 2**31:  # half the bytes kept
            inputs = inputs.astype(numpy.int32)
        owners = first if type(owners) is range else numpy.array(owners, numpy.int64)
        block = self._blocks[number] = _Block(len(entries), parsed, frozenset(loose), texts, owners, starts, inputs,
                                              *_facts(haystack, starts), None if in_place is None else haystack)
        return block, haystack

    def _scan(self, number: int, needle: bytes, keep: Any) -> list[int]:
        """The entries of block `number` (those in `keep`, a numpy array; all when None) holding `needle`.

        The block's records that may hold the needle (their run's trigram signature has it, see
        wsi_inspector.core.search.trigram_filter) are searched where they lie in the file (wsi_inspector.core.session.in_place), or else joined, for
        the needle as given (lowercase) with one `find` per record that holds it; a hit with capital letters must cover one of the
        block's few capitals, kept from its first search, and is found from them (`_capital_hits`).
        A record with an `input_span` holds the needle in its input exactly when a hit lies in that
        span (checked for every hit at once; a hit across two records in place lies in neither's). A record that spells its input otherwise is parsed
        and searched: every one when the needle cannot be screened (`_screenable`), else those with a
        backslash and those holding the needle somewhere. Python work grows with hits and parsed
        records, not bytes.
        """
        import numpy

        entries = self.entries
        block, haystack = self._block(number)
        screened = _screened(needle)
        wanted = None if keep is None else set(keep.tolist()) if block.parsed or block.loose else ()
        always = block.parsed if screened else chain(block.parsed, block.loose)
        found = [i for i in always if (wanted is None or i in wanted) and _holds(entries[i], needle)]
        held = runs_holding(block.runs, needle)
        if not block.texts or (held is not None and not held.any()):
            return found  # no run of texts has every trigram of the needle, in any case
        starts, texts = block.starts, block.texts
        runs = [(0, len(texts))] if held is None else records_read(held, len(texts))
        if haystack is not None:
            pieces = [(haystack[starts[a]:starts[b] - 1] if len(runs) > 1 or b - a < len(texts) else haystack, starts[a])
                      for a, b in runs]
        else:  # joined again, but only the runs that may hold the needle
            pieces = [(b"\n".join(texts[a:b]), starts[a]) for a, b in runs]
        capitals = block.capitals
        letters = needle.upper() != needle
        lowered = capitals is None and letters  # too many capitals to keep: lowered instead
        if lowered:
            pieces = [(bytes(piece).lower(), at) for piece, at in pieces]
        places, firsts = _places(pieces, needle, starts, block.counts, lowered)
        if capitals is not None and len(capitals) and letters:
            places = numpy.concatenate([places, *(_capital_hits(piece, capitals, at, needle) for piece, at in pieces)])
        records = numpy.searchsorted(numpy.frombuffer(starts, numpy.int64), places, side="right") - 1
        if not len(records):
            return found
        ids = records + block.owners if type(block.owners) is int else block.owners[records]
        if keep is not None:
            asked = numpy.isin(ids, keep)
            ids, places, records = ids[asked], places[asked], records[asked]
            firsts = int(numpy.count_nonzero(asked[:firsts]))
        low, high = block.inputs[0][records], block.inputs[1][records]
        spelled = low >= 0
        inside = spelled & (places >= low) & (places <= high - len(needle))
        hits = set(ids[inside].tolist())
        # A record's first hit before its input (in its id or call): the input may hold one further on.
        before = numpy.flatnonzero(spelled[:firsts] & (places[:firsts] < low[:firsts]))
        piece_starts = [at for _, at in pieces]
        finds = [finder(piece) for piece, _ in pieces] if len(before) else []  # one each: a finder exports its buffer
        for i, start, end in zip(ids[before].tolist(), low[before].tolist(), high[before].tolist()):
            k = bisect_right(piece_starts, start) - 1  # the piece holding the record
            if i not in hits and finds[k](needle, start - piece_starts[k], end - piece_starts[k]) >= 0:
                hits.add(i)
        if screened:  # a loose record holding the needle somewhere: parsed (the others were, above)
            loose = block.loose
            hits.update(i for i in numpy.unique(ids[~spelled]).tolist() if i in loose and _holds(entries[i], needle))
        return found + list(hits)

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
        """The indices ordered by `column` (stable; timeline order breaks ties), or as given.

        Every entry's order by a column is sorted once; a state's store (a prefix) or a filter's rows
        then take theirs from it in one numpy pass, instead of sorting again on every cursor move.
        """
        if column is None:
            return list(reversed(indices)) if descending else list(indices)
        keys = self.sort_key(column)
        if len(indices) * _FEW_TO_SORT < len(keys):  # a few rows: sorting them is less than a pass over all
            return sorted(indices, key=keys.__getitem__, reverse=descending)
        import numpy

        order = self._orders.get((column, descending))
        if order is None:
            order = self._orders[column, descending] = numpy.array(
                sorted(range(len(keys)), key=keys.__getitem__, reverse=descending), numpy.int64)
        wanted = numpy.zeros(len(keys), bool)
        wanted[numpy.asarray(indices, numpy.int64)] = True
        return order[wanted[order]].tolist()

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
