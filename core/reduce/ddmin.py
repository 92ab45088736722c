"""Delta debugging (Zeller's ddmin): the smallest list of items whose presence still reproduces a failure.

`ddmin(items, first_passing)` is deterministic and parallel at once: each step hands a batch of
candidate lists, in a fixed order, to `first_passing`, which may test them at the same time but
must answer with the index of the *first* candidate (in that order) that still reproduces. The
answer then depends only on which candidates reproduce, not on how many were tested at once.

Variant: removing the whole list is tried first (most phases need nothing of what they cut), then
complements at growing granularity (at granularity 2 they are the two halves; keeping a single
chunk, ddmin's other move, rarely wins when a failure needs items from two chunks and costs a run
per chunk). The result is 1-minimal: removing any one item of it no longer reproduces.
"""
from __future__ import annotations

from typing import Callable, Sequence, TypeVar

T = TypeVar("T")

FirstPassing = Callable[[list[list[T]]], "int | None"]


class Stopped(Exception):
    """The reduction was asked to stop; `best` is the smallest reproducing list found so far."""

    def __init__(self, best: list) -> None:
        super().__init__("stopped")
        self.best = best


def chunks(items: Sequence[T], count: int) -> list[list[T]]:
    """`items` cut into `count` consecutive chunks of nearly equal length (the longer ones first)."""
    size, extra = divmod(len(items), count)
    out, start = [], 0
    for index in range(count):
        end = start + size + (1 if index < extra else 0)
        out.append(list(items[start:end]))
        start = end
    return out


def reproduces_alone(guess: Sequence[T], current: Sequence[T], first_passing: FirstPassing,
                     should_stop: Callable[[], bool] = lambda: False) -> bool:
    """One step before ddmin: whether `guess` alone (a guess at what of `current` matters) still reproduces.

    A good guess (what the failing run read) cuts the rest in one run instead of ddmin's many. A stop
    carries `current`: the guess is not known to reproduce.
    """
    if should_stop():
        raise Stopped(list(current))
    try:
        return first_passing([list(guess)]) == 0
    except Stopped:
        raise Stopped(list(current)) from None


def ddmin(items: Sequence[T], first_passing: FirstPassing, should_stop: Callable[[], bool] = lambda: False) -> list[T]:
    """A 1-minimal sublist of `items` (order kept) that still reproduces; `items` itself must reproduce.

    Raises Stopped (carrying the best list so far) when `should_stop()` turns true between steps, or
    when `first_passing` raises Stopped (it was stopped in the middle of a batch).
    """
    current = list(items)

    def ask(candidates: list[list[T]]) -> int | None:
        if should_stop():
            raise Stopped(current)
        try:
            return first_passing(candidates)
        except Stopped:
            raise Stopped(current) from None

    if not current or ask([[]]) == 0:
        return []
    granularity = 2
    while len(current) >= 2:
        parts = chunks(current, granularity)
        complements = [[item for other, part in enumerate(parts) if other != index for item in part]
                       for index in range(len(parts))]
        found = ask(complements)
        if found is not None:
            current = complements[found]
            granularity = max(granularity - 1, 2)
            continue
        if granularity >= len(current):
            break
        granularity = min(granularity * 2, len(current))
    return current
