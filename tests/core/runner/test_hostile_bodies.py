"""Hostile and broken bodies come back as ok: false with the right error, in time, and the runner keeps working."""
from __future__ import annotations

import time

import pytest

from wsi_inspector.core.runner.envelope import build_envelope

TIMEOUT_S = 2.0

HOSTILE = {
    "syntax error": ("const a = 1;\nlet b = ;\n", "SyntaxError", 2),
    "runtime error": ("const a = 1;\n\nnull.x;\n", "TypeError", 3),
    "synchronous endless loop": ("while (true) {}", "TimeoutError", None),
    "endless loop after an await": ("await modules.run.inputs.jsonBytes(1);\nwhile (true) {}", "TimeoutError", None),
    "infinite recursion": ("function f() { return f(); }\nreturn f();", "RangeError", 1),
    "huge array fill": ("new Array(1e9).fill(0);", ("MemoryError", "TimeoutError"), None),
    "string doubling bomb": ("let s = 'x';\nwhile (true) s += s;", ("RangeError", "MemoryError"), None),
    "growing heap": ("const a = [];\nwhile (true) a.push(new Array(1e5).fill(1.5));", "MemoryError", None),
    "forged handle": ("await modules.pack.rooms.place({ room: { __h: 'h42' } });", "HandleError", 1),
    "forged handle read": ("\nscene.read({ __h: 'x1' });", "HandleError", 2),
    "handle in keep": ("const w = scene.get('ward-1');\nreturn { keep: { w } };", "InvalidKeepError", None),
    "function in keep": ("return { keep: { area: () => 1 } };", "InvalidKeepError", None),
    "bad keep name": ("return { keep: { 'not a name': 1 } };", "InvalidKeepError", None),
    "unknown module": ("\n\nawait modules.pack.corridorRun({});", "UnknownModuleError", 3),
    "a promise nothing settles": ("await new Promise(() => {});", "DeadlockError", None),
}


@pytest.mark.parametrize("label", list(HOSTILE))
def test_hostile_body_fails_in_time_and_the_next_run_works(demo, runner, label):
    code, names, line = HOSTILE[label]
    names = names if isinstance(names, tuple) else (names,)
    started = time.monotonic()
    result = runner.run(build_envelope(demo, code, options={"timeout_s": TIMEOUT_S}))
    elapsed = time.monotonic() - started
    assert result["ok"] is False
    assert result["error"]["name"] in names, result["error"]
    if line is not None:
        assert result["error"]["line"] == line
    assert elapsed <= TIMEOUT_S + 1.0 + 0.6  # + a fresh guest's start when the last run killed one
    after = runner.run(build_envelope(demo, "return 40 + 2;"))
    assert after["ok"] is True and after["returned"] == 42


def test_syntax_error_names_the_bodys_line_and_column(demo, runner):
    result = runner.run(build_envelope(demo, "const a = 1;\nconst b = a +* 2;"))
    assert result["error"]["name"] == "SyntaxError"
    assert (result["error"]["line"], result["error"]["column"]) == (2, 14)


def test_unknown_module_suggests_the_near_name(demo, runner):
    result = runner.run(build_envelope(demo, "await modules.pack.corridorRun({});"))
    assert "Did you mean: corridorRuns?" in result["error"]["message"]


def test_forged_handle_error_names_its_path(demo, runner):
    result = runner.run(build_envelope(demo, "await modules.pack.rooms.place({ rooms: [{ ward: { __h: 'h9' } }] });"))
    assert "input.rooms.0.ward" in result["error"]["message"]


def test_a_handle_from_this_run_is_accepted_where_used(demo, runner):
    result = runner.run(build_envelope(demo, "const h = scene.get('ward-2');\nreturn scene.read(h).beds;"))
    assert result["ok"] and result["returned"] == 24


def test_handles_are_fresh_per_run(demo, runner):
    first = runner.run(build_envelope(demo, "return scene.get('ward-1');"))
    second = runner.run(build_envelope(demo, f"return scene.read({first['returned']!r});".replace("'", '"')))
    assert first["returned"]["__h"].startswith("h1.") and len(first["returned"]["__h"]) > 20
    assert second["ok"] is False and second["error"]["name"] == "HandleError"


def test_logs_before_a_timeout_are_kept(demo, runner):
    result = runner.run(build_envelope(demo, "log('before');\nconsole.warn('careful');\nwhile (true) {}", options={"timeout_s": 1}))
    assert result["error"]["name"] == "TimeoutError"
    assert result["logs"] == ["before", "[warn] careful"]


def test_logs_before_a_runtime_error_are_kept(demo, runner):
    result = runner.run(build_envelope(demo, "log('one', 1, {a: [2]});\nthrow new Error('boom');"))
    assert result["logs"] == ['one 1 {"a":[2]}']
    assert result["error"] == {"name": "Error", "message": "boom", "line": 2, "column": 7}


def test_a_failing_mock_call_fails_at_the_line_that_awaited_it(demo, runner):
    code = "const outline = scene.read('site-1').outline;\n\nawait modules.site.boundary.offset({ outline, distance: -5 });"
    result = runner.run(build_envelope(demo, code))
    assert result["error"]["name"] == "Error" and result["error"]["line"] == 3
    assert result["error"]["message"] == "offset distance must be positive (got a negative distance)"


def test_stop_kills_the_run_and_the_runner_recovers(demo, runner):
    future = runner.submit(build_envelope(demo, "while (true) {}", options={"timeout_s": 30}))
    time.sleep(0.3)
    runner.stop(future)
    result = future.result(timeout=25)  # a wait bound, well under the body's 30 s timeout (how soon: bench_stop.py)
    assert result["ok"] is False and result["error"]["name"] == "StoppedError"
    assert runner.run(build_envelope(demo, "return 'again';"))["returned"] == "again"


def test_globals_a_body_sets_do_not_reach_the_next_body(demo, runner):
    first = runner.run(build_envelope(demo, "leaked = 5; Array.prototype.extra = 1; return typeof leaked;"))
    second = runner.run(build_envelope(demo, "return [typeof leaked, [].extra === undefined];"))
    assert first["returned"] == "number"
    assert second["returned"] == ["undefined", True]


def test_calls_a_body_did_not_await_are_still_made_and_traced(demo, runner):
    result = runner.run(build_envelope(demo, "modules.mep.risers({ level: 99 });\nreturn 'returned first';"))
    assert result["returned"] == "returned first"
    assert [c["input"] for c in result["calls"]] == [{"level": 99}]


def test_a_body_that_replaces_json_cannot_forge_its_result(demo, runner):
    result = runner.run(build_envelope(demo, "JSON.stringify = () => '{\"forged\":1}';\nreturn { real: 1 };"))
    assert result["returned"] == {"real": 1}


def test_a_body_that_breaks_out_of_its_function_fails_and_the_next_run_works(demo, runner):
    result = runner.run(build_envelope(demo, "}); (function () {"))
    assert result["ok"] is False and result["error"]["name"] == "SyntaxError"
    assert runner.run(build_envelope(demo, "return 7;"))["returned"] == 7


def test_a_body_that_breaks_a_builtin_the_runner_uses_fails_alone(demo, runner):
    runner.run(build_envelope(demo, "Array.prototype.join = () => 'x';\nString.prototype.startsWith = () => true;\nawait modules.mep.risers({});"))
    after = runner.run(build_envelope(demo, "return [[1, 2].join('-'), await modules.mep.risers({ level: 1 })];"))
    assert after["ok"] is True and after["returned"] == ["1-2", {"level": 1}]


def test_the_guest_runs_under_a_data_limit(demo, runner):
    runner.run(build_envelope(demo, "return 1;"))
    guest = runner._idle.get()
    runner._idle.put(guest)
    limits = open(f"/proc/{guest.proc.pid}/limits").read()
    line = next(line for line in limits.splitlines() if line.startswith("Max data size"))
    assert line.split()[3] == str(runner.data_limit)
