"""TypeScript bodies: types blanked in place by the vendored stripper, the rest refused at its line:column."""
from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from wsi_inspector.core.runner import typescript
from wsi_inspector.core.runner.envelope import build_envelope
from wsi_inspector.core.runner.typescript import TypeScriptError, erase_types

ROOT = Path(__file__).resolve().parents[3]


def test_erasure_keeps_every_line_and_column():
    code = "interface A { x: number }\nconst a: A = { x: 1 } as A;\nfunction f<T>(v: T, w?: number): T { return v!; }\nreturn f(a).x;"
    erased = erase_types(code)
    assert [len(line) for line in erased.split("\n")] == [len(line) for line in code.split("\n")]
    assert erased.split("\n")[1] == "const a    = { x: 1 }     ;"
    assert "<T>" not in erased and "?" not in erased


def test_erasure_counts_utf16_units_for_characters_outside_the_bmp():
    erased = erase_types('const s: "😀" = "😀";')
    assert erased == 'const s       = "😀";'
    assert len(erased.encode("utf-16-le")) == len('const s: "😀" = "😀";'.encode("utf-16-le"))


def test_a_lone_surrogate_in_a_string_is_kept_where_it_was():
    erased = erase_types('const s: string = "\ud800x";\nreturn s;')
    assert erased == 'const s         = "\ud800x";\nreturn s;'


@pytest.mark.parametrize("code, line, column, word", [
    ("const a = 1;\nenum Side { Left }", 2, 1, "enum"),
    ("namespace N { export const a = 1 }", 1, 1, "namespace"),
    ("class P {\n  constructor(private x: number) {}\n}", 2, 23, "parameter property"),
    ("@sealed class D {}", 1, 1, "decorator"),
    ("const s = '漢字😀';\n\t\tenum E { A }", 2, 3, "enum"),  # a tab and wide characters before it
    ("return 1 + 1 as number * 2;", 1, 8, "parentheses"),
])
def test_what_cannot_be_erased_is_refused_at_its_place(code, line, column, word):
    with pytest.raises(TypeScriptError) as caught:
        erase_types(code)
    assert (caught.value.line, caught.value.column) == (line, column)
    assert word in caught.value.message


def test_typescript_that_does_not_parse_is_a_syntax_error_at_its_place():
    with pytest.raises(TypeScriptError) as caught:
        erase_types("const a: number = 1;\nconst b = (a +;")
    assert (caught.value.name, caught.value.line, caught.value.column) == ("SyntaxError", 2, 15)


def test_a_body_that_ends_too_early_is_a_syntax_error_on_its_last_line():
    with pytest.raises(TypeScriptError) as caught:
        erase_types("function f(): number {\n  return 1;\n")
    assert caught.value.name == "SyntaxError" and caught.value.line == 3


def test_a_stripper_that_runs_too_long_is_stopped_and_the_next_body_still_strips(monkeypatch):
    long_body = "const v: number = 1;\n" * 20_000
    typescript.prepare()
    monkeypatch.setattr(typescript, "STRIP_TIMEOUT_S", 0.001)
    with pytest.raises(TypeScriptError) as caught:
        erase_types(long_body)
    assert (caught.value.line, caught.value.column) == (1, 1) and "took over" in caught.value.message
    monkeypatch.setattr(typescript, "STRIP_TIMEOUT_S", 5.0)
    assert erase_types("let a: number = 1;") == "let a         = 1;"


def test_nesting_too_deep_for_the_stripper_is_refused_and_the_next_body_still_strips():
    with pytest.raises(TypeScriptError) as caught:
        erase_types("return " + "(" * 50_000 + "1" + ")" * 50_000 + ";")
    assert "nested too deeply" in caught.value.message
    assert erase_types("let a: number = 1;") == "let a         = 1;"


def test_the_vendored_stripper_is_the_pinned_release():
    pin = json.loads((typescript.VENDOR / "PIN.json").read_text())
    assert pin["package"] == "amaro" and pin["integrity"].startswith("sha512-")
    on_disk = {name: hashlib.sha256((typescript.VENDOR / name).read_bytes()).hexdigest() for name in pin["sha256"]}
    assert on_disk == pin["sha256"]
    assert {"LICENSE.md", "LICENSE-swc"} <= set(pin["sha256"])


# -- through the real runner -------------------------------------------------------------------------------

def test_a_typescript_body_runs_and_its_errors_keep_their_columns(demo, runner):
    code = "const n: number = 2;\nconst m = (n as number) * 3;\nconst z: string = (undefined as any).boom;"
    result = runner.run(build_envelope(demo, code, "ts"))
    assert result["error"]["name"] == "TypeError"
    assert (result["error"]["line"], result["error"]["column"]) == (3, 38)


# Each body throws at the `new` of its marked line: V8 must report that line and column of the TypeScript.
THROWS = [
    "interface Long {\n  a: number;\n  b: Array<Map<string, number>>;\n}\nconst v: Long | null = null;\n"
    "if (!v) throw new Error('here');",
    "const s: \"\U0001f600\U0001f600\" = \"\U0001f600\U0001f600\"; const t: number = 1; throw new Error('here');",
    "\tconst f = <T,>(x: T): T => x;\tf<number>(1); throw new Error('here');",
    "const g = () => {\n  return <T>\n  (x: T) => { throw new Error('here'); };\n};\ng()(1);",
    "class C {\n  private readonly a: number = 1;\n  public m(this: C, b?: string): void { throw new Error('here'); }\n}\n"
    "new C().m();",
    "let called = false;\nconst foo = () => {};\nfoo\ntype X = 1;\n(1);\nthrow new Error('here');",
]


@pytest.mark.parametrize("code", THROWS)
def test_a_runtime_error_points_into_the_typescript_as_written(demo, runner, code):
    lines = code.split("\n")
    line = next(number for number, text in enumerate(lines, 1) if "new Error('here')" in text)
    column = len(lines[line - 1][:lines[line - 1].index("new Error")].encode("utf-16-le")) // 2 + 1
    result = runner.run(build_envelope(demo, code, "ts"))
    assert result["ok"] is False and result["error"]["message"] == "here"
    assert (result["error"]["line"], result["error"]["column"]) == (line, column)


def test_a_refused_typescript_body_comes_back_as_a_failed_run(demo, runner):
    result = runner.run(build_envelope(demo, "enum E { A }\nreturn 1;", "ts"))
    assert result["ok"] is False
    assert result["error"]["name"] == "TypeScriptError" and result["error"]["line"] == 1


def test_a_typescript_syntax_error_comes_back_at_its_place(demo, runner):
    result = runner.run(build_envelope(demo, "const a: number = 1;\nconst b = (a +;", "ts"))
    assert result["error"]["name"] == "SyntaxError" and result["error"]["line"] == 2


def test_the_stripper_is_not_in_the_bodys_realm(demo, runner):
    erase_types("let warm: number = 1;")  # the stripper exists in this process
    result = runner.run(build_envelope(demo, "return [typeof wsiStripper, typeof WebAssembly.Module];", "ts"))
    assert result["ok"] is True and result["returned"][0] == "undefined"


STRIP_THEN = "from wsi_inspector.core.runner.typescript import erase_types, prepare\nimport threading\n"
THREAD_USES = [
    # the stripper started on a thread, used from the main one, then the process ends
    "starter = threading.Thread(target=prepare)\nstarter.start()\n"
    "assert erase_types('let a: number = 1;') == 'let a         = 1;'\nstarter.join()\n",
    # the stripper used from the main thread, then an isolate of the process's own, then a thread strips
    "assert erase_types('let a: number = 1;') == 'let a         = 1;'\n"
    "from py_mini_racer import MiniRacer\nown = MiniRacer()\nassert own.eval('1 + 1') == 2\nown.close()\n"
    "worker = threading.Thread(target=erase_types, args=('let b: string;',))\nworker.start()\nworker.join()\n",
    # V8 started by the stripper's thread, then an isolate of the process's own on the main thread running
    # JIT-compiled code (with V8's memory protection keys on, that isolate segfaulted on a CPU with PKU)
    "starter = threading.Thread(target=prepare)\nstarter.start()\nstarter.join()\n"
    "from py_mini_racer import MiniRacer\nown = MiniRacer()\n"
    "assert own.eval('let s = 0; for (let i = 0; i < 3e6; i++) s += i % 7; s') == 8999994\nown.close()\n",
]


@pytest.mark.parametrize("script", THREAD_USES)
def test_a_process_that_strips_from_several_threads_neither_crashes_nor_hangs(script):
    # mini-racer 0.14 segfaulted or hung at exit when isolates were made and used on different threads.
    done = subprocess.run([sys.executable, "-c", STRIP_THEN + script], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr


def test_a_runner_made_for_typescript_makes_the_stripper_in_the_background():
    # Runner(typescript=True) (the window's) starts the stripper beside its guest, so the first
    # TypeScript envelope, built on the GUI thread, does not pay its start-up.
    script = (
        "import time\nfrom wsi_inspector.core.runner import typescript\nfrom wsi_inspector.core.runner.host import Runner\n"
        "with Runner(size=1, typescript=True) as runner:\n"
        "    deadline = time.monotonic() + 60\n"
        "    while typescript._stripper is None and time.monotonic() < deadline:\n"
        "        time.sleep(0.01)\n"
        "    assert typescript._stripper is not None, 'the stripper was not made'\n"
        "    assert typescript.erase_types('let a: number = 1;') == 'let a         = 1;'\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=90)
    assert done.returncode == 0, done.stderr
