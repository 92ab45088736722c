"""TypeScript bodies: types blanked by swc's strip-only mode (Node's `amaro`), every line and column kept.

The stripper is Node's own: `amaro` 1.2.1, swc compiled to WebAssembly (vendored in `vendor/amaro/`
with its licences, `PIN.json` holding the npm integrity and a sha256 per file;
`tools/refresh_ts_stripper.sh` re-derives or updates them). It runs in a V8 isolate of its own in the
host process (made on first use, kept, every call bounded by the run's timeout), never in a body's
realm. swc replaces each type-only character by a space (an erased character outside the BMP by two, as
V8 counts UTF-16 units) and adds a `;` where erasing would join two statements, so V8's positions
are the TypeScript's own. What it cannot erase without changing the meaning (enum, namespace with
values, parameter properties, `import x = …`, `<T>expr`, an `as`/`satisfies` whose removal would
regroup operators, as in `1 + 1 as number * 2`) is refused as a `TypeScriptError` at its line:column,
saying what to write instead; TypeScript that does not parse is a `SyntaxError` at its place.
Decorators and `accessor` fields are kept by swc, but this V8 (mini-racer's 14.4) has neither: they
are refused at the `@` or the field with what to write instead.

Chosen by measurement (issue 15). Correctness: each candidate's output for the issue's failure classes
run in V8 beside `tsc`'s emit (Node 20). Speed: each in a fresh mini-racer 0.14 (V8 14.4), the 40-line
body of `tests/bench/bench_typescript.py`, best of two on a shared 2-core machine (load ~3); all pay
V8's own start in the host first (import and first isolate, 130–170 ms there):

| stripper | issue 15's failure classes | positions | size | load + first strip | warm, 40 lines |
| --- | --- | --- | --- | --- | --- |
| amaro 1.2.1 (swc strip-only, wasm) | kept, or refused at the place; one gap (`a < b as T << c`) closed here | kept | 2.8 MB wasm | 40 + 30 ms | 1.1–1.5 ms |
| ts-blank-space 0.9.0 + typescript 5.9 | kept, or refused at the place | kept | 10.4 MB of JS | 330–500 + 35 ms | 2.1–2.7 ms |
| sucrase 3.35.1 | 3 silent miscompiles: `1 + 1 as number * 2` is 3, `foo⏎type x = 1;⏎(1)` calls foo, `return <T>⏎(x) => x` returns undefined | lines only | 0.7 MB of JS | 30–45 + 20 ms | 1.4–2.4 ms |
| esbuild (esbuild-wasm 0.28, PyPI `esbuild-py`) | compiles enums and namespaces | reprinted: lost | 14 MB wasm / native | not measured | |

One thread owns the isolate and runs every call (mini-racer 0.14 crashes when an isolate is made on one
thread and used or closed on another). That thread also starts V8 in the host, with memory protection
keys off: with them on, V8 gives only the thread that started it (and threads it starts later) the right
to write its code pages, so an isolate made on the main thread after V8 started elsewhere segfaults
(on CPUs with PKU). Off the main thread, the whole start-up (mini-racer's import, its 74 MB library,
V8, swc's WebAssembly) never blocks a GUI. Only the host's own code runs in this V8, never a body.

Start-up, measured (issue 15; a fresh process, load ~5 on the shared 2-core machine, ms): importing
mini-racer (asyncio with it) and starting V8 210-300, the isolate 20, compiling swc's WebAssembly 40-100
(10 with lazy validation, below), the glue 10, the first strip 50-60, which compiles every swc function
it reaches (V8 compiles WebAssembly functions lazily, on first call). So making the stripper
also strips `WARM_UP`, TypeScript of the common kinds, and a body's first strip finds most of swc
compiled (unless a body is already waiting to be stripped: its own strip is the sooner warm-up).
`prepare()` makes it and waits; `prepare_in_background()` starts it and returns at once,
which is what a `Runner(typescript=True)` does beside its starting guest.

Line numbers are counted at `\\n`, as swc counts them; swc gives columns as display columns (a tab 4,
a wide character 2), turned back into UTF-16 columns here.
"""
from __future__ import annotations

import atexit
import contextlib
import json
import queue
import re
import threading
import unicodedata
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, cast

if TYPE_CHECKING:
    from py_mini_racer import JSFunction

WRAP_HEAD = "(async function () {\n"  # a body is an async function's body: `return` and `await` parse
WRAP_TAIL = "\n})"
VENDOR = Path(__file__).with_name("vendor") / "amaro"
LOADER = Path(__file__).with_name("typescript_stripper.js")
STRIP_TIMEOUT_S = 5.0
# How long closing waits for V8 to answer the calls it was given, a stopped strip's among them. Its own
# figure, not the strip's: with a strip bound of 1 ms (a test) the isolate was closed before that answer,
# whose callback then found mini-racer's event loop closed ("Exception ignored … Event loop is closed").
CLOSE_WAIT_S = 5.0
# V8's flags in the host, where only this stripper runs: memory protection keys off (see the module's
# docstring), and WebAssembly functions validated when first compiled, not all when the module is
# (compiling swc's module: 40-100 ms -> ~10 ms on the loaded machine; the build is pinned by checksum).
HOST_V8_FLAGS = ("--no-memory-protection-keys", "--wasm-lazy-validation")
LOAD_TIMEOUT_S = 30.0  # compiling swc's WebAssembly, once; generous for a loaded machine
LONE_SURROGATE = re.compile("[\ud800-\udfff]")
# Stripped once when the stripper is made, so that a body's first strip finds the swc code of the
# common kinds of TypeScript compiled: annotations, interfaces and type aliases, generics, classes
# with modifiers, `as`/`satisfies`/`!`, optional chaining, template literals, arrows, destructuring.
WARM_UP = """type Id = string | number;
interface Row<T = unknown> { readonly id: Id; value?: T; tags: string[] }
declare const seen: Set<Id>;
abstract class Base<T extends object> implements Iterable<T> {
  protected abstract items: T[];
  static count = 0;
  public constructor(readonly_: boolean) { }
  *[Symbol.iterator](): Iterator<T> { yield* this.items; }
  get size(): number { return this.items.length; }
}
function pick<K extends keyof Row>(row: Row, key: K): Row[K] { return row[key]; }
const rows = (inputs?.last("a.b") as Row<number>[] | undefined) ?? [];
const sum = rows.reduce((total: number, { value = 0 }: Row<number>): number => total + value, 0);
const names = rows.map((r) => `${r.id}`!).filter((n): n is string => n.length > 0);
let later!: Map<Id, Row[]>;
for (const [i, r] of rows.entries()) { if (typeof r.id === "number" && i % 2) continue; }
const out = { sum, names, first: rows[0]?.tags?.[0] } satisfies Record<string, unknown>;
try { await Promise.resolve(out); } catch (e: unknown) { console.log(e as Error); }
"""
# swc's words for what it refuses → the construct and what to write instead.
ADVICE = (
    ("enum", "an enum has runtime values and cannot be erased; use a const object, e.g. const Side = { Left: 0, Right: 1 }"),
    ("parameter property", "a parameter property (`constructor(private x)`) cannot be erased; declare the field "
     "and assign it in the constructor (`this.x = x`)"),
    ("namespace", "a namespace with runtime values cannot be erased; use a plain object or top-level functions"),
    ("module declaration", "a module declaration with runtime values cannot be erased; use a plain object"),
    ("import =", "`import x = …` cannot be erased; use a const"),
    ("export =", "`export = …` cannot be erased; bodies have no exports, return the value instead"),
    ("angle-bracket", "a `<T>expr` type assertion cannot be erased; write `expr as T`"),
    ("binary expression grouping", "erasing this `as`/`satisfies` would regroup the operators around it, "
     "which changes the value; put the asserted expression in parentheses, e.g. `(a + b as T) * c`"),
)


class TypeScriptError(Exception):
    """TypeScript that cannot be erased, or does not parse, at the body's line:column (1-based)."""

    def __init__(self, name: str, message: str, line: int, column: int):
        super().__init__(f"{line}:{column}: {message}")
        self.name, self.message, self.line, self.column = name, message, line, column

    def as_error(self) -> dict[str, Any]:
        """The run result's error."""
        return {"name": self.name, "message": self.message, "line": self.line, "column": self.column}


class _Stripper:
    """One V8 isolate holding swc's WebAssembly, its `strip` function ready to call."""

    def __init__(self) -> None:
        from py_mini_racer import MiniRacer

        self.racer = MiniRacer()
        wasm = (VENDOR / "wasm_bg.wasm").read_bytes()
        view = cast(memoryview, self.racer.eval(f"globalThis.wsiWasm = new ArrayBuffer({len(wasm)})"))  # an ArrayBuffer comes back as a view of V8's memory
        view[:] = wasm  # straight into V8's buffer: no 3.7 MB of base64 for V8 to parse
        view.release()
        self.racer.eval(LOADER.read_text("utf-8"))
        load = cast("JSFunction", self.racer.eval("(glue) => { wsiStripper.load(glue, globalThis.wsiWasm); delete globalThis.wsiWasm; }"))
        load((VENDOR / "wasm.js").read_text("utf-8"), timeout_sec=LOAD_TIMEOUT_S)
        self.strip = cast("Callable[..., str]", self.racer.eval("wsiStripper.strip"))  # (source, timeout_sec=) -> swc's answer as JSON text

    def parse_error(self, script: str, timeout_s: float) -> tuple[int, int] | None:
        """Where V8 fails to parse `script` (1-based line, 0-based UTF-16 column), or None; runs none of it."""
        from py_mini_racer import JSEvalException, JSParseException

        try:
            self.racer.eval("throw 0;\n" + script, timeout_sec=timeout_s)  # parsed whole, then stopped at once
        except JSParseException as exc:
            head, _, rest = str(exc).partition(": SyntaxError")
            caret = rest.split("\n")[2] if rest.count("\n") >= 2 else ""
            line = head.rsplit(":", 1)[-1]
            return (int(line) - 1, caret.find("^")) if line.isdigit() and "^" in caret else None
        except JSEvalException:
            return None
        return None

    def close(self) -> None:
        """End the isolate, once V8 has answered every call it was given (a stopped one answers late)."""
        from py_mini_racer import JSEvalException

        with contextlib.suppress(JSEvalException):
            self.racer.eval("0", timeout_sec=CLOSE_WAIT_S)  # V8 answers in order: the stopped call first
        self.racer.close()


_lock = threading.Lock()
_jobs: queue.Queue[tuple[Callable[[], Any], Future[Any]]] | None = None
_stripper: _Stripper | None = None  # made, used and closed on the stripper's thread only
EXIT_WAIT_S = 5.0


def _submit(job: Callable[[], Any]) -> Future[Any]:
    # One thread touches the isolate: mini-racer crashes at exit closing an isolate made on another thread.
    global _jobs
    with _lock:
        if _jobs is None:
            _jobs = queue.Queue()
            threading.Thread(target=_serve, args=(_jobs,), daemon=True, name="wsi-ts-stripper").start()
    done: Future[Any] = Future()
    _jobs.put((job, done))
    return done


def _on_stripper_thread(job: Callable[[], Any], wait_s: float | None = None) -> Any:
    return _submit(job).result(wait_s)


def _start_v8() -> None:
    """Start V8 in this process on the calling thread, unless it is started (see the module's docstring)."""
    from py_mini_racer._dll import DEFAULT_V8_FLAGS, init_mini_racer

    init_mini_racer(flags=(*DEFAULT_V8_FLAGS, *HOST_V8_FLAGS), ignore_duplicate_init=True)


def _serve(jobs: queue.Queue[tuple[Callable[[], Any], Future[Any]]]) -> None:
    while True:
        job, done = jobs.get()
        try:
            done.set_result(job())
        except BaseException as exc:  # noqa: BLE001 — handed to the caller, who raises it
            done.set_exception(exc)


def _ready_stripper(warm_up: bool = False) -> _Stripper:
    global _stripper
    if _stripper is None:
        _start_v8()
        stripper = _Stripper()
        # Only when made ahead of need: a body waiting for its strip compiles what it needs itself, sooner.
        if warm_up and (_jobs is None or _jobs.empty()):
            stripper.strip(WRAP_HEAD + WARM_UP + WRAP_TAIL, timeout_sec=LOAD_TIMEOUT_S)
        _stripper = stripper
    return _stripper


def _prepared() -> None:
    _ready_stripper(warm_up=True)


def _drop_stripper() -> None:
    global _stripper
    if _stripper is not None:
        _stripper.close()
        _stripper = None


@atexit.register
def _close_at_exit() -> None:
    # Before the interpreter finalizes: mini-racer's close waits on its event-loop thread, stopped by then.
    if _jobs is not None:
        with contextlib.suppress(TimeoutError):  # a strip still running: leave the isolate to the process's end
            _on_stripper_thread(_drop_stripper, EXIT_WAIT_S)


def prepare() -> None:
    """Start the stripper now and wait for it (its first use otherwise pays V8's and the WebAssembly's start-up)."""
    _on_stripper_thread(_prepared)


def prepare_in_background() -> None:
    """Start the stripper on its own thread and return at once; a strip asked for meanwhile waits for it."""
    _submit(_prepared)


def erase_types(code: str, timeout_s: float | None = None) -> str:
    """The body with its type-only syntax replaced by spaces; TypeScriptError when it cannot be.

    `timeout_s` bounds the strip: a run's own timeout (the runner passes it), else STRIP_TIMEOUT_S.
    """
    limit = STRIP_TIMEOUT_S if timeout_s is None else timeout_s
    surrogates = LONE_SURROGATE.search(code) is not None
    source = WRAP_HEAD + (LONE_SURROGATE.sub("\ufffd", code) if surrogates else code) + WRAP_TAIL
    answer = _on_stripper_thread(lambda: _strip(source, code, limit))
    stripped = answer.get("code")
    if stripped is None:
        raise _refusal(answer["error"], code)
    if not (stripped.startswith(WRAP_HEAD) and stripped.endswith(WRAP_TAIL)) or _utf16_len(stripped) != _utf16_len(source):
        raise TypeScriptError("TypeScriptError", "the TypeScript stripper moved code (a bug in it); "
                              "run the body as JavaScript", 1, 1)
    body = stripped[len(WRAP_HEAD):len(stripped) - len(WRAP_TAIL)]
    return _put_back_surrogates(code, body) if surrogates else body


def _strip(source: str, code: str, timeout_s: float) -> dict[str, Any]:
    """On the stripper's thread: swc's answer for the wrapped `source`, V8's gaps refused."""
    from py_mini_racer import JSEvalException

    try:
        stripper = _ready_stripper()
        answer: dict[str, Any] = json.loads(stripper.strip(source, timeout_sec=timeout_s))
        stripped = answer.get("code")
        if stripped is not None and ("@" in code or "accessor" in code):
            _refuse_what_v8_lacks(stripper, stripped, code, timeout_s)
    except JSEvalException as exc:  # timed out, or the WebAssembly trapped: that instance is not trusted again
        _drop_stripper()
        raise TypeScriptError("TypeScriptError", _crash_message(exc, timeout_s), 1, 1) from None
    return answer


def _refusal(error: dict[str, Any], code: str) -> TypeScriptError:
    message = str(error.get("message") or "the TypeScript stripper refused this code")
    line, column = _place(code, int(error.get("line") or 1) - 1, int(error.get("column") or 0))
    if error.get("code") == "InvalidSyntax":
        return TypeScriptError("SyntaxError", message, line, column)
    lowered = message.lower()
    advice = next((text for word, text in ADVICE if word in lowered), message)
    return TypeScriptError("TypeScriptError", advice, line, column)


def _refuse_what_v8_lacks(stripper: _Stripper, stripped: str, code: str, timeout_s: float) -> None:
    # swc keeps decorators and `accessor`; V8 14.4 cannot parse them, so say what they are and where.
    where = stripper.parse_error(stripped, timeout_s)
    if where is None:
        return
    line, column = where[0] - 1, where[1]  # the wrapper's first line is not the body's
    lines = stripped[len(WRAP_HEAD):].split("\n")
    if not 1 <= line <= len(lines):
        return
    text = _utf16_prefix(lines[line - 1], column + 1)
    engine = f"this runner's JavaScript engine (V8 {stripper.racer.v8_version})"
    if text.endswith("@"):
        raise TypeScriptError("TypeScriptError", f"decorators are not supported by {engine}; call the decorator "
                              "yourself after the declaration, e.g. `C = sealed(C) ?? C`", line, column + 1)
    keyword = re.search(r"\baccessor\s+[#\w$]*$", text)
    if keyword is not None:
        start = _utf16_len(text[:keyword.start()]) + 1
        raise TypeScriptError("TypeScriptError", f"`accessor` fields are not supported by {engine}; write a "
                              "private field with a getter and a setter", line, start)


def _place(code: str, line: int, display_column: int) -> tuple[int, int]:
    """swc's line (body-relative) and display column as the body's 1-based line and UTF-16 column."""
    lines = code.split("\n")
    if line < 1:
        return 1, 1
    if line > len(lines):  # at the wrapper's closing `})`: the body ended too early
        return len(lines), _utf16_len(lines[-1].rstrip("\r")) + 1
    column, width = 0, 0
    for char in lines[line - 1]:
        if width >= display_column:
            break
        width += _display_width(char)
        column += 2 if ord(char) > 0xFFFF else 1
    return line, column + 1


def _display_width(char: str) -> int:
    # swc's display column: the UTF-16 column, less one per character of unusual width, plus that width
    # (unicode-width's: a tab 4, wide and full-width 2, combining marks 0).
    units = 2 if ord(char) > 0xFFFF else 1
    if char == "\t":
        return units - 1 + 4
    if unicodedata.east_asian_width(char) in ("W", "F"):
        return units - 1 + 2
    return units - 1 if unicodedata.combining(char) or char in "\u200b\u200c\u200d\ufeff" else units


def _utf16_len(text: str) -> int:
    return len(text) + sum(1 for char in text if ord(char) > 0xFFFF) if not text.isascii() else len(text)


def _utf16_prefix(text: str, units: int) -> str:
    """The start of `text` that is `units` UTF-16 units long (or all of it)."""
    count = 0
    for index, char in enumerate(text):
        if count >= units:
            return text[:index]
        count += 2 if ord(char) > 0xFFFF else 1
    return text


def _put_back_surrogates(code: str, body: str) -> str:
    # A lone surrogate went in as U+FFFD (UTF-8 cannot carry it); put it back where it was kept.
    original = code.encode("utf-16-le", "surrogatepass")
    kept = bytearray(body.encode("utf-16-le", "surrogatepass"))
    for match in LONE_SURROGATE.finditer(code):
        at = 2 * _utf16_len(code[:match.start()])
        if kept[at:at + 2] == "\ufffd".encode("utf-16-le"):
            kept[at:at + 2] = original[at:at + 2]
    return kept.decode("utf-16-le", "surrogatepass")


def _crash_message(exc: Exception, timeout_s: float) -> str:
    from py_mini_racer import JSTimeoutException

    if isinstance(exc, JSTimeoutException):
        return (f"preparing the TypeScript took over {timeout_s:g} s (the run's timeout) and was stopped; "
                "shorten the body or run it as JavaScript")
    if "Maximum call stack size exceeded" in str(exc):
        return "the TypeScript is nested too deeply for the type stripper; flatten it or run it as JavaScript"
    first = str(exc).strip().split("\n")[0][:200]
    return f"the type stripper failed on this TypeScript ({first}); run it as JavaScript"
