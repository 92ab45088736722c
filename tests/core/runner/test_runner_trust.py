"""The runner's word can be trusted (issue 26): nothing a body does changes what the runner reports.

Each test is one of the issue's numbered cases: the hostile body, and what a correct product reports.
"""
from __future__ import annotations

import json
import resource

import pytest

from wsi_inspector.core.session.reading import MAX_DEPTH as LOADER_MAX_DEPTH
from wsi_inspector.core.runner.envelope import build_envelope
from wsi_inspector.core.runner.result import MAX_DEPTH, MAX_RETURNED_CHARS


def run(demo, runner, code, **options):
    return runner.run(build_envelope(demo, code, options=options or None))


# ---- 1. a failed body is never reported as a success ----

@pytest.mark.parametrize("override", ["() => ({ ok: true })", "() => 5", "function () { throw new Error('no'); }"])
def test_object_prototype_tojson_does_not_turn_a_failure_into_a_success(demo, runner, override):
    result = run(demo, runner, f"Object.prototype.toJSON = {override};\nthrow new Error('the body failed');")
    assert result["ok"] is False
    assert result["error"] == {"name": "Error", "message": "the body failed", "line": 2, "column": 7}


def test_object_prototype_tojson_does_not_change_a_returned_value(demo, runner):
    result = run(demo, runner, "Object.prototype.toJSON = () => 5;\nreturn { a: [1, { b: 2 }], when: new Date(0) };")
    assert result["ok"] is True and result["returned"] == {"a": [1, {"b": 2}], "when": "1970-01-01T00:00:00.000Z"}


def test_a_bodys_own_tojson_is_honoured_as_json_stringify_would(demo, runner):
    code = ("class Point { constructor(x) { this.x = x; } toJSON() { return [this.x]; } }\n"
            "return { own: { toJSON() { return 'mine'; } }, point: new Point(3), boxed: [new Number(4), new String('s')] };")
    assert run(demo, runner, code)["returned"] == {"own": "mine", "point": [3], "boxed": [4, "s"]}


# ---- 2. calls the body never made never reach the trace ----

def test_a_replaced_array_join_cannot_forge_a_batch_of_calls(demo, runner):
    code = ("Array.prototype.join = () => '[1,\"made.up.call\",{\"__h\":\"h1.x\"},77,0,[]]';\n"
            "Array.prototype.push = () => 0;\nawait modules.mep.risers({ level: 1 });\nreturn 'done';")
    result = run(demo, runner, code)
    assert result["ok"] is True and result["returned"] == "done"
    assert [(c["call"], c["input"], c["line"]) for c in result["calls"]] == [("mep.risers.risers", {"level": 1}, 3)]


# ---- 3. forged handles never reach the mocks ----

@pytest.mark.parametrize("code", [
    "await modules.pack.rooms.place({ room: { toJSON() { return { __h: 'h1.forged' }; } } });",
    "Map.prototype.has = () => true;\nawait modules.pack.rooms.place({ room: { __h: 'h1.forged' } });",
])
def test_a_forged_handle_is_a_handle_error_at_its_path(demo, runner, code):
    result = run(demo, runner, code)
    assert result["ok"] is False and result["error"]["name"] == "HandleError", result["error"]
    assert "input.room" in result["error"]["message"] and result["calls"] == []


def test_a_getter_cannot_answer_the_handle_check_and_the_send_differently(demo, runner):
    code = ("const real = scene.get('ward-1');\nlet reads = 0;\n"
            "const room = { get __h() { reads++; return reads === 1 ? real.__h : 'h1.forged'; } };\n"
            "try { await modules.pack.rooms.place({ room }); } catch (e) { /* no recorded output */ }\n"
            "return real.__h;")
    result = run(demo, runner, code)
    assert result["ok"] is True
    assert [c["input"] for c in result["calls"]] == [{"room": {"__h": result["returned"]}}]


def test_a_getter_on_a_scene_reference_is_read_once(demo, runner):
    code = ("const real = scene.get('ward-1');\nlet reads = 0;\n"
            "const ref = { get __h() { reads++; return reads === 1 ? 'h1.forged' : real.__h; } };\nreturn scene.read(ref).id;")
    result = run(demo, runner, code)
    assert result["ok"] is False and result["error"]["name"] == "HandleError"


# ---- 4. the wrapper cannot be closed from inside ----

@pytest.mark.parametrize("code", [
    "}), '{\"kept\":{},\"known\":{},\"options\":{\"deterministic\":false}}', \"[]\", '{}', \"\", 99); "
    "void ((async function () {\nlog(Math.random());",
    "}); log('escaped'); (async function () {",
    "return 1;\n}\nlog('escaped');\n{",
])
def test_a_body_that_closes_its_function_is_a_syntax_error_and_none_of_it_runs(demo, runner, code):
    result = run(demo, runner, code)
    assert result["ok"] is False and result["error"]["name"] == "SyntaxError"
    assert result["logs"] == [] and result["calls"] == []


def test_the_body_keeps_its_own_lines_and_columns(demo, runner):
    result = run(demo, runner, "\n\n   null.x;")
    assert (result["error"]["line"], result["error"]["column"]) == (3, 9)


# ---- 5. plain data that looks like the function marker is data ----

def test_the_function_marker_in_a_module_input_is_plain_data(demo, runner):
    result = run(demo, runner, "return await modules.mep.risers({ level: 1, f: { __wsi_fn__: 'x' } });")
    assert result["ok"] is True and result["returned"] == {"level": 1, "f": {"__wsi_fn__": "x"}}


def test_the_function_marker_in_a_keep_is_plain_data_and_a_real_function_is_refused(demo, runner):
    kept = run(demo, runner, "return { keep: { k: { __wsi_fn__: 'x' } } };")
    assert kept["ok"] is True and kept["keep"][0]["value"] == {"__wsi_fn__": "x"}
    refused = run(demo, runner, "return { keep: { k: { f: function area() {} } } };")
    assert refused["ok"] is False and refused["error"]["name"] == "InvalidKeepError"


def test_run_inputs_sees_functions_and_plain_markers_apart(demo, runner):
    code = "return await modules.run.inputs.findUnkeepable({ f: () => 1, plain: { __wsi_fn__: 'x' } });"
    assert run(demo, runner, code)["returned"] == ["f"]


# ---- 6. the caps cannot be switched off or dodged ----

def test_a_setter_on_object_prototype_cannot_switch_off_the_returned_cap(demo, runner):
    code = ("Object.defineProperty(Object.prototype, 'returnedCut', { set() {}, configurable: true });\n"
            "Object.defineProperty(Object.prototype, 'returnedChars', { set() {}, configurable: true });\n"
            "return 'x'.repeat(1000000);")
    returned = run(demo, runner, code)["returned"]
    assert isinstance(returned, str) and len(returned) < MAX_RETURNED_CHARS + 200 and "returned value cut" in returned


def test_a_keep_read_by_a_getter_is_read_once(demo, runner):
    code = "let reads = 0;\nreturn { get keep() { reads++; return reads === 1 ? { k: 1 } : { k: 2, other: 3 }; } };"
    result = run(demo, runner, code)
    assert result["ok"] is True and result["returned"] == {"keep": {"k": 1}}
    assert [(k["name"], k["value"]) for k in result["keep"]] == [("k", 1)]


def test_a_keep_name_ending_in_a_newline_is_refused(demo, runner):
    result = run(demo, runner, "return { keep: { 'spine\\n': 1 } };")
    assert result["ok"] is False and result["error"]["name"] == "InvalidKeepError"


# ---- 7. the host's work and memory are bounded ----

def test_an_unrecorded_call_with_a_huge_input_is_answered_without_a_long_diff(demo, runner):
    code = ("await modules.pack.corridorRuns.score({ level: 2, spine: Array.from({ length: 100000 }, (_, i) => ({ x: i })) });")
    result = run(demo, runner, code, timeout_s=10)  # a bound, not a timing: the answer comes at once
    assert result["ok"] is False and result["error"]["name"] == "MockError", result["error"]
    assert "too big to compare" in result["error"]["message"]


def test_a_returned_array_of_ten_million_arrays_is_cut_in_the_guest(demo, runner):
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    result = run(demo, runner, "return new Array(1e7).fill([]);", timeout_s=5)
    grown_mib = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert result["ok"] is True and isinstance(result["returned"], str)
    assert "returned value cut: its JSON is over" in result["returned"]
    assert grown_mib < 200  # the host never parsed ten million lists


def test_a_module_call_input_is_capped(demo, runner):
    code = "const big = 'x'.repeat(5e6);\nlog('made');\nawait modules.mep.risers({ big });"
    result = run(demo, runner, code)
    assert result["ok"] is False and result["error"]["name"] == "RangeError" and result["error"]["line"] == 3
    assert "its input is over" in result["error"]["message"] and result["calls"] == []


def test_all_of_a_runs_call_inputs_are_capped(demo, runner):
    code = "const big = 'x'.repeat(3.5e6);\nfor (let i = 0; i < 5; i++) await modules.mep.risers({ big });"
    result = run(demo, runner, code)
    assert result["ok"] is False and result["error"]["name"] == "RangeError"
    assert len(result["calls"]) == 4


# ---- 8. errors the body shapes are clamped, one line, cut ----

def test_a_body_supplied_place_is_ignored(demo, runner):
    code = "const e = new Error('m');\ne.__wsiPlace = { line: '9; not a line', column: 1e300 };\nthrow e;"
    error = run(demo, runner, code)["error"]
    assert (error["line"], error["column"]) == (1, 11)


def test_a_stack_that_names_a_line_past_the_body_is_clamped(demo, runner):
    error = run(demo, runner, "throw { message: 'm', stack: 'at x (body.js:999:99999)' };")["error"]
    assert (error["line"], error["column"]) == (1, 59)


def test_a_replaced_string_does_not_break_the_runner(demo, runner):
    result = run(demo, runner, "String = () => NaN;\nNumber = () => NaN;\nthrow new Error('plain');")
    assert result["error"] == {"name": "Error", "message": "plain", "line": 3, "column": 7}


def test_a_thrown_message_is_one_line(demo, runner):
    code = "throw new Error('first\\nTraceback (most recent call last):\\r\\n  File \"x\"\\u2028end');"
    message = run(demo, runner, code)["error"]["message"]
    assert "\n" not in message and "\r" not in message and "\u2028" not in message
    assert message.startswith("first \u23ce Traceback")


@pytest.mark.parametrize("override", [
    "RegExp.prototype.exec = function () { return ['x']; };",  # always matches: a global replace never ends
    "RegExp.prototype[Symbol.replace] = () => 'forged';",
    "Object.defineProperty(RegExp.prototype, 'flags', { get() { return 'forged'; } });",
])
def test_a_replaced_regexp_does_not_change_or_stall_the_report(demo, runner, override):
    """The runner's code uses no RegExp once a body exists (found by the fuzz with more cases: an `exec` that
    always matches kept the runner making a message one line until the run's timeout)."""
    result = run(demo, runner, override + "\nthrow new Error('a\\nb: array buffer allocation failed');", timeout_s=5)
    assert result["error"] == {"name": "Error", "message": "a \u23ce b: array buffer allocation failed", "line": 2, "column": 7}
    result = run(demo, runner, override + "\nthrow new RangeError('Array buffer allocation failed');", timeout_s=5)
    assert result["error"]["name"] == "MemoryError" and result["error"]["line"] == 2


def test_a_thrown_message_ends_with_its_line_breaks_made_one_line(demo, runner):
    message = run(demo, runner, "throw new Error('\\r\\n\\r\\rend\\n');")["error"]["message"]
    assert message == " \u23ce  \u23ce  \u23ce end \u23ce "


def test_a_megabyte_identifier_gives_a_short_syntax_error(demo, runner):
    result = run(demo, runner, "let a = 1 " + "x" * 1_000_000 + ";")
    assert result["error"]["name"] == "SyntaxError" and len(result["error"]["message"]) <= 2000
    assert "cut:" in result["error"]["message"]


# ---- 9. plain output escapes control characters (report.printable; the stderr line at the end of this file) ----

def test_plain_output_escapes_control_characters_and_newlines(demo, runner):
    from wsi_inspector.core.runner.report import result_text

    code = ("log('a\\x1b[31mred\\x07bell\\rcr\\x1b]52;c;aGk=\\x07');\nlog('x\\nreturned: 42');\n"
            "throw new Error('\\x1b[2Jcleared');")
    text = result_text(run(demo, runner, code))
    assert not any(ord(c) < 32 and c != "\n" or 0x7F <= ord(c) < 0xA0 for c in text)
    assert "\\x1b[31mred\\x07bell\\rcr" in text and "\\x1b[2Jcleared" in text
    assert [line for line in text.splitlines() if line.startswith("returned:")] == []


# ---- 10. the fixed clock holds everywhere; runner functions print as built-ins ----

def test_every_clock_follows_the_fixed_time(demo, runner):
    code = ("return [new (Date.prototype.constructor)().toISOString(), Temporal.Now.instant().epochMilliseconds,\n"
            "new Intl.DateTimeFormat('en', { timeZone: 'UTC', year: 'numeric', month: 'numeric', day: 'numeric' }).format(),\n"
            "Date.now()];")
    returned = runner.run(build_envelope(demo, code, at="b3", body_id="b3"))["returned"]
    assert returned == ["2026-11-18T09:02:18.000Z", returned[3], "11/18/2026", returned[3]]
    assert returned[1] == returned[3]


@pytest.mark.parametrize("expression, printed", [
    ("scene.get", "function get() { [native code] }"),
    ("console.log", "function log() { [native code] }"),
    ("inputs.last", "function last() { [native code] }"),
    ("setTimeout", "function setTimeout() { [native code] }"),
    ("Function.prototype.toString", "function toString() { [native code] }"),
])
def test_runner_functions_print_as_native_code(demo, runner, expression, printed):
    assert run(demo, runner, f"return Function.prototype.toString.call({expression});")["returned"] == printed


# ---- 11. one nesting limit for what loads and what comes back ----

def test_the_returned_nesting_limit_is_the_loaders():
    import re
    from pathlib import Path

    import wsi_inspector.core.runner.result as result_module

    prelude = (Path(result_module.__file__).parent / "prelude.js").read_text("utf-8")
    assert MAX_DEPTH == LOADER_MAX_DEPTH
    assert int(re.search(r"const MAX_DEPTH = (\d+);", prelude).group(1)) == LOADER_MAX_DEPTH  # the guest cuts there
    assert '"\\u2026 [cut: nested deeper than " + MAX_DEPTH + " levels]"' in prelude  # the marker's words, as CUT_MARKER


def test_a_value_nested_500_deep_comes_back_whole(demo, runner):
    result = run(demo, runner, "let a = 'core';\nfor (let i = 0; i < 500; i++) a = [a];\nreturn a;")
    value, depth = result["returned"], 0
    while isinstance(value, list):
        value, depth = value[0], depth + 1
    assert (value, depth) == ("core", 500)
    assert json.loads(json.dumps(result["returned"])) == result["returned"]


# ---- 12. the TypeScript strip is bounded by the run's timeout and runs on the runner's thread ----

def test_the_typescript_strip_is_bounded_by_the_runs_timeout(demo, runner):
    from wsi_inspector.core.runner import typescript

    typescript.prepare()
    result = runner.run(build_envelope(demo, "const v: number = 1;\n" * 20_000, "ts", options={"timeout_s": 0.001}))
    assert result["ok"] is False and result["error"]["name"] == "TypeScriptError"
    assert "took over 0.001 s (the run's timeout)" in result["error"]["message"]
    assert runner.run(build_envelope(demo, "const v: number = 41;\nreturn v + 1;", "ts"))["returned"] == 42


def test_the_typescript_strip_never_runs_on_the_thread_that_builds_the_envelope(demo, runner, monkeypatch):
    import threading

    from wsi_inspector.core.runner import envelope as envelope_module

    threads = []
    real = envelope_module.erase_types

    def spy(code, timeout_s=None):
        threads.append(threading.current_thread())
        return real(code, timeout_s)

    monkeypatch.setattr(envelope_module, "erase_types", spy)
    envelope = build_envelope(demo, "const v: number = 41;\nreturn v + 1;", "ts")
    assert threads == [] and envelope.types_pending
    assert runner.submit(envelope).result(timeout=30)["returned"] == 42
    assert len(threads) == 1 and threads[0] is not threading.current_thread()


@pytest.mark.parametrize("hook", ["Error.prepareStackTrace = () => 'at x (body.js:3:1)';", "Error.stackTraceLimit = 0;"])
def test_a_bodys_stack_hooks_cannot_write_the_places_the_runner_reports(demo, runner, hook):
    code = (f"{hook}\n\n\ntry {{ await modules.pack.rooms.place({{ room: 1 }}); }} catch (e) {{ /* no recorded output */ }}\n"
            "throw new Error('real');")
    result = run(demo, runner, code)
    assert [c["line"] for c in result["calls"]] == [4]
    # With no frames kept (stackTraceLimit 0) the error has no place: never one the body wrote.
    place = (result["error"].get("line"), result["error"].get("column"))
    assert place == ((5, 7) if "prepare" in hook else (None, None))


def test_wsi_run_prints_a_thrown_message_on_stderr_as_one_escaped_line(tmp_path, capsys):
    from wsi_inspector.core.cli.dispatch import main
    from tests.conftest import DEMO

    body = tmp_path / "forge.js"
    body.write_text("log('ok\\nreturned: 42\\x1b]52;c;aGk=\\x07');\n"
                    "throw new Error('boom\\n  File \"runner.py\", line 1\\x1b[2J');\n")
    status = main(["run", str(DEMO), str(body)])
    out, err = capsys.readouterr()
    assert status == 1
    assert err.count("\n") == 1 and "\x1b" not in err and err.startswith(f"{body}:2:7: Error: boom \u23ce   File")
    assert "\x1b" not in out and "\x07" not in out
    assert [line for line in out.splitlines() if line.startswith("returned:")] == []


def test_the_host_keeps_only_a_real_place_and_one_short_line(demo):
    from wsi_inspector.core.runner.result import assemble

    envelope = build_envelope(demo, "const a = 1;\nthrow a;")
    for line, column, kept in [("9; not a line", 1e300, {}), (99, 99, {"line": 2, "column": 9}),
                               (1, None, {"line": 1}), (True, 1, {}), (0, 1, {})]:
        done = {"ok": False, "error": {"name": "E\nrr", "message": "m\r\n" + "x" * 5000, "line": line, "column": column}}
        error = assemble(done, [], None, envelope, 1.0)["error"]
        assert {k: error[k] for k in ("line", "column") if k in error} == kept
        assert "\n" not in error["name"] + error["message"] and len(error["message"]) <= 2000
        assert error["message"].endswith("characters in all]")


@pytest.mark.parametrize("override", [
    "String = () => { throw new Error('boom'); };",
    "Object.defineProperty(Object.prototype, 'get', { value() { return 1; }, configurable: true });",
    "Object.defineProperty(Object.prototype, 'set', { value() {}, configurable: true });",
])
def test_the_read_tracer_uses_no_global_and_no_inherited_descriptor_field_while_the_body_runs(demo, runner, override):
    # The read tracer (reads.js) built a read's key with the global String, and its records' fields with
    # descriptors that inherit from Object.prototype: a body that replaced either broke inputs.at itself.
    result = run(demo, runner, override + '\nconst input = inputs.at("c4");\nreturn Object.keys(input).length;')
    assert result["ok"], result.get("error")
    assert result["returned"] > 0
    assert [r["entry"] for r in result["reads"] if r["what"] == "inputs.at"] == ["c4"]


def test_the_runners_own_work_leaves_the_bodys_regexp_statics_alone(demo, runner):
    """Placing a read or a call reads a stack: never with a RegExp, whose RegExp.$1 and RegExp.input a body can read
    (they would show the runner's own stack text)."""
    code = ("/(\\d+)-(x)/.exec('12-x');\n"
            "const e = inputs.last('pack.corridorRuns');\nvoid (e && e.bandDepth, kept.spine);\n"
            "await modules.pack.corridorRuns(e);\n"
            "try { await modules.pack.corridorRuns({ not: 'recorded' }); } catch (error) { void error; }\n"
            "return [RegExp.$1, RegExp.$2, RegExp.input];")
    result = run(demo, runner, code)
    assert result["ok"] is True, result.get("error")
    assert result["returned"] == ["12", "x", "12-x"]
    assert ["error" in c for c in result["calls"]] == [False, True]
