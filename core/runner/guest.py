"""The guest process (`python -m core.runner.guest`): runs bodies in V8 for the host, one at a time.

It reads `run` frames on stdin and writes `calls` and `done` frames on stdout. Module calls are
answered by the host (`answers` frames), so the guest knows nothing of sessions. The timeout is
enforced here around every V8 evaluation; a run that times out, hits the memory cap or leaves V8
unusable is reported and then the process exits, and the host starts a fresh guest. A body that
changes globals or built-ins gets a fresh V8 context before the next run (every body starts in
a fresh realm). Logs live in a shared buffer that Python reads even while a loop holds V8.
"""
from __future__ import annotations

import argparse
import asyncio
import importlib.resources
import os
import re
import resource
import struct
import sys
import time
from typing import Any

from core.runner.protocol import ChannelClosed, read_frame, write_frame

PRELUDE = importlib.resources.files("core.runner").joinpath("prelude.js").read_text(encoding="utf-8")  # package data
WRAP_HEAD = "__wsi.start(async function (inputs, kept, modules, scene, console, log) {\n"
RING_UNITS = 1 << 17
MAX_LOG_ENTRIES = 300
MAX_LOG_CHARS = 16_000
PARSE_PLACE = re.compile(r"^[^\n]*?:(\d+): (\w*Error): ([^\n]*)\n([^\n]*)\n( *)\^", re.S)


class RunAborted(Exception):
    """V8 can no longer be trusted (timeout, memory cap, termination): report, then exit."""

    def __init__(self, error: dict[str, Any]):
        super().__init__(error["message"])
        self.error = error


class Realm:
    """One V8 context with the prelude loaded, and a view of its log ring."""

    def __init__(self) -> None:
        from py_mini_racer import MiniRacer

        self.mr = MiniRacer()
        self.mr.eval(PRELUDE)
        view = self.mr.eval("__wsi.logBuffer")
        self.header = view[:32].cast("B")
        self.ring = view[32:].cast("H")

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
        return data.decode("utf-16-le", "surrogatepass")

    async def eval(self, code: str, deadline: float) -> Any:
        """Evaluate `code`, bounded by the run's deadline; RunAborted when V8 is lost."""
        from py_mini_racer import JSOOMException, JSTimeoutException

        try:
            from py_mini_racer import JSTerminatedException
        except ImportError:  # older mini-racer
            JSTerminatedException = JSOOMException  # noqa: N806

        left = deadline - time.monotonic()
        if left <= 0:
            raise RunAborted(timeout_error())
        try:
            value = await asyncio.wait_for(self.mr.eval_cancelable(code), left)
        except (asyncio.TimeoutError, JSTimeoutException):
            raise RunAborted(timeout_error()) from None
        except (JSOOMException, JSTerminatedException):
            raise RunAborted(memory_error()) from None
        if self.mr.was_hard_memory_limit_reached():
            raise RunAborted(memory_error())
        return value


_limits = {"timeout": 10.0, "memory": 256 * 1024 * 1024}


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
        "stopped; look for an array or string that grows without end",
    }


def syntax_error(message: str, body_lines: int) -> dict[str, Any]:
    """A V8 parse error at the body's own line and column."""
    match = PARSE_PLACE.match(message)
    if not match:
        first = message.split("\n", 1)[0]
        return {"name": "SyntaxError", "message": first.split(": ", 2)[-1]}
    line = min(max(int(match.group(1)) - 1, 1), max(body_lines, 1))
    column = len(match.group(5)) + 1 if int(match.group(1)) - 1 == line else 1
    return {"name": match.group(2), "message": match.group(3), "line": line, "column": column}


class Guest:
    """The serving loop: one run at a time, frames over stdin/stdout."""

    def __init__(self, in_fd: int, out_fd: int):
        self.in_fd, self.out_fd = in_fd, out_fd
        self.realm: Realm | None = None  # made inside the event loop: mini-racer binds to the running loop

    def send(self, message: dict[str, Any]) -> None:
        write_frame(self.out_fd, message)

    async def serve(self) -> None:
        self.realm = Realm()
        self.send({"t": "ready", "pid": os.getpid()})
        while True:
            try:
                message = read_frame(self.in_fd)
            except ChannelClosed:
                return
            if message.get("t") != "run":
                continue
            dirty = await self.run(message)
            if dirty is None:
                return
            if dirty:
                self.realm = Realm()

    async def run(self, message: dict[str, Any]) -> bool | None:
        """Run one body; whether it left the realm dirty, or None when the process must exit."""
        _limits["timeout"] = float(message["timeout"])
        _limits["memory"] = int(message["memory"])
        started = time.monotonic()
        deadline = started + float(message["timeout"])
        self.realm.mr.set_hard_memory_limit(int(message["memory"]))
        code: str = message["code"]
        source = WRAP_HEAD + code + "\n}, " + message["env"] + ");\n//# sourceURL=body.js"
        from py_mini_racer import JSEvalException, JSParseException

        try:
            try:
                await self.realm.eval(source, deadline)
            except JSParseException as exc:
                self.finish({"ok": False, "error": syntax_error(str(exc), code.count("\n") + 1)}, started)
                return False  # nothing ran
            except JSEvalException as exc:
                # Only a body that closes the function it is wrapped in (an extra `}`) gets here.
                self.finish({"ok": False, "error": {
                    "name": "SyntaxError",
                    "message": "the body closes the function it runs in (an unbalanced '}' or ')'); "
                    f"balance its brackets ({_first_line(exc)})",
                }}, started)
                return True
            while True:
                text: str = await self.realm.eval("__wsi.poll()", deadline)
                if text.startswith('{"done"'):
                    self.send({"t": "done", "json": text, "logs": self.realm.read_logs(), "ms": _ms(started)})
                    return text.endswith('"dirty":true}')
                if text.startswith('{"calls"'):
                    self.send({"t": "calls", "json": text})
                    reply = read_frame(self.in_fd, deadline + 1)
                    await self.realm.eval("__wsi.answer(" + reply["json"] + ")", deadline)
                elif text.startswith('{"wait"'):
                    wait = float(text[8:-1]) / 1000
                    await asyncio.sleep(max(0.0, min(wait, deadline - time.monotonic())))
                    await self.realm.eval("__wsi.fire()", deadline)
                else:
                    self.finish({"ok": False, "error": {
                        "name": "DeadlockError",
                        "message": "the body awaits a promise that nothing will ever settle: every module call was "
                        "answered and no timer is pending; resolve it or do not await it",
                    }}, started)
                    break
        except RunAborted as exc:
            self.finish({"ok": False, "error": exc.error}, started)
            return None
        except JSEvalException as exc:
            self.finish({"ok": False, "error": {
                "name": "InternalError",
                "message": f"the body broke the runner's own code ({_first_line(exc)}); it runs again in a fresh guest",
            }}, started)
            return None
        except ChannelClosed:
            return None
        try:
            return bool(await self.realm.eval("__wsi.end()", time.monotonic() + 5))
        except RunAborted:
            return None

    def finish(self, out: dict[str, Any], started: float) -> None:
        import json

        self.send({"t": "done", "json": json.dumps({"done": out}), "logs": self.realm.read_logs(), "ms": _ms(started)})


def _first_line(exc: Exception) -> str:
    lines = [line for line in str(exc).split("\n") if line.strip()]
    return lines[0].split(": ", 1)[-1] if lines else type(exc).__name__


def _ms(started: float) -> float:
    return round((time.monotonic() - started) * 1000, 3)


def main() -> None:
    """Limit the process, start V8, then serve runs until the host closes stdin."""
    parser = argparse.ArgumentParser(prog="python -m core.runner.guest")
    parser.add_argument("--data-limit", type=int, default=0, help="RLIMIT_DATA in bytes (0: none)")
    args = parser.parse_args()
    if args.data_limit:
        resource.setrlimit(resource.RLIMIT_DATA, (args.data_limit, args.data_limit))
    # Frames own the real stdout; anything else that prints (V8 warnings) goes to stderr.
    out_fd = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    guest = Guest(0, out_fd)
    asyncio.run(guest.serve())
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
