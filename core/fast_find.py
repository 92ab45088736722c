"""`finder(haystack)`: `haystack.find`, through the C library's `memmem` where it has one, for bytes or any byte buffer.

A search for text few inputs hold reads a whole block of records; for a needle of digits (which no
trigram signature can rule out in float-heavy text) that is most of the file. glibc's `memmem` reads
it 2–3× faster than `bytes.find` (bench_search: a number held by one entry of 100,000). The haystack
may also be a buffer that is not `bytes` (a numpy view of records where they lie in the file's bytes,
core.in_place): read where it is, by its address (`buffer_spans`). Where the C library has no `memmem`
(Windows), such a buffer is copied to bytes once, and bytes are searched with `bytes.find` itself.
"""
from __future__ import annotations

import ctypes
import ctypes.util
from collections.abc import Callable, Iterable
from functools import partial
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    import numpy
    from numpy.typing import NDArray

Find = Callable[..., int]  # find(needle, start=0, end=None) -> offset or -1, as bytes.find
# What a search reads; a record's text in the JSON form (core.store_scan's RecordText, or a msgspec.Raw) is one
# too, though its stubs do not say so.
ByteBuffer: TypeAlias = "bytes | bytearray | memoryview | NDArray[numpy.uint8]"


def _memmem() -> Callable[..., int | None] | None:
    try:
        name = ctypes.util.find_library("c")
        function = ctypes.CDLL(name).memmem if name else None
    except (OSError, AttributeError):
        return None
    if function is None:
        return None
    function.restype = ctypes.c_void_p
    function.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t]
    return function


_MEMMEM = _memmem()


class _PyBuffer(ctypes.Structure):
    """The C API's `Py_buffer` (in the stable ABI since Python 3.11): what `PyObject_GetBuffer` fills."""

    _fields_ = [("buf", ctypes.c_void_p), ("obj", ctypes.c_void_p), ("len", ctypes.c_ssize_t),
                ("itemsize", ctypes.c_ssize_t), ("readonly", ctypes.c_int), ("ndim", ctypes.c_int),
                ("format", ctypes.c_char_p), ("shape", ctypes.c_void_p), ("strides", ctypes.c_void_p),
                ("suboffsets", ctypes.c_void_p), ("internal", ctypes.c_void_p)]


# Through prototypes taking the view's address as an integer: a third quicker a call than pythonapi's own attributes.
_GET_BUFFER = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.py_object, ctypes.c_void_p, ctypes.c_int)(
    ("PyObject_GetBuffer", ctypes.pythonapi))
_RELEASE_BUFFER = ctypes.PYFUNCTYPE(None, ctypes.c_void_p)(("PyBuffer_Release", ctypes.pythonapi))


def buffer_spans(buffers: Iterable[ByteBuffer]) -> tuple[list[int], list[int]]:
    """Where each buffer's bytes start in memory, and how many bytes it has (C-contiguous buffers: bytes,
    msgspec.Raw, memoryview, numpy arrays). An address holds only while its buffer lives.

    Some 0.6 µs a buffer, through the C API (a numpy view of each, and its address, cost twice as much).
    """
    view = _PyBuffer()  # one per call: two threads may ask at once
    at = ctypes.addressof(view)
    addresses: list[int] = []
    sizes: list[int] = []
    for buffer in buffers:
        _GET_BUFFER(buffer, at, 0)  # PyBUF_SIMPLE: contiguous bytes, else BufferError
        addresses.append(view.buf or 0)
        sizes.append(view.len)
        _RELEASE_BUFFER(at)
    return addresses, sizes


def finder(haystack: ByteBuffer) -> Find:
    """A `find(needle, start=0, end=None)` over `haystack` that answers as `bytes(haystack).find(needle, start, end)`."""
    if _MEMMEM is None:
        return bytes(haystack).find  # no memmem to read a buffer where it is: copied (bytes are themselves)
    if type(haystack) is bytes:
        return partial(_find, haystack, ctypes.cast(ctypes.c_char_p(haystack), ctypes.c_void_p).value or 0, len(haystack))
    # Exported while the finder lives: a bytearray cannot move meanwhile. (numpy's stubs give an array the
    # buffer protocol from Python 3.12 on only.)
    held = memoryview(haystack)  # type: ignore[arg-type]
    (base,), (size,) = buffer_spans((held,))
    return partial(_find, held, base, size)


def _find(held: bytes | memoryview, base: int, size: int, needle: bytes, start: int = 0, end: int | None = None) -> int:
    """`needle` in the `size` bytes at `base` (those of `held`, which the finder keeps, so they stay there), as bytes.find."""
    # The bounds as bytes.find takes them: negative ones count from the end, and a start past the
    # end finds nothing (not even the empty needle).
    if start < 0:
        start = max(start + size, 0)
    if start > size:
        return -1
    stop = size if end is None else min(end, size) if end >= 0 else max(end + size, 0)
    if stop - start < len(needle):
        return -1
    if not needle:
        return start
    hit = _MEMMEM(base + start, stop - start, needle, len(needle))  # type: ignore[misc]
    return -1 if hit is None else hit - base
