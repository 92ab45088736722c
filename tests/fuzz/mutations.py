"""Seeded mutations of session files: each case is a file name and its bytes, the same for the same seed.

Kinds (issue 11): byte flips, truncation, deleted and duplicated records, wrong types, huge numbers,
lone surrogates, deep nesting, bytes that are not UTF-8, gzip damage and bombs, long edit chains.
Every kind starts from a small valid session in the JSON or JSON Lines form, optionally gzipped.
"""
from __future__ import annotations

import gzip
import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

CALLS = ["pack.corridorRuns.corridorRuns", "pack.rooms.place", "dept.zones.zones"]
ODD_VALUES: list[object] = [None, True, 0, -1, 1.5, "", "x", [], {}, [1, 2], {"__h": "h1"}, "pack.a", 2**70]
HUGE_NUMBERS = ["1e400", "-1e400", "123456789012345678901234567890", "-0.0", "1e-400", "9007199254740993",
                "4.9e-324", "1.7976931348623157e308", "1" + "0" * 400]


@dataclass
class Case:
    """One fuzzed file."""

    number: int
    kind: str
    name: str
    data: bytes


def base_session(rng: random.Random, entries: int = 8) -> dict:
    """A small valid session: model calls, canvas edits, bodies with keeps, a scene with a mock."""
    store, bodies = [], []
    for i in range(entries):
        body = f"b{i // 3}"
        if not bodies or bodies[-1]["id"] != body:
            bodies.append({"id": body, "code": f"const r = inputs.last('pack.corridorRuns');\nreturn {{ n: {i}, keep: {{ v{i}: {i} }} }};",
                           "result": {"ok": True, "returned": {"n": i}}, "keep": {f"v{i}": i}})
        call = rng.choice(CALLS)
        spine = [[round(rng.uniform(0, 6e4), 3), round(rng.uniform(0, 4e4), 3)] for _ in range(rng.randint(1, 6))]
        store.append({"id": f"c{i}", "call": call, "unit": "mm", "body": body,
                      "input": {"spine": spine, "bandDepth": rng.randint(20, 40), "label": f"run {i}"},
                      "output": {"runs": i}})
        if rng.random() < 0.3:
            edited = json.loads(json.dumps(store[-1]["input"]))
            edited["bandDepth"] += 1
            store.append({"id": f"e{i}", "call": call, "unit": rng.choice(["mm", "cm"]), "applied": True,
                          "editOf": f"c{i}", "input": edited})
    return {"format": "worker-session/1", "session": {"id": "fuzz", "title": "fuzzed"},
            "caps": {"storeBytes": 4096}, "modules": {"pack.corridorRuns": {"fns": ["corridorRuns"]}},
            "scene": {"unit": "mm", "entities": [{"id": "site-1", "type": "site"}],
                      "mocks": {"pack.rooms.place": {"echo": True}}},
            "store": store, "bodies": bodies}


def as_json_lines(session: dict) -> list[bytes]:
    """The JSON Lines form: the header, then bodies and entries in timeline order (odd values as lines of their own)."""
    header = {k: v for k, v in session.items() if k not in ("store", "bodies", "kept")}
    lines = [json.dumps(header)]
    store, bodies_list = session.get("store"), session.get("bodies")
    if not isinstance(store, list):
        lines.append(json.dumps(store))
        store = []
    if not isinstance(bodies_list, list):
        lines.append(json.dumps(bodies_list))
        bodies_list = []
    bodies = {json.dumps(b.get("id")): b for b in bodies_list if isinstance(b, dict)}
    for entry in store:
        if not isinstance(entry, dict):
            lines.append(json.dumps(entry))
            continue
        body = bodies.pop(json.dumps(entry.get("body")), None)
        if body is not None:
            lines.append(json.dumps({"kind": "body", **body}))
        lines.append(json.dumps({"kind": "entry", **entry}))
    lines.extend(json.dumps({"kind": "body", **b}) for b in bodies.values())
    lines.extend(json.dumps(b) for b in bodies_list if not isinstance(b, dict))
    return [line.encode() for line in lines]


def _encode(session: dict, jsonl: bool) -> bytes:
    if jsonl:
        return b"\n".join(as_json_lines(session)) + b"\n"
    small = not isinstance(session.get("store"), list) or len(session["store"]) < 20
    return json.dumps(session, indent=1 if small else None).encode()


def _placeholder_swap(data: bytes, marker: str, text: bytes) -> bytes:
    return data.replace(json.dumps(marker).encode(), text, 1)


def _some_entry(rng: random.Random, session: dict) -> dict:
    return rng.choice(session["store"])


def byte_flips(rng: random.Random, session: dict, jsonl: bool) -> bytes:
    data = bytearray(_encode(session, jsonl))
    for _ in range(rng.randint(1, 8)):
        data[rng.randrange(len(data))] = rng.randrange(256)
    return bytes(data)


def truncation(rng: random.Random, session: dict, jsonl: bool) -> bytes:
    data = _encode(session, jsonl)
    return data[: rng.randrange(len(data))]


def deleted_records(rng: random.Random, session: dict, jsonl: bool) -> bytes:
    for _ in range(rng.randint(1, 3)):
        pool = session["store"] if rng.random() < 0.7 or not session["bodies"] else session["bodies"]
        if pool:
            pool.pop(rng.randrange(len(pool)))
    return _encode(session, jsonl)


def duplicated_records(rng: random.Random, session: dict, jsonl: bool) -> bytes:
    for _ in range(rng.randint(1, 3)):
        pool = session["store"] if rng.random() < 0.7 else session["bodies"]
        if pool:
            pool.insert(rng.randrange(len(pool) + 1), json.loads(json.dumps(rng.choice(pool))))
    return _encode(session, jsonl)


def wrong_types(rng: random.Random, session: dict, jsonl: bool) -> bytes:
    for _ in range(rng.randint(1, 4)):
        target = _some_entry(rng, session)
        target[rng.choice(["id", "call", "input", "unit", "applied", "editOf", "body", "output", "seq", "at"])] = rng.choice(ODD_VALUES)
        if rng.random() < 0.3 and session["bodies"]:
            body = rng.choice(session["bodies"])
            body[rng.choice(["id", "code", "lang", "seq", "result", "keep"])] = rng.choice(ODD_VALUES)
    if rng.random() < 0.3:  # a whole part, last, so the record mutations above still had records to change
        session[rng.choice(["format", "session", "caps", "scene", "modules", "store", "bodies", "kept"])] = rng.choice(ODD_VALUES)
    if rng.random() < 0.2:
        session["store"].insert(0, rng.choice(ODD_VALUES)) if isinstance(session["store"], list) else None
    return _encode(session, jsonl)


def huge_numbers(rng: random.Random, session: dict, jsonl: bool) -> bytes:
    entry = _some_entry(rng, session)
    entry["input"]["huge"] = "HUGE"
    if rng.random() < 0.3:
        entry["id"] = "HUGEID"
    data = _encode(session, jsonl)
    data = _placeholder_swap(data, "HUGE", rng.choice(HUGE_NUMBERS).encode())
    return _placeholder_swap(data, "HUGEID", rng.choice(HUGE_NUMBERS).encode())


def lone_surrogates(rng: random.Random, session: dict, jsonl: bool) -> bytes:
    entry = _some_entry(rng, session)
    escape = rng.choice([b'"\\ud800"', b'"a\\udfffb"', b'"\\udc00\\ud800"', b'"\\ud83d"'])
    entry["input"]["text"] = "LONE"
    if rng.random() < 0.3 and session["bodies"]:
        session["bodies"][0]["keep"] = {"t": "LONEKEEP"}
    data = _placeholder_swap(_encode(session, jsonl), "LONE", escape)
    return _placeholder_swap(data, "LONEKEEP", escape)


def deep_nesting(rng: random.Random, session: dict, jsonl: bool) -> bytes:
    depth = rng.choice([rng.randint(100, 1100), rng.randint(1000, 1100), rng.randint(1100, 5000), 100_000])
    opener, closer = rng.choice([(b"[", b"]"), (b'{"a":', b"}")])
    deep = opener * depth + b"1" + closer * depth
    place = rng.random()
    if place < 0.6:
        _some_entry(rng, session)["input"]["deep"] = "DEEP"
    elif place < 0.75 and session["bodies"]:
        session["bodies"][0]["keep"] = {"deep": "DEEP"}
    elif place < 0.9:
        session["session"]["deep"] = "DEEP"
    else:
        pair = [e for e in session["store"] if e.get("applied")]
        if pair:
            pair[0]["input"]["deep"] = "DEEP"
            session["store"][session["store"].index(pair[0]) - 1]["input"]["deep"] = "DEEP2"
        else:
            _some_entry(rng, session)["input"]["deep"] = "DEEP"
    data = _placeholder_swap(_encode(session, jsonl), "DEEP", deep)
    return _placeholder_swap(data, "DEEP2", deep.replace(b"1", b"2"))


def bad_utf8(rng: random.Random, session: dict, jsonl: bool) -> bytes:
    data = bytearray(_encode(session, jsonl))
    for _ in range(rng.randint(1, 3)):
        quotes = [i for i, c in enumerate(data) if c == 0x22]
        at = rng.choice(quotes) + 1
        data[at:at] = rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x80\x80", b"\xf4\x90\x80\x80", b"\xe2\x82"])
    return bytes(data)


def gzip_damage(rng: random.Random, session: dict, jsonl: bool) -> bytes:
    data = bytearray(gzip.compress(_encode(session, jsonl)))
    how = rng.choice(["truncate", "flip", "crc", "junk", "header", "bomb"])
    if how == "truncate":
        return bytes(data[: rng.randrange(2, len(data))])
    if how == "flip":
        data[rng.randrange(10, len(data))] ^= 1 << rng.randrange(8)
    elif how == "crc":
        data[-rng.randint(1, 8)] ^= 0xFF
    elif how == "junk":
        data += bytes(rng.randrange(256) for _ in range(rng.randint(1, 20)))
    elif how == "header":
        data[rng.randrange(2, 10)] ^= 0xFF
    else:  # a bomb past the limit the runner sets (WSI_GZIP_LIMIT)
        return gzip.compress(b" " * (rng.randint(40, 80) * 1024 * 1024), compresslevel=1)
    return bytes(data)


def edit_chains(rng: random.Random, session: dict, jsonl: bool) -> bytes:
    base = _some_entry(rng, session)
    steps = rng.randint(5, 60)
    previous = base
    for step in range(steps):
        edited = json.loads(json.dumps(previous["input"]))
        edited["bandDepth"] = edited.get("bandDepth", 0) + 1 if isinstance(edited, dict) else step
        edit = {"id": f"x{step}", "call": base["call"], "applied": True, "input": edited, "unit": "mm"}
        if rng.random() < 0.5:
            edit["editOf"] = previous["id"]
        session["store"].append(edit)
        previous = edit
    return _encode(session, jsonl)


KINDS: dict[str, Callable[[random.Random, dict, bool], bytes]] = {
    "byte_flips": byte_flips, "truncation": truncation, "deleted_records": deleted_records,
    "duplicated_records": duplicated_records, "wrong_types": wrong_types, "huge_numbers": huge_numbers,
    "lone_surrogates": lone_surrogates, "deep_nesting": deep_nesting, "bad_utf8": bad_utf8,
    "gzip_damage": gzip_damage, "edit_chains": edit_chains,
}


def make_case(seed: int, number: int) -> Case:
    """Case `number` of the run seeded `seed`: the same pair always gives the same bytes."""
    rng = random.Random(seed * 1_000_003 + number)
    kind = list(KINDS)[number % len(KINDS)]
    jsonl = rng.random() < 0.4
    session = base_session(rng, rng.randint(1, 12))
    data = KINDS[kind](rng, session, jsonl)
    zipped = kind == "gzip_damage" or (rng.random() < 0.15 and kind != "gzip_damage")
    if zipped and kind != "gzip_damage":
        data = gzip.compress(data)
    name = f"case{number}.{'jsonl' if jsonl else 'json'}{'.gz' if zipped else ''}"
    return Case(number, kind, name, data)


def cases(seed: int, start: int, count: int) -> Iterator[Case]:
    """Cases start … start + count − 1."""
    for number in range(start, start + count):
        yield make_case(seed, number)
