"""`wsi resolve` through the installed console script: the answer a body at B gets, under the cap."""
import json

from tests.conftest import DEMO
from tests.helpers.cli import wsi


def test_resolve_json_at_b8_says_c1_falls_and_agrees_with_trim():
    done = wsi("resolve", DEMO, 'inputs.at("c1")', "--at", "b8", "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert list(out) == ["expr", "at", "id", "untrimmedId", "why"]
    assert out["expr"] == 'inputs.at("c1")' and out["at"] == "b8"
    assert out["id"] is None and out["untrimmedId"] == "c1"
    assert out["why"].startswith("c1 falls at the 5.6 KiB cap: a body at b8 gets undefined (untrimmed: c1)")
    trimmed = json.loads(wsi("trim", DEMO, "--at", "b8", "--json").stdout)
    assert "c1" not in trimmed["kept"] and trimmed["fell"] == 1


def test_a_run_at_b8_gets_undefined_for_c1_as_resolve_says(tmp_path):
    body = tmp_path / "body.js"
    body.write_text('return { c1: inputs.at("c1") === undefined, c2: inputs.at("c2") !== undefined };\n')
    done = wsi("run", DEMO, body, "--at", "b8", "--json")
    assert json.loads(done.stdout)["returned"] == {"c1": True, "c2": True}


def test_resolve_takes_single_quotes_and_answers_at_the_end_with_null_at():
    done = wsi("resolve", DEMO, "inputs.last('pack.corridorRuns')", "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["at"] is None and out["id"] == out["untrimmedId"] and out["id"] is not None
    assert out["expr"] == 'inputs.last("pack.corridorRuns")'


def test_resolve_readable_prints_the_answer_and_why():
    done = wsi("resolve", DEMO, 'inputs.at("c2")', "--at", "b8")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith('inputs.at("c2") → c2: ')


def test_a_malformed_expr_exits_2_with_a_hint_showing_both_forms():
    done = wsi("resolve", DEMO, "inputs.last(pack.corridorRuns)", "--json")
    assert done.returncode == 2
    assert 'inputs.last("group.module")' in done.stderr and 'inputs.at("id")' in done.stderr
    (error,) = [json.loads(line) for line in done.stdout.splitlines()]  # --json: one error document
    assert "cannot read EXPR" in error["error"]["message"]


def test_an_unknown_body_exits_2():
    done = wsi("resolve", DEMO, 'inputs.at("c1")', "--at", "b99")
    assert done.returncode == 2 and "no body" in done.stderr


def test_an_id_made_of_digits_is_echoed_as_the_string_it_was_asked_as(tmp_path):
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"format": "worker-session/1", "session": {"id": "s"}, "store": [
        {"id": 5, "call": "a.b.c", "input": {"x": 1}}]}))
    out = json.loads(wsi("resolve", path, "inputs.at('5')", "--json").stdout)
    assert out == {"expr": 'inputs.at("5")', "at": None, "id": 5, "untrimmedId": 5,
                   "why": out["why"]} and "ids compare as strings" in out["why"]


def test_a_number_id_is_resolved_as_a_body_writes_it(tmp_path):
    # issue 32: `inputs.at(1)` works in a body (ids compare as strings), so resolve takes it too.
    path = tmp_path / "n.json"
    path.write_text(json.dumps({"format": "worker-session/1", "session": {"id": "n"},
                                "store": [{"id": 1, "call": "a.b.c", "input": {"n": 1}}]}))
    for expr in ("inputs.at(1)", "inputs.at( 1 );", "inputs.at('1')"):
        done = wsi("resolve", path, expr, "--json")
        assert done.returncode == 0, (expr, done.stderr)
        assert json.loads(done.stdout)["id"] == 1
    refused = wsi("resolve", path, "inputs.last(1)")
    assert refused.returncode == 2 and "inputs.at(7)" in refused.stderr
