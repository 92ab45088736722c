"""Loading sessions (SPEC 2): forms, the timeline, the state at a body, and unknown fields kept."""
import gzip
import json

import pytest

from wsi_inspector.core.session.load import LoadError, load, load_bytes

HEAD = {"format": "worker-session/1", "session": {"id": "s"}}


def write(tmp_path, name, obj):
    path = tmp_path / name
    path.write_text(json.dumps(obj))
    return path


def e(i, body=None, **kw):
    d = {"id": i, "call": "pack.corridorRuns.corridorRuns", "input": {"n": i}}
    if body:
        d["body"] = body
    d.update(kw)
    return d


def test_bodies_stand_before_their_first_entry_and_others_after_the_previous_body():
    doc = {**HEAD, "store": [e("c1", "b1"), e("c2", "b1"), e("c3", "b3"), e("x1", applied=True)],
           "bodies": [{"id": "b1", "code": ""}, {"id": "b2", "code": ""}, {"id": "b3", "code": ""}, {"id": "b4", "code": ""}]}
    session = load_bytes(json.dumps(doc).encode(), "s.json")
    assert [i.id for i in session.timeline] == ["b1", "c1", "c2", "b2", "b3", "c3", "b4", "x1"]
    assert [x.id for x in session.state_at("b3").store] == ["c1", "c2"]
    assert [x.id for x in session.state_at("b4").store] == ["c1", "c2", "c3"]
    assert len(session.state_at(None).store) == 4


def test_seq_orders_the_timeline_when_given():
    doc = {**HEAD, "store": [e("c1", "b2", seq=5), e("c2", "b1", seq=2)],
           "bodies": [{"id": "b1", "code": "", "seq": 1}, {"id": "b2", "code": "", "seq": 4}]}
    session = load_bytes(json.dumps(doc).encode(), "s.json")
    assert [i.id for i in session.timeline] == ["b1", "c2", "b2", "c1"]


def test_kept_is_merged_from_accepted_keeps_in_order_and_refused_keeps_listed():
    doc = {**HEAD, "store": [e("c1", "b1"), e("c2", "b2"), e("c3", "b3"), e("c4", "b4")],
           "bodies": [{"id": "b1", "code": "", "keep": {"spine": [1], "dept": "a"}},
                      {"id": "b2", "code": "", "keep": {"spine": [2], "h": {"__h": "1"}}},
                      {"id": "b3", "code": "", "result": {"ok": True, "returned": {"keep": {"dept": "b"}}}},
                      {"id": "b4", "code": ""}]}
    session = load_bytes(json.dumps(doc).encode(), "s.json")
    assert session.state_at("b1").kept == {}
    assert session.state_at("b2").kept == {"spine": [1], "dept": "a"}
    at_b4 = session.state_at("b4")
    assert at_b4.kept == {"spine": [1], "dept": "b"}
    assert at_b4.kept_by == {"spine": "b1", "dept": "b3"}
    assert [r.body for r in at_b4.refused] == ["b2"]
    assert any(p.where == "/bodies/1/keep" and p.severity == "warning" for p in session.problems)


def test_the_files_final_kept_wins_at_the_end():
    doc = {**HEAD, "store": [e("c1", "b1")], "bodies": [{"id": "b1", "code": "", "keep": {"a": 1}}], "kept": {"z": 2}}
    session = load_bytes(json.dumps(doc).encode(), "s.json")
    assert session.state_at(None).kept == {"z": 2}


def test_json_lines_file_order_and_kept_snapshots_replace_the_set(tmp_path):
    lines = [HEAD, {"kind": "body", "id": "b1", "code": "", "keep": {"a": 1}}, {"kind": "entry", **e("c1", "b1")},
             {"kind": "kept", "kept": {"s": 9}}, {"kind": "body", "id": "b2", "code": "", "keep": {"t": 2}},
             {"kind": "entry", **e("c2", "b2")}, {"kind": "body", "id": "b3", "code": ""}]
    path = tmp_path / "live.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    session = load(path)
    assert session.form == "jsonl" and not session.problems
    assert [i.id for i in session.bodies] == ["b1", "b2", "b3"]
    assert session.state_at("b2").kept == {"s": 9}
    assert session.state_at("b3").kept == {"s": 9, "t": 2}
    assert "kind" not in session.entries[0].extra


def test_gzip_and_bom_are_read(tmp_path):
    raw = json.dumps({**HEAD, "store": [e("c1")]}).encode()
    (tmp_path / "a.json.gz").write_bytes(gzip.compress(b"\xef\xbb\xbf" + raw))
    session = load(tmp_path / "a.json.gz")
    assert session.is_session and [x.id for x in session.entries] == ["c1"]


def test_unknown_fields_are_kept():
    doc = {**HEAD, "note": "top", "store": [e("c1", why="because")], "bodies": [{"id": "b1", "code": "", "model": "m"}]}
    session = load_bytes(json.dumps(doc).encode(), "s.json")
    assert session.extra == {"note": "top"}
    assert session.entries[0].extra == {"why": "because"}
    assert session.bodies[0].extra == {"model": "m"}


def test_integers_beyond_64_bits_and_lone_surrogates_still_load():
    text = '{"format": "worker-session/1", "session": {"id": "s"}, "store": [{"id": "c1", "call": "a.b.c", "input": {"n": 123456789012345678901234567890, "s": "\\ud800"}}]}'
    session = load_bytes(text.encode(), "s.json")
    assert not session.problems
    assert session.entries[0].input == {"n": 123456789012345678901234567890, "s": "\ud800"}


def test_a_missing_file_is_a_load_error(tmp_path):
    with pytest.raises(LoadError, match="no such file"):
        load(tmp_path / "nope.json")
    with pytest.raises(LoadError, match="folder"):
        load(tmp_path)


def test_loading_never_writes_to_the_file(tmp_path):
    path = write(tmp_path, "s.json", {**HEAD, "store": [e("c1")]})
    before = (path.read_bytes(), path.stat().st_mtime_ns)
    path.chmod(0o444)
    load(path)
    assert (path.read_bytes(), path.stat().st_mtime_ns) == before


def test_demo_session_loads_clean_but_for_its_deliberate_warnings(demo_path):
    session = load(demo_path)
    assert session.is_session and not session.errors
    assert len(session.bodies) == 8 and 30 <= len(session.entries) <= 45
    assert sorted(p.where for p in session.warnings) == ["/bodies/4/keep", "/store"]
    assert sum(1 for x in session.entries if x.applied) == 3


def test_a_json_lines_session_read_line_by_line_is_the_session_read_whole():
    # The reader a JSON Lines session keeps reads lines handed to it later (following a growing file)
    # exactly as the loader reads them: same records, same problems, duplicates still refused.
    lines = [json.dumps(HEAD), json.dumps({"kind": "body", "id": "b1", "code": ""}),
             json.dumps({"kind": "entry", **e("c1", "b1")}), json.dumps({"kind": "entry", **e("c2", "b1")}),
             json.dumps({"kind": "entry", **e("c1", "b1")}), '{"kind": "entry", "id": "c3"', ""]
    whole = load_bytes("\n".join(lines).encode(), "s.jsonl")
    grown = load_bytes("\n".join(lines[:3]).encode() + b"\n", "s.jsonl")
    for number, line in enumerate(lines[3:-1], start=4):
        grown.line_reader.read_line(number, line.encode())
    grown.finish()
    assert [i.key for i in grown.timeline] == [i.key for i in whole.timeline] == ["b1", "c1", "c2"]
    assert [(p.severity, p.where, p.message) for p in grown.problems] == \
        [(p.severity, p.where, p.message) for p in whole.problems]
    assert [p.where for p in whole.problems] == ["line 5 /id", "6:29"]
    assert grown.entry("c2").input == {"n": "c2"}


def test_a_file_is_read_by_the_format_version_it_names(monkeypatch):
    import wsi_inspector.core.session.formats as formats

    read = []

    class Version2:
        FORMAT = "worker-session/2"

        @staticmethod
        def read_json(session, text):
            read.append(("json", session.name))

        @staticmethod
        def read_json_lines(session, text):
            read.append(("jsonl", session.name))

    monkeypatch.setitem(formats.VERSIONS, Version2.FORMAT, Version2)
    load_bytes(b'{"format": "worker-session/2", "store": []}', "two.json")
    load_bytes(b'{"format":"worker-session/2"}\n{"kind":"body","id":1,"code":""}\n', "two.jsonl")
    assert read == [("json", "two.json"), ("jsonl", "two.jsonl")]
    # A version the inspector does not know is read by the latest, which says what is wrong.
    session = load_bytes(b'{"format": "worker-session/9", "session": {"id": "s"}, "store": []}', "nine.json")
    assert [p.message for p in session.errors] == \
        ["format 'worker-session/9' is not worker-session/1: written by a newer editor; update the inspector"]


def test_edit_links_remember_only_the_ids_edits_name_and_still_tell_earlier_later_and_absent():
    """Issue 28: the check of editOf keeps the order of the ids edits name, not a set of every id (4 MB a 100,000)."""
    store = [{"id": "c1", "call": "a.b.c", "input": 1},
             {"id": 5, "call": "a.b.c", "input": 1},
             {"id": "e1", "call": "a.b.c", "input": 2, "applied": True, "editOf": "c1"},   # earlier: fine
             {"id": "e2", "call": "a.b.c", "input": 2, "applied": True, "editOf": "c9"},   # later
             {"id": "e3", "call": "a.b.c", "input": 2, "applied": True, "editOf": "nope"},  # absent
             {"id": "e4", "call": "a.b.c", "input": 2, "applied": True, "editOf": "5"},    # earlier, an int id named as a string
             {"id": "c9", "call": "a.b.c", "input": 3}]
    session = load_bytes(json.dumps({"format": "worker-session/1", "session": {"id": "s"}, "store": store}).encode(), "s.json")
    said = {str(p.where): p.message for p in session.problems}
    assert set(said) == {"/store/3/editOf", "/store/4/editOf"}
    assert "names a later entry" in said["/store/3/editOf"] and "names no entry" in said["/store/4/editOf"]
    assert session.edit_links.seen is None and session.edit_links.named is None  # let go once all are checked


def test_the_index_by_id_can_be_made_when_first_asked():
    """Issue 28: `wsi manifest` never looks an entry up, and the index is 5 MB a 100,000 entries at the load's peak."""
    store = [{"id": f"c{i}", "call": "a.b.c", "input": i} for i in range(5)] + [{"id": 7, "call": "a.b.c", "input": 1}]
    text = json.dumps({"format": "worker-session/1", "session": {"id": "s"}, "store": store}).encode()
    assert load_bytes(text, "s.json")._index._by_key is not None  # made by the load (the window asks on its GUI thread)
    session = load_bytes(text, "s.json", index=False)  # the CLI's load
    assert session._index._by_key is None
    assert session.entry("c3") is session.entries[3] and session.entry(7) is session.entries[5] and session.entry("c9") is None
    assert session._index._by_key is not None
