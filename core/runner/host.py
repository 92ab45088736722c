"""The host side of the runner: a small pool of warm guest processes, a watchdog, and a never-throwing API.

`Runner.submit(envelope, callback)` returns a `concurrent.futures.Future` at once (a GUI thread
never waits); `Runner.run(envelope)` blocks (the CLI). The guest enforces the timeout itself; the
host's watchdog kills a guest that has not answered by the timeout plus half a second, and
`Runner.stop(future)` kills the guest of that run. A killed or dead guest is replaced by a fresh one.
Every outcome is a result document, `ok: false` with an error when anything went wrong.
A runner starts its guests when it is made (`warm=True`), so their start-up overlaps the caller's own
work; `typescript=True` (the window's runner) also starts the TypeScript stripper, on its own thread.

Cold starts (issue 12). A guest's start is a Python process (`-S`, `-c`: no site, no runpy),
asyncio (mini-racer needs it), mini-racer's 74 MB library and V8: about a bare process starting
V8, most of it before any code of ours runs. So it is overlapped, not repeated: a runner is made
before its caller reads a session (`wsi run`), and a closed runner's idle guest is kept for the
next runner of the process (`SPARE_GUESTS`, one): the guest's next realm is fresh as always, so
the next runner's first run is a warm run. A guest that timed out, hit its cap, was stopped or
died is never kept. Not done: a fork server (a process with V8 loaded that forks guests), as a
guest would then not be the host's child (its exit status, its reaping, the orphan watch).
"""
from __future__ import annotations

import atexit
import collections
import contextlib
import ctypes
import functools
import importlib.util
import os
import queue
import signal
import subprocess
import sys
import threading
import time
import weakref
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable, Iterator

from wsi_inspector.core.runner.envelope import Envelope, EnvelopeError
from wsi_inspector.core.runner.protocol import STATE_ROOM, STATE_TEXTS, ChannelClosed, ChannelTimeout, read_frame, write_frame
from wsi_inspector.core.runner.result import CallTrace, HostTimeout, RunResult, assemble, failure, read_done

ROOT = Path(__file__).resolve().parents[2]
WATCHDOG_GRACE_S = 0.5
START_TIMEOUT_S = 20.0
# The guest's hard RLIMIT_DATA: V8 holds ~560 MiB of data segment at rest (address space it
# commits ahead of use), and each run may take twice its memory cap above that (see guest.py).
DATA_HEADROOM = 1024 * 1024 * 1024
STATE_IN_HEADROOM = 128 * 1024 * 1024  # of that headroom, what the state handed to a run may take (STATE_ROOM a character)


def data_limit_for(memory_bytes: int) -> int:
    """The hard RLIMIT_DATA a guest needs for runs with this memory cap."""
    return 2 * memory_bytes + DATA_HEADROOM
# How the host starts a guest: `-c`, not `-m wsi_inspector.core.runner.guest`, as runpy's imports were a few
# milliseconds of every guest's start; ssl is kept out first (see guest.py).
# The guest runs without `site` (no editable install's finder), so it makes the one namespace itself:
# `wsi_inspector` is the folder that holds core/ (the checkout's top, or the installed package).
GUEST_CODE = ("import sys, types; sys.modules['ssl'] = None; namespace = types.ModuleType('wsi_inspector'); "
              f"namespace.__path__ = [{str(ROOT)!r}]; sys.modules['wsi_inspector'] = namespace; "
              "from wsi_inspector.core.runner.guest import main; main()")
# What the guest imports from outside the standard library (see guest_path).
GUEST_LIBRARIES = ("py_mini_racer", "msgspec", "orjson")
MEMORY_WORDS = ("out of memory", "allocation failed", "heap limit", "invalid size", "cannot allocate")


# The CPU the calling thread runs on (glibc's sched_getcpu), or None where there is none (`_on_this_cpu`).
_current_cpu = getattr(ctypes.CDLL(None), "sched_getcpu", None) if sys.platform.startswith("linux") else None

_live_guests: weakref.WeakSet[GuestProcess] = weakref.WeakSet()
# Idle guests a closed runner left, for the next runner of this process (at most SPARE_GUESTS):
# each is a guest like any in a pool, its next realm fresh, so a new runner's first run skips a
# guest's start-up (a Python process, mini-racer's library, V8) when another runner came before.
SPARE_GUESTS = 1
_spares: list[GuestProcess] = []
_spares_lock = threading.Lock()


@atexit.register
def _kill_live_guests() -> None:
    # Guests run in their own process group (so a kill reaches V8's threads too): end them with us.
    for guest in list(_live_guests):
        guest.kill()


def _keep_spare(guest: GuestProcess) -> bool:
    """Keep a closed runner's idle guest for the next runner (the oldest spare makes room); False if it is not sound."""
    if not guest.healthy or guest.proc.poll() is not None:
        return False
    with _spares_lock:
        _spares.append(guest)
        dropped = _spares[:-SPARE_GUESTS]
        del _spares[:-SPARE_GUESTS]
    for old in dropped:
        old.kill()
    return True


def _spare_guest(data_limit: int) -> GuestProcess | None:
    """A kept guest whose hard memory limit is at least `data_limit`, or None."""
    with _spares_lock:
        for index, guest in enumerate(_spares):
            if guest.data_limit >= data_limit:
                del _spares[index]
                break
        else:
            return None
    if guest.proc.poll() is not None:
        guest.kill()
        return None
    return guest


def _new_guest(data_limit: int) -> GuestProcess:
    """A guest for a pool: a kept one if there is one, else a newly started one."""
    return _spare_guest(data_limit) or GuestProcess(data_limit)


@functools.cache
def guest_path() -> str:
    """The guest's PYTHONPATH: the project and the folders of the three libraries it imports.

    The guest starts without the `site` module (`python -S`): site's work (the venv's .pth files, an
    editable install's finder) was a tenth of a guest's start-up and the guest needs none of it.
    """
    folders: list[str] = []  # the project itself: GUEST_CODE's namespace
    for name in GUEST_LIBRARIES:
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.origin is not None:
            folder = str(Path(spec.origin).parent.parent if spec.submodule_search_locations else Path(spec.origin).parent)
            if folder not in folders:
                folders.append(folder)
    return os.pathsep.join(folders)


class GuestProcess:
    """One guest: a `python -S` child running `wsi_inspector.core.runner.guest`, with frames on its stdin and stdout."""

    def __init__(self, data_limit: int):
        self.data_limit = data_limit
        env = dict(os.environ)
        env["PYTHONPATH"] = guest_path() + os.pathsep + env.get("PYTHONPATH", "")
        self.proc = subprocess.Popen(
            [sys.executable, "-S", "-c", GUEST_CODE, "--data-limit", str(data_limit), "--parent", str(os.getpid())],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            cwd=str(ROOT), env=env, start_new_session=True, close_fds=True,
        )
        self.stderr_tail: collections.deque[str] = collections.deque(maxlen=40)
        threading.Thread(target=self._drain_stderr, daemon=True, name="wsi-guest-stderr").start()
        self.ready = False
        self.healthy = True
        self.held: dict[str, str] = {}  # the state texts this guest was sent last (its next realm holds them)
        _live_guests.add(self)

    def _drain_stderr(self) -> None:
        assert self.proc.stderr is not None
        for line in iter(self.proc.stderr.readline, b""):
            self.stderr_tail.append(line.decode("utf-8", "replace").rstrip())

    @property
    def out_fd(self) -> int:
        assert self.proc.stdout is not None
        return self.proc.stdout.fileno()

    def wait_ready(self, deadline: float) -> None:
        """Block until the guest says it is ready: V8 started, or the next run's realm made."""
        while not self.ready:
            self.ready = read_frame(self.out_fd, deadline).get("t") == "ready"

    def send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        write_frame(self.proc.stdin.fileno(), message)

    def kill(self) -> None:
        """SIGKILL the guest (it may be stuck in V8) and reap it."""
        self.healthy = False
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                if stream:
                    stream.close()
            except OSError:
                pass

    def death_error(self) -> tuple[str, str]:
        """Why the guest died, in the user's words: (error name, message)."""
        try:
            code = self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            code = None
        tail = " ".join(self.stderr_tail)  # V8's fatal-error report ends in a long C stack trace
        if any(word in tail.lower() for word in MEMORY_WORDS) or code == -signal.SIGSEGV and "memory" in tail.lower():
            return "MemoryError", ("the body ran out of memory and its guest process was stopped; look for an array "
                                   "or string that grows without end")
        how = f"signal {-code}" if code is not None and code < 0 else f"exit status {code}"
        last = last_words(list(self.stderr_tail))
        detail = f": {last}" if last else ""
        return "CrashError", f"the guest process running the body died ({how}){detail}"


@contextlib.contextmanager
def _on_this_cpu() -> Iterator[None]:
    """Hold the calling thread on the CPU it runs on while it talks with its guest (Linux; elsewhere nothing).

    The guest answers from this CPU: the host's frame woke it here (Linux wakes a pipe's reader on the writer's CPU).
    Left free, the host is woken by the answer on another CPU, the idle one, which a machine that halts its idle CPUs
    must bring back first: 0.2 ms from the guest's write to the host's read, 0.1 ms held. Interleaved A/B after
    100 ms idle: -0.13 to -0.16 ms a warm run on a quiet machine, -0.00 to -0.85 under two busy loops (docs/runner.md).
    """
    allowed: set[int] | None = None
    if _current_cpu is not None:
        try:
            allowed = os.sched_getaffinity(0)
            os.sched_setaffinity(0, {_current_cpu()})
        except (OSError, ValueError):  # not allowed here, or no CPU to name (sched_getcpu's -1): the thread stays free
            allowed = None
    try:
        yield
    finally:
        if allowed is not None:
            with contextlib.suppress(OSError):
                os.sched_setaffinity(0, allowed)


def last_words(lines: list[str]) -> str:
    """The last line a dying guest wrote that is not part of a Python traceback (a result never shows one)."""
    for line in reversed(lines):
        text = line.strip()
        if text and not line[:1].isspace() and not text.startswith(("Traceback", "File ", "^", "~")):
            return text[:200]
    return ""


class Runner:
    """Runs envelopes on a pool of warm guests; `submit` never blocks and no method throws at a caller."""

    def __init__(self, size: int = 1, data_limit: int | None = None, warm: bool = True, typescript: bool = False):
        """`warm`: start the guests now. `typescript`: also start the TypeScript stripper now, in the
        background, so that the first TypeScript envelope built (on a GUI thread, say) does not wait for it."""
        from wsi_inspector.core.runner.envelope import DEFAULT_MEMORY_BYTES

        self.size = max(1, size)
        self.data_limit = data_limit if data_limit is not None else data_limit_for(DEFAULT_MEMORY_BYTES)
        self._idle: queue.SimpleQueue[GuestProcess] = queue.SimpleQueue()
        self._executor = ThreadPoolExecutor(max_workers=self.size, thread_name_prefix="wsi-runner")
        self._slots = threading.BoundedSemaphore(self.size)  # runs at once, from `submit` and `run` together
        self._lock = threading.Lock()
        self._active: dict[int, GuestProcess] = {}
        self._stopped: set[int] = set()
        self._closed = False
        if warm:
            for _ in range(self.size):
                self._idle.put(_new_guest(self.data_limit))
        if typescript:  # after the guests: they start in their own processes meanwhile
            from wsi_inspector.core.runner.typescript import prepare_in_background

            prepare_in_background()

    def submit(self, envelope: Envelope | Callable[[], Envelope], callback: Callable[[RunResult], None] | None = None) -> Future:
        """Start a run; the Future's result is the result document. `callback` runs on a worker thread.

        `envelope` may be a function that makes it (`build_envelope` with its arguments): it is then made on the
        runner's thread, as the window needs (its store's texts grow with the session); an EnvelopeError is
        the run's result, as in replay.
        """
        future: Future = Future()
        if callback is not None:
            future.add_done_callback(lambda f: callback(f.result()))
        if self._closed:
            future.set_result(failure("RunnerClosed", "the runner was closed; open a new one to run bodies"))
            return future
        self._executor.submit(self._work, envelope, future)
        return future

    def run(self, envelope: Envelope) -> RunResult:
        """Run and wait for the result (for the command line and tests), on the calling thread.

        Not through a worker: a hop to another thread and back is two waits for a core, most of a
        warm trivial run's time on a loaded machine. Ctrl+C (KeyboardInterrupt) kills the guest.
        """
        future: Future = Future()
        if self._closed:
            return failure("RunnerClosed", "the runner was closed; open a new one to run bodies")
        self._work(envelope, future)
        return future.result()

    def stop(self, future: Future) -> None:
        """Stop the run behind `future`: its guest is killed and the result says it was stopped."""
        with self._lock:
            self._stopped.add(id(future))
            guest = self._active.get(id(future))
        if guest is not None:
            guest.kill()

    def close(self) -> None:
        """Stop every running guest; later runs fail with RunnerClosed. An idle guest may be kept as a spare."""
        self._closed = True
        with self._lock:
            for guest in self._active.values():
                guest.kill()
        while True:
            try:
                guest = self._idle.get_nowait()
            except queue.Empty:
                break
            if not _keep_spare(guest):
                guest.kill()
        self._executor.shutdown(wait=False, cancel_futures=True)

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _take(self, memory_bytes: int) -> GuestProcess:
        # A run with a bigger memory cap than the pool's needs a guest with a higher hard limit.
        limit = max(self.data_limit, data_limit_for(memory_bytes))
        try:
            guest = self._idle.get_nowait()
        except queue.Empty:
            return _new_guest(limit)
        if guest.proc.poll() is not None or guest.data_limit < limit:
            guest.kill()  # the bigger guest then takes its place in the pool
            return _new_guest(limit)
        return guest

    def _work(self, envelope: Envelope | Callable[[], Envelope], future: Future) -> None:
        if not future.set_running_or_notify_cancel():
            return
        with self._slots:
            try:
                result = self._run_envelope(envelope, future)
            except Exception as exc:  # the last guard: a caller always gets a result
                result = failure("InternalError", f"the runner failed: {type(exc).__name__}: {exc} (please report it)")
        future.set_result(result)

    def _run_envelope(self, envelope: Envelope | Callable[[], Envelope], future: Future) -> RunResult:
        if callable(envelope):
            try:
                envelope = envelope()
            except EnvelopeError as exc:
                return failure("EnvelopeError", str(exc))
        envelope.prepare()  # TypeScript erased here, on the runner's thread, within the run's timeout
        if envelope.refusal is not None:
            return failure(**envelope.refusal)
        # A guest whose data limit has room for the body's cap and the state handed over (guest.py `run`); the
        # headroom every guest has takes a state of a few MB, so only a bigger one asks for a bigger guest.
        state = len(envelope.store_json) + len(envelope.scene_json) + len(envelope.manifest_json())
        guest = self._take(envelope.options.memory_bytes + max(0, STATE_ROOM * state - STATE_IN_HEADROOM))
        with self._lock:
            self._active[id(future)] = guest
        started = time.monotonic()
        trace = CallTrace(envelope)
        try:
            with _on_this_cpu():
                result = self._drive(guest, envelope, trace, started, future)
        except BaseException:  # a KeyboardInterrupt too, in `run`
            guest.healthy = False  # the conversation with this guest is lost mid-way: never reuse it
            raise
        finally:
            with self._lock:
                self._active.pop(id(future), None)
                self._stopped.discard(id(future))
            if guest.healthy and guest.proc.poll() is None and not self._closed:
                self._idle.put(guest)
            else:
                guest.kill()
                if not self._closed:
                    self._idle.put(_new_guest(self.data_limit))  # warm the replacement now
        return result

    def _drive(self, guest: GuestProcess, envelope: Envelope, trace: CallTrace, started: float, future: Future) -> RunResult:
        try:
            guest.wait_ready(started + START_TIMEOUT_S)
        except (ChannelClosed, ChannelTimeout, OSError):
            guest.kill()
            with self._lock:
                if id(future) in self._stopped:  # stopped while its guest was still starting
                    return failure("StoppedError", "the run was stopped before it finished", trace=trace)
            name, message = guest.death_error()
            return failure("CrashError" if name == "CrashError" else name, f"the guest process did not start: {message}")
        started = time.monotonic()  # the timeout counts from here: guest start-up and realms are not the body's time
        trace.started = started
        deadline = started + envelope.options.timeout_s + WATCHDOG_GRACE_S
        try:
            frame = envelope.frame()
            for key in STATE_TEXTS:  # most runs share their store and scene: a text crosses once per guest
                text = frame[key]
                if guest.held.get(key) == text:
                    del frame[key]
                # This very object next time: envelopes of one store share theirs (envelope.StoreTexts), and bytes
                # compare equal to themselves at once, where an equal copy is compared byte by byte.
                guest.held[key] = text
            guest.send(frame)
            while True:
                frame = read_frame(guest.out_fd, deadline)
                if frame.get("t") == "calls":
                    try:
                        # The host's answering counts against the run's deadline (the guest waits for it).
                        answers = trace.answer(frame["json"], deadline)
                    except HostTimeout:
                        raise ChannelTimeout from None
                    except (ValueError, KeyError, TypeError):
                        guest.kill()
                        return failure("InternalError", "the runner's guest sent a batch of calls it could not read "
                                       "(please report it); the next run starts in a fresh guest",
                                       trace=trace, duration_ms=(time.monotonic() - started) * 1000)
                    guest.send({"t": "answers", "json": answers})
                elif frame.get("t") == "done":
                    guest.ready = False  # it says so again once the next run's realm is made
                    if frame.get("exit"):
                        guest.healthy = False  # the guest exits after this run: take a fresh one
                    try:
                        done = read_done(frame)
                    except (ValueError, KeyError, TypeError):
                        guest.kill()
                        return failure("InternalError", "the runner's guest sent a result it could not read "
                                       "(please report it); the next run starts in a fresh guest",
                                       trace=trace, duration_ms=(time.monotonic() - started) * 1000)
                    return assemble(done, frame.get("logs", []), trace, envelope, (time.monotonic() - started) * 1000)
        except ChannelTimeout:
            guest.kill()
            return failure("TimeoutError", f"the body ran longer than its timeout of {envelope.options.timeout_s:g} s "
                           "and its guest process was killed; look for a loop that never ends, or raise the timeout",
                           trace=trace, duration_ms=(time.monotonic() - started) * 1000)
        except (ChannelClosed, OSError):
            elapsed = (time.monotonic() - started) * 1000
            with self._lock:
                stopped = id(future) in self._stopped
            guest.kill()
            if stopped:
                return failure("StoppedError", "the run was stopped before it finished", trace=trace, duration_ms=elapsed)
            name, message = guest.death_error()
            return failure(name, message, trace=trace, duration_ms=elapsed)
