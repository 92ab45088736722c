"""Provenance (seed 002): each leaf traced to the entry that set it; a body carrying the person's value is the body's."""
import json

import pytest

from core.provenance import blame, blame_document, leaf_sources, leaves
from core.session import load, load_bytes
from tests.conftest import DEMO

CALL = "pack.corridorRuns.corridorRuns"
HEAD = {"format": "worker-session/1", "session": {"id": "s"}}


def session_of(*entries):
    return load_bytes(json.dumps({**HEAD, "store": list(entries)}).encode(), "s.json")


def origins(session, entry_id):
    return {o.path: (o.setter.id, o.carrier.id, o.by_person) for o in blame(session, entry_id)}


def test_a_value_the_person_set_is_the_persons_in_their_own_edit():
    s = session_of({"id": "c1", "call": CALL, "input": {"d": 1, "w": 5}, "body": "b1"},
                   {"id": "e1", "call": CALL, "input": {"d": 2, "w": 5}, "applied": True})
    assert origins(s, "e1") == {"/d": ("e1", "e1", True), "/w": ("c1", "e1", False)}


def test_a_later_body_carrying_the_persons_value_shows_as_carried_by_that_body_not_as_the_persons_call():
    s = session_of({"id": "c1", "call": CALL, "input": {"d": 1, "w": 5}, "body": "b1"},
                   {"id": "e1", "call": CALL, "input": {"d": 2, "w": 5}, "applied": True},
                   {"id": "c2", "call": CALL, "input": {"d": 2, "w": 7}, "body": "b2"})
    leaf = {o.path: o for o in blame(s, "c2")}
    assert leaf["/d"].setter.id == "e1" and leaf["/d"].carrier.id == "c2" and leaf["/d"].carried
    assert leaf["/d"].text() == "carried by body b2 (call c2) from the person's edit e1"
    assert leaf["/d"].as_json() == {"path": "/d", "value": 2, "setBy": "person", "entry": "e1",
                                    "carriedBy": {"entry": "c2", "by": "body", "body": "b2"},
                                    "text": "carried by body b2 (call c2) from the person's edit e1"}
    assert leaf["/w"].text() == "set by body b2 (call c2)" and leaf["/w"].as_json()["setBy"] == "body"


def test_a_point_inserted_upstream_does_not_make_later_points_look_new():
    spine = [[i, 0] for i in range(100)]
    edited = spine[:10] + [[10.5, 3]] + spine[10:]
    s = session_of({"id": "c1", "call": CALL, "input": {"spine": spine}, "body": "b1"},
                   {"id": "e1", "call": CALL, "input": {"spine": edited}, "applied": True},
                   {"id": "c2", "call": CALL, "input": {"spine": edited}, "body": "b2"})
    found = origins(s, "c2")
    assert found["/spine/10"] == ("e1", "c2", True)
    assert {found[f"/spine/{i}"][0] for i in range(101) if i != 10} == {"c1"}


def test_other_calls_never_count_as_the_setter():
    s = session_of({"id": "c1", "call": "a.b.c", "input": {"d": 2}, "body": "b1"},
                   {"id": "c2", "call": CALL, "input": {"d": 2}, "body": "b2"})
    assert origins(s, "c2") == {"/d": ("c2", "c2", False)}


def test_leaves_are_scalars_empty_containers_and_points_and_sources_map_them():
    value = {"a": [], "p": [1, 2], "n": {"x": 1, "y": 2}, "deep": [{"k": None}]}
    assert [p for p, _ in leaves(value)] == [("a",), ("p",), ("n",), ("deep", 0, "k")]
    assert leaf_sources({"a": [], "p": [1, 3]}, value) == {
        ("a",): ("a",), ("p",): None, ("n",): None, ("deep", 0, "k"): None}


def test_blame_on_the_demo_names_the_persons_two_edits_and_the_bodies():
    s = load(DEMO)
    document = blame_document(s, "c20")
    assert document["entry"] == "c20" and document["call"] == CALL
    by_path = {leaf["path"]: leaf for leaf in document["leaves"]}
    assert by_path["/bandDepth"]["entry"] == "e1" and by_path["/bandDepth"]["carriedBy"]["body"] == "b5"
    assert by_path["/spine/2"]["entry"] == "e2"
    assert by_path["/spine/0"]["setBy"] == "body" and by_path["/spine/0"]["entry"] == "c4"
    assert all(leaf.get("carriedBy", {}).get("by") != "person" for leaf in document["leaves"])


def test_blame_of_an_unknown_entry_is_a_key_error():
    with pytest.raises(KeyError):
        blame(load(DEMO), "nope")


def test_inside_an_array_of_objects_only_the_field_the_person_moved_is_theirs():
    found = {o.path: o for o in blame(load(DEMO), "e3")}
    assert found["/rooms/1/at"].by_person and not found["/rooms/1/at"].carried
    assert found["/rooms/1/id"].setter.id == "c19" and found["/rooms/1/id"].text() == (
        "carried by the person's edit e3 from body b4 (call c19)")
    assert not any(o.by_person for path, o in found.items() if path != "/rooms/1/at")
