"""wsi_inspector.core.search.trigram_filter: a run of records that holds a needle, in any ASCII case, is never skipped; others mostly are."""
import random
from array import array
from itertools import accumulate

import pytest

import wsi_inspector.core.search.trigram_filter
from wsi_inspector.core.search.trigram_filter import records_read, runs_holding, signatures

ALPHABET = "abcXYZ 019.,[]\"é—"


def _joined(texts: list[bytes]) -> tuple[bytes, array]:
    return b"\n".join(texts), array("q", accumulate(map((1).__add__, map(len, texts)), initial=0))


@pytest.mark.parametrize("run", [1, 2, 5])
def test_a_run_holding_the_needle_in_any_case_is_always_read(monkeypatch, run):
    monkeypatch.setattr(wsi_inspector.core.search.trigram_filter, "RUN_RECORDS", run)
    monkeypatch.setattr(wsi_inspector.core.search.trigram_filter, "_BYTES_AT_ONCE", 7)  # signatures made a few bytes at a time
    rng = random.Random(7)
    texts = ["".join(rng.choice(ALPHABET) for _ in range(rng.randrange(0, 12))).encode() for _ in range(40)]
    haystack, starts = _joined(texts)
    rows, capitals = signatures(haystack, starts, len(haystack))
    assert capitals.tolist() == [at for at, byte in enumerate(haystack) if 65 <= byte <= 90]
    assert len(rows) == -(-len(texts) // run)
    for text in texts:
        for start in range(len(text)):
            for end in range(start + 1, min(len(text), start + 6) + 1):
                needle = text[start:end].lower()
                held = runs_holding(rows, needle)
                holding = {k // run for k, t in enumerate(texts) if needle in t.lower()}
                assert held is None or all(held[k] for k in holding), needle
                read = set() if held is None else {k for a, b in records_read(held, len(texts)) for k in range(a, b)}
                assert held is None or {k for k, t in enumerate(texts) if needle in t.lower()} <= read


def test_runs_lacking_a_trigram_of_the_needle_are_not_read(monkeypatch):
    monkeypatch.setattr(wsi_inspector.core.search.trigram_filter, "RUN_RECORDS", 2)
    texts = [b'{"label":"run 1"}', b'{"label":"run 2"}', b'{"label":"Run 5000 "}', b'{"label":"run 3"}', b"[1.5,2]", b"[3,4]"]
    rows, _ = signatures(*_joined(texts), 0)
    held = runs_holding(rows, b"run 5000")
    assert held.tolist() == [False, True, False]
    assert records_read(held, len(texts)) == [(2, 4)]
    assert runs_holding(rows, b"2400") is None  # no trigram starting with a letter: every run is read
    assert not runs_holding(rows, b"wards").any()
