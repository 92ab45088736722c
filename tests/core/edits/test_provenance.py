"""Provenance (seed 002): each leaf traced to the entry that set it; a body carrying the person's value is the body's."""
import json

import pytest

from wsi_inspector.core.jsrules.jsonsize import js_stringify
from wsi_inspector.core.edits.provenance import blame, blame_document, leaf_sources, leaves
from wsi_inspector.core.session.load import load, load_bytes
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


def test_values_nested_1200_deep_are_traced_without_recursion():
    def nested(leaf, depth=1200):
        value = leaf
        for level in range(depth):
            value = {"k": value} if level % 2 else [value, level]
        return value

    paths = [p for p, _ in leaves(nested(1))]
    assert len(paths) == 600 and max(len(p) for p in paths) == 1199  # the innermost [1, 0] is a point
    sources = leaf_sources(nested(1), nested(2))
    assert sum(source is None for source in sources.values()) == 1
    store = [{"id": "c1", "call": CALL, "input": nested(1, 900), "body": "b1"},
             {"id": "e1", "call": CALL, "input": nested(2, 900), "applied": True}]
    text = js_stringify({**HEAD, "store": store})  # json.dumps itself recurses; the loader reads 900 deep
    by_person = [o for o in blame(load_bytes(text.encode(), "deep.json"), "e1") if o.by_person]
    assert len(by_person) == 1 and by_person[0].value == [2, 0] and by_person[0].path.count("/") == 899


def test_every_step_of_a_long_chain_is_traced_from_the_step_before_once(monkeypatch):
    import wsi_inspector.core.edits.provenance

    store = [{"id": "c0", "call": CALL, "input": {"d": 0, "w": 1}, "body": "b1"}]
    store += [{"id": f"e{k}", "call": CALL, "input": {"d": k, "w": 1}, "applied": True} for k in range(1, 3001)]
    s = session_of(*store)
    calls = []
    original = wsi_inspector.core.edits.provenance.leaf_sources
    monkeypatch.setattr(wsi_inspector.core.edits.provenance, "leaf_sources", lambda a, b: (calls.append(1), original(a, b))[1])
    provenance = wsi_inspector.core.edits.provenance.Provenance(s)
    last = {o.path: o.setter.id for o in provenance.blame(s.entries[-1])}
    for entry in s.entries[1:]:
        provenance.blame(entry)
    assert last == {"/d": "e3000", "/w": "c0"}
    assert len(calls) == 3000  # one per step, not once per later entry (4.5 million)


def test_a_length_the_person_left_alone_in_another_unit_is_carried_not_theirs():
    s = session_of({"id": "c1", "call": CALL, "input": {"spine": [[0, 0], [1000, 0]], "bandDepth": 32}, "unit": "mm", "body": "b1"},
                   {"id": "e1", "call": CALL, "input": {"spine": [[0, 0], [100, 6]], "bandDepth": 3.2}, "unit": "cm", "applied": True})
    assert origins(s, "e1") == {"/spine/0": ("c1", "e1", False), "/spine/1": ("e1", "e1", True), "/bandDepth": ("c1", "e1", False)}
