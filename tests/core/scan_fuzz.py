"""A seeded fuzz of the C scan (core/session/_store_scan.c): mutated session documents and lines, every record built.

Run by tests/core/session/test_scan_sanitized.py in a child whose `wsi_inspector.core.session._store_scan` is a build with
AddressSanitizer and UBSan; any read past a buffer or undefined behaviour stops it there.
`python -m tests.core.scan_fuzz [SEED] [ROUNDS]`.
"""
from __future__ import annotations

import random
from array import array
import sys
from pathlib import Path

import wsi_inspector.core.session._store_scan as native

ROOT = Path(__file__).resolve().parents[2]
PIECES = [b"1", b"-0", b"1e400", b"5e-324", b"0.1000000000000000055511151231257827", b"123456789012345678901",
          b'"\\ud800"', b'"\\u00e9"', b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"NaN", b"[", b"]", b"{", b"}", b",",
          b":", b'"store"', b'"input"', b"\\", b'"', b"\x00", b" ", b"\n", b"9" * 30, b"1.7976931348623157e308"]


def seeds() -> list[bytes]:
    """Real documents to mutate: the demo session and a few records of each kind."""
    demo = (ROOT / "resources" / "sessions" / "demo.json").read_bytes()
    records = ",".join([
        '{"id":"c1","call":"a.b.c","input":{"spine":[[39482.34964231735,-0.5],[1e21,1.5e-7]],"label":"Süd \\"B\\"\\n"}}',
        '{"id":2,"call":"a.b.c","input":[1,2.5,"x",true,false,null,{"a":{"b":[]}}],"output":{"ok":true}}',
        '{"id":"e3","call":"a.b.c","applied":true,"editOf":"c1","input":"\\ud83d\\ude00 \\u0041"}',
    ])
    doc = ('{"format":"worker-session/1","session":{"id":"f"},"store":[' + records + "]}").encode()
    return [demo, doc]


def mutate(rng: random.Random, data: bytes) -> bytes:
    """A few random edits: a byte changed, a piece inserted, a span deleted or repeated, the end cut."""
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        at = rng.randrange(len(out) + 1)
        kind = rng.random()
        if kind < 0.3 and out:
            out[min(at, len(out) - 1)] = rng.randrange(256)
        elif kind < 0.6:
            out[at:at] = rng.choice(PIECES)
        elif kind < 0.8:
            del out[at:at + rng.randint(1, 40)]
        elif kind < 0.9:
            out[at:at] = out[at:at + rng.randint(1, 200)]
        else:
            del out[at:]
    return bytes(out)


def exercise(data: bytes) -> None:
    """Scan `data` as a document, as a line and line by line, and build everything the scans hand out."""
    scanned = native.scan(data)
    if scanned is not None:
        scanned.parts()
        for record in scanned:
            bytes(record[-1])
    for text in (data, bytearray(data), memoryview(data)[1:]):
        record = native.scan_record(text)
        if record is not None:
            bytes(record[-1])
    for ahead in (False, True):  # each line scanned where it lies, as the JSON Lines loader does: ahead, or one by one
        lines = native.lines(data)
        spans, start = [], 0
        for line in data.split(b"\n"):
            spans.append((start, start + len(line)))
            start += len(line) + 1
        if ahead:
            lines.scan_ahead(array("q", [a for a, _ in spans[1:]]), array("q", [b for _, b in spans[1:]]))
        for start, stop in spans:
            record = lines.record(start, stop)
            if record is not None:
                bytes(record[-1])
            bytes(lines.text(start, stop))
    cut = len(data) // 3  # the token readers on any text, whole and in spans that end anywhere
    native.digest(data)
    native.digest(data, cut, len(data) - cut)
    native.same_json(data, 0, len(data), data, cut, len(data))
    native.same_json(data, cut, len(data) - 1, bytearray(data), 0, len(data) - cut - 1)
    native.same_rest(data, cut, data, len(data) - cut, b'"output"')
    for start in (0, cut):
        span = native.member(memoryview(data)[start:], "input")
        if isinstance(span, tuple):
            native.member(memoryview(data)[start:], "output", span[1])
    find = native.finder(data)
    find(data[len(data) // 2:len(data) // 2 + 3], -5)
    native.buffer_spans([data, memoryview(data)[2:]])


def main(seed: int = 28, rounds: int = 20_000) -> None:
    rng = random.Random(seed)
    bases = seeds()
    for _ in range(rounds):
        exercise(mutate(rng, rng.choice(bases)))
    print(f"fuzzed {rounds} documents (seed {seed})")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
