"""Record texts where they lie in the file's bytes: one view over a block of them, searched there, never joined.

The JSON form's loader keeps each store record as a slice of the file's bytes (a RecordText from the
C scan, wsi_inspector.core.session.store_scan, or a msgspec.Raw without it), in order, each the next one's neighbour but
for a comma (and any spaces the file puts around it). A
search then reads the block's stretch of the file where it is, as the one text it is, instead of
joining the records with newlines first (a copy of the whole block per search: some 14 ms of the
50 a rare number took over 100,000 entries). A hit there may span the comma between two records;
the search keeps only hits inside an input (wsi_inspector.core.search.filtering), which such a hit never is.
"""
from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from wsi_inspector.core.session.fast_find import ByteBuffer, buffer_spans

if TYPE_CHECKING:  # numpy loads only when a session is searched
    import numpy
    from numpy.typing import NDArray

_GAP_MOST = 64  # bytes between two neighbouring records: a comma and a pretty-printer's indentation; far below a page
_SEPARATOR_SPACE = b" \t\r\n"  # JSON's whitespace


class _Memory:
    """Bytes at an address, as numpy reads them (`__array_interface__`, read-only), kept there by `owner`."""

    def __init__(self, address: int, size: int, owner: Any):
        self.__array_interface__ = {"data": (address, True), "shape": (size,), "typestr": "|u1", "version": 3}
        self.owner = owner


def records_in_place(texts: Sequence[ByteBuffer]) -> tuple[NDArray[numpy.uint8], array[int]] | None:
    """A read-only view of the stretch of memory `texts` lie in, one after the other, and where each starts
    in it (then the stretch's end plus one, as when joined by newlines); None when they do not lie so.

    They lie so when each text starts after the one before it ends, past a comma and JSON whitespace
    only (JSON Lines texts are bytes objects of their own, and entries made in memory have none). The
    gaps are read only once each is found short (at most _GAP_MOST bytes): then every byte of the
    stretch shares a memory page with a byte of the texts, so the view reads only memory the process
    has, whatever lies there. The view holds `texts`, which hold their buffer.
    """
    if not texts:
        return None
    import numpy

    addresses, sizes = (numpy.array(column, numpy.int64) for column in buffer_spans(texts))
    ends = addresses + sizes
    gaps = addresses[1:] - ends[:-1]
    if not ((gaps >= 1) & (gaps <= _GAP_MOST)).all():
        return None
    first = int(addresses[0])
    size = int(ends[-1]) - first
    view = numpy.asarray(_Memory(first, size, texts))
    starts, ends = addresses - first, ends - first
    if (gaps == 1).all():  # compact JSON: the comma alone
        separated = bool((view[ends[:-1]] == ord(",")).all())
    else:
        separated = all(bytes(view[end:start]).strip(_SEPARATOR_SPACE) == b","
                        for end, start in zip(ends[:-1].tolist(), starts[1:].tolist()))
    if not separated:
        return None
    return view, array("q", [*starts.tolist(), size + 1])
