"""What changed between two points (`wsi_inspector.core.trim.changes`, `wsi changes`), on real session files."""
import json

import pytest

from wsi_inspector.core.trim.changes import UnknownPoint, changes_between
from wsi_inspector.core.session.load import load
from tests.conftest import DEMO
from tests.helpers.cli import wsi


def session_file(tmp_path, store, bodies, kept=None):
    document = {"format": "worker-session/1", "session": {"id": "s"}, "store": store, "bodies": bodies}
    if kept is not None:
        document["kept"] = kept
    path = tmp_path / "s.json"
    path.write_text(json.dumps(document))
    return path


def entry(id, body, input, call="pack.corridorRuns.corridorRuns"):
    return {"id": id, "call": call, "input": input, "body": body}


@pytest.fixture
def three_bodies(tmp_path):
    store = [entry("c1", "b1", {"w": 1}), entry("c2", "b2", {"w": 22}), entry("c3", "b3", [1, 2, 3])]
    bodies = [
        {"id": "b1", "code": "", "keep": {"spine": [[0, 0], [10, 0]], "mode": "a"}},
        {"id": "b2", "code": "", "keep": {"spine": [[0, 0], [10, 5]], "level": 2}},
        {"id": "b3", "code": ""},
    ]
    return session_file(tmp_path, store, bodies)


def test_entries_added_forward_and_removed_backward(three_bodies):
    session = load(three_bodies)
    forward = changes_between(session, "b1", "b3")
    assert [e["id"] for e in forward["added"]] == ["c1", "c2"] and forward["removed"] == []
    assert forward["bodies"] == ["b1", "b2"]
    backward = changes_between(session, "b3", "b1")
    assert backward["added"] == [] and [e["id"] for e in backward["removed"]] == ["c1", "c2"]
    assert backward["bodies"] == ["b1", "b2"]


def test_kept_values_added_and_changed_with_their_diff(three_bodies):
    session = load(three_bodies)
    kept = changes_between(session, "b2", None)["kept"]
    assert [k["name"] for k in kept["added"]] == ["level"]
    assert kept["added"][0] == {"name": "level", "type": "number", "bytes": 1}
    assert kept["removed"] == []
    (spine,) = kept["changed"]
    assert spine["name"] == "spine"
    assert spine["changes"] == [{"op": "replace", "path": "/1", "from": [10, 0], "to": [10, 5]}]
    back = changes_between(session, None, "b2")["kept"]
    assert [k["name"] for k in back["removed"]] == ["level"]


def test_store_size_moves_by_the_added_entries(three_bodies):
    session = load(three_bodies)
    size = changes_between(session, "b1", "b2")["bytes"]
    c1 = len('{"id":"c1","call":"pack.corridorRuns.corridorRuns","input":{"w":1}}')
    assert size == {"from": 2, "to": 2 + c1, "delta": c1}


def test_end_is_a_point_unless_a_body_is_called_end(tmp_path):
    path = session_file(tmp_path, [entry("c1", "end", 1), entry("c2", None, 2)], [{"id": "end", "code": ""}])
    session = load(path)
    assert changes_between(session, "end", None)["added"][0]["id"] == "c1"
    with pytest.raises(UnknownPoint):
        changes_between(session, "b9", None)


def test_cli_changes_json_and_words():
    done = wsi("changes", DEMO, "--from", "b2", "--to", "b5", "--json")
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert document["from"] == "b2" and document["to"] == "b5"
    assert document["bodies"] == ["b2", "b3", "b4"]
    assert document["added"][0]["id"] == "c4" and {"e1", "e2", "e3"} <= {e["id"] for e in document["added"]}
    words = wsi("changes", DEMO, "--from", "b2", "--to", "b5")
    assert words.returncode == 0 and "3 bodies ran (b2, b3, b4)" in words.stdout
    assert "e1  pack.corridorRuns.corridorRuns" in words.stdout and "(canvas edit)" in words.stdout


def test_cli_changes_unknown_body_is_a_usage_error():
    done = wsi("changes", DEMO, "--from", "nope")
    assert done.returncode == 2
    assert "no body 'nope'" in done.stderr and "b1" in done.stderr
