"""Places are data (issue 13, point 2): each problem's place is a Place printed one way, and what a place
points at (the record, or the lines around a syntax error) is answered by core, headless."""
import json
import subprocess
import sys

import pytest

from wsi_inspector.core.session.model import Body, Entry, Problem
from wsi_inspector.core.session.place import Place
from wsi_inspector.core.session.record_view import RecordFinder, excerpt, line_of, record_at, shown_text
from wsi_inspector.core.session.load import load, load_bytes
from wsi_inspector.core.session.timeline import build_states
from tests.conftest import BROKEN
from tests.helpers.cli import wsi

HEAD = {"format": "worker-session/1", "session": {"id": "p"}}


def entry(entry_id, **extra):
    return {"id": entry_id, "call": "pack.a.b", "input": {"n": 1}, "unit": "mm", **extra}


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# --- the place itself -------------------------------------------------------------------------------

@pytest.mark.parametrize(("place", "printed", "parts"), [
    (Place.spot(5, 36), "5:36", {"line": 5, "column": 36}),
    (Place.spot(2, 7, Place.at("store", 3)), "2:7", {"line": 2, "column": 7, "pointer": "/store/3"}),
    (Place.at("store", 17, "call"), "/store/17/call", {"pointer": "/store/17/call"}),
    (Place(), "", {}),
    (Place.record_line(4), "line 4", {"line": 4}),
    (Place.record_line(4).field("call"), "line 4 /call", {"line": 4, "pointer": "/call"}),
    (Place.record_line(1).field("scene", "unit"), "line 1 /scene/unit", {"line": 1, "pointer": "/scene/unit"}),
    (Place.named("store"), "store", {"name": "store"}),
    (Place.at("modules", "a/b~c"), "/modules/a~1b~0c", {"pointer": "/modules/a~1b~0c"}),
])
def test_each_kind_of_place_prints_one_way_and_gives_its_parts(place, printed, parts):
    assert str(place) == printed
    assert place.parts() == parts
    assert Problem("error", place, "m").where == printed
    assert Problem("error", place, "m").as_json() == {"where": printed, "message": "m"}


def test_a_pointer_text_reads_back_to_the_same_place_and_other_text_is_refused():
    assert Place.from_pointer("/modules/a~1b~0c") == Place.at("modules", "a/b~c")
    assert Place.from_pointer("") == Place()
    assert Problem("error", "/store/3/call", "m").place == Place.at("store", 3, "call")
    for text in ("3:4", "line 4", "store"):  # made with Place's constructors, never parsed back
        with pytest.raises(ValueError, match="not a JSON Pointer"):
            Problem("error", text, "m")


def test_a_place_knows_the_record_it_is_in():
    assert Place.at("store", 3, "unit").record() == Place.at("store", 3)
    assert Place.at("bodies", 0, "result", "returned", "keep").record() == Place.at("bodies", 0)
    assert Place.record_line(4).field("call").record() == Place.record_line(4)
    assert Place.at("scene", "unit").record() is None
    assert Place.spot(5, 36).record() is None and Place.named("store").record() is None


def test_every_broken_file_gives_structured_places_the_cli_prints_as_before():
    places = {name: [p.place for p in load(BROKEN / name).problems] for name in ("bad_lines.jsonl", "not_json.json", "refused_keep.json")}
    assert places["bad_lines.jsonl"] == [Place.spot(3, 25), Place.record_line(4).field("kind")]
    assert places["not_json.json"] == [Place.spot(5, 36)]
    assert places["refused_keep.json"] == [Place.at("bodies", i, "keep") for i in range(3)]
    done = wsi("validate", BROKEN / "bad_lines.jsonl")
    assert done.stdout.splitlines()[:2] == ["bad_lines.jsonl:3:25: error: not JSON here (expected a value); the file may be truncated or not a session",
                                            "bad_lines.jsonl: line 4 /kind: error: kind 'note' is not entry, body or kept"]


def test_records_carry_their_place_as_data():
    jsonl = "\n".join(json.dumps(r) for r in [HEAD, {"kind": "body", "id": "b1", "code": "1"}, {"kind": "entry", **entry("c1")},
                                              {"kind": "kept", "kept": {}}])
    session = load_bytes(jsonl.encode(), "s.jsonl")
    assert [item.where for item in session.timeline] == [Place.record_line(2), Place.record_line(3), Place.record_line(4)]
    session = load_bytes(json.dumps({**HEAD, "store": [entry("c1")], "bodies": [{"id": "b1", "code": "1"}]}).encode(), "s.json")
    assert session.entries[0].where == Place.at("store", 0) and session.bodies[0].where == Place.at("bodies", 0)


def test_a_module_name_with_a_slash_is_an_escaped_json_pointer():
    session = load_bytes(json.dumps({**HEAD, "modules": {"a/b": {}}, "store": []}).encode(), "s.json")
    assert [p.where for p in session.warnings] == ["/modules/a~1b"]
    assert session.warnings[0].place.pointer == ("modules", "a/b")


def test_a_record_that_does_not_parse_alone_is_a_spot_that_still_names_its_record(tmp_path):
    text = json.dumps({**HEAD, "store": [entry("c1"), entry("A?B")]}, indent=1).encode().replace(b"A?B", b"A\xffB")
    path = tmp_path / "bad.json"
    path.write_bytes(text)
    session = load(path)
    (problem,) = session.errors
    assert problem.place.is_spot and problem.place.pointer == ("store", "1")
    assert problem.where == f"{problem.place.line}:{problem.place.column}"
    shown = RecordFinder(session).view(problem.place)
    assert "in /store/1" in shown.title and "^" in (shown.text or "")


# --- build_states hands back its problems ---------------------------------------------------------------

def test_build_states_returns_the_refused_keeps_instead_of_writing_to_a_session():
    timeline = [Entry("c1", "pack.a.b", {}), Body("b1", "1", keep={"2nd": 1}, where=Place.at("bodies", 0)),
                Body("b2", "1", result={"ok": True, "returned": {"keep": {"x y": 1}}}, where=Place.at("bodies", 1)), Body("b3", "1")]
    states, problems = build_states(timeline, 65536, None)
    assert [(p.severity, p.where) for p in problems] == [("warning", "/bodies/0/keep"), ("warning", "/bodies/1/result/returned/keep")]
    assert states["b3"].count == 1 and [r.body for r in states["b3"].refused] == ["b1", "b2"]
    assert states[None].count == 1


def test_the_timeline_does_not_import_the_session_loader():
    code = "import sys, wsi_inspector.core.session.timeline; print('wsi_inspector.core.session.load' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "False", done.stderr


# --- what a place points at ------------------------------------------------------------------------

def test_a_place_in_a_loaded_record_shows_that_record(tmp_path):
    path = write(tmp_path, "s.json", json.dumps({**HEAD, "store": [entry("c1"), entry("c2", unit="yd"), entry("c3", editOf="zz", applied=True)]}))
    session = load(path)
    finder = RecordFinder(session)
    warning = next(p for p in session.warnings if "editOf" in p.where)
    shown = finder.view(warning.place)
    assert shown.record is session.entry("c3") and "loaded" in shown.title
    refused = finder.view(session.errors[0].place)  # /store/1/unit: not loaded, read back from the file
    assert refused.record is None and refused.has_value and refused.value["id"] == "c2"
    assert refused.title == "/store/1 in the file (not loaded)"


def test_a_record_in_file_order_is_found_without_indexing_every_entry(tmp_path):
    """Issue 18: the Problems tab opens a million-entry session without printing a million places."""
    store = [entry(f"c{n}") for n in range(1, 6)] + [entry("c6", editOf="zz", applied=True)]
    path = write(tmp_path, "s.json", json.dumps({**HEAD, "store": store, "bodies": [{"id": "b1", "code": "return 1"}]}))
    session = load(path)
    finder = RecordFinder(session)
    warning = next(p for p in session.warnings if "editOf" in p.where)
    assert finder.view(warning.place).record is session.entry("c6")
    assert finder.view(Place.at("bodies", 0).field("code")).record is session.body("b1")
    assert finder._records is None  # each was where the file has it: no index of every entry was made
    assert finder.view(Place.at("store", 9)).record is None  # past the entries: asked of the index, not there


def test_a_big_store_over_its_cap_is_shown_as_its_records_sizes_without_parsing_them(tmp_path, monkeypatch):
    """Issue 28: the warning on `/store` (over caps.storeBytes) is the Problems tab's first row; parsing the
    whole store to show it took 12 s and GBs on the GUI thread for a 165 MB session."""
    import wsi_inspector.core.session.record_view

    store = [entry(f"c{n}") for n in range(1, 5)]
    path = write(tmp_path, "s.json", json.dumps({**HEAD, "caps": {"storeBytes": 10}, "store": store}))
    session = load(path)
    warning = next(p for p in session.warnings if p.where == "/store")
    assert RecordFinder(session).view(warning.place).value == store  # a small file: the store whole, as before
    monkeypatch.setattr(wsi_inspector.core.session.record_view, "WHOLE_FILE_SHOWN", 100)
    monkeypatch.setattr(wsi_inspector.core.session.record_view, "parse_json", lambda _: pytest.fail("parsed the whole store"))
    shown = RecordFinder(session).view(warning.place)
    sizes = [len(json.dumps(e).encode()) for e in store]
    assert shown.title == "/store in the file (not loaded)"
    assert shown.has_value and shown.value == [f"… ({n:,} bytes)" for n in sizes]


def test_a_refused_json_lines_line_is_read_back_and_a_broken_one_is_an_excerpt(tmp_path):
    finder = RecordFinder(load(BROKEN / "bad_lines.jsonl"))
    note = finder.view(Place.record_line(4).field("kind"))
    assert note.value == {"kind": "note", "text": "?"} and note.title == "line 4 of the file (not loaded)"
    spot = finder.view(Place.spot(3, 25))
    assert spot.text is not None and spot.text.splitlines()[3] == "       | " + " " * 24 + "^"


def test_a_place_with_no_file_or_no_one_record_says_so():
    session = load_bytes(json.dumps({**HEAD, "store": [entry("c1", unit="yd")]}).encode(), "s.json")
    finder = RecordFinder(session)
    assert "not on disk" in finder.view(session.errors[0].place).title
    assert "no one record" in finder.view(Place.named("store")).title


def test_record_at_stops_at_the_record_or_the_deepest_existing_part():
    document = {"store": [{"id": "c1", "input": {"a": 1}}], "scene": {"unit": "yd"}}
    assert record_at(document, ("store", "0", "input", "a")) == (Place.at("store", 0), {"id": "c1", "input": {"a": 1}})
    assert record_at(document, ("scene", "unit")) == (Place.at("scene", "unit"), "yd")
    assert record_at(document, ("scene", "missing")) == (Place.at("scene"), {"unit": "yd"})


def test_an_excerpt_puts_the_caret_under_the_column_also_in_one_huge_line():
    assert line_of(b"a\nb\nc", 2) == b"b" and line_of(b"a\nb", 5) == b""
    small = excerpt(b"{\n \"a\": 1,\n x\n}\n", 3, 2).splitlines()
    assert small[2:4] == ["     3 |  x", "       |  ^"]
    text = ("é" * 5000 + "X" + "é" * 5000).encode()  # one 20 kB line of two-byte characters
    lines = excerpt(text, 1, 5001).splitlines()
    assert len(lines[0]) < 400 and lines[1].index("^") == lines[0].index("X")


def test_shown_text_cuts_a_big_record():
    session = load_bytes(json.dumps({**HEAD, "store": [entry("c1", input={"s": "x" * 5000}, editOf="zz", applied=True)]}).encode(), "s.json")
    text = shown_text(RecordFinder(session).view(session.warnings[0].place), limit=100)
    assert text.splitlines()[0].startswith("the entry c1 at /store/0 (loaded)")
    assert "characters; --json shows it all" in text and len(text) < 300


# --- the headless path: wsi validate --show -------------------------------------------------------------

def test_validate_show_prints_what_each_place_points_at():
    done = wsi("validate", BROKEN / "bad_lines.jsonl", "--show")
    lines = done.stdout.splitlines()
    assert done.returncode == 1
    assert lines[0].startswith("bad_lines.jsonl:3:25: error:")
    assert lines[1] == "    line 3, column 25 of the file: where it stops being readable"
    assert "    " + "       | " + " " * 24 + "^" in lines
    assert '    {"kind":"note","text":"?"}' in lines


def test_validate_show_json_adds_the_place_parts_and_the_shown_record():
    plain = json.loads(wsi("validate", BROKEN / "refused_keep.json", "--json").stdout)
    assert plain["warnings"][0] == {"where": "/bodies/0/keep", "message": plain["warnings"][0]["message"]}  # SPEC 6's shape, unchanged
    shown = json.loads(wsi("validate", BROKEN / "refused_keep.json", "--json", "--show").stdout)
    first = shown["warnings"][0]
    assert list(first) == ["where", "message", "place", "shown"]
    assert first["place"] == {"pointer": "/bodies/0/keep"}
    assert first["shown"] == {"title": "the body b1 at /bodies/0 (loaded)",
                              "value": {"code": "return {}", "result": None, "keep": {"ward": {"__h": "h3"}}}}
    spot = json.loads(wsi("validate", BROKEN / "not_json.json", "--json", "--show").stdout)["errors"][0]
    assert spot["place"] == {"line": 5, "column": 36} and "^" in spot["shown"]["text"]
