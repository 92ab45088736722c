"""Every file in resources/sessions/broken names its problems with their places (SPEC 2.4)."""
import pytest

from wsi_inspector.core.session.load import load
from tests.conftest import BROKEN

EXPECTED = {
    "not_json.json": [("error", "5:36", "property name")],
    "truncated.json": [("error", "11:5", "never ends")],
    "truncated.json.gz": [("error", "1:1", "gzip")],
    "not_an_object.json": [("error", "", "not an object")],
    "not_utf8.json": [("error", "1:51", "UTF-8")],
    "missing_format.json": [("error", "/format", "not a session")],
    "newer_format.json": [("error", "/format", "newer editor")],
    "missing_store.json": [("error", "/store", "missing")],
    "entry_missing_fields.json": [("error", "/store/1", "without id"), ("error", "/store/2", "without call"),
                                  ("error", "/store/3", "without input")],
    "bad_call.json": [("error", "/store/0/call", "three identifiers"), ("error", "/store/1/call", "three identifiers")],
    "bad_unit.json": [("error", "/store/0/unit", "'yd'")],
    "duplicate_id.json": [("error", "/store/2/id", "duplicate entry id '2'")],
    "edit_of_unknown.json": [("warning", "/store/1/editOf", "names no entry"), ("warning", "/store/2/editOf", "later")],
    "edit_without_base.json": [("warning", "/store/0", "no earlier model call")],
    "refused_keep.json": [("warning", "/bodies/0/keep", "keep.ward is a handle"), ("warning", "/bodies/1/keep", "identifier"),
                          ("warning", "/bodies/2/keep", "over the keep cap")],
    "over_cap.json": [("warning", "/store", "over caps.storeBytes 100")],
    "bad_header.json": [("error", "/caps/storeBytes", "whole number"), ("error", "/scene/unit", "'yd'"),
                        ("error", "/scene/entities/0/id", "missing")],
    "partial_line.jsonl": [("warning", "line 4", "incomplete")],
    "bad_lines.jsonl": [("error", "3:25", "expected a value"), ("error", "line 4 /kind", "'note'")],
}


def test_every_broken_file_is_listed_here():
    assert sorted(p.name for p in BROKEN.iterdir()) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_broken_file_names_each_problem_and_its_place(name):
    session = load(BROKEN / name)
    found = [(p.severity, p.where, p.message) for p in session.problems]
    assert len(found) == len(EXPECTED[name]), found
    for (severity, where, words), (got_severity, got_where, message) in zip(EXPECTED[name], found):
        assert (got_severity, got_where) == (severity, where)
        assert words in message


def test_valid_records_of_a_broken_file_still_load():
    session = load(BROKEN / "bad_call.json")
    assert [e.id for e in session.entries] == ["c3"]
    session = load(BROKEN / "partial_line.jsonl")
    assert [e.id for e in session.entries] == ["c1"] and [b.id for b in session.bodies] == ["b1"]
