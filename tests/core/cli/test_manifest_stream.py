"""`wsi manifest --json` written as it is made (issue 28): the bytes print_json gives the whole document,
on every session; a failure while it is made leaves stdout empty for the error document."""
from __future__ import annotations

import io
import json
import sys

import pytest

from tests.conftest import BROKEN, DEMO
from tests.helpers.cli import wsi
from wsi_inspector.core.cli import dispatch, output
from wsi_inspector.core.cli.output import print_json, print_json_listing
from wsi_inspector.core.search import manifest
from wsi_inspector.core.search.manifest import inputs_manifest, manifest_chunks, manifest_head
from wsi_inspector.core.session.load import load

SESSIONS = [DEMO, *sorted(BROKEN.iterdir())]
# A lone surrogate in an id: orjson refuses it, so the whole document takes the standard library's
# spelling (non-ASCII escaped too), as print_json writes it.
ODD_IDS = ('{"format":"worker-session/1","session":{"id":"s"},"store":['
           '{"id":"c\\u00e9","call":"a.b.c","input":{"k":1}},{"id":"x\\ud800","call":"a.b.c","input":2},'
           '{"id":"c3","call":"a.b.c","input":[1,2],"unit":"mm","applied":true}]}')


def printed(write, expected: type[BaseException] | tuple = ()) -> bytes:
    """What `write()` puts on stdout, as bytes (also when it raises one of `expected`)."""
    saved, buffer = sys.stdout, io.BytesIO()
    sys.stdout = wrapper = io.TextIOWrapper(buffer, encoding="utf-8")
    try:
        write()
    except expected:
        pass
    finally:
        sys.stdout = saved
        wrapper.flush()
        wrapper.detach()  # the buffer stays open to be read
    return buffer.getvalue()


def whole(state) -> bytes:
    """print_json of the whole manifest document: what the command printed before it streamed."""
    return printed(lambda: print_json(inputs_manifest(state)))


def streamed(state, size: int) -> bytes:
    """The manifest written `size` entries at a time."""
    return printed(lambda: print_json_listing(manifest_head(state), "entries", lambda: manifest_chunks(state, size)))


def command(*args: str) -> bytes:
    """What `wsi ARGS…` prints, run in this process."""
    return printed(lambda: dispatch.main(list(args)))


def states(session):
    """The session's end and every body's point."""
    yield session.state_at(None)
    for body in session.bodies:
        yield session.state_at(body.id)


@pytest.mark.parametrize("path", SESSIONS, ids=lambda p: p.name)
def test_streamed_bytes_are_print_json_of_the_whole_document(path):
    session = load(path)
    for state in states(session):
        for size in (1, 2, 4096):
            assert streamed(state, size) == whole(state)


def test_a_value_orjson_refuses_gives_the_whole_document_in_the_standard_spelling(tmp_path):
    path = tmp_path / "odd.json"
    path.write_text(ODD_IDS)
    state = load(path).state_at(None)
    document = whole(state)
    assert b'"c\\u00e9"' in document and b'"x\\ud800"' in document  # the fallback's spelling, for every id
    for size in (1, 2):
        assert streamed(state, size) == document
    done = wsi("manifest", path, "--json")
    assert done.returncode == 0, done.stderr
    assert done.stdout.encode() == document


def test_the_command_prints_the_same_bytes_on_the_demo_and_at_each_body(tmp_path, monkeypatch):
    monkeypatch.setattr(manifest, "MANIFEST_CHUNK", 2)  # several chunks even on the demo
    session = load(DEMO)
    assert command("manifest", str(DEMO), "--json") == whole(session.state_at(None))
    for body in session.bodies:
        assert command("manifest", str(DEMO), "--json", "--at", str(body.id)) == whole(session.state_at(body.id))


def test_a_failure_in_a_later_chunk_leaves_only_the_error_document(monkeypatch):
    monkeypatch.setattr(manifest, "MANIFEST_CHUNK", 2)
    real = manifest.manifest_entry
    made = []

    def failing(entry):
        made.append(entry)
        if len(made) == 5:  # the third chunk
            raise ValueError("cannot read this entry")
        return real(entry)

    monkeypatch.setattr(manifest, "manifest_entry", failing)
    status = []
    out = printed(lambda: status.append(dispatch.main(["manifest", str(DEMO), "--json"])))
    assert status == [1]
    document = json.loads(out)  # one document: the error, nothing of the manifest before it
    assert list(document) == ["error"] and "cannot read this entry" in document["error"]["message"]
    assert output.printed_json


def test_a_chunk_that_fails_writes_nothing(monkeypatch):
    def chunks():
        yield [{"id": 1}]
        raise OSError("the store went away")

    monkeypatch.setattr(output, "printed_json", False)
    with pytest.raises(OSError, match="went away"):
        print_json_listing({"count": 2}, "entries", chunks)
    assert printed(lambda: print_json_listing({"count": 2}, "entries", chunks), OSError) == b""
    assert not output.printed_json  # the caller's error document is still to come


def test_an_empty_listing_and_an_empty_head():
    assert printed(lambda: print_json_listing({"count": 0}, "entries", lambda: iter([]))) == b'{"count":0,"entries":[]}\n'
    assert printed(lambda: print_json_listing({}, "kept", lambda: iter([[], [1], [], [2, 3]]))) == b'{"kept":[1,2,3]}\n'


def test_an_interrupt_while_writing_adds_no_second_document_and_exits_130(monkeypatch, capsys):
    """Only an interrupt or the output itself can fail once the first byte is out (everything else failed
    before it): the exit status and stderr say so, and no error document follows the cut one."""
    monkeypatch.setattr(manifest, "MANIFEST_CHUNK", 2)
    count = len(load(DEMO).state_at(None).store)
    real = manifest.manifest_entry
    made = []

    def interrupted(entry):
        made.append(entry)
        if len(made) == count + 3:  # the second pass, in its second chunk: after the first bytes
            raise KeyboardInterrupt
        return real(entry)

    monkeypatch.setattr(manifest, "manifest_entry", interrupted)
    status = []
    out = printed(lambda: status.append(dispatch.main(["manifest", str(DEMO), "--json"])))
    assert status == [130] and "wsi: interrupted" in capsys.readouterr().err
    assert out.startswith(b'{"count":') and out.count(b'{"count":') == 1 and b'"error"' not in out
    with pytest.raises(json.JSONDecodeError):
        json.loads(out)  # cut: the status says it is not the document
