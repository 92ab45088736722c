"""TypeScript bodies: type-only syntax erased in place, the rest refused at its line:column."""
from __future__ import annotations

import pytest

from core.runner.envelope import build_envelope
from core.runner.typescript import TypeScriptError, erase_types


def test_erasure_keeps_every_line_and_column():
    code = "interface A { x: number }\nconst a: A = { x: 1 } as A;\nfunction f<T>(v: T, w?: number): T { return v!; }\nreturn f(a).x;"
    erased = erase_types(code)
    assert [len(line) for line in erased.split("\n")] == [len(line) for line in code.split("\n")]
    assert erased.split("\n")[1] == "const a    = { x: 1 }     ;"
    assert "<T>" not in erased and "?" not in erased


def test_erasure_counts_utf16_units_for_characters_outside_the_bmp():
    erased = erase_types('const s: "😀" = "😀";')
    assert erased.encode("utf-16-le").__len__() == 'const s: "😀" = "😀";'.encode("utf-16-le").__len__()


@pytest.mark.parametrize("code, line, column, word", [
    ("const a = 1;\nenum Side { Left }", 2, 1, "enum"),
    ("namespace N { export const a = 1 }", 1, 1, "namespace"),
    ("class P {\n  constructor(private x: number) {}\n}", 2, 15, "parameter property"),
    ("@sealed class D {}", 1, 1, "decorator"),
])
def test_what_cannot_be_erased_is_refused_at_its_place(code, line, column, word):
    with pytest.raises(TypeScriptError) as caught:
        erase_types(code)
    assert (caught.value.line, caught.value.column) == (line, column)
    assert word in caught.value.message


def test_a_typescript_body_runs_and_its_errors_keep_their_columns(demo, runner):
    code = "const n: number = 2;\nconst m = (n as number) * 3;\nconst z: string = (undefined as any).boom;"
    result = runner.run(build_envelope(demo, code, "ts"))
    assert result["error"]["name"] == "TypeError"
    assert (result["error"]["line"], result["error"]["column"]) == (3, 38)


def test_a_refused_typescript_body_comes_back_as_a_failed_run(demo, runner):
    result = runner.run(build_envelope(demo, "enum E { A }\nreturn 1;", "ts"))
    assert result["ok"] is False
    assert result["error"]["name"] == "TypeScriptError" and result["error"]["line"] == 1


def test_a_typescript_syntax_error_is_reported_by_v8_at_its_place(demo, runner):
    result = runner.run(build_envelope(demo, "const a: number = 1;\nconst b = (a +;", "ts"))
    assert result["error"]["name"] == "SyntaxError" and result["error"]["line"] == 2
