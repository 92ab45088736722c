"""The trimStore preview (SPEC 3, issue 5): what falls at any byte cap, each query O(log n).

A `StoreIndex` is built once over a session's entries: each entry's size as the editor injects it
(`entry_bytes`, the very sizes `trim_store` adds up; an input is measured once and the size cached
on the entry), running sums of those sizes, and where the canvas edits and each module's calls are.
Every state of the session is a prefix of its entries, so a `TrimPreview` of any state is just the
index and a count: moving the cursor costs nothing, and each cap query is a bisection.

The tail that fits a cap is the longest suffix whose size `2 + Σ sizes + (k − 1)` is at most the
cap (an empty tail, size 2, always fits); with `running[i] = Σ_{j<i} (size_j + 1)` the tail from
entry i of a store of n entries is `running[n] − running[i] + 1` bytes, which shrinks as i grows.

Since the tail is a suffix, `inputs.last(module)` at a cap either returns what it returns untrimmed
or, when that entry falls (and with it every older one), nothing at all.
"""
from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import NamedTuple

import numpy as np

from wsi_inspector.core.session.model import Entry
from wsi_inspector.core.jsrules.run_inputs import entry_bytes
from wsi_inspector.core.jsrules.sizes import format_size
from wsi_inspector.core.text.words import plural

EMPTY_TAIL_BYTES = 2  # `[]`
LISTED_EDITS = 20  # fallen canvas edits named one by one; the rest are counted


_APPLIED = attrgetter("applied")
_CALL = attrgetter("call")


def _ints(values: np.ndarray) -> array:
    """A numpy integer array as an `array("q")`."""
    ints = array("q")
    ints.frombytes(np.ascontiguousarray(values, dtype=np.int64).tobytes())
    return ints


class StoreIndex:
    """Sizes, running sums, canvas edits and module calls of a list of entries, built once."""

    def __init__(self, entries: Sequence[Entry], sizes: Sequence[int] | None = None):
        """`sizes`, when given, are the entries' `entry_bytes` already measured (e.g. a ManifestIndex's)."""
        self.entries = entries
        count = len(entries)
        measured = np.fromiter(sizes if sizes is not None else map(entry_bytes, entries), np.int64, count)
        # Built with numpy (a Python loop costs seconds on a million entries), kept as arrays of
        # machine ints: the bisections on them give plain ints, and numpy views them without a copy.
        self.sizes = _ints(measured)
        self.running = _ints(np.concatenate(([0], np.cumsum(measured + 1))))
        self.edits = _ints(np.flatnonzero(np.fromiter(map(_APPLIED, entries), np.bool_, count)))
        # Positions grouped by call (a session has few), then calls by module.
        calls = list(map(_CALL, entries))
        codes = {call: code for code, call in enumerate(dict.fromkeys(calls))}
        numbered = np.fromiter(map(codes.__getitem__, calls), np.int64, count)
        order = np.argsort(numbered, kind="stable")
        bounds = np.cumsum(np.bincount(numbered, minlength=len(codes)))
        self.by_call: dict[str, array] = {
            call: _ints(order[(bounds[code - 1] if code else 0) : bounds[code]]) for call, code in codes.items()
        }
        self.modules: dict[str, list[str]] = {}
        for call in self.by_call:
            self.modules.setdefault(call.rsplit(".", 1)[0], []).append(call)

    def preview(self, count: int | None = None) -> TrimPreview:
        """The preview of the first `count` entries (all of them by default)."""
        self.catch_up()
        return TrimPreview(self, len(self.entries) if count is None else count)

    def catch_up(self) -> None:
        """Index entries appended to `entries` since (a followed file grew: wsi_inspector.core.session.growing)."""
        start = len(self.sizes)
        if len(self.entries) <= start:
            return
        added = self.entries[start:]
        sizes = [entry_bytes(e) for e in added]
        self.sizes.extend(sizes)
        total = self.running[-1]
        for size in sizes:
            total += size + 1
            self.running.append(total)
        self.edits.extend(start + n for n, e in enumerate(added) if e.applied)
        for position, entry in enumerate(added, start):
            if entry.call not in self.by_call:
                self.by_call[entry.call] = array("q")
                self.modules.setdefault(entry.call.rsplit(".", 1)[0], []).append(entry.call)
            self.by_call[entry.call].append(position)

    def preview_of(self, store: Sequence[Entry]) -> TrimPreview:
        """The preview of `store`: this index when it is a prefix of the entries, else a new index.

        A prefix is recognised by its first and last entries (identity): every state's store is a
        slice of the session's entries from the start.
        """
        self.catch_up()
        count = len(store)
        if count <= len(self.entries) and (count == 0 or store[count - 1] is self.entries[count - 1]):
            if count == 0 or store[0] is self.entries[0]:
                return TrimPreview(self, count)
        return StoreIndex(store).preview()


class Fallen(NamedTuple):
    """An entry that falls at a cap, and the smallest cap that would keep it."""

    entry: Entry
    kept_from: int


@dataclass(frozen=True, slots=True)
class LastChange:
    """A module whose `inputs.last(module)` entry falls at a cap: it would return nothing instead."""

    module: str
    entry: Entry
    kept_from: int  # the smallest cap that keeps it

    def words(self) -> str:
        return f'inputs.last("{self.module}") would return nothing instead of {self.entry.id}'


def check_cap(cap: int) -> int:
    """`cap` itself when it is a whole number ≥ 0, as trimStore requires; else ValueError."""
    if isinstance(cap, bool) or not isinstance(cap, int) or cap < 0:
        raise ValueError(f"a cap must be a whole number of bytes ≥ 0, not {cap!r}")
    return cap


def cap_text(cap: int) -> str:
    """A cap in words: `64 KiB` when that is exact, else the bytes with the rounded size beside."""
    shown = format_size(cap)
    if cap < 1024 or _exact(shown, cap):
        return shown
    return f"{cap:,} B (≈{shown})"


def _exact(shown: str, cap: int) -> bool:
    number, unit = shown.split(" ")
    factor = {"KiB": 1024, "MiB": 1024**2, "GiB": 1024**3}[unit]
    return float(number.replace(",", "")) * factor == cap


class TrimPreview:
    """What trimStore does to the first `count` entries of an index, at any cap."""

    def __init__(self, index: StoreIndex, count: int):
        if not 0 <= count <= len(index.entries):
            raise ValueError(f"a preview of {count} entries over an index of {len(index.entries)}")
        self.index = index
        self.count = count

    def entry(self, i: int) -> Entry:
        """The store's entry at position i (oldest first)."""
        if not 0 <= i < self.count:
            raise IndexError(i)
        return self.index.entries[i]

    @property
    def store(self) -> Sequence[Entry]:
        """The store previewed, oldest first (a slice: O(n))."""
        entries = self.index.entries
        return entries if self.count == len(entries) else entries[: self.count]

    @property
    def total_bytes(self) -> int:
        """The whole store's size, untrimmed."""
        return self.kept_from_cap(0) if self.count else EMPTY_TAIL_BYTES

    def entry_size(self, i: int) -> int:
        """Size of entry i as the editor injects it."""
        return self.index.sizes[i]

    def kept_from_cap(self, i: int) -> int:
        """The smallest cap that keeps entry i: the size of the tail that starts with it."""
        if i == self.count:
            return EMPTY_TAIL_BYTES
        if not 0 <= i < self.count:
            raise IndexError(i)
        running = self.index.running
        return running[self.count] - running[i] + 1

    def fell_at(self, cap: int) -> int:
        """How many of the oldest entries fall at `cap` (trimStore's `fell`)."""
        check_cap(cap)
        running, n = self.index.running, self.count
        # The first i whose tail fits: running[n] − running[i] + 1 ≤ cap; none fits → n (empty tail).
        return bisect_left(running, running[n] + 1 - cap, 0, n)

    def tail_bytes(self, cap: int) -> int:
        """Size of the tail kept at `cap`."""
        return self.kept_from_cap(self.fell_at(cap))

    def tail(self, cap: int) -> list[Entry]:
        """The entries kept at `cap`, oldest first (trimStore's `tail`)."""
        return list(self.index.entries[self.fell_at(cap) : self.count])

    def edits_fallen(self, cap: int) -> int:
        """How many canvas edits (applied entries) fall at `cap`."""
        return bisect_left(self.index.edits, self.fell_at(cap))

    def fallen_edits(self, cap: int, limit: int | None = None) -> list[Fallen]:
        """The canvas edits that fall at `cap`, newest first, at most `limit` of them."""
        return self._edits_between(0, self.fell_at(cap), limit)

    def _edits_between(self, start: int, stop: int, limit: int | None) -> list[Fallen]:
        """The canvas edits at positions [start, stop), newest first, each with the cap that keeps it."""
        edits, entries, running = self.index.edits, self.index.entries, self.index.running
        low, high = bisect_left(edits, start), bisect_left(edits, stop)
        if limit is not None:
            low = max(low, high - limit)
        end = running[self.count] + 1
        return [Fallen(entries[i], end - running[i]) for i in reversed(edits[low:high])]

    def last_entries(self) -> dict[str, int]:
        """Each module's newest call in the store (what `inputs.last(module)` returns), by position."""
        newest: dict[str, int] = {}
        by_call, count = self.index.by_call, self.count
        for module, calls in self.index.modules.items():
            best = -1
            for call in calls:
                positions = by_call[call]
                k = bisect_left(positions, count) - 1
                if k >= 0 and positions[k] > best:
                    best = positions[k]
            if best >= 0:
                newest[module] = best
        return newest

    def last_changes(self, cap: int) -> list[LastChange]:
        """The modules whose `inputs.last()` entry falls at `cap`, newest entry first."""
        return self._last_changes_between(0, self.fell_at(cap))

    def _last_changes_between(self, start: int, stop: int) -> list[LastChange]:
        found = [(i, m) for m, i in self.last_entries().items() if start <= i < stop]
        found.sort(key=lambda pair: (-pair[0], pair[1]))
        return [LastChange(m, self.index.entries[i], self.kept_from_cap(i)) for i, m in found]

    def summary(self, cap: int) -> TrimSummary:
        """Everything a person needs to know about `cap`: counts, bytes, fallen edits, changed last()."""
        fell = self.fell_at(cap)
        return TrimSummary(
            cap=cap,
            count=self.count,
            fell=fell,
            bytes=self.kept_from_cap(fell),
            total_bytes=self.total_bytes,
            edits_fallen=bisect_left(self.index.edits, fell),
            fallen_edits=self._edits_between(0, fell, LISTED_EDITS),
            last_changes=self._last_changes_between(0, fell),
        )

    def compare(self, cap_a: int, cap_b: int) -> CapComparison:
        """What falls at the smaller of two caps but is kept at the larger."""
        low, high = sorted((check_cap(cap_a), check_cap(cap_b)))
        fell_low, fell_high = self.fell_at(low), self.fell_at(high)
        edits = self.index.edits
        return CapComparison(
            low=low,
            high=high,
            fell_low=fell_low,
            fell_high=fell_high,
            store=self.index.entries,
            edits=bisect_left(edits, fell_low) - bisect_left(edits, fell_high),
            last_changes=self._last_changes_between(fell_high, fell_low),
        )


@dataclass(frozen=True, slots=True)
class TrimSummary:
    """What falls at one cap, ready to be said in words and warnings."""

    cap: int
    count: int
    fell: int
    bytes: int  # the kept tail's size
    total_bytes: int  # the untrimmed store's size
    edits_fallen: int
    fallen_edits: list[Fallen]  # newest first, at most LISTED_EDITS
    last_changes: list[LastChange]

    @property
    def kept(self) -> int:
        return self.count - self.fell

    def words(self) -> str:
        """One sentence: how many fall, how many of them edits, and whose last() changes."""
        at = f"at {cap_text(self.cap)}"
        if self.count == 0:
            return f"{at} nothing falls: the store is empty"
        if self.fell == 0:
            return f"{at} all {plural(self.count, 'entry is', 'entries are')} kept ({self.bytes:,} B of the store fit)"
        verb = "falls" if self.fell == 1 else "fall"
        if self.fell == self.count:
            sentence = f"{at} all {plural(self.count, 'entry', 'entries')} {verb}"
        else:
            sentence = f"{at} {self.fell:,} of {plural(self.count, 'entry', 'entries')} {verb}"
        if self.edits_fallen == 0:
            sentence += ", none of them the person's edits"
        else:
            sentence += f", {self.edits_fallen:,} of them the person's edit{'s' if self.edits_fallen != 1 else ''}"
        if self.last_changes:
            sentence += "; " + "; ".join(change.words() for change in self.last_changes)
        return sentence

    def warnings(self) -> list[str]:
        """One warning per fallen canvas edit (the newest few) and per module whose last() entry falls."""
        found = []
        for edit, kept_from in self.fallen_edits:
            found.append(
                f"canvas edit {edit.id} ({edit.call}) falls: the next body will not see the person's edit; "
                f"a cap of at least {cap_text(kept_from)} keeps it"
            )
        unlisted = self.edits_fallen - len(self.fallen_edits)
        if unlisted > 0:
            found.append(f"{unlisted:,} older canvas edit{'s' if unlisted != 1 else ''} fall as well")
        for change in self.last_changes:
            found.append(
                f'{change.entry.id} falls, and it is what inputs.last("{change.module}") returns: the next body '
                f"gets nothing there; a cap of at least {cap_text(change.kept_from)} keeps it"
            )
        return found


@dataclass(frozen=True, slots=True)
class CapComparison:
    """The entries that fall at cap `low` but are kept at cap `high`, oldest first."""

    low: int
    high: int
    fell_low: int
    fell_high: int
    # The entries between are store[fell_high:fell_low], sliced only when asked for: the view
    # words a comparison on every cap move, and a copy of up to a million entries cost 45 ms.
    store: Sequence[Entry] = field(repr=False)
    edits: int
    last_changes: list[LastChange]  # modules whose last() is kept at `high` and falls at `low`

    @property
    def count(self) -> int:
        """How many entries fall at `low` but are kept at `high`."""
        return self.fell_low - self.fell_high

    @property
    def entries(self) -> list[Entry]:
        """Those entries, oldest first (a copy: O(count))."""
        return list(self.store[self.fell_high : self.fell_low])

    def words(self) -> str:
        """One sentence about the difference between the two caps."""
        span = f"between {cap_text(self.low)} and {cap_text(self.high)}"
        count = self.count
        if not count:
            return f"{span} nothing changes: the same {plural(self.fell_low, 'entry falls', 'entries fall')} at both"
        first, last = self.store[self.fell_high], self.store[self.fell_low - 1]
        ids = f"{first.id}" if count == 1 else f"{first.id} … {last.id}"
        sentence = (
            f"{span} {plural(count, 'entry', 'entries')} ({ids}) "
            f"{'falls' if count == 1 else 'fall'} at {cap_text(self.low)} but "
            f"{'is' if count == 1 else 'are'} kept at {cap_text(self.high)}"
        )
        if self.edits:
            sentence += f", {self.edits:,} of them the person's edit{'s' if self.edits != 1 else ''}"
        if self.last_changes:
            sentence += "; at the lower cap " + "; ".join(change.words() for change in self.last_changes)
        return sentence
