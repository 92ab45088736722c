"""Errors keep their shape: odd strings, deep values, hostile throws and memory come back as plain results.

No run crashes its guest with a Python error, and no result or message holds Python traceback text.
"""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from wsi_inspector.core.cli.dispatch import main
from wsi_inspector.core.runner.envelope import build_envelope
from wsi_inspector.core.runner.result import CUT_MARKER, MAX_DEPTH
from tests.conftest import DEMO

MEMORY_OPTIONS = {"timeout_s": 8, "memory_bytes": 128 * 1024 * 1024}


def no_traceback(result) -> bool:
    text = json.dumps(result)
    return "Traceback" not in text and 'File "' not in text and ".py\"" not in text


def test_a_lone_surrogate_in_a_log_and_a_return_is_carried_safely(demo, runner):
    code = "log('before');\nlog('Ward \\u{1F3E5} east'.slice(0, 6));\nreturn ['\\uD83C', 'ok'];"
    result = runner.run(build_envelope(demo, code))
    assert result["ok"] is True
    assert result["logs"] == ["before", "Ward \ufffd"]
    assert result["returned"] == ["\ud83c", "ok"]
    assert runner.run(build_envelope(demo, "return 1;"))["returned"] == 1


def test_wsi_run_json_prints_a_lone_surrogate_result(tmp_path, capsys):
    body = tmp_path / "surrogate.js"
    body.write_text("log('Ward \\u{1F3E5} east'.slice(0, 6));\nreturn 'Ward \\u{1F3E5} east'.slice(0, 6);\n")
    status = main(["run", str(DEMO), str(body), "--json"])
    document = json.loads(capsys.readouterr().out)
    assert status == 0
    assert document["logs"] == ["Ward \ufffd"] and document["returned"] == "Ward \ud83c"


@pytest.mark.parametrize("last_line, status", [("return 'Ward \\u{1F3E5} east'.slice(0, 6);", 0),
                                               ("throw new Error('Ward \\u{1F3E5} east'.slice(0, 6));", 1)])
def test_wsi_run_prints_lone_surrogates_as_replacement_characters(tmp_path, last_line, status):
    body = tmp_path / "surrogate.js"
    body.write_text("log('Ward \\u{1F3E5} east'.slice(0, 6));\n" + last_line + "\n")
    cli = "import sys; from wsi_inspector.core.cli.dispatch import main; sys.exit(main(sys.argv[1:]))"
    done = subprocess.run([sys.executable, "-c", cli, "run", str(DEMO), str(body)], capture_output=True,
                          env={"PYTHONIOENCODING": "utf-8", "PATH": "/usr/bin:/bin"}, timeout=60)
    assert done.returncode == status, done.stderr
    assert "Ward \ufffd" in done.stdout.decode() and b"internal error" not in done.stderr


def test_a_returned_value_nested_2000_deep_comes_back_cut_with_a_marker(demo, runner):
    result = runner.run(build_envelope(demo, "let a = [];\nfor (let i = 0; i < 2000; i++) a = [a];\nreturn { a };"))
    assert result["ok"] is True and no_traceback(result)
    value, depth = result["returned"]["a"], 1
    while isinstance(value, list):
        value, depth = value[0], depth + 1
    assert value == CUT_MARKER and depth == MAX_DEPTH


def test_a_keep_nested_2000_deep_is_refused_by_name(demo, runner):
    result = runner.run(build_envelope(demo, "let a = {};\nfor (let i = 0; i < 2000; i++) a = { a };\nreturn { keep: { deep: a } };"))
    assert result["ok"] is False and result["error"]["name"] == "InvalidKeepError"
    assert result["error"]["message"].startswith(f"keep.deep nests deeper than {MAX_DEPTH} levels")


def test_a_module_input_nested_2000_deep_fails_that_call(demo, runner):
    code = "let a = [];\nfor (let i = 0; i < 2000; i++) a = [a];\nawait modules.mep.risers({ a });"
    result = runner.run(build_envelope(demo, code))
    assert result["ok"] is False and result["error"]["name"] == "RangeError"
    assert f"nests deeper than {MAX_DEPTH} levels" in result["error"]["message"] and result["error"]["line"] == 3


@pytest.mark.parametrize("thrown", [
    "{ get message() { throw new Error('again'); } }",
    "new Proxy({}, { get() { throw 1; }, has() { throw 2; }, getPrototypeOf() { throw 3; } })",
    "new Proxy(new Error('x'), { get() { throw 1; } })",
    "(() => { const { proxy, revoke } = Proxy.revocable({}, {}); revoke(); return proxy; })()",
    "{ name: { toString() { throw 1; } }, message: 'm' }",
])
def test_a_thrown_value_that_cannot_be_read_is_a_proper_error(demo, runner, thrown):
    result = runner.run(build_envelope(demo, f"log('kept');\nthrow {thrown};", options={"timeout_s": 3}))
    assert result["ok"] is False and result["error"]["name"] == "Error"
    assert "cannot be read" in result["error"]["message"] and result["logs"] == ["kept"]


def test_a_huge_error_message_is_clipped(demo, runner):
    result = runner.run(build_envelope(demo, "throw new Error('x'.repeat(1e6));"))
    assert result["error"]["name"] == "Error" and len(result["error"]["message"]) <= 2000


@pytest.mark.parametrize("label, code", [
    ("typed arrays", "const all = [];\nlog('start');\nwhile (true) { const b = new Uint8Array(32e6); b.fill(1); all.push(b); }"),
    ("one huge typed array", "log('start');\nconst b = new Float64Array(2e8);\nb.fill(1);\nreturn b.length;"),
    ("WebAssembly memory", "log('start');\nconst m = new WebAssembly.Memory({ initial: 1, maximum: 65536 });\n"
                           "while (true) { m.grow(256); new Uint8Array(m.buffer).fill(1); }"),
    ("a huge returned string", "log('start');\nreturn 'x'.repeat(100e6);"),
    ("a growing heap", "log('start');\nconst a = [];\nwhile (true) a.push(new Array(1e5).fill(1.5));"),
])
def test_memory_past_the_cap_is_a_memory_error_whatever_holds_it(demo, runner, label, code):
    result = runner.run(build_envelope(demo, code, options=MEMORY_OPTIONS))
    assert result["ok"] is False and result["error"]["name"] == "MemoryError", result["error"]
    assert result["logs"] == ["start"] and no_traceback(result)
    assert runner.run(build_envelope(demo, "return 40 + 2;"))["returned"] == 42


def test_a_run_with_a_memory_cap_above_the_pools_gets_room_for_it(demo, runner):
    # Address space only (left untouched, it takes no memory): more than the pool's guest may hold.
    code = "const b = new Uint8Array(1.2e9);\nb[0] = 1;\nreturn b.length;"
    result = runner.run(build_envelope(demo, code, options={"timeout_s": 20, "memory_bytes": 2 * 1024**3}))
    assert result["ok"] is True and result["returned"] == 1_200_000_000, result.get("error")


def test_a_dying_guests_python_traceback_never_reaches_the_message():
    import subprocess as sp

    from wsi_inspector.core.runner.host import last_words

    died = sp.run([sys.executable, "-c", "import json\ndef f():\n    raise UnicodeEncodeError('utf-8', 'x', 0, 1, 'surrogates not allowed')\nf()"],
                  capture_output=True, text=True)
    words = last_words(died.stderr.splitlines())
    assert words.startswith("UnicodeEncodeError: 'utf-8' codec can't encode") and "Traceback" in died.stderr
    assert "File " not in words and "line " not in words
