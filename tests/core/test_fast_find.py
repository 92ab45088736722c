"""core.fast_find answers as bytes.find, through memmem where the C library has it."""
import random

import pytest

from core import fast_find
from core.fast_find import finder


def test_memmem_is_used_on_this_machine():
    import sys

    if sys.platform.startswith("linux"):
        assert fast_find._MEMMEM is not None


@pytest.mark.parametrize("seed", range(6))
def test_every_needle_and_start_answers_as_bytes_find(seed):
    rng = random.Random(seed)
    haystack = bytes(rng.choice(b"0123456789.,[]ab") for _ in range(3000))
    find = finder(haystack)
    for _ in range(400):
        at = rng.randrange(len(haystack))
        needle = haystack[at:at + rng.randrange(1, 9)] if rng.random() < 0.7 else bytes(rng.choice(b"0123456789xz") for _ in range(rng.randrange(1, 6)))
        start = rng.choice([0, rng.randrange(-5, len(haystack) + 5), len(haystack), len(haystack) + 1])
        assert find(needle, start) == haystack.find(needle, start), (needle, start)
        assert find(needle) == haystack.find(needle)


def test_edges_answer_as_bytes_find():
    find = finder(b"abcabc")
    for needle, start in [(b"", 0), (b"", 6), (b"", 7), (b"c", 6), (b"abc", 3), (b"abc", 4), (b"abcabcd", 0), (b"c", -2)]:
        assert find(needle, start) == b"abcabc".find(needle, start), (needle, start)


def test_a_buffer_that_is_not_bytes_uses_its_own_find():
    data = bytearray(b"xyz")
    assert finder(data) == data.find
