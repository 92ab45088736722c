"""Aligning two arrays with the fewest edits (SPEC 4): replace, insert and delete each cost 1.

`array_opcodes` answers as `difflib.SequenceMatcher.get_opcodes` does, with one op per edited
element, so the number of ops is the edit distance (Levenshtein) of the two arrays. It follows
the furthest-reaching-diagonal method (Ukkonen; Landau and Vishkin): after d edits, for each
diagonal j − i, the furthest row reachable, then slide along equal elements. Slides compare
slices of the two key lists (in C), galloping, so a 50,000-point polyline with a few edits
costs a few dozen Python steps: time grows with n + d², not n × m.

When the two arrays are so different that d² passes CELL_BUDGET, the exact search stops, and
the arrays are cut at `difflib.SequenceMatcher` matching blocks, each gap searched exactly again
within the budget and, failing that, paired by position. Only there can the ops exceed the
edit distance; the time stays bounded. A search that has gone some way first checks the least
distance the two can have (the longer length less the elements they share): when its square passes
the budget, it stops at once (every point of a 1,000-point outline moved took 0.38 s of cells
before, searched twice: 21 ms now).
"""
from __future__ import annotations

from collections import Counter
from difflib import SequenceMatcher
from itertools import chain
from typing import Any

from wsi_inspector.core.jsrules.json_values import canonical

Opcode = tuple[str, int, int, int, int]
CELL_BUDGET = 400_000  # diagonal cells searched per array before giving up exactness (about d = 630)
BOUND_CHECK_CELLS = 20_000  # cells searched before asking whether the search can end within the budget at all

_SUB, _INS, _DEL, _STAY = 0, 1, 2, 3


def element_key(value: Any) -> Any:
    """A hashable key, equal for two array elements exactly when they are equal JSON (cheap for points)."""
    kind = type(value)
    if kind is list and 2 <= len(value) <= 3:
        for number in value:
            if type(number) is not float and type(number) is not int:
                return canonical(value)
        return tuple(value)
    if kind is str or kind is float or kind is int:
        return value  # a str, a number and a tuple never compare equal to one another
    return canonical(value)


def all_points(values: list[Any]) -> bool:
    """Only `[x, y(, z)]` lists of numbers (checked in C-speed passes): then the elements are their own keys."""
    return (bool(values) and set(map(type, values)) == {list} and set(map(len, values)) <= {2, 3}
            and set(map(type, chain.from_iterable(values))) <= {int, float})


def rounded_key(value: Any) -> Any:
    """As `element_key`, with numbers (alone or in a point) to 10 significant digits: numbers within about
    1e-9 of each other (a length converted between units) mostly get one key. Only for aligning: an
    element whose neighbour falls across a rounding boundary is compared again, with the tolerance."""
    kind = type(value)
    if kind is float or kind is int:
        return float(f"{value:.10g}")
    if kind is list and 2 <= len(value) <= 3 and all(type(n) is float or type(n) is int for n in value):
        return tuple(float(f"{n:.10g}") for n in value)
    return element_key(value)


def array_opcodes(a: list[Any], b: list[Any], rounded: bool = False) -> list[Opcode]:
    """Opcodes turning `a` into `b`: "equal" runs, and "replace"/"delete"/"insert" of one element each.

    `rounded`: align numbers by `rounded_key` (the diff across units, where "equal" has a tolerance);
    an "equal" run then holds elements that are only nearly equal.
    """
    if rounded:
        keys_a, keys_b = [rounded_key(v) for v in a], [rounded_key(v) for v in b]
    elif all_points(a) and all_points(b):
        keys_a, keys_b = a, b  # list == list is JSON equality here: every element is numbers only
    else:
        keys_a, keys_b = [element_key(v) for v in a], [element_key(v) for v in b]
    ops: list[Opcode] = []
    head = common_run(keys_a, 0, keys_b, 0, min(len(a), len(b)), 1)
    tail = common_run(keys_a, len(a) - 1, keys_b, len(b) - 1, min(len(a), len(b)) - head, -1)
    if head:
        ops.append(("equal", 0, head, 0, head))
    middle = _exact(keys_a, head, len(a) - tail, keys_b, head, len(b) - tail)
    if middle is None:
        middle = _bounded(keys_a, head, len(a) - tail, keys_b, head, len(b) - tail)
    ops.extend(middle)
    if tail:
        ops.append(("equal", len(a) - tail, len(a), len(b) - tail, len(b)))
    return ops


def _exact(a: list[Any], alo: int, ahi: int, b: list[Any], blo: int, bhi: int,
           budget: int = CELL_BUDGET) -> list[Opcode] | None:
    """The fewest edits turning a[alo:ahi] into b[blo:bhi], or None when the search passes `budget` cells."""
    n, m = ahi - alo, bhi - blo
    if n == 0 or m == 0:
        return _positional(alo, ahi, blo, bhi)

    def slide(i: int, k: int) -> int:
        if i < n and i + k < m and a[alo + i] == b[blo + i + k]:
            return i + 1 + common_run(a, alo + i + 1, b, blo + i + k + 1, min(n - i, m - i - k) - 1, 1)
        return i

    target = m - n
    front = {0: slide(0, 0)}
    fronts: list[dict[int, tuple[int, int, int]]] = [{0: (_STAY, 0, front[0])}]  # k → (move, start, end)
    cells = 0
    while front.get(target, -1) < n:
        d = len(fronts)
        reached: dict[int, int] = {}
        moves: dict[int, tuple[int, int, int]] = {}
        for k in range(max(-n, -d), min(m, d) + 1):
            best, move = -1, _STAY
            here = front.get(k)
            if here is not None:
                best = here
                if here < n and here + k < m:
                    best, move = here + 1, _SUB
            left = front.get(k - 1)  # one more element of b
            # On a tie an insert or delete wins, so the replacement comes first: an edited point then an
            # inserted one reads "1 moved, 1 added after it", as a designer did it.
            if left is not None and left + k <= m and left >= best:
                best, move = left, _INS
            up = front.get(k + 1)  # one more element of a
            if up is not None and up < n and up + 1 >= best:
                best, move = up + 1, _DEL
            if best < 0:
                continue
            end = slide(best, k) if move != _STAY else best
            reached[k] = end
            moves[k] = (move, best, end)
        checked, cells = cells, cells + len(reached)
        if cells > budget or checked < BOUND_CHECK_CELLS <= cells and _cannot_end(a[alo:ahi], b[blo:bhi], budget):
            return None
        fronts.append(moves)
        front = reached
    return _trace(fronts, target, alo, blo)


def _cannot_end(a: list[Any], b: list[Any], budget: int) -> bool:
    """Whether the two are so different that d² passes the budget for the least distance d they can have.

    An alignment of E equal pairs takes at least max(n, m) − E edits, and E is at most the number of elements
    the two share (as multisets). Counted once a search has gone some way (`BOUND_CHECK_CELLS`): an array with
    a few edits far apart is aligned in a few steps, and counting its elements would cost more than that.
    """
    shared = (Counter(map(_hashable, a)) & Counter(map(_hashable, b))).total()
    least = max(len(a), len(b)) - shared
    return least * least > budget


def _hashable(key: Any) -> Any:
    return tuple(key) if type(key) is list else key


def _trace(fronts: list[dict[int, tuple[int, int, int]]], k: int, alo: int, blo: int) -> list[Opcode]:
    """Opcodes along the path that reached the last front on diagonal `k`, oldest first."""
    ops: list[Opcode] = []
    for d in range(len(fronts) - 1, -1, -1):
        move, start, end = fronts[d][k]
        if end > start:
            ops.append(("equal", alo + start, alo + end, blo + start + k, blo + end + k))
        if d == 0:
            break
        if move == _SUB:
            ops.append(("replace", alo + start - 1, alo + start, blo + start - 1 + k, blo + start + k))
        elif move == _INS:
            k -= 1
            ops.append(("insert", alo + start, alo + start, blo + start + k, blo + start + k + 1))
        elif move == _DEL:
            k += 1
            ops.append(("delete", alo + start - 1, alo + start, blo + start - 1 + k, blo + start - 1 + k))
    ops.reverse()
    return ops


def _bounded(a: list[Any], alo: int, ahi: int, b: list[Any], blo: int, bhi: int) -> list[Opcode]:
    """Too different for the exact search: cut at SequenceMatcher's matching blocks, each gap exact or by position."""
    matcher = SequenceMatcher(None, list(map(_hashable, a[alo:ahi])), list(map(_hashable, b[blo:bhi])), autojunk=False)
    ops: list[Opcode] = []
    i, j = alo, blo
    for bi, bj, size in matcher.get_matching_blocks():
        bi, bj = alo + bi, blo + bj
        if i < bi or j < bj:
            gap = _exact(a, i, bi, b, j, bj)
            ops.extend(gap if gap is not None else _positional(i, bi, j, bj))
        if size:
            ops.append(("equal", bi, bi + size, bj, bj + size))
        i, j = bi + size, bj + size
    return ops


def _positional(alo: int, ahi: int, blo: int, bhi: int) -> list[Opcode]:
    """Pair elements by position, then delete or insert what is left over."""
    paired = min(ahi - alo, bhi - blo)
    ops: list[Opcode] = [("replace", alo + k, alo + k + 1, blo + k, blo + k + 1) for k in range(paired)]
    ops.extend(("delete", i, i + 1, blo + paired, blo + paired) for i in range(alo + paired, ahi))
    ops.extend(("insert", ahi, ahi, j, j + 1) for j in range(blo + paired, bhi))
    return ops


def common_run(a: list[Any], i: int, b: list[Any], j: int, limit: int, step: int) -> int:
    """How many elements match from a[i], b[j] on, going forward (step 1) or backward (-1), at most `limit`."""
    def same(lo: int, hi: int) -> bool:  # do the elements at offsets lo … hi-1 match?
        if step == 1:
            return a[i + lo:i + hi] == b[j + lo:j + hi]
        return a[i - hi + 1:i - lo + 1] == b[j - hi + 1:j - lo + 1]

    if limit <= 0:
        return 0
    good, size = 0, 1
    while size <= limit and same(good, size):  # gallop, then bisect between the last good and first bad size
        good, size = size, size * 2
    bad = min(size, limit + 1)
    while bad - good > 1:
        middle = (good + bad) // 2
        if same(good, middle):
            good = middle
        else:
            bad = middle
    return good
