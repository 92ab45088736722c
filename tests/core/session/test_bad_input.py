"""Issue 11: bad input never takes the inspector down: deep values, bad bytes, damaged gzip, bombs, `--json` on failure."""
import gzip
import json
import tracemalloc

import pytest

from wsi_inspector.core.session.reading import MAX_DEPTH, JsonSyntaxError, decode
from wsi_inspector.core.session.load import load, load_bytes
from tests.helpers.cli import wsi
from tests.helpers.session_text import HEAD, deep, entry, json_form, with_input

COMMANDS = [("manifest",), ("kept",), ("trim", "--cap", "1KiB"), ("diff",), ("validate",)]


def one_json_document(stdout: str) -> object:
    lines = stdout.splitlines()
    assert len(lines) == 1, stdout[:300]
    return json.loads(lines[0])


# --- 1. deep nesting ---------------------------------------------------------------------------


@pytest.mark.parametrize("form", ["json", "jsonl"])
def test_an_input_nested_988_deep_loads_in_every_command(tmp_path, form):
    if form == "json":
        text = with_input(json_form(entry("c1", "DEEP"), entry("c2")), "DEEP", deep(988))
    else:
        text = "\n".join([json.dumps(HEAD), with_input(json.dumps({"kind": "entry", **entry("c1", "DEEP")}), "DEEP", deep(988)),
                          json.dumps({"kind": "entry", **entry("c2")})]) + "\n"
    path = tmp_path / f"deep.{form}"
    path.write_text(text)
    for command in COMMANDS:
        done = wsi(command[0], path, *command[1:], "--json")
        assert done.returncode == 0, (command, done.stderr)
        one_json_document(done.stdout)
    manifest = json.loads(wsi("manifest", path, "--json").stdout)
    assert [e["id"] for e in manifest["entries"]] == ["c1", "c2"]
    assert manifest["entries"][0]["bytes"] == 2 * 988 + 1


@pytest.mark.parametrize("form", ["json", "jsonl"])
def test_an_integer_of_5000_digits_loads_as_javascript_reads_it(tmp_path, form):
    """A 5,000-digit integer went past Python's 4,300-digit limit for int() and ended `wsi manifest` in a
    traceback (ValueError). JSON.parse reads it as Infinity, which JSON.stringify writes as null."""
    huge = "1" * 5000
    if form == "json":
        text = with_input(json_form(entry("c1", "HUGE"), entry("c2")), "HUGE", f"[{huge},-{huge},1]")
    else:
        text = "\n".join([json.dumps(HEAD), with_input(json.dumps({"kind": "entry", **entry("c1", "HUGE")}), "HUGE", f"[{huge},-{huge},1]"),
                          json.dumps({"kind": "entry", **entry("c2")})]) + "\n"
    path = tmp_path / f"huge.{form}"
    path.write_text(text)
    done = wsi("manifest", path, "--json")
    assert done.returncode == 0, done.stderr
    manifest = json.loads(done.stdout)
    assert [e["id"] for e in manifest["entries"]] == ["c1", "c2"]
    assert manifest["entries"][0]["bytes"] == len("[null,null,1]")


def test_a_canvas_edit_nested_988_deep_diffs(tmp_path):
    text = with_input(with_input(json_form(entry("c1", {"a": "BASE"}), entry("e1", {"a": "EDIT"}, applied=True)),
                                 "BASE", deep(985)), "EDIT", deep(985, "2"))
    path = tmp_path / "deep_edit.json"
    path.write_text(text)
    done = wsi("diff", path, "--json")
    assert done.returncode == 0, done.stderr
    (edit,) = one_json_document(done.stdout)["edits"]
    assert [(c["op"], c["path"].count("/"), c["to"]) for c in edit["changes"]] == [("replace", 986, 2)]


def test_a_record_nested_past_the_limit_is_refused_at_its_place_and_the_rest_loads(tmp_path):
    text = with_input(json_form(entry("c1"), entry("c2", "DEEP"), entry("c3")), "DEEP", deep(1500))
    path = tmp_path / "deeper.json"
    path.write_text(text)
    session = load(path)
    assert [e.id for e in session.entries] == ["c1", "c3"]
    (problem,) = session.errors
    crossing = text.index("[" * 1500) + MAX_DEPTH - 1  # a store record is parsed on its own: the entry is level 1
    assert problem.where == f"1:{crossing + 1}"
    assert text[crossing] == "[" and f"nested deeper than {MAX_DEPTH:,} levels" in problem.message
    assert problem.message.startswith("/store/1: ")
    for command in COMMANDS:
        done = wsi(command[0], path, *command[1:], "--json")
        assert done.returncode == 1 and "internal error" not in done.stderr, command
        one_json_document(done.stdout)


def test_a_line_nested_100000_deep_is_one_located_error_in_json_lines(tmp_path):
    path = tmp_path / "deep.jsonl"
    path.write_text("\n".join([json.dumps(HEAD), with_input(json.dumps({"kind": "entry", **entry("c1", "DEEP")}), "DEEP", deep(100_000)),
                               json.dumps({"kind": "entry", **entry("c2")})]) + "\n")
    session = load(path)
    assert [e.id for e in session.entries] == ["c2"]
    (problem,) = session.errors
    assert problem.where.startswith("2:") and "nested deeper than" in problem.message


def test_a_file_nested_100000_deep_is_one_located_error_line_and_one_json_document(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text(with_input(json_form(entry("c1", "DEEP")), "DEEP", deep(100_000)))
    for command in COMMANDS[:4]:
        done = wsi(command[0], path, *command[1:], "--json")
        assert done.returncode == 1, command
        assert len(done.stderr.strip().splitlines()) == 1 and "nested deeper than" in done.stderr
        error = one_json_document(done.stdout)["error"]
        assert error["where"].startswith("1:") and "nested deeper than" in error["message"]
    report = one_json_document(wsi("validate", path, "--json").stdout)
    assert "nested deeper than" in report["errors"][0]["message"]


# --- 2. a byte that is not UTF-8 ------------------------------------------------------------------


def test_a_bad_byte_inside_a_store_record_is_placed_and_the_rest_loads():
    data = json_form(entry("c1"), entry("c2", "A?B"), entry("c3")).encode().replace(b"A?B", b"A\xffB")
    session = load_bytes(data, "s.json")
    assert [e.id for e in session.entries] == ["c1", "c3"]
    (problem,) = session.errors
    assert problem.where == "1:%d" % (data.index(b"\xff") + 1)
    assert problem.message.startswith("/store/1: not UTF-8 text (byte 0xff)")


def test_a_bad_byte_in_a_body_or_the_header_costs_only_that_part():
    data = json_form(entry("c1", body="b1"), bodies=[{"id": "b0", "code": "X?"}, {"id": "b1", "code": "return 1"}],
                     kept={"note": "Y?"}).encode()
    data = data.replace(b"X?", b"X\xc3").replace(b"Y?", b"Y\xfe")
    session = load_bytes(data, "s.json")
    assert [e.id for e in session.entries] == ["c1"] and [b.id for b in session.bodies] == ["b1"]
    places = sorted((p.message.split(":")[0], p.where) for p in session.errors)
    assert places == [("/bodies/0", f"1:{data.index(b'X') + 2}"), ("/kept", f"1:{data.index(b'Y') + 2}")]


def test_a_bad_byte_in_a_json_lines_record_names_its_line_and_column():
    lines = [json.dumps(HEAD).encode(), json.dumps({"kind": "entry", **entry("c1", "A?")}).encode().replace(b"A?", b"A\x80"),
             json.dumps({"kind": "entry", **entry("c2")}).encode()]
    session = load_bytes(b"\n".join(lines) + b"\n", "s.jsonl")
    assert [e.id for e in session.entries] == ["c2"]
    assert [(p.where, "UTF-8" in p.message) for p in session.errors] == [("2:%d" % (lines[1].index(b"\x80") + 1), True)]


# --- 3. damaged gzip ------------------------------------------------------------------------------


def _gzipped_session() -> bytes:
    return gzip.compress(json_form(*[entry(f"c{i}", {"spine": [[i, i * 2.5]] * 20}) for i in range(300)]).encode())


@pytest.mark.parametrize("damage", ["truncated", "cut_to_40_bytes", "flipped_byte", "bad_crc", "trailing_junk"])
def test_damaged_gzip_is_one_clear_error_line_exit_1_in_every_command(tmp_path, damage):
    data = bytearray(_gzipped_session())
    if damage == "truncated":
        data = data[: len(data) // 2]
    elif damage == "cut_to_40_bytes":
        data = data[:40]
    elif damage == "flipped_byte":
        data[len(data) // 2] ^= 0x55
    elif damage == "bad_crc":
        data[-6] ^= 0xFF
    else:
        data += b"junk"
    path = tmp_path / "s.json.gz"
    path.write_bytes(bytes(data))
    for command in COMMANDS[:4]:
        done = wsi(command[0], path, *command[1:])
        assert done.returncode == 1, (command, done.stderr)
        (line,) = done.stderr.strip().splitlines()
        assert line.startswith("s.json.gz:1:1: error: ") and "gzip" in line and "internal error" not in line
        assert done.stdout == ""
        as_json = wsi(command[0], path, *command[1:], "--json")
        assert as_json.returncode == 1
        assert "gzip" in one_json_document(as_json.stdout)["error"]["message"]
    report = one_json_document(wsi("validate", path, "--json").stdout)
    assert len(report["errors"]) == 1 and "gzip" in report["errors"][0]["message"]


def test_a_gzip_file_that_cannot_be_opened_exits_2(tmp_path):
    done = wsi("manifest", tmp_path / "gone.json.gz", "--json")
    assert done.returncode == 2 and "no such file" in one_json_document(done.stdout)["error"]["message"]


# --- 4. gzip bombs --------------------------------------------------------------------------------


def test_a_gzip_bomb_is_refused_at_the_limit_without_unpacking_past_it():
    bomb = gzip.compress(b" " * (256 * 1024 * 1024), compresslevel=9)  # 256 MiB of spaces in ~250 KB
    limit = 8 * 1024 * 1024
    tracemalloc.start()
    try:
        with pytest.raises(JsonSyntaxError, match="unpacks to more than 8,388,608 bytes, the limit"):
            decode(bomb, limit)
        session = load_bytes(bomb, "bomb.json.gz", gzip_limit=limit)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 3 * limit, peak
    assert not session.is_session and "--gzip-limit" in session.errors[0].message


def test_the_gzip_limit_is_raised_by_option_or_environment(tmp_path):
    path = tmp_path / "s.json.gz"
    path.write_bytes(_gzipped_session())
    refused = wsi("manifest", path, "--json", "--gzip-limit", "10KB")
    assert refused.returncode == 1 and "more than 10,000 bytes" in one_json_document(refused.stdout)["error"]["message"]
    assert wsi("manifest", path, "--json", "--gzip-limit", "1MiB").returncode == 0
    import os

    os.environ["WSI_GZIP_LIMIT"] = "10KB"
    try:
        assert wsi("manifest", path, "--json").returncode == 1
        assert wsi("manifest", path, "--json", "--gzip-limit", "1GiB").returncode == 0
    finally:
        del os.environ["WSI_GZIP_LIMIT"]


def test_a_whole_gzip_session_loads_as_a_stream_of_several_members():
    text = json_form(entry("c1"), entry("c2")).encode()
    session = load_bytes(gzip.compress(text[:30]) + gzip.compress(text[30:]) + b"\0\0", "s.json.gz")
    assert [e.id for e in session.entries] == ["c1", "c2"] and not session.problems


# --- 6. --json is always one document -------------------------------------------------------------


@pytest.mark.parametrize("args", [("manifest",), ("manifest", "{missing}"), ("manifest", "{demo}", "--at", "nobody"),
                                  ("trim", "{demo}", "--cap", "lots"), ("frobnicate",), ("diff", "{demo}", "--edit", "nope")])
def test_json_failures_print_exactly_one_error_document(args, tmp_path):
    from tests.conftest import DEMO

    args = [a.format(missing=tmp_path / "none.json", demo=DEMO) for a in args]
    done = wsi(*args, "--json")
    assert done.returncode == 2
    error = one_json_document(done.stdout)["error"]
    assert set(error) <= {"where", "message"} and error["message"]
    assert len(done.stderr.strip().splitlines()) == 1


def test_spaces_under_the_gzip_limit_cost_at_most_three_times_their_size():
    size = 64 * 1024 * 1024
    bomb = gzip.compress(b" " * size, compresslevel=1)
    tracemalloc.start()
    try:
        session = load_bytes(bomb, "spaces.json.gz")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 3 * size, peak
    assert session.unreadable is not None and "ends early" in session.unreadable.message


def test_a_big_truncated_file_is_placed_without_building_it():
    record = json.dumps(entry("c", {"spine": [[1.5, 2.25]] * 200})).encode()
    text = json.dumps(HEAD).encode()[:-1] + b', "store": [' + b",".join([record] * 20_000)  # ~40 MB, never closed
    tracemalloc.start()
    try:
        session = load_bytes(text, "cut.json")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 3 * len(text), (peak, len(text))
    assert session.unreadable.where == "1:%d" % (len(text) + 1) and "truncated" in session.unreadable.message


@pytest.mark.parametrize("cut", [3000, 5000, 8000])
def test_a_json_file_cut_short_says_it_ends_early_at_its_end_not_which_delimiter_was_next(demo_path, cut):
    text = demo_path.read_bytes()[:cut]
    session = load_bytes(text, "cut.json")
    problem = session.unreadable
    assert problem is not None and "the file may be truncated" in problem.message, problem
    assert "delimiter" not in problem.message
    lines = text.split(b"\n")
    assert problem.where.startswith(f"{len(lines)}:")  # on the file's last line


def test_a_json_lines_record_cut_short_inside_the_file_says_so_of_its_line():
    text = (b'{"format":"worker-session/1","session":{"id":"x"}}\n'
            b'{"kind":"entry","id":"c1","call":"a.b.c","input":{"a":1\n'
            b'{"kind":"entry","id":"c2","call":"a.b.c","input":1}\n')
    session = load_bytes(text, "cut.jsonl")
    [problem] = session.errors
    assert problem.where == "2:56" and problem.message.startswith("this line ends before its JSON does")
    assert [e.key for e in session.entries] == ["c2"]


def test_a_text_cut_short_is_flagged_as_ending_early_and_a_bad_one_inside_is_not():
    from wsi_inspector.core.session.reading import ENDS_EARLY, locate_failure, parse_json

    with pytest.raises(JsonSyntaxError) as cut:
        parse_json(b'{"a": [1, 2,\n ')
    assert cut.value.ends_early and str(cut.value) == ENDS_EARLY
    with pytest.raises(JsonSyntaxError) as bad:
        parse_json(b'{"a": 1 x}')
    assert not bad.value.ends_early
    assert locate_failure(b'{"a": [1, 2').ends_early and not locate_failure(b'{"a": 1 x}').ends_early
