"""wsi_inspector.core.session.fast_find answers as bytes.find, through memmem in the C extension where it was built."""
import ast
import random
from pathlib import Path

import pytest

import wsi_inspector.core.session.store_scan
from wsi_inspector.core.session import fast_find
from wsi_inspector.core.session.fast_find import buffer_spans, finder


def test_the_c_finder_is_used_where_the_extension_is_built():
    if wsi_inspector.core.session.store_scan.BUILT:
        assert fast_find._finder is not None and fast_find._buffer_spans is not None


def test_no_ctypes_into_cpython_or_libc():
    """One native layer (issue 29): what needs native speed is in the C extension, not ctypes."""
    tree = ast.parse(Path(fast_find.__file__).read_text())
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))
                for alias in node.names} | {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not any(name and name.split(".")[0] == "ctypes" for name in imported)


@pytest.mark.parametrize("built", [True, False])
def test_buffer_spans_are_where_the_bytes_lie(monkeypatch, built):
    import numpy

    if not built:
        monkeypatch.setattr(fast_find, "_buffer_spans", None)
    data = b"<0123456789>"
    view = numpy.frombuffer(data, numpy.uint8)[1:-1]
    addresses, sizes = buffer_spans([data, view, bytearray(b"ab"), memoryview(data)[3:5]])
    assert sizes == [12, 10, 2, 2]
    assert addresses[1] == addresses[0] + 1 == view.__array_interface__["data"][0]
    assert addresses[3] == addresses[0] + 3


def _buffers(data: bytes) -> list:
    """`data` as each kind of buffer a search hands the finder: bytes, a numpy view of a larger text, a Raw, a bytearray."""
    import msgspec
    import numpy

    padded = numpy.frombuffer(b"<" + data + b">", numpy.uint8)
    return [data, padded[1:-1], msgspec.Raw(data), bytearray(data), memoryview(b"(" + data + b")")[1:-1]]


@pytest.mark.parametrize("built", [True, False])
@pytest.mark.parametrize("seed", range(6))
def test_every_needle_start_and_end_answers_as_bytes_find(monkeypatch, seed, built):
    if not built:
        monkeypatch.setattr(fast_find, "_finder", None)  # built without a C compiler
    rng = random.Random(seed)
    haystack = bytes(rng.choice(b"0123456789.,[]ab") for _ in range(3000))
    bounds = [0, len(haystack), len(haystack) + 1, -1]
    for find in map(finder, _buffers(haystack)):
        for _ in range(150):
            at = rng.randrange(len(haystack))
            needle = haystack[at:at + rng.randrange(1, 9)] if rng.random() < 0.7 else bytes(rng.choice(b"0123456789xz") for _ in range(rng.randrange(1, 6)))
            start = rng.choice([*bounds, rng.randrange(-5, len(haystack) + 5), rng.randrange(-len(haystack) - 5, 0)])
            end = rng.choice([None, *bounds, rng.randrange(-5, len(haystack) + 5), rng.randrange(-len(haystack) - 5, 0)])
            assert find(needle, start) == haystack.find(needle, start), (needle, start)
            assert find(needle, start, end) == haystack.find(needle, start, end), (needle, start, end)
            assert find(needle) == haystack.find(needle)


def test_edges_answer_as_bytes_find():
    for find in map(finder, _buffers(b"abcabc")):
        for needle, start, end in [(b"", 0, None), (b"", 6, None), (b"", 7, None), (b"c", 6, None), (b"abc", 3, None),
                                   (b"abc", 4, None), (b"abcabcd", 0, None), (b"c", -2, None), (b"", 4, 2), (b"", 2, 2),
                                   (b"", 9, 12), (b"b", 0, -4), (b"b", 0, -5), (b"", -9, -8), (b"ca", 2, 4), (b"ca", 2, 3)]:
            assert find(needle, start, end) == b"abcabc".find(needle, start, end), (needle, start, end)


def test_a_bytearray_cannot_move_while_its_finder_lives():
    data = bytearray(b"xyz")
    find = finder(data)
    with pytest.raises(BufferError):
        data.extend(b"more")  # its bytes stay where the finder reads them
    assert find(b"z") == 2
    del find
    data.extend(b"more")
