"""`finder(haystack)`: `haystack.find`, through the C library's `memmem` where it has one, for bytes or any byte buffer.

A search for text few inputs hold reads a whole block of records; for a needle of digits (which no
trigram signature can rule out in float-heavy text) that is most of the file. glibc's `memmem` reads
it 2–3× faster than `bytes.find` (bench_search: a number held by one entry of 100,000). The haystack
may also be a buffer that is not `bytes` (a numpy view of records where they lie in the file's bytes,
wsi_inspector.core.session.in_place): read where it is, by its address (`buffer_spans`). Both live in the one C extension
(core/session/_store_scan.c); a build without a C compiler copies such a buffer to bytes once and searches
with `bytes.find` itself, and finds addresses through numpy's array interface.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, TypeAlias

try:
    from wsi_inspector.core.session._store_scan import buffer_spans as _buffer_spans
    from wsi_inspector.core.session._store_scan import finder as _finder
except ImportError:  # built without a C compiler
    _buffer_spans = _finder = None

if TYPE_CHECKING:
    import numpy
    from numpy.typing import NDArray

Find = Callable[..., int]  # find(needle, start=0, end=None) -> offset or -1, as bytes.find
# What a search reads; a record's text in the JSON form (wsi_inspector.core.session.store_scan's RecordText, or a msgspec.Raw) is one
# too, though its stubs do not say so.
ByteBuffer: TypeAlias = "bytes | bytearray | memoryview | NDArray[numpy.uint8]"


def buffer_spans(buffers: Iterable[ByteBuffer]) -> tuple[list[int], list[int]]:
    """Where each buffer's bytes start in memory, and how many bytes it has (C-contiguous buffers: bytes,
    msgspec.Raw, memoryview, numpy arrays). An address holds only while its buffer lives."""
    if _buffer_spans is not None:
        return _buffer_spans(buffers)
    import numpy

    arrays = [numpy.frombuffer(buffer, dtype=numpy.uint8) for buffer in buffers]
    return [a.__array_interface__["data"][0] for a in arrays], [a.size for a in arrays]


def finder(haystack: ByteBuffer) -> Find:
    """A `find(needle, start=0, end=None)` over `haystack` that answers as `bytes(haystack).find(needle, start, end)`."""
    if _finder is None:
        return bytes(haystack).find  # no memmem to read a buffer where it is: copied (bytes are themselves)
    return _finder(haystack)
