"""The Inputs search over blocks of joined records (wsi_inspector.core.search.filtering): every path answers as parsing each input does.

The search joins a block of record texts, finds the needle as given and finds hits with capitals from
the block's kept capitals, lowers a block with too many capitals, reads only the runs of records
whose trigrams may hold the needle, and reads rows wanted alone one by one; records that spell their
input as orjson does are searched in that span, the others parsed (or screened by their text).
Each is checked against `_holds` (the parsed input's compact JSON, lowercased) on records written
every way a file may write them.
"""
import json
import random

import orjson
import pytest

import wsi_inspector.core.search.filtering
import wsi_inspector.core.search.trigram_filter
from wsi_inspector.core.session import store_scan
from wsi_inspector.core.search.filtering import ManifestIndex, _holds, search_needle
from wsi_inspector.core.session.model import Entry
from wsi_inspector.core.session.load import load_bytes

WORDS = ["ward", "Ward", "WARD", "wArD", "north", "North Wing", "café", "Zone", "QUIET", "level", "run", "x"]


def _input(rng: random.Random, n: int):
    """An input of varied shape: capitals in keys and values, numbers JavaScript writes otherwise, nesting."""
    kind = n % 5
    if kind == 0:
        return {"label": f"{rng.choice(WORDS)} {n}", "bandDepth": rng.choice([38.5, 2400.0, -0.0, 1]), "level": n % 6}
    if kind == 1:
        return [rng.choice(WORDS), [rng.uniform(-5, 5), 100.0], {"Ward": rng.choice(WORDS)}]
    if kind == 2:
        return rng.choice(WORDS)
    if kind == 3:
        return {"k": {"k": {"WARDEN": [True, False, None, n]}}, "note": "a \"quoted\" ward"}
    return {"spine": [[n, 1.0], [2.5, n]], "label": rng.choice(WORDS).upper() + "ward" + rng.choice(WORDS)}


def _record(rng: random.Random, n: int) -> bytes:
    """One store record, written compactly, spaced, or with ASCII escapes; members before and after the input."""
    record = {"id": rng.choice([f"c{n}", f"Ward{n}"]), "call": rng.choice(["pack.wardRuns.score", "a.b.c"]),
              "input": _input(rng, n), "unit": rng.choice(["mm", "cm"]), "body": rng.choice(["b1", "Ward1"])}
    if n % 7 == 3:
        record["output"] = {"ward": "after the input"}
    style = n % 4
    if style == 0:
        return orjson.dumps(record)
    if style == 1:
        return json.dumps(record, ensure_ascii=False).encode()  # spaces after , and :
    if style == 2:
        return json.dumps(record, ensure_ascii=True, separators=(",", ":")).encode()  # \u escapes
    return orjson.dumps(record).replace(b'"input":', b'"input" : ')


def _index(form: str, count: int = 120, seed: int = 3) -> tuple[ManifestIndex, list[Entry]]:
    rng = random.Random(seed)
    records = [_record(rng, n) for n in range(count)]
    # A record ending in a capital-heavy text, then one starting with its continuation: no hit spans the two.
    records += [orjson.dumps({"id": "end", "call": "a.b.c", "input": "WA"}), orjson.dumps({"id": "rd", "call": "a.b.c", "input": "RD"})]
    if form == "json":
        data = b'{"format":"worker-session/1","session":{"id":"t"},"store":[' + b",".join(records) + b"]}"
    else:
        lines = [b'{"format":"worker-session/1","session":{"id":"t"}}'] + [b'{"kind":"entry",' + r[1:] for r in records]
        data = b"\n".join(lines)
    session = load_bytes(data, f"t.{form}")
    assert not session.errors and all(e.text is not None for e in session.entries)
    session.entries.insert(5, Entry("mem", "a.b.c", {"Ward": "made in memory", "q": "jjj"}))
    return ManifestIndex(session.entries), session.entries


# Needles a record's end, the comma and the next record's start may spell together, where the JSON form's
# records are searched in place (wsi_inspector.core.session.in_place): such a hit is in neither record's input.
STRADDLING = ["},{", "]},{", "}},{", "\"},{", "},", ",{", "}}", "]}", "0]},{", "1},{", "mm\"},{"]

NEEDLES = ["ward", "WARD", "wArD", "war", "ard", "d", "w", "warden", "north wing", "café", "caf", "zone", "quiet",
           "jjj", "made in memory", "after the input", "level", '"level":', "wa", "ward\"", '"quoted"', "\\",
           "c1", "pack", "mm", " ", "true", "null", "2400", "38.5", "-0", "[[", "rd", "ward 1", "upward",
           "ward 11", "quiet 7", "é n", "ORTH W", "ward4", *STRADDLING]


# How each block is searched: rows alone; records found one by one (bytes.find); all hits at once
# (numpy, from the first hit on); one by one again when the needle's rarest byte is too common.
PATHS = {"rows": (0, 256, 8), "one by one": (10**6, 10**6, 8), "at once": (10**6, 1, 8), "common": (10**6, 1, 10**9)}


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("batch", [1, 7, 4096])
@pytest.mark.parametrize("form", ["json", "jsonl"])
@pytest.mark.parametrize("run", [1, 3, 64])
def test_every_search_path_answers_as_parsing_each_input(monkeypatch, form, batch, path, run):
    few, many, hit_bytes = PATHS[path]
    monkeypatch.setattr(wsi_inspector.core.search.trigram_filter, "RUN_RECORDS", run)  # runs of records read or skipped by their trigrams
    monkeypatch.setattr(wsi_inspector.core.search.filtering, "_BATCH", batch)
    monkeypatch.setattr(wsi_inspector.core.search.filtering, "_FEW_OF_A_BLOCK", few)
    monkeypatch.setattr(wsi_inspector.core.search.filtering, "_MANY_HITS", many)
    monkeypatch.setattr(wsi_inspector.core.search.filtering, "_HIT_BYTES", hit_bytes)
    index, entries = _index(form)
    every = range(len(entries))
    for rows in (every, list(every)[::3], [40, 3, 3, 90, 5, 0]):
        for text in NEEDLES:
            expected = [i for i in rows if _holds(entries[i], search_needle(text))]
            assert index.containing(rows, text) == expected, (text, rows)
            assert index.containing(rows, text) == expected, (text, rows)  # again, from what was kept


def test_hits_found_only_through_capitals_and_a_needle_across_two_records():
    index, entries = _index("json")
    ids = {e.id: i for i, e in enumerate(entries)}
    # "WARD" has no lowercase "ward" at all: found only from the kept capitals.
    assert ids["end"] not in index.containing(range(len(entries)), "ward")
    assert index.containing(range(len(entries)), "WARD") == index.containing(range(len(entries)), "ward")
    assert index.containing([ids["end"], ids["rd"]], "ward") == []  # "WA" then "RD": two records, no hit
    assert index.containing([ids["end"], ids["rd"]], "wa") == [ids["end"]]


def _store(records: list[bytes], layout: str) -> bytes:
    """A JSON form session whose store holds `records`, laid out compactly or as a pretty-printer does."""
    if layout == "compact":
        return b'{"format":"worker-session/1","session":{"id":"t"},"store":[' + b",".join(records) + b"]}"
    return b'{\n  "format": "worker-session/1",\n  "session": {"id": "t"},\n  "store": [\n    ' + b",\n    ".join(records) + b"\n  ]\n}"


def test_a_hit_across_the_comma_between_two_records_is_no_hit():
    """Searched where they lie in the file, two records are one text: "}},{" is the end of one and the
    start of the next, and "},{" there is too, while another record's input holds "},{" itself."""
    records = [b'{"id":"a","call":"a.b.c","input":{"v":[1,2]}}', b'{"id":"b","call":"a.b.c","input":[{"a":1},{"b":2}]}',
               b'{"id":"c","call":"a.b.c","input":{"w":"x"},"unit":"mm"}', b'{"id":"d","call":"a.b.c","input":{"x":1}}']
    entries = load_bytes(_store(records, "compact"), "t.json").entries
    index = ManifestIndex(entries)
    for _ in range(2):  # the block read, then kept
        assert index.containing(range(4), "]}},{") == []
        assert index.containing(range(4), "},{") == [1]
        assert index.containing(range(4), "}},{") == []
        assert index.containing(range(4), 'mm"},{') == []
        assert index.containing(range(4), "2]}") == [0]  # inside the first input, which "2]}},{" runs past
    assert all(block.in_place is not None for block in index._blocks.values())


@pytest.mark.parametrize("layout", ["compact", "pretty"])
@pytest.mark.parametrize("path", PATHS)
def test_records_searched_in_place_answer_as_the_same_records_joined(monkeypatch, layout, path):
    """The JSON form's records are searched where they lie in the file; joined with newlines instead (as
    JSON Lines records are), every needle and every search path gives the same rows."""
    few, many, hit_bytes = PATHS[path]
    monkeypatch.setattr(wsi_inspector.core.search.trigram_filter, "RUN_RECORDS", 3)
    monkeypatch.setattr(wsi_inspector.core.search.filtering, "_BATCH", 16)
    monkeypatch.setattr(wsi_inspector.core.search.filtering, "_FEW_OF_A_BLOCK", few)
    monkeypatch.setattr(wsi_inspector.core.search.filtering, "_MANY_HITS", many)
    monkeypatch.setattr(wsi_inspector.core.search.filtering, "_HIT_BYTES", hit_bytes)
    rng = random.Random(11)
    entries = load_bytes(_store([_record(rng, n) for n in range(90)], layout), "t.json").entries
    in_place, joined = ManifestIndex(entries), ManifestIndex(entries)
    every = range(len(entries))
    with monkeypatch.context() as joining:
        joining.setattr(wsi_inspector.core.search.filtering, "records_in_place", lambda texts: None)
        found_joined = {text: joined.containing(every, text) for text in NEEDLES}
    found_in_place = {text: in_place.containing(every, text) for text in NEEDLES}
    assert all(block.in_place is None for block in joined._blocks.values())
    assert all(block.in_place is not None for block in in_place._blocks.values())
    assert found_in_place == found_joined
    assert found_in_place == {text: [i for i in every if _holds(entries[i], search_needle(text))] for text in NEEDLES}


@pytest.mark.parametrize("run", [3, 64])
def test_a_block_with_more_capitals_than_kept_is_lowered(monkeypatch, run):
    monkeypatch.setattr(wsi_inspector.core.search.filtering, "_CAPITALS_KEPT", 10**9)  # any capital is too many to keep
    monkeypatch.setattr(wsi_inspector.core.search.filtering, "_BATCH", 16)
    monkeypatch.setattr(wsi_inspector.core.search.trigram_filter, "RUN_RECORDS", run)
    index, entries = _index("jsonl")
    for text in ("ward", "WaRd", "quiet", "north wing", "ward 11", "quiet 7"):
        for _ in range(2):  # the block read, then kept
            assert index.containing(range(len(entries)), text) == [i for i in range(len(entries)) if _holds(entries[i], search_needle(text))]
    assert all(block.capitals is None or not len(block.capitals) for block in index._blocks.values())
    assert any(block.capitals is None for block in index._blocks.values())


def test_a_grown_session_is_searched_to_its_end(monkeypatch):
    """The last block is read again once the session grows (a followed file): new entries are found."""
    monkeypatch.setattr(wsi_inspector.core.search.filtering, "_BATCH", 50)
    index, entries = _index("json")
    before = index.containing(range(len(entries)), "brand new")
    assert before == []
    grown = load_bytes(b'{"format":"worker-session/1","session":{"id":"t"},"store":['
                       b'{"id":"n1","call":"a.b.c","input":{"label":"Brand New"}},{"id":"n2","call":"a.b.c","input":"zz"}]}', "n.json")
    first_new = len(entries)
    index.extend(grown.entries)
    assert index.containing(range(len(index)), "brand new") == [first_new]
    assert index.containing(range(first_new, len(index)), "zz") == [first_new + 1]


def test_a_needle_with_a_byte_no_record_holds_still_finds_made_entries():
    index, entries = _index("json")
    assert index.containing(range(len(entries)), "jjj") == [5]  # only the in-memory entry has a "j"
    assert index.containing(range(len(entries)), "QUIET") == [i for i in range(len(entries)) if _holds(entries[i], b"quiet")]


def test_the_first_search_parses_no_input_its_record_spells_as_orjson(monkeypatch):
    """Issue 18.3: the first search of a session read every hit record's input span again (seconds on
    100,000 entries), and a number or `null` parsed every input. The loader now notes each span, so a
    compactly written session is searched, for any needle, from its texts alone."""
    rng = random.Random(5)
    records = [orjson.dumps({"id": f"c{n}", "call": "a.b.c", "input": _input(rng, n), "unit": "mm"}) for n in range(60)]
    session = load_bytes(b'{"format":"worker-session/1","session":{"id":"t"},"store":[' + b",".join(records) + b"]}", "t.json")
    assert all(e.input_span is not None for e in session.entries)
    expected = {n: [i for i, e in enumerate(session.entries) if _holds(e, search_needle(n))] for n in NEEDLES}
    parsed = []
    monkeypatch.setattr(wsi_inspector.core.search.filtering, "_holds", lambda entry, needle: parsed.append(entry) or True)
    index = ManifestIndex(session.entries)
    assert {n: index.containing(range(len(session.entries)), n) for n in NEEDLES} == expected
    assert parsed == []


def test_an_input_span_is_where_the_record_spells_the_input_as_orjson_does():
    records = [b'{"id":"a","call":"a.b.c","input":{"w":"Ward","n":[1,2.5]},"unit":"mm"}',
               b'{"id":"b","call":"a.b.c","input" : {"w":"ward"}}',  # spaced: spelled otherwise
               b'{"id":"c","call":"a.b.c","input":{"n":1e2}}',  # orjson writes 100.0
               b'{"id":"d","call":"a.b.c","input":"caf\\u00e9"}',  # orjson writes the letter
               b'{"id":"e","call":"a.b.c","input":"a \\"quote\\""}',  # escaped as orjson escapes it
               b'{"id":"f","call":"a.b.c","output":{"input":1},"input":2}']  # the first "input": is the output's
    session = load_bytes(b'{"format":"worker-session/1","session":{"id":"t"},"store":[' + b",".join(records) + b"]}", "t.json")
    spelled = {e.id: None if e.input_span is None else bytes(e.text)[slice(*e.input_span)] for e in session.entries}
    assert {k: spelled[k] for k in "acde"} == {"a": b'{"w":"Ward","n":[1,2.5]}', "c": None, "d": None, "e": b'"a \\"quote\\""'}
    # The C scan (wsi_inspector.core.session.store_scan) finds b's and f's inputs where they are; the Python reader looks
    # only right after the first `"input":`. Either way a span holds exactly orjson's spelling.
    assert spelled["b"] in (None, b'{"w":"ward"}') and spelled["f"] in (None, b"2")
    if store_scan.BUILT:
        assert (spelled["b"], spelled["f"]) == (b'{"w":"ward"}', b"2")


_PIECES = 'aAbBwWrRdD 0123456789.-é—"\\\n,:{}[]nulltrue'


def _random_value(rng: random.Random, depth: int = 0):
    """Strings of letters, digits, escapes and punctuation; numbers JavaScript writes otherwise; nesting."""
    kind = rng.random()
    if depth > 2 or kind < 0.3:
        return "".join(rng.choice(_PIECES) for _ in range(rng.randrange(0, 8)))
    if kind < 0.45:
        return rng.choice([rng.uniform(-1e3, 1e3), rng.randrange(-50, 5000), 1.0, -0.0, 1e21, 1e-7, None, True, False])
    if kind < 0.7:
        return [_random_value(rng, depth + 1) for _ in range(rng.randrange(0, 4))]
    return {"".join(rng.choice(_PIECES) for _ in range(rng.randrange(1, 5))): _random_value(rng, depth + 1)
            for _ in range(rng.randrange(0, 4))}


@pytest.mark.parametrize("seed", range(4))
def test_random_sessions_searched_every_way_answer_as_parsing_each_input(monkeypatch, seed):
    """Random records (compact, spaced, ASCII-escaped; JSON and JSON Lines), random block, run and window
    sizes, and needles cut from the records or made up, in any case, over all rows or some, repeated."""
    rng = random.Random(seed)
    for _ in range(8):
        records = [{"id": f"c{n}", "call": "a.b.c", "input": _random_value(rng), "unit": "mm"} for n in range(rng.randrange(1, 50))]
        texts = [orjson.dumps(r) if n % 3 == 0 else json.dumps(r, ensure_ascii=n % 3 == 1).encode() for n, r in enumerate(records)]
        if rng.random() < 0.5:
            data, name = b'{"format":"worker-session/1","session":{"id":"t"},"store":[' + b",".join(texts) + b"]}", "t.json"
        else:
            lines = [b'{"format":"worker-session/1","session":{"id":"t"}}'] + [b'{"kind":"entry",' + t[1:] for t in texts]
            data, name = b"\n".join(lines), "t.jsonl"
        entries = load_bytes(data, name).entries
        for module, name, values in ((wsi_inspector.core.search.filtering, "_BATCH", [1, 3, 4096]), (wsi_inspector.core.search.trigram_filter, "RUN_RECORDS", [1, 2, 64]),
                                     (wsi_inspector.core.search.trigram_filter, "_BYTES_AT_ONCE", [5, 1 << 20]), (wsi_inspector.core.search.filtering, "_MANY_HITS", [1, 256]),
                                     (wsi_inspector.core.search.filtering, "_HIT_BYTES", [1, 10**9]), (wsi_inspector.core.search.filtering, "_CAPITALS_KEPT", [1, 10**9])):
            monkeypatch.setattr(module, name, rng.choice(values))
        index = ManifestIndex(entries)
        for _ in range(30):
            record = bytes(rng.choice(entries).text)
            at = rng.randrange(len(record))
            text = record[at:at + rng.randrange(1, 8)].decode("utf-8", "ignore")
            text = text.upper() if rng.random() < 0.3 else text
            rows = range(len(entries)) if rng.random() < 0.6 else [rng.randrange(len(entries)) for _ in range(len(entries))]
            expected = [i for i in rows if _holds(entries[i], search_needle(text))] if text else list(rows)
            assert index.containing(rows, text) == expected, (text, list(rows))
