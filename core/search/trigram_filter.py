"""Which runs of records may hold a text, from a small signature of their trigrams: reading less than every byte.

A search that matches few of 100,000 records still reads all of their text (130 MB) when it reads
every byte. Each run of RUN_RECORDS records (a chunk) keeps a SIGNATURE_BITS-bit signature instead:
one bit per hashed trigram (three bytes, ASCII case folded) starting with a letter or a non-ASCII
byte. A needle is in a run only if every such trigram of it has its bit set there, so runs missing
one are not read; a needle without one (`2400`) reads every run. Trigrams starting with a digit or
punctuation are left out: a float-heavy input has nearly all of them in every run, so they would only
fill the bits. 512 bytes a run: some 8 bytes an entry.

So a number (`38.61031`) reads every run. Not for want of bits: in the 100,000-entry bench session
each of its six trigrams is in every run (300 runs of 300, with 65,536 bits a run and 3.5% of them
set). Only its 5-grams tell runs apart, and a 5-gram signature that lets a quarter of the runs
through takes 8 kB a run (128 bytes an entry, twice what the search keeps now): the number is read
by memmem over the whole file instead (wsi_inspector.core.session.fast_find, where the records lie: wsi_inspector.core.session.in_place).
"""
from __future__ import annotations

from array import array
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # numpy loads only when a session is searched
    import numpy
    from numpy.typing import NDArray

    from wsi_inspector.core.session.fast_find import ByteBuffer

RUN_RECORDS = 64  # records a signature stands for: some 80 kB of a float-heavy session
SIGNATURE_BITS = 4096  # bits of one run's signature (a power of two)
_BYTES_AT_ONCE = 1 << 20  # bytes read at once for the signatures: some 10 MB of temporaries at most


def _leads(byte: int) -> bool:
    """Whether a trigram starting with `byte` is kept: an ASCII letter (either case) or a non-ASCII byte."""
    return 97 <= (byte | 32) <= 122 or byte >= 128


def _hash(first: int, second: int, third: int) -> int:
    """The bit of a trigram (bytes already case folded with `| 32`), as `signatures` computes it in numpy."""
    return (first * 961 + second * 31 + third) & (SIGNATURE_BITS - 1)  # numpy's uint16 wrapping keeps these bits


def signatures(haystack: ByteBuffer, starts: array[int], most_capitals: int) -> tuple[NDArray[numpy.uint8], NDArray[numpy.int64] | None]:
    """The signature of each run of RUN_RECORDS records in `haystack` (starting at `starts`, then its end plus one),
    and where `haystack` holds an ASCII capital (found among the letters read for the trigrams, for free; None past `most_capitals`).

    The signatures are a numpy array of one row of SIGNATURE_BITS / 8 bytes per run (numpy's packbits
    order). A trigram across two records is counted in the first one's run: it only sets a bit no
    needle needs. The bytes are read _BYTES_AT_ONCE at a time, whatever the records' sizes.
    """
    import numpy

    bounds = numpy.frombuffer(starts, numpy.int64)[:-1:RUN_RECORDS]  # where each run starts
    seen = numpy.zeros(len(bounds) * SIGNATURE_BITS, bool)
    capitals: list[NDArray[numpy.int64]] | None = [numpy.zeros(0, numpy.int64)]
    found = 0
    for begin in range(0, len(haystack), _BYTES_AT_ONCE):
        end = min(begin + _BYTES_AT_ONCE, len(haystack))
        codes = numpy.frombuffer(haystack, numpy.uint8, min(end + 2, len(haystack)) - begin, begin)
        folded = codes | numpy.uint8(32)
        at = numpy.flatnonzero(((folded[:end - begin] - numpy.uint8(97)) < 26) | (codes[:end - begin] >= 128))
        if capitals is not None:
            capitals.append(at[(codes[at] - numpy.uint8(65)) < 26] + begin)  # A-Z (the subtraction wraps below A)
            found += len(capitals[-1])
            if found > most_capitals:
                capitals = None
        at = at[at < len(codes) - 2]  # trigrams whole in the haystack
        bit = folded[at].astype(numpy.uint16) * numpy.uint16(961)  # _hash in numpy
        bit += folded[at + 1].astype(numpy.uint16) * numpy.uint16(31)
        bit += folded[at + 2]
        bit &= numpy.uint16(SIGNATURE_BITS - 1)
        # Each trigram's run, as where that run's bits start: the places are in order, so a run's are a stretch.
        stretches = numpy.diff(numpy.searchsorted(at, bounds - begin), append=len(at))
        seen[numpy.repeat(numpy.arange(0, len(seen), SIGNATURE_BITS), stretches) + bit] = True
    rows = numpy.packbits(seen.reshape(len(bounds), SIGNATURE_BITS), axis=1)
    return rows, None if capitals is None else numpy.concatenate(capitals)


def runs_holding(rows: NDArray[numpy.uint8], needle: bytes) -> NDArray[numpy.bool_] | None:
    """Which runs (a numpy bool array, one per row of `signatures`) may hold `needle` (lowercase); None: every run."""
    bits = {_hash(needle[at] | 32, needle[at + 1] | 32, needle[at + 2] | 32)
            for at in range(len(needle) - 2) if _leads(needle[at])}
    if not bits:
        return None
    import numpy

    held = numpy.ones(len(rows), bool)
    for bit in bits:
        held &= (rows[:, bit >> 3] & (128 >> (bit & 7))) != 0
    return held


def records_read(held: NDArray[numpy.bool_], texts: int) -> list[tuple[int, int]]:
    """The ranges of records (first, past the last) covering the runs `held` says to read, each stretch of runs once."""
    import numpy

    chosen = numpy.flatnonzero(held)
    if not len(chosen):
        return []
    breaks = numpy.flatnonzero(numpy.diff(chosen) != 1)
    firsts, lasts = chosen[numpy.r_[0, breaks + 1]], chosen[numpy.r_[breaks, len(chosen) - 1]]
    return [(first * RUN_RECORDS, min((last + 1) * RUN_RECORDS, texts)) for first, last in zip(firsts.tolist(), lasts.tolist())]
