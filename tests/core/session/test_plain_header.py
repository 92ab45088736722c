"""Header parts checked without pydantic (core/session/plain_header.py) read exactly as pydantic reads them.

Building the pydantic models cost `wsi manifest` 15 MB, a third of its peak beside the text (issue 28,
point 2): a load whose header is plainly valid no longer builds them. What "plainly valid" lets through
must be what the models take unchanged; everything else still goes to them, for their messages.
"""
import itertools
import json
import subprocess
import sys

import pytest

import wsi_inspector.core.session.formats.worker_session_1.header as header
from wsi_inspector.core.session import schema
from wsi_inspector.core.session.load import load_bytes
from wsi_inspector.core.session.plain_header import Caps, plainly_valid

VALUES = [None, 0, 5, -1, 2**70, 1.0, 1.5, True, False, "", "x", "5", "2026-11-18T09:00:00Z", [], ["a"], ["a", 1], {}, {"a": 1}]
FIELDS = {
    "SessionInfo": ["id", "title", "createdAt", "created_at", "other"],
    "Caps": ["storeBytes", "keepBytes", "store_bytes", "other"],
    "ModuleInfo": ["fns", "doc", "other"],
    "Entity": ["id", "type", "name", "other"],
    "Mock": ["returns", "echo", "throws", "other"],
}


def _parts(model: str):
    """Every part of up to two members of the model's fields (and one it does not name), each of VALUES."""
    fields = FIELDS[model]
    yield from ([], "text", 3, None)
    for count in (0, 1, 2):
        for names in itertools.combinations(fields, count):
            for values in itertools.product(VALUES, repeat=count):
                yield dict(zip(names, values))
    if model in ("SessionInfo", "Entity"):  # the required members present, the others varied
        for value in VALUES:
            yield {"id": "s", "type": "room", "title": value, "name": value}


@pytest.mark.parametrize("model", sorted(FIELDS))
def test_a_plainly_valid_part_is_what_its_model_takes_unchanged(model):
    cls = getattr(schema, model)
    plain = 0
    for raw in _parts(model):
        if not plainly_valid(model, raw):
            continue
        plain += 1
        validated = cls.model_validate(raw)  # raises if the plain check let through what the model refuses
        dumped = validated.model_dump(by_alias=True)
        assert {k: v for k, v in dumped.items() if k in raw} == raw, raw  # nothing converted
        assert all(type(dumped[k]) is type(v) for k, v in raw.items()), raw
        if model == "Caps":
            assert Caps.of(raw).as_json() == validated.model_dump(by_alias=True, exclude_none=True), raw
    assert plain >= 10, plain


def _session(header_parts: dict) -> bytes:
    document = {"format": "worker-session/1", **header_parts,
                "store": [{"id": "c1", "call": "a.b.c", "input": [1, 2]}], "bodies": []}
    return json.dumps(document).encode()


HEADERS = [
    {"session": {"id": "s", "title": "T", "createdAt": "2026-11-18T09:00:00Z"}, "caps": {"storeBytes": 10, "keepBytes": 5, "x": None, "y": 1}},
    {"session": {"id": "s", "createdAt": "yesterday"}, "caps": {"storeBytes": "40"}},
    {"session": {"id": 5}, "caps": {"storeBytes": -1, "keepBytes": True}},
    {"session": {"id": "s", "created_at": "2026-11-18"}, "caps": {"store_bytes": 7}},
    {"session": "s", "caps": [], "modules": {"a.b": {"fns": ["f", 2]}, "c.d": {"doc": "d"}}},
    {"session": {"id": "s"}, "scene": {"entities": [{"id": "e", "type": "room"}, {"id": "e2"}],
                                      "mocks": {"a.b.c": {"echo": "yes"}, "a.b.d": {"echo": True, "throws": "E: x"}}}},
]


@pytest.mark.parametrize("parts", HEADERS)
def test_a_header_loads_the_same_with_and_without_the_plain_check(parts, monkeypatch):
    def seen():
        session = load_bytes(_session(parts), "s.json")
        return ([str(p) for p in session.problems], session.info, session.caps, session.caps.as_json(),
                session.modules, session.scene)

    plain = seen()
    monkeypatch.setattr(header, "plainly_valid", lambda model, raw: False)
    assert plain == seen()


def test_a_plainly_valid_header_does_not_build_the_pydantic_models(tmp_path):
    path = tmp_path / "s.json"
    path.write_bytes(_session(HEADERS[0]))
    script = ("import sys; from wsi_inspector.core.session.load import load; s = load(sys.argv[1]); "
              "assert s.caps.store_bytes == 10 and not s.errors; print('pydantic' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
