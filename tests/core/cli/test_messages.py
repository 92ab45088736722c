"""The loader's messages say what is wrong (issue 32 point 7): each case as a newcomer met it."""
import json

import pytest

from wsi_inspector.core.session.load import load_bytes


def problems(document: object, name: str = "s.json", lines: list | None = None) -> list[tuple[str, str, str]]:
    if lines is not None:
        data = "\n".join(json.dumps(line) for line in lines).encode()
    else:
        data = json.dumps(document).encode()
    session = load_bytes(data, name)
    return [(p.severity, str(p.where), p.message) for p in session.problems]


def session(**extra: object) -> dict:
    return {"format": "worker-session/1", "session": {"id": "s"}, "store": [], **extra}


def test_a_malformed_version_is_not_called_newer():
    (problem,) = problems({**session(), "format": "worker-session/1.0"})
    assert problem[0] == "error" and "newer" not in problem[2]
    assert "malformed" in problem[2] and '"worker-session/1"' in problem[2]


def test_a_higher_version_is_newer():
    (problem,) = problems({**session(), "format": "worker-session/2"})
    assert problem[0] == "error" and "newer editor" in problem[2]


def test_a_record_without_kind_says_so():
    found = problems(None, "s.jsonl", [{"format": "worker-session/1", "session": {"id": "s"}},
                                       {"id": "c1", "call": "a.b.c", "input": 1}])
    assert len(found) == 1
    severity, where, message = found[0]
    assert severity == "error" and "None" not in message
    assert "without kind" in message and '"kind": "entry"' in message


def test_a_body_without_code_names_code_alone():
    (problem,) = problems(session(bodies=[{"id": "b1"}]))
    assert problem[0] == "error" and problem[1] == "/bodies/0"
    assert "without code" in problem[2] and "id or code" not in problem[2]
    (problem,) = problems(session(bodies=[{"code": "return 1"}]))
    assert "without id" in problem[2] and "or code" not in problem[2]


def test_an_edit_of_its_own_entry_says_so():
    found = problems(session(store=[{"id": "c1", "call": "a.b.c", "input": 1},
                                    {"id": "e1", "call": "a.b.c", "input": 2, "applied": True, "editOf": "e1"}]))
    (problem,) = [p for p in found if p[1] == "/store/1/editOf"]
    assert problem[0] == "warning" and "its own entry" in problem[2] and "later" not in problem[2]


@pytest.mark.parametrize("field, document, where", [
    ("result.error", session(bodies=[{"id": "b1", "code": "", "result": {"ok": False, "error": {"name": "E"}}}]),
     "/bodies/0/result/error"),
    ("createdAt", {**session(), "session": {"id": "s", "createdAt": "yesterday"}}, "/session/createdAt"),
])
def test_a_wrong_typed_field_is_a_warning(field, document, where):
    found = problems(document)
    assert [(p[0], p[1]) for p in found] == [("warning", where)], found
    assert "ignored" in found[0][2]


def test_a_store_in_a_json_lines_header_is_a_warning():
    found = problems(None, "s.jsonl", [{"format": "worker-session/1", "session": {"id": "s"},
                                       "store": [{"id": "c1", "call": "a.b.c", "input": 1}]}])
    assert [(p[0], p[1]) for p in found] == [("warning", "line 1 /store")], found
    assert '{"kind": "entry", …}' in found[0][2]


def test_typescript_on_stdin_without_lang_ts_says_what_may_be_missing():
    from tests.conftest import DEMO
    from tests.helpers.cli import WSI
    import subprocess

    body = "const depth: number = 34;\nreturn depth;\n"
    plain = subprocess.run([str(WSI), "run", str(DEMO), "-"], input=body, capture_output=True, text=True, timeout=120)
    assert plain.returncode == 1
    assert plain.stderr.strip().startswith("<stdin>:1:7: SyntaxError: Missing initializer")
    assert "--lang ts may be what is missing" in plain.stderr
    typed = subprocess.run([str(WSI), "run", str(DEMO), "-", "--lang", "ts"], input=body, capture_output=True, text=True, timeout=120)
    assert typed.returncode == 0, typed.stderr


def test_a_refused_handle_is_named_without_the_run_s_secret():
    # The secret differs per run: naming it made every run's failure "different" to wsi reduce.
    from wsi_inspector.core.jsrules.run_inputs import InvalidKeepError, validate_keep

    with pytest.raises(InvalidKeepError) as refused:
        validate_keep({"ward": {"__h": "h1.93462e085947c08ad6f52fb0"}})
    assert "({__h: 'h1'})" in str(refused.value) and "93462e" not in str(refused.value)
