"""The guest process (`python -m wsi_inspector.core.runner.guest`, or `host.GUEST_CODE`): runs bodies in V8 for the host, one at a time.

It reads `run` frames on stdin and writes `calls` and `done` frames on stdout. Module calls are
answered by the host (`answers` frames), so the guest knows nothing of sessions.

Every run gets a realm of its own: a fresh V8 isolate with the prelude evaluated, made right after
the run before (so a warm run does not wait for it) and thrown away when the run ends, with
whatever the body left in it (changed built-ins, pending callbacks). The runner's hooks are held
here, never on the realm's global object. The timeout stops a run wherever it waits (the guest's wait for
V8's answers ends at the deadline and cancels what V8 runs), and
the memory cap covers the whole process (its resident memory, watched while the run lasts, with
RLIMIT_DATA as a backstop); a run that times out or hits the cap is reported and then the process
exits (`exit: true` in its `done`), and the host starts a fresh guest. A watcher thread ends the guest within a fraction of a second of losing its
host, whatever V8 is running. Logs live in a shared buffer that Python reads even while a loop holds V8.

Speed (issue 12). A warm run is a handful of thread hops (host to guest, guest to V8's thread and back)
and V8's first steps in a fresh isolate; on a loaded machine each hop waits for a core. So a run's one
script compiles the body and calls the start hook (by the realm's secret lexical name), the first poll
is posted behind it at once, and the prelude warms each realm with a run of its own over one of every
kind of state (and of read: inputs, kept, scene) while the realm waits. No event loop is on a run's path
(issue 26's 2 ms target, docs/runner.md): V8's answers come into `Answers`, which wakes the guest's one
thread once per batch through a plain lock, and the deadline and memory watch are that wait's timeout;
/proc's statm is read through one descriptor. A cold start is mostly Python, asyncio (mini-racer needs it
to make a realm) and mini-racer's 74 MB
library (dlopen ~40 ms of CPU, holding the GIL, so no thread can overlap it); the guest starts
without `site` (the host passes its PYTHONPATH) and without runpy (`-c`), and skips argparse,
importlib.resources, secrets and ssl. Measured (a shared 2-core machine, load ~4.5): the guest's
start is 1.05× a bare `python -S` process starting V8 in CPU (162 ms against 154 ms); what is left
is that process's own start, so the host overlaps it with other work instead (see host.py).
"""
from __future__ import annotations

import sys

if __name__ == "__main__":
    # The guest process never speaks TLS: asyncio then skips importing ssl (a few milliseconds of every
    # guest's start). Only in the guest's own process, never where this module is imported (the
    # host's `GUEST_CODE` does the same before importing it).
    sys.modules.setdefault("ssl", None)  # type: ignore[arg-type]

import asyncio
import collections
import ctypes
import json
import os
import re
import resource
import struct
import threading
import time
from typing import TYPE_CHECKING, Any

import orjson

from wsi_inspector.core.runner.protocol import STATE_ROOM, STATE_TEXTS, ChannelClosed, read_frame, write_frame

if TYPE_CHECKING:  # mini-racer is imported where V8 is first needed (a guest's start is timed)
    from py_mini_racer._value_handle import ValueHandle

# Package data beside this module (always a real folder: the host puts the project on the guest's path);
# read with open, as importlib.resources' import alone was a few milliseconds of every guest's start.
with open(os.path.join(os.path.dirname(__file__), "prelude.js"), encoding="utf-8") as _prelude:
    PRELUDE = _prelude.read()
with open(os.path.join(os.path.dirname(__file__), "reads.js"), encoding="utf-8") as _reads:  # reads.js: the read tracer
    READS = _reads.read()
FUNCTION_HEAD = "async function (inputs, kept, modules, scene, console, log) {\n"
RING_UNITS = 1 << 17
MAX_LOG_ENTRIES = 300
MAX_LOG_CHARS = 16_000
PARSE_PLACE = re.compile(r"^[^\n]*?:(\d+): (\w*Error): ([^\n]*)\n([^\n]*)\n( *)\^", re.S)
# The memory cap covers the whole process: while a run lasts, its resident memory may grow by at
# most the cap over what it held when the run started (a watch every few milliseconds while V8
# runs, and once more when the result is in Python). V8 commits address space well ahead of what
# it uses (a 256 MiB heap cap reached 500 MiB of data segment), so RLIMIT_DATA is only the
# backstop that refuses absurd allocations at once: twice the cap and this much over the start.
DATA_SLACK = 128 * 1024 * 1024
MEMORY_POLL_S = 0.005
PRELOAD_TASKS = 2  # the tasks `Realm.post_preload` posts: the state texts but the store, then the store
PAGE_BYTES = os.sysconf("SC_PAGE_SIZE")
ORPHAN_POLL_S = 0.1
# V8's flags beside mini-racer's own (`--single-threaded`). No Sparkplug: V8 compiles baseline code in batches, and
# the batch a realm's warm-up starts filled up during the run and was compiled there, synchronously (~0.07 ms of a
# run that reads an input, on a CPU back from idle; docs/runner.md). A body's hot code still goes on to Maglev and
# TurboFan: loops of 2e4 to 3e6 steps, fib(24) and 2e5 objects ran in the same time without it.
V8_FLAGS = ("--no-sparkplug",)


class RunAborted(Exception):
    """V8 can no longer be trusted (timeout, memory cap, termination): report, then exit."""

    def __init__(self, error: dict[str, Any]):
        super().__init__(error["message"])
        self.error = error


def _bare_racer() -> Any:
    """A MiniRacer without mini-racer's own setTimeout, whose globals and callbacks are not a body's scope.

    mini-racer evaluates that script in every new context; emptying it is the one way to keep it
    out (tested with mini-racer 0.14). Should another version bring it back, the prelude replaces
    the timers and the global-scope test names what is left.
    """
    from py_mini_racer import MiniRacer, _dll, _mini_racer

    _mini_racer.INSTALL_SET_TIMEOUT = "undefined"
    _dll.init_mini_racer(flags=(*_dll.DEFAULT_V8_FLAGS, *V8_FLAGS), ignore_duplicate_init=True)
    return MiniRacer()


class Answers:
    """The answers to the V8 tasks a run posts, in the order posted: mini-racer's queue for uncancelable tasks, replaced.

    V8's thread puts each answer here (mini-racer's callback, holding the GIL); the guest's one thread waits
    for as many as it posted on a plain lock, which is released once they are all in. So a run's script and
    its first poll, posted back to back, wake the guest once, and no event loop, self-pipe or task step lies
    between V8's answer and the guest's (each of those is code and memory a CPU fresh from idle reads cold:
    that, not the work, was most of a warm run; see docs/runner.md).
    """

    def __init__(self) -> None:
        self.items: collections.deque[ValueHandle] = collections.deque()
        self.wanted = 1
        self.waiting = False  # released only for a waiter: a release nobody waited for would end the next wait early
        self.signal = threading.Lock()
        self.signal.acquire()
        # V8's thread keeps one Python thread state from its first answer to the realm's end (see `put`, `Realm.close`).
        self.held_state: int | None = None
        self.release_state = False

    def put(self, handle: ValueHandle) -> None:
        """An answer (on V8's thread): wake the waiter once all it waits for are in."""
        if self.held_state is None:
            # ctypes makes a Python thread state for each call from a thread that has none and frees it after (a
            # fresh 16 KB frame stack mapped and unmapped, twice a run): one more hold keeps this one alive.
            self.held_state = ctypes.pythonapi.PyGILState_Ensure()
        elif self.release_state:  # the realm's last answer: ctypes frees the thread state when this call ends
            ctypes.pythonapi.PyGILState_Release(self.held_state)
            self.release_state = False
        self.items.append(handle)
        if self.waiting and len(self.items) >= self.wanted and self.signal.locked():
            self.signal.release()

    def wait(self, count: int, timeout: float) -> bool:
        """Whether `count` answers are in, waiting at most `timeout` seconds for them."""
        self.wanted = count
        if len(self.items) < count:
            # Only V8's thread releases, only this one acquires: a release that came as a wait timed out makes
            # the next wait return early, and the count is checked again.
            self.waiting = True
            self.signal.acquire(timeout=max(0.0, timeout))
            self.waiting = False
        return len(self.items) >= count

    def get(self) -> ValueHandle:
        """The next answer, waiting as long as it takes (mini-racer's own synchronous eval, while a realm is made)."""
        while not self.wait(1, 1.0):
            pass
        return self.items.popleft()


class Realm:
    """One fresh V8 isolate with the prelude evaluated: the hooks it returned and a view of its log ring.

    A run's calls into V8 are tasks posted to V8's thread without waiting (`post_eval`, `post_call`, `post_preload`),
    answered in order into `answers`; the guest waits for them with its deadline and memory watch
    (`Guest.wait_for`) and can cancel them (`cancel`, which terminates the JavaScript running). Nothing
    synchronous is called during a run: it would wait forever behind a body's runaway loop.
    """

    def __init__(self, state: dict[str, bytes] | None = None) -> None:
        """`state`: the state texts (STATE_TEXTS) to put in now, while the realm waits for its run."""
        from py_mini_racer import JSUndefined

        self.mr = _bare_racer()
        self._ctx = self.mr._ctx
        self.answers = Answers()
        object.__setattr__(self._ctx, "_non_cancelable_mr_task_results_queue", self.answers)  # a frozen dataclass
        # The hooks are also a global lexical binding (not a property of the global object, so no
        # reflection lists it) whose name is 96 random bits: a run's scripts call `start` and `answer` by it.
        self.name = "__wsi" + os.urandom(12).hex()
        # reads.js: the tracer's factory, handed to the prelude alone (a parameter, never a global), which makes
        # the tracer with its own captured intrinsics.
        hooks = self.mr.eval(f"const {self.name} = ((makeReads) => {PRELUDE})({READS});\n{self.name}")
        # The warm-up's done text (prelude.js): its promises have settled, so `poll` takes the path a run's end takes.
        self.warmed = self.mr.eval(f"{self.name}.poll()").startswith('{"done"')
        self.no_args = self.mr.eval("[]")
        self._undefined = self._ctx._python_to_value_handle(JSUndefined)
        # The raw handles a poll or a timers' firing is posted with, taken once (each a ctypes conversion
        # otherwise), by name: a JSFunction's hash is a synchronous call into V8, which waits behind a running body.
        names = ("poll", "fire", "preload", "preloadStore")
        self._hooks = [hooks[name] for name in names]  # they live as long as the realm
        self._call_args = {name: (self._ctx._python_to_value_handle(hook).raw, self._undefined.raw,
                                  self._ctx._python_to_value_handle(self.no_args).raw)
                           for name, hook in zip(names, self._hooks)}
        self.posted: list[int] = []  # tasks posted and not yet answered: what `cancel` stops
        self._held: list[ValueHandle] = []  # what those tasks use: alive until they are answered
        view = hooks["logBuffer"]
        self.header = view[:32].cast("B")
        self.ring = view[32:].cast("H")
        self.holds_state = bool(state)
        if state:
            self.post_preload(state)
            while not self.answers.wait(PRELOAD_TASKS, 1.0):
                pass
            self.take(PRELOAD_TASKS)

    def post_eval(self, source: str) -> None:
        """Post a script to V8's thread; its answer comes into `answers` in turn."""
        from py_mini_racer._context import _UNCANCELABLE_TASK_CALLBACK_ID

        ctx = self._ctx
        handle = ctx._python_to_value_handle(source)
        self._held.append(handle)
        self.posted.append(ctx._dll.mr_eval(ctx._ctx, handle.raw, _UNCANCELABLE_TASK_CALLBACK_ID))

    def post_preload(self, state: dict[str, bytes]) -> None:
        """Post the state texts (all of STATE_TEXTS, UTF-8) to the realm: its `preload` hook called with the others joined by
        NUL (never raw in JSON text) as `this`, then its `preloadStore` hook with the store (PRELOAD_TASKS tasks). String
        values: V8 neither scans nor compiles them, as it would a string literal in a script (~30 ms for a 3 MB store,
        twice a run: for the run, and for the next realm). Made from the bytes as they came, never a Python str (see
        envelope.Envelope); the store apart, so it is never copied into a joined text, and stays a one-byte string in V8
        (envelope.py writes it in ASCII) whatever the others hold: a 7 MB store took 14 ms to go in, 7 ms so."""
        from py_mini_racer._context import _UNCANCELABLE_TASK_CALLBACK_ID
        from py_mini_racer._objects import _MiniRacerTypes

        ctx = self._ctx
        for hook, data in (("preload", b"\x00".join(state[key] for key in STATE_TEXTS if key != "store")),
                           ("preloadStore", state["store"])):
            packed = ctx._wrap_raw_handle(ctx._dll.mr_alloc_string_val(ctx._ctx, data, len(data), _MiniRacerTypes.str_utf8))
            self._held.append(packed)
            function, _, no_args = self._call_args[hook]
            self.posted.append(ctx._dll.mr_call_function(ctx._ctx, function, packed.raw, no_args, _UNCANCELABLE_TASK_CALLBACK_ID))

    def post_call(self, hook: str) -> None:
        """Post a call of the hook `"poll"` or `"fire"` (no arguments); its answer comes into `answers` in turn."""
        from py_mini_racer._context import _UNCANCELABLE_TASK_CALLBACK_ID

        ctx = self._ctx
        self.posted.append(ctx._dll.mr_call_function(ctx._ctx, *self._call_args[hook], _UNCANCELABLE_TASK_CALLBACK_ID))

    def cancel(self) -> None:
        """Stop every posted task not yet answered (V8 terminates the JavaScript it is running)."""
        for task_id in self.posted:
            self._ctx._dll.mr_cancel_task(self._ctx._ctx, task_id)

    def take(self, count: int) -> list[Any]:
        """The `count` answers in (see `Guest.wait_for`), as Python values; RunAborted when V8 is lost.

        Each answer is converted in the order posted, so a script that threw raises (JSEvalException)
        before the poll behind it is read.
        """
        from py_mini_racer import JSOOMException, JSTimeoutException

        del self.posted[:count]
        if not self.posted:
            self._held.clear()
        ctx = self._ctx
        handles = [self.answers.items.popleft() for _ in range(count)]
        values = []
        for handle in handles:
            try:
                values.append(ctx._value_handle_to_python(handle))
            except JSTimeoutException:
                raise RunAborted(timeout_error()) from None
            except JSOOMException:
                raise RunAborted(memory_error()) from None
            if self.mr.was_hard_memory_limit_reached():
                raise RunAborted(memory_error())
        return values

    def close(self) -> None:
        """Dispose of the isolate (terminating anything the body left running in it)."""
        # The log views point into the isolate's memory: drop them first.
        self.header = self.ring = None
        self._hooks, self._call_args, self.no_args = [], {}, None
        if self.answers.held_state is not None:  # V8's thread lets its Python thread state go with one last answer
            self.answers.release_state = True
            self.mr.eval("0")
        self.mr.close()

    def read_logs(self) -> list[str]:
        """The newest logs (at most 300 entries, 16,000 characters), a marker first when any were cut."""
        units, entries, chars, cut_chars = (int(x) for x in struct.unpack_from("<4d", self.header, 0))
        must_cut = entries > MAX_LOG_ENTRIES or chars > MAX_LOG_CHARS or cut_chars > 0
        room = MAX_LOG_ENTRIES - 1 if must_cut else MAX_LOG_ENTRIES
        low = max(0, units - RING_UNITS)
        kept: list[str] = []
        total = 0
        position = units
        while position - 2 >= low and len(kept) < room:
            size = self.ring[(position - 2) % RING_UNITS] | (self.ring[(position - 1) % RING_UNITS] << 16)
            start = position - 2 - size
            if start < low or total + size > MAX_LOG_CHARS:
                break
            kept.append(self._text(start, size))
            total += size
            position = start
        kept.reverse()
        dropped = entries - len(kept)
        if dropped > 0 or cut_chars:
            cut = f"{dropped:,} earlier log entr{'y' if dropped == 1 else 'ies'} ({chars - total:,} characters)"
            if cut_chars:
                cut += f" and the first {cut_chars:,} characters of entries over 16,000"
            kept.insert(0, f"\u2026 [cut: {cut}; the newest {len(kept):,} entries are kept]")
        return kept

    def _text(self, start: int, size: int) -> str:
        first = start % RING_UNITS
        if first + size <= RING_UNITS:
            data = self.ring[first : first + size].tobytes()
        else:
            data = self.ring[first:].tobytes() + self.ring[: first + size - RING_UNITS].tobytes()
        # JavaScript strings are UTF-16 with lone surrogates allowed; a log line is text: U+FFFD for those.
        return data.decode("utf-16-le", "replace")


_limits = {"timeout": 10.0, "memory": 256 * 1024 * 1024, "state": 0}
BIG_STATE = 8_000_000  # characters of state handed to a run past which a memory error names it


def timeout_error() -> dict[str, Any]:
    """The error of a run stopped at its timeout."""
    return {
        "name": "TimeoutError",
        "message": f"the body ran longer than its timeout of {_limits['timeout']:g} s and was stopped; "
        "look for a loop that never ends, or raise the timeout (--timeout)",
    }


def memory_error() -> dict[str, Any]:
    """The error of a run stopped at its memory cap."""
    return {
        "name": "MemoryError",
        "message": f"the body used more than its memory cap of {_limits['memory'] // (1024 * 1024)} MiB and was "
        "stopped; look for an array, typed array, WebAssembly memory or string that grows without end"
        + (f" (the store, scene and manifest handed to it are {_limits['state'] / 1e6:.0f} MB of JSON, whose copies "
           "the run makes too: a smaller caps.storeBytes or a larger memory cap gives them room)"
           if _limits["state"] > BIG_STATE else ""),
    }


def syntax_error(message: str, code: str) -> dict[str, Any]:
    """A V8 parse error at the body's own line and column (clamped to ones the body has), its message one short line."""
    match = PARSE_PLACE.match(message)
    if not match:
        first = message.split("\n", 1)[0]
        return {"name": "SyntaxError", "message": first.split(": ", 2)[-1]}
    lines = code.split("\n")
    line = min(max(int(match.group(1)) - 1, 1), len(lines))
    column = len(match.group(5)) + 1 if int(match.group(1)) - 1 == line else 1
    column = min(column, len(lines[line - 1]) + 1)
    return {"name": match.group(2), "message": match.group(3), "line": line, "column": column}


_statm_fd = -1


def _statm() -> list[bytes]:
    # One descriptor, read from its start each time: cheaper than opening the file twice a run.
    global _statm_fd
    if _statm_fd < 0:
        _statm_fd = os.open("/proc/self/statm", os.O_RDONLY | os.O_CLOEXEC)
    return os.pread(_statm_fd, 256, 0).split()


def data_bytes() -> int:
    """The process's data segment and stack, from /proc: what RLIMIT_DATA counts, and the stack (a little more).

    statm, not status's VmData: it is one short line, read in a tenth of the time, twice every run.
    """
    return int(_statm()[5]) * PAGE_BYTES


def resident_bytes() -> int:
    """The process's resident memory, from /proc."""
    return int(_statm()[1]) * PAGE_BYTES


def cap_data(extra: int | None) -> None:
    """Lower the soft RLIMIT_DATA to what the process holds now plus `extra` (None: back to the hard limit)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
    wanted = hard if extra is None else data_bytes() + extra
    if hard != resource.RLIM_INFINITY:
        wanted = min(wanted, hard)
    if wanted != soft:
        resource.setrlimit(resource.RLIMIT_DATA, (wanted, hard))


class Guest:
    """The serving loop: one run at a time, each in a fresh realm, frames over stdin/stdout."""

    def __init__(self, in_fd: int, out_fd: int):
        self.in_fd, self.out_fd = in_fd, out_fd
        self.realm: Realm | None = None  # made inside the event loop: mini-racer binds to the running loop
        self.memory_ceiling = 0
        # The last run's state texts, which the next realm is made holding when that run was handed none (`hold`): a
        # run of the same store again (the Run tab, a QA loop) then starts with them in. A run handed new ones is most
        # likely followed by a run handed others (replay, check, retyped: each body its own store), so its next realm
        # is made bare, and takes the texts in its run if they are the same after all.
        self.state: dict[str, bytes] = {}
        self.hold = False

    def send(self, message: dict[str, Any]) -> None:
        write_frame(self.out_fd, message)

    def serve(self) -> None:
        """Serve runs until the host closes stdin, one fresh realm each. Called inside an event loop, which mini-racer
        binds to when a realm is made; nothing of a run waits on it (see `Answers`)."""
        self.realm = Realm()
        self.send({"t": "ready", "pid": os.getpid()})
        while True:
            try:
                message = read_frame(self.in_fd)
            except ChannelClosed:
                return
            if message.get("t") != "run":
                continue
            realm = self.realm
            keep_serving = self.run(realm, message)
            cap_data(None)
            if not keep_serving:  # the process exits: its realm goes with it (V8 may still be stopping a body)
                return
            realm.close()
            self.realm = self.next_realm()  # made now so that the next run does not wait for it
            self.send({"t": "ready", "pid": os.getpid()})

    def next_realm(self) -> Realm:
        """The next run's realm: holding the last run's state texts if that run was handed none (`hold`)."""
        return Realm(self.state if self.hold else None)

    def run(self, realm: Realm, message: dict[str, Any]) -> bool:
        """Run one body in `realm`; whether the guest can serve another run."""
        _limits["timeout"] = float(message["timeout"])
        _limits["memory"] = int(message["memory"])
        # The body's cap is the body's: the runner's own copies of the state it hands over (the texts in the
        # run's script, the strings they make, their values once the body reads them) come on top. A 5 MB store
        # under a 16 MiB cap stopped a body that read one entry, and a 64 MiB one under 256 MiB crashed the guest
        # (signal 11, past its data limit: the host now sizes it for the state too).
        state = sum(len(message[key]) if key in message else len(self.state.get(key, "")) for key in STATE_TEXTS)
        _limits["state"] = state
        memory = int(_limits["memory"]) + STATE_ROOM * state
        started = time.monotonic()
        deadline = started + float(message["timeout"])
        realm.mr.set_hard_memory_limit(memory)
        cap_data(2 * memory + DATA_SLACK)
        self.memory_ceiling = resident_bytes() + memory
        try:
            return self.drive(realm, message, started, deadline)
        except RunAborted as exc:
            realm.cancel()
            cap_data(None)
            self.finish(realm, {"ok": False, "error": exc.error}, started, exit_after=True)
        except MemoryError:
            realm.cancel()
            cap_data(None)
            self.finish(realm, {"ok": False, "error": memory_error()}, started, exit_after=True)
        except ChannelClosed:
            pass
        except Exception as exc:  # the last guard: the host always gets a result, never a traceback
            realm.cancel()
            self.finish(realm, {"ok": False, "error": {
                "name": "InternalError", "message": f"the runner failed: {type(exc).__name__} (please report it)"}},
                started, exit_after=True)
        return False

    def wait_for(self, realm: Realm, count: int, deadline: float) -> list[Any]:
        """The answers to the `count` tasks posted first, waited for within the run's deadline and memory cap.

        The memory watch runs while V8 does: every MEMORY_POLL_S the wait times out and the process's resident
        memory is read (RunAborted past the ceiling, or past the deadline; the caller cancels the tasks).
        """
        answers = realm.answers
        if time.monotonic() >= deadline:  # a call made past the deadline is not started, however quick
            raise RunAborted(timeout_error())
        while not answers.wait(count, min(MEMORY_POLL_S, deadline - time.monotonic())):
            if time.monotonic() >= deadline:
                raise RunAborted(timeout_error())
            if resident_bytes() > self.memory_ceiling:
                raise RunAborted(memory_error())
        return realm.take(count)

    def drive(self, realm: Realm, message: dict[str, Any], started: float, deadline: float) -> bool:
        from py_mini_racer import JSEvalException

        code: str = message["code"]
        # The host leaves out a text it sent the run before: the guest holds it (`self.state`), and this realm was
        # made holding it too unless the run before was handed new texts (`hold`). One it never sent is the host's bug
        # (KeyError: an InternalError). Texts that came, or the realm does not hold, are put in first, all at once.
        missing = [key for key in STATE_TEXTS if key not in message and key not in self.state]
        if missing:
            raise KeyError(missing[0])
        handed = [key for key in STATE_TEXTS if key in message]
        self.state.update({key: message[key] for key in handed})
        self.hold = not handed
        preloading = bool(handed) or not realm.holds_state
        if preloading:
            realm.post_preload(self.state)
        # One script starts the run: it calls the start hook (by the realm's secret name) with the
        # body's text, which V8 compiles there as a function body of its own (see prelude.js), and a
        # secret for its handles; the state texts (the store, the scene and the manifest) are parsed only
        # when the body reads them. A body cannot reach the name: it is not
        # in the body's text, and no text of the body is joined to a script that runs (the syntax
        # probe in `_syntax_place` joins it to one that throws before anything in it runs).
        source = f"{realm.name}.start(" + js_string(code) + ", " + js_string(message["env"]) + ", " + js_string(os.urandom(12).hex()) + ")"
        # The first poll is posted right behind the script: V8 runs one task at a time, in order, and
        # settles the promises of one (the body's first steps) before the next, so the poll sees what
        # the start left, and the guest wakes once for all (see `Answers`). A script that threw
        # raises JSEvalException when its answer is taken, below.
        realm.post_eval(source)
        realm.post_call("poll")
        try:
            text: str = self.wait_for(realm, PRELOAD_TASKS + 2 if preloading else 2, deadline)[-1]
            while True:
                if text.startswith('{"done"'):
                    head, returned, keep, keep_fns, *compile_failed = text.split("\x00")
                    if compile_failed:
                        self.finish(realm, {"ok": False, "error": self._syntax_place(realm, code, deadline)}, started)
                        return True
                    if resident_bytes() > self.memory_ceiling:
                        raise RunAborted(memory_error())
                    cap_data(None)
                    self.send({"t": "done", "json": head, "returned": returned or None, "keep": keep or None, "keepFns": keep_fns,
                               "logs": realm.read_logs(), "ms": _ms(started), "exit": False})
                    return True
                if text.startswith('{"calls"'):
                    self.send({"t": "calls", "json": text})
                    reply = read_frame(self.in_fd, deadline + 1)
                    # The answers go in by the realm's secret name, as the start did, and the next poll right
                    # behind them: one wake for both.
                    realm.post_eval(f"{realm.name}.answer(" + js_string(reply["json"]) + ")")
                    realm.post_call("poll")
                    text = self.wait_for(realm, 2, deadline)[1]
                elif text.startswith('{"wait"'):
                    wait = float(text[8:-1]) / 1000
                    time.sleep(max(0.0, min(wait, deadline - time.monotonic())))
                    realm.post_call("fire")
                    realm.post_call("poll")
                    text = self.wait_for(realm, 2, deadline)[1]
                else:
                    self.finish(realm, {"ok": False, "error": {
                        "name": "DeadlockError",
                        "message": "the body awaits a promise that nothing will ever settle: every module call was "
                        "answered and no timer is pending; resolve it or do not await it",
                    }}, started)
                    return True
        except JSEvalException as exc:
            # The body broke a built-in the runner's hooks use (it cannot break out of its function:
            # V8 compiles it as a function body); the realm goes away with the run either way.
            self.finish(realm, {"ok": False, "error": {
                "name": "InternalError",
                "message": f"the body broke the runner's own code ({_first_line(exc)}); the next run starts in a fresh realm",
            }}, started)
            return True

    def _syntax_place(self, realm: Realm, code: str, deadline: float) -> dict[str, Any]:
        """The error of a body V8 would not compile as a function body, at its line and column.

        V8's Function constructor names no place, so the body is compiled once more as a script
        that would throw before anything else ran (`throw 0;` first): the parse error then has
        its place. A script that parses is a body that closes the function around it.
        """
        from py_mini_racer import JSEvalException, JSParseException

        realm.post_eval("throw 0; (" + FUNCTION_HEAD + code + "\n})")
        try:
            self.wait_for(realm, 1, deadline)
        except JSParseException as exc:
            return syntax_error(str(exc), code)
        except JSEvalException:
            pass
        return {"name": "SyntaxError", "message": "the body closes the function it runs in (an unbalanced '}' or ')'); "
                "balance its brackets"}

    def finish(self, realm: Realm, out: dict[str, Any], started: float, exit_after: bool = False) -> None:
        try:
            logs = realm.read_logs()
        except MemoryError:
            logs = []
        self.send({"t": "done", "json": json.dumps({"done": out}), "returned": None, "keep": None,
                   "logs": logs, "ms": _ms(started), "exit": exit_after})


def js_string(text: str) -> str:
    """A JavaScript string literal of `text` (JSON's is one); lone surrogates go in as escapes."""
    try:
        return orjson.dumps(text).decode()
    except TypeError:
        return json.dumps(text)


def _first_line(exc: Exception) -> str:
    lines = [line for line in str(exc).split("\n") if line.strip()]
    return lines[0].split(": ", 1)[-1] if lines else type(exc).__name__


def _ms(started: float) -> float:
    return round((time.monotonic() - started) * 1000, 3)


def watch_parent(parent: int) -> None:
    """End the process as soon as its host is gone (it is then reparented): no orphan keeps running V8.

    A thread polling getppid, not PR_SET_PDEATHSIG: that signal follows the host *thread* that
    started the guest, and a host starts guests from worker threads that may end before it does.
    """
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(ORPHAN_POLL_S)
        os._exit(3)

    threading.Thread(target=watch, daemon=True, name="wsi-orphan-watch").start()


def main() -> None:
    """Limit the process, start V8, then serve runs until the host closes stdin."""
    # `--data-limit BYTES` (RLIMIT_DATA, 0: none) and `--parent PID` (exit when it is gone), from the host
    # only: read by hand, as argparse's import alone was a few milliseconds of every guest's start.
    options = dict(zip(sys.argv[1::2], (int(value) for value in sys.argv[2::2])))
    watch_parent(options.get("--parent") or os.getppid())
    data_limit = options.get("--data-limit", 0)
    if data_limit:
        resource.setrlimit(resource.RLIMIT_DATA, (data_limit, data_limit))
    # Frames own the real stdout; anything else that prints (V8 warnings) goes to stderr.
    out_fd = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    guest = Guest(0, out_fd)

    async def serve() -> None:  # mini-racer binds each realm to the running loop; the runs never wait on it
        guest.serve()

    asyncio.run(serve())
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
